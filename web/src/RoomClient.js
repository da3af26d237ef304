import { RoomConnection } from './RoomConnection.js'
import { BoardExecutor } from './BoardExecutor.js'
import { ChangeSender } from './ChangeSender.js'
import { answerScreenshot } from './screenshotAnswer.js'
import { publishViewport } from './viewportPublisher.js'
import { boardSnapshot } from './boardRecords.js'

/**
 * Everything one page does in its room, wired together once the editor exists: the connection, the
 * executor (hands), the connectors (eyes: viewport, screenshots; and a person's edits), and the
 * listeners of the panels. `window.canvasAgent` exposes it, for a person's console and the
 * end-to-end tests.
 */
export class RoomClient {
  constructor({ editor, api, roomId, token }) {
    this.editor = editor
    this.api = api
    this.roomId = roomId
    this.listeners = new Set()
    this.screenshots = { answered: 0, failed: 0, last: null }
    this.status = { state: 'connecting', isHost: false, revision: null, connects: 0 }
    this.connection = new RoomConnection({
      roomId,
      token,
      onMessage: (topic, body) => this.receive(topic, body),
      onState: (state) => this.update({ ...state }),
    })
    this.executor = new BoardExecutor({
      editor,
      api,
      roomId,
      connection: this.connection,
      pendingLocal: (id) => this.sender?.isPending(id) ?? false,
      onChange: (revision) => {
        this.update({ revision })
        this.sender?.boardMoved()
      },
      onLoadFailed: (error) => this.emit('notice', {
        text: error.status === 401 || error.status === 403
          ? `The server wants an access token for room ${roomId}: open this page with ?token=… (${error.code})`
          : `The board could not be loaded: ${error.message}; trying again`,
      }),
    })
    this.sender = new ChangeSender({
      editor,
      connection: this.connection,
      executor: this.executor,
      onRefused: (message) => this.emit('notice', { text: `The server refused an edit: ${message}` }),
    })
  }

  start() {
    this.executor.load()
    this.connection.open()
    this.viewport = publishViewport(this.editor, this.connection)
    return this
  }

  receive(topic, body) {
    if (topic === 'canvas:host' && body.type === 'canvas:hello') {
      // A new connection: the server forgot this page's viewport with the old one.
      this.viewport?.schedule()
    }
    this.executor.handle(topic, body)
    if (topic === 'agent:screenshot_request') this.screenshot(body)
    this.emit(topic, body)
  }

  screenshot(request) {
    answerScreenshot(this.editor, this.connection, request, this.executor.revision)
      .then((reply) => {
        this.screenshots.answered += 1
        this.screenshots.last = { requestId: reply.requestId, bytes: reply.image.bytes, dataUrl: reply.image.dataUrl }
      })
      .catch((error) => {
        this.screenshots.failed += 1
        console.warn('[canvas-agent] screenshot not sent', error)
      })
  }

  update(fields) {
    this.status = { ...this.status, ...fields }
    this.emit('status', this.status)
  }

  /** `fn(topic, body)` for every message and for `status` and `notice`; returns the unsubscribe. */
  subscribe(fn) {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  emit(topic, body) {
    this.listeners.forEach((fn) => {
      try {
        fn(topic, body)
      } catch (error) {
        console.error('[canvas-agent] listener failed', error)
      }
    })
  }

  /** The board as this page holds it (shapes and bindings, sorted by id). */
  board() {
    return boardSnapshot(this.editor)
  }

  close() {
    this.viewport?.stop()
    this.sender.stop()
    this.connection.close()
  }
}
