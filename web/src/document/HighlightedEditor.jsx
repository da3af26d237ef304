import { useRef, useState } from 'react'
import { formatForChat, selectedLines } from './chatSelection.js'

/**
 * The Markdown source as a plain textarea (the person's edit path, read-only while someone else holds
 * the lease), over a backdrop that draws the same lines with the recently changed ones marked: the
 * textarea is transparent and scrolls the backdrop with it, so the highlight sits under its line.
 * A selection offers "Add to Chat", which hands seed 001's formatted message to `onAddToChat`.
 */
export function HighlightedEditor({ value, readOnly, changed, onChange, onAddToChat }) {
  const backdrop = useRef(null)
  const [selection, setSelection] = useState(null)

  const follow = (event) => {
    backdrop.current.scrollTop = event.target.scrollTop
    backdrop.current.scrollLeft = event.target.scrollLeft
  }
  const select = (event) => {
    const { selectionStart: start, selectionEnd: end } = event.target
    if (start === end) return setSelection(null)
    setSelection({ text: value.slice(start, end), ...selectedLines(value, start, end) })
  }
  const addToChat = () => {
    onAddToChat(formatForChat(selection.text, selection.startLine, selection.endLine))
    setSelection(null)
  }

  return (
    <div className="editor">
      <div className="backdrop" ref={backdrop} aria-hidden="true">
        {value.split('\n').map((line, index) => changed.has(index + 1) ? (
          <div key={index} className="line changed" data-testid="changed-line" data-line={index + 1}>{line || ' '}</div>
        ) : (
          <div key={index} className="line">{line || ' '}</div>
        ))}
      </div>
      <textarea className={`markdown ${readOnly ? 'locked' : ''}`} data-testid="markdown" value={value} wrap="off"
        spellCheck={false} readOnly={readOnly} title={readOnly ? 'Assistant editing canvas…' : 'Markdown'}
        onChange={(event) => { setSelection(null); onChange(event.target.value) }} onScroll={follow} onSelect={select} />
      {selection && (
        <button className="add-to-chat" data-testid="add-to-chat" onMouseDown={(event) => event.preventDefault()}
          onClick={addToChat} title="Ask the document agent about the selected text">
          Add to Chat · lines {selection.startLine}–{selection.endLine}
        </button>
      )}
    </div>
  )
}
