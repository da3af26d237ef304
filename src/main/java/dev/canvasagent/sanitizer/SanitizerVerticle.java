package dev.canvasagent.sanitizer;

import dev.canvasagent.board.Board;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.CanvasVerticle;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.board.CoordinateFrame;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.ActionContext;
import dev.canvasagent.catalog.ActionRejected;
import dev.canvasagent.catalog.SanitizedAction;
import io.vertx.core.Future;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pure judgement over one action: is it a verb of the catalog, do its params pass the verb's JSON
 * Schema, and what record diff does it make against the board it is given. An action that cannot be
 * made valid is refused with ACTION_INVALID and the reason; nothing half-valid goes through.
 */
public final class SanitizerVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(SanitizerVerticle.class);

  private final ActionCatalog catalog;
  private final boolean brandPalette;
  private long accepted;
  private long dropped;

  public SanitizerVerticle(ActionCatalog catalog, boolean brandPalette) {
    this.catalog = catalog;
    this.brandPalette = brandPalette;
  }

  @Override
  public String name() {
    return "sanitizer";
  }

  @Override
  protected Future<?> startVerticle() {
    return vertx.eventBus().<JsonObject>consumer(Address.SANITIZER_SANITIZE, this::sanitize).completion();
  }

  private void sanitize(Message<JsonObject> message) {
    AgentAction action = AgentAction.fromJson(message.body().getJsonObject("action"));
    Board board = Board.fromJson(message.body().getJsonObject("board"));
    var entry = catalog.entry(action.name());
    if (entry.isEmpty()) {
      drop(message, action, "unknown action '" + action.name() + "'");
      return;
    }
    JsonObject params = action.params() == null ? new JsonObject() : action.params();
    var violations = entry.get().schema().violations(params);
    if (violations.isPresent()) {
      LOG.atWarn().addKeyValue("verb", action.name()).addKeyValue("actionId", action.id())
          .addKeyValue("error", violations.get()).log("[CanvasAgent:SchemaGuard]");
      drop(message, action, "params do not match the " + action.name() + " schema: " + violations.get());
      return;
    }
    try {
      SanitizedAction sanitized = entry.get().verb().sanitize(params, new ActionContext(board, CoordinateFrame.fromJson(message.body().getJsonObject("frame")), brandPalette));
      accepted++;
      message.reply(new JsonObject()
          .put("action", new AgentAction(action.id(), action.name(), sanitized.params()).toJson())
          .put("kind", entry.get().verb().kind().name())
          .put("diff", sanitized.diff().toJson()));
    } catch (ActionRejected rejected) {
      drop(message, action, rejected.getMessage());
    }
  }

  private void drop(Message<JsonObject> message, AgentAction action, String reason) {
    dropped++;
    LOG.atInfo().addKeyValue("verb", action.name()).addKeyValue("actionId", action.id())
        .addKeyValue("reason", reason).log("action.dropped");
    message.fail(FailureCode.ACTION_INVALID.wire(), reason);
  }

  @Override
  protected Future<JsonObject> health() {
    return Future.succeededFuture(new JsonObject().put("ok", true)
        .put("verbs", catalog.entries().size()).put("accepted", accepted).put("dropped", dropped));
  }
}
