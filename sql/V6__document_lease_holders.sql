-- A document lease belongs to whoever checked it out: the token's subject, and the document-agent
-- session acting for it (null when the subject holds it itself). Writes under the lease are conditional
-- on both, so the lease id alone, should another editor learn it, writes nothing. Both are named by
-- the server; the free-text holder a client used to send is gone.
alter table canvas_document_leases
  add column holder_subject text,
  add column holder_session text,
  add column held_since timestamptz;

-- A lease taken before now names no subject, so nobody could prove it theirs: free it (it would have
-- expired within seconds anyway). Its old holder's next write fails LOCK_NOT_OWNED.
update canvas_document_leases set lease_id = null, expires_at = null where lease_id is not null;

alter table canvas_document_leases
  drop column holder,
  add constraint canvas_document_leases_bound check (lease_id is null or holder_subject is not null);

-- Revisions and diffs record the subject they were written for beside the author's name (the subject
-- itself, or agent:<session> for the document agent). Null for those written before.
alter table canvas_document_revisions add column subject text;
alter table canvas_document_diffs add column subject text;
