package dev.canvasagent.bridge;

import dev.canvasagent.config.DatabaseConfig;
import java.util.Optional;

class MemoryAssetRoutesTest extends AssetRoutesContract {
  @Override
  protected Optional<DatabaseConfig> database() {
    return Optional.empty();
  }
}
