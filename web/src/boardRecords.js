// Which of the editor's records belong to the room's board: the server keeps shapes, arrow
// bindings and the image/video assets shapes show; pages, the document record, cameras and the like
// are this page's own.
export const BOARD_TYPES = new Set(['shape', 'binding', 'asset'])

export const PREVIEW_PREFIX = 'shape:preview_'

export function isBoardRecord(record) {
  return record && BOARD_TYPES.has(record.typeName) && !isPreviewId(record.id)
}

export function isPreviewId(id) {
  return typeof id === 'string' && id.startsWith(PREVIEW_PREFIX)
}

/** The board as this page holds it, sorted by id: what the end-to-end tests compare with the server's. */
export function boardSnapshot(editor) {
  return editor.store
    .allRecords()
    .filter(isBoardRecord)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
}
