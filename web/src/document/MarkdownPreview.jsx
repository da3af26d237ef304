import { useMemo } from 'react'
import { marked } from 'marked'
import DOMPurify from 'dompurify'

/** Markdown rendered as a reader sees it: `marked` (GitHub-flavoured) to HTML, then DOMPurify, since
 * the text is written by people and a model and may carry any HTML (scripts, handlers) at all. */
export function MarkdownPreview({ text, testId = 'preview' }) {
  const html = useMemo(() => DOMPurify.sanitize(marked.parse(text ?? '', { gfm: true, async: false })), [text])
  return <div className="markdown-preview" data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />
}
