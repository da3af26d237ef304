// MCP clients nobody here wrote, for the Java tests of /mcp and mcp-stdio: the official TypeScript
// SDK's Client (@modelcontextprotocol/sdk, pinned in package-lock.json) over Streamable HTTP or stdio.
// One JSON command per stdin line, one JSON answer per stdout line carrying the command's ref;
// several clients live in one process, each by its name:
//
//   {"ref":1,"op":"connect","client":"a","transport":"http","url":"http://127.0.0.1:8080/mcp","token":"…","headers":{…}}
//   {"ref":1,"op":"connect","client":"a","transport":"stdio","command":"java","args":[…],"env":{…}}
//       -> {"ref":1,"ok":true,"result":{"serverInfo","protocolVersion","capabilities","sessionId","instructions"}}
//   {"ref":2,"op":"listTools"|"listResources"|"listResourceTemplates"|"listPrompts","client":"a","cursor"?}
//   {"ref":3,"op":"callTool","client":"a","name":"create_shape","arguments":{…},"progress"?:true,"timeoutMs"?}
//       -> the CallToolResult; with progress: {"result":CallToolResult,"progress":[{progress,total,message}…]}
//   {"ref":4,"op":"readResource"|"subscribe"|"unsubscribe","client":"a","uri":"canvas://…"}
//   {"ref":5,"op":"getPrompt","client":"a","name":"…","arguments":{…}}
//   {"ref":6,"op":"request","client":"a","method":"…","params":{…}}       (raw, to test refusals)
//   {"ref":7,"op":"notifications","client":"a","since"?:0}  -> {"notifications":[{index,method,params}…],"next":n}
//   {"ref":8,"op":"waitNotification","client":"a","method":"notifications/resources/updated","uri"?,"since"?,"timeoutMs"}
//       -> the first matching {index,method,params} at or after since
//   {"ref":9,"op":"close","client":"a","terminate"?:true}   (terminate: DELETE the HTTP session first)
//
// A failure answers {"ref","ok":false,"error":{"code"?,"message","data"?}}: an McpError's JSON-RPC code,
// or the HTTP status of a refused Streamable HTTP request (401, 403, …). One client's commands run in
// the order they came, clients side by side. The process ends when stdin ends, closing every client.
import { createInterface } from 'node:readline'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { ResultSchema } from '@modelcontextprotocol/sdk/types.js'

for (const level of ['log', 'info', 'warn', 'debug', 'error']) {
  console[level] = (...args) => process.stderr.write(args.map(String).join(' ') + '\n')
}

const CLIENT_INFO = { name: 'canvas-agent-tests', version: '1.0.0' }
const clients = new Map()

function transportFor({ transport, url, token, headers = {}, command, args = [], env = {}, cwd }) {
  if (transport === 'http') {
    const all = { ...headers }
    if (token) all.Authorization = `Bearer ${token}`
    return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: all } })
  }
  if (transport === 'stdio') {
    // The launched process's stderr joins ours, which the Java side keeps for failure messages.
    return new StdioClientTransport({ command, args, env, cwd, stderr: 'inherit' })
  }
  throw new Error(`unknown transport ${transport} (http or stdio)`)
}

async function connect(command) {
  const name = command.client
  if (clients.has(name)) throw new Error(`a client named ${name} is connected already`)
  const transport = transportFor(command)
  const record = { client: null, transport, notifications: [], waiters: new Set(), protocolVersion: null }
  // The SDK tells the transport the negotiated version (Streamable HTTP sends it as a header); a
  // stdio transport has no such hook, so one is lent to it, only to learn the version.
  const setVersion = transport.setProtocolVersion?.bind(transport)
  transport.setProtocolVersion = (version) => {
    record.protocolVersion = version
    setVersion?.(version)
  }
  const client = new Client(CLIENT_INFO, { capabilities: {} })
  client.fallbackNotificationHandler = async (notification) => {
    const entry = { index: record.notifications.length, method: notification.method, params: notification.params ?? null }
    record.notifications.push(entry)
    for (const waiter of record.waiters) waiter(entry)
  }
  record.client = client
  try {
    await client.connect(transport)
  } catch (error) {
    await client.close().catch(() => {})
    throw error
  }
  clients.set(name, record)
  return {
    serverInfo: client.getServerVersion() ?? null,
    protocolVersion: record.protocolVersion,
    capabilities: client.getServerCapabilities() ?? null,
    sessionId: transport.sessionId ?? null,
    instructions: client.getInstructions() ?? null,
  }
}

const of = (name) => {
  const record = clients.get(name)
  if (!record) throw new Error(`no client named ${name}`)
  return record
}

