import { useEffect, useState } from 'react'
import { DiffView } from './DiffView.jsx'
import { MarkdownPreview } from './MarkdownPreview.jsx'
import { revisionContent } from './revisionContent.js'

const when = (time) => (time === undefined || time === null ? '' : new Date(time).toLocaleTimeString())
const at = (time) => new Date(time ?? 0).getTime()

/**
 * The document's history in one list, newest first: its revisions (`GET /api/docs/{id}/revisions`,
 * with the operation and author of each) and its snapshots. Selecting a revision shows what it changed
 * (the diff from the one before) and its text; selecting a snapshot shows what changed since and its
 * text, and offers to restore it. A past text is rebuilt from the diff between it and now
 * (`revisionContent`): the server serves diffs, not old texts.
 */
export function VersionTimeline({ api, doc, locked, onRestore, onError }) {
  const [history, setHistory] = useState({ revisions: [], diffs: [] })
  const [selected, setSelected] = useState(null)
  const docId = doc.id
  const revisionId = doc.revisionId

  useEffect(() => {
    let current = true
    api.revisions(docId).then((answer) => current && setHistory(answer)).catch((failure) => onError(failure.message))
    return () => { current = false }
  }, [api, docId, revisionId, onError])

  const operation = new Map(history.diffs.map((diff) => [diff.version, diff.operation]))
  const entries = [
    ...history.revisions.map((revision, index) => ({
      kind: 'revision', key: `r${revision.version}`, time: at(revision.createdAt), revision,
      previous: history.revisions[index + 1],
      label: `v${revision.version} ${operation.get(revision.version) ?? 'revision'}`, who: revision.author,
    })),
    ...(doc.snapshots ?? []).map((snapshot) => ({
      kind: 'snapshot', key: `s${snapshot.snapshot_id}`, time: at(snapshot.created_at), snapshot,
      label: snapshot.label ?? 'snapshot', who: `${snapshot.line_count} lines`,
    })),
  ].sort((a, b) => b.time - a.time || (a.kind === 'snapshot' ? -1 : 1))

  const diffOf = (args) => api.documentTool(docId, 'canvas_get_diff', args).then((answer) => answer.diff ?? '')
  const textAt = async (oldRevisionId) => {
    const diff = await diffOf({ from_revision_id: oldRevisionId, to_revision_id: revisionId })
    return revisionContent(doc.content, diff)
  }

  const select = async (entry) => {
    setSelected({ entry, loading: true })
    try {
      if (entry.kind === 'revision') {
        const { revision, previous } = entry
        const [text, change] = await Promise.all([
          textAt(revision.revisionId),
          previous ? diffOf({ from_revision_id: previous.revisionId, to_revision_id: revision.revisionId }) : null,
        ])
        setSelected({ entry, text, change, changeTitle: previous ? `What v${revision.version} changed` : 'The first revision' })
      } else {
        const { snapshot } = entry
        const [text, change] = await Promise.all([textAt(snapshot.revision_id), diffOf({ snapshot_id: snapshot.snapshot_id })])
        setSelected({ entry, text, change, changeTitle: 'Changed since this snapshot' })
      }
    } catch (failure) {
      setSelected(null)
      onError(failure.message)
    }
  }

  return (
    <div className="timeline">
      <ol data-testid="timeline">
        {entries.map((entry) => (
          <li key={entry.key} data-testid="timeline-item" data-kind={entry.kind} data-key={entry.key}
            className={`${entry.kind} ${selected?.entry.key === entry.key ? 'selected' : ''}`}>
            <button onClick={() => select(entry)}>
              <span className="dot" />{entry.label} <span className="muted">{entry.who} · {when(entry.time)}</span>
            </button>
          </li>
        ))}
      </ol>
      {selected && (
        <div className="timeline-selected" data-testid="timeline-selected" data-key={selected.entry.key}
          data-loading={selected.loading ? 'true' : 'false'}>
          <div className="row">
            <strong>{selected.entry.label}</strong>
            {selected.entry.kind === 'snapshot' && (
              <button onClick={() => onRestore(selected.entry.snapshot.snapshot_id)} disabled={locked}
                data-testid="restore-snapshot">Restore</button>
            )}
            <button onClick={() => setSelected(null)} title="close">×</button>
          </div>
          {selected.loading ? <div className="muted">Loading…</div> : (
            <>
              {selected.change !== null && <DiffView diff={selected.change} title={selected.changeTitle} testId="timeline-diff" />}
              {selected.text === null
                ? <div className="error">This version could not be rebuilt from its diff.</div>
                : <MarkdownPreview text={selected.text} testId="timeline-content" />}
            </>
          )}
        </div>
      )}
    </div>
  )
}
