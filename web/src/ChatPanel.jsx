import { useCallback, useEffect, useRef, useState } from 'react'
import { RunUndo } from './RunUndo.jsx'

const RUNNING = new Set(['queued', 'running', 'waiting_context', 'calling_model', 'streaming'])

/**
 * The agent's side of the page: the session picker (the room's sessions, a new one, resume), the
 * session's chat (the person's prompts, the agent's `think` and messages, todo changes), its live
 * status with a stop button, its todo list, and the prompt box that starts runs.
 */
export function ChatPanel({ client, api, roomId, initialSessionId, onSession }) {
  const [sessions, setSessions] = useState([])
  const [sessionId, setSessionId] = useState(initialSessionId)
  const [, setVersion] = useState(0)
  const [todos, setTodos] = useState([])
  const [prompt, setPrompt] = useState('')
  const [sending, setSending] = useState(false)
  const [error, setError] = useState(null)
  // Every session's chat and latest status as they arrive, so a run's first events are kept even
  // before the page has adopted its session.
  const chats = useRef(new Map())
  const statuses = useRef(new Map())
  const current = useRef(sessionId)
  current.current = sessionId
  const refresh = () => setVersion((v) => v + 1)
  const chatOf = (id) => {
    if (!chats.current.has(id)) chats.current.set(id, [])
    return chats.current.get(id)
  }

  const loadSessions = useCallback(() => api.sessions(roomId).then((answer) => {
    setSessions(answer.sessions)
    return answer.sessions
  }), [api, roomId])

  const loadTodos = useCallback((id) => api.todos(id).then((answer) => {
    if (current.current === id) setTodos(answer.todos)
  }).catch(() => {}), [api])

  const resume = useCallback((id) => {
    setError(null)
    setSessionId(id)
    onSession(id)
    if (!id) {
      setTodos([])
      return
    }
    api.session(id, roomId).then((answer) => {
      const history = answer.chat.map((message) => ({ role: message.role, text: message.text, runId: message.runId }))
      markRunsInHistory(history, answer.runs)
      chats.current.set(id, history)
      const newest = answer.runs[0]
      if (newest && !statuses.current.has(id)) statuses.current.set(id, { state: newest.state, detail: newest.detail })
      setTodos(answer.todos)
      refresh()
    }).catch((failure) => setError(failure.message))
  }, [api, roomId, onSession])

  useEffect(() => {
    loadSessions().then((list) => {
      // Open the last active session unless the address names one.
      const id = initialSessionId ?? list[0]?.id ?? null
      if (id) resume(id)
    }).catch((failure) => setError(failure.message))
  }, [loadSessions]) // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => client.subscribe((topic, body) => {
    if (topic === 'agent:chat' && body.sessionId && !body.docId) {
      applyChat(chatOf(body.sessionId), body)
      if (body.message?.todo && body.sessionId === current.current) loadTodos(body.sessionId)
      refresh()
    } else if (topic === 'agent:status' && body.sessionId && !body.detail?.docId) {
      statuses.current.set(body.sessionId, { state: body.state, detail: body.detail })
      markRunEnd(chatOf(body.sessionId), body)
      refresh()
    }
  }), [client, loadTodos]) // eslint-disable-line react-hooks/exhaustive-deps

  async function newSession() {
    setError(null)
    try {
      const { session } = await api.createSession(roomId)
      await loadSessions()
      resume(session.id)
    } catch (failure) {
      setError(failure.message)
    }
  }

  async function send(event) {
    event?.preventDefault()
    const message = prompt.trim()
    if (!message || sending) return
    setSending(true)
    setError(null)
    try {
      let id = sessionId
      if (!id) {
        // The session first, so every event of the run lands in a chat the page already shows.
        id = (await api.createSession(roomId)).session.id
        setSessionId(id)
        onSession(id)
        loadSessions()
      }
      chatOf(id).push({ role: 'user', text: message })
      refresh()
      setPrompt('')
      const { viewport, selection } = currentView(client.editor)
      await api.run({ roomId, message, sessionId: id, viewport, selection })
    } catch (failure) {
      setError(failure.message)
    } finally {
      setSending(false)
    }
  }

  async function stop() {
    try {
      await api.cancel(sessionId)
    } catch (failure) {
      setError(failure.message)
    }
  }

  const messages = sessionId ? chatOf(sessionId) : []
  const status = sessionId ? statuses.current.get(sessionId) : null
  const running = status && RUNNING.has(status.state)

  return (
    <div className="chat">
      <div className="sessions">
        <select data-testid="session-picker" value={sessionId ?? ''} onChange={(e) => resume(e.target.value || null)}>
          <option value="">{sessionId ? '— no session —' : 'new session on first prompt'}</option>
          {sessions.map((session) => (
            <option key={session.id} value={session.id}>{session.title}</option>
          ))}
          {sessionId && !sessions.some((session) => session.id === sessionId) && <option value={sessionId}>{sessionId}</option>}
        </select>
        <button onClick={newSession} data-testid="new-session">New</button>
        <button onClick={() => loadSessions()} title="reload the room's sessions">↻</button>
      </div>
      <div className="status" data-testid="agent-status" data-state={status?.state ?? 'idle'}>
        <span className={`dot ${running ? 'busy' : ''}`} />
        {status ? describeStatus(status) : 'idle'}
        {running && <button className="stop" onClick={stop}>Stop</button>}
      </div>
      <ol className="messages" data-testid="messages">
        {messages.map((message, index) => (
          <li key={message.id ?? index} className={`message ${message.role}${message.streaming ? ' streaming' : ''}`}
            data-message-id={message.id} data-streaming={message.streaming ? 'true' : undefined}>
            <span className="role">{message.role === 'user' ? 'you' : message.role === 'assistant' ? 'agent' : 'system'}</span>
            <span className="text">{message.text}</span>
            {message.undoRunId && <RunUndo api={api} roomId={roomId} runId={message.undoRunId} />}
          </li>
        ))}
      </ol>
      {todos.length > 0 && (
        <ul className="todos" data-testid="todos">
          {todos.map((todo) => (
            <li key={todo.id} className={todo.status}>
              <span className="box">{todo.status === 'done' ? '☑' : todo.status === 'skipped' ? '☒' : '☐'}</span> {todo.text}
            </li>
          ))}
        </ul>
      )}
      {error && <div className="error" data-testid="chat-error">{error}</div>}
      <form className="prompt" onSubmit={send}>
        <textarea data-testid="prompt" value={prompt} placeholder='Ask the agent, e.g. "draw a blue rectangle labeled A"'
          onChange={(e) => setPrompt(e.target.value)}
          onKeyDown={(e) => { if (e.key === 'Enter' && !e.shiftKey) send(e) }} />
        <button type="submit" disabled={sending || !prompt.trim()} data-testid="send">Send</button>
      </form>
    </div>
  )
}

