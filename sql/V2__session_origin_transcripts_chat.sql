-- The context builder's state: each session's coordinate origin, each room's transcript, and each
-- session's chat history.

-- Null until the session's first run fixes it; set once, conditionally, so two nodes agree.
alter table canvas_agent_sessions
  add column origin_x double precision,
  add column origin_y double precision,
  add constraint canvas_agent_sessions_origin_both check ((origin_x is null) = (origin_y is null));

-- Seed 002's transcripts: who said what in a room, and when (epoch milliseconds, as the client sent it).
create table canvas_transcripts (
  id          bigserial primary key,
  room_id     text not null,
  speaker     text not null check (char_length(speaker) between 1 and 64),
  text        text not null check (char_length(text) between 1 and 4000),
  ts          bigint not null,
  created_at  timestamptz not null default now()
);

create index canvas_transcripts_room_ts_idx on canvas_transcripts(room_id, ts, id);

-- Seed 002's chat history: the person's messages and what the agent said, per session, in order.
create table canvas_agent_chat (
  id          bigserial primary key,
  session_id  text not null,
  role        text not null check (role in ('user', 'assistant')),
  text        text not null,
  created_at  timestamptz not null default now()
);

create index canvas_agent_chat_session_idx on canvas_agent_chat(session_id, id);
