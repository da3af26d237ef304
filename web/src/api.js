// The server's HTTP API, with the page's token when it has one. Every refusal the server sends is
// {ok:false, error:{code, message}}; it is thrown as an ApiError carrying both.
export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(`${code}: ${message}`)
    this.status = status
    this.code = code
    this.body = body
  }
}

export function createApi(token) {
  async function call(method, path, body) {
    const headers = {}
    if (token) headers.authorization = `Bearer ${token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    let json = null
    try {
      json = await response.json()
    } catch {
      // not JSON: reported below
    }
    if (!response.ok || !json || json.ok === false) {
      const error = json?.error ?? { code: `HTTP_${response.status}`, message: response.statusText }
      throw new ApiError(response.status, error.code, error.message, json)
    }
    return json
  }
  const enc = encodeURIComponent
  return {
    catalog: () => call('GET', '/api/catalog'),
    board: (roomId) => call('GET', `/api/rooms/${enc(roomId)}/board`),
    run: (request) => call('POST', '/api/canvas-agent/run', request),
    cancel: (sessionId) => call('POST', '/api/canvas-agent/cancel', { sessionId }),
    revertRun: (runId, roomId) => call('POST', `/api/canvas-agent/runs/${enc(runId)}/revert`, { roomId }),
    sessions: (roomId) => call('GET', `/api/sessions?roomId=${enc(roomId)}&limit=50`),
    createSession: (roomId, title) => call('POST', '/api/sessions', title ? { roomId, title } : { roomId }),
    session: (sessionId, roomId) => call('GET', `/api/sessions/${enc(sessionId)}?roomId=${enc(roomId)}`),
    todos: (sessionId) => call('GET', `/api/sessions/${enc(sessionId)}/todos`),
    createDocument: (roomId, title, content) => call('POST', '/api/docs', { roomId, title, content }),
    document: (docId) => call('GET', `/api/docs/${enc(docId)}`),
    revisions: (docId) => call('GET', `/api/docs/${enc(docId)}/revisions?limit=50`),
    editDocument: (docId, content, baseRevisionId) => call('PUT', `/api/docs/${enc(docId)}`, { content, baseRevisionId }),
    documentTool: (docId, tool, args) => call('POST', `/api/docs/${enc(docId)}/tools/${enc(tool)}`, args),
    documentAgent: (docId, instruction) => call('POST', `/api/docs/${enc(docId)}/agent`, { instruction }),
    preemptLease: (docId) => call('POST', `/api/docs/${enc(docId)}/lease/preempt`),
  }
}
