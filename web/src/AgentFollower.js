import { Box } from 'tldraw'

/** How long the camera takes to ease to the agent's work: quick enough to keep up, slow enough to follow. */
const EASE_MS = 320
/** Room left around the agent's work when the camera has to zoom out to show it whole. */
const ZOOM_INSET = 64

/**
 * Where the agent is working, for a person who wants to watch it: the page bounds of the shapes each
 * final envelope put (the server's records, already in the editor when this hears of them).
 *
 * Following, the camera eases to them: centred on them when they fit the view at the current zoom,
 * zoomed out to show them whole when not. Not following, work outside the view is kept as `offscreen`
 * (its bounds and the direction from the view's centre) for the page to point at, until the person
 * looks (`show`) or the view comes to hold it.
 */
export class AgentFollower {
  constructor(editor) {
    this.editor = editor
    this.following = false
    this.offscreen = null
    this.listeners = new Set()
    this.stats = { followed: 0, pointedAt: 0 }
    // A person panning to the work by hand has seen it: the pointer goes.
    this.stopWatchingCamera = editor.store.listen(() => this.recheck(), { scope: 'session' })
  }

  /** `fn(state)` on every change of `following` or `offscreen`; returns the unsubscribe. */
  subscribe(fn) {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  state() {
    return { following: this.following, offscreen: this.offscreen }
  }

  setFollowing(following) {
    this.following = following
    if (following && this.offscreen) this.show()
    this.notify()
  }

  /** A room event: final envelopes' diffs are the agent's changes. */
  heard(topic, body) {
    if (topic !== 'agent:action' || body?.partial || !body?.diff) return
    const bounds = this.boundsOf(body.diff.put ?? [])
    if (bounds) this.agentChanged(bounds)
  }

  agentChanged(bounds) {
    if (this.following) {
      this.moveTo(bounds)
      this.stats.followed += 1
      return
    }
    if (this.inView(bounds)) return
    this.offscreen = { bounds, direction: this.directionTo(bounds) }
    this.stats.pointedAt += 1
    this.notify()
  }

  /** The camera to the work pointed at; the pointer goes. */
  show() {
    if (!this.offscreen) return
    this.moveTo(this.offscreen.bounds)
    this.offscreen = null
    this.notify()
  }

  moveTo(bounds) {
    const view = this.editor.getViewportPageBounds()
    const animation = { animation: { duration: EASE_MS } }
    if (bounds.w <= view.w - 2 * ZOOM_INSET && bounds.h <= view.h - 2 * ZOOM_INSET) {
      this.editor.centerOnPoint(bounds.center, animation)
    } else {
      this.editor.zoomToBounds(bounds, { ...animation, inset: ZOOM_INSET })
    }
  }

  boundsOf(records) {
    const boxes = records
      .filter((record) => record.typeName === 'shape' && this.editor.store.has(record.id))
      .map((record) => this.editor.getShapePageBounds(record.id))
      .filter(Boolean)
    return boxes.length ? Box.Common(boxes) : null
  }

  inView(bounds) {
    return Box.Collides(this.editor.getViewportPageBounds(), bounds)
  }

  /** Degrees clockwise from "right", view centre to the work's centre. */
  directionTo(bounds) {
    const from = this.editor.getViewportPageBounds().center
    const to = bounds.center
    return Math.round((Math.atan2(to.y - from.y, to.x - from.x) * 180) / Math.PI)
  }

  recheck() {
    if (!this.offscreen) return
    if (this.inView(this.offscreen.bounds)) {
      this.offscreen = null
      this.notify()
      return
    }
    const direction = this.directionTo(this.offscreen.bounds)
    if (direction !== this.offscreen.direction) {
      this.offscreen = { ...this.offscreen, direction }
      this.notify()
    }
  }

  notify() {
    const state = this.state()
    this.listeners.forEach((fn) => fn(state))
  }

  close() {
    this.stopWatchingCamera()
    this.listeners.clear()
  }
}
