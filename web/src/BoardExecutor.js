import { isBoardRecord, isPreviewId } from './boardRecords.js'
import { PartialPreviews } from './PartialPreviews.js'

/** The states that end a run: its partial previews without a final envelope are discarded then. */
const FINAL_STATES = new Set(['done', 'scheduled', 'error', 'canceled'])
/**
 * The states of a board run whose session's origin is fixed (its context is gathered): the previews ask
 * for it then, so it is known when the run's first partial comes, and its first shape previews too.
 */
const MODEL_STATES = new Set(['calling_model', 'streaming'])
/** How many applied action ids a session remembers for idempotency. */
const REMEMBERED_ACTIONS = 5000

/**
 * The page's hands: applies the room's board events to the editor exactly as the server made them.
 *
 * - Envelopes (`agent:action`) are applied per session in seq order: a seq at or below the last one
 *   applied is ignored, and an action id already applied in its session is never applied again.
 *   A final envelope's `diff` is put into the store as it is (the server's records), replacing the
 *   preview of its partial envelopes; `set_viewport` moves this page's camera when it hosts.
 * - Every board change carries the revision it made (`rev`, `canvas:change.revision`). One already
 *   held is skipped; a jump past the next one means something was missed (a commit that could not be
 *   published, an event lost while connecting), and the board is loaded again.
 * - `canvas:resync` replaces the board with the records it carries.
 * - The host acks each final envelope after applying it (or finding it applied already).
 *
 * Until the board is first loaded, events wait in order. Records the person changed and has not yet
 * sent are left as the person has them (`pendingLocal`); their change, once committed, wins anyway.
 */
export class BoardExecutor {
  constructor({ editor, api, roomId, connection, pendingLocal = () => false, onChange = () => {}, onLoadFailed = () => {} }) {
    this.editor = editor
    this.api = api
    this.roomId = roomId
    this.connection = connection
    this.pendingLocal = pendingLocal
    this.onChange = onChange
    this.onLoadFailed = onLoadFailed
    this.revision = null
    this.loading = null
    this.waiting = []
    this.sessions = new Map()
    this.previews = new PartialPreviews(editor, api, roomId)
    this.stats = { envelopes: 0, applied: 0, ignored: 0, acks: 0, reloads: 0, resyncs: 0 }
  }

  /** Loads the board from the server; events that arrive meanwhile are applied after it, in order. */
  load() {
    if (this.loading) return this.loading
    this.stats.reloads += 1
    this.loading = this.api
      .board(this.roomId)
      .then((board) => this.replaceBoard(board.records, board.revision))
      .catch((error) => {
        console.warn('[canvas-agent] could not load the board', error)
        this.onLoadFailed(error)
        // Try again shortly: the events keep waiting.
        // A refused token will not get better soon; anything else may.
        const delay = error.status === 401 || error.status === 403 ? 5000 : 1000
        return new Promise((resolve) => setTimeout(resolve, delay)).then(() => {
          this.loading = null
          return this.load()
        })
      })
      .finally(() => {
        this.loading = null
        const waiting = this.waiting
        this.waiting = []
        waiting.forEach(([topic, body]) => this.handle(topic, body))
      })
    return this.loading
  }

  handle(topic, body) {
    if (this.loading) {
      this.waiting.push([topic, body])
      return
    }
    switch (topic) {
      case 'agent:action':
        this.envelope(body)
        break
      case 'canvas:change':
        this.boardChange(body.revision, body.diff)
        break
      case 'canvas:resync':
        this.stats.resyncs += 1
        this.replaceBoard(body.records ?? [], body.revision)
        break
      case 'agent:status':
        if (FINAL_STATES.has(body.state) && body.detail?.runId) this.previews.discardRun(body.detail.runId)
        // A document agent's run (detail.docId) has no board session, so no origin to ask for.
        else if (MODEL_STATES.has(body.state) && typeof body.sessionId === 'string' && !body.detail?.docId) this.previews.origin(body.sessionId)
        break
      default:
    }
  }

