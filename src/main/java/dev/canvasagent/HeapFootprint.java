package dev.canvasagent;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import dev.canvasagent.config.AppConfig;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the server's resident memory follow the heap it needs. G1 by its defaults keeps the heap it
 * once grew to (up to 70% of it free after a collection) and collects only when allocation asks, so a
 * burst — ten large rooms filled — leaves hundreds of MiB resident long after the boards that needed
 * them were let go. The three flags that change this are manageable, so the server sets them itself
 * at startup, however it was launched: periodic collections when idle ({@code G1PeriodicGCInterval})
 * and a smaller free share after each ({@code MaxHeapFreeRatio}, {@code MinHeapFreeRatio}). A flag
 * given on the command line is left as given; with another collector nothing is changed.
 */
final class HeapFootprint {
  private static final Logger LOG = LoggerFactory.getLogger(HeapFootprint.class);

  private HeapFootprint() {}

  /** The flags this would set for {@code heap}, in the order they must be set (minimum first). */
  static Map<String, String> flags(AppConfig.Heap heap) {
    Map<String, String> flags = new LinkedHashMap<>();
    flags.put("MinHeapFreeRatio", Integer.toString(heap.maxFreePercent() / 2));
    flags.put("MaxHeapFreeRatio", Integer.toString(heap.maxFreePercent()));
    flags.put("G1PeriodicGCInterval", Integer.toString(heap.returnIdleMs()));
    return flags;
  }

  /** Sets the flags not given on the command line, and logs what each is now. */
  static void apply(AppConfig.Heap heap) {
    if (!usesG1(ManagementFactory.getGarbageCollectorMXBeans())) {
      LOG.atInfo().addKeyValue("applied", false).log("heap.footprint: not G1, left as it is");
      return;
    }
    HotSpotDiagnosticMXBean hotSpot =
        ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
    var line = LOG.atInfo();
    for (Map.Entry<String, String> flag : flags(heap).entrySet()) {
      VMOption option = hotSpot.getVMOption(flag.getKey());
      if (option.getOrigin() == VMOption.Origin.DEFAULT
          || option.getOrigin() == VMOption.Origin.ERGONOMIC) {
        try {
          hotSpot.setVMOption(flag.getKey(), flag.getValue());
        } catch (IllegalArgumentException refused) {
          // MinHeapFreeRatio above a MaxHeapFreeRatio given on the command line, say: theirs wins.
          LOG.atWarn()
              .addKeyValue("flag", flag.getKey())
              .addKeyValue("value", flag.getValue())
              .addKeyValue("error", refused.getMessage())
              .log("heap.footprint.refused");
        }
      }
      VMOption now = hotSpot.getVMOption(flag.getKey());
      line = line.addKeyValue(flag.getKey(), now.getValue() + " (" + now.getOrigin() + ")");
    }
    line.log("heap.footprint");
  }

  static boolean usesG1(List<GarbageCollectorMXBean> collectors) {
    return collectors.stream().anyMatch(collector -> collector.getName().startsWith("G1"));
  }
}
