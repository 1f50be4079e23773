/**
 * Node's `util.inspect` and `util.format` over sandbox values, ported from Node 24's lib/internal/util/inspect.js
 * with its default options (depth 2, breakLength 80, compact 3, maxArrayLength 100, maxStringLength 10000, no
 * colours). The console family prints with it and the host reuses it to show results.
 *
 * `inspect` never runs user code: properties are read as data (an accessor prints `[Getter]`, `[Setter]` or
 * `[Getter/Setter]`, as Node does by default), `stack` of an error is read without its getter, and
 * NON-SPEC (Node): custom inspectors (`Symbol.for('nodejs.util.inspect.custom')`) are not called. `formatLog` is
 * util.format: its `%s`/`%d`/`%i`/`%f` conversions may call `toString`/`valueOf` where Node would, so it is a
 * Task; everything else it prints through `inspect`.
 *
 * Brands are read from the object model: arrays (`ArrayObject`), `kind` "Map"/"Set" (map-set.ts: `keys`/`values`
 * with EMPTY for deleted entries), "Date" (`dateValue`), "RegExp" (`originalSource`/`originalFlags`), "Error"
 * (`ErrorObject`), boxed primitives (`PrimitiveWrapper`), promises (`PromiseObject`), "WeakMap"/"WeakSet".
 */
