/**
 * The data boundary. Values cross between the sandbox and the host only as copies of plain JSON data
 * (spec: "arguments come in as copies, results go out as copies"): `toData` copies a sandbox value out following
 * JSON serialization semantics, `fromData` builds fresh sandbox objects from host data. Both stop at 32 nested
 * levels. Nothing here runs user code: accessors and user-defined `toJSON` methods are not invoked at the
 * boundary (NON-SPEC: JSON.stringify would call them); Date values serialize through their time value as
 * `toJSON` would.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { JSObject } from "../runtime/object.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import { EMPTY, SymbolValue, type Value } from "../runtime/value.ts"

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

/** Copies a sandbox value out as JSON data; `undefined` means "no JSON representation" (as JSON.stringify). */
export const toData = (v: Value, depth = 0, seen: Set<JSObject> = new Set()): DataValue | undefined => {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v
  if (typeof v === "number") return Number.isFinite(v) ? (Object.is(v, -0) ? 0 : v) : null
  if (v === undefined || v instanceof SymbolValue) return undefined
  if (typeof v === "bigint") throw new DataError("BigInt values cannot be serialized")
  if (v.isCallable()) return undefined
  if (v instanceof PrimitiveWrapper) return v.kind === "Symbol" ? undefined : toData(v.primitive, depth, seen)
  if (v.kind === "Date") {
    const t = (v as JSObject & { dateValue?: number }).dateValue
    return typeof t === "number" && Number.isFinite(t) ? new Date(t).toISOString() : null
  }
  if (depth >= MAX_DEPTH) throw new DataError(`Data is nested deeper than ${MAX_DEPTH} levels`)
  if (seen.has(v)) throw new DataError("Data contains a circular reference")
  seen.add(v)
  try {
    if (v instanceof ArrayObject) {
      const out: DataValue[] = []
      for (let i = 0; i < v.length; i++) {
        const own = v.getOwnElement(i)
        const item = own === undefined ? v.lookup(String(i))?.value : own === EMPTY ? v.proto?.lookup(String(i))?.value : own
        out.push(toData(item as Value, depth + 1, seen) ?? null)
      }
      return out
    }
    const out: Record<string, DataValue> = {}
    for (const key of v.OwnPropertyKeys()) {
      if (typeof key !== "string") continue
      const p = v.GetOwnProperty(key)
      if (p === undefined || !p.enumerable || p.accessor) continue
      const item = toData(p.value, depth + 1, seen)
      if (item !== undefined) setData(out, key, item)
    }
    return out
  } finally {
    seen.delete(v)
  }
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
 * (BigInt, cycles, more than 32 levels) is refused with a DataError. `undefined` means "no value".
 */
export const hostToData = (v: unknown, depth = 0, seen: Set<object> = new Set(), key = ""): DataValue | undefined => {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v
  if (typeof v === "number") return Number.isFinite(v) ? (Object.is(v, -0) ? 0 : v) : null
  if (v === undefined || typeof v === "function" || typeof v === "symbol") return undefined
  if (typeof v === "bigint") throw new DataError("BigInt values cannot be serialized")
  const o = v as object
  const toJSON = (o as { toJSON?: unknown }).toJSON
  if (typeof toJSON === "function") return hostToData(toJSON.call(o, key), depth, seen, key)
  if (o instanceof Map || o instanceof Set || o instanceof WeakMap || o instanceof WeakSet || o instanceof Promise || o instanceof ArrayBuffer || ArrayBuffer.isView(o)) {
    throw new DataError(`A ${o.constructor.name} is not plain data`)
  }
  if (depth >= MAX_DEPTH) throw new DataError(`Data is nested deeper than ${MAX_DEPTH} levels`)
  if (seen.has(o)) throw new DataError("Data contains a circular reference")
  seen.add(o)
  try {
    if (Array.isArray(o)) return o.map((x, i) => hostToData(x, depth + 1, seen, String(i)) ?? null)
    const out: Record<string, DataValue> = {}
    for (const k of Object.keys(o)) {
      const item = hostToData((o as Record<string, unknown>)[k], depth + 1, seen, k)
      if (item !== undefined) setData(out, k, item)
    }
    return out
  } finally {
    seen.delete(o)
  }
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
