/**
 * The data boundary. Values cross between the sandbox and the host only as copies of plain JSON data
 * (spec: "arguments come in as copies, results go out as copies"): `toData` copies a sandbox value out following
 * JSON serialization semantics, `fromData` builds fresh sandbox objects from host data. Both stop at 32 nested
 * levels and, measured as JSON text, at the longest string a program can build (`DataBudget`). Nothing here runs user
 * code: accessors and user-defined `toJSON` methods are not invoked at the boundary (NON-SPEC: JSON.stringify would
 * call them); Date values serialize through their time value as `toJSON` would.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { Caps } from "../runtime/caps.ts"
import { JSObject } from "../runtime/object.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import { EMPTY, type Value } from "../runtime/value.ts"

/**
 * @since 0.1.0
 * @category models
 */
export type DataValue = null | boolean | number | string | ReadonlyArray<DataValue> | { readonly [key: string]: DataValue }

export const MAX_DEPTH = 32

export class DataError {
  readonly message: string
  constructor(message: string) {
    this.message = message
  }
}

/**
 * How much JSON text a copy may still amount to. Shared references are copied apart, so a program's small graph
 * (`x = { a: x, b: x }`, forty times) can stand for more data than any host could hold; and a sparse array's
 * `length` can be 2^32 - 1. Every copy across the boundary pays for its JSON text as it goes (generously: numbers and
 * escapes at their longest) and stops at the longest string a program can build, so it is refused in time
 * proportional to that cap, never to the size it claims.
 */
export class DataBudget {
  private remaining: number = Caps.maxStringLength
  spend(chars: number): void {
    this.remaining -= chars
    if (this.remaining < 0) throw new DataError(`Data is larger than ${Caps.maxStringLength} characters of JSON (an object or array counts ${CONTAINER_COST})`)
  }
  /**
   * An array or object of `n` entries: each entry costs at least two characters (`0,`), paid before copying them,
   * and the container itself what copying it costs the host rather than its two brackets — so a graph of shared
   * objects is refused after at most a million copies, in about a second.
   */
  entries(n: number): void {
    if (n * 2 > this.remaining) this.spend(n * 2)
    this.spend(CONTAINER_COST)
  }
  string(s: string): void {
    this.spend(s.length + 2)
    // An escaped character takes up to six.
    if (NEEDS_ESCAPE.test(s)) this.spend(5 * countEscapes(s))
  }
  number(n: number): void {
    this.spend(Number.isSafeInteger(n) && Math.abs(n) < 1e9 ? 11 : 24)
  }
}

const CONTAINER_COST = 128

/** What JSON.stringify escapes: control characters, `"`, `\\`, and lone surrogates. */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const countEscapes = (s: string): number => {
  let n = 0
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c === 0x22 || c === 0x5c) n++
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++
    else if (c >= 0xd800 && c <= 0xdfff) n++
  }
  return n
}

/** `primitiveData` of a value that is not a JSON primitive. */
const NOT_PRIMITIVE: unique symbol = Symbol("not primitive")

/** A JSON primitive as it is copied (non-finite numbers become null, -0 becomes 0); a BigInt is refused. */
const primitiveData = (v: unknown, budget: DataBudget): DataValue | typeof NOT_PRIMITIVE => {
  if (v === null || typeof v === "boolean") {
    budget.spend(5)
    return v
  }
  if (typeof v === "string") {
    budget.string(v)
    return v
  }
  if (typeof v === "number") {
    budget.number(v)
    return Number.isFinite(v) ? (Object.is(v, -0) ? 0 : v) : null
  }
  if (typeof v === "bigint") throw new DataError("BigInt values cannot be serialized")
  return NOT_PRIMITIVE
}

/** Copies the container `o` with `fill`, refusing it past MAX_DEPTH or when it is already being copied (a cycle). */
const container = <D extends DataValue>(o: object, depth: number, seen: Set<object>, fill: () => D): D => {
  if (depth >= MAX_DEPTH) throw new DataError(`Data is nested deeper than ${MAX_DEPTH} levels`)
  if (seen.has(o)) throw new DataError("Data contains a circular reference")
  seen.add(o)
  try {
    return fill()
  } finally {
    seen.delete(o)
  }
}

/** An array of `n` items; an item without a JSON representation becomes null, as in JSON.stringify. */
const arrayData = (n: number, budget: DataBudget, item: (i: number) => DataValue | undefined): DataValue[] => {
  budget.entries(n)
  const out: DataValue[] = []
  for (let i = 0; i < n; i++) out.push(item(i) ?? null)
  return out
}

/** An object of the string keys among `keys`; an entry without a JSON representation is left out. */
const objectData = (keys: ReadonlyArray<unknown>, budget: DataBudget, item: (key: string) => DataValue | undefined): Record<string, DataValue> => {
  budget.entries(keys.length)
  const out: Record<string, DataValue> = {}
  for (const key of keys) {
    if (typeof key !== "string") continue
    const value = item(key)
    if (value === undefined) continue
    budget.string(key)
    setData(out, key, value)
  }
  return out
}

