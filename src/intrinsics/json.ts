/**
 * The JSON object (https://tc39.es/ecma262/#sec-json-object). JSON.parse is codemode's own parser over the string
 * (iterative, so deep nesting cannot exhaust the host stack) that builds sandbox objects directly and reports
 * V8's SyntaxError messages, followed by the reviver walk (InternalizeJSONProperty) with the JSON.parse source
 * text access `context` argument V8 ships. JSON.stringify is SerializeJSONProperty and friends as Tasks, since
 * toJSON, replacer functions, getters and boxed-primitive conversions run user code. Plain data takes a fast path
 * that reads properties without going through the engine. Also JSON.rawJSON / JSON.isRawJSON.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { defineMethods, defineValues } from "../runtime/builtin.ts"
import { Caps, checkStringLength } from "../runtime/caps.ts"
import { PollInterrupt } from "../runtime/interrupt.ts"
import { SandboxError, throwTypeError } from "../runtime/completion.ts"
import { ToIntegerOrInfinity, ToNumber, ToString } from "../runtime/conversions.ts"
import { IsCallable } from "../runtime/function-object.ts"
import { isOwnEnumerable, JSObject } from "../runtime/object.ts"
import { ABSENT, slotValue } from "../runtime/property-store.ts"
import { Property } from "../runtime/property.ts"
import {
  Call,
  CreateArrayFromList,
  CreateDataProperty,
  EnumerableOwnProperties,
  LengthOfArrayLike,
} from "../runtime/operations.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type PropertyKey, type Value, WellKnownSymbols } from "../runtime/value.ts"

// ---------------------------------------------------------------------------------------------------------------
// Parsing

/**
 * What the parser remembers of each value for the reviver's `context.source` (primitives) and for walking
 * unmodified objects (children by key).
 */
type ParseNode =
  | { readonly kind: "primitive"; readonly value: Value; readonly source: string }
  | { readonly kind: "object"; readonly value: JSObject; readonly children: Map<string, ParseNode> }

const jsonSyntaxError = (message: string): never => {
  throw new SandboxError("SyntaxError", message)
}

class JsonParser {
  private pos = 0
  private readonly realm: Realm
  private readonly src: string
  private readonly keepNodes: boolean
  constructor(realm: Realm, src: string, keepNodes: boolean) {
    this.realm = realm
    this.src = src
    this.keepNodes = keepNodes
  }

  private get atEnd(): boolean {
    return this.pos >= this.src.length
  }

  private at(message: string, pos = this.pos): never {
    let line = 1
    let lineStart = 0
    for (let i = 0; i < pos && i < this.src.length; i++) {
      if (this.src.charCodeAt(i) === 10) {
        line++
        lineStart = i + 1
      }
    }
    const where = message.endsWith("after JSON") ? "" : " in JSON"
    return jsonSyntaxError(`${message}${where} at position ${pos} (line ${line} column ${pos - lineStart + 1})`)
  }

  /** V8's message for an unexpected character where a value or structure was expected (or the end). */
  private unexpected(pos = this.pos): never {
    const src = this.src
    if (pos >= src.length) return jsonSyntaxError("Unexpected end of JSON input")
    const c = src[pos]!
    if (c === '"') return this.at("Unexpected string", pos)
    if (c === "-" || (c >= "0" && c <= "9")) return this.at("Unexpected number", pos)
    if (src === "[object Object]" || src === "undefined" || src === "Infinity" || src === "NaN") {
      return jsonSyntaxError(`"${src}" is not valid JSON`)
    }
    const K = 10
    if (src.length < 2 * K + 1) return jsonSyntaxError(`Unexpected token '${c}', "${src}" is not valid JSON`)
    if (pos < K) return jsonSyntaxError(`Unexpected token '${c}', "${src.slice(0, pos + K)}"... is not valid JSON`)
    if (pos < src.length - K) {
      return jsonSyntaxError(`Unexpected token '${c}', ..."${src.slice(pos - K, pos + K)}"... is not valid JSON`)
    }
    return jsonSyntaxError(`Unexpected token '${c}', ..."${src.slice(pos - K)}" is not valid JSON`)
  }

