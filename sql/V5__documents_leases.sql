-- Markdown documents edited by people and by the document agent. A revision id is the content's hash;
-- version counts every committed write, so a write can be conditional on exactly what it read.
create table canvas_documents (
  id text primary key,
  room_id text not null,
  title text not null,
  content text not null,
  revision_id text not null,
  version bigint not null default 1,
  -- revision ids, the most recent last
  undo_stack jsonb not null default '[]'::jsonb,
  redo_stack jsonb not null default '[]'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index canvas_documents_room on canvas_documents (room_id);

create table canvas_document_revisions (
  doc_id text not null references canvas_documents (id) on delete cascade,
  version bigint not null,
  revision_id text not null,
  content text not null,
  author text not null,
  created_at timestamptz not null default now(),
  primary key (doc_id, version)
);
create index canvas_document_revisions_id on canvas_document_revisions (doc_id, revision_id);

create table canvas_document_snapshots (
  id text primary key,
  doc_id text not null references canvas_documents (id) on delete cascade,
  revision_id text not null,
  label text,
  description text,
  line_count integer not null,
  created_at timestamptz not null default now()
);
create index canvas_document_snapshots_doc on canvas_document_snapshots (doc_id, created_at);

create table canvas_document_diffs (
  doc_id text not null references canvas_documents (id) on delete cascade,
  version bigint not null,
  operation text not null check (operation in
    ('create', 'edit', 'patch', 'replace', 'insert', 'delete', 'search_replace', 'revert', 'undo', 'redo')),
  start_line integer,
  end_line integer,
  before_content text,
  after_content text,
  reason text,
  author text not null,
  created_at timestamptz not null default now(),
  primary key (doc_id, version)
);

-- One lease per document; lease_id is null while nobody holds it. epoch is the fencing token every
-- agent write carries: it increments whenever a person preempts the lease.
create table canvas_document_leases (
  doc_id text primary key references canvas_documents (id) on delete cascade,
  lease_id text,
  holder text,
  expires_at timestamptz,
  epoch bigint not null default 0
);
