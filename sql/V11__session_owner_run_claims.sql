-- One owner per session across nodes (issue 19). A queued run can now run on another node than the one
-- that accepted it, so the store keeps what that node needs and what decides which node runs it:
--
-- request: the run request as the scheduler queued it (message, model, viewport, selection, follow-up
--   marks), kept only while the run is queued and erased when it starts or ends; the message's one
--   lasting copy stays the session's chat history. A queued run with a request is never swept as
--   interrupted: when its node stops renewing its heartbeat, the node that owns its session takes it
--   over and runs it. A queued run without one (accepted before this migration) is swept as before.
-- node_id: the node that holds the run (took it over, or started it): where a cancel is sent.
-- accepted_seq: the order in which runs were accepted; a session's queue is taken over in the order of
--   its requests, each request's follow-ups after it, by number.
--
-- At most one run of a session is running: the index makes the claim (queued → running) fail for a
-- second node that briefly believes it owns the session too, so nothing of a session runs twice at once.

alter table canvas_agent_runs
  add column request      jsonb check (request is null or jsonb_typeof(request) = 'object'),
  add column node_id      text,
  add column accepted_seq bigserial;

-- Before the index: should a session have two running runs left (two nodes of an older version), all
-- but its newest end as their sweep would have ended them.
update canvas_agent_runs r
  set state = 'error',
      detail = jsonb_build_object('runId', r.id, 'code', 'INTERRUPTED', 'retryable', true,
                                  'reason', 'another run of its session was running'),
      updated_at = now()
  where r.state = 'running'
    and exists (select 1 from canvas_agent_runs o
                where o.session_id = r.session_id and o.state = 'running'
                  and (o.created_at, o.id) > (r.created_at, r.id));

create unique index canvas_agent_runs_one_running_per_session
  on canvas_agent_runs(session_id) where state = 'running';
