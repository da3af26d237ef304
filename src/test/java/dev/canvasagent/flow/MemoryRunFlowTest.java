package dev.canvasagent.flow;

import dev.canvasagent.config.DatabaseConfig;
import java.util.Optional;

class MemoryRunFlowTest extends RunFlowContract {
  @Override
  Optional<DatabaseConfig> database() {
    return Optional.empty();
  }
}
