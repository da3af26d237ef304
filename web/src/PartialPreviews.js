import { toRichText } from 'tldraw'
import { PREVIEW_PREFIX } from './boardRecords.js'

const GEO = new Set(['cloud', 'rectangle', 'ellipse', 'triangle', 'diamond', 'pentagon', 'hexagon', 'octagon', 'star',
  'rhombus', 'rhombus-2', 'oval', 'trapezoid', 'arrow-right', 'arrow-left', 'arrow-up', 'arrow-down', 'x-box',
  'check-box', 'heart'])
const GEO_WORDS = { box: 'rectangle', square: 'rectangle', rect: 'rectangle', circle: 'ellipse' }
const NOTE_WORDS = new Set(['note', 'sticky', 'sticky-note'])
const TEXT_WORDS = new Set(['text', 'headline', 'label', 'caption'])
const COLORS = new Set(['black', 'grey', 'light-violet', 'violet', 'blue', 'light-blue', 'yellow', 'orange', 'green',
  'light-green', 'light-red', 'red', 'white'])
const FILLS = new Set(['none', 'semi', 'solid', 'pattern', 'fill', 'lined-fill'])

/**
 * Board actions still being written (partial envelopes) drawn as previews: a `create_shape` whose
 * kind and position have arrived appears at once, locked and translucent, and grows with its params
 * (size, label, color) until its final envelope replaces it with the server's records. A preview is
 * this page's own: put with `mergeRemoteChanges`, so it is never sent as a person's edit, and kept out
 * of the board the page compares and reports.
 *
 * A partial's params are the model's own, in its session's frame (relative to the session's origin);
 * the origin comes from the session (`GET /api/sessions/{id}`), fetched once per session.
 */
export class PartialPreviews {
  constructor(editor, api, roomId) {
    this.editor = editor
    this.api = api
    this.roomId = roomId
    this.origins = new Map()
    this.shown = new Map()
    this.count = 0
  }

  show(sessionId, action) {
    if (action.name !== 'create_shape' || !action.params) return
    const origin = this.origin(sessionId)
    if (!origin) return
    const shape = this.shapeFor(action, origin)
    if (!shape) return
    this.editor.store.mergeRemoteChanges(() => {
      this.editor.run(() => {
        if (this.editor.getShape(shape.id)) {
          this.editor.updateShape(shape)
        } else {
          this.editor.createShape(shape)
        }
      }, { ignoreShapeLock: true, history: 'ignore' })
    })
    this.shown.set(action.id, shape.id)
    this.count += 1
  }

  /** The session's origin, or null while it is being fetched (the next partial draws). */
  origin(sessionId) {
    const known = this.origins.get(sessionId)
    if (known && known !== 'pending') return known
    if (!known) {
      this.origins.set(sessionId, 'pending')
      this.api
        .session(sessionId, this.roomId)
        .then((answer) => {
          if (answer.session?.origin) this.origins.set(sessionId, answer.session.origin)
          else this.origins.delete(sessionId)
        })
        .catch(() => this.origins.delete(sessionId))
    }
    return null
  }

  shapeFor(action, origin) {
    const params = action.params
    if (!Number.isFinite(params.x) || !Number.isFinite(params.y) || typeof params.type !== 'string') return null
    const kind = params.type.toLowerCase()
    const props = params.props ?? {}
    const id = PREVIEW_PREFIX + action.id.replace(/[^A-Za-z0-9_-]/g, '_')
    const base = { id, x: origin.x + params.x, y: origin.y + params.y, isLocked: true, opacity: 0.5, meta: { preview: true } }
    const color = COLORS.has(props.color) ? { color: props.color } : {}
    const text = typeof params.text === 'string' && params.text.length > 0 ? params.text : null
    const geo = GEO.has(kind) ? kind : GEO_WORDS[kind]
    if (geo) {
      return {
        ...base,
        type: 'geo',
        props: {
          geo,
          w: positive(props.w, 200),
          h: positive(props.h, 120),
          ...color,
          ...(FILLS.has(props.fill) ? { fill: props.fill } : {}),
          ...(text ? { richText: toRichText(text) } : {}),
        },
      }
    }
    if (NOTE_WORDS.has(kind)) {
      return { ...base, type: 'note', props: { ...color, ...(text ? { richText: toRichText(text) } : {}) } }
    }
    if (TEXT_WORDS.has(kind) && text) {
      return { ...base, type: 'text', props: { ...color, richText: toRichText(text) } }
    }
    return null
  }

  discard(actionId) {
    const id = this.shown.get(actionId)
    if (!id) return
    this.shown.delete(actionId)
    this.remove([id])
  }

  /** A run ended: its previews that never got a final envelope go. */
  discardRun(runId) {
    const ids = []
    for (const [actionId, id] of this.shown) {
      if (actionId.startsWith(`${runId}:`)) {
        ids.push(id)
        this.shown.delete(actionId)
      }
    }
    this.remove(ids)
  }

  discardAll() {
    const ids = [...this.shown.values()]
    this.shown.clear()
    this.remove(ids)
  }

  remove(ids) {
    const present = ids.filter((id) => this.editor.store.has(id))
    if (present.length) this.editor.store.mergeRemoteChanges(() => this.editor.store.remove(present))
  }
}

function positive(value, fallback) {
  return Number.isFinite(value) && value > 0 ? Math.min(value, 100000) : fallback
}
