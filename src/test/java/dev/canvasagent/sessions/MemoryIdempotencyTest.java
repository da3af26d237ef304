package dev.canvasagent.sessions;

import dev.canvasagent.config.DatabaseConfig;
import java.util.Optional;

class MemoryIdempotencyTest extends IdempotencyContract {
  @Override
  Optional<DatabaseConfig> database() {
    return Optional.empty();
  }

  @Override
  long rows(String table, String where) {
    return -1;
  }
}
