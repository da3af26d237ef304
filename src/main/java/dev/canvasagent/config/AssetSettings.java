package dev.canvasagent.config;

import static dev.canvasagent.config.Check.textOrEmpty;
import static dev.canvasagent.config.Check.whole;

import java.nio.file.Path;
import java.util.List;

/** {@code assets}: the images and videos people put on boards. */
final class AssetSettings {
  static final Setting MAX_BYTES =
      Setting.of(
          "assets.maxBytes",
          "CANVAS_AGENT_ASSET_MAX_BYTES",
          whole(1_024, 256 * 1024 * 1024),
          10 * 1024 * 1024,
          "The largest image or video a person may upload to a room, in bytes; a larger one is refused with 413 and nothing is kept (1024–268435456).");
  static final Setting DIRECTORY =
      Setting.of(
          "assets.directory",
          "CANVAS_AGENT_ASSET_DIR",
          textOrEmpty(),
          "",
          "Memory store only: the directory the embedded server keeps uploaded assets in (created when missing). Empty: `canvas-agent-assets` under the system's temporary directory. With PostgreSQL, assets are kept in the database.");

  static final List<Setting> ALL = List.of(MAX_BYTES, DIRECTORY);

  private AssetSettings() {}

  static AppConfig.Assets read(ConfigValues values) {
    String directory = values.text(DIRECTORY);
    return new AppConfig.Assets(
        values.whole(MAX_BYTES),
        directory.isEmpty()
            ? Path.of(System.getProperty("java.io.tmpdir"), "canvas-agent-assets")
            : Path.of(directory));
  }
}