/** Copies a sandbox value out as JSON data; `undefined` means "no JSON representation" (as JSON.stringify). */
export const toData = (v: Value, depth = 0, seen: Set<object> = new Set(), budget: DataBudget = new DataBudget()): DataValue | undefined => {
  const primitive = primitiveData(v, budget)
  if (primitive !== NOT_PRIMITIVE) return primitive
  if (!(v instanceof JSObject) || v.isCallable()) return undefined
  if (v instanceof PrimitiveWrapper) return v.kind === "Symbol" ? undefined : toData(v.primitive, depth, seen, budget)
  if (v.kind === "Date") {
    const t = (v as JSObject & { dateValue?: number }).dateValue
    budget.spend(30)
    return typeof t === "number" && Number.isFinite(t) ? new Date(t).toISOString() : null
  }
  if (v instanceof ArrayObject) {
    return container(v, depth, seen, () =>
      arrayData(v.length, budget, (i) => {
        const own = v.getOwnElement(i)
        const item = own === undefined ? v.lookup(String(i))?.value : own === EMPTY ? v.proto?.lookup(String(i))?.value : own
        return toData(item as Value, depth + 1, seen, budget)
      }),
    )
  }
  return container(v, depth, seen, () =>
    objectData(v.OwnPropertyKeys(), budget, (key) => {
      const p = v.GetOwnProperty(key)
      return p === undefined || !p.enumerable || p.accessor ? undefined : toData(p.value, depth + 1, seen, budget)
    }),
  )
}

/** `out[key] = value`, also for the key `__proto__` (which plain assignment would treat as the prototype). */
const setData = (out: Record<string, DataValue>, key: string, value: DataValue): void => {
  if (key === "__proto__") Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  else out[key] = value
}

/**
 * Copies a host value (a tool's output, a ToolError's data) as JSON data, with JSON.stringify's semantics: `toJSON`
 * is honoured (a Date becomes its ISO string, a class instance its own enumerable fields), functions, symbols and
 * `undefined` are left out of objects and become `null` in arrays, non-finite numbers become `null`. What JSON would
 * silently turn into `{}` but is clearly not data (Map, Set, Promise, binary buffers) and what it cannot represent
 * (BigInt, cycles, more than 32 levels, more than `DataBudget` allows) is refused with a DataError. A `toJSON` that
 * returns another object counts as a level, so one returning a fresh object every time ends. `undefined` means
 * "no value".
 */
export const hostToData = (v: unknown, depth = 0, seen: Set<object> = new Set(), key = "", budget: DataBudget = new DataBudget()): DataValue | undefined => {
  const primitive = primitiveData(v, budget)
  if (primitive !== NOT_PRIMITIVE) return primitive
  if (typeof v !== "object" || v === null) return undefined
  const o = v
  const toJSON = (o as { toJSON?: unknown }).toJSON
  if (typeof toJSON === "function") {
    const replaced: unknown = toJSON.call(o, key)
    if (typeof replaced === "object" && replaced !== null && depth >= MAX_DEPTH) throw new DataError(`Data is nested deeper than ${MAX_DEPTH} levels`)
    return hostToData(replaced, typeof replaced === "object" && replaced !== null ? depth + 1 : depth, seen, key, budget)
  }
  if (o instanceof Map || o instanceof Set || o instanceof WeakMap || o instanceof WeakSet || o instanceof Promise || o instanceof ArrayBuffer || ArrayBuffer.isView(o)) {
    throw new DataError(`A ${o.constructor.name} is not plain data`)
  }
  if (Array.isArray(o)) return container(o, depth, seen, () => arrayData(o.length, budget, (i) => hostToData(o[i], depth + 1, seen, String(i), budget)))
  return container(o, depth, seen, () =>
    objectData(Object.keys(o), budget, (k) => hostToData((o as Record<string, unknown>)[k], depth + 1, seen, k, budget)),
  )
}

/** Builds sandbox values from host JSON data. */
export const fromData = (realm: Realm, d: unknown, depth = 0): Value => {
  if (d === null || d === undefined || typeof d === "boolean" || typeof d === "number" || typeof d === "string") return d
  if (typeof d === "bigint") return d
  if (depth >= MAX_DEPTH) throw new DataError(`Data is nested deeper than ${MAX_DEPTH} levels`)
  if (Array.isArray(d)) return new ArrayObject(realm.ArrayPrototype, d.map((x) => fromData(realm, x, depth + 1)))
  if (typeof d === "object") {
    const o = new JSObject(realm.ObjectPrototype)
    for (const [k, x] of Object.entries(d)) {
      if (x === undefined) continue
      o.properties.set(k, Property.data(fromData(realm, x, depth + 1)))
    }
    return o
  }
  throw new DataError(`A ${typeof d} is not plain data`)
}