import { PollInterrupt } from "../runtime/interrupt.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { ToNumber, ToString } from "../runtime/conversions.ts"
import { ErrorObject } from "../runtime/errors.ts"
import { ScriptFunction } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import { PromiseObject } from "../runtime/promise.ts"
import { arrayIndexOf, type Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type PropertyKey, SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { errorStackText } from "./error.ts"

export interface InspectOptions {
  readonly depth?: number
  readonly showHidden?: boolean
  readonly breakLength?: number
  readonly maxArrayLength?: number
  readonly maxStringLength?: number
}

interface Ctx {
  readonly realm: Realm
  readonly seen: JSObject[]
  circular: Map<JSObject, number> | undefined
  indentationLvl: number
  currentDepth: number
  depth: number
  readonly showHidden: boolean
  readonly breakLength: number
  readonly compact: number
  readonly maxArrayLength: number
  readonly maxStringLength: number
  readonly budget: Record<number, number>
}

const kObjectType = 0
const kArrayType = 1
const kArrayExtrasType = 2
type ExtrasType = typeof kObjectType | typeof kArrayType | typeof kArrayExtrasType

const kMinLineLength = 16
const keyStrRegExp = /^[a-zA-Z_][a-zA-Z_0-9]*$/
const numberRegExp = /^(0|[1-9][0-9]*)$/

/** `util.inspect(value, options)`. */
export const inspect = (realm: Realm, value: Value, options: InspectOptions = {}): string => {
  const ctx: Ctx = {
    realm,
    seen: [],
    circular: undefined,
    indentationLvl: 0,
    currentDepth: 0,
    depth: options.depth ?? 2,
    showHidden: options.showHidden ?? false,
    breakLength: options.breakLength ?? 80,
    compact: 3,
    maxArrayLength: options.maxArrayLength ?? 100,
    maxStringLength: options.maxStringLength ?? 10000,
    budget: {},
  }
  return formatValue(ctx, value, 0)
}

// --- Strings and primitives ---------------------------------------------------------------------------------

const meta = [
  "\\x00", "\\x01", "\\x02", "\\x03", "\\x04", "\\x05", "\\x06", "\\x07",
  "\\b", "\\t", "\\n", "\\x0B", "\\f", "\\r", "\\x0E", "\\x0F",
  "\\x10", "\\x11", "\\x12", "\\x13", "\\x14", "\\x15", "\\x16", "\\x17",
  "\\x18", "\\x19", "\\x1A", "\\x1B", "\\x1C", "\\x1D", "\\x1E", "\\x1F",
  "", "", "", "", "", "", "", "\\'", "", "", "", "", "", "", "", "",
  "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
  "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
  "", "", "", "", "", "", "", "", "", "", "", "", "\\\\", "", "", "",
  "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
  "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "\\x7F",
  "\\x80", "\\x81", "\\x82", "\\x83", "\\x84", "\\x85", "\\x86", "\\x87",
  "\\x88", "\\x89", "\\x8A", "\\x8B", "\\x8C", "\\x8D", "\\x8E", "\\x8F",
  "\\x90", "\\x91", "\\x92", "\\x93", "\\x94", "\\x95", "\\x96", "\\x97",
  "\\x98", "\\x99", "\\x9A", "\\x9B", "\\x9C", "\\x9D", "\\x9E", "\\x9F",
]

// eslint-disable-next-line no-control-regex
const strEscapeSequencesReplacer = /[\x00-\x1f\x27\x5c\x7f-\x9f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

const escapeFn = (str: string): string => {
  const charCode = str.charCodeAt(0)
  return meta.length > charCode ? meta[charCode]! : `\\u${charCode.toString(16)}`
}

/** Quotes and escapes a string the way Node does (single quotes unless the text contains them). */
export const strEscape = (str: string): string => {
  let singleQuote = 39
  let quote = "'"
  if (str.includes("'")) {
    if (!str.includes('"')) {
      singleQuote = -1
      quote = '"'
    } else if (!str.includes("`") && !str.includes("${")) {
      singleQuote = -2
      quote = "`"
    }
  }
  let result = ""
  let last = 0
  for (let i = 0; i < str.length; i++) {
    const point = str.charCodeAt(i)
    if (point === singleQuote || point === 92 || point < 32 || (point > 126 && point < 160)) {
      result += str.slice(last, i) + meta[point]!
      last = i + 1
    } else if (point >= 0xd800 && point <= 0xdfff) {
      if (point <= 0xdbff && i + 1 < str.length) {
        const next = str.charCodeAt(i + 1)
        if (next >= 0xdc00 && next <= 0xdfff) {
          i++
          continue
        }
      }
      result += `${str.slice(last, i)}\\u${point.toString(16)}`
      last = i + 1
    }
  }
  if (last !== str.length) result += str.slice(last)
  return quote + result + quote
}

export const formatNumber = (n: number): string => (Object.is(n, -0) ? "-0" : `${n}`)
export const formatBigInt = (n: bigint): string => `${n}n`

const formatPrimitive = (value: Value, ctx: Ctx): string => {
  if (typeof value === "string") {
    let trailer = ""
    if (value.length > ctx.maxStringLength) {
      const remaining = value.length - ctx.maxStringLength
      value = value.slice(0, ctx.maxStringLength)
      trailer = `... ${remaining} more character${remaining > 1 ? "s" : ""}`
    }
    if (value.length > kMinLineLength && value.length > ctx.breakLength - ctx.indentationLvl - 4) {
      return value.split(/(?<=\n)/).map((line) => strEscape(line)).join(` +\n${" ".repeat(ctx.indentationLvl + 2)}`) + trailer
    }
    return strEscape(value) + trailer
  }
  if (typeof value === "number") return formatNumber(value)
  if (typeof value === "bigint") return formatBigInt(value)
  if (typeof value === "boolean") return `${value}`
  if (value === undefined) return "undefined"
  return symbolToString(value as SymbolValue)
}

const symbolToString = (s: SymbolValue): string => `Symbol(${s.description ?? ""})`

// --- Reading the object model without running anything -------------------------------------------------------

/** A data property's value along the prototype chain (accessors are not run: undefined). */
const dataGet = (o: JSObject, key: PropertyKey): Value => {
  const p = o.lookup(key)
  return p === undefined || p.accessor ? undefined : p.value
}

const ownData = (o: JSObject, key: PropertyKey): Value => {
  const p = o.GetOwnProperty(key)
  return p === undefined || p.accessor ? undefined : p.value
}

const functionName = (f: JSObject): Value => ownData(f, "name")

/** `tmp instanceof C` by the prototype chain (C's `prototype` read as data). */
const isInstanceof = (tmp: JSObject, C: JSObject): boolean => {
  const proto = ownData(C, "prototype")
  if (!(proto instanceof JSObject)) return false
  for (let p = tmp.GetPrototypeOf(); p !== null; p = p.GetPrototypeOf()) if (p === proto) return true
  return false
}

const WELL_KNOWN = /^%(Array|ArrayBuffer|Function|Map|Set|Object|TypedArray|RegExp|Date|DataView|Error|AggregateError|RangeError|TypeError|Boolean|Number|String|Promise|WeakMap|WeakSet)\.prototype%$/

/** V8's internal class name of an object, as Node's internalGetConstructorName reports it. */
const internalConstructorName = (o: JSObject): string => {
  if (o instanceof ArrayObject) return "Array"
  if (o.isCallable()) return "Function"
  switch (o.kind) {
    case "Map":
    case "Set":
    case "Date":
    case "RegExp":
    case "Error":
    case "Promise":
    case "WeakMap":
    case "WeakSet":
    case "Boolean":
    case "Number":
    case "String":
    case "Symbol":
    case "BigInt":
      return o.kind
  }
  return "Object"
}

const getConstructorName = (obj: JSObject, ctx: Ctx, recurseTimes: number): string | null => {
  let firstProto: JSObject | null | undefined
  const tmp = obj
  let o: JSObject | null = obj
  while (o !== null) {
    const known = ctx.realm.intrinsicNames.get(o)
    const m = known === undefined ? null : WELL_KNOWN.exec(known)
    if (m !== null && o !== tmp) return m[1]!
    const descriptor = o.GetOwnProperty("constructor")
    if (descriptor !== undefined && !descriptor.accessor && descriptor.value instanceof JSObject && descriptor.value.isCallable()) {
      const name = functionName(descriptor.value)
      if (name !== "" && name !== undefined && isInstanceof(tmp, descriptor.value)) return String(name)
    }
    o = o.GetPrototypeOf()
    if (firstProto === undefined) firstProto = o
  }
  if (firstProto === null || firstProto === undefined) return null
  const res = internalConstructorName(tmp)
  if (recurseTimes > ctx.depth) return `${res} <Complex prototype>`
  const protoConstr = getConstructorName(firstProto, ctx, recurseTimes + 1)
  if (protoConstr === null) {
    const empty = getKeys(firstProto, ctx.showHidden).length === 0
    return `${res} <[Object: null prototype]${empty ? " {}" : ""}>`
  }
  return `${res} <${protoConstr}>`
}

const getPrefix = (constructor: string | null, tag: string, fallback: string, size = ""): string => {
  if (constructor === null) {
    if (tag !== "" && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `
    return `[${fallback}${size}: null prototype] `
  }
  let result = `${constructor}${size} `
  if (tag !== "") {
    const position = constructor.indexOf(tag)
    if (position === -1) {
      result += `[${tag}] `
    } else {
      const endPos = position + tag.length
      if (endPos !== constructor.length && constructor[endPos] === constructor[endPos]!.toLowerCase()) result += `[${tag}] `
    }
  }
  return result
}

/** Own enumerable string keys and enumerable symbols (all of them with showHidden). */
const getKeys = (value: JSObject, showHidden: boolean): PropertyKey[] => {
  const keys: PropertyKey[] = []
  const symbols: PropertyKey[] = []
  for (const k of value.OwnPropertyKeys()) {
    const p = value.GetOwnProperty(k)
    if (p === undefined) continue
    if (typeof k === "string") {
      if (showHidden || p.enumerable) keys.push(k)
    } else if (showHidden || p.enumerable) symbols.push(k)
  }
  return keys.concat(symbols)
}

/** Keys of an array other than its indices (`length` only with showHidden). */
const getOwnNonIndexProperties = (value: JSObject, showHidden: boolean): PropertyKey[] =>
  getKeys(value, showHidden).filter((k) => arrayIndexOf(k) < 0)

const getCtxStyle = (value: JSObject, constructor: string | null, tag: string): string => {
  let fallback = ""
  if (constructor === null) {
    fallback = internalConstructorName(value)
    if (fallback === tag) fallback = "Object"
  }
  return getPrefix(constructor, tag, fallback)
}

/** Live entries of a Map or Set (map-set.ts keeps deleted slots as EMPTY). */
const collectionEntries = (o: JSObject): Array<[Value, Value]> => {
  const c = o as unknown as { entryKeys?: unknown; entryValues?: unknown }
  const out: Array<[Value, Value]> = []
  if (Array.isArray(c.entryKeys)) {
    const values = Array.isArray(c.entryValues) ? (c.entryValues as Value[]) : []
    c.entryKeys.forEach((k: unknown, i: number) => {
      if (k !== EMPTY) out.push([k as Value, values[i] as Value])
    })
  }
  return out
}

// --- formatValue / formatRaw ---------------------------------------------------------------------------------

const formatValue = (ctx: Ctx, value: Value, recurseTimes: number): string => {
  if (!(value instanceof JSObject)) return value === null ? "null" : formatPrimitive(value, ctx)
  // A graph that shares objects is printed once per path, exponentially many at any depth: ask for the time.
  PollInterrupt(ctx.realm)
  if (ctx.seen.includes(value)) {
    let index = 1
    if (ctx.circular === undefined) {
      ctx.circular = new Map()
      ctx.circular.set(value, index)
    } else {
      const known = ctx.circular.get(value)
      if (known === undefined) {
        index = ctx.circular.size + 1
        ctx.circular.set(value, index)
      } else index = known
    }
    return `[Circular *${index}]`
  }
  return formatRaw(ctx, value, recurseTimes)
}

type Formatter = (ctx: Ctx, value: JSObject, recurseTimes: number) => string[]

const formatRaw = (ctx: Ctx, value: JSObject, recurseTimes: number): string => {
  let keys: PropertyKey[]
  const constructor = getConstructorName(value, ctx, recurseTimes)
  let tag = ""
  const tagProp = value.lookup(WellKnownSymbols.toStringTag)
  if (tagProp !== undefined && !tagProp.accessor && typeof tagProp.value === "string") tag = tagProp.value
  if (tag !== "") {
    const own = value.GetOwnProperty(WellKnownSymbols.toStringTag)
    if (own !== undefined && (ctx.showHidden || own.enumerable)) tag = ""
  }
  let base = ""
  let formatter: Formatter = () => []
  let braces: [string, string]
  let extrasType: ExtrasType = kObjectType

  if (value instanceof ArrayObject) {
    const prefix = constructor !== "Array" || tag !== "" ? getPrefix(constructor, tag, "Array", `(${value.length})`) : ""
    keys = getOwnNonIndexProperties(value, ctx.showHidden)
    braces = [`${prefix}[`, "]"]
    if (value.length === 0 && keys.length === 0) return `${braces[0]}]`
    extrasType = kArrayExtrasType
    formatter = formatArray
  } else if (value.kind === "Set" || value.kind === "Map") {
    const entries = collectionEntries(value)
    const prefix = getPrefix(constructor, tag, value.kind, `(${entries.length})`)
    keys = getKeys(value, ctx.showHidden)
    formatter = value.kind === "Set" ? (c, _v, r) => formatSet(c, entries, r) : (c, _v, r) => formatMap(c, entries, r)
    if (entries.length === 0 && keys.length === 0) return `${prefix}{}`
    braces = [`${prefix}{`, "}"]
  } else {
    keys = getKeys(value, ctx.showHidden)
    braces = ["{", "}"]
    if (value.isCallable()) {
      base = getFunctionBase(ctx, value, constructor, tag)
      if (keys.length === 0) return base
    } else if (constructor === "Object" && value.kind !== "Error" && !(value instanceof PrimitiveWrapper) && value.kind !== "Promise") {
      if (value.kind === "Arguments") braces[0] = "[Arguments] {"
      else if (tag !== "") braces[0] = `${getPrefix(constructor, tag, "Object")}{`
      if (keys.length === 0) return `${braces[0]}}`
    } else if (value.kind === "RegExp") {
      const r = value as unknown as { originalSource?: unknown; originalFlags?: unknown }
      const source = typeof r.originalSource === "string" ? r.originalSource : String(dataGet(value, "source") ?? "(?:)")
      const flags = typeof r.originalFlags === "string" ? r.originalFlags : String(dataGet(value, "flags") ?? "")
      base = `/${source}/${flags}`
      const prefix = getPrefix(constructor, tag, "RegExp")
      if (prefix !== "RegExp ") base = `${prefix}${base}`
      keys = keys.filter((k) => k !== "lastIndex" || ctx.showHidden)
      if (keys.length === 0 || recurseTimes > ctx.depth) return base
    } else if (value.kind === "Date") {
      const t = (value as unknown as { dateValue?: number }).dateValue ?? NaN
      base = Number.isNaN(t) ? "Invalid Date" : new Date(t).toISOString()
      const prefix = getPrefix(constructor, tag, "Date")
      if (prefix !== "Date ") base = `${prefix}${base}`
      if (keys.length === 0) return base
    } else if (value.kind === "Error") {
      base = formatError(value, constructor, tag, ctx, keys)
      if (keys.length === 0) return base
    } else if (value instanceof PromiseObject) {
      braces[0] = `${getPrefix(constructor, tag, "Promise")}{`
      formatter = formatPromise
    } else if (value.kind === "WeakSet" || value.kind === "WeakMap") {
      braces[0] = `${getPrefix(constructor, tag, value.kind)}{`
      formatter = () => ["<items unknown>"]
    } else if (value instanceof PrimitiveWrapper) {
      base = getBoxedBase(value, ctx, keys, constructor, tag)
      if (keys.length === 0) return base
    } else {
      if (keys.length === 0) return `${getCtxStyle(value, constructor, tag)}{}`
      braces[0] = `${getCtxStyle(value, constructor, tag)}{`
    }
  }

  if (recurseTimes > ctx.depth) {
    let constructorName = getCtxStyle(value, constructor, tag).slice(0, -1)
    if (constructor !== null) constructorName = `[${constructorName}]`
    return constructorName
  }
  recurseTimes += 1
  ctx.seen.push(value)
  ctx.currentDepth = recurseTimes
  const output = formatter(ctx, value, recurseTimes)
  for (const key of keys) output.push(formatProperty(ctx, value, recurseTimes, key, extrasType))
  if (ctx.circular !== undefined) {
    const index = ctx.circular.get(value)
    if (index !== undefined) {
      const reference = `<ref *${index}>`
      base = base === "" ? reference : `${reference} ${base}`
    }
  }
  ctx.seen.pop()
  // Each level joins its children's text again: past the output budget (2 ** 27), every level on the way up copies
  // a string of that size (~60 ms each), with no formatValue between them to ask for the time. Weighed by length,
  // as a built-in's work on a string is (interrupt.ts).
  let length = 0
  for (const part of output) length += part.length
  PollInterrupt(ctx.realm, 1 + (length >>> 8))
  const res = reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value)
  const budget = ctx.budget[ctx.indentationLvl] ?? 0
  const newLength = budget + res.length
  ctx.budget[ctx.indentationLvl] = newLength
  if (newLength > 2 ** 27) ctx.depth = -1
  return res
}

const getBoxedBase = (value: PrimitiveWrapper, ctx: Ctx, keys: PropertyKey[], constructor: string | null, tag: string): string => {
  const type = value.kind
  if (type === "String") keys.splice(0, (value.primitive as string).length)
  let base = `[${type}`
  if (type !== constructor) base += constructor === null ? " (null prototype)" : ` (${constructor})`
  base += `: ${formatPrimitive(value.primitive, { ...ctx, indentationLvl: 0, breakLength: Infinity })}]`
  if (tag !== "" && tag !== constructor) base += ` [${tag}]`
  return base
}

/** The source text Function.prototype.toString would give, when the engine recorded it. */
const sourceTextOf = (ctx: Ctx, f: JSObject): string | undefined =>
  f instanceof ScriptFunction ? ctx.realm.host.functionSourceText?.(f) : undefined

const getClassBase = (value: JSObject, constructor: string | null, tag: string): string => {
  const name = value.GetOwnProperty("name") !== undefined ? ownData(value, "name") : undefined
  let base = `class ${typeof name === "string" && name !== "" ? name : "(anonymous)"}`
  if (constructor !== "Function" && constructor !== null) base += ` [${constructor}]`
  if (tag !== "" && constructor !== tag) base += ` [${tag}]`
  if (constructor !== null) {
    const superProto = value.GetPrototypeOf()
    const superName = superProto === null ? undefined : dataGet(superProto, "name")
    if (typeof superName === "string" && superName !== "") base += ` extends ${superName}`
  } else {
    base += " extends [null prototype]"
  }
  return `[${base}]`
}

const getFunctionBase = (ctx: Ctx, value: JSObject, constructor: string | null, tag: string): string => {
  if (value instanceof ScriptFunction && value.isClassConstructor) return getClassBase(value, constructor, tag)
  const text = sourceTextOf(ctx, value)
  if (text !== undefined && text.startsWith("class") && text.endsWith("}")) return getClassBase(value, constructor, tag)
  let type = "Function"
  if (value instanceof ScriptFunction) {
    if (value.functionKind === "generator") type = "GeneratorFunction"
    else if (value.functionKind === "async") type = "AsyncFunction"
    else if (value.functionKind === "asyncGenerator") type = "AsyncGeneratorFunction"
  }
  let base = `[${type}`
  if (constructor === null) base += " (null prototype)"
  const name = dataGet(value, "name")
  if (name === "") base += " (anonymous)"
  else base += `: ${typeof name === "string" ? name : formatValue(ctx, name, 0)}`
  base += "]"
  if (constructor !== type && constructor !== null) base += ` ${constructor}`
  if (tag !== "" && constructor !== tag) base += ` [${tag}]`
  return base
}

// --- Errors --------------------------------------------------------------------------------------------------

const errorToString = (err: JSObject): string => {
  const n = dataGet(err, "name")
  const m = dataGet(err, "message")
  const name = n === undefined ? "Error" : String(n)
  const msg = m === undefined ? "" : String(m)
  if (name === "") return msg
  if (msg === "") return name
  return `${name}: ${msg}`
}

const getStackString = (ctx: Ctx, error: JSObject): string => {
  const stack = error instanceof ErrorObject && error.GetOwnProperty("stack")?.accessor === true ? errorStackText(error) : dataGet(error, "stack")
  if (stack !== undefined && stack !== null && stack !== "" && stack !== false && stack !== 0) {
    if (typeof stack === "string") return stack
    ctx.seen.push(error)
    ctx.indentationLvl += 4
    const result = formatValue(ctx, stack, 0)
    ctx.indentationLvl -= 4
    ctx.seen.pop()
    return `${errorToString(error)}\n    ${result}`
  }
  return errorToString(error)
}

const improveStack = (stack: string, constructor: string | null, name: string, tag: string): string => {
  let len = name.length
  if (
    constructor === null ||
    (name.endsWith("Error") && stack.startsWith(name) && (stack.length === len || stack[len] === ":" || stack[len] === "\n"))
  ) {
    let fallback = "Error"
    if (constructor === null) {
      const start = /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n {4}at)/.exec(stack) ?? /^([a-z_A-Z0-9-]*Error)$/.exec(stack)
      fallback = start?.[1] ?? ""
      len = fallback.length
      fallback ||= "Error"
    }
    const prefix = getPrefix(constructor, tag, fallback).slice(0, -1)
    if (name !== prefix) {
      if (prefix.includes(name)) {
        stack = len === 0 ? `${prefix}: ${stack}` : `${prefix}${stack.slice(len)}`
      } else {
        stack = `${prefix} [${name}]${stack.slice(len)}`
      }
    }
  }
  return stack
}

const formatError = (err: JSObject, constructor: string | null, tag: string, ctx: Ctx, keys: PropertyKey[]): string => {
  let stack = getStackString(ctx, err)
  const message = dataGet(err, "message")
  let name = dataGet(err, "name")
  if (!ctx.showHidden && keys.length !== 0) {
    for (const k of ["stack"] as const) {
      const i = keys.indexOf(k)
      if (i !== -1) keys.splice(i, 1)
    }
    const mi = keys.indexOf("message")
    if (mi !== -1 && (typeof message !== "string" || stack.includes(message))) keys.splice(mi, 1)
    const ni = keys.indexOf("name")
    if (ni !== -1 && (typeof name !== "string" || stack.includes(name))) keys.splice(ni, 1)
  }
  if (name === undefined || name === null) name = "Error"
  if (err.GetOwnProperty("cause") !== undefined && (keys.length === 0 || !keys.includes("cause"))) keys.push("cause")
  const errors = dataGet(err, "errors")
  if (errors instanceof ArrayObject && err.GetOwnProperty("errors") !== undefined && (keys.length === 0 || !keys.includes("errors"))) {
    keys.push("errors")
  }
  stack = improveStack(stack, constructor, typeof name === "string" ? name : String(name), tag)
  let pos = (typeof message === "string" && message !== "" && stack.indexOf(message)) || -1
  if (pos !== -1) pos += (message as string).length
  const stackStart = stack.indexOf("\n    at", pos)
  if (stackStart === -1) stack = `[${stack}]`
  if (ctx.indentationLvl !== 0) stack = stack.replaceAll("\n", `\n${" ".repeat(ctx.indentationLvl)}`)
  return stack
}

// --- Containers ----------------------------------------------------------------------------------------------

const remainingText = (remaining: number): string => `... ${remaining} more item${remaining > 1 ? "s" : ""}`

const formatArray: Formatter = (ctx, value, recurseTimes) => {
  const arr = value as ArrayObject
  const valLen = arr.length
  const len = Math.min(Math.max(0, ctx.maxArrayLength), valLen)
  const remaining = valLen - len
  const output: string[] = []
  for (let i = 0; i < len; i++) {
    const desc = arr.GetOwnProperty(String(i))
    if (desc === undefined) return formatSpecialArray(ctx, arr, recurseTimes, len, output, i)
    output.push(formatProperty(ctx, arr, recurseTimes, String(i), kArrayType, desc))
  }
  if (remaining > 0) output.push(remainingText(remaining))
  return output
}

const formatSpecialArray = (ctx: Ctx, value: ArrayObject, recurseTimes: number, maxLength: number, output: string[], i: number): string[] => {
  const keys = value.OwnPropertyKeys().filter((k) => typeof k === "string" && value.GetOwnProperty(k)?.enumerable === true) as string[]
  let index = i
  for (; i < keys.length && output.length < maxLength; i++) {
    const key = keys[i]!
    const tmp = +key
    if (tmp > 2 ** 32 - 2) break
    if (`${index}` !== key) {
      if (!numberRegExp.test(key)) break
      const emptyItems = tmp - index
      output.push(`<${emptyItems} empty item${emptyItems > 1 ? "s" : ""}>`)
      index = tmp
      if (output.length === maxLength) break
    }
    output.push(formatProperty(ctx, value, recurseTimes, key, kArrayType))
    index++
  }
  const remaining = value.length - index
  if (output.length !== maxLength) {
    if (remaining > 0) output.push(`<${remaining} empty item${remaining > 1 ? "s" : ""}>`)
  } else if (remaining > 0) {
    output.push(remainingText(remaining))
  }
  return output
}

const formatSet = (ctx: Ctx, entries: Array<[Value, Value]>, recurseTimes: number): string[] => {
  const maxLength = Math.min(Math.max(0, ctx.maxArrayLength), entries.length)
  const remaining = entries.length - maxLength
  const output: string[] = []
  ctx.indentationLvl += 2
  for (let i = 0; i < maxLength; i++) output.push(formatValue(ctx, entries[i]![0], recurseTimes))
  if (remaining > 0) output.push(remainingText(remaining))
  ctx.indentationLvl -= 2
  return output
}

const formatMap = (ctx: Ctx, entries: Array<[Value, Value]>, recurseTimes: number): string[] => {
  const maxLength = Math.min(Math.max(0, ctx.maxArrayLength), entries.length)
  const remaining = entries.length - maxLength
  const output: string[] = []
  ctx.indentationLvl += 2
  for (let i = 0; i < maxLength; i++) {
    const [k, v] = entries[i]!
    output.push(`${formatValue(ctx, k, recurseTimes)} => ${formatValue(ctx, v, recurseTimes)}`)
  }
  if (remaining > 0) output.push(remainingText(remaining))
  ctx.indentationLvl -= 2
  return output
}

const formatPromise: Formatter = (ctx, value, recurseTimes) => {
  const p = value as PromiseObject
  if (p.state === "pending") return ["<pending>"]
  ctx.indentationLvl += 2
  const str = formatValue(ctx, p.result, recurseTimes)
  ctx.indentationLvl -= 2
  return [p.state === "rejected" ? `<rejected> ${str}` : str]
}

const formatProperty = (ctx: Ctx, value: JSObject, recurseTimes: number, key: PropertyKey, type: ExtrasType, desc?: Property): string => {
  let name: string
  let str: string
  desc ??= value.GetOwnProperty(key)
  if (desc === undefined) return ""
  if (!desc.accessor && desc.value !== undefined) {
    ctx.indentationLvl += 2
    str = formatValue(ctx, desc.value, recurseTimes)
    ctx.indentationLvl -= 2
  } else if (desc.accessor && desc.get !== undefined) {
    str = desc.set !== undefined ? "[Getter/Setter]" : "[Getter]"
  } else if (desc.accessor && desc.set !== undefined) {
    str = "[Setter]"
  } else {
    str = "undefined"
  }
  if (type === kArrayType) return str
  if (key instanceof SymbolValue) {
    name = symbolToString(key).replace(strEscapeSequencesReplacer, escapeFn)
  } else if (keyStrRegExp.test(key)) {
    name = key === "__proto__" ? "['__proto__']" : key
  } else {
    name = strEscape(key)
  }
  if (!desc.enumerable) name = `[${name}]`
  return `${name}: ${str}`
}

// --- Line breaking -------------------------------------------------------------------------------------------

const isBelowBreakLength = (ctx: Ctx, output: string[], start: number, base: string): boolean => {
  if (ctx.breakLength === Infinity) {
    if (base !== "" && base.includes("\n")) return false
    return !output.some((o) => o.includes("\n"))
  }
  let totalLength = output.length + start
  if (totalLength + output.length > ctx.breakLength) return false
  for (const o of output) {
    totalLength += o.length
    if (totalLength > ctx.breakLength) return false
  }
  return base === "" || !base.includes("\n")
}

const groupArrayElements = (ctx: Ctx, output: string[], value: JSObject | undefined): string[] => {
  let totalLength = 0
  let maxLength = 0
  let i = 0
  let outputLength = output.length
  if (ctx.maxArrayLength < output.length) outputLength--
  const separatorSpace = 2
  const dataLen: number[] = new Array(outputLength)
  for (; i < outputLength; i++) {
    const len = output[i]!.length
    dataLen[i] = len
    totalLength += len + separatorSpace
    if (maxLength < len) maxLength = len
  }
  const actualMax = maxLength + separatorSpace
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (totalLength / actualMax > 5 || maxLength <= 6)) {
    const approxCharHeights = 2.5
    const averageBias = Math.sqrt(actualMax - totalLength / output.length)
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1)
    const columns = Math.min(
      Math.round(Math.sqrt(approxCharHeights * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      ctx.compact * 4,
      15,
    )
    if (columns <= 1) return output
    const tmp: string[] = []
    const maxLineLength: number[] = []
    for (let c = 0; c < columns; c++) {
      let lineLength = 0
      for (let j = c; j < output.length; j += columns) if (dataLen[j]! > lineLength) lineLength = dataLen[j]!
      maxLineLength.push(lineLength + separatorSpace)
    }
    let padStart = true
    if (value !== undefined) {
      for (let k = 0; k < output.length; k++) {
        const v = value instanceof ArrayObject ? elementAt(value, k) : undefined
        if (typeof v !== "number" && typeof v !== "bigint") {
          padStart = false
          break
        }
      }
    }
    for (let r = 0; r < outputLength; r += columns) {
      const max = Math.min(r + columns, outputLength)
      let str = ""
      let j = r
      for (; j < max - 1; j++) {
        const padding = maxLineLength[j - r]!
        str += padStart ? `${output[j]}, `.padStart(padding, " ") : `${output[j]}, `.padEnd(padding, " ")
      }
      if (padStart) {
        const padding = maxLineLength[j - r]! - separatorSpace
        str += output[j]!.padStart(padding, " ")
      } else {
        str += output[j]
      }
      tmp.push(str)
    }
    if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength]!)
    output = tmp
  }
  return output
}

/** `value[k]` of an array as Node's grouping reads it (data only). */
const elementAt = (a: ArrayObject, k: number): Value => {
  const p = a.GetOwnProperty(String(k))
  return p === undefined || p.accessor ? undefined : p.value
}

const reduceToSingleString = (
  ctx: Ctx,
  output: string[],
  base: string,
  braces: [string, string],
  extrasType: ExtrasType,
  recurseTimes: number,
  value: JSObject | undefined,
): string => {
  const entries = output.length
  if (extrasType === kArrayExtrasType && entries > 6) output = groupArrayElements(ctx, output, value)
  if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
    const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10
    if (isBelowBreakLength(ctx, output, start, base)) {
      const joinedOutput = output.join(", ")
      if (!joinedOutput.includes("\n")) return `${base ? `${base} ` : ""}${braces[0]} ${joinedOutput} ${braces[1]}`
    }
  }
  const indentation = `\n${" ".repeat(ctx.indentationLvl)}`
  return `${base ? `${base} ` : ""}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`
}

// --- util.format ---------------------------------------------------------------------------------------------

/** Node's hasBuiltInToString: true when the object's toString / Symbol.toPrimitive are the built-in ones. */
const hasBuiltInToString = (realm: Realm, value: JSObject): boolean => {
  const isFn = (v: Value) => v instanceof JSObject && v.isCallable()
  const toStr = dataGet(value, "toString")
  const toPrim = dataGet(value, WellKnownSymbols.toPrimitive)
  let checkToString = true
  let checkToPrimitive = true
  if (!isFn(toStr)) {
    if (!isFn(toPrim)) return true
    if (value.GetOwnProperty(WellKnownSymbols.toPrimitive) !== undefined) return false
    checkToString = false
  } else if (value.GetOwnProperty("toString") !== undefined) {
    return false
  } else if (!isFn(toPrim)) {
    checkToPrimitive = false
  } else if (value.GetOwnProperty(WellKnownSymbols.toPrimitive) !== undefined) {
    return false
  }
  let pointer: JSObject | null = value
  do {
    pointer = pointer.GetPrototypeOf()
  } while (
    pointer !== null &&
    !(checkToString && pointer.GetOwnProperty("toString") !== undefined) &&
    !(checkToPrimitive && pointer.GetOwnProperty(WellKnownSymbols.toPrimitive) !== undefined)
  )
  if (pointer === null) return true
  const descriptor = pointer.GetOwnProperty("constructor")
  if (descriptor === undefined || descriptor.accessor || !(descriptor.value instanceof JSObject)) return false
  const name = realm.intrinsicNames.get(descriptor.value)
  return name !== undefined && /^%[A-Za-z]+%$/.test(name)
}

/** `JSON.stringify` for `%j`, through the sandbox's own JSON.stringify (it may run toJSON). */
function* tryStringify(realm: Realm, arg: Value): Task<string> {
  const stringify = dataGet(realm.intrinsic("%JSON%"), "stringify")
  try {
    const r = yield { kind: "call", f: stringify as JSObject, thisArg: undefined, args: [arg] }
    return String(r)
  } catch (e) {
    const thrown = (e as { value?: unknown }).value
    const message = thrown instanceof JSObject ? dataGet(thrown, "message") : undefined
    if (typeof message === "string" && message.startsWith("Converting circular structure to JSON")) return "[Circular]"
    if (typeof (e as { message?: unknown }).message === "string" && (e as { message: string }).message.startsWith("Converting circular structure to JSON")) {
      return "[Circular]"
    }
    throw e
  }
}

/** `util.format(...args)` (formatWithOptions with no options): one string. */
export function* formatLog(realm: Realm, args: ReadonlyArray<Value>): Task<string> {
  const first = args[0]
  let a = 0
  let str = ""
  let join = ""
  if (typeof first === "string") {
    if (args.length === 1) return first
    let tempStr = ""
    let lastPos = 0
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue
      const nextChar = first.charCodeAt(++i)
      if (a + 1 !== args.length) {
        switch (nextChar) {
          case 115: {
            // 's'
            const tempArg = args[++a]
            if (typeof tempArg === "number") tempStr = formatNumber(tempArg)
            else if (typeof tempArg === "bigint") tempStr = formatBigInt(tempArg)
            else if (!(tempArg instanceof JSObject) || !hasBuiltInToString(realm, tempArg)) {
              tempStr = tempArg instanceof SymbolValue ? symbolToString(tempArg) : yield* ToString(realm, tempArg)
            } else tempStr = inspect(realm, tempArg, { depth: 0 })
            break
          }
          case 106: // 'j'
            tempStr = yield* tryStringify(realm, args[++a])
            break
          case 100: {
            // 'd'
            const tempNum = args[++a]
            if (typeof tempNum === "bigint") tempStr = formatBigInt(tempNum)
            else if (tempNum instanceof SymbolValue) tempStr = "NaN"
            else tempStr = formatNumber(yield* ToNumber(realm, tempNum))
            break
          }
          case 79: // 'O'
            tempStr = inspect(realm, args[++a])
            break
          case 111: // 'o'
            tempStr = inspect(realm, args[++a], { showHidden: true, depth: 4 })
            break
          case 105: {
            // 'i'
            const tempInteger = args[++a]
            if (typeof tempInteger === "bigint") tempStr = formatBigInt(tempInteger)
            else if (tempInteger instanceof SymbolValue) tempStr = "NaN"
            else tempStr = formatNumber(parseInt(yield* ToString(realm, tempInteger)))
            break
          }
          case 102: {
            // 'f'
            const tempFloat = args[++a]
            if (tempFloat instanceof SymbolValue) tempStr = "NaN"
            else tempStr = formatNumber(parseFloat(yield* ToString(realm, tempFloat)))
            break
          }
          case 99: // 'c'
            a += 1
            tempStr = ""
            break
          case 37: // '%'
            str += first.slice(lastPos, i)
            lastPos = i + 1
            continue
          default:
            continue
        }
        if (lastPos !== i - 1) str += first.slice(lastPos, i - 1)
        str += tempStr
        lastPos = i + 1
      } else if (nextChar === 37) {
        str += first.slice(lastPos, i)
        lastPos = i + 1
      }
    }
    if (lastPos !== 0) {
      a++
      join = " "
      if (lastPos < first.length) str += first.slice(lastPos)
    }
  }
  while (a < args.length) {
    const value = args[a]
    str += join
    str += typeof value !== "string" ? inspect(realm, value) : value
    join = " "
    a++
  }
  return str
}

// --- Display width (console.table) ----------------------------------------------------------------------------

const isFullWidthCodePoint = (code: number): boolean =>
  code >= 0x1100 &&
  (code <= 0x115f ||
    code === 0x2329 ||
    code === 0x232a ||
    (code >= 0x2e80 && code <= 0x3247 && code !== 0x303f) ||
    (code >= 0x3250 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0xa4c6) ||
    (code >= 0xa960 && code <= 0xa97c) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe10 && code <= 0xfe19) ||
    (code >= 0xfe30 && code <= 0xfe6b) ||
    (code >= 0xff01 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1b000 && code <= 0x1b001) ||
    (code >= 0x1f200 && code <= 0x1f251) ||
    (code >= 0x1f300 && code <= 0x1f64f) ||
    (code >= 0x20000 && code <= 0x3fffd))

const isZeroWidthCodePoint = (code: number): boolean =>
  code <= 0x1f ||
  (code >= 0x7f && code <= 0x9f) ||
  (code >= 0x300 && code <= 0x36f) ||
  (code >= 0x200b && code <= 0x200f) ||
  (code >= 0x20d0 && code <= 0x20ff) ||
  (code >= 0xfe00 && code <= 0xfe0f) ||
  (code >= 0xfe20 && code <= 0xfe2f) ||
  (code >= 0xe0100 && code <= 0xe01ef)

/** Columns a string takes on a terminal (Node's getStringWidth without ICU). */
export const getStringWidth = (str: string): number => {
  let width = 0
  for (const ch of str.normalize("NFC")) {
    const code = ch.codePointAt(0)!
    if (isFullWidthCodePoint(code)) width += 2
    else if (!isZeroWidthCodePoint(code)) width++
  }
  return width
}
