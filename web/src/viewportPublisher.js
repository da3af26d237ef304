import { react } from 'tldraw'
import { isPreviewId } from './boardRecords.js'

export const VIEWPORT_DEBOUNCE_MS = 80
const COORDINATE_LIMIT = 1_000_000

/**
 * The page's eyes: its viewport and selection on `canvas:viewport`, 80 ms after they last
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
