/**
 * Values crossing between a program and an extension (spec "Extension.make": "Every value crossing in either
 * direction is converted, never shared"). Richer than tools' JSON data (data.ts), because extension functions are
 * host functions a program calls like its own:
 *
 * - Arguments (`toHost`): primitives (`undefined`, BigInt, NaN and -0 included), arrays, plain objects and class
 *   instances (own enumerable data properties; accessors are not run), Date, RegExp, Map, Set, errors, ArrayBuffer
 *   and typed arrays become fresh host values, shared references and cycles kept. Symbols, functions and other
 *   objects (promises, WeakMaps...) cannot cross: a TypeError at the call.
 * - Results and thrown values (`toWire`, then `fromWire` in the realm): the same kinds, plus functions. An object
 *   that is not plain (a class instance, a `Response`) is copied with its own enumerable properties and, as
 *   non-enumerable properties, the methods and getter values of its prototypes below Object.prototype: the copy
 *   offers what the host object offered (an error keeps the sandbox's own prototype methods). A function anywhere in a result becomes a sandbox function that calls it (the value holding
 *   it is kept host side, by the id of the call that returned it: sandbox-extensions.ts); a Promise inside a
 *   result, a WeakMap and the like cannot be copied. Cycles are refused and shared references copied apart, as for
 *   tools; nesting is limited to 32 levels, and size to what `DataBudget` allows (arguments keep shared references,
 *   so only their arrays' and objects' entries count: a sparse array's `length` cannot make the host loop).
 *
 * A result is first put in a wire form that is JSON (`Wire`), because an asynchronous call's outcome waits in the
 * run's inbox, which a suspended run saves. The same form carries the plain data of extension `snapshot` hooks
 * (`plainToWire` / `wireToPlain`: JSON values and Uint8Arrays only).
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { ErrorObject, CreateErrorObject } from "../runtime/errors.ts"
import { JSObject } from "../runtime/object.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import { EMPTY, SymbolValue, type Value } from "../runtime/value.ts"
import type { ErrorType } from "../runtime/completion.ts"
import {
  ArrayBufferObject,
  CreateArrayBufferFromBytes,
  ElementInfoOf,
  IsTypedArrayOutOfBounds,
  TypedArrayObject,
  typedArrayBytes,
  type TypedArrayName,
} from "../intrinsics/bytes-objects.ts"
import { DateObject } from "../intrinsics/date.ts"
import { MapObject, SetObject } from "../intrinsics/map-set.ts"
import { RegExpCreateLiteral, RegExpObject } from "../intrinsics/regexp.ts"
import { useLinearFallback } from "../intrinsics/regexp-matcher/index.ts"
import { base64ToBytes, bytesToBase64, numberTag, taggedNumber } from "../snapshot/json-scalars.ts"
import { DataBudget, DataError, MAX_DEPTH, type DataValue } from "./data.ts"
import { isAsyncFunction } from "./extension.ts"

/** A value in transit from the host to a program: JSON, with tagged arrays for everything JSON lacks. */
export type Wire = DataValue

/** Where a function inside a result comes from: enough to find it again and to name its calls. */
export interface FunctionRef {
  readonly extension: string
  /** The call whose result holds the function (0: one of the extension's globals). */
  readonly valueId: number
  /** Keys from that result (or the global) to the function. */
  readonly path: ReadonlyArray<string>
  readonly async: boolean
  /** The name hooks receive: `fs.readFile`, `fetch().text`. */
  readonly hookName: string
  /** The function's `name` and `length` in the sandbox. */
  readonly name: string
  readonly length: number
}

const ERROR_TYPES = new Set<string>(["Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"])

const fromBase64 = (text: Wire | undefined): Uint8Array => {
  const bytes = base64ToBytes(text)
  if (bytes === undefined) throw new DataError("malformed bytes")
  return bytes
}

/** `.key` or `[key]`, as a program would write the access. */
const accessText = (key: string): string => (/^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : /^(?:0|[1-9]\d*)$/.test(key) ? `[${key}]` : `[${JSON.stringify(key)}]`)

// ---------------------------------------------------------------------------------------------------------------
// Sandbox -> host (arguments)

