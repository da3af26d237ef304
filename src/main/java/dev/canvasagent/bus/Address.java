package dev.canvasagent.bus;

/**
 * Every event-bus address the verticles use, declared once. Request addresses are named for what the
 * receiver does; room topics live in {@link RoomTopic}.
 */
public final class Address {
  private Address() {}

  /** Scheduler: accept a run request ({@link RunSubmit}), answer with its session id ({@link RunAccepted}), queue it. */
  public static final Endpoint<RunSubmit, RunAccepted> SCHEDULER_SUBMIT =
      Endpoint.of("scheduler.submit", RunSubmit::fromJson, RunAccepted::fromJson);

  /**
   * Scheduler: one {@code todo} action of a running run ({@link TodoRequest}); answers with the change
   * ({@link TodoChange}), NOT_FOUND for an id the session does not have, nothing changed.
   */
  public static final Endpoint<TodoRequest, TodoChange> SCHEDULER_TODO =
      Endpoint.of("scheduler.todo", TodoRequest::fromJson, TodoChange::fromJson);

  /**
   * Scheduler: a running run asks for a follow-up run ({@link FollowUpRequest}); answers with the
   * follow-up's run id and number ({@link GrantedFollowUp}), or QUEUE_FULL past the request's follow-up
   * cap.
   */
  public static final Endpoint<FollowUpRequest, GrantedFollowUp> SCHEDULER_FOLLOW_UP =
      Endpoint.of("scheduler.follow_up", FollowUpRequest::fromJson, GrantedFollowUp::fromJson);

  /** Scheduler: a session's todos ({@link SessionRef} → {@link TodoList}), SESSION_NOT_FOUND for an unknown one. */
  public static final Endpoint<SessionRef, TodoList> SCHEDULER_TODOS =
      Endpoint.of("scheduler.todos", SessionRef::fromJson, TodoList::fromJson);

  /**
   * Scheduler: create a session ({@code {roomId, title?, model?, idempotencyKey?}}), answer with it; the
   * same idempotency key in the same room answers the session it created the first time.
   */
  public static final String SCHEDULER_SESSION_CREATE = "scheduler.session.create";

  /** Scheduler: a room's sessions ({@code {roomId, limit}}), the most recently active first. */
  public static final String SCHEDULER_SESSION_LIST = "scheduler.session.list";

  /**
   * Scheduler: everything needed to resume a session ({@code {sessionId, roomId?}}): the session, its
   * chat, todos, recent runs, the room's transcript and board revision. SESSION_NOT_FOUND, or
   * SESSION_ROOM_MISMATCH when {@code roomId} is given and is not the session's.
   */
  public static final String SCHEDULER_SESSION_GET = "scheduler.session.get";

  /** Scheduler: the room a session belongs to ({@code {sessionId}} → {@code {sessionId, roomId}}), for access checks. */
  public static final String SCHEDULER_SESSION_ROOM = "scheduler.session.room";

  /** Scheduler: change a session's title, model or context items ({@code {sessionId, roomId?, …}}). */
  public static final String SCHEDULER_SESSION_UPDATE = "scheduler.session.update";

  /** Scheduler: delete a session and its atoms ({@code {sessionId, roomId?}}); SESSION_BUSY while a run of it is live. */
  public static final String SCHEDULER_SESSION_DELETE = "scheduler.session.delete";

  /**
   * Scheduler: a run about to end {@code done} asks which follow-ups the scheduler's rules add to its
   * user request ({@link RunEnding}); answers {@link GrantedFollowUps}, empty when none.
   */
  public static final Endpoint<RunEnding, GrantedFollowUps> SCHEDULER_RUN_ENDING =
      Endpoint.of("scheduler.run_ending", RunEnding::fromJson, GrantedFollowUps::fromJson);

  /**
   * Scheduler: cancel a session's work ({@link SessionRef}): the running run ends {@code canceled} and
   * the runs waiting are dropped. Answers once the running run has ended, with what was canceled
   * ({@link SessionCanceled}); SESSION_NOT_FOUND for an unknown session.
   */
  public static final Endpoint<SessionRef, SessionCanceled> SCHEDULER_CANCEL =
      Endpoint.of("scheduler.cancel", SessionRef::fromJson, SessionCanceled::fromJson);

  /** Runner: execute one run ({@link RunStart}) to its end and answer with its outcome ({@link RunOutcome}). */
  public static final Endpoint<RunStart, RunOutcome> RUNNER_RUN =
      Endpoint.of("runner.run", RunStart::fromJson, RunOutcome::fromJson);

  /**
   * Runner: end a running run as {@code canceled} ({@link RunCancel}); answers with its outcome once
   * its final status is out, NOT_FOUND when this runner has no such run.
   */
  public static final Endpoint<RunCancel, RunOutcome> RUNNER_CANCEL =
      Endpoint.of("runner.cancel", RunCancel::fromJson, RunOutcome::fromJson);

