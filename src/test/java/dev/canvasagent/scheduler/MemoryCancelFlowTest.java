package dev.canvasagent.scheduler;

import dev.canvasagent.config.DatabaseConfig;
import java.util.Optional;

class MemoryCancelFlowTest extends CancelFlowContract {
  @Override
  Optional<DatabaseConfig> database() {
    return Optional.empty();
  }
}