const FINAL_STATES = ['done', 'scheduled', 'error', 'canceled']

const changedTheBoard = (runId, applied) => ({ role: 'assistant', text: `changed the board (${applied} applied)`, undoRunId: runId })

/**
 * A run that ended having changed the board gets its Undo on the agent's last message of it (the
 * messages since the person's prompt), or on a line of its own when it said nothing.
 */
function markRunEnd(chat, { state, detail }) {
  if (!FINAL_STATES.includes(state) || !detail?.runId || !(detail.applied > 0)) return
  if (chat.some((message) => message.undoRunId === detail.runId)) return
  let last = null
  for (let i = chat.length - 1; i >= 0 && chat[i].role !== 'user'; i--) {
    if (chat[i].role === 'assistant' && !chat[i].undoRunId) {
      last = chat[i]
      break
    }
  }
  if (last) last.undoRunId = detail.runId
  else chat.push(changedTheBoard(detail.runId, detail.applied))
}

/**
 * The same Undo on a resumed session's history: each message names its run, so every ended run that
 * changed the board gets its Undo on its last agent message, or a line after its last message when
 * the agent said nothing. A run whose messages are older than the history shown gets none.
 */
export function markRunsInHistory(chat, runs) {
  for (const run of runs) {
    if (!FINAL_STATES.includes(run.state) || !(run.detail?.applied > 0)) continue
    let lastOfRun = -1
    let lastSaid = -1
    chat.forEach((message, index) => {
      if (message.runId !== run.runId) return
      lastOfRun = index
      if (message.role === 'assistant') lastSaid = index
    })
    if (lastSaid >= 0) chat[lastSaid].undoRunId = run.runId
    else if (lastOfRun >= 0) chat.splice(lastOfRun + 1, 0, changedTheBoard(run.runId, run.detail.applied))
  }
}

/**
 * One `agent:chat` event into a session's chat: a delta grows the message it names (begun where its
 * first delta came, so messages stand in the order the model began them), a final sets its whole
 * text, a withdrawal removes it; a message without an id (system lines, older servers) is appended.
 */
export function applyChat(chat, body) {
  const id = body.messageId
  const at = id ? chat.findIndex((message) => message.id === id) : -1
  if (body.withdrawn) {
    if (at >= 0) chat.splice(at, 1)
    return
  }
  if (typeof body.delta === 'string') {
    if (at >= 0) chat[at] = { ...chat[at], text: chat[at].text + body.delta }
    else chat.push({ id, role: body.role ?? 'assistant', text: body.delta, streaming: true })
    return
  }
  if (!body.message) return
  const whole = { id, role: body.message.role, text: body.message.text, todo: body.message.todo }
  if (at >= 0) chat[at] = { ...chat[at], ...whole, streaming: false }
  else chat.push(whole)
}

function currentView(editor) {
  const b = editor.getViewportPageBounds()
  const viewport = b.w > 0 && b.h > 0 ? { x: b.x, y: b.y, w: b.w, h: b.h } : undefined
  return { viewport, selection: editor.getSelectedShapeIds().filter((id) => !id.startsWith('shape:preview_')) }
}

function describeStatus({ state, detail }) {
  const parts = [state.replace('_', ' ')]
  if (detail?.model) parts.push(detail.model)
  if (Number.isInteger(detail?.applied)) parts.push(`${detail.applied} applied`)
  if (detail?.code) parts.push(detail.code)
  if (detail?.reason && state !== 'done') parts.push(detail.reason)
  return parts.join(' · ')
}