  private skipWhitespace(): void {
    const src = this.src
    let p = this.pos
    for (;;) {
      const c = src.charCodeAt(p)
      if (c === 32 || c === 10 || c === 13 || c === 9) p++
      else break
    }
    this.pos = p
  }

  /** Parses the whole text; the value and, when asked, its parse tree. */
  parse(): { value: Value; node: ParseNode | undefined } {
    // An explicit stack of open containers keeps deep nesting off the host stack.
    type Frame =
      | { kind: "array"; items: Value[]; nodes: ParseNode[] | undefined }
      | { kind: "object"; obj: JSObject; key: string; children: Map<string, ParseNode> | undefined }
    const stack: Frame[] = []
    let result: { value: Value; node: ParseNode | undefined } = { value: undefined, node: undefined }
    for (;;) {
      // Parse one value, or open a container.
      this.skipWhitespace()
      let value: Value
      let node: ParseNode | undefined
      const c = this.src[this.pos]
      if (c === "[") {
        this.pos++
        this.skipWhitespace()
        if (this.src[this.pos] === "]") {
          this.pos++
          const arr = CreateArrayFromList(this.realm, [])
          value = arr
          node = this.keepNodes ? { kind: "object", value: arr, children: new Map() } : undefined
        } else {
          if (stack.length > 100_000) throw new SandboxError("RangeError", "Maximum call stack size exceeded")
          stack.push({ kind: "array", items: [], nodes: this.keepNodes ? [] : undefined })
          continue
        }
      } else if (c === "{") {
        this.pos++
        this.skipWhitespace()
        const obj = new JSObject(this.realm.ObjectPrototype)
        if (this.src[this.pos] === "}") {
          this.pos++
          value = obj
          node = this.keepNodes ? { kind: "object", value: obj, children: new Map() } : undefined
        } else {
          if (this.src[this.pos] !== '"') return this.at("Expected property name or '}'")
          const key = this.parseString()
          this.skipWhitespace()
          if (this.src[this.pos] !== ":") return this.at("Expected ':' after property name")
          this.pos++
          if (stack.length > 100_000) throw new SandboxError("RangeError", "Maximum call stack size exceeded")
          stack.push({ kind: "object", obj, key, children: this.keepNodes ? new Map() : undefined })
          continue
        }
      } else {
        const start = this.pos
        value = this.parsePrimitive()
        node = this.keepNodes ? { kind: "primitive", value, source: this.src.slice(start, this.pos) } : undefined
      }
      // Hand the value to the enclosing containers, closing those that end here.
      for (;;) {
        const top = stack[stack.length - 1]
        if (top === undefined) {
          result = { value, node }
          break
        }
        this.skipWhitespace()
        const d = this.src[this.pos]
        if (top.kind === "array") {
          if (top.items.length >= Caps.maxArrayStorage) throw new SandboxError("RangeError", "Invalid array length")
          top.items.push(value)
          top.nodes?.push(node!)
          if (d === ",") {
            this.pos++
            break
          }
          if (d !== "]") return this.at("Expected ',' or ']' after array element")
          this.pos++
          stack.pop()
          const arr = CreateArrayFromList(this.realm, top.items)
          value = arr
          node = top.nodes === undefined ? undefined : { kind: "object", value: arr, children: new Map(top.nodes.map((n, i) => [String(i), n])) }
        } else {
          CreateDataProperty(top.obj, top.key, value)
          if (top.children !== undefined) top.children.set(top.key, node!)
          if (d === ",") {
            this.pos++
            this.skipWhitespace()
            if (this.src[this.pos] !== '"') return this.at("Expected double-quoted property name")
            top.key = this.parseString()
            this.skipWhitespace()
            if (this.src[this.pos] !== ":") return this.at("Expected ':' after property name")
            this.pos++
            break
          }
          if (d !== "}") return this.at("Expected ',' or '}' after property value")
          this.pos++
          stack.pop()
          value = top.obj
          node = top.children === undefined ? undefined : { kind: "object", value: top.obj, children: top.children }
        }
      }
      if (stack.length === 0) break
    }
    this.skipWhitespace()
    if (!this.atEnd) return this.at("Unexpected non-whitespace character after JSON")
    return result
  }

