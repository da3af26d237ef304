-- The spine's schema: rooms and every board revision, agent sessions, and the agent's todos.

create table canvas_rooms (
  id          text primary key,
  board_rev   bigint not null default 0 check (board_rev >= 0),
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now()
);

-- Every revision of every board, as the record diff that made it. Revision n of a room is unique, so
-- two writers racing from the same base revision cannot both commit.
create table canvas_board_revisions (
  room_id     text not null references canvas_rooms(id) on delete cascade,
  rev         bigint not null check (rev > 0),
  diff        jsonb not null,
  author      text not null,
  created_at  timestamptz not null default now(),
  primary key (room_id, rev)
);

-- The current records of each board, kept in step with canvas_rooms.board_rev in the same transaction.
create table canvas_board_records (
  room_id     text not null references canvas_rooms(id) on delete cascade,
  record_id   text not null,
  record      jsonb not null,
  primary key (room_id, record_id)
);

create table canvas_agent_sessions (
  id          text primary key,
  room_id     text not null references canvas_rooms(id) on delete cascade,
  model       text not null,
  last_seq    bigint not null default 0 check (last_seq >= 0),
  created_at  timestamptz not null default now()
);

create index canvas_agent_sessions_room_idx on canvas_agent_sessions(room_id, created_at);

-- Exactly as seed 000 defines it ("Database Schema").
create table canvas_agent_todos (
  id uuid primary key default gen_random_uuid(),
  session_id text not null,
  text text not null,
  status text not null default 'open' check (status in ('open', 'done', 'skipped')),
  position int not null default 0,
  created_at timestamptz not null default now(),
  resolved_at timestamptz
);

create index canvas_agent_todos_session_idx
  on canvas_agent_todos(session_id, status, position);
