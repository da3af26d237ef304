package dev.canvasagent.docagent;

import dev.canvasagent.bus.Actor;
import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.AgentSessionRef;
import dev.canvasagent.bus.DelegatedEditOutcome;
import dev.canvasagent.bus.DelegatedEditRequest;
import dev.canvasagent.bus.DocumentAgentRequest;
import dev.canvasagent.bus.DocumentAgentStarted;
import dev.canvasagent.bus.DocumentRef;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.DocumentAgentSessions;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
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
 * is {@code agent:<session>}'s on that subject's behalf, and its revisions are recorded so.
 */
public final class DocumentAgentVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(DocumentAgentVerticle.class);

  private final ModelRegistry models;
  private final String defaultModel;
  private final AppConfig.Documents config;
  private final JsonArray tools;
  private final DocumentAgentSessions sessions;

  /** The loop running on this node for each document. */
  private final Map<String, DocumentAgentRun> running = new java.util.HashMap<>();

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
        answer(Address.DOC_AGENT_SESSION_DOCUMENT, this::sessionDocument));
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
    return provider(instruction, ask.model())
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
    return documentOf(sessionId).compose(docId -> delegate(ask, sessionId, docId));
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
    return run.begin()
        .map(
            started -> {
              running.put(docId, run);
              run.outcome().onComplete(ended -> running.remove(docId, run));
              return new Started(run, started);
            });
  }
}
