package dev.canvasagent.store.pg;

/** Every statement the PostgreSQL store runs, named for what it does. The schema is in {@code sql/}. */
final class Sql {
  private Sql() {}

  static final String ENSURE_ROOM =
      "INSERT INTO canvas_rooms (id) VALUES ($1) ON CONFLICT (id) DO NOTHING";

  static final String LOAD_BOARD =
      "SELECT r.board_rev, b.record FROM canvas_rooms r"
          + " LEFT JOIN canvas_board_records b ON b.room_id = r.id WHERE r.id = $1";

  /** Moves the room to the next revision only if it is still at the base revision. */
  static final String ADVANCE_BOARD_REVISION =
      "UPDATE canvas_rooms SET board_rev = board_rev + 1, updated_at = now()"
          + " WHERE id = $1 AND board_rev = $2 RETURNING board_rev";

  static final String CURRENT_BOARD_REVISION = "SELECT board_rev FROM canvas_rooms WHERE id = $1";

  static final String INSERT_BOARD_REVISION =
      "INSERT INTO canvas_board_revisions (room_id, rev, diff, author, run_id)"
          + " VALUES ($1, $2, $3::jsonb, $4, $5)";

  static final String REMOVE_BOARD_RECORDS =
      "DELETE FROM canvas_board_records WHERE room_id = $1 AND record_id = ANY($2)";

  static final String PUT_BOARD_RECORDS =
      "INSERT INTO canvas_board_records (room_id, record_id, record)"
          + " SELECT $1, element ->> 'id', element FROM jsonb_array_elements($2::jsonb) AS element"
          + " ON CONFLICT (room_id, record_id) DO UPDATE SET record = EXCLUDED.record";

  static final String LIST_BOARD_REVISIONS =
      "SELECT rev, diff, author, created_at, run_id FROM canvas_board_revisions"
          + " WHERE room_id = $1 AND rev > $2 ORDER BY rev LIMIT $3";

  /** An id already there (a retry) is left as it is, and answers nothing: see {@link #SESSION_REQUEST_FINGERPRINT}. */
  static final String INSERT_SESSION =
      "INSERT INTO canvas_agent_sessions (id, room_id, model, title, request_fingerprint) VALUES ($1, $2, $3, $4, $5)"
          + " ON CONFLICT (id) DO NOTHING RETURNING id";

  static final String SESSION_REQUEST_FINGERPRINT =
      "SELECT request_fingerprint FROM canvas_agent_sessions WHERE id = $1";

  static final String SESSION_COLUMNS =
      "id, room_id, title, model, origin_x, origin_y, context_items, created_at, last_active_at";

  static final String FIND_SESSION =
      "SELECT " + SESSION_COLUMNS + " FROM canvas_agent_sessions WHERE id = $1";

  static final String LIST_SESSIONS =
      "SELECT "
          + SESSION_COLUMNS
          + " FROM canvas_agent_sessions WHERE room_id = $1"
          + " ORDER BY last_active_at DESC, created_at DESC, id LIMIT $2";

  /** Null parameters keep the column. */
  static final String UPDATE_SESSION =
      "UPDATE canvas_agent_sessions SET title = coalesce($2, title), model = coalesce($3, model),"
          + " context_items = coalesce($4::jsonb, context_items) WHERE id = $1 RETURNING "
          + SESSION_COLUMNS;

  /** Holds the session while its atoms are deleted, so no run is accepted into it meanwhile. */
  static final String LOCK_SESSION =
      "SELECT id FROM canvas_agent_sessions WHERE id = $1 FOR UPDATE";

  static final String COUNT_LIVE_RUNS_OF_SESSION =
      "SELECT count(*) AS live FROM canvas_agent_runs WHERE session_id = $1 AND state IN ('queued', 'running')";

  static final String DELETE_SESSION_CHAT = "DELETE FROM canvas_agent_chat WHERE session_id = $1";

  static final String DELETE_SESSION_TODOS = "DELETE FROM canvas_agent_todos WHERE session_id = $1";

  static final String DELETE_SESSION_RUNS = "DELETE FROM canvas_agent_runs WHERE session_id = $1";

  static final String DELETE_SESSION = "DELETE FROM canvas_agent_sessions WHERE id = $1";

  static final String TOUCH_SESSION =
      "UPDATE canvas_agent_sessions SET last_active_at = now() WHERE id = $1";

