package dev.canvasagent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

  /** Out of range: refused at startup with a message naming the variable. */
  @ParameterizedTest
  @CsvSource({
    "CANVAS_AGENT_MEMORY_REVISIONS_PER_ROOM, 0",
    "CANVAS_AGENT_MEMORY_REVISIONS_PER_ROOM, 1000001",
    "CANVAS_AGENT_MEMORY_REVISION_BYTES_PER_ROOM, 1024",
    "CANVAS_AGENT_MEMORY_REVISION_BYTES_PER_ROOM, many"
  })
  void aValueOutOfRangeIsRefusedNamingTheVariable(String variable, String value) {
    ConfigException refused = ConfigLoaderTest.refused(Map.of(variable, value));
    assertTrue(refused.getMessage().contains(variable), refused.getMessage());
  }
}