/** A fresh host copy of a sandbox value; DataError for what cannot cross. Runs no program code. */
export const toHost = (v: Value, depth = 0, seen: Map<JSObject, unknown> = new Map(), budget: DataBudget = new DataBudget()): unknown => {
  if (!(v instanceof JSObject)) {
    if (v instanceof SymbolValue) throw new DataError("a Symbol cannot be passed to the host")
    return v
  }
  const known = seen.get(v)
  if (known !== undefined) return known
  if (v.isCallable()) throw new DataError("a function cannot be passed to the host")
  if (depth >= MAX_DEPTH) throw new DataError(`Data is nested deeper than ${MAX_DEPTH} levels`)
  if (v instanceof PrimitiveWrapper) {
    if (v.primitive instanceof SymbolValue) throw new DataError("a Symbol cannot be passed to the host")
    return v.primitive
  }
  if (v instanceof DateObject) return remember(seen, v, new Date(v.dateValue))
  if (v instanceof RegExpObject) {
    // The host runs a pattern the program chose: a catastrophic one must finish on V8's linear-time engine too.
    useLinearFallback()
    return remember(seen, v, new RegExp(v.originalSource, v.originalFlags))
  }
  if (v instanceof ArrayBufferObject) {
    if (v.data === null) throw new DataError("a detached ArrayBuffer cannot be passed to the host")
    return remember(seen, v, v.data.slice().buffer)
  }
  if (v instanceof TypedArrayObject) {
    if (IsTypedArrayOutOfBounds(v)) throw new DataError("a detached typed array cannot be passed to the host")
    const Ctor = (globalThis as unknown as Record<string, new (b: ArrayBuffer) => unknown>)[v.typedArrayName]
    if (Ctor === undefined) throw new DataError(`a ${v.typedArrayName} cannot be passed to this host`)
    return remember(seen, v, new Ctor(typedArrayBytes(v).slice().buffer))
  }
  if (v instanceof MapObject) {
    const out = remember(seen, v, new Map())
    for (const k of v.liveKeys()) {
      budget.entries(1)
      out.set(toHost(k, depth + 1, seen, budget), toHost(v.getEntry(k), depth + 1, seen, budget))
    }
    return out
  }
  if (v instanceof SetObject) {
    const out = remember(seen, v, new Set())
    for (const k of v.liveKeys()) {
      budget.entries(1)
      out.add(toHost(k, depth + 1, seen, budget))
    }
    return out
  }
  if (v instanceof ErrorObject) {
    const name = dataOf(v, "name")
    const message = dataOf(v, "message")
    const out = remember(seen, v, new Error(typeof message === "string" ? message : ""))
    if (typeof name === "string" && name !== "Error") out.name = name
    copyOwn(v, out as unknown as Record<string, unknown>, depth, seen, budget, new Set(["message", "stack"]))
    return out
  }
  if (v instanceof ArrayObject) {
    const out: unknown[] = remember(seen, v, [])
    budget.entries(v.length)
    for (let i = 0; i < v.length; i++) {
      const own = v.getOwnElement(i)
      const item = own === undefined ? v.lookup(String(i))?.value : own === EMPTY ? undefined : own
      out.push(toHost(item as Value, depth + 1, seen, budget))
    }
    return out
  }
  if (v.kind !== "Object") throw new DataError(`${v.kind === "Function" ? "a function" : `a ${v.kind}`} cannot be passed to the host`)
  const out = remember(seen, v, {} as Record<string, unknown>)
  copyOwn(v, out, depth, seen, budget, new Set())
  return out
}

const remember = <T>(seen: Map<JSObject, unknown>, v: JSObject, out: T): T => {
  seen.set(v, out)
  return out
}

const dataOf = (o: JSObject, key: string): Value => {
  const p = o.lookup(key)
  return p === undefined || p.accessor ? undefined : p.value
}

