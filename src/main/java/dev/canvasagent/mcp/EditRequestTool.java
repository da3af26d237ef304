package dev.canvasagent.mcp;

import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentSessionRef;
import dev.canvasagent.bus.DelegatedEditOutcome;
import dev.canvasagent.bus.DelegatedEditRequest;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.DocumentRoom;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.schema.JsonSchemaFile;
import dev.canvasagent.schema.NulCharacters;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonObject;
import java.util.List;

/**
 * {@code canvas_agent_edit_request}: delegates an edit of a Markdown document to the server's document
 * agent and answers the change once its loop has ended, exactly as {@code POST
 * /api/canvas-agent/edit-request} does: the same arguments ({@code api/edit-request.json} is the input
 * schema), EDITOR on the document, one run of the document's room's run limits (kept even when the
 * loop then fails: the model may have run), and the same answer ({@code doc.agent.edit_request}'s).
 */
final class EditRequestTool implements McpTool {
  static final String NAME = "canvas_agent_edit_request";

  private final EventBus bus;
  private final McpAccess access;
  private final RunAdmission admission;
  private final long timeoutMs;
  private final JsonSchemaFile schema = JsonSchemaFile.load("api/edit-request.json");
  private final JsonObject descriptor;

  /** {@code timeoutMs}: how long the delegation may take (the document agent's loop, and a margin). */
  EditRequestTool(EventBus bus, McpAccess access, RunAdmission admission, long timeoutMs) {
    this.bus = bus;
    this.access = access;
    this.admission = admission;
    this.timeoutMs = timeoutMs;
    this.descriptor =
        new JsonObject()
            .put("name", NAME)
            .put("title", "Delegate a document edit")
            .put(
                "description",
                "Delegate an edit of a Markdown document to this server's document agent: it checks the"
                    + " document out, edits it under its lease and answers the change (diff, stats,"
                    + " its final text) when done. canvas_session_id names the document (or a"
                    + " document-agent session to continue); context is what you know that the edit"
                    + " needs.")
            .put(
                "inputSchema",
                ToolArguments.inputSchema(schema.document(), new JsonObject(), List.of()))
            .put(
                "annotations",
                new JsonObject()
                    .put("readOnlyHint", false)
                    .put("destructiveHint", true)
                    .put("idempotentHint", false)
                    .put("openWorldHint", false));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public JsonObject descriptor() {
    return descriptor;
  }

  @Override
  public boolean longRunning() {
    return true;
  }

  @Override
  public Future<ToolResult> call(ToolCall call) {
    DelegatedEditRequest request = request(call);
    String sessionId = request.canvasSessionId();
    return access
        .agentSession(call.grant(), Role.EDITOR, sessionId)
        .compose(allowed -> sessionRoom(sessionId))
        .compose(
            roomId ->
                admission
                    .take(call.grant(), roomId)
                    .compose(
                        taken ->
                            Address.DOC_AGENT_EDIT_REQUEST
                                .ask(bus, request, new DeliveryOptions().setSendTimeout(timeoutMs))
                                .recover(
                                    error -> givenBackIfRefused(call, roomId, Failure.of(error)))))
        .map(outcome -> ToolResult.ok(outcome.toJson()));
  }

  /**
   * A node that is shutting down refuses the edit before anything ran: the run is given back, as
   * {@code canvas_agent_run}'s refusal is. Any other failure may come after the model has run, and
   * counts.
   */
  private Future<DelegatedEditOutcome> givenBackIfRefused(
      ToolCall call, String roomId, Failure failure) {
    Future<Void> given =
        failure.code() == FailureCode.SHUTTING_DOWN
            ? admission.giveBack(call.grant(), roomId).otherwiseEmpty()
            : Future.succeededFuture();
    return given.compose(done -> Future.failedFuture(failure));
  }

  /** The checked arguments as the document agent's request, for the token's subject. */
  private DelegatedEditRequest request(ToolCall call) {
    JsonObject arguments = call.arguments();
    NulCharacters.firstPointer(arguments)
        .ifPresent(
            pointer -> {
              throw new Failure(
                  FailureCode.INVALID_REQUEST, pointer + ": " + NulCharacters.PROBLEM);
            });
    schema
        .violations(arguments)
        .ifPresent(
            problem -> {
              throw new Failure(FailureCode.INVALID_REQUEST, problem);
            });
    if (arguments.getString("instruction").isBlank()) {
      throw new Failure(FailureCode.INVALID_REQUEST, "instruction must not be blank");
    }
    // As over HTTP: the request acts for the token's subject, the person behind the client.
    return new DelegatedEditRequest(
        arguments.getString("canvas_session_id"),
        arguments.getString("instruction"),
        Actor.person(call.grant().subject()),
        arguments.getValue("context"),
        arguments.getString("model"));
  }

  /** The room of the session's document, whose run limit the document agent's run counts against. */
  private Future<String> sessionRoom(String canvasSessionId) {
    return Address.DOC_AGENT_SESSION_DOCUMENT
        .ask(bus, new AgentSessionRef(canvasSessionId))
        .compose(document -> Address.DOC_ROOM.ask(bus, new DocumentRef(document.docId())))
        .map(DocumentRoom::roomId);
  }
}
