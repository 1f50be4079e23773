/**
 * Headers (the Fetch Standard, https://fetch.spec.whatwg.org/#headers-class), as Node's undici implements it: a
 * header list keyed by lowercased name whose values combine with ", " (Set-Cookie values are also kept one by
 * one for `getSetCookie` and iteration), iteration in sorted lowercase-name order, live iterators, and undici's
 * argument conversions (ByteString) and error messages. Only the "none" guard exists (no Request/Response here),
 * so no header name is forbidden.
 */
import { defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { SandboxError, ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { ToString } from "../runtime/conversions.ts"
import { IsCallable } from "../runtime/function-object.ts"
import { DONE, GetIteratorFromMethod, IteratorCloseOnThrow, IteratorStepValue } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, CreateArrayFromList, describeValue, GetPrototypeFromConstructor } from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { checkArrayStorage, checkStringLength } from "../runtime/caps.ts"
import { iteratorPrototypeOf, markEnumerable, pairIteratorNext, type PairIterationKind, throwCodedError } from "./web.ts"

type Args = ReadonlyArray<Value>

/** A Headers object's header list: combined values by lowercased name (insertion order), and Set-Cookie values. */
export class HeadersObject extends JSObject {
  readonly map = new Map<string, string>()
  cookies: string[] = []
  constructor(proto: JSObject | null) {
    super(proto)
    this.kind = "Headers"
  }
}

const thisHeaders = (realm: Realm, v: Value): HeadersObject =>
  v instanceof HeadersObject ? v : throwCodedError(realm, "TypeError", "ERR_INVALID_THIS", "Illegal invocation")

/** undici's webidl.argumentLengthCheck. */
const argumentLengthCheck = (args: Args, min: number, ctx: string): void => {
  if (args.length < min) {
    const n = args.length
    throwTypeError(`${ctx}: ${min} argument${min !== 1 ? "s" : ""} required, but${n ? " only" : ""} ${n} found.`)
  }
}

/** https://webidl.spec.whatwg.org/#es-ByteString */
function* ToByteString(realm: Realm, v: Value): Task<string> {
  const s = typeof v === "string" ? v : yield* ToString(realm, v)
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c > 255) {
      return throwTypeError(
        `Cannot convert argument to a ByteString because the character at index ${i} has a value of ${c} which is greater than 255.`,
      )
    }
  }
  return s
}

/** https://fetch.spec.whatwg.org/#header-name (a token) */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const isValidHeaderName = (name: string): boolean => TOKEN.test(name)

/** https://fetch.spec.whatwg.org/#concept-header-value-normalize — strip leading and trailing HTTP whitespace. */
const normalizeValue = (v: string): string => v.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "")
const isValidHeaderValue = (v: string): boolean => !/[\0\n\r]/.test(v)

const invalidName = (ctx: string, name: string): never => throwTypeError(`${ctx}: "${name}" is an invalid header name.`)
const invalidValue = (ctx: string, value: string): never => throwTypeError(`${ctx}: "${value}" is an invalid header value.`)

/** https://fetch.spec.whatwg.org/#concept-headers-append */
const appendHeader = (h: HeadersObject, name: string, rawValue: string, ctx: string): void => {
  const value = normalizeValue(rawValue)
  if (!isValidHeaderName(name)) invalidName(ctx, name)
  if (!isValidHeaderValue(value)) invalidValue(ctx, value)
  const key = name.toLowerCase()
  const existing = h.map.get(key)
  checkArrayStorage(h.map.size + h.cookies.length + 1)
  if (existing !== undefined) checkStringLength(existing.length + 2 + value.length)
  h.map.set(key, existing === undefined ? value : `${existing}, ${value}`)
  if (key === "set-cookie") h.cookies.push(value)
}