  static final String RUN_COLUMNS =
      "id, session_id, room_id, state, detail, message_chars, created_at, updated_at, request_fingerprint,"
          + " follow_up";

  /** A run id already recorded (a retry) is left as it is. */
  static final String INSERT_QUEUED_RUN =
      "INSERT INTO canvas_agent_runs (id, session_id, room_id, idempotency_key, message_chars, request_fingerprint,"
          + " follow_up, request, state) VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, 'queued')"
          + " ON CONFLICT (id) DO NOTHING RETURNING "
          + RUN_COLUMNS;

  /**
   * queued → running, held by node $6, its request erased; a run never recorded is recorded running;
   * one in any other state is left as it is (no row changed: this node must not run it). A second
   * running run of the session breaks canvas_agent_runs_one_running_per_session (unique_violation):
   * the session is busy.
   */
  static final String START_RUN =
      "INSERT INTO canvas_agent_runs (id, session_id, room_id, message_chars, follow_up, state, node_id)"
          + " VALUES ($1, $2, $3, $4, $5::jsonb, 'running', $6)"
          + " ON CONFLICT (id) DO UPDATE SET state = 'running', node_id = $6, request = NULL,"
          + " updated_at = now(), heartbeat_at = now() WHERE canvas_agent_runs.state = 'queued'";

  /**
   * The queued runs no node holds, whose request is stored (see RunStore#orphans): with the state of
   * the run that asked for a follow-up, in the order the session runs them — by its request's
   * acceptance, then its number.
   */
  static final String ORPHANED_QUEUED_RUNS =
      "SELECT "
          + qualified("r", RUN_COLUMNS)
          + ", r.request, asker.state AS asked_by_state FROM canvas_agent_runs r"
          + " LEFT JOIN canvas_agent_runs request_run ON request_run.id = coalesce(r.follow_up->>'requestRunId', r.id)"
          + " LEFT JOIN canvas_agent_runs asker ON asker.id = r.follow_up->>'askedByRunId'"
          + " WHERE r.state = 'queued' AND r.request IS NOT NULL"
          + " AND r.heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)"
          + " AND r.id <> ALL($2::text[])"
          + " ORDER BY r.session_id, coalesce(request_run.accepted_seq, r.accepted_seq),"
          + " coalesce((r.follow_up->>'number')::int, 0), r.accepted_seq";

  /**
   * The queued runs of session $1 (with their request) before run $2 in the session's order, as
   * ORPHANED_QUEUED_RUNS orders them; all of them when $2 is not recorded.
   */
  static final String QUEUED_RUNS_BEFORE =
      "WITH me AS (SELECT coalesce(req.accepted_seq, r.accepted_seq) AS request_seq,"
          + " coalesce((r.follow_up->>'number')::int, 0) AS number, r.accepted_seq"
          + " FROM canvas_agent_runs r"
          + " LEFT JOIN canvas_agent_runs req ON req.id = coalesce(r.follow_up->>'requestRunId', r.id)"
          + " WHERE r.id = $2)"
          + " SELECT o.id FROM canvas_agent_runs o"
          + " LEFT JOIN canvas_agent_runs o_req ON o_req.id = coalesce(o.follow_up->>'requestRunId', o.id)"
          + " LEFT JOIN me ON true"
          + " WHERE o.session_id = $1 AND o.state = 'queued' AND o.request IS NOT NULL AND o.id <> $2"
          + " AND (me.request_seq IS NULL OR (coalesce(o_req.accepted_seq, o.accepted_seq),"
          + " coalesce((o.follow_up->>'number')::int, 0), o.accepted_seq)"
          + " < (me.request_seq, me.number, me.accepted_seq))"
          + " ORDER BY coalesce(o_req.accepted_seq, o.accepted_seq),"
          + " coalesce((o.follow_up->>'number')::int, 0), o.accepted_seq";

  /** Only a queued run nobody renewed within $2 ms: of two nodes taking it over, one gets it. */
  static final String TAKE_OVER_RUNS =
      "UPDATE canvas_agent_runs SET heartbeat_at = now(), node_id = $3"
          + " WHERE id = ANY($1::text[]) AND state = 'queued'"
          + " AND heartbeat_at < now() - make_interval(secs => $2::double precision / 1000) RETURNING id";

