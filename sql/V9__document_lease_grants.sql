-- Every lease as it was checked out: for whom (subject, document-agent session) and at which epoch
-- (issue 17). canvas_epoch is optional on the document tools: a call that sends none is fenced by the
-- epoch its own lease was granted at, read here in the call's transaction, after the document and
-- lease rows are locked. A preemption clears canvas_document_leases.lease_id and increments its epoch,
-- so a preempted lease's grant is from an older epoch: its holder's later calls fail STALE_EPOCH
-- (not LOCK_NOT_OWNED), whether or not they send canvas_epoch, and even after someone else checks
-- the document out. A grant never changes once written; it goes with its document.
create table canvas_document_lease_grants (
  doc_id text not null references canvas_documents (id) on delete cascade,
  lease_id text not null,
  holder_subject text not null,
  holder_session text,
  epoch bigint not null,
  granted_at timestamptz not null default now(),
  primary key (doc_id, lease_id)
);
