package dev.canvasagent.docagent;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentChat;
import dev.canvasagent.bus.AgentStatus;
import dev.canvasagent.bus.DocumentAgentStarted;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.DocumentToolCall;
import dev.canvasagent.bus.DocumentToolResult;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.bus.LeaseChange;
import dev.canvasagent.bus.RoomTopic;
import dev.canvasagent.bus.RunState;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.model.ModelContext;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRequest;
import dev.canvasagent.model.Turn;
import dev.canvasagent.model.loop.ToolLoop;
import dev.canvasagent.model.loop.ToolLoopListener;
import dev.canvasagent.model.loop.ToolLoopResult;
import dev.canvasagent.model.loop.ToolLoopRun;
import dev.canvasagent.schema.NulCharacters;
import dev.canvasagent.store.DocumentAgentSessions;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.Set;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One document-agent loop: check the document out (refused at once when someone holds it), tell the
 * session what the person changed since the agent last looked, run the tool loop with the lease
 * filled into every call, stop when the person preempts, the lease is lost or the time is up, and
 * always check in. The end goes out on the room's {@code agent:status} and {@code agent:chat} and
 * completes {@link #outcome()}. Every tool call names {@link #actor} (this session, for the subject
 * who asked), so the lease is this loop's alone and its revisions say for whom it wrote. The lease id
 * stays in here: nothing this run answers or publishes carries it. Runs on the agent verticle's context.
 */
final class DocumentAgentRun {
  private static final Logger LOG = LoggerFactory.getLogger(DocumentAgentRun.class);
  private static final Set<FailureCode> LEASE_LOST =
      Set.of(FailureCode.STALE_EPOCH, FailureCode.LEASE_EXPIRED, FailureCode.LOCK_NOT_OWNED);

  private final Vertx vertx;
  private final DocumentAgentSessions sessions;

  /** A session not read yet (its ids only) until the lease is held; then the stored one. */
  private AgentSession session;

  private final Actor actor;
  private final ModelProvider provider;
  private final String model;
  private final String userText;
  private final String instruction;
  private final JsonArray tools;
  private final Set<String> offered;
  private final int maxSteps;
  private final long timeoutMs;
  private final String runId = "docrun-" + UUID.randomUUID();
  private final Promise<JsonObject> outcome = Promise.promise();
  private String roomId;
  private String revisionBefore;
  private String leaseId;
  private long epoch;
  private String lastWriteRevision;
  private ToolLoopRun loop;
  private MessageConsumer<JsonObject> leaseWatch;
  private long timer = -1;
  private boolean interrupted;
  private boolean remembered;
  private String interruptedBy;

  /** {@code userText}: the instruction as the model reads it (a delegation adds its context). */
  DocumentAgentRun(
      Vertx vertx,
      DocumentAgentSessions sessions,
      AgentSession session,
      Actor actor,
      ModelProvider provider,
      String model,
      String instruction,
      String userText,
      JsonArray tools,
      int maxSteps,
      long timeoutMs) {
    this.vertx = vertx;
    this.sessions = sessions;
    this.session = session;
    this.actor = actor;
    this.provider = provider;
    this.model = model;
    this.instruction = instruction;
    this.userText = userText;
    this.tools = tools;
    this.offered =
        Set.copyOf(tools.stream().map(tool -> ((JsonObject) tool).getString("name")).toList());
    this.maxSteps = maxSteps;
    this.timeoutMs = timeoutMs;
  }

  /** The end of the loop: what changed and how it stopped; never fails. */
  Future<JsonObject> outcome() {
    return outcome.future();
  }

  /** Checks out and starts the loop; answers what started, or fails (NOT_FOUND, LOCK_NOT_AVAILABLE…) having changed nothing. */
  Future<DocumentAgentStarted> begin() {
    String docId = session.docId();
    return Address.DOC_GET
        .ask(vertx.eventBus(), new DocumentRef(docId))
        .compose(
            document -> {
              roomId = document.roomId();
              return tool("canvas_check_out", new JsonObject());
            })
        .compose(
            lease -> {
              leaseId = lease.getString("lease_id");
              epoch = lease.getLong("canvas_epoch");
              revisionBefore = lease.getString("revision_id_at_checkout");
              watchLease();
              return readSession()
                  .compose(read -> personChanges())
                  .compose(
                      personDiff -> {
                        if (!personDiff.isEmpty()) {
                          session.addUser(CanvasUpdate.message(personDiff));
                        }
                        session.addUser(userText);
                        return session
                            .save(sessions)
                            .recover(
                                error ->
                                    error instanceof DocumentAgentSessions.BoundToAnotherDocument
                                        ? Future.failedFuture(error)
                                        : Failure.storeFailed(
                                            "store the document-agent session", error));
                      })
                  .recover(this::notStarted);
            })
        .map(
            saved -> {
              startLoop();
              LOG.atInfo()
                  .addKeyValue("runId", runId)
                  .addKeyValue("docId", docId)
                  .addKeyValue("sessionId", session.sessionId())
                  .addKeyValue("model", model)
                  .log("doc_agent.started");
              return new DocumentAgentStarted(
                  runId,
                  docId,
                  session.sessionId(),
                  roomId,
                  model,
                  actor.name(),
                  epoch,
                  revisionBefore);
            });
  }