  /** Stale at once: the sessions' owners take them over at their next look. */
  static final String RELEASE_RUNS =
      "UPDATE canvas_agent_runs SET heartbeat_at = '-infinity' WHERE id = ANY($1::text[]) AND state = 'queued'";

  static final String RUNNING_RUN_OF_SESSION =
      "SELECT id, node_id FROM canvas_agent_runs WHERE session_id = $1 AND state = 'running'";

  /** {@code columns} (comma-separated) each prefixed with {@code alias}. */
  private static String qualified(String alias, String columns) {
    return java.util.Arrays.stream(columns.split(","))
        .map(column -> alias + "." + column.strip())
        .collect(java.util.stream.Collectors.joining(", "));
  }

  /** Only a live run ends: a run that already ended, or was swept as interrupted, keeps its state. */
  static final String FINISH_RUN =
      "UPDATE canvas_agent_runs SET state = $2, detail = $3::jsonb, request = NULL, updated_at = now()"
          + " WHERE id = $1 AND state IN ('queued', 'running')";

  /** A retry's node takes a queued run in: its heartbeat now, so no sweeper takes it for a dead node's. */
  static final String ADOPT_QUEUED_RUN =
      "UPDATE canvas_agent_runs SET heartbeat_at = now() WHERE id = $1 AND state = 'queued' RETURNING "
          + RUN_COLUMNS;

  static final String HEARTBEAT_RUNS =
      "UPDATE canvas_agent_runs SET heartbeat_at = now() WHERE id = ANY($1) AND state IN ('queued', 'running')";

  /**
   * Decided by the database's clock, so every node sweeping agrees on what is stale; only a live run
   * changes (an ended one keeps its final state), never one the sweeping node holds ($3), and never a
   * queued run whose request is stored: its session's owner takes it over instead.
   */
  static final String SWEEP_INTERRUPTED_RUNS =
      "UPDATE canvas_agent_runs SET state = 'error', detail = $2::jsonb || jsonb_build_object('runId', id),"
          + " request = NULL, updated_at = now()"
          + " WHERE (state = 'running' OR (state = 'queued' AND request IS NULL)) AND heartbeat_at < now() - make_interval(secs => $1::double precision / 1000)"
          + " AND id <> ALL($3::text[])"
          + " RETURNING "
          + RUN_COLUMNS;

  static final String FIND_RUN = "SELECT " + RUN_COLUMNS + " FROM canvas_agent_runs WHERE id = $1";

  static final String RECENT_RUNS =
      "SELECT "
          + RUN_COLUMNS
          + " FROM canvas_agent_runs WHERE session_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2";

  static final String NEXT_SESSION_SEQ =
      "UPDATE canvas_agent_sessions SET last_seq = last_seq + 1 WHERE id = $1 RETURNING last_seq";

  /** Sets the origin only while none is set; either way answers with the one the session keeps. */
  static final String FIX_SESSION_ORIGIN =
      "UPDATE canvas_agent_sessions SET origin_x = coalesce(origin_x, $2), origin_y = coalesce(origin_y, $3)"
          + " WHERE id = $1 RETURNING origin_x, origin_y";

  static final String INSERT_UTTERANCE =
      "INSERT INTO canvas_transcripts (room_id, speaker, text, ts) VALUES ($1, $2, $3, $4)";

  /** Stores nothing when the room already holds the key's id (answered by {@link #FIND_UTTERANCE_BY_KEY}). */
  static final String INSERT_UTTERANCE_ONCE =
      "INSERT INTO canvas_transcripts (room_id, speaker, text, ts, idempotency_key, idempotency_id, request_fingerprint)"
          + " VALUES ($1, $2, $3, $4, $5, $6, $7)"
          + " ON CONFLICT (room_id, idempotency_id) WHERE idempotency_id IS NOT NULL DO NOTHING RETURNING speaker, text, ts";

  static final String FIND_UTTERANCE_BY_KEY =
      "SELECT speaker, text, ts, request_fingerprint FROM canvas_transcripts WHERE room_id = $1 AND idempotency_id = $2";

  /** The newest {@code $3} utterances since {@code $2}, put back in time order by the caller. */
  static final String LIST_UTTERANCES_SINCE =
      "SELECT speaker, text, ts FROM canvas_transcripts WHERE room_id = $1 AND ts >= $2"
          + " ORDER BY ts DESC, id DESC LIMIT $3";

