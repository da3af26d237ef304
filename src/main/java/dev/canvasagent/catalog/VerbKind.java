package dev.canvasagent.catalog;

/** What happens to an action once it is sanitized. */
public enum VerbKind {
  /** Changes board records: committed as a revision, then published with its diff. */
  BOARD,
  /** Talks to the room: posted on {@code agent:chat}. */
  CHAT,
  /** Acts on the clients only (the viewport): published as an envelope without a diff. */
  CLIENT,
  /** Steers the agent itself (todos, follow-ups, reviews): handled by the runner and scheduler. */
  AGENT
}
