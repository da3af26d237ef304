// What the page's address says: ?room=demo&session=…&doc=…&token=…
const ID = /^[A-Za-z0-9_-]{1,64}$/

export function readPageParams(search = window.location.search) {
  const query = new URLSearchParams(search)
  const id = (name, fallback) => {
    const value = query.get(name)
    return value && ID.test(value) ? value : fallback
  }
  return {
    roomId: id('room', 'demo'),
    sessionId: id('session', null),
    docId: id('doc', null),
    // With auth on, the token a person was given; sent as Authorization (HTTP) and headers.authorization (bus).
    token: query.get('token') || null,
  }
}

/** Keeps the page's address in step with what is open, so a reload or a shared link opens the same. */
export function writePageParam(name, value) {
  const url = new URL(window.location.href)
  if (value) {
    url.searchParams.set(name, value)
  } else {
    url.searchParams.delete(name)
  }
  window.history.replaceState(null, '', url)
}
