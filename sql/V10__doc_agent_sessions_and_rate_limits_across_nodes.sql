-- Issue 19: what a cluster's nodes must share beyond boards and documents.

-- The document agent's sessions: the document each is bound to at first use, the revision the agent
-- last saw (from which the person's next changes are diffed), and every turn of its conversation
-- (instructions, hidden canvas-update messages, the model's answers, tool calls and results), so a
-- session started on one node continues on another. A turn is its JSON as text (not jsonb, which
-- cannot hold the escaped NUL a model may write). Appends lock the session row: turns are numbered
-- 0, 1, 2… without gaps, in the order their appends committed.
create table canvas_doc_agent_sessions (
  session_id text primary key,
  doc_id text not null references canvas_documents (id) on delete cascade,
  last_seen_revision_id text,
  turn_count integer not null default 0,
  updated_at timestamptz not null default now()
);

create table canvas_doc_agent_turns (
  session_id text not null references canvas_doc_agent_sessions (session_id) on delete cascade,
  seq integer not null,
  turn text not null,
  primary key (session_id, seq)
);

-- The cost-bearing rate limits (runs a minute per client and per room), counted by every node
-- against one allowance: one row per (limit, key) holding the time its token bucket is full again,
-- in nanoseconds since the epoch (GCRA). A take is one conditional upsert of its row; rows whose time
-- has passed are as good as absent and are deleted by a periodic sweep, found through the index.
create table canvas_rate_limits (
  limit_name text not null,
  key text not null,
  full_again_at bigint not null,
  primary key (limit_name, key)
);

create index canvas_rate_limits_full_again_at on canvas_rate_limits (full_again_at);
