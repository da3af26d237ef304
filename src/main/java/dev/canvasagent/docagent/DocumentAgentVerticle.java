package dev.canvasagent.docagent;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentSessionRef;
import dev.canvasagent.bus.DelegatedEditOutcome;
import dev.canvasagent.bus.DelegatedEditRequest;
import dev.canvasagent.bus.DocumentAgentRequest;
import dev.canvasagent.bus.DocumentAgentStarted;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.DrainRequest;
import dev.canvasagent.bus.Drained;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.DocumentAgentSessions;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The document agent: runs a tool loop over a document's read and write tools for a person's
 * instruction ({@link Address#DOC_AGENT}, answered once the loop has started) or a primary agent's
 * delegated edit ({@link Address#DOC_AGENT_EDIT_REQUEST}, answered when it ends). A person's
 * instruction preempts whoever holds the document's lease (a person always wins: their message
 * voids the lease at once, epoch + 1, so the agent's later writes fail) and starts once this node's
 * loop on the document has ended; a delegated edit is refused with LOCK_NOT_AVAILABLE instead. Its
 * sessions (the conversation, hidden canvas updates included, and the revision the agent last saw)
 * are in the store ({@link DocumentAgentSessions}), so a session goes on on any node. A
 * loop acts for the subject whose request started it ({@code subject}, from the token): its lease
 * is {@code agent:<session>}'s on that subject's behalf, and its revisions are recorded so. A
 * shutdown drains it ({@link Address#DOC_AGENT_DRAIN}) as it drains the scheduler: no new loop, the
 * running ones end within the grace or are interrupted at its end, their leases checked in.
 */
public final class DocumentAgentVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(DocumentAgentVerticle.class);

  private final ModelRegistry models;
  private final String defaultModel;
  private final AppConfig.Documents config;
  private final JsonArray tools;
  private final DocumentAgentSessions sessions;

  /** Why a loop still going at the end of a shutdown's grace stopped ({@code interruptedBy}). */
  static final String SHUTDOWN = "shutdown";

  /** The loop running on this node for each document. */
  private final Map<String, DocumentAgentRun> running = new java.util.HashMap<>();

  /**
   * Every loop begun here and not over, checking out included: each with what it comes to, its
   * outcome once it has run and ended, or null when it did not start. What a drain waits for.
   */
  private final Map<DocumentAgentRun, Future<JsonObject>> begun = new LinkedHashMap<>();

  /** Set by the first {@code doc.agent.drain}: from then on no loop begins. */
  private Future<Drained> drained;

  public DocumentAgentVerticle(
      DocumentAgentSessions sessions,
      ModelRegistry models,
      String defaultModel,
      AppConfig.Documents config,
      DocumentToolCatalog catalog) {
    this.sessions = sessions;
    this.models = models;
    this.defaultModel = defaultModel;
    this.config = config;
    this.tools = DocumentAgentPrompt.tools(catalog);
  }

  @Override
  public String name() {
    return "docagent";
  }

  @Override
  protected Future<?> startVerticle() {
    return Future.all(
        answer(Address.DOC_AGENT, this::instruct),
        answer(Address.DOC_AGENT_EDIT_REQUEST, this::delegate),
        answer(Address.DOC_AGENT_SESSION_DOCUMENT, this::sessionDocument),
        answer(Address.DOC_AGENT_DRAIN, this::drain));
  }

  /** SHUTTING_DOWN once the node drains; nothing otherwise. */
  private <T> Future<T> refuseWhileDraining() {
    return drained == null
        ? Future.succeededFuture()
        : Failure.shuttingDown("starts no document-agent run");
  }

  /**
   * {@code doc.agent.drain}: the node is shutting down. From now on no loop begins (SHUTTING_DOWN,
   * a request on its way in when the drain began included, before it changes anything); the loops
   * begun have {@code graceMs} to end by themselves, and those still going then are interrupted
   * ({@code interruptedBy: shutdown}): each checks in and publishes its end {@code canceled} as any
   * interrupted loop does, while the streams are still open. Asked twice, it answers the first
   * drain's outcome.
   */
  private Future<Drained> drain(DrainRequest request) {
    if (drained != null) {
      return drained;
    }
    Map<DocumentAgentRun, Future<JsonObject>> going = new LinkedHashMap<>(begun);
    LOG.atInfo()
        .addKeyValue("running", going.size())
        .addKeyValue("graceMs", request.graceMs())
        .log("doc_agent.draining");
    Promise<Void> graceOver = Promise.promise();
    long timer = vertx.setTimer(Math.max(1, request.graceMs()), id -> graceOver.tryComplete());
    Future.join(List.copyOf(going.values()))
        .onComplete(
            allEnded -> {
              vertx.cancelTimer(timer);
              graceOver.tryComplete();
            });
    drained =
        graceOver
            .future()
            .compose(
                over -> {
                  going.forEach(
                      (run, ended) -> {
                        if (!ended.isComplete()) {
                          run.interrupt(SHUTDOWN);
                        }
                      });
                  return Future.join(List.copyOf(going.values()))
                      .transform(
                          allEnded -> {
                            int finished = 0;
                            int canceled = 0;
                            int notStarted = 0;
                            // By the outcome, not by the interrupt: a loop already checking in
                            // at the grace's end ends as it would have.
                            for (Future<JsonObject> ended : going.values()) {
                              if (ended.result() == null) {
                                notStarted++;
                              } else if (SHUTDOWN.equals(
                                  ended.result().getString("interruptedBy"))) {
                                canceled++;
                              } else {
                                finished++;
                              }
                            }
                            return Future.succeededFuture(
                                new Drained(finished, canceled, notStarted));
                          });
                })
            .onSuccess(
                outcome ->
                    LOG.atInfo()
                        .addKeyValue("finished", outcome.finished())
                        .addKeyValue("canceled", outcome.canceled())
                        .addKeyValue("notStarted", outcome.notStarted())
                        .log("doc_agent.drained"));
    return drained;
  }

  /** The session's document, or the id itself for a session not yet known. */
  private Future<DocumentRef> sessionDocument(AgentSessionRef ask) {
    return documentOf(ask.canvasSessionId()).map(DocumentRef::new);
  }

  /** The document a session is bound to, or the id itself for a session not yet known. */
  private Future<String> documentOf(String sessionId) {
    return sessions
        .find(sessionId)
        .recover(error -> Failure.storeFailed("read the document-agent session", error))
        .map(known -> known.map(DocumentAgentSessions.Conversation::docId).orElse(sessionId));
  }

  /** A person's instruction: the session defaults to the document's own. */
  private Future<DocumentAgentStarted> instruct(DocumentAgentRequest ask) {
    String docId = ask.docId();
    String sessionId = ask.sessionId() == null ? docId : ask.sessionId();
    String instruction = ask.instruction();
    // Refused before the person's preemption: a refusal voids no lease.
    return refuseWhileDraining()
        .compose(open -> provider(instruction, ask.model()))
        .compose(checked -> preemptForPerson(docId))
        .compose(
            cleared ->
                start(
                    docId,
                    sessionId,
                    ask.requester().subject(),
                    instruction,
                    instruction,
                    ask.model()))
        .map(run -> run.started);
  }

  /**
   * A person's message preempts: a held lease is voided (whoever holds it; their later writes fail
   * STALE_EPOCH), and this node's loop on the document, interrupted by that, is let finish first.
   */
  private Future<Void> preemptForPerson(String docId) {
    DocumentRef document = new DocumentRef(docId);
    return Address.DOC_GET
        .ask(vertx.eventBus(), document)
        .compose(
            current -> {
              Future<Void> voided =
                  current.lease().held()
                      ? Address.DOC_PREEMPT.ask(vertx.eventBus(), document).mapEmpty()
                      : Future.succeededFuture();
              return voided.compose(
                  done -> {
                    DocumentAgentRun previous = running.get(docId);
                    if (previous != null) {
                      LOG.atInfo().addKeyValue("docId", docId).log("doc_agent.preempted_by_person");
                    }
                    return previous == null
                        ? Future.<Void>succeededFuture()
                        : previous.outcome().transform(ended -> Future.<Void>succeededFuture());
                  });
            });
  }

  /**
   * A primary agent's delegated edit: the session names a document-agent session, or else a document
   * (whose own session is then used); answered with the change.
   */
  private Future<DelegatedEditOutcome> delegate(DelegatedEditRequest ask) {
    String sessionId = ask.canvasSessionId();
    return refuseWhileDraining()
        .compose(open -> documentOf(sessionId))
        .compose(docId -> delegate(ask, sessionId, docId));
  }

  private Future<DelegatedEditOutcome> delegate(
      DelegatedEditRequest ask, String sessionId, String docId) {
    String instruction = ask.instruction();
    Object context = ask.context();
    String userText =
        context == null || context instanceof String text && text.isBlank()
            ? instruction
            : instruction
                + "\n\nContext from the primary agent:\n"
                + (context instanceof JsonObject json ? json.encodePrettily() : context);
    return start(docId, sessionId, ask.requester().subject(), instruction, userText, ask.model())
        .compose(
            started ->
                started.run.outcome().map(outcome -> new DelegatedEditOutcome(sessionId, outcome)));
  }

  private record Started(DocumentAgentRun run, DocumentAgentStarted started) {}

  /** The model to call, or why not; checked before anything changes. */
  private Future<ModelProvider> provider(String instruction, String model) {
    if (instruction == null || instruction.isBlank()) {
      return Failure.future(FailureCode.INVALID_REQUEST, "instruction must not be empty");
    }
    String key = model == null ? defaultModel : model;
    ModelRegistry.Resolution resolution = models.resolve(key);
    if (resolution instanceof ModelRegistry.Unknown unknown) {
      return Failure.future(FailureCode.UNKNOWN_MODEL, unknown.message());
    }
    if (resolution instanceof ModelRegistry.NotConfigured notConfigured) {
      return Failure.future(FailureCode.MODEL_NOT_CONFIGURED, notConfigured.message());
    }
    return Future.succeededFuture(((ModelRegistry.Ready) resolution).provider());
  }

  private Future<Started> start(
      String docId,
      String sessionId,
      String subject,
      String instruction,
      String userText,
      String model) {
    return provider(instruction, model)
        .compose(
            provider -> start(docId, sessionId, subject, instruction, userText, model, provider));
  }

  private Future<Started> start(
      String docId,
      String sessionId,
      String subject,
      String instruction,
      String userText,
      String model,
      ModelProvider provider) {
    return sessions
        .find(sessionId)
        .recover(error -> Failure.storeFailed("read the document-agent session", error))
        .compose(
            existing -> {
              if (existing.isPresent() && !existing.get().docId().equals(docId)) {
                return Failure.future(
                    FailureCode.INVALID_REQUEST,
                    "session " + sessionId + " belongs to another document");
              }
              return begin(docId, sessionId, subject, instruction, userText, model, provider);
            });
  }

  /** The session is read again once the loop holds the lease: another node may have added to it. */
  private Future<Started> begin(
      String docId,
      String sessionId,
      String subject,
      String instruction,
      String userText,
      String model,
      ModelProvider provider) {
    if (drained != null) {
      // On its way in when the drain began (waiting for the previous loop, reading the session):
      // refused before it checks out, so it changes nothing and the drain has nothing to wait for.
      return refuseWhileDraining();
    }
    String key = model == null ? defaultModel : model;
    DocumentAgentRun run =
        new DocumentAgentRun(
            vertx,
            sessions,
            new AgentSession(docId, sessionId),
            Actor.agent(subject, sessionId),
            provider,
            key,
            instruction,
            userText,
            tools,
            config.agentMaxSteps(),
            config.agentTimeoutMs());
    Future<DocumentAgentStarted> starting = run.begin();
    Future<JsonObject> over =
        starting.transform(
            start -> start.succeeded() ? run.outcome() : Future.succeededFuture(null));
    begun.put(run, over);
    over.onComplete(ended -> begun.remove(run));
    return starting.map(
        started -> {
          running.put(docId, run);
          run.outcome().onComplete(ended -> running.remove(docId, run));
          return new Started(run, started);
        });
  }
}
