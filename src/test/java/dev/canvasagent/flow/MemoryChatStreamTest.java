package dev.canvasagent.flow;

import dev.canvasagent.config.DatabaseConfig;
import java.util.Optional;

class MemoryChatStreamTest extends ChatStreamContract {
  @Override
  Optional<DatabaseConfig> database() {
    return Optional.empty();
  }
}