  private parsePrimitive(): Value {
    const c = this.src[this.pos]
    switch (c) {
      case '"':
        return this.parseString()
      case "t":
        return this.literal("true", true)
      case "f":
        return this.literal("false", false)
      case "n":
        return this.literal("null", null)
      default:
        if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) return this.parseNumber()
        return this.unexpected()
    }
  }

  private literal(word: string, value: Value): Value {
    for (let i = 0; i < word.length; i++) {
      if (this.src[this.pos + i] !== word[i]) return this.unexpected(this.pos + i)
    }
    this.pos += word.length
    return value
  }

  private isDigit(p: number): boolean {
    const c = this.src.charCodeAt(p)
    return c >= 48 && c <= 57
  }

  private parseNumber(): number {
    const start = this.pos
    let p = this.pos
    if (this.src[p] === "-") {
      p++
      if (!this.isDigit(p)) return this.at("No number after minus sign", p)
    }
    if (this.src[p] === "0") {
      p++
      if (this.isDigit(p)) return this.unexpected(p)
    } else {
      while (this.isDigit(p)) p++
    }
    if (this.src[p] === ".") {
      p++
      if (!this.isDigit(p)) return this.at("Unterminated fractional number", p)
      while (this.isDigit(p)) p++
    }
    if (this.src[p] === "e" || this.src[p] === "E") {
      p++
      if (this.src[p] === "+" || this.src[p] === "-") p++
      if (!this.isDigit(p)) return this.at("Exponent part is missing a number", p)
      while (this.isDigit(p)) p++
    }
    this.pos = p
    return Number(this.src.slice(start, p))
  }

  private parseString(): string {
    const src = this.src
    let p = this.pos + 1
    let out = ""
    let runStart = p
    for (;;) {
      if (p >= src.length) return this.at("Unterminated string", p)
      const c = src.charCodeAt(p)
      if (c === 34) break
      if (c < 0x20) return this.at("Bad control character in string literal", p)
      if (c !== 92) {
        p++
        continue
      }
      out += src.slice(runStart, p)
      p++
      if (p >= src.length) return this.at("Unterminated string", p)
      const e = src[p]!
      switch (e) {
        case '"':
        case "\\":
        case "/":
          out += e
          break
        case "b":
          out += "\b"
          break
        case "f":
          out += "\f"
          break
        case "n":
          out += "\n"
          break
        case "r":
          out += "\r"
          break
        case "t":
          out += "\t"
          break
        case "u": {
          let code = 0
          for (let i = 1; i <= 4; i++) {
            const h = src.charCodeAt(p + i)
            const v = h >= 48 && h <= 57 ? h - 48 : h >= 65 && h <= 70 ? h - 55 : h >= 97 && h <= 102 ? h - 87 : -1
            if (v < 0) return this.at("Bad Unicode escape", p + i)
            code = code * 16 + v
          }
          out += String.fromCharCode(code)
          p += 4
          break
        }
        default:
          return this.at("Bad escaped character", p)
      }
      p++
      runStart = p
    }
    out += src.slice(runStart, p)
    this.pos = p + 1
    return out
  }
}

// https://tc39.es/ecma262/#sec-json.parse
function* JSON_parse(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const text = args[0]
  const reviver = args[1]
  const jsonString = typeof text === "string" ? text : yield* ToString(realm, text)
  const revive = IsCallable(reviver)
  const { value: unfiltered, node } = new JsonParser(realm, jsonString, revive).parse()
  if (!revive) return unfiltered
  const root = new JSObject(realm.ObjectPrototype)
  CreateDataProperty(root, "", unfiltered)
  return yield* InternalizeJSONProperty(realm, root, "", reviver, node)
}

