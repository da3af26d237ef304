package dev.canvasagent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The memory store's history retention: defaults, overrides, and values out of range refused by name. */
class MemorySettingsTest {
  @Test
  void theDefaultsAreTenThousandRevisionsAndSixtyFourMebibytesPerRoom() {
    AppConfig.MemoryHistory history = ConfigLoader.load(Map.of()).memoryHistory();
    assertEquals(new AppConfig.MemoryHistory(10_000, 64 * 1024 * 1024), history);
  }

  @Test
  void theVariablesSetBoth() {
    AppConfig.MemoryHistory history =
        ConfigLoader.load(
                Map.of(
                    "CANVAS_AGENT_MEMORY_REVISIONS_PER_ROOM", "50",
                    "CANVAS_AGENT_MEMORY_REVISION_BYTES_PER_ROOM", "1048576"))
            .memoryHistory();
    assertEquals(new AppConfig.MemoryHistory(50, 1_048_576), history);
  }

  @Test
  void noRevisionsAtAllIsRefusedNamingTheVariable() {
    ConfigException refused =
        ConfigLoaderTest.refused(Map.of("CANVAS_AGENT_MEMORY_REVISIONS_PER_ROOM", "0"));
    assertTrue(
        refused.getMessage().contains("CANVAS_AGENT_MEMORY_REVISIONS_PER_ROOM"),
        refused.getMessage());
  }

  @Test
  void aByteLimitBelowSixtyFourKibibytesIsRefusedNamingTheVariable() {
    ConfigException refused =
        ConfigLoaderTest.refused(Map.of("CANVAS_AGENT_MEMORY_REVISION_BYTES_PER_ROOM", "1024"));
    assertTrue(
        refused.getMessage().contains("CANVAS_AGENT_MEMORY_REVISION_BYTES_PER_ROOM"),
        refused.getMessage());
  }
}
