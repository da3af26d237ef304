-- Undoing the agent (issue 21): the run that made a revision, so that a run's changes can be found
-- exactly and reverted as one new revision. Null for a person's revision, an outside actor's, and every
-- revision stored before this migration (those runs cannot be reverted).

alter table canvas_board_revisions add column run_id text;

create index canvas_board_revisions_run_idx
  on canvas_board_revisions(room_id, run_id, rev) where run_id is not null;