// https://tc39.es/ecma262/#sec-internalizejsonproperty (with https://tc39.es/proposal-json-parse-with-source)
function* InternalizeJSONProperty(
  realm: Realm,
  holder: JSObject,
  name: string,
  reviver: JSObject,
  node: ParseNode | undefined,
): Task<Value> {
  const val = yield* holder.Get(name, holder)
  const context = new JSObject(realm.ObjectPrototype)
  if (val instanceof JSObject) {
    const children = node?.kind === "object" && node.value === val ? node.children : undefined
    if (val instanceof ArrayObject) {
      const len = yield* LengthOfArrayLike(realm, val)
      for (let I = 0; I < len; I++) {
        const prop = String(I)
        yield* reviveElement(realm, val, prop, reviver, children?.get(prop))
      }
    } else {
      const keys = yield* EnumerableOwnProperties(realm, val, "key")
      for (const P of keys) yield* reviveElement(realm, val, P as string, reviver, children?.get(P as string))
    }
  } else if (node?.kind === "primitive" && Object.is(node.value, val)) {
    CreateDataProperty(context, "source", node.source)
  }
  return yield* Call(reviver, holder, [name, val, context])
}

/** Steps 2.b.iii / 2.c.ii: revive one member, deleting it when the reviver returns undefined. */
function* reviveElement(realm: Realm, val: JSObject, P: string, reviver: JSObject, node: ParseNode | undefined): Task<void> {
  const newElement = yield* InternalizeJSONProperty(realm, val, P, reviver, node)
  if (newElement === undefined) val.Delete(P)
  else CreateDataProperty(val, P, newElement)
}

// ---------------------------------------------------------------------------------------------------------------
// Stringifying

interface SerializeState {
  readonly realm: Realm
  readonly replacerFunction: JSObject | undefined
  readonly propertyList: string[] | undefined
  readonly gap: string
  indent: string
  /** The objects being serialized, outermost first, and the key each was reached by. */
  readonly stack: JSObject[]
  readonly keys: string[]
}

/** A data property read without the engine; an accessor goes through [[Get]]. */
function* getProperty(O: JSObject, key: PropertyKey): Task<Value> {
  const s = O.lookupSlot(key)
  if (s === ABSENT) return undefined
  if (!(s instanceof Property)) return s
  if (!s.accessor) return s.value
  return yield* O.Get(key, O)
}

// https://tc39.es/ecma262/#sec-quotejsonstring — host JSON.stringify of a string is exactly this (well-formed).
export const QuoteJSONString = (value: string): string => JSON.stringify(value)

const RAW_JSON = "RawJSON"

// https://tc39.es/ecma262/#sec-serializejsonproperty
function* SerializeJSONProperty(state: SerializeState, key: string, holder: JSObject): Task<string | undefined> {
  PollInterrupt(state.realm)
  let value = yield* getProperty(holder, key)
  if (value instanceof JSObject || typeof value === "bigint") {
    const toJSON =
      value instanceof JSObject
        ? yield* getProperty(value, "toJSON")
        : yield* getProperty(state.realm.intrinsic("%BigInt.prototype%"), "toJSON")
    if (IsCallable(toJSON)) value = yield* Call(toJSON, value, [key])
  }
  if (state.replacerFunction !== undefined) value = yield* Call(state.replacerFunction, holder, [key, value])
  if (value instanceof JSObject) {
    if (value instanceof PrimitiveWrapper) {
      if (value.kind === "Number") value = yield* ToNumber(state.realm, value)
      else if (value.kind === "String") value = yield* ToString(state.realm, value)
      else if (value.kind === "Boolean" || value.kind === "BigInt") value = value.primitive
    } else if (value.kind === RAW_JSON) {
      return (value.GetOwnProperty("rawJSON")?.value as string | undefined) ?? "null"
    }
  }
  if (value === null) return "null"
  if (value === true) return "true"
  if (value === false) return "false"
  if (typeof value === "string") return QuoteJSONString(value)
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null"
  if (typeof value === "bigint") return throwTypeError("Do not know how to serialize a BigInt")
  if (value instanceof JSObject && !value.isCallable()) {
    return value instanceof ArrayObject ? yield* SerializeJSONArray(state, value, key) : yield* SerializeJSONObject(state, value, key)
  }
  return undefined
}

