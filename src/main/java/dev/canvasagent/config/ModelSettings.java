package dev.canvasagent.config;

import static dev.canvasagent.config.Check.flag;
import static dev.canvasagent.config.Check.oneOf;
import static dev.canvasagent.config.Check.optionalWhole;
import static dev.canvasagent.config.Check.text;

import java.util.List;

/** {@code model}: which model runs use by default, and knobs of the model calls. */
final class ModelSettings {
  static final Setting DEFAULT =
      Setting.of(
          "model.default",
          "CANVAS_STEWARD_MODEL",
          text(),
          "debug/fake",
          "Model for runs that name none (`debug/fake` or `provider:model`, see \"Model providers\"); must be known and its provider configured, else startup stops naming the missing variable.");
  static final Setting DEBUG =
      Setting.of(
          "model.debug",
          "CANVAS_STEWARD_DEBUG",
          flag(),
          false,
          "Debug-level logs for the server (still redacted); the `run.finished` line adds the message's length and a hash prefix, never its text.");
  static final Setting DISABLE_PROMPT_CACHE =
      Setting.of(
          "model.disablePromptCache",
          "CANVAS_AGENT_DISABLE_PROMPT_CACHE",
          flag(),
          false,
          "Turns off provider prompt caching (no `cache_control` in Anthropic requests) and prompt-part memoization (\"Context\").");
  static final Setting ANTHROPIC_CACHE_TTL =
      Setting.of(
          "model.anthropicCacheTtl",
          "ANTHROPIC_CACHE_TTL",
          oneOf("5m", "1h"),
          "5m",
          "`5m` or `1h`: the `ttl` of the `cache_control` on Anthropic's system prompt and last tool.");
  static final Setting FAKE_TOKEN_DELAY_MS =
      Setting.of(
          "model.fakeTokenDelayMs",
          "CANVAS_AGENT_FAKE_TOKEN_DELAY_MS",
          optionalWhole(0, 10_000),
          "",
          "Pause between `debug/fake`'s stream events, 0–10000 ms (0: as fast as the event loop allows); empty: `chunkDelayMs` of `conf/fake-model.json` (5).");

  static final List<Setting> ALL =
      List.of(DEFAULT, DEBUG, DISABLE_PROMPT_CACHE, ANTHROPIC_CACHE_TTL, FAKE_TOKEN_DELAY_MS);

  private ModelSettings() {}

  static AppConfig.Model read(ConfigValues values) {
    return new AppConfig.Model(
        values.text(DEFAULT),
        values.flag(DEBUG),
        values.flag(DISABLE_PROMPT_CACHE),
        values.text(ANTHROPIC_CACHE_TTL),
        values.optionalWhole(FAKE_TOKEN_DELAY_MS));
  }
}
