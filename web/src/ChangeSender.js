import { BOARD_TYPES, isPreviewId } from './boardRecords.js'

export const CHANGE_FLUSH_MS = 100
const MAX_RECORDS_PER_CHANGE = 1000
/** How long a refused change waits for the board to move before the board is loaded again. */
const CONFLICT_RELOAD_MS = 1000

/**
 * A person's edits, sent as record diffs on `canvas:change` against the board revision they were
 * made on. Changes the person makes are gathered for 100 ms and sent one change at a time: the next
 * waits until the board has moved past the one in flight (the server's `canvas:change` of it). A
 * change refused for a stale `baseRevision` is sent again once the page has caught up; one the
 * server refuses as invalid (`INVALID_RECORD`: a kind of shape the board does not keep, say) is
 * dropped and the board reloaded, so the page shows what the server holds. A change that would change
 * nothing (the reply's `changed: false`) makes no revision and no `canvas:change`: the next one goes
 * at once.
 */
export class ChangeSender {
  constructor({ editor, connection, executor, onRefused = () => {} }) {
    this.editor = editor
    this.connection = connection
    this.executor = executor
    this.onRefused = onRefused
    this.pending = new Map()
    this.inFlight = null
    this.timer = null
    this.stats = { sent: 0, conflicts: 0, refused: 0 }
    this.stop = editor.store.listen((entry) => this.collect(entry.changes), { source: 'user', scope: 'document' })
  }

  isPending(id) {
    return this.pending.has(id) || (this.inFlight?.ids.has(id) ?? false)
  }

  collect(changes) {
    const take = (record, value) => {
      if (BOARD_TYPES.has(record.typeName) && !isPreviewId(record.id)) this.pending.set(record.id, value)
    }
    Object.values(changes.added).forEach((record) => take(record, record))
    Object.values(changes.updated).forEach(([, record]) => take(record, record))
    Object.values(changes.removed).forEach((record) => take(record, null))
    if (this.pending.size > 0) this.schedule(CHANGE_FLUSH_MS)
  }

  schedule(delay) {
    if (this.timer === null) this.timer = setTimeout(() => { this.timer = null; this.flush() }, delay)
  }

  /** The board moved (an event was applied): a change waiting for it may go. */
  boardMoved() {
    if (this.inFlight?.state === 'committed' && this.executor.revision > this.inFlight.baseRevision) this.inFlight = null
    if (this.inFlight?.state === 'conflict' && this.executor.revision > this.inFlight.baseRevision) this.retry()
    if (!this.inFlight && this.pending.size > 0) this.schedule(0)
  }

  flush() {
    if (this.inFlight || this.pending.size === 0) return
    if (this.executor.revision === null || this.executor.loading || !this.connection.isOpen()) {
      this.schedule(250)
      return
    }
    const entries = [...this.pending.entries()].slice(0, MAX_RECORDS_PER_CHANGE)
    entries.forEach(([id]) => this.pending.delete(id))
    const put = entries.filter(([, record]) => record !== null).map(([, record]) => record)
    const remove = entries.filter(([, record]) => record === null).map(([id]) => id)
    this.sendChange({ put, remove, ids: new Set(entries.map(([id]) => id)) })
  }

  sendChange(change) {
    const baseRevision = this.executor.revision
    this.inFlight = { ...change, baseRevision, state: 'sending' }
    this.stats.sent += 1
    this.connection
      .send('canvas:change', { baseRevision, put: change.put, remove: change.remove })
      .then((reply) => {
        if (!this.inFlight) return
        if (reply?.changed === false) {
          // The board already held exactly this: nothing was committed, so no canvas:change of it
          // will come, and the next change need not wait for one.
          this.inFlight = null
        } else {
          this.inFlight.state = 'committed'
        }
        this.boardMoved()
      })
      .catch((error) => this.refused(error))
  }

  refused(error) {
    const message = String(error?.message ?? error)
    const change = this.inFlight
    if (message.startsWith('REVISION_CONFLICT')) {
      this.stats.conflicts += 1
      change.state = 'conflict'
      // The page will hear of the newer revision; if it does not, it asks for the board.
      change.reload = setTimeout(() => {
        if (this.inFlight === change && change.state === 'conflict') this.executor.load().then(() => this.boardMoved())
      }, CONFLICT_RELOAD_MS)
      this.boardMoved()
      return
    }
    this.inFlight = null
    if (message.startsWith('NOT_CONNECTED') || message.startsWith('RATE_LIMITED')) {
      // Not sent: the records go back (unless changed again since) and wait for the connection.
      this.requeue(change)
      this.schedule(500)
      return
    }
    this.stats.refused += 1
    this.onRefused(message)
    this.executor.load()
  }

  retry() {
    const change = this.inFlight
    clearTimeout(change.reload)
    this.inFlight = null
    this.requeue(change)
    this.flush()
  }

  requeue(change) {
    const newer = this.pending
    this.pending = new Map()
    change.put.forEach((record) => this.pending.set(record.id, record))
    change.remove.forEach((id) => this.pending.set(id, null))
    newer.forEach((value, id) => this.pending.set(id, value))
  }
}
