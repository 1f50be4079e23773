/**
 * Is a returned value plain data that every side reports identically? JSON.stringify silently rewrites some
 * values (NaN and -0 become null and 0, `undefined` properties vanish, class instances lose their prototype,
 * array holes become null), and the engine's own data copy is free to treat those differently. A corpus program
 * must return values that survive every such copy unchanged, so the comparison tests the language, not the copy.
 */

/** Deeper than this risks the engine's boundary-data nesting limit (32). */
export const MAX_DEPTH = 20

/** The first problem found, as "<path>: <what>", or undefined when `v` is plain data. */
export const plainDataProblem = (v: unknown, path = "value", depth = 0): string | undefined => {
  if (depth > MAX_DEPTH) return `${path}: nested deeper than ${MAX_DEPTH}`
  if (v === null || typeof v === "boolean" || typeof v === "string") return undefined
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return `${path}: ${v} (JSON turns it into null)`
    if (Object.is(v, -0)) return `${path}: -0 (JSON turns it into 0)`
    return undefined
  }
  if (typeof v !== "object") return `${path}: ${typeof v} is not JSON data`
  // Objects come from the program's realm, so compare prototypes structurally rather than by identity.
  const proto = Object.getPrototypeOf(v) as object | null
  const protoIsBase = proto !== null && Object.getPrototypeOf(proto) === null
  const tag = Object.prototype.toString.call(v)
  const descriptors = Object.getOwnPropertyDescriptors(v)
  if (Object.getOwnPropertySymbols(v).length > 0) return `${path}: has symbol keys`
  for (const [key, d] of Object.entries(descriptors)) {
    if (Array.isArray(v) && key === "length") continue
    if (!("value" in d)) return `${path}.${key}: accessor property`
    if (!d.enumerable) return `${path}.${key}: non-enumerable property`
  }
  if (Array.isArray(v)) {
    if (proto === null || !protoIsArrayPrototype(proto)) return `${path}: array with a non-standard prototype`
    if (Object.keys(v).length !== v.length) return `${path}: array with holes or extra properties`
    for (let i = 0; i < v.length; i++) {
      const p = plainDataProblem(v[i], `${path}[${i}]`, depth + 1)
      if (p !== undefined) return p
    }
    return undefined
  }
  if (tag !== "[object Object]" || !protoIsBase) return `${path}: not a plain object (${tag})`
  for (const [key, d] of Object.entries(descriptors)) {
    const p = plainDataProblem(d.value, `${path}.${key}`, depth + 1)
    if (p !== undefined) return p
  }
  return undefined
}

// Array.prototype of any realm: its own prototype is that realm's Object.prototype and it has an own `push`.
const protoIsArrayPrototype = (proto: object): boolean => {
  const up = Object.getPrototypeOf(proto) as object | null
  return up !== null && Object.getPrototypeOf(up) === null && Object.hasOwn(proto, "push")
}
