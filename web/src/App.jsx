import { useEffect, useMemo, useState } from 'react'
import { Tldraw } from 'tldraw'
// Fonts, icons and translations from the bundle, not tldraw's CDN: the page makes no request but to its server.
import { getAssetUrlsByImport } from '@tldraw/assets/imports.vite'
import { createApi } from './api.js'
import { RoomClient } from './RoomClient.js'
import { ChatPanel } from './ChatPanel.jsx'
import { DocumentView } from './DocumentView.jsx'
import { FollowAgent } from './FollowAgent.jsx'
import { writePageParam } from './pageParams.js'
import { createAssetStore } from './assetStore.js'

const assetUrls = getAssetUrlsByImport()

export function App({ params }) {
  const api = useMemo(() => createApi(params.token), [params.token])
  const assets = useMemo(() => createAssetStore({ roomId: params.roomId, token: params.token }), [params.roomId, params.token])
  const [editor, setEditor] = useState(null)
  const [client, setClient] = useState(null)
  const [status, setStatus] = useState({ state: 'connecting', isHost: false, revision: null })
  const [tab, setTab] = useState(params.docId ? 'document' : 'agent')
  const [notice, setNotice] = useState(null)

  useEffect(() => {
    if (!editor) return undefined
    const room = new RoomClient({ editor, api, roomId: params.roomId, token: params.token })
    const unsubscribe = room.subscribe((topic, body) => {
      if (topic === 'status') setStatus(body)
      if (topic === 'notice') setNotice(body.text)
    })
    room.start()
    window.canvasAgent = room
    setClient(room)
    return () => {
      unsubscribe()
      room.close()
      if (window.canvasAgent === room) delete window.canvasAgent
    }
  }, [editor, api, params.roomId, params.token])

  return (
    <div className="app">
      <header className="bar">
        <strong>canvas-agent</strong>
        <span className="room" title="the room (?room=)">room {params.roomId}</span>
        <ConnectionBadge status={status} />
        <span className="revision" data-testid="revision">board rev {status.revision ?? '…'}</span>
        {notice && <span className="notice" data-testid="notice" onClick={() => setNotice(null)} title="dismiss">{notice}</span>}
      </header>
      <main className="main">
        <section className="canvas" data-testid="canvas">
          <Tldraw assetUrls={assetUrls} assets={assets} onMount={setEditor} inferDarkMode={false} />
          {client && <FollowAgent editor={editor} client={client} />}
        </section>
        <aside className="side">
          <nav className="tabs">
            <button className={tab === 'agent' ? 'active' : ''} onClick={() => setTab('agent')}>Agent</button>
            <button className={tab === 'document' ? 'active' : ''} onClick={() => setTab('document')}>Document</button>
          </nav>
          {client && (
            <>
              <div hidden={tab !== 'agent'} className="tab-body">
                <ChatPanel client={client} api={api} roomId={params.roomId} initialSessionId={params.sessionId}
                  onSession={(id) => writePageParam('session', id)} />
              </div>
              <div hidden={tab !== 'document'} className="tab-body">
                <DocumentView client={client} api={api} roomId={params.roomId} initialDocId={params.docId}
                  onDocument={(id) => writePageParam('doc', id)} />
              </div>
            </>
          )}
        </aside>
      </main>
    </div>
  )
}

function ConnectionBadge({ status }) {
  const connected = status.state === 'open'
  const host = !connected ? '' : status.isHost ? 'this page hosts the room' : status.hostClientId ? 'another page hosts' : 'no host'
  return (
    <span className={`connection ${connected ? 'ok' : 'down'}`} data-testid="connection" data-state={status.state}
      data-host={status.isHost ? 'self' : status.hostClientId ? 'other' : 'none'}>
      {connected ? 'connected' : status.state}
      {host && <span className="host" data-testid="host"> · {host}</span>}
    </span>
  )
}
