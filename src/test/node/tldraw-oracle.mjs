// The Java tests' window on tldraw itself: one JSON request per stdin line, one JSON answer per
// stdout line, in order. Answers come from @tldraw/tlschema's own code, never from a copy of it.
//
//   {"op":"validate","records":[...]}        -> {"results":[{"id","ok","error"?}]}
//   {"op":"encodePoints","points":[{x,y,z}]} -> {"path":"..."}          ("dim": 2 | 3 optional)
//   {"op":"decodePoints","path":"..."}       -> {"points":[{x,y,z}]}    ("dim": 2 | 3 optional;
//                                               -0, NaN and ±Infinity as the strings "-0", "NaN", ...)
//
// A request that cannot be answered gets {"error":"..."}; the process keeps serving.
import { createInterface } from 'node:readline'

// stdout carries answers only: whatever a library prints goes to stderr.
for (const level of ['log', 'info', 'warn', 'debug']) {
  console[level] = (...args) => console.error(...args)
}

const { createTLSchema, b64Vecs } = await import('@tldraw/tlschema')
const schema = createTLSchema()

function validate(record) {
  const id = record && typeof record === 'object' ? record.id : undefined
  const type = record && typeof record === 'object' ? schema.types[record.typeName] : undefined
  if (!type) {
    return { id, ok: false, error: `unknown typeName ${JSON.stringify(record?.typeName)}` }
  }
  try {
    type.validate(record)
    return { id, ok: true }
  } catch (error) {
    return { id, ok: false, error: String(error?.message ?? error) }
  }
}

// JSON has no -0, NaN or Infinity; a decoded delta can be any of them, so they travel as strings.
function exactNumber(value) {
  if (Object.is(value, -0)) return '-0'
  return Number.isFinite(value) ? value : String(value)
}

function exactPoint({ x, y, z }) {
  return { x: exactNumber(x), y: exactNumber(y), z: exactNumber(z) }
}

function answer(request) {
  switch (request.op) {
    case 'validate':
      return { results: request.records.map(validate) }
    case 'encodePoints':
      return { path: b64Vecs.encodePoints(request.points, request.dim) }
    case 'decodePoints':
      return { points: b64Vecs.decodePoints(request.path, request.dim).map(exactPoint) }
    default:
      return { error: `unknown op ${JSON.stringify(request.op)}` }
  }
}

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity })
for await (const line of lines) {
  if (line.trim() === '') continue
  let response
  try {
    response = answer(JSON.parse(line))
  } catch (error) {
    response = { error: String(error?.stack ?? error) }
  }
  process.stdout.write(JSON.stringify(response) + '\n')
}