  static final String INSERT_CHAT_MESSAGE =
      "INSERT INTO canvas_agent_chat (session_id, role, text, run_id) VALUES ($1, $2, $3, $4)"
          + " RETURNING created_at";

  /** The newest {@code $2} messages, put back in order by the caller. */
  static final String LIST_RECENT_CHAT =
      "SELECT role, text, created_at, run_id FROM canvas_agent_chat WHERE session_id = $1"
          + " ORDER BY id DESC LIMIT $2";

  static final String TODO_COLUMNS =
      "id::text AS id, session_id, text, status, position, created_at, resolved_at";

  static final String LIST_TODOS =
      "SELECT "
          + TODO_COLUMNS
          + " FROM canvas_agent_todos WHERE session_id = $1 ORDER BY position, created_at, id";

  static final String INSERT_TODO =
      "INSERT INTO canvas_agent_todos (session_id, text, position) VALUES ($1, $2, $3) RETURNING "
          + TODO_COLUMNS;

  /**
   * Null parameters keep the column; resolved_at is stamped when an item leaves {@code open}, kept
   * while it stays resolved, and cleared when it is reopened.
   */
  static final String UPDATE_TODO =
      "UPDATE canvas_agent_todos SET text = coalesce($3, text), status = coalesce($4, status),"
          + " position = coalesce($5, position),"
          + " resolved_at = CASE WHEN coalesce($4, status) = 'open' THEN NULL"
          + " WHEN coalesce($4, status) = status THEN coalesce(resolved_at, now()) ELSE now() END"
          + " WHERE session_id = $1 AND id::text = $2 RETURNING "
          + TODO_COLUMNS;

  static final String PING = "SELECT 1";

  /** The first node to start makes the secret; the others' proposals are dropped. */
  static final String PROPOSE_SECRET =
      "INSERT INTO canvas_server_secrets (purpose, secret) VALUES ($1, $2) ON CONFLICT (purpose) DO NOTHING";

  static final String FIND_SECRET = "SELECT secret FROM canvas_server_secrets WHERE purpose = $1";

  // Documents (V5, lease holders V6). Times travel as epoch milliseconds; "now" is always the
  // database's clock, so every node judges lease expiry the same way.
  private static final String DOCUMENT_COLUMNS =
      "d.id, d.room_id, d.title, d.content, d.revision_id, d.version, d.undo_stack, d.redo_stack,"
          + " (extract(epoch from d.created_at) * 1000)::bigint AS created_ms,"
          + " (extract(epoch from d.updated_at) * 1000)::bigint AS updated_ms,"
          + " l.lease_id, l.holder_subject, l.holder_session, (extract(epoch from l.held_since) * 1000)::bigint AS held_since_ms,"
          + " (extract(epoch from l.expires_at) * 1000)::bigint AS expires_ms, l.epoch,"
          + " (extract(epoch from clock_timestamp()) * 1000)::bigint AS now_ms";

  static final String INSERT_DOCUMENT =
      "INSERT INTO canvas_documents (id, room_id, title, content, revision_id) VALUES ($1, $2, $3, $4, $5)";

  static final String INSERT_DOCUMENT_LEASE =
      "INSERT INTO canvas_document_leases (doc_id) VALUES ($1)";

  static final String DOCUMENT_IDS_IN_ROOM =
      "SELECT id FROM canvas_documents WHERE room_id = $1 ORDER BY created_at, id LIMIT $2";

  static final String FIND_DOCUMENT =
      "SELECT "
          + DOCUMENT_COLUMNS
          + " FROM canvas_documents d JOIN canvas_document_leases l ON l.doc_id = d.id WHERE d.id = $1";

  /** The document and its lease, locked until the write's transaction ends. */
  static final String LOCK_DOCUMENT = FIND_DOCUMENT + " FOR UPDATE OF d, l";

  /** Writes the next version only from the version the transaction read (belt and braces beside the lock). */
  static final String UPDATE_DOCUMENT =
      "UPDATE canvas_documents SET content = $2, revision_id = $3, version = version + 1, undo_stack = $4::jsonb,"
          + " redo_stack = $5::jsonb, updated_at = to_timestamp($7::bigint / 1000.0) WHERE id = $1 AND version = $6";

  static final String INSERT_DOCUMENT_REVISION =
      "INSERT INTO canvas_document_revisions (doc_id, version, revision_id, content, author, subject)"
          + " VALUES ($1, $2, $3, $4, $5, $6)";

