package dev.canvasagent.sanitizer;

import dev.canvasagent.board.Board;
import dev.canvasagent.board.ShapeIds;
import dev.canvasagent.board.geometry.Box;
import dev.canvasagent.bus.AcceptedAction;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.SanitizeRequest;
import dev.canvasagent.bus.Viewport;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import dev.canvasagent.catalog.dialect.ClosestVerbs;
import dev.canvasagent.metrics.CanvasMetrics;
import dev.canvasagent.nodeboards.BoardLookup;
import dev.canvasagent.nodeboards.NodeBoards;
import dev.canvasagent.schema.NulCharacters;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pure judgement over one action: is it a verb of the catalog, do its params pass the verb's JSON
 * Schema, do the shapes it names exist, is it a duplicate create, and what record diff does it make
 * against the board at the revision it is given (read from the node's boards, {@link BoardLookup}, or
 * over the bus when this node does not hold it). What cannot be made valid is refused with a code and the reason —
 * ACTION_INVALID (for a verb that is none of ours, the reason names the closest of ours),
 * SHAPE_NOT_FOUND (the runner may wait for a later create), DUPLICATE_CREATE — and nothing
 * half-valid goes through. NUL characters in the params are stripped first. A verb that
 * throws anything unexpected is refused too: a broken action never takes the verticle down.
 */
public final class SanitizerVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(SanitizerVerticle.class);

  private final ActionCatalog catalog;
  private final boolean brandPalette;
  private final NodeBoards boards;
  private BoardLookup lookup;
  private CanvasMetrics meters;
  private long accepted;
  private long dropped;
  private long deduped;

  public SanitizerVerticle(ActionCatalog catalog, boolean brandPalette, NodeBoards boards) {
    this.catalog = catalog;
    this.brandPalette = brandPalette;
    this.boards = boards;
  }

  @Override
  public String name() {
    return "sanitizer";
  }

  @Override
  protected Future<?> startVerticle() {
    lookup = new BoardLookup(boards, vertx.eventBus());
    meters = CanvasMetrics.of(vertx);
    return answer(Address.SANITIZER_SANITIZE, this::sanitize);
  }

  /**
   * The action judged against the room's board at the request's revision; REVISION_CONFLICT when the
   * room has moved past it and that board is no longer held anywhere.
   */
  private Future<AcceptedAction> sanitize(SanitizeRequest request) {
    return lookup
        .at(request.roomId(), request.revision())
        .compose(board -> sanitize(request, board));
  }

  private Future<AcceptedAction> sanitize(SanitizeRequest request, Board board) {
    AgentAction action = request.action();
    var entry = catalog.entry(action.name());
    if (entry.isEmpty()) {
      return drop(
          action,
          "unknown_verb",
          FailureCode.ACTION_INVALID,
          ClosestVerbs.reason(action.name(), catalog.names()));
    }
    // A model may write a NUL into a label, a message or a todo. PostgreSQL cannot store it and it
    // means nothing, so it is stripped here rather than failing the commit with a driver error.
    JsonObject params =
        action.params() == null ? new JsonObject() : NulCharacters.stripped(action.params());
    var violations = entry.get().schema().violations(params);
    if (violations.isPresent()) {
      LOG.atWarn()
          .addKeyValue("verb", action.name())
          .addKeyValue("actionId", action.id())
          .addKeyValue("error", violations.get())
          .log("[CanvasAgent:SchemaGuard]");
      return drop(
          action,
          "schema",
          FailureCode.ACTION_INVALID,
          "params do not match the " + action.name() + " schema: " + violations.get());
    }
    List<String> missing =
        entry.get().verb().referencedShapes(params).stream()
            .filter(id -> board.shape(id).isEmpty())
            .map(ShapeIds::modelId)
            .toList();
    if (!missing.isEmpty()) {
      return Failure.future(FailureCode.SHAPE_NOT_FOUND, "unknown shape(s) " + missing);
    }
    SanitizedAction sanitized;
    try {
      sanitized =
          entry
              .get()
              .verb()
              .sanitize(
                  params,
                  new ActionContext(board, request.frame(), brandPalette, view(request.view())));
    } catch (ActionRejected rejected) {
      return drop(action, "rejected", FailureCode.ACTION_INVALID, rejected.getMessage());
    } catch (RuntimeException unexpected) {
      LOG.atError()
          .addKeyValue("verb", action.name())
          .addKeyValue("actionId", action.id())
          .setCause(unexpected)
          .log("sanitizer.verb_failed");
      return drop(
          action,
          "verb_failed",
          FailureCode.ACTION_INVALID,
          "the " + action.name() + " action could not be applied");
    }
    // The one lock check for every board verb: the diff must leave what a person locked as it is.
    var locked = LockGuard.refusal(board, sanitized.diff());
    if (locked.isPresent()) {
      return drop(action, "locked", FailureCode.ACTION_INVALID, locked.get());
    }
    var duplicate = Dedupe.duplicateOf(board, sanitized.diff());
    if (duplicate.isPresent()) {
      deduped++;
      LOG.atInfo()
          .addKeyValue("verb", action.name())
          .addKeyValue("actionId", action.id())
          .addKeyValue("duplicateOf", duplicate.get())
          .addKeyValue("deduped", deduped)
          .log("[CanvasAgent:Dedupe]");
      meters.sanitizerDrop("duplicate");
      return Failure.future(
          FailureCode.DUPLICATE_CREATE,
          "shape "
              + ShapeIds.modelId(duplicate.get())
              + " already looks exactly like this; update it instead");
    }
    accepted++;
    return Future.succeededFuture(
        new AcceptedAction(
            new AgentAction(action.id(), action.name(), sanitized.params()),
            entry.get().verb().kind().name(),
            sanitized.diff()));
  }

  /** {@code kind}: the {@code reason} label of the drop's meter, from a closed set. */
  private Future<AcceptedAction> drop(
      AgentAction action, String kind, FailureCode code, String reason) {
    dropped++;
    meters.sanitizerDrop(kind);
    LOG.atInfo()
        .addKeyValue("verb", action.name())
        .addKeyValue("actionId", action.id())
        .addKeyValue("reason", reason)
        .log("action.dropped");
    return Failure.future(code, reason);
  }

  @Override
  protected Future<JsonObject> health() {
    return Future.succeededFuture(
        new JsonObject()
            .put("ok", true)
            .put("verbs", catalog.entries().size())
            .put("accepted", accepted)
            .put("dropped", dropped)
            .put("deduped", deduped)
            .put("boardsHeld", lookup.held())
            .put("boardsFetched", lookup.fetched()));
  }

  private static Box view(Viewport viewport) {
    return viewport == null || viewport.w() <= 0 || viewport.h() <= 0
        ? null
        : Box.of(viewport.x(), viewport.y(), viewport.w(), viewport.h());
  }
}
