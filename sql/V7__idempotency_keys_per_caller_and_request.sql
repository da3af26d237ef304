-- Idempotency keys belong to their caller and are bound to their request (docs/security.md, L2 and L3).
--
-- The ids a key names are HMAC-SHA256, under this deployment's secret (below), of the kind of request,
-- the caller's subject, the room and the key: unique on their own. A run's is its primary key, a
-- session's too, an utterance's is idempotency_id. The client's key stays in idempotency_key as a
-- record, unique no longer: two callers may send the same key in one room.
--
-- request_fingerprint is the SHA-256 (hex) of the request a key was first sent with, kept with what it
-- created, so the same key with another request is refused (422 IDEMPOTENCY_KEY_REUSED) on any node,
-- before and after a restart. Rows made before this migration have none, and keys sent before it are
-- not recognised after it (their ids were derived another way): a retry across the upgrade is new.

alter table canvas_agent_runs drop constraint canvas_agent_runs_room_id_idempotency_key_key;
alter table canvas_agent_runs add column request_fingerprint text check (char_length(request_fingerprint) = 64);

alter table canvas_agent_sessions add column request_fingerprint text check (char_length(request_fingerprint) = 64);

drop index canvas_transcripts_idempotency_idx;
alter table canvas_transcripts
  add column idempotency_id text check (char_length(idempotency_id) between 1 and 64),
  add column request_fingerprint text check (char_length(request_fingerprint) = 64);
create unique index canvas_transcripts_idempotency_idx
  on canvas_transcripts(room_id, idempotency_id) where idempotency_id is not null;

-- Secrets the nodes sharing this database share, one row per purpose. The first node to start makes
-- each (INSERT … ON CONFLICT DO NOTHING) and every node reads the one that won, so they agree and a
-- restart keeps it. 'idempotency-keys' derives the ids above.
create table canvas_server_secrets (
  purpose    text primary key,
  secret     bytea not null check (octet_length(secret) >= 32),
  created_at timestamptz not null default now()
);