/** The constructor name V8 prints in its circular-structure message. */
const constructorNameOf = (O: JSObject): string => {
  const c = O.lookup("constructor")
  if (c !== undefined && !c.accessor && c.value instanceof JSObject) {
    const n = c.value.GetOwnProperty("name")
    if (n !== undefined && !n.accessor && typeof n.value === "string" && n.value !== "") return n.value
  }
  return O instanceof ArrayObject ? "Array" : "Object"
}

/** V8's "Converting circular structure to JSON" message with the path around the circle. */
const circularError = (state: SerializeState, value: JSObject, key: string): never => {
  const start = state.stack.indexOf(value)
  const describeKey = (holder: JSObject, k: string): string => (holder instanceof ArrayObject ? `index ${k}` : `property '${k}'`)
  const lines = [`\n    --> starting at object with constructor '${constructorNameOf(value)}'`]
  const middle: string[] = []
  for (let i = start + 1; i < state.stack.length; i++) {
    middle.push(`\n    |     ${describeKey(state.stack[i - 1]!, state.keys[i]!)} -> object with constructor '${constructorNameOf(state.stack[i]!)}'`)
  }
  // V8 elides the middle of long circles.
  if (middle.length > 3) lines.push(middle[0]!, middle[1]!, "\n    |     ...", middle[middle.length - 1]!)
  else lines.push(...middle)
  lines.push(`\n    --- ${describeKey(state.stack[state.stack.length - 1]!, key)} closes the circle`)
  return throwTypeError(`Converting circular structure to JSON${lines.join("")}`)
}

/** The start of SerializeJSONObject / SerializeJSONArray: the cycle check, one indent deeper; the indent to step back to. */
const enter = (state: SerializeState, value: JSObject, key: string): string => {
  if (state.stack.includes(value)) circularError(state, value, key)
  if (state.stack.length > 10_000) throw new SandboxError("RangeError", "Maximum call stack size exceeded")
  state.stack.push(value)
  state.keys.push(key)
  const stepback = state.indent
  state.indent = stepback + state.gap
  return stepback
}

/** The end of SerializeJSONObject / SerializeJSONArray: the members joined, the state back one level. */
const leave = (state: SerializeState, members: Members, stepback: string, open: string, close: string): string => {
  const final = joinMembers(state, members.parts, stepback, open, close)
  state.stack.pop()
  state.keys.pop()
  state.indent = stepback
  return final
}

/** An object's or array's member texts, their total length bounded as they are added. */
class Members {
  readonly parts: string[] = []
  private length = 0
  add(text: string, counted: number): void {
    this.length += counted
    checkStringLength(this.length)
    this.parts.push(text)
  }
}

const addMember = (state: SerializeState, members: Members, P: string, strP: string): void => {
  const member = `${QuoteJSONString(P)}:${state.gap === "" ? "" : " "}${strP}`
  members.add(member, member.length)
}

const addElement = (members: Members, strP: string): void => members.add(strP, strP.length + 1)

/** Joins members the way both SerializeJSONObject and SerializeJSONArray do (steps 9-10 / 10-11). */
const joinMembers = (state: SerializeState, partial: string[], stepback: string, open: string, close: string): string => {
  if (partial.length === 0) return open + close
  let total = 2
  for (const p of partial) total += p.length + 2 + state.indent.length
  checkStringLength(total)
  if (state.gap === "") return open + partial.join(",") + close
  const separator = `,\n${state.indent}`
  return `${open}\n${state.indent}${partial.join(separator)}\n${stepback}${close}`
}

