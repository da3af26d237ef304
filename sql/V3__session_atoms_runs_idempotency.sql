-- Sessions as seed 002's atoms: a title, the context items a person pinned for the agent, and when the
-- session was last active; the runs of each session with their states; idempotency keys for retried writes.

alter table canvas_agent_sessions
  add column title          text not null default '' check (char_length(title) <= 200),
  add column context_items  jsonb not null default '[]'::jsonb check (jsonb_typeof(context_items) = 'array'),
  add column last_active_at timestamptz not null default now();

update canvas_agent_sessions
  set last_active_at = created_at,
      title = 'Session ' || to_char(created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI');

create index canvas_agent_sessions_room_active_idx on canvas_agent_sessions(room_id, last_active_at desc, id);

-- Every run a client was told about (its 202) and every run that started. The message itself is not
-- here: it is user content, kept once, in the session's chat history when the run reads its context;
-- a run keeps only its length. A node that runs or queues a run renews heartbeat_at every few seconds;
-- a queued or running run whose heartbeat stopped belongs to a node that died, and any node's sweeper
-- marks it error (INTERRUPTED), conditionally, so two nodes agree and a live node's runs stay.
create table canvas_agent_runs (
  id               text primary key,
  session_id       text not null references canvas_agent_sessions(id) on delete cascade,
  room_id          text not null,
  idempotency_key  text check (char_length(idempotency_key) between 1 and 128),
  message_chars    int not null check (message_chars >= 0),
  state            text not null check (state in ('queued', 'running', 'scheduled', 'done', 'error', 'canceled')),
  detail           jsonb not null default '{}'::jsonb,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now(),
  heartbeat_at     timestamptz not null default now(),
  unique (room_id, idempotency_key)
);

create index canvas_agent_runs_session_idx on canvas_agent_runs(session_id, created_at desc);
create index canvas_agent_runs_live_idx on canvas_agent_runs(heartbeat_at) where state in ('queued', 'running');

-- A retried utterance with the same key in the same room is stored once.
alter table canvas_transcripts add column idempotency_key text check (char_length(idempotency_key) between 1 and 128);
create unique index canvas_transcripts_idempotency_idx
  on canvas_transcripts(room_id, idempotency_key) where idempotency_key is not null;
