package dev.canvasagent.runner;

import dev.canvasagent.config.DatabaseConfig;
import java.util.Optional;

class MemoryOutsideActionTest extends OutsideActionContract {
  @Override
  Optional<DatabaseConfig> database() {
    return Optional.empty();
  }
}