// https://tc39.es/ecma262/#sec-serializejsonobject
function* SerializeJSONObject(state: SerializeState, value: JSObject, key: string): Task<string> {
  const stepback = enter(state, value, key)
  const K = state.propertyList ?? ((yield* EnumerableOwnProperties(state.realm, value, "key")) as string[])
  const partial = new Members()
  for (const P of K) {
    const strP = yield* SerializeJSONProperty(state, P, value)
    if (strP !== undefined) addMember(state, partial, P, strP)
  }
  return leave(state, partial, stepback, "{", "}")
}

// https://tc39.es/ecma262/#sec-serializejsonarray
function* SerializeJSONArray(state: SerializeState, value: ArrayObject, key: string): Task<string> {
  const stepback = enter(state, value, key)
  const partial = new Members()
  const len = yield* LengthOfArrayLike(state.realm, value)
  for (let index = 0; index < len; index++) addElement(partial, (yield* SerializeJSONProperty(state, String(index), value)) ?? "null")
  return leave(state, partial, stepback, "[", "]")
}

/**
 * SerializeJSONProperty for plain data, without a Task per property: the same steps, refusing (NOT_PLAIN) at the
 * first place where user code could run (an accessor, a callable toJSON, a boxed primitive). Until then nothing
 * observable has happened, so the caller starts over on the Task path with a fresh state; a circular structure or
 * an over-long result throws here exactly as it would there, as no user code could have run before it.
 */
const serializePlain = (state: SerializeState, key: string, holder: JSObject): string | undefined | typeof NOT_PLAIN => {
  PollInterrupt(state.realm)
  let value: Value
  const els = holder instanceof ArrayObject ? holder.elements : null
  const index = els === null ? -1 : Number(key)
  const element = els !== null && index < els.length ? els[index] : EMPTY
  if (element !== EMPTY) value = element as Value
  else {
    const s = holder.lookupSlot(key)
    if (s instanceof Property && s.accessor) return NOT_PLAIN
    value = slotValue(s)
  }
  if (value instanceof JSObject) {
    const toJSON = value.lookupSlot("toJSON")
    if (toJSON instanceof Property ? toJSON.accessor || IsCallable(toJSON.value) : toJSON !== ABSENT && IsCallable(toJSON)) return NOT_PLAIN
    if (value instanceof PrimitiveWrapper) return NOT_PLAIN
    if (value.kind === RAW_JSON) return (value.GetOwnProperty("rawJSON")?.value as string | undefined) ?? "null"
    if (value.isCallable()) return undefined
    return value instanceof ArrayObject ? serializePlainArray(state, value, key) : serializePlainObject(state, value, key)
  }
  if (value === null) return "null"
  if (value === true) return "true"
  if (value === false) return "false"
  if (typeof value === "string") return QuoteJSONString(value)
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null"
  if (typeof value === "bigint") return NOT_PLAIN
  return undefined
}

const NOT_PLAIN: unique symbol = Symbol("not plain")

/** SerializeJSONObject for plain data (see serializePlain). */
const serializePlainObject = (state: SerializeState, value: JSObject, key: string): string | typeof NOT_PLAIN => {
  const stepback = enter(state, value, key)
  const K = state.propertyList ?? enumerableOwnKeys(value)
  const partial = new Members()
  for (const P of K) {
    const strP = serializePlain(state, P, value)
    if (strP === NOT_PLAIN) return NOT_PLAIN
    if (strP !== undefined) addMember(state, partial, P, strP)
  }
  return leave(state, partial, stepback, "{", "}")
}

/** EnumerableOwnProperties(O, key), which runs nothing: filtered in the array OwnPropertyKeys made. */
const enumerableOwnKeys = (O: JSObject): string[] => {
  const keys = O.OwnPropertyKeys()
  let n = 0
  for (const key of keys) {
    if (typeof key === "string" && isOwnEnumerable(O, key)) keys[n++] = key
  }
  keys.length = n
  return keys as string[]
}

/** SerializeJSONArray for plain data (see serializePlain). */
const serializePlainArray = (state: SerializeState, value: ArrayObject, key: string): string | typeof NOT_PLAIN => {
  const stepback = enter(state, value, key)
  const partial = new Members()
  const len = value.length
  for (let index = 0; index < len; index++) {
    const strP = serializePlain(state, String(index), value) ?? "null"
    if (strP === NOT_PLAIN) return NOT_PLAIN
    addElement(partial, strP)
  }
  return leave(state, partial, stepback, "[", "]")
}

