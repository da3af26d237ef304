package dev.canvasagent.mcp;

import dev.canvasagent.auth.Grant;
import dev.canvasagent.auth.Role;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.RoomRef;
import dev.canvasagent.bus.RunAccepted;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.bus.RunSubmit;
import dev.canvasagent.bus.SessionRef;
import dev.canvasagent.schema.JsonSchemaFile;
import dev.canvasagent.schema.NulCharacters;
import io.vertx.core.Future;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code canvas_agent_run}: asks the server's own agent for a run in a room, exactly as {@code POST
 * /api/canvas-agent/run} does (the same body, {@code api/run-request.json}, with the room optional in a
 * bound session; the same run limits; the same {@code scheduler.submit}), then stays with it to its end
 * — follow-ups included — reporting each status and each applied envelope as progress. It answers the
 * run's session (to continue it with {@code sessionId}), its final state and detail, the agent's chat
 * and the board's revision. A run that ends {@code error} or {@code canceled} is an {@code isError}
 * result naming its code. The client's {@code notifications/cancelled} cancels the session's work,
 * like {@code POST /api/canvas-agent/cancel}.
 */
final class AgentRunTool implements McpTool {
  static final String NAME = "canvas_agent_run";
  private static final Logger LOG = LoggerFactory.getLogger(AgentRunTool.class);

  private final EventBus bus;
  private final McpAccess access;
  private final RunAdmission admission;
  private final RoomTopicListener topics;
  private final JsonSchemaFile schema = JsonSchemaFile.load("api/run-request.json");
  private final JsonObject descriptor;

  AgentRunTool(EventBus bus, McpAccess access, RunAdmission admission) {
    this.bus = bus;
    this.access = access;
    this.admission = admission;
    this.topics = new RoomTopicListener(bus);
    this.descriptor =
        new JsonObject()
            .put("name", NAME)
            .put("title", "Ask the canvas agent")
            .put(
                "description",
                "Ask this server's own agent to do something on a room's board (draw, arrange, explain),"
                    + " as a person does from the chat box. People in the room watch it work. Waits"
                    + " for the run to end (reporting progress) and answers its state, what it"
                    + " applied, its chat messages and the board's revision. Pass the answered"
                    + " sessionId to continue the same conversation.")
            .put("inputSchema", inputSchema(schema.document()))
            .put(
                "annotations",
                new JsonObject()
                    .put("readOnlyHint", false)
                    .put("destructiveHint", true)
                    .put("idempotentHint", false)
                    .put("openWorldHint", false));
  }

  /** The run request's schema with the room optional (the session's bound room stands in). */
  private static JsonObject inputSchema(JsonObject runRequest) {
    JsonObject input =
        ToolArguments.inputSchema(
            runRequest, new JsonObject().put("roomId", ToolArguments.roomIdProperty()), List.of());
    JsonArray required = new JsonArray();
    input.getJsonArray("required", new JsonArray()).stream()
        .filter(name -> !"roomId".equals(name))
        .forEach(required::add);
    JsonObject properties = input.getJsonObject("properties");
    properties.put("roomId", ToolArguments.roomIdProperty());
    properties
        .getJsonObject("message")
        .put("description", "What to ask the agent, as a person would type it.");
    properties
        .getJsonObject("model")
        .put(
            "description",
            "The model to run (provider/name); the session's, else the server's default.");
    properties
        .getJsonObject("sessionId")
        .put(
            "description",
            "A canvas session to continue (an earlier answer's sessionId); a new one without it.");
    return input.put("required", required);
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
    String roomId = ToolArguments.room(call);
    RunSubmit submit = submit(call.arguments().copy().put("roomId", roomId));
    Grant grant = call.grant();
    return access
        .room(grant, Role.EDITOR, roomId)
        .compose(allowed -> access.sessionIfNamed(grant, Role.EDITOR, submit.sessionId()))
        .compose(allowed -> admission.take(grant, roomId))
        .compose(taken -> RunWatch.open(topics, roomId, call.progress()))
        .compose(watch -> run(call, submit, watch));
  }

  /** The checked arguments as the scheduler's submit; INVALID_REQUEST naming the problem otherwise. */
  private RunSubmit submit(JsonObject request) {
    Object message = request.getValue("message");
    if (!(message instanceof String text) || text.isBlank()) {
      throw new Failure(
          FailureCode.INVALID_REQUEST, "message is required: what to ask the agent, not blank");
    }
    NulCharacters.firstPointer(request)
        .ifPresent(
            pointer -> {
              throw new Failure(
                  FailureCode.INVALID_REQUEST, pointer + ": " + NulCharacters.PROBLEM);
            });
    schema
        .violations(request)
        .ifPresent(
            problem -> {
              throw new Failure(FailureCode.INVALID_REQUEST, problem);
            });
    return RunSubmit.fromJson(request);
  }

  private Future<ToolResult> run(ToolCall call, RunSubmit submit, RunWatch watch) {
    return Address.SCHEDULER_SUBMIT
        .ask(bus, submit)
        .onFailure(
            refused -> {
              watch.close();
              admission.giveBack(call.grant(), submit.roomId());
            })
        .compose(
            accepted -> {
              LOG.atInfo()
                  .addKeyValue("mcpSession", call.session().id().substring(0, 12))
                  .addKeyValue("roomId", submit.roomId())
                  .addKeyValue("sessionId", accepted.sessionId())
                  .addKeyValue("runId", accepted.runId())
                  .log("mcp.agent_run.accepted");
              watch.follow(accepted);
              call.cancellation().onCancel(() -> cancel(accepted));
              return watch.ended().compose(end -> answer(submit.roomId(), accepted, end));
            });
  }

  /** The client gave up on the call: the session's work stops, as {@code /cancel} stops it. */
  private void cancel(RunAccepted accepted) {
    Address.SCHEDULER_CANCEL
        .ask(bus, SessionRef.of(accepted.sessionId()))
        .onComplete(
            canceled ->
                LOG.atInfo()
                    .addKeyValue("sessionId", accepted.sessionId())
                    .addKeyValue("runId", accepted.runId())
                    .addKeyValue("canceled", canceled.succeeded())
                    .log("mcp.agent_run.cancel"));
  }

  private Future<ToolResult> answer(String roomId, RunAccepted accepted, RunWatch.End end) {
    return Address.PATCH_BOARD_HEAD
        .ask(bus, new RoomRef(roomId))
        .map(head -> (Long) head.revision())
        .otherwise(unread -> null)
        .map(revision -> result(accepted, end, revision));
  }

  static ToolResult result(RunAccepted accepted, RunWatch.End end, Long revision) {
    JsonObject answer =
        new JsonObject()
            .put("sessionId", accepted.sessionId())
            .put("runId", accepted.runId())
            .put("state", end.state().wireName())
            .put("detail", end.detail())
            .put("applied", end.applied())
            .put("chat", end.chat())
            .put("revision", revision);
    if (end.state() == RunState.DONE) {
      return ToolResult.ok(answer);
    }
    String code = end.detail().getString("code", FailureCode.INTERNAL.name());
    String reason =
        end.detail()
            .getString("reason", "the run ended " + end.state().wireName() + " without a reason");
    answer.put("error", new JsonObject().put("code", code).put("message", reason));
    ToolResult error = ToolResult.error(code, reason);
    return new ToolResult(
        error.content().copy().add(ToolResult.text(answer.encodePrettily())), answer, true);
  }
}
