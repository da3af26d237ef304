package dev.canvasagent.bus;

/**
 * Every event-bus address the verticles use, declared once with its contract: an {@link Endpoint}
 * names the request and reply records, a {@link Notice} the one-way message. Addresses are named for
 * what the receiver does; room topics live in {@link RoomTopic}. docs/architecture.md ("The bus
 * contract") lists them in a table that a test keeps in step with this class.
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
   * Scheduler: create a session ({@link SessionCreate}), answer with it ({@link SessionView}); the
   * same idempotency key in the same room answers the session it created the first time.
   */
  public static final Endpoint<SessionCreate, SessionView> SCHEDULER_SESSION_CREATE =
      Endpoint.of("scheduler.session.create", SessionCreate::fromJson, SessionView::fromJson);

  /** Scheduler: a room's sessions ({@link SessionListQuery} → {@link SessionList}), the most recently active first. */
  public static final Endpoint<SessionListQuery, SessionList> SCHEDULER_SESSION_LIST =
      Endpoint.of("scheduler.session.list", SessionListQuery::fromJson, SessionList::fromJson);

  /**
   * Scheduler: everything needed to resume a session ({@link SessionRef} → {@link SessionResume}): the
   * session, its chat, todos, recent runs, the room's transcript and board revision.
   * SESSION_NOT_FOUND, or SESSION_ROOM_MISMATCH when {@code roomId} is given and is not the session's.
   */
  public static final Endpoint<SessionRef, SessionResume> SCHEDULER_SESSION_GET =
      Endpoint.of("scheduler.session.get", SessionRef::fromJson, SessionResume::fromJson);

  /** Scheduler: the room a session belongs to ({@link SessionRef} → {@link SessionRef} with its room), for access checks. */
  public static final Endpoint<SessionRef, SessionRef> SCHEDULER_SESSION_ROOM =
      Endpoint.of("scheduler.session.room", SessionRef::fromJson, SessionRef::fromJson);

  /** Scheduler: change a session's title, model or context items ({@link SessionUpdate} → {@link SessionView}). */
  public static final Endpoint<SessionUpdate, SessionView> SCHEDULER_SESSION_UPDATE =
      Endpoint.of("scheduler.session.update", SessionUpdate::fromJson, SessionView::fromJson);

  /** Scheduler: delete a session and its atoms ({@link SessionRef} → {@link SessionDeleted}); SESSION_BUSY while a run of it is live. */
  public static final Endpoint<SessionRef, SessionDeleted> SCHEDULER_SESSION_DELETE =
      Endpoint.of("scheduler.session.delete", SessionRef::fromJson, SessionDeleted::fromJson);

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

  /**
   * Scheduler: the node is shutting down ({@link DrainRequest}): from now on a submit is refused
   * SHUTTING_DOWN and no waiting run starts; answers once every running run has ended, by itself or
   * canceled at the grace's end, and the waiting ones are ended or let go ({@link Drained}).
   */
  public static final Endpoint<DrainRequest, Drained> SCHEDULER_DRAIN =
      Endpoint.of("scheduler.drain", DrainRequest::fromJson, Drained::fromJson);

  /**
   * Scheduler: undo a run ({@link RunRevertRequest} → {@link RunReverted}) once it has ended: checks
   * its record (RUN_NOT_FOUND, RUN_ROOM_MISMATCH, RUN_STILL_RUNNING), then asks {@code
   * patch.board.revert}.
   */
  public static final Endpoint<RunRevertRequest, RunReverted> SCHEDULER_RUN_REVERT =
      Endpoint.of("scheduler.run.revert", RunRevertRequest::fromJson, RunReverted::fromJson);

  /**
   * Scheduler, for the admin view: the room's runs this node's scheduler is running, and how many wait
   * in its queues ({@link RoomRef} → {@link RoomRuns}).
   */
  public static final Endpoint<RoomRef, RoomRuns> SCHEDULER_ROOM_RUNS =
      Endpoint.of("scheduler.room.runs", RoomRef::fromJson, RoomRuns::fromJson);

  /**
   * Scheduler, for the admin view: a session's owner node, queue, running run and last ended run
   * ({@link SessionRef} → {@link SessionActivity}), asked of the owner when it is another node;
   * SESSION_NOT_FOUND for an unknown session.
   */
  public static final Endpoint<SessionRef, SessionActivity> SCHEDULER_SESSION_ACTIVITY =
      Endpoint.of("scheduler.session.activity", SessionRef::fromJson, SessionActivity::fromJson);

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

  /**
   * Runner: one board action from outside a run ({@link OutsideAction}, an MCP client's call), judged
   * and committed exactly as a run's action and published on the room's {@code agent:action} with the
   * session's next seq; answers what became of it ({@link ActionOutcome}). A refused action
   * (ACTION_INVALID, SHAPE_NOT_FOUND, DUPLICATE_CREATE, INVALID_RECORD, REVISION_CONFLICT past the
   * patience; SESSION_NOT_FOUND, SESSION_ROOM_MISMATCH) changes nothing. Calls of one session in one
   * room are applied one at a time, in the order they arrive.
   */
  public static final Endpoint<OutsideAction, ActionOutcome> RUNNER_ACT =
      Endpoint.of("runner.act", OutsideAction::fromJson, ActionOutcome::fromJson);

  /**
   * Runner: the room as a run's model sees it ({@link RoomViewRequest} → {@link RoomView}): the same
   * prompt parts' shapes, viewport, selection and clusters, and the host's screenshot when asked. A
   * room nothing was drawn in is an empty board at revision 0; INVALID_REQUEST names a bad field.
   */
  public static final Endpoint<RoomViewRequest, RoomView> RUNNER_VIEW =
      Endpoint.of("runner.view", RoomViewRequest::fromJson, RoomView::fromJson);

  /**
   * Sanitizer: validate and normalize one action ({@link SanitizeRequest}), answer with the record diff
   * it makes ({@link AcceptedAction}); ACTION_INVALID, SHAPE_NOT_FOUND or DUPLICATE_CREATE when refused.
   */
  public static final Endpoint<SanitizeRequest, AcceptedAction> SANITIZER_SANITIZE =
      Endpoint.of("sanitizer.sanitize", SanitizeRequest::fromJson, AcceptedAction::fromJson);

  /**
   * Patch engine: apply a record diff to a board against a base revision ({@link BoardChangeRequest}),
   * answer with the revision stored ({@link CommittedRevision}).
   */
  public static final Endpoint<BoardChangeRequest, CommittedRevision> PATCH_BOARD_APPLY =
      Endpoint.of("patch.board.apply", BoardChangeRequest::fromJson, CommittedRevision::fromJson);

  /**
   * Patch engine: apply a person's record diff (checked record by record) and publish it as
   * {@code canvas:change} ({@link BoardChangeRequest} → {@link CommittedRevision}).
   */
  public static final Endpoint<BoardChangeRequest, CommittedRevision> PATCH_BOARD_CHANGE =
      Endpoint.of("patch.board.change", BoardChangeRequest::fromJson, CommittedRevision::fromJson);

  /**
   * Patch engine: a room's whole board by value ({@link BoardRef} → {@link BoardSnapshot}: revision and
   * records), the current one or the one at a given revision.
   */
  public static final Endpoint<BoardRef, BoardSnapshot> PATCH_BOARD_GET =
      Endpoint.of("patch.board.get", BoardRef::fromJson, BoardSnapshot::fromJson);

  /**
   * Patch engine: a room's current revision, its board then held on the answering node for the
   * verticles there to read by revision ({@link RoomRef} → {@link BoardHead}).
   */
  public static final Endpoint<RoomRef, BoardHead> PATCH_BOARD_HEAD =
      Endpoint.of("patch.board.head", RoomRef::fromJson, BoardHead::fromJson);

  /**
   * Patch engine: the changes a run made to the board, reverted as one new revision committed
   * conditionally on the current one and published on {@code canvas:change} ({@link RunRevertRequest}
   * → {@link RunReverted}); records changed since by anyone are left alone and reported.
   */
  public static final Endpoint<RunRevertRequest, RunReverted> PATCH_BOARD_REVERT =
      Endpoint.of("patch.board.revert", RunRevertRequest::fromJson, RunReverted::fromJson);

  /** Patch engine: a page of a board's stored revisions, oldest first ({@link BoardRevisionsQuery} → {@link BoardRevisionPage}). */
  public static final Endpoint<BoardRevisionsQuery, BoardRevisionPage> PATCH_BOARD_REVISIONS =
      Endpoint.of(
          "patch.board.revisions", BoardRevisionsQuery::fromJson, BoardRevisionPage::fromJson);

  /**
   * Patch engine, for the admin view: the revision of the room's board it holds and the store's
   * ({@link RoomRef} → {@link BoardCacheState}); loads and catches up nothing.
   */
  public static final Endpoint<RoomRef, BoardCacheState> PATCH_BOARD_STATE =
      Endpoint.of("patch.board.state", RoomRef::fromJson, BoardCacheState::fromJson);

  /** Screenshot: ask the room's host client for an image of the board ({@link ScreenshotRequest} → {@link Screenshot}). */
  public static final Endpoint<ScreenshotRequest, Screenshot> SCREENSHOT_CAPTURE =
      Endpoint.of("screenshot.capture", ScreenshotRequest::fromJson, Screenshot::fromJson);

  /** Screenshot: the bridge reports a client that can answer screenshot requests joining or leaving ({@link HostPresence}). */
  public static final Notice<HostPresence> SCREENSHOT_HOSTS =
      Notice.of("screenshot.hosts", HostPresence::fromJson);

  /** Bridge: the latest viewport and selection of each client of a room, the host's first ({@link RoomRef} → {@link RoomViewports}). */
  public static final Endpoint<RoomRef, RoomViewports> BRIDGE_VIEWPORTS =
      Endpoint.of("bridge.viewports", RoomRef::fromJson, RoomViewports::fromJson);

  /**
   * Bridge: where the SockJS bridge lets a browser's message go after the bridge has checked and
   * handled it itself. The body ({@link FrameHandled}) names only the room, client and topic, never the
   * payload. Nothing consumes this address. It is the one inbound address the bridge permits, and a
   * browser cannot send to it: the bridge refuses every address except the room topics a browser may
   * send.
   */
  public static final Notice<FrameHandled> BRIDGE_SOCKJS_HANDLED =
      Notice.of("bridge.sockjs.handled", FrameHandled::fromJson);

  /**
   * Lease manager: create a document ({@link DocumentCreateRequest}), answer {@link DocumentCreated}.
   * The request's author (the token's subject) is recorded as the first revision's.
   */
  public static final Endpoint<DocumentCreateRequest, DocumentCreated> DOC_CREATE =
      Endpoint.of("doc.create", DocumentCreateRequest::fromJson, DocumentCreated::fromJson);

  /** Lease manager: a document with its lease ({@link DocumentRef} → {@link DocumentView}); NOT_FOUND for an unknown one. */
  public static final Endpoint<DocumentRef, DocumentView> DOC_GET =
      Endpoint.of("doc.get", DocumentRef::fromJson, DocumentView::fromJson);

  /** Lease manager: the room a document belongs to ({@link DocumentRef} → {@link DocumentRoom}), for access checks. */
  public static final Endpoint<DocumentRef, DocumentRoom> DOC_ROOM =
      Endpoint.of("doc.room", DocumentRef::fromJson, DocumentRoom::fromJson);

  /**
   * Lease manager: a person's edit ({@link DocumentEditRequest} → {@link DocumentEdited}); REVISION_CONFLICT from a
   * stale base. It preempts any agent lease in the same write.
   */
  public static final Endpoint<DocumentEditRequest, DocumentEdited> DOC_EDIT =
      Endpoint.of("doc.edit", DocumentEditRequest::fromJson, DocumentEdited::fromJson);

  /** Lease manager: a document's revisions and recorded diffs, the newest first ({@link DocumentHistoryRequest} → {@link DocumentHistory}). */
  public static final Endpoint<DocumentHistoryRequest, DocumentHistory> DOC_REVISIONS =
      Endpoint.of("doc.revisions", DocumentHistoryRequest::fromJson, DocumentHistory::fromJson);

  /** Lease manager: void the document's lease now ({@link DocumentRef} → {@link LeasePreempted}), epoch + 1. */
  public static final Endpoint<DocumentRef, LeasePreempted> DOC_PREEMPT =
      Endpoint.of("doc.preempt", DocumentRef::fromJson, LeasePreempted::fromJson);

  /**
   * Lease manager: one document tool call ({@link DocumentToolCall}), answered with the tool's result
   * ({@link DocumentToolResult}). The call's {@link Actor} names the caller as the server knows it (never
   * from {@code args}): a lease is checked out for that caller, and only that caller may use it.
   */
  public static final Endpoint<DocumentToolCall, DocumentToolResult> DOC_TOOL =
      Endpoint.of("doc.tool", DocumentToolCall::fromJson, DocumentToolResult::fromJson);

  /**
   * Lease manager, for the admin view: a room's documents and their leases ({@link RoomRef} → {@link
   * RoomDocuments}); none for a room without documents.
   */
  public static final Endpoint<RoomRef, RoomDocuments> DOC_ROOM_LEASES =
      Endpoint.of("doc.room.leases", RoomRef::fromJson, RoomDocuments::fromJson);

  /**
   * Document agent: start a tool loop on a document ({@link DocumentAgentRequest}) for its requester,
   * answered once the lease is held ({@link DocumentAgentStarted}: never the lease id, which the loop
   * keeps); the loop goes on and reports on the document room's {@code agent:status} and {@code
   * agent:chat}.
   */
  public static final Endpoint<DocumentAgentRequest, DocumentAgentStarted> DOC_AGENT =
      Endpoint.of("doc.agent", DocumentAgentRequest::fromJson, DocumentAgentStarted::fromJson);

  /**
   * Document agent: a primary agent's delegated edit ({@link DelegatedEditRequest}), answered when the
   * loop ends with a summary of the change ({@link DelegatedEditOutcome}).
   */
  public static final Endpoint<DelegatedEditRequest, DelegatedEditOutcome> DOC_AGENT_EDIT_REQUEST =
      Endpoint.of(
          "doc.agent.edit_request", DelegatedEditRequest::fromJson, DelegatedEditOutcome::fromJson);

  /**
   * Document agent: the node is shutting down ({@link DrainRequest}), as {@link #SCHEDULER_DRAIN} is
   * for runs: from now on {@link #DOC_AGENT} and {@link #DOC_AGENT_EDIT_REQUEST} are refused
   * SHUTTING_DOWN; answers once every loop it had begun has ended, by itself within the grace or
   * interrupted at its end (each checked in, its end published), with how many of each ({@link
   * Drained}).
   */
  public static final Endpoint<DrainRequest, Drained> DOC_AGENT_DRAIN =
      Endpoint.of("doc.agent.drain", DrainRequest::fromJson, Drained::fromJson);

  /**
   * Document agent: the document a delegated edit's session works on ({@link AgentSessionRef} → {@link
   * DocumentRef}; an unknown session names a document itself), for access checks.
   */
  public static final Endpoint<AgentSessionRef, DocumentRef> DOC_AGENT_SESSION_DOCUMENT =
      Endpoint.of("doc.agent.session_document", AgentSessionRef::fromJson, DocumentRef::fromJson);

  /**
   * The scheduler of node {@code nodeId}, across the cluster (the one kind of scheduler address that
   * crosses nodes, documented in docs/cluster.md): a person's run for a session that node owns, taken
   * in there as {@code scheduler.submit} would ({@link OwnedRunSubmit} → {@link RunAccepted}).
   */
  public static Endpoint<OwnedRunSubmit, RunAccepted> schedulerNodeSubmit(String nodeId) {
    return Endpoint.of(
        "scheduler.node." + nodeId + ".submit", OwnedRunSubmit::fromJson, RunAccepted::fromJson);
  }

  /**
   * The scheduler of node {@code nodeId}, across the cluster: cancel the work of a session that node
   * owns, as {@code scheduler.cancel} would ({@link SessionRef} → {@link SessionCanceled}).
   */
  public static Endpoint<SessionRef, SessionCanceled> schedulerNodeCancel(String nodeId) {
    return Endpoint.of(
        "scheduler.node." + nodeId + ".cancel", SessionRef::fromJson, SessionCanceled::fromJson);
  }

  /**
   * The scheduler of node {@code nodeId}, across the cluster: cancel a run that node is running
   * ({@link RunCancel} → {@link SessionCanceled}, naming no run when it runs none by that id) — how a
   * cancel or a preemption reaches a run still running on the node that owned its session before.
   */
  public static Endpoint<RunCancel, SessionCanceled> schedulerNodeCancelRun(String nodeId) {
    return Endpoint.of(
        "scheduler.node." + nodeId + ".cancel_run", RunCancel::fromJson, SessionCanceled::fromJson);
  }

  /**
   * The scheduler of node {@code nodeId}, across the cluster: what a session that node owns is doing,
   * as {@code scheduler.session.activity} would answer there ({@link SessionRef} → {@link
   * SessionActivity}).
   */
  public static Endpoint<SessionRef, SessionActivity> schedulerNodeSessionActivity(String nodeId) {
    return Endpoint.of(
        "scheduler.node." + nodeId + ".session_activity",
        SessionRef::fromJson,
        SessionActivity::fromJson);
  }

  /**
   * Health probe of one verticle, {@code health.<verticle name>} ({@link HealthProbe} →
   * {@link HealthReport}): every verticle answers its own.
   */
  public static Endpoint<HealthProbe, HealthReport> health(String verticleName) {
    return Endpoint.of("health." + verticleName, HealthProbe::fromJson, HealthReport::fromJson);
  }
}
