package dev.canvasagent.flow;

import dev.canvasagent.config.DatabaseConfig;
import java.util.Optional;

class MemoryFollowUpRulesTest extends FollowUpRulesContract {
  @Override
  Optional<DatabaseConfig> database() {
    return Optional.empty();
  }
}
