import { react, Box } from 'tldraw'
import { BOARD_TYPES, isPreviewId } from './boardRecords.js'

export const VIEWPORT_DEBOUNCE_MS = 80
export const SCREENSHOT_MAX_SIDE = 800
const COORDINATE_LIMIT = 1_000_000

/**
 * The page's eyes, part one: its viewport and selection on `canvas:viewport`, 80 ms after they last
 * changed, and again on every (re)connect. The server keeps each client's latest one; the host's is
 * what a run sees when its request names none.
 */
export function publishViewport(editor, connection) {
  let timer = null
  const current = () => {
    const bounds = editor.getViewportPageBounds()
    const selection = editor.getSelectedShapeIds().filter((id) => !isPreviewId(id))
    return { bounds: { x: bounds.x, y: bounds.y, w: bounds.w, h: bounds.h }, selection }
  }
  const send = () => {
    timer = null
    const viewport = current()
    const { x, y, w, h } = viewport.bounds
    const valid = [x, y, w, h].every((n) => Number.isFinite(n) && Math.abs(n) <= COORDINATE_LIMIT) && w > 0 && h > 0
    if (valid) connection.post('canvas:viewport', { type: 'canvas:viewport', ...viewport })
  }
  const schedule = () => {
    if (timer !== null) clearTimeout(timer)
    timer = setTimeout(send, VIEWPORT_DEBOUNCE_MS)
  }
  const stop = react('canvas-agent viewport', () => {
    editor.getViewportPageBounds()
    editor.getSelectedShapeIds()
    schedule()
  })
  return { schedule, stop: () => { stop(); if (timer !== null) clearTimeout(timer) } }
}

/**
 * The page's eyes, part two: a screenshot request (sent to the host only) answered from
 * `editor.toImage` — the requested bounds or the viewport, scaled so the longest side is at most the
 * request's `maxSize` (800 px by default) — with the viewport, selection and board revision it shows.
 */
export async function answerScreenshot(editor, connection, request, revision) {
  const viewportBox = editor.getViewportPageBounds()
  const viewport = { x: viewportBox.x, y: viewportBox.y, w: viewportBox.w, h: viewportBox.h }
  const b = request.bounds && request.bounds.w > 0 && request.bounds.h > 0 ? request.bounds : viewport
  const bounds = { x: b.x, y: b.y, w: b.w, h: b.h }
  const maxW = request.maxSize?.w > 0 ? request.maxSize.w : SCREENSHOT_MAX_SIDE
  const maxH = request.maxSize?.h > 0 ? request.maxSize.h : SCREENSHOT_MAX_SIDE
  const scale = Math.min(1, maxW / bounds.w, maxH / bounds.h)
  const shapes = [...editor.getCurrentPageShapeIds()].filter((id) => !isPreviewId(id))
  let blob = null
  if (shapes.length > 0) {
    try {
      const image = await editor.toImage(shapes, {
        format: 'png',
        bounds: new Box(bounds.x, bounds.y, bounds.w, bounds.h),
        scale,
        pixelRatio: 1,
        background: true,
        padding: 0,
      })
      blob = image.blob
    } catch (error) {
      console.warn('[canvas-agent] toImage failed; answering with a blank image', error)
    }
  }
  if (!blob) blob = await blankImage(Math.max(1, Math.round(bounds.w * scale)), Math.max(1, Math.round(bounds.h * scale)))
  const dataUrl = await blobToDataUrl(blob)
  const reply = {
    type: 'agent:screenshot',
    sessionId: request.sessionId,
    requestId: request.requestId,
    image: { mime: 'image/png', dataUrl, bytes: blob.size },
    bounds,
    viewport,
    selection: editor.getSelectedShapeIds().filter((id) => !isPreviewId(id)),
    docVersion: String(revision ?? 0),
  }
  await connection.send('agent:screenshot', reply)
  return reply
}

function blankImage(width, height) {
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  const context = canvas.getContext('2d')
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, width, height)
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'))
}

function blobToDataUrl(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result)
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(blob)
  })
}

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
 * dropped and the board reloaded, so the page shows what the server holds.
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
      .then(() => {
        if (!this.inFlight) return
        this.inFlight.state = 'committed'
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
