import { Box } from 'tldraw'
import { isPreviewId } from './boardRecords.js'

export const SCREENSHOT_MAX_SIDE = 800

/**
 * What the page shows the agent on request: a screenshot request (sent to the host only) answered from
 * `editor.toImage` — the requested bounds or the viewport, scaled so the longest side is at most the
 * request's `maxSize` (800 px by default) — with the viewport, selection and board revision it shows.
 */
export async function answerScreenshot(editor, connection, request, revision) {
  const viewportBox = editor.getViewportPageBounds()
  const viewport = { x: viewportBox.x, y: viewportBox.y, w: viewportBox.w, h: viewportBox.h }
  const b = request.bounds && request.bounds.w > 0 && request.bounds.h > 0 ? request.bounds : viewport
  const bounds = { x: b.x, y: b.y, w: b.w, h: b.h }
  const maxW = request.maxSize?.w > 0 ? request.maxSize.w : SCREENSHOT_MAX_SIDE
  const maxH = request.maxSize?.h > 0 ? request.maxSize.h : SCREENSHOT_MAX_SIDE
  const scale = Math.min(1, maxW / bounds.w, maxH / bounds.h)
  const shapes = [...editor.getCurrentPageShapeIds()].filter((id) => !isPreviewId(id))
  let blob = null
  if (shapes.length > 0) {
    try {
      const image = await editor.toImage(shapes, {
        format: 'png',
        bounds: new Box(bounds.x, bounds.y, bounds.w, bounds.h),
        scale,
        pixelRatio: 1,
        background: true,
        padding: 0,
      })
      blob = image.blob
    } catch (error) {
      console.warn('[canvas-agent] toImage failed; answering with a blank image', error)
    }
  }
  if (!blob) blob = await blankImage(Math.max(1, Math.round(bounds.w * scale)), Math.max(1, Math.round(bounds.h * scale)))
  const dataUrl = await blobToDataUrl(blob)
  const reply = {
    type: 'agent:screenshot',
    sessionId: request.sessionId,
    requestId: request.requestId,
    image: { mime: 'image/png', dataUrl, bytes: blob.size },
    bounds,
    viewport,
    selection: editor.getSelectedShapeIds().filter((id) => !isPreviewId(id)),
    docVersion: String(revision ?? 0),
  }
  await connection.send('agent:screenshot', reply)
  return reply
}

function blankImage(width, height) {
  const canvas = document.createElement('canvas')
  canvas.width = width
  canvas.height = height
  const context = canvas.getContext('2d')
  context.fillStyle = '#ffffff'
  context.fillRect(0, 0, width, height)
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'))
}

function blobToDataUrl(blob) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(reader.result)
    reader.onerror = () => reject(reader.error)
    reader.readAsDataURL(blob)
  })
}
