package dev.canvasagent.flow;

import dev.canvasagent.config.DatabaseConfig;
import java.util.Optional;

class MemoryRunRevertTest extends RunRevertContract {
  @Override
  Optional<DatabaseConfig> database() {
    return Optional.empty();
  }
}
