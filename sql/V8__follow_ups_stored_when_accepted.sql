-- A follow-up is recorded when it is granted (issue 16), not when it starts: the run that asked for it
-- ends `scheduled` naming it, so it must outlive the node that queued it. A node that dies with
-- follow-ups waiting in its memory leaves them `queued` with a heartbeat that stops; any node's
-- sweeper then ends them `error` (INTERRUPTED), like every other run of a dead node.
--
-- follow_up is what marks a run as a follow-up — {requestRunId, askedByRunId, number, reason} — kept
-- apart from detail (which the run's final status replaces), so that however the run ends, its record
-- and the status published for it still name the request it belonged to. Null for a person's run.
-- Its message is not stored, as for every run: it is the server's or the model's text for that one
-- run, and a follow-up cut off by its node is ended, never run elsewhere (docs/faults.md).

alter table canvas_agent_runs
  add column follow_up jsonb check (follow_up is null or jsonb_typeof(follow_up) = 'object');