const options = ({ timeoutMs }) => (timeoutMs ? { timeout: timeoutMs } : undefined)
const cursorOf = ({ cursor }) => (cursor ? { cursor } : undefined)

const matches = (entry, { method, uri }) => entry.method === method && (uri == null || entry.params?.uri === uri)

function waitNotification(command) {
  const record = of(command.client)
  const since = command.since ?? 0
  const found = record.notifications.slice(since).find((entry) => matches(entry, command))
  if (found) return found
  const timeoutMs = command.timeoutMs ?? 30_000
  return new Promise((resolve, reject) => {
    const waiter = (entry) => {
      if (entry.index >= since && matches(entry, command)) {
        clearTimeout(timer)
        record.waiters.delete(waiter)
        resolve(entry)
      }
    }
    const timer = setTimeout(() => {
      record.waiters.delete(waiter)
      const seen = record.notifications.slice(since).map((entry) => entry.method)
      reject(new Error(`no ${command.method}${command.uri ? ` for ${command.uri}` : ''} within ${timeoutMs} ms; received since ${since}: ${JSON.stringify(seen)}`))
    }, timeoutMs)
    record.waiters.add(waiter)
  })
}

async function callTool(command) {
  const { client } = of(command.client)
  const params = { name: command.name, arguments: command.arguments ?? {} }
  if (!command.progress) return client.callTool(params, undefined, options(command))
  const progress = []
  const result = await client.callTool(params, undefined, {
    ...options(command),
    onprogress: (update) => progress.push(update),
    resetTimeoutOnProgress: true,
  })
  return { result, progress }
}

async function close({ client: name, terminate }) {
  const record = clients.get(name)
  clients.delete(name)
  if (!record) return
  if (terminate) await record.transport.terminateSession?.()
  await record.client.close()
}

const commands = {
  connect,
  listTools: (command) => of(command.client).client.listTools(cursorOf(command), options(command)),
  callTool,
  listResources: (command) => of(command.client).client.listResources(cursorOf(command), options(command)),
  listResourceTemplates: (command) =>
    of(command.client).client.listResourceTemplates(cursorOf(command), options(command)),
  readResource: (command) => of(command.client).client.readResource({ uri: command.uri }, options(command)),
  subscribe: (command) => of(command.client).client.subscribeResource({ uri: command.uri }, options(command)),
  unsubscribe: (command) => of(command.client).client.unsubscribeResource({ uri: command.uri }, options(command)),
  listPrompts: (command) => of(command.client).client.listPrompts(cursorOf(command), options(command)),
  getPrompt: (command) =>
    of(command.client).client.getPrompt({ name: command.name, arguments: command.arguments ?? {} }, options(command)),
  // Any method, any params, checked by nothing on this side: the server's answer is the test.
  request: (command) => {
    const request = { method: command.method }
    if (command.params !== undefined) request.params = command.params
    return of(command.client).client.request(request, ResultSchema, options(command))
  },
  notifications: ({ client, since = 0 }) => {
    const record = of(client)
    return { notifications: record.notifications.slice(since), next: record.notifications.length }
  },
  waitNotification,
  close,
}

function answer(fields) {
  process.stdout.write(JSON.stringify(fields) + '\n')
}

// An McpError carries its JSON-RPC code; a refused HTTP request its status (StreamableHTTPError).
function errorOf(error) {
  const fields = { message: String(error?.message ?? error) }
  if (typeof error?.code === 'number') fields.code = error.code
  if (error?.data !== undefined) fields.data = error.data
  if (fields.code === undefined) fields.stack = String(error?.stack ?? '')
  return fields
}

// Commands for one client run in the order they came; clients run side by side, so one client's
// waitNotification never holds up another's call.
const chains = new Map()
const lines = createInterface({ input: process.stdin })
lines.on('line', (line) => {
  let command
  try {
    command = JSON.parse(line)
  } catch (error) {
    answer({ ref: null, ok: false, error: { message: `not JSON: ${line}` } })
    return
  }
  const chain = (chains.get(command.client) ?? Promise.resolve())
    .then(() => {
      const op = commands[command.op]
      if (!op) throw new Error(`unknown op ${command.op}`)
      return op(command)
    })
    .then((result) => answer({ ref: command.ref, ok: true, result: result ?? null }))
    .catch((error) => answer({ ref: command.ref, ok: false, error: errorOf(error) }))
  chains.set(command.client, chain)
})
lines.on('close', async () => {
  await Promise.allSettled([...chains.values()])
  await Promise.allSettled([...clients.values()].map((record) => record.client.close()))
  process.exit(0)
})
answer({ ref: 0, ok: true, result: { node: process.version } })
