package dev.canvasagent.runner.context;

import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.store.SessionStore.Origin;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Assembles a run's context from its parts: each renders within its own budget, then, in priority
 * order, each part's section goes in while the total budget of the context text has room for it
 * (a part that does not fit is left out whole; later, smaller parts may still fit). The board-derived
 * parts are memoized per {@code {room, docVersion, selection, viewport}}, the session origin and what
 * the memoizable parts gathered (the transcript), unless the prompt cache is disabled. Not
 * thread-safe: one per runner verticle.
 */
public final class ContextBuilder {
  /** The budget of a part {@code context.budgets} does not name. */
  static final int DEFAULT_BUDGET_BYTES = 8_192;

  private final List<PromptPart<?>> parts;
  private final Map<String, Integer> budgets;
  private final int shapeStateLimitBytes;
  private final int totalBudgetBytes;
  private final PromptMemo<MemoKey, Memoized> memo;

  /** The memoized parts' outputs and the frame's rounding after rendering them. */
  private record Memoized(List<PartOutput> outputs, JsonObject frame) {}

  /**
   * What the memoized parts depend on: the same key means the same board-derived sections.
   *
   * @param gathered what the memoizable parts gathered, by part name (null values allowed)
   */
  record MemoKey(
      String roomId,
      long docVersion,
      List<String> selection,
      Viewport viewport,
      Origin origin,
      Map<String, Object> gathered) {}

  /** {@code memoTtlMs} 0 turns the memo off; {@code clock} (epoch milliseconds) times its entries. */
  ContextBuilder(
      List<PromptPart<?>> parts,
      Map<String, Integer> budgets,
      int shapeStateLimitBytes,
      int totalBudgetBytes,
      long memoTtlMs,
      int memoEntries,
      LongSupplier clock) {
    this.parts = PromptParts.byPriority(parts);
    this.budgets = Map.copyOf(budgets);
    this.shapeStateLimitBytes = shapeStateLimitBytes;
    this.totalBudgetBytes = totalBudgetBytes;
    this.memo = memoTtlMs <= 0 ? null : new PromptMemo<>(memoTtlMs, memoEntries, clock);
  }

  /**
   * The standard parts with the configured budgets and memo ({@code model.disablePromptCache} turns
   * it off); {@code clock} (epoch milliseconds) times the memo's entries.
   */
  public static ContextBuilder create(AppConfig config, LongSupplier clock) {
    AppConfig.Context context = config.context();
    long ttl = config.model().promptCacheDisabled() ? 0 : context.promptCacheTtlMs();
    return new ContextBuilder(
        PromptParts.STANDARD,
        context.budgets(),
        config.shapeStateLimitBytes(),
        context.totalBudgetBytes(),
        ttl,
        context.promptCacheEntries(),
        clock);
  }

  /**
   * The context for {@code inputs}; {@code fixedPromptBytes} (the system prompt and tools) only
   * enter the token estimate.
   */
  public BuiltContext build(ContextInputs inputs, int fixedPromptBytes) {
    MemoKey key = memoKey(inputs);
    Memoized memoized = memo == null ? null : memo.get(key).orElse(null);
    List<PartOutput> outputs = new ArrayList<>();
    CoordinateFrame frame;
    if (memoized != null) {
      frame = CoordinateFrame.fromJson(memoized.frame());
      outputs.addAll(memoized.outputs());
    } else {
      frame = new CoordinateFrame(inputs.origin().x(), inputs.origin().y(), Map.of());
      PartScope scope = new PartScope(inputs, frame);
      List<PartOutput> rendered =
          parts.stream()
              .filter(PromptPart::memoizable)
              .map(part -> part.render(scope, budget(part)))
              .toList();
      outputs.addAll(rendered);
      if (memo != null) {
        memo.put(key, new Memoized(rendered, frame.toJson()));
      }
    }
    PartScope scope = new PartScope(inputs, frame);
    parts.stream()
        .filter(part -> !part.memoizable())
        .forEach(part -> outputs.add(part.render(scope, budget(part))));
    outputs.sort(Comparator.comparingInt(PartOutput::priority));
    return assemble(inputs, outputs, frame, memoized != null, fixedPromptBytes);
  }

