// Browsers on the SockJS event-bus bridge, for the Java tests: the official client
// (@vertx/eventbus-bridge-client.js over sockjs-client, both pinned in package-lock.json), one
// EventBus per named client. One JSON command per stdin line; everything the clients see comes back
// as one JSON event per stdout line, tagged with the client's name.
//
//   {"op":"open","client":"a","url":"http://127.0.0.1:8080/eventbus","transport":"xhr-polling","defaultHeaders":{}?}
//                                  -> {"client":"a","event":"open","transport":"xhr-polling"}
//   {"op":"defaultHeaders","client":"a","headers":{...}|null}
//                                  the client's defaultHeaders, which it merges into every register,
//                                  unregister, send and publish (how a page sends its access token)
//   {"op":"register","client":"a","address":"room.r.agent:action","headers":{}?}
//                                  -> {"client":"a","event":"message","address",body,headers} per message
//                                     {"client":"a","event":"handler_error","address",error} on an err for it
//   {"op":"registerAll","client":"a","registrations":[{"address","headers"?},...]}
//                                  -> the same, registered one after another in one go, as a page does
//                                     in its onopen (every handler exists before any reply arrives)
//   {"op":"send","client":"a","address":...,"body":...,"headers":{}?,"ref":"1"}   (with a reply handler)
//                                  -> {"client":"a","event":"reply","ref":"1",body}
//                                     {"client":"a","event":"reply_error","ref":"1",error:{failureCode,failureType,message}}
//   {"op":"send","client":"a","address":...,"body":...}                   (no reply handler)
//   {"op":"publish","client":"a","address":...,"body":...,"headers":{}?}
//   {"op":"unregister","client":"a","address":...}
//   {"op":"close","client":"a"}    -> {"client":"a","event":"closed",code,reason}
//
// The bridge's errors that no handler takes ({type:"err", body:"rejected"}) come as
// {"client","event":"error",error}. A message for an address without a handler comes as
// {"client","event":"unhandled",message}. The process ends when stdin ends.
import { createInterface } from 'node:readline'
import EventBus from '@vertx/eventbus-bridge-client.js'

// stdout carries events only: whatever a library prints goes to stderr.
for (const level of ['log', 'info', 'warn', 'debug', 'error']) {
  console[level] = (...args) => process.stderr.write(args.map(String).join(' ') + '\n')
}

const clients = new Map()

function emit(client, event, fields = {}) {
  process.stdout.write(JSON.stringify({ client, event, ...fields }) + '\n')
}

function open({ client, url, transport, defaultHeaders }) {
  const eb = new EventBus(url, { transports: [transport] })
  eb.defaultHeaders = defaultHeaders ?? null
  clients.set(client, eb)
  eb.onopen = () => emit(client, 'open', { transport: eb.sockJSConn.transport })
  eb.onclose = (event) => emit(client, 'closed', { code: event?.code, reason: event?.reason })
  eb.onerror = (error) => emit(client, 'error', { error })
  eb.onunhandled = (json) => {
    if (json.type === 'err') {
      emit(client, 'error', { error: json })
    } else {
      emit(client, 'unhandled', { message: json })
    }
  }
}

function register({ client, address, headers }) {
  clients.get(client).registerHandler(address, headers ?? {}, (error, message) => {
    if (error) {
      emit(client, 'handler_error', { address, error })
    } else {
      emit(client, 'message', { address, body: message.body, headers: message.headers ?? {} })
    }
  })
}

const commands = {
  open,
  register,
  defaultHeaders({ client, headers }) {
    clients.get(client).defaultHeaders = headers ?? null
  },
  registerAll({ client, registrations }) {
    for (const { address, headers } of registrations) {
      register({ client, address, headers })
    }
  },
  unregister({ client, address }) {
    const eb = clients.get(client)
    for (const handler of [...(eb.handlers[address] ?? [])]) {
      eb.unregisterHandler(address, handler)
    }
  },
  send({ client, address, body, headers, ref }) {
    const eb = clients.get(client)
    if (ref === undefined) {
      eb.send(address, body, headers ?? {})
      return
    }
    eb.send(address, body, headers ?? {}, (error, reply) => {
      if (error) {
        emit(client, 'reply_error', { ref, error })
      } else {
        emit(client, 'reply', { ref, body: reply.body })
      }
    })
  },
  publish({ client, address, body, headers }) {
    clients.get(client).publish(address, body, headers ?? {})
  },
  close({ client }) {
    clients.get(client).close()
  },
}

const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  let command
  try {
    command = JSON.parse(line)
    commands[command.op](command)
  } catch (error) {
    emit(command?.client ?? null, 'driver_error', { message: String(error?.stack ?? error) })
  }
})
lines.on('close', () => {
  for (const eb of clients.values()) {
    try {
      eb.close()
    } catch {
      // already closed
    }
  }
  process.exit(0)
})
