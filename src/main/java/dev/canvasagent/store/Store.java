package dev.canvasagent.store;

import io.vertx.core.Future;

/**
 * What the verticles keep: boards with every revision, agent sessions with their todos, chat and runs,
 * and each room's transcript. Two implementations pass the same contract tests: {@code PgStore}
 * (PostgreSQL, production and tests) and {@code MemoryStore} (the embedded default). Consistency is decided by the store, conditional on the base revision, so
 * two nodes sharing one PostgreSQL stay correct.
 */
public interface Store {
  BoardStore boards();

  SessionStore sessions();

  TodoStore todos();

  TranscriptStore transcripts();

  ChatStore chats();

  RunStore runs();

  /** Markdown documents, their revisions and their leases. */
  DocumentStore documents();

  /** The document agent's sessions: conversations, hidden canvas updates, the revision last seen. */
  DocumentAgentSessions documentAgentSessions();

  /** The counts of the cost-bearing rate limits, shared by every node on this store. */
  RateLimits rateLimits();

  /** The images and videos of each room's board, by content. */
  AssetStore assets();

  /** The ids idempotency keys name, under a secret every node sharing this store has. */
  IdempotencyKeys idempotencyKeys();

  /** {@code memory} or {@code postgres}, for health and logs. */
  String kind();

  /** Succeeds when the store can serve requests now. */
  Future<Void> ping();

  Future<Void> close();
}