  session(sessionId) {
    let session = this.sessions.get(sessionId)
    if (!session) {
      session = { lastSeq: 0, applied: new Set() }
      this.sessions.set(sessionId, session)
    }
    return session
  }

  envelope(envelope) {
    if (envelope?.v !== 'tldraw-actions/1' || !Array.isArray(envelope.actions)) return
    this.stats.envelopes += 1
    const session = this.session(envelope.sessionId)
    if (envelope.seq <= session.lastSeq) {
      // A re-sent envelope (its ack was lost) or a replayed one: applied already, acked again.
      this.stats.ignored += 1
      if (!envelope.partial) this.ack(envelope)
      return
    }
    session.lastSeq = envelope.seq
    if (envelope.partial) {
      envelope.actions.filter((action) => !session.applied.has(action.id))
        .forEach((action) => this.previews.show(envelope.sessionId, action))
      return
    }
    const fresh = envelope.actions.filter((action) => !session.applied.has(action.id))
    envelope.actions.forEach((action) => {
      session.applied.add(action.id)
      this.previews.discard(action.id)
    })
    if (session.applied.size > REMEMBERED_ACTIONS) {
      session.applied = new Set([...session.applied].slice(-REMEMBERED_ACTIONS / 2))
    }
    if (fresh.length > 0) {
      if (envelope.diff && envelope.rev !== undefined) this.boardChange(envelope.rev, envelope.diff)
      fresh.forEach((action) => this.clientAction(action))
      this.stats.applied += fresh.length
    }
    this.ack(envelope)
  }

  /** Actions that change no records but this page: the host's camera. */
  clientAction(action) {
    if (action.name === 'set_viewport' && this.connection.isHost()) {
      const { x, y, w, h } = action.params ?? {}
      if ([x, y, w, h].every(Number.isFinite) && w > 0 && h > 0) {
        this.editor.zoomToBounds({ x, y, w, h }, { animation: { duration: 200 } })
      }
    }
  }

  ack(envelope) {
    if (!this.connection.isHost()) return
    const sent = this.connection.post('agent:ack', {
      type: 'agent:ack',
      sessionId: envelope.sessionId,
      seq: envelope.seq,
      clientId: this.connection.clientId,
    })
    if (sent) this.stats.acks += 1
  }

  /** One committed board revision: applied when it is the next one, skipped when held, a reload when past it. */
  boardChange(revision, diff) {
    if (!Number.isInteger(revision) || !diff) return
    if (this.revision !== null && revision <= this.revision) return
    if (this.revision !== null && revision > this.revision + 1) {
      this.load()
      return
    }
    const put = (diff.put ?? []).filter((record) => !this.pendingLocal(record.id))
    const remove = (diff.remove ?? []).filter((id) => !this.pendingLocal(id))
    this.editor.store.mergeRemoteChanges(() => {
      const present = remove.filter((id) => this.editor.store.has(id))
      if (present.length) this.editor.store.remove(present)
      if (put.length) this.editor.store.put(put)
    })
    this.setRevision(revision)
  }

  /** The whole board at `revision`: records not in it go, the others are put as they are. */
  replaceBoard(records, revision) {
    this.previews.discardAll()
    const keep = new Set(records.map((record) => record.id))
    const stale = this.editor.store
      .allRecords()
      .filter((record) => isBoardRecord(record) && !keep.has(record.id) && !this.pendingLocal(record.id))
      .map((record) => record.id)
    const put = records.filter((record) => !this.pendingLocal(record.id))
    this.editor.store.mergeRemoteChanges(() => {
      if (stale.length) this.editor.store.remove(stale)
      if (put.length) this.editor.store.put(put)
    })
    this.setRevision(revision ?? 0)
  }

  setRevision(revision) {
    this.revision = revision
    this.onChange(revision)
  }

  isPreview(id) {
    return isPreviewId(id)
  }
}
