// "Add to Chat" (seed 001): a selection in the editor becomes the start of a message to the document
// agent, in the seed's own format, so the agent reads where the text is and what the person asks.

/** The 1-based lines a selection [start, end) of `text` covers; a selection ending just after a newline
 * does not take in the next line, which it does not touch. */
export function selectedLines(text, start, end) {
  const last = end > start && text[end - 1] === '\n' ? end - 1 : end
  const lineAt = (offset) => text.slice(0, offset).split('\n').length
  return { startLine: lineAt(start), endLine: Math.max(lineAt(start), lineAt(last)) }
}

/** Seed 001's message: `[Selected from lines 15-23]:\n```language\n{selected_text}\n```\n\nUser question: `.
 * The fence is longer than any run of backticks in the text, so a selected code block stays inside it. */
export function formatForChat(selected, startLine, endLine, language = 'markdown') {
  const longest = Math.max(0, ...(selected.match(/`+/g) ?? []).map((run) => run.length))
  const fence = '`'.repeat(Math.max(3, longest + 1))
  const body = selected.endsWith('\n') ? selected.slice(0, -1) : selected
  return `[Selected from lines ${startLine}-${endLine}]:\n${fence}${language}\n${body}\n${fence}\n\nUser question: `
}