  /**
   * The session as stored, read once the lease is held: no other loop writes the document's session
   * meanwhile, whichever node it runs on.
   */
  private Future<Void> readSession() {
    return sessions
        .find(session.sessionId())
        .recover(error -> Failure.storeFailed("read the document-agent session", error))
        .map(
            stored -> {
              stored.ifPresent(
                  found -> {
                    if (found.docId().equals(session.docId())) {
                      session = AgentSession.from(found);
                    }
                  });
              return null;
            });
  }

  /** The loop did not start: the lease is given back, and the reason answered (nothing was saved). */
  private Future<Void> notStarted(Throwable error) {
    leaseWatch.unregister();
    vertx.cancelTimer(timer);
    Throwable answered =
        error instanceof DocumentAgentSessions.BoundToAnotherDocument bound
            ? new Failure(FailureCode.INVALID_REQUEST, bound.getMessage())
            : error;
    return checkIn().transform(checkedIn -> Future.failedFuture(answered));
  }

  /** What the person changed since the agent last saw the document, as a unified diff ("" when nothing). */
  private Future<String> personChanges() {
    String seen = session.lastSeenRevisionId();
    if (seen == null || seen.equals(revisionBefore)) {
      return Future.succeededFuture("");
    }
    return tool(
            "canvas_get_diff",
            new JsonObject().put("from_revision_id", seen).put("to_revision_id", revisionBefore))
        .map(diff -> diff.getString("diff", ""));
  }

  /**
   * Listens to the room's {@code doc:lease} topic for this run only. A room topic is no {@code Address}
   * (its address names the room, and browsers hear it too), and this listener lives and is unregistered
   * with the run, not the verticle: so it is a plain consumer, reading each change as its record.
   */
  private void watchLease() {
    leaseWatch =
        vertx
            .eventBus()
            .<JsonObject>consumer(
                RoomTopic.DOC_LEASE.address(roomId),
                event -> {
                  LeaseChange change = LeaseChange.fromJson(event.body());
                  String state = change.state();
                  if (session.docId().equals(change.docId())
                      && ("preempted".equals(state) || "expired".equals(state))) {
                    interrupt(state);
                  }
                });
    timer = vertx.setTimer(timeoutMs, fired -> interrupt("timeout"));
  }

  /**
   * Stops the loop (a model call under way is canceled, a tool call under way finishes), which then
   * checks in and publishes its end {@code canceled}, {@code interruptedBy: why}; before the loop has
   * started, it stops as it starts. The first reason wins.
   */
  void interrupt(String why) {
    if (!interrupted) {
      interrupted = true;
      interruptedBy = why;
      if (loop != null) {
        loop.interrupt();
      }
    }
  }

  private void startLoop() {
    AgentSession.Conversation conversation = session.conversation();
    JsonObject context =
        new JsonObject().put(ModelContext.MESSAGE, instruction).put("docId", session.docId());
    ModelRequest first =
        new ModelRequest(
            model,
            DocumentAgentPrompt.SYSTEM,
            "",
            conversation.firstUserMessage(),
            null,
            tools,
            ModelRequest.Sampling.STRICT,
            context,
            conversation.turns());
    ToolLoopListener listener =
        new ToolLoopListener() {
          @Override
          public void stepStarted(int step) {
            status(RunState.CALLING_MODEL, new JsonObject().put("step", step));
          }
        };
    loop = new ToolLoop(provider, this::execute, maxSteps, listener).start(vertx, first);
    if (interrupted) {
      loop.interrupt();
    }
    loop.result().onComplete(done -> finish(done.result()));
  }

  /** Runs one call the model asked for, with the lease the server holds. */
  private Future<JsonObject> execute(Turn.ToolCall call) {
    if (!offered.contains(call.name())) {
      return Future.failedFuture(
          call.name() + " is not offered to the document agent; the server holds the lease");
    }
    // A NUL the model wrote (in a reason, a label) would reach PostgreSQL, which cannot store it:
    // stripped, as on the board.
    JsonObject args =
        NulCharacters.stripped(call.arguments())
            .put("lease_id", leaseId)
            .put("canvas_epoch", epoch);
    return tool(call.name(), args)
        .map(
            result -> {
              if (DocumentToolCatalog.WRITE_TOOLS.contains(call.name())
                  && result.getBoolean("changed", false)) {
                lastWriteRevision = result.getString("new_revision_id");
              }
              return result;
            })
        .recover(
            error -> {
              Failure failure = Failure.of(error);
              if (LEASE_LOST.contains(failure.code())) {
                interrupt("lease_lost");
              }
              return Future.failedFuture(failure.code().name() + ": " + failure.getMessage());
            });
  }

