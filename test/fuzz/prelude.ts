/**
 * The JavaScript every fuzzed program starts with, on V8 and on our engines alike (so it is itself under test).
 * `__show` renders a value as text without running program code (no getters, no `toString`, no iterators): the
 * returned value is compared as that text, which keeps what JSON would lose (-0, undefined, NaN, holes, symbols,
 * accessors, prototypes; non-enumerable keys are sorted, as the order of built-ins' keys is the implementation's).
 * `__catch` logs every error a generated `catch` clause sees, so an error a program
 * swallows still reaches the comparison. Messages of errors the engine makes are reduced to their shape (empty
 * or not); those the program makes (`u<n>`) and those of documented caps stay verbatim.
 */
export const CAP_MESSAGES = [
  "Invalid string length",
  "Invalid array length",
  "Array buffer allocation failed",
  "Too many pending promises",
  "Maximum call stack size exceeded",
] as const

export const PRELUDE = `const __caps = ${JSON.stringify(CAP_MESSAGES)}
const __msg = (m) => typeof m !== "string" ? typeof m : /^u\\d+$/.test(m) || __caps.includes(m) ? m : m === "" ? "" : "<msg>"
const __data = (o, k) => {
  for (let p = o; p !== null; p = Object.getPrototypeOf(p)) {
    const d = Object.getOwnPropertyDescriptor(p, k)
    if (d !== undefined) return "value" in d ? d.value : undefined
  }
  return undefined
}
const __show = (v, depth = 0, seen = []) => {
  const t = typeof v
  if (v === null) return "null"
  if (t === "undefined") return "undefined"
  if (t === "number") return Object.is(v, -0) ? "-0" : String(v)
  if (t === "bigint") return String(v) + "n"
  if (t === "string") return JSON.stringify(v)
  if (t === "boolean") return String(v)
  if (t === "symbol") return "Symbol(" + String(v.description) + ")"
  if (seen.includes(v)) return "<cycle>"
  if (depth > 3) return "<deep>"
  seen = [...seen, v]
  if (t === "function") return "fn " + JSON.stringify(__data(v, "name")) + "/" + String(__data(v, "length"))
  if (Error.isError(v)) return "error " + String(__data(v, "name")) + ": " + __msg(__data(v, "message"))
  if (v instanceof Promise) return "promise"
  const proto = Object.getPrototypeOf(v)
  const ctor = proto === null ? "null" : __data(proto, "constructor")
  let tag = proto === Object.prototype ? "" : proto === Array.prototype ? "array " : (typeof ctor === "function" ? String(__data(ctor, "name")) : "?") + " "
  if (v instanceof Map) tag += "{" + Array.from(Map.prototype.entries.call(v), ([k, x]) => __show(k, depth + 1, seen) + "=>" + __show(x, depth + 1, seen)).join(", ") + "} "
  if (v instanceof Set) tag += "{" + Array.from(Set.prototype.values.call(v), (x) => __show(x, depth + 1, seen)).join(", ") + "} "
  // Non-enumerable keys (mostly built-ins', whose creation order ECMA-262 leaves to the implementation) sorted.
  const keys = Reflect.ownKeys(v)
  const hidden = keys.filter((k) => !Object.getOwnPropertyDescriptor(v, k).enumerable)
  const order = (k) => (typeof k === "symbol" ? "~" + String(k.description) : k)
  hidden.sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
  const parts = [...keys.filter((k) => !hidden.includes(k)), ...hidden].map((k) => {
    const d = Object.getOwnPropertyDescriptor(v, k)
    const name = typeof k === "symbol" ? "[" + __show(k) + "]" : k
    const flags = (d.enumerable ? "" : "~") + (d.configurable ? "" : "!") + ("value" in d && !d.writable ? "r" : "")
    const body = "value" in d ? __show(d.value, depth + 1, seen) : "get " + (d.get !== undefined) + " set " + (d.set !== undefined)
    return flags + name + ": " + body
  })
  return tag + (Object.isExtensible(v) ? "" : "sealed? " + Object.isFrozen(v) + " ") + "{" + parts.join(", ") + "}"
}
const __catch = (e) => {
  console.log("caught " + __show(e))
  return e
}
`