/** The own enumerable string-keyed data properties (accessors are not run, as for tools' data). */
const copyOwn = (v: JSObject, out: Record<string, unknown>, depth: number, seen: Map<JSObject, unknown>, budget: DataBudget, skip: ReadonlySet<string>): void => {
  const keys = v.OwnPropertyKeys()
  budget.entries(keys.length)
  for (const key of keys) {
    if (typeof key !== "string" || skip.has(key)) continue
    const p = v.GetOwnProperty(key)
    if (p === undefined || !p.enumerable || p.accessor) continue
    Object.defineProperty(out, key, { value: toHost(p.value, depth + 1, seen, budget), writable: true, enumerable: true, configurable: true })
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Host -> wire (results, thrown values)

export interface WireContext {
  readonly extension: string
  /** The id the value is kept under if it holds functions. */
  readonly valueId: number
  /** How the call that returned it is named (`fetch()`): the prefix of its functions' hook names. */
  readonly prefix: string
  /** Set when a function was met: the value must be kept for its functions to be callable. */
  holdsFunctions: boolean
}

/** Stands for the key of an entry of a Map or Set in a path: a function there could not be found again. */
const ENTRY = "\u0000entry"

/**
 * The wire form of a host value; DataError for what cannot be copied. `base` is the path of the value itself
 * (a global's name), which hook names leave out.
 */
export const toWire = (ctx: WireContext, v: unknown, base: ReadonlyArray<string> = []): Wire => {
  const seen = new Set<object>()
  const budget = new DataBudget()
  const go = (x: unknown, path: ReadonlyArray<string>, depth: number): Wire => {
    if (typeof x === "string") {
      budget.string(x)
      return x
    }
    if (typeof x === "number") {
      budget.number(x)
      return numberWire(x)
    }
    budget.spend(8)
    if (x === null || typeof x === "boolean") return x
    if (x === undefined || typeof x === "symbol") return ["u"]
    if (typeof x === "bigint") {
      const digits = x.toString()
      budget.spend(digits.length)
      return ["b", digits]
    }
    if (typeof x === "function") {
      if (path.includes(ENTRY)) throw new DataError("A function inside a Map or a Set cannot be copied")
      ctx.holdsFunctions = true
      const hookName = ctx.prefix + path.slice(base.length).map(accessText).join("")
      const own = path.length === 0 ? read(x, "name") : path[path.length - 1]!
      const length = read(x, "length")
      return ["f", ctx.extension, ctx.valueId, [...path], isAsyncFunction(x), hookName, typeof own === "string" ? own : "", typeof length === "number" ? length : 0]
    }
    const o = x as object
    if (depth >= MAX_DEPTH) throw new DataError(`Data is nested deeper than ${MAX_DEPTH} levels`)
    if (seen.has(o)) throw new DataError("Data contains a circular reference")
    seen.add(o)
    try {
      return objectWire(o, path, depth)
    } finally {
      seen.delete(o)
    }
  }
  const objectWire = (o: object, path: ReadonlyArray<string>, depth: number): Wire => {
    const child = (key: string, value: unknown): Wire => go(value, [...path, key], depth + 1)
    if (o instanceof Date) return ["d", numberWire(o.getTime())]
    if (o instanceof RegExp) return ["r", o.source, o.flags]
    if (o instanceof ArrayBuffer) return ["ab", bytesWire(new Uint8Array(o))]
    if (ArrayBuffer.isView(o)) {
      if (o instanceof DataView) throw new DataError("A DataView is not supported")
      const name = typedArrayNameOf(o)
      return ["t", name, bytesWire(new Uint8Array(o.buffer, o.byteOffset, o.byteLength))]
    }
    if (o instanceof Map) {
      const out: Wire[] = ["m"]
      budget.entries(o.size * 2)
      for (const [k, x] of o) {
        out.push(child(ENTRY, k), child(ENTRY, x))
      }
      return out
    }
    if (o instanceof Set) {
      const out: Wire[] = ["s"]
      budget.entries(o.size)
      for (const k of o) out.push(child(ENTRY, k))
      return out
    }
    if (o instanceof Promise || o instanceof WeakMap || o instanceof WeakSet || (typeof WeakRef !== "undefined" && o instanceof WeakRef)) {
      throw new DataError(`A ${o.constructor.name} cannot be copied`)
    }
    if (Array.isArray(o)) {
      const out: Wire[] = ["a"]
      const n = o.length
      budget.entries(n)
      for (let i = 0; i < n; i++) out.push(child(String(i), o[i]))
      return out
    }
    if (o instanceof Error) {
      const name = read(o, "name")
      const message = read(o, "message")
      budget.spend((typeof name === "string" ? name.length : 0) + (typeof message === "string" ? message.length : 0))
      return ["e", typeof name === "string" ? name : "Error", typeof message === "string" ? message : "", membersWire(o, child, new Set(["name", "message", "stack"]), false)]
    }
    return membersWire(o, child, new Set(), true)
  }
  /** `["o", [enumerable key, value, ...], [hidden key, value, ...]]`; an error's prototypes are the sandbox's own. */
  const membersWire = (o: object, child: (key: string, value: unknown) => Wire, skip: ReadonlySet<string>, prototypes: boolean): Wire => {
    const shown: Wire[] = []
    const hidden: Wire[] = []
    const keys = new Set<string>(skip)
    const own = Object.keys(o)
    budget.entries(own.length)
    for (const key of own) {
      keys.add(key)
      const value = read(o, key)
      budget.string(key)
      if (value !== NO_VALUE) shown.push(key, child(key, value))
    }
    // A class instance offers its prototypes' methods and getters too; the copy offers them as hidden properties.
    for (let proto = prototypes ? Object.getPrototypeOf(o) : null; proto !== null && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
      for (const key of Object.getOwnPropertyNames(proto)) {
        if (key === "constructor" || keys.has(key)) continue
        keys.add(key)
        const desc = Object.getOwnPropertyDescriptor(proto, key)!
        if (desc.get === undefined && typeof desc.value !== "function") continue
        const value = read(o, key)
        budget.string(key)
        if (value !== NO_VALUE) hidden.push(key, child(key, value))
      }
    }
    return ["o", shown, hidden]
  }
  const bytesWire = (bytes: Uint8Array): string => {
    budget.spend(Math.ceil(bytes.byteLength / 3) * 4)
    return bytesToBase64(bytes)
  }
  return go(v, base, 0)
}

const NO_VALUE = Symbol("no value")

/** `o[key]`; a getter that throws leaves the property out. */
const read = (o: object, key: string): unknown => {
  try {
    return (o as Record<string, unknown>)[key]
  } catch {
    return NO_VALUE
  }
}

const numberWire = (x: number): Wire => {
  const tag = numberTag(x)
  return tag === undefined ? x : ["n", tag]
}

const typedArrayNameOf = (o: ArrayBufferView): TypedArrayName => {
  for (const name of ElementInfoOf.keys()) {
    const Ctor = (globalThis as unknown as Record<string, Function | undefined>)[name]
    if (Ctor !== undefined && o instanceof Ctor) return name
  }
  throw new DataError(`A ${o.constructor.name} is not supported`)
}

// ---------------------------------------------------------------------------------------------------------------
// Wire -> sandbox

/** Builds the sandbox value of a wire form; `makeFunction` makes the sandbox side of a host function. */
export const fromWire = (realm: Realm, w: Wire, makeFunction: (ref: FunctionRef) => JSObject, depth = 0): Value => {
  if (w === null || typeof w === "boolean" || typeof w === "string" || typeof w === "number") return w
  if (depth > MAX_DEPTH + 1 || !Array.isArray(w)) throw new DataError("malformed value")
  const go = (x: Wire): Value => fromWire(realm, x, makeFunction, depth + 1)
  const [tag, ...rest] = w as ReadonlyArray<Wire>
  switch (tag) {
    case "u":
      return undefined
    case "n":
      return specialNumber(rest[0])
    case "b":
      if (typeof rest[0] !== "string" || !/^-?\d+$/.test(rest[0])) throw new DataError("malformed BigInt")
      return BigInt(rest[0])
    case "a":
      return new ArrayObject(realm.ArrayPrototype, rest.map(go))
    case "o":
      return objectOf(realm, rest[0], rest[1], go)
    case "f": {
      const [extension, valueId, path, async, hookName, name, length] = rest
      if (!Array.isArray(path) || !Number.isSafeInteger(valueId) || !Number.isFinite(length)) throw new DataError("malformed function")
      return makeFunction({
        extension: String(extension),
        valueId: Number(valueId),
        path: (path as ReadonlyArray<string>).map(String),
        async: async === true,
        hookName: String(hookName),
        name: String(name),
        length: Number(length),
      })
    }
    case "d":
      return new DateObject(realm.intrinsic("%Date.prototype%"), typeof rest[0] === "number" ? rest[0] : NaN)
    case "r":
      return RegExpCreateLiteral(realm, String(rest[0]), String(rest[1]))
    case "ab":
      return CreateArrayBufferFromBytes(realm, fromBase64(rest[0]))
    case "t": {
      const name = String(rest[0]) as TypedArrayName
      const info = ElementInfoOf.get(name)
      if (info === undefined) throw new DataError("malformed typed array")
      const buffer = CreateArrayBufferFromBytes(realm, fromBase64(rest[1]))
      if (buffer.data!.length % info.size !== 0) throw new DataError("malformed typed array")
      return new TypedArrayObject(realm.intrinsic(`%${name}.prototype%`), name, buffer, 0, buffer.data!.length / info.size)
    }
    case "m": {
      const map = new MapObject(realm.intrinsic("%Map.prototype%"))
      for (let i = 0; i + 1 < rest.length; i += 2) {
        const k = go(rest[i]!)
        if (!map.hasEntry(k)) map.setEntry(k, go(rest[i + 1]!))
      }
      return map
    }
    case "s": {
      const set = new SetObject(realm.intrinsic("%Set.prototype%"))
      for (const x of rest) {
        const k = go(x)
        if (!set.hasEntry(k)) set.setEntry(k, undefined)
      }
      return set
    }
    case "e": {
      const name = String(rest[0])
      const e = CreateErrorObject(realm, (ERROR_TYPES.has(name) ? name : "Error") as ErrorType, String(rest[1]))
      if (!ERROR_TYPES.has(name)) e.properties.set("name", Property.data(name, true, false, true))
      const members = rest[2] as ReadonlyArray<Wire>
      if (Array.isArray(members) && members[0] === "o") defineMembers(e, members[1], members[2], go)
      return e
    }
    default:
      throw new DataError("malformed value")
  }
}

const specialNumber = (w: Wire | undefined): number => {
  const n = taggedNumber(w)
  if (n === undefined) throw new DataError("malformed number")
  return n
}

const objectOf = (realm: Realm, shown: Wire | undefined, hidden: Wire | undefined, go: (x: Wire) => Value): JSObject => {
  const o = new JSObject(realm.ObjectPrototype)
  defineMembers(o, shown, hidden, go)
  return o
}

const defineMembers = (o: JSObject, shown: Wire | undefined, hidden: Wire | undefined, go: (x: Wire) => Value): void => {
  if (!Array.isArray(shown) || !Array.isArray(hidden)) throw new DataError("malformed object")
  for (const [list, enumerable] of [[shown, true], [hidden, false]] as const) {
    for (let i = 0; i + 1 < list.length; i += 2) o.properties.set(String(list[i]), Property.data(go(list[i + 1]!), true, enumerable, true))
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Plain data of snapshot hooks: JSON values and Uint8Arrays

/** The wire form of plain data; DataError for anything else. */
export const plainToWire = (v: unknown, depth = 0, seen: Set<object> = new Set()): Wire => {
  if (v === null || typeof v === "boolean" || typeof v === "string") return v
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new DataError(`${v} is not JSON`)
    return Object.is(v, -0) ? 0 : v
  }
  if (typeof v !== "object") throw new DataError(`a ${typeof v} is not plain data`)
  if (depth >= 64) throw new DataError("Data is nested deeper than 64 levels")
  if (seen.has(v)) throw new DataError("Data contains a circular reference")
  if (v instanceof Uint8Array) return ["t", "Uint8Array", bytesToBase64(v)]
  seen.add(v)
  try {
    if (Array.isArray(v)) return ["a", ...v.map((x) => plainToWire(x, depth + 1, seen))]
    const proto = Object.getPrototypeOf(v)
    if (proto !== Object.prototype && proto !== null) throw new DataError(`a ${v.constructor?.name ?? "object"} is not plain data`)
    const shown: Wire[] = []
    for (const [k, x] of Object.entries(v)) if (x !== undefined) shown.push(k, plainToWire(x, depth + 1, seen))
    return ["o", shown, []]
  } finally {
    seen.delete(v)
  }
}

/** Plain data back from its wire form (as saved in a snapshot: checked, DataError when malformed). */
export const wireToPlain = (w: Wire, depth = 0): unknown => {
  if (w === null || typeof w === "boolean" || typeof w === "string" || typeof w === "number") return w
  if (depth >= 64 || !Array.isArray(w)) throw new DataError("malformed plain data")
  const [tag, ...rest] = w as ReadonlyArray<Wire>
  if (tag === "a") return rest.map((x) => wireToPlain(x, depth + 1))
  if (tag === "t" && rest[0] === "Uint8Array" && typeof rest[1] === "string") return fromBase64(rest[1])
  if (tag === "o" && Array.isArray(rest[0]) && rest[0].length % 2 === 0) {
    const out: Record<string, unknown> = {}
    const list = rest[0] as ReadonlyArray<Wire>
    for (let i = 0; i < list.length; i += 2) {
      Object.defineProperty(out, String(list[i]), { value: wireToPlain(list[i + 1]!, depth + 1), writable: true, enumerable: true, configurable: true })
    }
    return out
  }
  throw new DataError("malformed plain data")
}
