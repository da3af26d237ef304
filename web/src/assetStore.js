// The room's images and videos, as tldraw's asset store (TLAssetStore): a file a person pastes or
// drops is uploaded to the server, which names it by its content; the asset record on the board then
// says `src: "asset:<id>"`, never a URL, so it means the same on every page whatever host or token the
// page has. Each page turns it into the URL it can load: `<img>` sends no Authorization header, so
// with auth on the token goes in the query (the server accepts `access_token` on an asset's bytes).
const UPLOADED = /^asset:([0-9a-f]{64})$/

export function createAssetStore({ roomId, token }) {
  const base = `/api/rooms/${encodeURIComponent(roomId)}/assets`
  return {
    async upload(asset, file, abortSignal) {
      const headers = { 'content-type': 'application/octet-stream' }
      if (token) headers.authorization = `Bearer ${token}`
      const response = await fetch(base, { method: 'POST', headers, body: file, signal: abortSignal })
      const json = await response.json().catch(() => null)
      if (!response.ok || !json?.ok) {
        const error = json?.error ?? { code: `HTTP_${response.status}`, message: response.statusText }
        throw new Error(`${error.code}: ${error.message}`)
      }
      return { src: json.src }
    },
    resolve(asset) {
      const src = asset?.props?.src
      if (!src) return null
      const uploaded = UPLOADED.exec(src)
      // The server keeps no other src; one the page made itself (a preview) is used as it is.
      if (!uploaded) return src
      return `${base}/${uploaded[1]}${token ? `?access_token=${encodeURIComponent(token)}` : ''}`
    },
  }
}