  /**
   * The room as the model of a run with these inputs sees it, for {@code runner.view}: the parts that
   * show the room ({@link PromptPart#inRoomView}) rendered within their own budgets, as for a prompt,
   * so their sections are the prompt's. Neither the total budget (there is no prompt to fit) nor the
   * memo applies.
   */
  public ModelView view(ContextInputs inputs) {
    CoordinateFrame frame = new CoordinateFrame(inputs.origin().x(), inputs.origin().y(), Map.of());
    PartScope scope = new PartScope(inputs, frame);
    List<PartOutput> outputs =
        parts.stream()
            .filter(PromptPart::inRoomView)
            .map(part -> part.render(scope, budget(part)))
            .toList();
    JsonObject sections = new JsonObject();
    List<String> cut = new ArrayList<>();
    ModelRequest.Image image = null;
    for (PartOutput output : outputs) {
      if (output.truncated()) {
        cut.add(output.name());
      }
      if (output.contextKey() != null && output.json() != null) {
        sections.put(output.contextKey(), output.json());
      }
      if (output.image() != null) {
        image = output.image();
      }
    }
    Viewport viewport = inputs.viewport();
    if (viewport == null) {
      Box board = scope.view().bounds();
      viewport =
          board == null
              ? new Viewport(inputs.origin().x(), inputs.origin().y(), 0, 0)
              : new Viewport(board.minX(), board.minY(), board.width(), board.height());
    }
    JsonObject shapes = statsOf(outputs, "blurryShapes");
    JsonObject peripheral = statsOf(outputs, "peripheral");
    return new ModelView(
        sections,
        ViewportPart.bounds(viewport, frame),
        image,
        shapes.getInteger("shapes", scope.view().shapeCount()),
        shapes.getInteger("inView", 0),
        shapes.getInteger("sent", 0),
        peripheral.getInteger("outOfView", 0),
        peripheral.getInteger("clusters", 0),
        cut,
        inputs.viewport() == null,
        frame);
  }

  MemoKey memoKey(ContextInputs inputs) {
    Map<String, Object> gathered = new HashMap<>();
    parts.stream()
        .filter(PromptPart::memoizable)
        .forEach(part -> gathered.put(part.name(), inputs.gathered().get(part.name())));
    return new MemoKey(
        inputs.roomId(),
        inputs.board().revision(),
        inputs.selection(),
        inputs.viewport(),
        inputs.origin(),
        gathered);
  }

  int budget(PromptPart<?> part) {
    return part instanceof ShapeStatePart
        ? shapeStateLimitBytes
        : budgets.getOrDefault(part.name(), DEFAULT_BUDGET_BYTES);
  }

  private BuiltContext assemble(
      ContextInputs inputs,
      List<PartOutput> outputs,
      CoordinateFrame frame,
      boolean memoHit,
      int fixedPromptBytes) {
    StringBuilder text = new StringBuilder();
    JsonObject context = new JsonObject();
    List<String> cut = new ArrayList<>();
    List<PartOutput> included = new ArrayList<>();
    ModelRequest.Image image = null;
    String message = inputs.message();
    int remaining = totalBudgetBytes;
    for (PartOutput output : outputs) {
      boolean sharesTotal =
          parts.stream()
              .filter(part -> part.name().equals(output.name()))
              .findFirst()
              .map(PromptPart::sharesTotalBudget)
              .orElse(true);
      if (sharesTotal && output.bytes() > remaining) {
        cut.add(output.name());
        continue;
      }
      if (output.truncated()) {
        cut.add(output.name());
      }
      if (output.isEmpty()) {
        continue;
      }
      if (sharesTotal) {
        remaining -= output.bytes();
      }
      included.add(output);
      text.append(output.text());
      if (output.contextKey() != null) {
        context.put(output.contextKey(), output.json());
      }
      if (output.image() != null) {
        image = output.image();
      }
      if (output.json() instanceof String value && output.name().equals("message")) {
        message = value;
      }
    }
    String contextText = text.toString();
    int contextBytes = PartOutput.utf8Length(contextText);
    int promptTokens = (fixedPromptBytes + contextBytes + PartOutput.utf8Length(message)) / 4;
    ContextStats stats = stats(outputs, included, cut, promptTokens, contextBytes, memoHit, inputs);
    return new BuiltContext(contextText, context.copy(), image, message, frame, stats);
  }

  private static ContextStats stats(
      List<PartOutput> outputs,
      List<PartOutput> included,
      List<String> cut,
      int promptTokens,
      int contextBytes,
      boolean memoHit,
      ContextInputs inputs) {
    JsonObject blurry = statsOf(outputs, "blurryShapes");
    boolean shapesIncluded =
        included.stream().anyMatch(output -> output.name().equals("blurryShapes"));
    boolean clustersIncluded =
        included.stream().anyMatch(output -> output.name().equals("peripheral"));
    boolean stateIncluded =
        included.stream().anyMatch(output -> output.name().equals("shapeState"));
    ShapeStateStats state =
        ShapeStateStats.fromJson(statsOf(outputs, "shapeState").getJsonObject("shapeStateStats"));
    if (!stateIncluded && state.count() > 0) {
      state = new ShapeStateStats(0, 0, true);
    }
    long imageBytes =
        included.stream()
            .filter(output -> output.image() != null)
            .mapToLong(PartOutput::bytes)
            .sum();
    return new ContextStats(
        promptTokens,
        contextBytes,
        blurry.getInteger("shapes", 0),
        blurry.getInteger("inView", 0),
        shapesIncluded ? blurry.getInteger("sent", 0) : 0,
        clustersIncluded ? statsOf(outputs, "peripheral").getInteger("clusters", 0) : 0,
        inputs.selection().size(),
        imageBytes,
        state,
        cut,
        memoHit,
        inputs.board().revision());
  }

  private static JsonObject statsOf(List<PartOutput> outputs, String name) {
    return outputs.stream()
        .filter(output -> output.name().equals(name))
        .findFirst()
        .map(PartOutput::stats)
        .orElse(new JsonObject());
  }
}