  /** Runner: store one utterance of a room's transcript ({@link TranscriptAdd}), answer with it ({@link StoredUtterance}). */
  public static final Endpoint<TranscriptAdd, StoredUtterance> RUNNER_TRANSCRIPT_ADD =
      Endpoint.of("runner.transcript.add", TranscriptAdd::fromJson, StoredUtterance::fromJson);

  /** Sanitizer: validate and normalize one action, answer with the record diff it makes. */
  public static final String SANITIZER_SANITIZE = "sanitizer.sanitize";

  /** Patch engine: apply a record diff to a board against a base revision. */
  public static final String PATCH_BOARD_APPLY = "patch.board.apply";

  /** Patch engine: apply a person's record diff (checked record by record) and publish it as {@code canvas:change}. */
  public static final String PATCH_BOARD_CHANGE = "patch.board.change";

  /** Patch engine: the current board (revision and records). */
  public static final String PATCH_BOARD_GET = "patch.board.get";

  /** Patch engine: a page of a board's stored revisions, oldest first. */
  public static final String PATCH_BOARD_REVISIONS = "patch.board.revisions";

  /** Screenshot: ask the room's host client for an image of the board. */
  public static final String SCREENSHOT_CAPTURE = "screenshot.capture";

  /** Screenshot: the bridge reports a client that can answer screenshot requests joining or leaving. */
  public static final String SCREENSHOT_HOSTS = "screenshot.hosts";

  /** Bridge: the latest viewport and selection of each client of a room, the host's first. */
  public static final String BRIDGE_VIEWPORTS = "bridge.viewports";

  /**
   * Bridge: where the SockJS bridge lets a browser's message go after the bridge has checked and
   * handled it itself. The body names only the room, client and topic, never the payload. Nothing
   * consumes this address. It is the one inbound address the bridge permits, and a browser cannot send
   * to it: the bridge refuses every address except the room topics a browser may send.
   */
  public static final String BRIDGE_SOCKJS_HANDLED = "bridge.sockjs.handled";

  /**
   * Lease manager: create a document ({@code {id, roomId, title, content, subject}}), answer {@code {id, revisionId}}.
   * {@code subject} (the token's) is recorded as the first revision's author.
   */
  public static final String DOC_CREATE = "doc.create";

  /** Lease manager: a document with its lease ({@code {docId}}); NOT_FOUND for an unknown one. */
  public static final String DOC_GET = "doc.get";

  /** Lease manager: the room a document belongs to ({@code {docId}} → {@code {docId, roomId}}), for access checks. */
  public static final String DOC_ROOM = "doc.room";

  /**
   * Lease manager: a person's edit ({@code {docId, content, baseRevisionId, subject}}); REVISION_CONFLICT from a
   * stale base. It preempts any agent lease in the same write.
   */
  public static final String DOC_EDIT = "doc.edit";

  /** Lease manager: a document's revisions and recorded diffs, the newest first ({@code {docId, limit}}). */
  public static final String DOC_REVISIONS = "doc.revisions";

  /** Lease manager: void the document's lease now ({@code {docId}}), epoch + 1. */
  public static final String DOC_PREEMPT = "doc.preempt";

  /**
   * Lease manager: one document tool call ({@code {docId, tool, args, subject, agentSession?}}), answered with
   * the tool's result. {@code subject} and {@code agentSession} name the caller as the server knows it (never
   * from {@code args}): a lease is checked out for that caller, and only that caller may use it.
   */
  public static final String DOC_TOOL = "doc.tool";

  /**
   * Document agent: start a tool loop on a document ({@code {docId, instruction, subject, model?, sessionId?}})
   * for {@code subject}, answered once the lease is held ({@code {runId, docId, sessionId, holder, canvasEpoch,
   * state}}: never the lease id, which the loop keeps); the loop goes on and reports on the document room's
   * {@code agent:status} and {@code agent:chat}.
   */
  public static final String DOC_AGENT = "doc.agent";

  /**
   * Document agent: a primary agent's delegated edit ({@code {canvas_session_id, instruction, subject, context?}}),
   * answered when the loop ends with a summary of the change.
   */
  public static final String DOC_AGENT_EDIT_REQUEST = "doc.agent.edit_request";

  /**
   * Document agent: the document a delegated edit's session works on ({@code {canvas_session_id}} →
   * {@code {docId}}; an unknown session names a document itself), for access checks.
   */
  public static final String DOC_AGENT_SESSION_DOCUMENT = "doc.agent.session_document";

  /** Health probe of one verticle: {@code health.<verticle name>}. */
  public static String health(String verticleName) {
    return "health." + verticleName;
  }
}
