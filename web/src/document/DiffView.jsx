import { useMemo, useState } from 'react'
import { Diff, Hunk, parseDiff } from 'react-diff-view'
import 'react-diff-view/style/index.css'

/**
 * A unified diff (the server's `canvas_get_diff`, Myers) shown by react-diff-view, inline or side by
 * side as the person picks. The gutter carries the +/− sign beside the line number, so the kind of a
 * line reads without colour too.
 */
export function DiffView({ diff, title, testId = 'diff' }) {
  const [viewType, setViewType] = useState('unified')
  const files = useMemo(() => (diff ? parseDiff(diff) : []), [diff])
  const file = files[0]
  const renderGutter = ({ change, side, renderDefault }) => {
    const sign = change.isInsert ? '+' : change.isDelete ? '-' : ''
    const here = viewType === 'unified' ? side === 'new' : (side === 'new') === !!change.isInsert
    return <>{renderDefault()}{here && sign && <span className="sign">{sign}</span>}</>
  }
  return (
    <div className="doc-diff" data-testid={testId} data-view={viewType}>
      <div className="row">
        <strong>{title}</strong>
        <span className="toggle">
          <button className={viewType === 'unified' ? 'active' : ''} onClick={() => setViewType('unified')}
            data-testid="diff-inline">Inline</button>
          <button className={viewType === 'split' ? 'active' : ''} onClick={() => setViewType('split')}
            data-testid="diff-split">Side by side</button>
        </span>
      </div>
      {!file || file.hunks.length === 0 ? (
        <div className="muted">No changes.</div>
      ) : (
        <Diff viewType={viewType} diffType={file.type ?? 'modify'} hunks={file.hunks} renderGutter={renderGutter}>
          {(hunks) => hunks.map((hunk) => <Hunk key={hunk.content} hunk={hunk} />)}
        </Diff>
      )}
    </div>
  )
}
