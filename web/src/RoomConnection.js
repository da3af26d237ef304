import EventBus from '@vertx/eventbus-bridge-client.js'

/** The room topics the page listens to, registered together in one go on every (re)connect. */
export const TOPICS_IN = [
  'canvas:host',
  'canvas:resync',
  'agent:action',
  'agent:chat',
  'agent:status',
  'agent:screenshot_request',
  'canvas:change',
  'doc:lease',
  'doc:revision',
]

/**
 * One page's connection to its room over the SockJS event-bus bridge, with the official client.
 *
 * The client reconnects by itself with an exponential backoff (1 s doubling to 5 s, randomized). Each
 * time it is open again, every topic is registered anew and the first registration carries
 * `headers.lastEventId`, the id of the last replayable event this page received: the server sends what
 * was missed, or a `canvas:resync` with the whole board when it cannot. Messages reach `onMessage(topic,
 * body, headers)` in the room's order.
 */
export class RoomConnection {
  constructor({ roomId, token, onMessage, onState }) {
    this.roomId = roomId
    this.token = token
    this.onMessage = onMessage
    this.onState = onState ?? (() => {})
    this.clientId = null
    this.hostClientId = null
    this.lastEventId = null
    this.state = 'connecting'
    this.connects = 0
  }

  address(topic) {
    return `room.${this.roomId}.${topic}`
  }

  open() {
    const eb = new EventBus('/eventbus', {
      vertxbus_reconnect_delay_min: 500,
      vertxbus_reconnect_delay_max: 5000,
    })
    if (this.token) eb.defaultHeaders = { authorization: `Bearer ${this.token}` }
    eb.enableReconnect(true)
    eb.onopen = () => this.registerAll()
    eb.onclose = () => {
      this.clientId = null
      this.setState(eb.reconnectEnabled ? 'reconnecting' : 'closed')
    }
    eb.onerror = (error) => console.warn('[canvas-agent] bridge refused a message', error)
    this.eb = eb
  }

  registerAll() {
    this.connects += 1
    const resume = this.lastEventId ? { lastEventId: this.lastEventId } : {}
    TOPICS_IN.forEach((topic, index) => {
      this.eb.registerHandler(this.address(topic), index === 0 ? resume : {}, (error, message) => {
        if (error) {
          console.warn(`[canvas-agent] ${topic}:`, error.message ?? error)
          return
        }
        this.receive(topic, message)
      })
    })
    this.setState('open')
  }

  receive(topic, message) {
    const headers = message.headers ?? {}
    const body = message.body
    if (topic === 'canvas:host') {
      if (body.type === 'canvas:hello') this.clientId = body.clientId
      this.hostClientId = body.hostClientId ?? null
      this.setState(this.state)
    }
    try {
      this.onMessage(topic, body, headers)
    } finally {
      // Only events the server can replay carry an id; resume from the last one handled.
      if (headers.id !== undefined && headers.id !== null) this.lastEventId = String(headers.id)
    }
  }

  isHost() {
    return this.clientId !== null && this.clientId === this.hostClientId
  }

  setState(state) {
    this.state = state
    this.onState({ state, clientId: this.clientId, hostClientId: this.hostClientId, isHost: this.isHost(), connects: this.connects })
  }

  isOpen() {
    return this.eb && this.eb.state === EventBus.OPEN
  }

  /** Sends to one of the room's inbound topics; resolves with the reply, rejects with the bridge's reason. */
  send(topic, body) {
    return new Promise((resolve, reject) => {
      if (!this.isOpen()) {
        reject(new Error('NOT_CONNECTED: the connection to the server is not open'))
        return
      }
      this.eb.send(this.address(topic), body, {}, (error, reply) => (error ? reject(error) : resolve(reply?.body)))
    })
  }

  /** Sends without waiting for a reply; false when not connected. */
  post(topic, body) {
    if (!this.isOpen()) return false
    this.eb.send(this.address(topic), body, {})
    return true
  }

  /**
   * Cuts the current connection as a network failure would: the client reconnects with its backoff and
   * resumes. (The end-to-end tests use it; `close()` would stop reconnecting.)
   */
  drop() {
    this.eb?.sockJSConn?.close()
  }

  close() {
    this.eb?.close()
  }
}
