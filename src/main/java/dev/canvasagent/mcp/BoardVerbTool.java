package dev.canvasagent.mcp;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.ActionOutcome;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentAction;
import dev.canvasagent.bus.OutsideAction;
import dev.canvasagent.bus.SessionCreate;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.catalog.ActionCatalog;
import dev.canvasagent.catalog.VerbKind;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A board verb of the catalog ({@code create_shape}, {@code move}, {@code align}, {@code
 * batch_operations}, …) as an MCP tool: the verb's own JSON Schema plus {@code roomId}. A call goes
 * through {@code runner.act} exactly as an agent run's action does — the sanitizer, the patch engine's
 * conditional commit, the envelope every browser of the room applies — under a canvas session this
 * MCP session keeps per room. The result says what happened: the ids created, updated and removed,
 * the revision, and what the sanitizer adjusted or dropped.
 */
final class BoardVerbTool implements McpTool {
  /** Verbs that can remove what people drew: clients may ask before calling them. */
  private static final Set<String> DESTRUCTIVE = Set.of("delete_shape", "clear");

  private final EventBus bus;
  private final McpAccess access;
  private final String verb;
  private final JsonObject descriptor;

  private BoardVerbTool(EventBus bus, McpAccess access, String verb, JsonObject schema) {
    this.bus = bus;
    this.access = access;
    this.verb = verb;
    this.descriptor =
        new JsonObject()
            .put("name", verb)
            .put(
                "description",
                schema.getString("description")
                    + " Coordinates are page coordinates, as canvas_view shows them.")
            .put(
                "inputSchema",
                ToolArguments.inputSchema(
                    schema,
                    new JsonObject().put("roomId", ToolArguments.roomIdProperty()),
                    List.of()))
            .put(
                "annotations",
                new JsonObject()
                    .put("readOnlyHint", false)
                    .put("destructiveHint", DESTRUCTIVE.contains(verb))
                    .put("idempotentHint", false)
                    .put("openWorldHint", false));
  }

  static List<McpTool> all(EventBus bus, McpAccess access, ActionCatalog catalog) {
    return catalog.entries().stream()
        .filter(entry -> entry.verb().kind() == VerbKind.BOARD)
        .map(
            entry ->
                (McpTool)
                    new BoardVerbTool(bus, access, entry.verb().name(), entry.schema().document()))
        .toList();
  }

  @Override
  public String name() {
    return verb;
  }

  @Override
  public JsonObject descriptor() {
    return descriptor;
  }

  @Override
  public Future<ToolResult> call(ToolCall call) {
    String roomId = ToolArguments.room(call);
    AgentAction action =
        new AgentAction(
            "mcp:" + UUID.randomUUID(), verb, ToolArguments.without(call.arguments(), "roomId"));
    return access
        .room(call.grant(), Role.EDITOR, roomId)
        .compose(allowed -> call.session().inRoomOrder(roomId, () -> act(call, roomId, action)))
        .map(outcome -> ToolResult.ok(result(roomId, outcome)));
  }

  /**
   * The action under the MCP session's canvas session in the room. The first call makes that session;
   * if the action is then refused, the session is deleted again, so a refusal leaves the room's
   * sessions as they were.
   */
  private Future<ActionOutcome> act(ToolCall call, String roomId, AgentAction action) {
    McpSession session = call.session();
    Optional<String> known = session.canvasSession(roomId);
    if (known.isPresent()) {
      return Address.RUNNER_ACT.ask(
          bus, new OutsideAction(roomId, known.get(), action, session.actor()));
    }
    return Address.SCHEDULER_SESSION_CREATE
        .ask(bus, new SessionCreate(roomId, "MCP: " + session.clientName(), null, null))
        .map(view -> view.session().getString("id"))
        .compose(
            made ->
                Address.RUNNER_ACT
                    .ask(bus, new OutsideAction(roomId, made, action, session.actor()))
                    .onSuccess(kept -> session.canvasSession(roomId, made))
                    .recover(
                        refused ->
                            Address.SCHEDULER_SESSION_DELETE
                                .ask(bus, new SessionRef(made, roomId))
                                .transform(deleted -> Future.failedFuture(refused))));
  }

  private static JsonObject result(String roomId, ActionOutcome outcome) {
    return outcome.toJson().put("roomId", roomId);
  }
}
