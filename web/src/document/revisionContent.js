import { applyPatch, parsePatch, reversePatch } from 'diff'

/** A past revision's text, rebuilt from the text the page holds now and the server's unified diff from
 * that revision to it (`canvas_get_diff`): the server keeps every revision but serves only diffs, and
 * the diff read backwards gives the old text exactly. Null when the diff does not fit `current`. */
export function revisionContent(current, unifiedDiff) {
  if (!unifiedDiff) return current
  const [patch] = parsePatch(unifiedDiff)
  if (!patch || patch.hunks.length === 0) return current
  const rebuilt = applyPatch(current, reversePatch(patch))
  return rebuilt === false ? null : rebuilt
}
