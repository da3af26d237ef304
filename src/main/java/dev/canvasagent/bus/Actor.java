package dev.canvasagent.bus;

import io.vertx.core.json.JsonObject;
import java.util.Objects;

/**
 * Who acts on a document, as the server knows it: the subject of the token (with auth off, the open
 * grant's), and the document-agent session acting for that subject (null when the subject acts
 * itself). Never taken from what a client says of itself, so it can bind a lease and sign a revision.
 * On the bus it is two keys of the message that names it: {@code subject} and, for the agent, {@code
 * agentSession}.
 */
public record Actor(String subject, String agentSession) {
  public Actor {
    if (subject == null || subject.isBlank()) {
      throw new IllegalArgumentException("an actor has a subject");
    }
  }

  public static Actor person(String subject) {
    return new Actor(subject, null);
  }

  public static Actor agent(String subject, String sessionId) {
    return new Actor(subject, Objects.requireNonNull(sessionId, "sessionId"));
  }

  /** The name shown for it: the subject, or {@code agent:<session>} for the document agent acting for one. */
  public String name() {
    return agentSession == null ? subject : "agent:" + agentSession;
  }

  /** Names this actor in {@code message}, as {@link #from} reads it. */
  JsonObject into(JsonObject message) {
    message.put("subject", subject);
    if (agentSession != null) {
      message.put("agentSession", agentSession);
    }
    return message;
  }

  /**
   * The actor {@code message} names; INVALID_REQUEST when it names no subject: a request that names
   * nobody is refused, never given a default.
   */
  static Actor from(JsonObject message) {
    Object subject = message.getValue("subject");
    if (!(subject instanceof String named) || named.isBlank()) {
      throw new Failure(FailureCode.INVALID_REQUEST, "the request names no subject to act for");
    }
    return new Actor(named, MessageFields.optionalString(message, "agentSession", "an actor"));
  }
}
