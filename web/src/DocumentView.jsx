import { useCallback, useEffect, useRef, useState } from 'react'
import { changedLines } from './document/changedLines.js'
import { DiffView } from './document/DiffView.jsx'
import { HighlightedEditor } from './document/HighlightedEditor.jsx'
import { MarkdownPreview } from './document/MarkdownPreview.jsx'
import { VersionTimeline } from './document/VersionTimeline.jsx'

const STARTER = (title) => `# ${title}\n\nWrite here, or ask the document agent.\n`
/** How long the lines a new revision changed stay highlighted. */
const HIGHLIGHT_MS = 30_000
const NONE = new Set()

/**
 * A Markdown document of the room (`?doc=`), seed 001's canvas view: its source, which a person edits
 * and saves (a save preempts the agent: a person always wins), or its rendered preview; the lines the
 * latest revision changed, highlighted; undo and redo; the diff since the latest snapshot, inline or
 * side by side; a timeline of revisions and snapshots; "Add to Chat" on a selection, into the document
 * agent's instruction box; the lease lock indicator while anyone else holds the lease (`doc:lease`;
 * "Take control" preempts it), and the document agent's status.
 *
 * Snapshots, revert, undo and redo are write tools: the page checks the lease out for the one call and
 * in again. The server names every holder (the person's token subject, or `agent:<session>`) and shows
 * nobody a lease's id, so the page knows its own lease by what its check-out answered: the holder and
 * when it was taken.
 */
