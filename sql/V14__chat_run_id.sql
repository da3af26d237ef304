-- Issue 21: each chat message names the run that wrote it (null for messages recorded before this
-- column), so a page that reloads still puts a run's Undo on the agent's message of that run.
alter table canvas_agent_chat add column run_id text;