  static final String INSERT_DOCUMENT_DIFF =
      "INSERT INTO canvas_document_diffs (doc_id, version, operation, start_line, end_line, before_content,"
          + " after_content, reason, author, subject) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)";

  private static final String LEASE_VALUES =
      " lease_id = $2, holder_subject = $3, holder_session = $4,"
          + " held_since = CASE WHEN $5::bigint IS NULL THEN NULL ELSE to_timestamp($5::bigint / 1000.0) END,"
          + " expires_at = CASE WHEN $6::bigint IS NULL THEN NULL ELSE to_timestamp($6::bigint / 1000.0) END, epoch = $7";

  /** A check-out, or a person's preemption: whoever held the lease before. */
  static final String SET_DOCUMENT_LEASE =
      "UPDATE canvas_document_leases SET" + LEASE_VALUES + " WHERE doc_id = $1";

  /**
   * The holder's renewal, write or check-in: only while the lease is still the one it checked out, held
   * by it ($8 lease id, $9 subject, $10 agent session) at its epoch ($11: the canvas_epoch it sent, else
   * the epoch its lease was granted at; null only for a lease never granted to it, which $8 refuses). Belt and
   * braces beside the row lock, like UPDATE_DOCUMENT's version: no row updated, nothing written.
   */
  static final String UPDATE_HELD_DOCUMENT_LEASE =
      "UPDATE canvas_document_leases SET"
          + LEASE_VALUES
          + " WHERE doc_id = $1 AND lease_id = $8 AND holder_subject = $9 AND holder_session IS NOT DISTINCT FROM $10"
          + " AND ($11::bigint IS NULL OR epoch = $11)";

  /** A check-out's grant (V9): the lease, its holder and the epoch it was granted at. */
  static final String INSERT_DOCUMENT_LEASE_GRANT =
      "INSERT INTO canvas_document_lease_grants (doc_id, lease_id, holder_subject, holder_session, epoch)"
          + " VALUES ($1, $2, $3, $4, $5)";

  /** Drops a document's grants beyond the newest {@code $2} (DocumentRules.MAX_LEASE_GRANTS). */
  static final String TRIM_DOCUMENT_LEASE_GRANTS =
      "DELETE FROM canvas_document_lease_grants WHERE doc_id = $1 AND lease_id IN"
          + " (SELECT lease_id FROM canvas_document_lease_grants WHERE doc_id = $1"
          + " ORDER BY granted_at DESC, epoch DESC OFFSET $2)";

  /** The epoch a lease was granted at, when it was granted to this holder ($3 subject, $4 session). */
  static final String FIND_DOCUMENT_LEASE_GRANT =
      "SELECT epoch FROM canvas_document_lease_grants WHERE doc_id = $1 AND lease_id = $2"
          + " AND holder_subject = $3 AND holder_session IS NOT DISTINCT FROM $4";

  static final String FIND_DOCUMENT_LEASE =
      "SELECT lease_id, holder_subject, holder_session, (extract(epoch from held_since) * 1000)::bigint AS held_since_ms,"
          + " (extract(epoch from expires_at) * 1000)::bigint AS expires_ms, epoch,"
          + " (extract(epoch from clock_timestamp()) * 1000)::bigint AS now_ms FROM canvas_document_leases WHERE doc_id = $1";

  static final String DOCUMENT_REVISION_CONTENT =
      "SELECT content FROM canvas_document_revisions WHERE doc_id = $1 AND revision_id = $2 ORDER BY version DESC LIMIT 1";

  static final String LIST_DOCUMENT_REVISIONS =
      "SELECT version, revision_id, author, subject, (extract(epoch from created_at) * 1000)::bigint AS created_ms"
          + " FROM canvas_document_revisions WHERE doc_id = $1 ORDER BY version DESC LIMIT $2";

  static final String LIST_DOCUMENT_DIFFS =
      "SELECT version, operation, start_line, end_line, before_content, after_content, reason, author, subject,"
          + " (extract(epoch from created_at) * 1000)::bigint AS created_ms"
          + " FROM canvas_document_diffs WHERE doc_id = $1 ORDER BY version DESC LIMIT $2";

  private static final String SNAPSHOT_COLUMNS =
      "id, doc_id, revision_id, label, description, line_count, (extract(epoch from created_at) * 1000)::bigint AS created_ms";