export function DocumentView({ client, api, roomId, initialDocId, onDocument }) {
  const [docId, setDocId] = useState(initialDocId)
  const [doc, setDoc] = useState(null)
  const [draft, setDraft] = useState('')
  const [dirty, setDirty] = useState(false)
  const [lease, setLease] = useState(null)
  const [ownLease, setOwnLease] = useState(null)
  const [diff, setDiff] = useState(null)
  const [view, setView] = useState('edit')
  const [panel, setPanel] = useState(null)
  const [changed, setChanged] = useState(NONE)
  const [agent, setAgent] = useState(null)
  const [instruction, setInstruction] = useState('')
  const [title, setTitle] = useState('Notes')
  const [error, setError] = useState(null)
  const dirtyRef = useRef(dirty)
  dirtyRef.current = dirty
  // The revision the view last showed, to mark what the next one changed.
  const shown = useRef(null)
  const instructionBox = useRef(null)

  const load = useCallback((id = docId) => {
    if (!id) return Promise.resolve()
    return api.document(id).then((answer) => {
      setDoc(answer)
      setLease(answer.lease)
      const before = shown.current
      if (before && before.docId === id && before.revisionId !== answer.revisionId && !dirtyRef.current) {
        setChanged(changedLines(before.content, answer.content))
      }
      if (!dirtyRef.current) {
        setDraft(answer.content)
        shown.current = { docId: id, revisionId: answer.revisionId, content: answer.content }
      }
    }).catch((failure) => setError(failure.message))
  }, [api, docId])

  useEffect(() => { load() }, [load])

  useEffect(() => {
    if (changed.size === 0) return undefined
    const timer = setTimeout(() => setChanged(NONE), HIGHLIGHT_MS)
    return () => clearTimeout(timer)
  }, [changed])

  const ownsLease = !!ownLease && lease?.holder === ownLease.holder && lease?.held_since === ownLease.held_since
  const heldByOther = !!lease?.held && !ownsLease

  useEffect(() => client.subscribe((topic, body) => {
    if (topic === 'doc:lease' && body.docId === docId) {
      setLease(body)
      if (!body.held) load()
    } else if (topic === 'doc:revision' && body.docId === docId) {
      load()
    } else if (topic === 'agent:status' && body.detail?.docId === docId) {
      setAgent((previous) => ({ ...previous, state: body.state, detail: body.detail }))
      if (['done', 'canceled', 'error'].includes(body.state)) load()
    } else if (topic === 'agent:chat' && body.docId === docId && body.message) {
      setAgent((previous) => ({ ...previous, text: body.message.text }))
    }
  }), [client, docId, load])

  // While someone else edits, show their progress.
  useEffect(() => {
    if (!heldByOther) return undefined
    const timer = setInterval(() => load(), 1000)
    return () => clearInterval(timer)
  }, [heldByOther, load])

  function open(id) {
    setDocId(id)
    onDocument(id)
    setDoc(null)
    setDirty(false)
    setDiff(null)
    setPanel(null)
    setChanged(NONE)
    shown.current = null
    setAgent(null)
  }

  async function act(what) {
    setError(null)
    try {
      await what()
    } catch (failure) {
      setError(failure.code === 'LOCK_NOT_AVAILABLE' ? 'The agent holds the document: take control first.' : failure.message)
    }
  }

  const create = () => act(async () => {
    const created = await api.createDocument(roomId, title, STARTER(title))
    open(created.id)
  })

  const edit = (text) => {
    setDraft(text)
    setDirty(true)
    setChanged(NONE)
  }

  const save = () => act(async () => {
    try {
      const saved = await api.editDocument(docId, draft, doc.revisionId)
      // The person's own edit is not news to them: nothing to highlight.
      shown.current = { docId, revisionId: saved.revisionId, content: draft }
      setDirty(false)
      dirtyRef.current = false
      await load()
    } catch (failure) {
      if (failure.code === 'REVISION_CONFLICT') throw new Error('The document changed meanwhile: reload it, then edit again.')
      throw failure
    }
  })

  const takeControl = () => act(async () => {
    await api.preemptLease(docId)
    await load()
  })

  const askAgent = (event) => {
    event.preventDefault()
    if (!instruction.trim()) return
    act(async () => {
      setAgent({ state: 'starting' })
      await api.documentAgent(docId, instruction.trim())
      setInstruction('')
    })
  }

  /** "Add to Chat": the selection's message goes into the instruction box, for the person's question. */
  const addToChat = (message) => {
    setInstruction((previous) => (previous.trim() ? `${previous.trimEnd()}\n\n${message}` : message))
    requestAnimationFrame(() => {
      const box = instructionBox.current
      if (!box) return
      box.focus()
      box.setSelectionRange(box.value.length, box.value.length)
    })
  }

  /** One write tool under a lease of this page's own, checked in again whatever happens. */
  const withLease = (tool, args = {}) => act(async () => {
    const checkout = await api.documentTool(docId, 'canvas_check_out', {})
    setOwnLease({ holder: checkout.holder, held_since: checkout.held_since })
    const held = { lease_id: checkout.lease_id, canvas_epoch: checkout.canvas_epoch }
    try {
      await api.documentTool(docId, tool, { ...args, ...held })
    } finally {
      await api.documentTool(docId, 'canvas_check_in', held).catch(() => {})
      setOwnLease(null)
      await load()
    }
  })

  const showDiff = () => act(async () => {
    const answer = await api.documentTool(docId, 'canvas_get_diff', {})
    setDiff(answer.diff ?? '')
    setPanel('diff')
  })

  const togglePanel = (name) => setPanel((current) => (current === name ? null : name))

  if (!docId) {
    return (
      <div className="document empty">
        <p>No document open. Create one in this room, or open one with <code>?doc=&lt;id&gt;</code>.</p>
        <div className="row">
          <input value={title} onChange={(e) => setTitle(e.target.value)} aria-label="title" />
          <button onClick={create} data-testid="create-document">Create document</button>
        </div>
        {error && <div className="error">{error}</div>}
      </div>
    )
  }

  return (
    <div className="document" data-testid="document">
      <div className="doc-head">
        <strong>{doc?.title ?? docId}</strong>
        <span className="muted">rev {doc?.revisionId?.slice(0, 8) ?? '…'} · v{doc?.version ?? '…'}</span>
        <button onClick={() => open(null)} title="close this document">×</button>
      </div>
      <div className={`lock ${heldByOther ? 'held' : 'free'}`} data-testid="lease" data-held={heldByOther ? 'true' : 'false'}
        title={heldByOther ? 'Assistant editing canvas…' : 'Nobody holds the lease'}>
        {heldByOther ? (
          <>
            <span><strong>Locked:</strong> Assistant editing canvas… <span className="muted">({lease.holder})</span></span>
            <button onClick={takeControl} data-testid="take-control">Take control</button>
          </>
        ) : (
          <span>Free to edit</span>
        )}
      </div>
      <div className="row toolbar" role="toolbar" aria-label="document">
        <button onClick={() => withLease('canvas_undo')} disabled={heldByOther || !doc?.undoDepth} data-testid="undo"
          title="Undo the last change">Undo</button>
        <button onClick={() => withLease('canvas_redo')} disabled={heldByOther || !doc?.redoDepth} data-testid="redo"
          title="Redo what was undone">Redo</button>
        <button onClick={showDiff} className={panel === 'diff' ? 'active' : ''} data-testid="show-diff"
          title="What changed since the latest snapshot">Diff</button>
        <button onClick={() => togglePanel('history')} className={panel === 'history' ? 'active' : ''}
          data-testid="show-history" title="Revisions and snapshots">History</button>
        <span className="toggle">
          <button className={view === 'edit' ? 'active' : ''} onClick={() => setView('edit')} data-testid="view-edit">Edit</button>
          <button className={view === 'preview' ? 'active' : ''} onClick={() => setView('preview')} data-testid="view-preview">Preview</button>
        </span>
      </div>
      {view === 'edit' ? (
        <HighlightedEditor value={draft} readOnly={heldByOther} changed={dirty ? NONE : changed} onChange={edit}
          onAddToChat={addToChat} />
      ) : (
        <MarkdownPreview text={draft} />
      )}
      <div className="row">
        <button onClick={save} disabled={!dirty || heldByOther} data-testid="save">Save</button>
        <button onClick={() => { setDirty(false); dirtyRef.current = false; load() }}>Reload</button>
        {changed.size > 0 && !dirty && <span className="muted" data-testid="changed-count">{changed.size} line(s) just changed</span>}
      </div>
      <form className="instruction" onSubmit={askAgent}>
        <textarea ref={instructionBox} value={instruction} onChange={(e) => setInstruction(e.target.value)}
          placeholder="Ask the document agent…" data-testid="doc-instruction"
          onKeyDown={(e) => { if (e.key === 'Enter' && (e.metaKey || e.ctrlKey)) askAgent(e) }} />
        <button type="submit" disabled={!instruction.trim()} data-testid="doc-ask">Ask</button>
      </form>
      {agent && (
        <div className="doc-agent" data-testid="doc-agent">
          document agent: {agent.state}{agent.detail?.diffStats ? ` · +${agent.detail.diffStats.added} −${agent.detail.diffStats.removed}` : ''}
          {agent.text && <div className="muted">{agent.text}</div>}
        </div>
      )}
      {panel === 'diff' && diff !== null && (
        <div className="doc-panel">
          {diff === '' ? <div className="muted" data-testid="diff">No changes since the latest snapshot.</div>
            : <DiffView diff={diff} title="Since the latest snapshot" />}
        </div>
      )}
      {panel === 'history' && doc && (
        <div className="doc-panel">
          <VersionTimeline api={api} doc={doc} locked={heldByOther} onError={setError}
            onRestore={(snapshotId) => withLease('canvas_revert_to_snapshot', { snapshot_id: snapshotId })} />
        </div>
      )}
      <div className="snapshots" data-testid="snapshots">
        <div className="row">
          <strong>Snapshots</strong>
          <button onClick={() => withLease('canvas_save_snapshot', { label: `snapshot ${new Date().toLocaleTimeString()}` })}
            disabled={heldByOther} data-testid="save-snapshot">Save snapshot</button>
        </div>
        <ul>
          {(doc?.snapshots ?? []).map((snapshot) => (
            <li key={snapshot.snapshot_id}>
              {snapshot.label ?? snapshot.snapshot_id} <span className="muted">{snapshot.line_count} lines</span>
              <button onClick={() => withLease('canvas_revert_to_snapshot', { snapshot_id: snapshot.snapshot_id })}
                disabled={heldByOther}>Revert</button>
            </li>
          ))}
        </ul>
      </div>
      {error && <div className="error" data-testid="doc-error">{error}</div>}
    </div>
  )
}
