import { useEffect, useState } from 'react'
import { AgentFollower } from './AgentFollower.js'

/**
 * The canvas's "follow the agent" toggle and, when not following, a chip pointing at the agent's
 * work outside the view ("agent is drawing ↗ — show"), which moves the camera there.
 */
export function FollowAgent({ editor, client }) {
  const [follower, setFollower] = useState(null)
  const [state, setState] = useState({ following: false, offscreen: null })

  useEffect(() => {
    const created = new AgentFollower(editor)
    const unsubscribeState = created.subscribe(setState)
    const unsubscribeRoom = client.subscribe((topic, body) => created.heard(topic, body))
    client.follower = created
    setFollower(created)
    return () => {
      unsubscribeRoom()
      unsubscribeState()
      created.close()
      if (client.follower === created) delete client.follower
    }
  }, [editor, client])

  if (!follower) return null
  const { following, offscreen } = state
  return (
    <div className="follow-agent">
      <label className="follow-toggle" title="move the camera to what the agent changes">
        <input type="checkbox" data-testid="follow-agent" checked={following}
          onChange={(event) => follower.setFollowing(event.target.checked)} />
        follow the agent
      </label>
      {offscreen && !following && (
        <button className="agent-offscreen" data-testid="agent-offscreen" data-direction={offscreen.direction}
          onClick={() => follower.show()} title="show what the agent is drawing">
          agent is drawing{' '}
          <span className="agent-arrow" style={{ transform: `rotate(${offscreen.direction}deg)` }}>→</span>
          {' '}— show
        </button>
      )}
    </div>
  )
}
