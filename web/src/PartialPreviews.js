import {
  DefaultColorStyle,
  DefaultDashStyle,
  DefaultFillStyle,
  DefaultFontStyle,
  DefaultSizeStyle,
  GeoShapeGeoStyle,
  b64Vecs,
  getIndices,
  toRichText,
} from 'tldraw'
import { PREVIEW_PREFIX } from './boardRecords.js'

/** How many preview events the page remembers (`timeline`), newest last. */
const TIMELINE_LENGTH = 500

// tldraw's own values: a preview never holds one tldraw would refuse, and never one it lacks.
const TYPES = new Set(['geo', 'note', 'text', 'frame', 'line', 'draw', 'arrow'])
const GEO = new Set(GeoShapeGeoStyle.values)
const STYLES = {
  color: new Set(DefaultColorStyle.values),
  fill: new Set(DefaultFillStyle.values),
  dash: new Set(DefaultDashStyle.values),
  size: new Set(DefaultSizeStyle.values),
  font: new Set(DefaultFontStyle.values),
}

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
    // What the previews did, for a console and the tests to read (the page never reads it back):
    // `preview` when an action's preview first appears (its word, tldraw type and geo), `replaced`
    // when its final envelope takes its place, `discarded` when its run ended without one.
    this.timeline = []
    // The server's words for kinds and colors (post-it, heading, charcoal …), read once: a preview
    // reads an action as the server will. Until they arrive, tldraw's own names still preview.
    this.words = { shapeKinds: {}, colorAliases: {} }
    this.ready = Promise.resolve(api.catalog?.())
      .then((catalog) => {
        if (catalog) this.words = { shapeKinds: catalog.shapeKinds ?? {}, colorAliases: catalog.colorAliases ?? {} }
      })
      .catch(() => {})
  }

  /** The tldraw type (and geo) a model's kind word means, as the server's ShapeKinds reads it. */
  kindOf(word) {
    const value = normalized(word)
    if (GEO.has(value)) return { type: 'geo', geo: value }
    const known = this.words.shapeKinds[value]
    if (known) return known
    return TYPES.has(value) ? { type: value, geo: value === 'geo' ? 'rectangle' : undefined } : null
  }

  /** The model's styles that tldraw (or the server's aliases) know, as tldraw names them. */
  stylesOf(props) {
    const styles = {}
    for (const [name, values] of Object.entries(STYLES)) {
      if (typeof props[name] !== 'string') continue
      const value = normalized(props[name])
      const known = values.has(value) ? value : name === 'color' ? this.words.colorAliases[value] : undefined
      if (known) styles[name] = known
    }
    return styles
  }

  show(sessionId, action) {
    if (action.name !== 'create_shape' || !action.params) return
    const origin = this.origin(sessionId)
    if (!origin) return
    const shape = this.shapeFor(action, origin)
    if (!shape) return
    const first = !this.shown.has(action.id)
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
    if (first) this.record({ event: 'preview', actionId: action.id, word: action.params.type, type: shape.type, geo: shape.props.geo })
  }

  record(entry) {
    this.timeline.push(entry)
    if (this.timeline.length > TIMELINE_LENGTH) this.timeline.splice(0, this.timeline.length - TIMELINE_LENGTH)
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
    if (typeof params.type !== 'string') return null
    const kind = this.kindOf(params.type)
    if (!kind) return null
    const props = params.props ?? {}
    const id = PREVIEW_PREFIX + action.id.replace(/[^A-Za-z0-9_-]/g, '_')
    const base = { id, isLocked: true, opacity: 0.5, meta: { preview: true } }
    const styles = this.stylesOf(props)
    const label = typeof params.text === 'string' && params.text.length > 0 ? params.text
      : typeof props.text === 'string' && props.text.length > 0 ? props.text : null
    const at = (point) => ({ x: origin.x + point.x, y: origin.y + point.y })
    const placed = Number.isFinite(params.x) && Number.isFinite(params.y) ? at(params) : null
    const { color, fill, dash, size, font } = styles
    switch (kind.type) {
      case 'geo':
        if (!placed) return null
        return { ...base, ...placed, type: 'geo', props: {
          geo: kind.geo ?? 'rectangle', w: positive(props.w, 100), h: positive(props.h, 100),
          ...pick({ color, fill, dash, size, font }), ...(label ? { richText: toRichText(label) } : {}) } }
      case 'note':
        if (!placed) return null
        return { ...base, ...placed, type: 'note', props: { ...pick({ color, size, font }), ...(label ? { richText: toRichText(label) } : {}) } }
      case 'text':
        if (!placed || !label) return null
        return { ...base, ...placed, type: 'text', props: { ...pick({ color, size, font }), richText: toRichText(label) } }
      case 'frame':
        if (!placed) return null
        return { ...base, ...placed, type: 'frame', props: {
          w: positive(props.w, 320), h: positive(props.h, 240), name: typeof props.name === 'string' ? props.name : label ?? '' } }
      case 'line': {
        const points = pointsOf(params).map(at)
        if (points.length < 2) return null
        const indices = getIndices(points.length)
        const [first] = points
        const handles = Object.fromEntries(points.map((p, i) => [indices[i], { id: indices[i], index: indices[i], x: p.x - first.x, y: p.y - first.y }]))
        return { ...base, x: first.x, y: first.y, type: 'line', props: { ...pick({ color, dash, size }), points: handles } }
      }
      case 'draw': {
        const points = pointsOf(params).map(at)
        if (points.length < 2) return null
        const [first] = points
        const path = b64Vecs.encodePoints(points.map((p) => ({ x: p.x - first.x, y: p.y - first.y, z: 0.5 })))
        return { ...base, x: first.x, y: first.y, type: 'draw', props: { ...pick({ color, fill, dash, size }), segments: [{ type: 'free', path }] } }
      }
      case 'arrow': {
        const ends = arrowEnds(params)
        if (!ends) return null
        const start = at(ends[0])
        const end = at(ends[1])
        return { ...base, x: start.x, y: start.y, type: 'arrow', props: {
          ...pick({ color, fill, dash, size, font }), start: { x: 0, y: 0 }, end: { x: end.x - start.x, y: end.y - start.y },
          ...(label ? { richText: toRichText(label) } : {}) } }
      }
      default:
        return null
    }
  }

  /** The action's final envelope came: its records take the preview's place. */
  discard(actionId) {
    const id = this.shown.get(actionId)
    if (!id) return
    this.shown.delete(actionId)
    this.remove([id])
    this.record({ event: 'replaced', actionId })
  }

  /** A run ended: its previews that never got a final envelope go. */
  discardRun(runId) {
    const ids = []
    for (const [actionId, id] of this.shown) {
      if (actionId.startsWith(`${runId}:`)) {
        ids.push(id)
        this.shown.delete(actionId)
        this.record({ event: 'discarded', actionId })
      }
    }
    this.remove(ids)
  }

  discardAll() {
    const ids = [...this.shown.values()]
    for (const actionId of this.shown.keys()) this.record({ event: 'discarded', actionId })
    this.shown.clear()
    this.remove(ids)
  }

  remove(ids) {
    const present = ids.filter((id) => this.editor.store.has(id))
    if (present.length) this.editor.store.mergeRemoteChanges(() => this.editor.store.remove(present))
  }
}

function normalized(word) {
  return String(word).trim().toLowerCase().replace(/[_ ]/g, '-')
}

function pick(styles) {
  return Object.fromEntries(Object.entries(styles).filter(([, value]) => value !== undefined))
}

function isPoint(point) {
  return point && Number.isFinite(point.x) && Number.isFinite(point.y)
}

/** A line's or a drawing's points so far: those complete enough to draw. */
function pointsOf(params) {
  const points = Array.isArray(params.points) ? params.points
    : Array.isArray(params.props?.segments?.[0]?.points) ? params.props.segments[0].points : []
  return points.filter(isPoint).slice(0, 2000)
}

/** An arrow's two ends in the model's frame: start and end, else its first and last points. */
function arrowEnds(params) {
  if (isPoint(params.start) && isPoint(params.end)) return [params.start, params.end]
  const points = pointsOf(params)
  return points.length >= 2 ? [points[0], points[points.length - 1]] : null
}

function positive(value, fallback) {
  return Number.isFinite(value) && value > 0 ? Math.min(value, 100000) : fallback
}
