/** JSON with object keys sorted, so equal values give equal text (request fingerprints, row seals, replayed call inputs). */
export const canonical = (value: unknown): string => {
  const sorted = inOrder(value, 0)
  return sorted === REPLACER ? JSON.stringify(value, sortKeys) : JSON.stringify(sorted)
}

const byKey = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0)

const sortKeys = (_: string, v: unknown): unknown =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(byKey)) : v

/** `inOrder` cannot tell what `sortKeys` would see: a `toJSON` may hand it another value. */
const REPLACER = Symbol("replacer")

/** Deeper than this, `inOrder` leaves the value to `sortKeys` (and so stops on a cycle, which `JSON.stringify` reports). */
const MAX_DEPTH = 32

/**
 * `value` with each object copied with its keys sorted (itself when they already are), which `JSON.stringify` then
 * writes as it writes `value` with `sortKeys`: a replacer costs it its fast path and a new object per object, four
 * fifths of a row seal's time, while the service's own values are mostly in order already.
 */
const inOrder = (value: unknown, depth: number): unknown => {
  if (typeof value !== "object" || value === null) return typeof value === "bigint" ? REPLACER : value
  if (depth > MAX_DEPTH || typeof (value as { toJSON?: unknown }).toJSON === "function") return REPLACER
  if (Array.isArray(value)) {
    let copy: Array<unknown> | undefined
    for (let i = 0; i < value.length; i++) {
      const item = inOrder(value[i], depth + 1)
      if (item === REPLACER) return REPLACER
      if (item !== value[i]) (copy ??= value.slice())[i] = item
    }
    return copy ?? value
  }
  const keys = Object.keys(value)
  const items: Array<unknown> = []
  let same = true
  for (let i = 0; i < keys.length; i++) {
    const v = (value as Record<string, unknown>)[keys[i]!]
    const item = inOrder(v, depth + 1)
    if (item === REPLACER) return REPLACER
    items.push(item)
    if (item !== v || (i > 0 && !(keys[i - 1]! < keys[i]!))) same = false
  }
  return same ? value : Object.fromEntries(keys.map((key, i): [string, unknown] => [key, items[i]]).sort(byKey))
}
