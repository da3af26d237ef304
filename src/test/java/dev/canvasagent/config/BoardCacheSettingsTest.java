package dev.canvasagent.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The patch engine's held boards: defaults, overrides, and values out of range refused by name. */
class BoardCacheSettingsTest {
  @Test
  void theDefaultsAre256MebibytesAndTenIdleMinutesAndTheVariablesSetThem() {
    assertEquals(
        new AppConfig.BoardCache(256 * 1024 * 1024, 600_000),
        ConfigLoader.load(Map.of()).boardCache());
    assertEquals(
        new AppConfig.BoardCache(1_048_576, 1_000),
        ConfigLoader.load(
                Map.of(
                    "CANVAS_AGENT_BOARD_CACHE_BYTES", "1048576",
                    "CANVAS_AGENT_BOARD_CACHE_IDLE_MS", "1000"))
            .boardCache());
  }

  @ParameterizedTest
  @CsvSource({
    "CANVAS_AGENT_BOARD_CACHE_BYTES, 1048575",
    "CANVAS_AGENT_BOARD_CACHE_BYTES, 2147483648",
    "CANVAS_AGENT_BOARD_CACHE_BYTES, lots",
    "CANVAS_AGENT_BOARD_CACHE_IDLE_MS, 999",
    "CANVAS_AGENT_BOARD_CACHE_IDLE_MS, 86400001",
    "CANVAS_AGENT_BOARD_CACHE_IDLE_MS, -5"
  })
  void aValueOutOfRangeIsRefusedNamingTheVariable(String variable, String value) {
    ConfigException refused = ConfigLoaderTest.refused(Map.of(variable, value));
    assertTrue(refused.getMessage().contains(variable), refused.getMessage());
  }
}
