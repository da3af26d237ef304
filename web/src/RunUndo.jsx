import { useState } from 'react'

/**
 * "Undo" on the agent's message for a run: asks first (inline, so nothing blocks the page), then
 * reverts the run as one new revision (`POST /api/canvas-agent/runs/{runId}/revert`). The board
 * changes through the room's `canvas:change` like any edit; this only says what was done, and which
 * records were left alone because someone changed them after the run.
 */
export function RunUndo({ api, roomId, runId }) {
  const [phase, setPhase] = useState('idle')
  const [outcome, setOutcome] = useState(null)

  async function revert() {
    setPhase('working')
    try {
      const answer = await api.revertRun(runId, roomId)
      setOutcome(describe(answer))
      setPhase('done')
    } catch (failure) {
      setOutcome(failure.message)
      setPhase('failed')
    }
  }

  if (phase === 'confirming') {
    return (
      <span className="undo" data-testid="undo-confirm">
        Undo this run?{' '}
        <button onClick={revert} data-testid="undo-yes">Undo</button>{' '}
        <button onClick={() => setPhase('idle')} data-testid="undo-no">Keep</button>
      </span>
    )
  }
  if (phase === 'done' || phase === 'failed') {
    return <span className={`undo ${phase}`} data-testid="undo-outcome" data-phase={phase}>{outcome}</span>
  }
  return (
    <button className="undo" disabled={phase === 'working'} onClick={() => setPhase('confirming')}
      data-testid="undo-run" data-run-id={runId} title="revert what the agent changed in this run">
      Undo
    </button>
  )
}

function describe({ changed, reverted, keptChanged }) {
  const kept = keptChanged.length > 0
    ? `; kept ${keptChanged.length} changed since (${keptChanged.map((k) => k.id.replace(/^shape:/, '')).join(', ')})`
    : ''
  return changed ? `Undone: ${reverted.length} reverted${kept}` : `Nothing left to undo${kept}`
}
