package dev.canvasagent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.canvasagent.config.AppConfig;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

class HeapFootprintTest {

  @Test
  void the_least_free_share_is_half_the_most_and_is_set_first() {
    // MinHeapFreeRatio must never exceed MaxHeapFreeRatio, so lowering both sets the minimum first.
    assertEquals(
        List.of("MinHeapFreeRatio", "MaxHeapFreeRatio", "G1PeriodicGCInterval"),
        List.copyOf(HeapFootprint.flags(new AppConfig.Heap(30_000, 20)).keySet()));
    assertEquals("10", HeapFootprint.flags(new AppConfig.Heap(30_000, 20)).get("MinHeapFreeRatio"));
    assertEquals("5", HeapFootprint.flags(new AppConfig.Heap(0, 11)).get("MinHeapFreeRatio"));
    assertEquals("0", HeapFootprint.flags(new AppConfig.Heap(0, 11)).get("G1PeriodicGCInterval"));
  }

  @Test
  void only_g1_is_tuned() {
    // This JVM's collectors: the suite runs on the default G1.
    assertTrue(HeapFootprint.usesG1(ManagementFactory.getGarbageCollectorMXBeans()));
    assertFalse(HeapFootprint.usesG1(List.of()));
  }
}