  static final String LIST_DOCUMENT_SNAPSHOTS =
      "SELECT "
          + SNAPSHOT_COLUMNS
          + " FROM canvas_document_snapshots WHERE doc_id = $1 ORDER BY created_at DESC, id DESC";

  static final String FIND_DOCUMENT_SNAPSHOT =
      "SELECT "
          + SNAPSHOT_COLUMNS
          + " FROM canvas_document_snapshots WHERE doc_id = $1 AND id = $2";

  static final String INSERT_DOCUMENT_SNAPSHOT =
      "INSERT INTO canvas_document_snapshots (id, doc_id, revision_id, label, description, line_count)"
          + " VALUES ($1, $2, $3, $4, $5, $6) RETURNING "
          + SNAPSHOT_COLUMNS;

  static final String TAKE_RATE_ALLOWANCE =
      "INSERT INTO canvas_rate_limits AS r (limit_name, key, full_again_at)"
          + " VALUES ($1, $2, $3::bigint + $4::bigint)"
          + " ON CONFLICT (limit_name, key) DO UPDATE"
          + " SET full_again_at = GREATEST(r.full_again_at, $3::bigint) + $4::bigint"
          + " WHERE GREATEST(r.full_again_at, $3::bigint) + $4::bigint - $3::bigint <= $5::bigint"
          + " RETURNING full_again_at";
  static final String RATE_ALLOWANCE_FULL_AGAIN_AT =
      "SELECT full_again_at FROM canvas_rate_limits WHERE limit_name = $1 AND key = $2";
  static final String GIVE_BACK_RATE_ALLOWANCE =
      "UPDATE canvas_rate_limits SET full_again_at = full_again_at - $3::bigint"
          + " WHERE limit_name = $1 AND key = $2";
  // Re-checked under the row's lock (read committed), so a take that came in between keeps the key.
  static final String FORGET_WHOLE_RATE_ALLOWANCE =
      "DELETE FROM canvas_rate_limits"
          + " WHERE limit_name = $1 AND key = $2 AND full_again_at - $3::bigint <= $4::bigint";
  static final String FORGET_REFILLED_RATE_ALLOWANCES =
      "DELETE FROM canvas_rate_limits WHERE full_again_at <= $1::bigint";

  static final String BIND_DOC_AGENT_SESSION =
      "INSERT INTO canvas_doc_agent_sessions (session_id, doc_id) VALUES ($1, $2)"
          + " ON CONFLICT (session_id) DO NOTHING";
  static final String LOCK_DOC_AGENT_SESSION =
      "SELECT doc_id, turn_count FROM canvas_doc_agent_sessions WHERE session_id = $1 FOR UPDATE";
  static final String INSERT_DOC_AGENT_TURN =
      "INSERT INTO canvas_doc_agent_turns (session_id, seq, turn) VALUES ($1, $2, $3)";
  static final String ADVANCE_DOC_AGENT_SESSION =
      "UPDATE canvas_doc_agent_sessions SET turn_count = turn_count + $2,"
          + " last_seen_revision_id = COALESCE($3, last_seen_revision_id), updated_at = now()"
          + " WHERE session_id = $1";
  static final String FIND_DOC_AGENT_SESSION =
      "SELECT doc_id, last_seen_revision_id FROM canvas_doc_agent_sessions WHERE session_id = $1";
  static final String LIST_DOC_AGENT_TURNS =
      "SELECT turn FROM canvas_doc_agent_turns WHERE session_id = $1 ORDER BY seq";

  // Assets: content-addressed within a room; a second put of the same bytes changes nothing.
  static final String PUT_ASSET =
      "INSERT INTO canvas_assets (room_id, asset_id, content_type, size, bytes)"
          + " VALUES ($1, $2, $3, $4, $5) ON CONFLICT (room_id, asset_id) DO NOTHING";
  static final String FIND_ASSET_TYPE =
      "SELECT content_type, size FROM canvas_assets WHERE room_id = $1 AND asset_id = $2";
  static final String FIND_ASSET =
      "SELECT content_type, size, bytes FROM canvas_assets WHERE room_id = $1 AND asset_id = $2";
  static final String EXISTING_ASSETS =
      "SELECT asset_id FROM canvas_assets WHERE room_id = $1 AND asset_id = ANY($2)";
}
