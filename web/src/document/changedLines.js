import { diffLines } from 'diff'

/** The 1-based lines of `after` that are new or changed since `before` (a Myers line diff, jsdiff's):
 * what the view highlights when a revision arrives. A deletion marks the line now in its place. */
export function changedLines(before, after) {
  const changed = new Set()
  let line = 1
  for (const part of diffLines(before, after)) {
    if (part.added) {
      for (let i = 0; i < part.count; i++) changed.add(line + i)
      line += part.count
    } else if (part.removed) {
      changed.add(line)
    } else {
      line += part.count
    }
  }
  const lineCount = after.split('\n').length
  return new Set([...changed].filter((n) => n <= lineCount))
}