// https://tc39.es/ecma262/#sec-json.stringify
function* JSON_stringify(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const [value, replacer] = args
  let space = args[2]
  let replacerFunction: JSObject | undefined
  let propertyList: string[] | undefined
  if (replacer instanceof JSObject) {
    if (replacer.isCallable()) {
      replacerFunction = replacer
    } else if (replacer instanceof ArrayObject) {
      const set = new Set<string>()
      const len = yield* LengthOfArrayLike(realm, replacer)
      for (let k = 0; k < len; k++) {
        const v = yield* getProperty(replacer, String(k))
        let item: string | undefined
        if (typeof v === "string") item = v
        else if (typeof v === "number") item = String(v)
        else if (v instanceof PrimitiveWrapper && (v.kind === "String" || v.kind === "Number")) item = yield* ToString(realm, v)
        if (item !== undefined) set.add(item)
      }
      propertyList = [...set]
    }
  }
  if (space instanceof PrimitiveWrapper) {
    if (space.kind === "Number") space = yield* ToNumber(realm, space)
    else if (space.kind === "String") space = yield* ToString(realm, space)
  }
  let gap = ""
  if (typeof space === "number") {
    const n = Math.min(10, yield* ToIntegerOrInfinity(realm, space))
    gap = n >= 1 ? " ".repeat(n) : ""
  } else if (typeof space === "string") {
    gap = space.slice(0, 10)
  }
  const wrapper = new JSObject(realm.ObjectPrototype)
  CreateDataProperty(wrapper, "", value)
  const newState = (): SerializeState => ({ realm, replacerFunction, propertyList, gap, indent: "", stack: [], keys: [] })
  if (replacerFunction === undefined) {
    const text = serializePlain(newState(), "", wrapper)
    if (text !== NOT_PLAIN) return text
  }
  return yield* SerializeJSONProperty(newState(), "", wrapper)
}

// https://tc39.es/proposal-json-parse-with-source/#sec-json.rawjson
function* JSON_rawJSON(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const jsonString = yield* ToString(realm, args[0])
  const isWs = (c: string | undefined) => c === "\t" || c === "\n" || c === "\r" || c === " "
  if (jsonString === "" || isWs(jsonString[0]) || isWs(jsonString[jsonString.length - 1])) {
    throw new SandboxError("SyntaxError", `Invalid value for JSON.rawJSON`)
  }
  const parsed = new JsonParser(realm, jsonString, false).parse().value
  if (parsed instanceof JSObject) throw new SandboxError("SyntaxError", `Invalid value for JSON.rawJSON`)
  const internal = new JSObject(null)
  internal.kind = RAW_JSON
  CreateDataProperty(internal, "rawJSON", jsonString)
  internal.properties.get("rawJSON")!.writable = false
  internal.properties.get("rawJSON")!.configurable = false
  internal.extensible = false
  return internal
}

// https://tc39.es/proposal-json-parse-with-source/#sec-json.israwjson
const JSON_isRawJSON = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  args[0] instanceof JSObject && args[0].kind === RAW_JSON

export const install = (realm: Realm): void => {
  const JSONObject = new JSObject(realm.ObjectPrototype)
  realm.register("%JSON%", JSONObject)
  defineMethods(realm, JSONObject, "%JSON%", [
    ["parse", JSON_parse, 2],
    ["stringify", JSON_stringify, 3],
    ["rawJSON", JSON_rawJSON, 1],
    ["isRawJSON", JSON_isRawJSON, 1],
  ])
  defineValues(JSONObject, [[WellKnownSymbols.toStringTag, "JSON"]], { writable: false, enumerable: false, configurable: true })
  defineValues(realm.globalObject, [["JSON", JSONObject]], { writable: true, enumerable: false, configurable: true })
}