/** The sort-and-combine view iteration uses (https://fetch.spec.whatwg.org/#concept-header-list-sort-and-combine). */
const sortedEntries = (h: HeadersObject): Array<[string, string]> => {
  const names = [...h.map.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const out: Array<[string, string]> = []
  for (const name of names) {
    if (name === "set-cookie") for (const c of h.cookies) out.push([name, c])
    else out.push([name, h.map.get(name)!])
  }
  return out
}

/** A throw that a native loop must answer by closing its iterator. */
const isAbrupt = (e: unknown): boolean => e instanceof ThrowCompletion || e instanceof SandboxError

/** undici's sequence converter: every element of an iterable, in order. */
function* iterableToList<T>(realm: Realm, obj: Value, method: Value, each: (v: Value, i: number) => Task<T>): Task<T[]> {
  const record = yield* GetIteratorFromMethod(realm, obj, method)
  const out: T[] = []
  for (;;) {
    const next = yield* IteratorStepValue(record)
    if (next === DONE) return out
    try {
      out.push(yield* each(next, out.length))
      checkArrayStorage(out.length)
    } catch (e) {
      if (!isAbrupt(e)) throw e
      return yield* IteratorCloseOnThrow(realm, record, e)
    }
  }
}

// https://fetch.spec.whatwg.org/#dom-headers (with undici's HeadersInit conversion)
function* Headers_(realm: Realm, _this: Value, args: Args, newTarget: JSObject | undefined): Task<Value> {
  if (newTarget === undefined) return throwTypeError("Class constructor Headers cannot be invoked without 'new'")
  const h = new HeadersObject(yield* GetPrototypeFromConstructor(realm, newTarget, "%Headers.prototype%"))
  const init = args[0]
  if (init === undefined) return h
  const ctx = "Headers constructor"
  if (!(init instanceof JSObject)) {
    return throwTypeError(`${ctx}: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.`)
  }
  const iterator = yield* init.Get(WellKnownSymbols.iterator, init)
  if (init instanceof HeadersObject && iterator === realm.intrinsic("%Headers.prototype%").properties.get("entries")?.value) {
    // Another Headers: copy its list (names as they are stored; Set-Cookie values one by one).
    for (const [name, value] of init.map) if (name !== "set-cookie") appendHeader(h, name, value, "Headers.append")
    for (const c of init.cookies) appendHeader(h, "set-cookie", c, "Headers.append")
    return h
  }
  if (IsCallable(iterator)) {
    // sequence<sequence<ByteString>>
    const pairs = yield* iterableToList(realm, init, iterator, function* (pair, i) {
      const inner = pair instanceof JSObject ? yield* pair.Get(WellKnownSymbols.iterator, pair) : undefined
      if (!IsCallable(inner)) return throwTypeError(`${ctx}: init[${i}] (${describeValue(pair)}) is not iterable.`)
      return yield* iterableToList(realm, pair, inner, (v) => ToByteString(realm, v))
    })
    for (const items of pairs) {
      if (items.length !== 2) return throwTypeError(`${ctx}: expected name/value pair to be length 2, found ${items.length}.`)
      appendHeader(h, items[0]!, items[1]!, "Headers.append")
    }
    return h
  }
  // record<ByteString, ByteString>
  const record: Array<[string, string]> = []
  for (const key of init.OwnPropertyKeys()) {
    const desc = init.GetOwnProperty(key)
    if (desc === undefined || !desc.enumerable) continue
    if (key instanceof SymbolValue) {
      return throwTypeError(`${ctx}: Key ${describeValue(key)} in init is a symbol, which cannot be converted to a ByteString.`)
    }
    const typedKey = yield* ToByteString(realm, key)
    const typedValue = yield* ToByteString(realm, yield* init.Get(key, init))
    const at = record.findIndex(([k]) => k === typedKey)
    if (at >= 0) record[at] = [typedKey, typedValue]
    else record.push([typedKey, typedValue])
  }
  for (const [name, value] of record) appendHeader(h, name, value, "Headers.append")
  return h
}

// https://fetch.spec.whatwg.org/#dom-headers-append
function* HeadersProto_append(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const h = thisHeaders(realm, thisArg)
  argumentLengthCheck(args, 2, "Headers.append")
  const name = yield* ToByteString(realm, args[0])
  const value = yield* ToByteString(realm, args[1])
  appendHeader(h, name, value, "Headers.append")
  return undefined
}

/** The name argument of delete/get/has: converted and validated. */
function* nameArgument(realm: Realm, args: Args, ctx: string): Task<string> {
  argumentLengthCheck(args, 1, ctx)
  const name = yield* ToByteString(realm, args[0])
  if (!isValidHeaderName(name)) invalidName(ctx, name)
  return name.toLowerCase()
}

// https://fetch.spec.whatwg.org/#dom-headers-delete
function* HeadersProto_delete(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const h = thisHeaders(realm, thisArg)
  const key = yield* nameArgument(realm, args, "Headers.delete")
  h.map.delete(key)
  if (key === "set-cookie") h.cookies = []
  return undefined
}

// https://fetch.spec.whatwg.org/#dom-headers-get
function* HeadersProto_get(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const h = thisHeaders(realm, thisArg)
  const key = yield* nameArgument(realm, args, "Headers.get")
  return h.map.get(key) ?? null
}

// https://fetch.spec.whatwg.org/#dom-headers-getsetcookie
const HeadersProto_getSetCookie = (realm: Realm, thisArg: Value): Value =>
  CreateArrayFromList(realm, thisHeaders(realm, thisArg).cookies)

// https://fetch.spec.whatwg.org/#dom-headers-has
function* HeadersProto_has(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const h = thisHeaders(realm, thisArg)
  const key = yield* nameArgument(realm, args, "Headers.has")
  return h.map.has(key)
}

// https://fetch.spec.whatwg.org/#dom-headers-set
function* HeadersProto_set(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const h = thisHeaders(realm, thisArg)
  argumentLengthCheck(args, 2, "Headers.set")
  const name = yield* ToByteString(realm, args[0])
  const value = normalizeValue(yield* ToByteString(realm, args[1]))
  if (!isValidHeaderName(name)) invalidName("Headers.set", name)
  if (!isValidHeaderValue(value)) invalidValue("Headers.set", value)
  const key = name.toLowerCase()
  h.map.set(key, value)
  if (key === "set-cookie") h.cookies = [value]
  return undefined
}

/** undici's forEach: `thisArg` defaults to the global object, and the list is re-read at each step. */
function* HeadersProto_forEach(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const h = thisHeaders(realm, thisArg)
  argumentLengthCheck(args, 1, "Headers.forEach")
  const callback = args[0]
  if (!IsCallable(callback)) return throwTypeError("Failed to execute 'forEach' on 'Headers': parameter 1 is not of type 'Function'.")
  const T = args[1] === undefined ? realm.globalObject : args[1]
  for (let i = 0; ; i++) {
    const entries = sortedEntries(h)
    if (i >= entries.length) return undefined
    const [key, value] = entries[i]!
    yield* Call(callback, T, [value, key, h])
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Headers Iterator (live: each `next` sorts the current list)

export class HeadersIteratorObject extends JSObject {
  readonly target: HeadersObject
  readonly iterationKind: PairIterationKind
  index = 0
  constructor(proto: JSObject | null, target: HeadersObject, iterationKind: PairIterationKind) {
    super(proto)
    this.kind = "Headers Iterator"
    this.target = target
    this.iterationKind = iterationKind
  }
}

const makeIterator = (iterationKind: PairIterationKind) =>
  function HeadersProto_iterator(realm: Realm, thisArg: Value): Value {
    const h = thisHeaders(realm, thisArg)
    return new HeadersIteratorObject(realm.intrinsic("%HeadersIteratorPrototype%"), h, iterationKind)
  }

const HeadersIteratorProto_next = (realm: Realm, thisArg: Value): Value => {
  if (!(thisArg instanceof HeadersIteratorObject)) {
    return throwTypeError("'next' called on an object that does not implement interface Headers Iterator.")
  }
  return pairIteratorNext(realm, thisArg, sortedEntries(thisArg.target))
}

export const install = (realm: Realm): void => {
  const tag = (o: JSObject, name: string): void =>
    defineValues(o, [[WellKnownSymbols.toStringTag, name]], { writable: false, enumerable: false, configurable: true })
  const HeadersPrototype = new JSObject(realm.ObjectPrototype)
  defineConstructor(realm, "Headers", Headers_, 0, HeadersPrototype)
  const methods = [
    ["append", HeadersProto_append, 2],
    ["delete", HeadersProto_delete, 1],
    ["get", HeadersProto_get, 1],
    ["has", HeadersProto_has, 1],
    ["set", HeadersProto_set, 2],
    ["getSetCookie", HeadersProto_getSetCookie, 0],
    ["keys", makeIterator("key"), 0],
    ["values", makeIterator("value"), 0],
    ["entries", makeIterator("key+value"), 0],
    ["forEach", HeadersProto_forEach, 1],
  ] as const
  defineMethods(realm, HeadersPrototype, "%Headers.prototype%", methods)
  markEnumerable(HeadersPrototype, methods.map(([name]) => name))
  HeadersPrototype.properties.set(WellKnownSymbols.iterator, Property.data(HeadersPrototype.properties.get("entries")!.value, true, false, true))
  tag(HeadersPrototype, "Headers")

  const HeadersIteratorPrototype = new JSObject(iteratorPrototypeOf(realm))
  realm.register("%HeadersIteratorPrototype%", HeadersIteratorPrototype)
  defineMethods(realm, HeadersIteratorPrototype, "%HeadersIteratorPrototype%", [["next", HeadersIteratorProto_next, 0]])
  markEnumerable(HeadersIteratorPrototype, ["next"])
  tag(HeadersIteratorPrototype, "Headers Iterator")
}
