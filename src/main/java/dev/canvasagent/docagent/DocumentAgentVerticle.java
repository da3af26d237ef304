package dev.canvasagent.docagent;

import dev.canvasagent.bus.Address;
import dev.canvasagent.bus.Failure;
import dev.canvasagent.bus.FailureCode;
import dev.canvasagent.config.AppConfig;
import dev.canvasagent.doctools.DocumentToolCatalog;
import dev.canvasagent.model.ModelProvider;
import dev.canvasagent.model.ModelRegistry;
import dev.canvasagent.store.DocumentStore.Actor;
import dev.canvasagent.verticle.CanvasVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The document agent: runs a tool loop over a document's read and write tools for a person's
 * instruction ({@link Address#DOC_AGENT}, answered once the loop has started) or a primary agent's
 * delegated edit ({@link Address#DOC_AGENT_EDIT_REQUEST}, answered when it ends). A person's
 * instruction preempts whoever holds the document's lease (seed 004: a person's message voids the
 * lease at once, epoch + 1) and starts once this node's loop on the document has ended; a delegated
 * edit is refused with LOCK_NOT_AVAILABLE instead. Its sessions (the conversation and the revision
 * the agent last saw) live in this verticle's memory. A loop acts for the subject whose request started
 * it ({@code subject}, from the token): its lease is {@code agent:<session>}'s on that subject's behalf,
 * and its revisions are recorded so.
 */
public final class DocumentAgentVerticle extends CanvasVerticle {
  private static final Logger LOG = LoggerFactory.getLogger(DocumentAgentVerticle.class);

  /** Sessions kept; the least recently used one is forgotten past this. */
  static final int MAX_SESSIONS = 1_000;

  private final ModelRegistry models;
  private final String defaultModel;
  private final AppConfig.Documents config;
  private final JsonArray tools;
  private final Map<String, AgentSession> sessions =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, AgentSession> eldest) {
          return size() > MAX_SESSIONS;
        }
      };

  /** The loop running on this node for each document. */
  private final Map<String, DocumentAgentRun> running = new java.util.HashMap<>();

  public DocumentAgentVerticle(
      ModelRegistry models,
      String defaultModel,
      AppConfig.Documents config,
      DocumentToolCatalog catalog) {
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

  /** {@code {canvas_session_id}} → {@code {docId}}: the session's document, or the id itself for a session not yet known. */
  private Future<JsonObject> sessionDocument(JsonObject ask) {
    String sessionId = ask.getString("canvas_session_id");
    AgentSession known = sessions.get(sessionId);
    return Future.succeededFuture(
        new JsonObject().put("docId", known == null ? sessionId : known.docId()));
  }

  /** {@code {docId, instruction, subject, model?, sessionId?}}: the session defaults to the document's own. */
  private Future<JsonObject> instruct(JsonObject ask) {
    String docId = ask.getString("docId");
    String sessionId = ask.getString("sessionId", docId);
    String instruction = ask.getString("instruction");
    return subject(ask)
        .compose(
            subject ->
                provider(instruction, ask.getString("model"))
                    .compose(checked -> preemptForPerson(docId))
                    .compose(
                        cleared ->
                            start(
                                docId,
                                sessionId,
                                subject,
                                instruction,
                                instruction,
                                ask.getString("model"))))
        .map(run -> run.started);
  }

  /** The subject the loop acts for; a request that names none is refused before anything changes. */
  private static Future<String> subject(JsonObject ask) {
    String subject = ask.getString("subject");
    return subject == null || subject.isBlank()
        ? Failure.future(FailureCode.INVALID_REQUEST, "the request names no subject to act for")
        : Future.succeededFuture(subject);
  }

  /**
   * A person's message preempts: a held lease is voided (whoever holds it; their later writes fail
   * STALE_EPOCH), and this node's loop on the document, interrupted by that, is let finish first.
   */
  private Future<Void> preemptForPerson(String docId) {
    return vertx
        .eventBus()
        .<JsonObject>request(Address.DOC_GET, new JsonObject().put("docId", docId))
        .compose(
            reply -> {
              JsonObject lease = reply.body().getJsonObject("lease");
              boolean held = lease != null && lease.getBoolean("held", false);
              Future<Void> voided =
                  held
                      ? vertx
                          .eventBus()
                          .request(Address.DOC_PREEMPT, new JsonObject().put("docId", docId))
                          .mapEmpty()
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
   * {@code {canvas_session_id, instruction, subject, context?, model?}}: the session names a document-agent
   * session, or else a document (whose own session is then used); answered with the change.
   */
  private Future<JsonObject> delegate(JsonObject ask) {
    String sessionId = ask.getString("canvas_session_id");
    AgentSession known = sessions.get(sessionId);
    String docId = known == null ? sessionId : known.docId();
    String instruction = ask.getString("instruction");
    Object context = ask.getValue("context");
    String userText =
        context == null || context instanceof String text && text.isBlank()
            ? instruction
            : instruction
                + "\n\nContext from the primary agent:\n"
                + (context instanceof JsonObject json ? json.encodePrettily() : context);
    return subject(ask)
        .compose(
            subject ->
                start(docId, sessionId, subject, instruction, userText, ask.getString("model")))
        .compose(
            started ->
                started.run.outcome().map(outcome -> outcome.put("canvas_session_id", sessionId)));
  }

  private record Started(DocumentAgentRun run, JsonObject started) {}

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
    String key = model == null ? defaultModel : model;
    AgentSession existing = sessions.get(sessionId);
    if (existing != null && !existing.docId().equals(docId)) {
      return Failure.future(
          FailureCode.INVALID_REQUEST, "session " + sessionId + " belongs to another document");
    }
    AgentSession session = existing == null ? new AgentSession(docId, sessionId) : existing;
    DocumentAgentRun run =
        new DocumentAgentRun(
            vertx,
            session,
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
              sessions.put(sessionId, session);
              running.put(docId, run);
              run.outcome().onComplete(ended -> running.remove(docId, run));
              return new Started(run, started);
            });
  }
}
