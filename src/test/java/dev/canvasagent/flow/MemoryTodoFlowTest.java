package dev.canvasagent.flow;

import dev.canvasagent.config.DatabaseConfig;
import java.util.Optional;

class MemoryTodoFlowTest extends TodoFlowContract {
  @Override
  Optional<DatabaseConfig> database() {
    return Optional.empty();
  }
}