  private void finish(ToolLoopResult result) {
    vertx.cancelTimer(timer);
    if (leaseWatch != null) {
      leaseWatch.unregister();
    }
    String agentRevision = lastWriteRevision == null ? revisionBefore : lastWriteRevision;
    checkIn()
        .transform(
            checkedIn ->
                agentRevision.equals(revisionBefore)
                    ? Future.succeededFuture("")
                    : tool(
                            "canvas_get_diff",
                            new JsonObject()
                                .put("from_revision_id", revisionBefore)
                                .put("to_revision_id", agentRevision))
                        .map(diff -> diff.getString("diff", "")))
        .compose(
            diff ->
                Address.DOC_GET
                    .ask(vertx.eventBus(), new DocumentRef(session.docId()))
                    .compose(
                        document ->
                            remember(result, diff, agentRevision)
                                .map(
                                    saved ->
                                        ended(result, diff, agentRevision, document.revisionId()))))
        .onFailure(
            error ->
                LOG.atError()
                    .addKeyValue("runId", runId)
                    .setCause(error)
                    .log("doc_agent.finish_failed"))
        .recover(
            error ->
                remember(result, "", agentRevision)
                    .map(saved -> ended(result, "", agentRevision, null)))
        .onSuccess(outcome::complete);
  }

  /**
   * Adds the loop's turns and the agent's own change (a hidden update) to the session, with the
   * revision it now has seen, and saves them before the end is told: a next instruction, on any node,
   * reads them. A failure to save is logged; the outcome still goes out.
   */
  private Future<Void> remember(ToolLoopResult result, String agentDiff, String agentRevision) {
    if (remembered) {
      return Future.succeededFuture();
    }
    remembered = true;
    session.addLoop(result.turns());
    if (!agentDiff.isEmpty()) {
      session.addUser(CanvasUpdate.message(agentDiff));
    }
    session.seen(agentRevision);
    return session
        .save(sessions)
        .onFailure(
            error ->
                LOG.atError()
                    .addKeyValue("runId", runId)
                    .addKeyValue("sessionId", session.sessionId())
                    .setCause(error)
                    .log("doc_agent.session_save_failed"))
        .otherwiseEmpty();
  }

  private JsonObject ended(
      ToolLoopResult result, String agentDiff, String agentRevision, String revisionAfter) {
    String stop = result.stop().wireName();
    JsonObject answer =
        new JsonObject()
            .put("runId", runId)
            .put("docId", session.docId())
            .put("sessionId", session.sessionId())
            .put("stop", stop)
            .put("steps", result.steps())
            .put("toolCalls", result.executed().size())
            .put(
                "failedToolCalls",
                result.executed().stream().filter(run -> run.result().isError()).count())
            .put("revisionBefore", revisionBefore)
            .put("revisionAfter", revisionAfter)
            .put("agentRevision", agentRevision)
            .put("changed", !agentDiff.isEmpty())
            .put("diff", agentDiff)
            .put("diffStats", DiffStats.of(agentDiff).toJson())
            .put("finalText", result.finalText());
    if (interruptedBy != null) {
      answer.put("interruptedBy", interruptedBy);
    }
    if (result.error() != null) {
      answer.put("error", LoopSummary.error(result.error()));
    }
    RoomTopic.AGENT_CHAT.publish(
        vertx.eventBus(),
        roomId,
        new AgentChat(session.sessionId(), "assistant", LoopSummary.chat(result, interruptedBy))
            .aboutDocument(session.docId()));
    RunState state =
        switch (result.stop()) {
          case DONE, STEP_CAP -> RunState.DONE;
          case INTERRUPTED -> RunState.CANCELED;
          case ERROR -> RunState.ERROR;
        };
    status(state, answer.copy());
    LOG.atInfo()
        .addKeyValue("runId", runId)
        .addKeyValue("docId", session.docId())
        .addKeyValue("stop", stop)
        .addKeyValue("steps", result.steps())
        .addKeyValue("toolCalls", result.executed().size())
        .addKeyValue("changed", !agentDiff.isEmpty())
        .log("doc_agent.ended");
    return answer;
  }

  private void status(RunState state, JsonObject detail) {
    new AgentStatus(
            session.sessionId(), state, detail.put("docId", session.docId()).put("runId", runId))
        .publish(vertx.eventBus(), roomId);
  }

  /** Checks in; a lease already lost (preempted, expired) is no error here. */
  private Future<Void> checkIn() {
    return tool(
            "canvas_check_in", new JsonObject().put("lease_id", leaseId).put("canvas_epoch", epoch))
        .<Void>mapEmpty()
        .otherwiseEmpty();
  }

  private Future<JsonObject> tool(String name, JsonObject args) {
    return Address.DOC_TOOL
        .ask(vertx.eventBus(), new DocumentToolCall(session.docId(), name, args, actor))
        .map(DocumentToolResult::result);
  }
}
