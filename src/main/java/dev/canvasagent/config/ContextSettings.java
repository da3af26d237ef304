package dev.canvasagent.config;

import static dev.canvasagent.config.Check.parts;
import static dev.canvasagent.config.Check.whole;

import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;

/** {@code context}: what a run's prompt may hold, and how long its built parts are reused. */
final class ContextSettings {
  static final Setting SHAPE_STATE_LIMIT =
      Setting.of(
          "context.shapeStateLimit",
          "CANVAS_AGENT_SHAPE_STATE_LIMIT",
          whole(0, 10 * 1024 * 1024),
          4096,
          "Bytes of shape state (tldraw records) in a prompt; 0 sends none.");
  static final Setting TRANSCRIPT_WINDOW_MS =
      Setting.of(
          "context.transcriptWindowMs",
          "CANVAS_AGENT_TRANSCRIPT_WINDOW_MS",
          whole(0, 24 * 60 * 60 * 1000),
          60_000,
          "How far back the prompt's transcript reaches; 0 leaves it out.");
  static final Setting CHAT_MESSAGES =
      Setting.noVariable(
          "context.chatMessages",
          whole(0, 1_000),
          20,
          "Chat messages of the session the prompt shows (the newest).");
  static final Setting PROMPT_CACHE_TTL_MS =
      Setting.of(
          "context.promptCacheTtlMs",
          "CANVAS_AGENT_PROMPT_CACHE_TTL_MS",
          whole(0, 60 * 60 * 1000),
          120_000,
          "How long built prompt parts are reused for the same key; 0 turns the memo off.");
  static final Setting PROMPT_CACHE_ENTRIES =
      Setting.noVariable(
          "context.promptCacheEntries",
          whole(1, 100_000),
          64,
          "Memoized contexts kept; beyond it the least recently used goes.");
  static final Setting TOTAL_BUDGET_BYTES =
      Setting.noVariable(
          "context.totalBudgetBytes",
          whole(1_024, 16 * 1024 * 1024),
          131_072,
          "Bytes of all context sections together (not the message or the screenshot).");

  /**
   * One budget per prompt part, by the part's name; docs/runs.md, "Context", lists the parts and their
   * budgets. A part not named here gets {@code ContextBuilder.DEFAULT_BUDGET_BYTES}, and {@code
   * CANVAS_AGENT_CONFIG} may set only the parts named here.
   */
  static final Setting BUDGETS =
      Setting.noVariable(
          "context.budgets",
          parts(0, 16 * 1024 * 1024, "[Context](runs.md#context)"),
          new JsonObject()
              .put("message", 81_920)
              .put("followUp", 512)
              .put("docVersion", 64)
              .put("viewport", 256)
              .put("selection", 8192)
              .put("selectedShapes", 16_384)
              .put("blurryShapes", 49_152)
              .put("transcript", 8192)
              .put("contextItems", 4096)
              .put("todos", 4096)
              .put("chat", 8192)
              .put("peripheral", 4096)
              .put("screenshot", 16_777_216),
          "Bytes of each part.");

  static final List<Setting> ALL =
      List.of(
          SHAPE_STATE_LIMIT,
          TRANSCRIPT_WINDOW_MS,
          CHAT_MESSAGES,
          PROMPT_CACHE_TTL_MS,
          PROMPT_CACHE_ENTRIES,
          TOTAL_BUDGET_BYTES,
          BUDGETS);

  private ContextSettings() {}

  static AppConfig.Context read(ConfigValues values) {
    Map<String, Integer> budgets = values.parts(BUDGETS);
    return new AppConfig.Context(
        values.whole(TRANSCRIPT_WINDOW_MS),
        values.whole(CHAT_MESSAGES),
        values.whole(PROMPT_CACHE_TTL_MS),
        values.whole(PROMPT_CACHE_ENTRIES),
        values.whole(TOTAL_BUDGET_BYTES),
        budgets);
  }
}
