/**
 * URL and URLSearchParams (the WHATWG URL Standard, https://url.spec.whatwg.org/), as Node provides them: the same
 * conversions (`${value}`, USVString), argument checks and coded errors (`TypeError` "Invalid URL" with
 * `code: "ERR_INVALID_URL"` and `input`), a `searchParams` object live-linked to its URL, and live iterators.
 *
 * The parsing engine is the host's WHATWG implementation, used as a pure function of strings: a URL object keeps
 * only its serialization (`href`) and every getter and setter parses it with the host `URL`, applies the host
 * setter and keeps the new `href`. URLSearchParams keeps its list of name/value pairs (plain strings); the host
 * `URLSearchParams` parses and serializes `application/x-www-form-urlencoded` text. No host object outlives a call.
 * NON-SPEC: URL.createObjectURL / revokeObjectURL (which need Blob) are not provided.
 */
import { defineAccessors, defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { ToString } from "../runtime/conversions.ts"
import { IsCallable } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, GetPrototypeFromConstructor } from "../runtime/operations.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { IteratorStepValue, DONE, GetIteratorFromMethod, IteratorCloseOnThrow } from "../runtime/iteration.ts"
import { SandboxError, ThrowCompletion } from "../runtime/completion.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { checkArrayStorage, checkStringLength } from "../runtime/caps.ts"
import { CreateArrayFromList } from "../runtime/operations.ts"
import {
  describeReceived,
  invalidThis,
  iteratorPrototypeOf,
  markEnumerable,
  missingArgs,
  pairIteratorNext,
  type PairIterationKind,
  requireNew,
  throwCodedError,
  toUSVString,
} from "./web.ts"

type Args = ReadonlyArray<Value>

/** `${v}` (ToString, which may run user code). */
function* str(realm: Realm, v: Value): Task<string> {
  return typeof v === "string" ? v : yield* ToString(realm, v)
}

/** `toUSVString(`${v}`)`. */
function* usv(realm: Realm, v: Value): Task<string> {
  return toUSVString(yield* str(realm, v))
}

// ---------------------------------------------------------------------------------------------------------------
// URL

/** A URL: its serialization, and its URLSearchParams once read. */
export class URLObject extends JSObject {
  href: string
  searchParams: URLSearchParamsObject | undefined = undefined
  constructor(proto: JSObject | null, href: string) {
    super(proto)
    this.kind = "URL"
    this.href = href
  }
}

/** The host's parse of a string, or undefined when it is not a valid URL. */
const hostParse = (input: string, base?: string): URL | undefined => {
  try {
    return base === undefined ? new URL(input) : new URL(input, base)
  } catch {
    return undefined
  }
}

const invalidURL = (realm: Realm, input: string, base: string | undefined): never =>
  throwCodedError(realm, "TypeError", "ERR_INVALID_URL", "Invalid URL", base === undefined ? [["input", input]] : [["input", input], ["base", base]])

/** Node's receiver check for URL's members. */
const thisURL = (v: Value): URLObject => (v instanceof URLObject ? v : throwTypeError("Receiver must be an instance of class URL"))

/** The `url` and `base` arguments of the constructor, URL.parse and URL.canParse, converted as Node does. */
function* urlArguments(realm: Realm, args: Args): Task<[string, string | undefined]> {
  if (args.length === 0) return missingArgs(realm, "url")
  const input = yield* str(realm, args[0])
  const base = args[1] === undefined ? undefined : yield* str(realm, args[1])
  return [input, base]
}

// https://url.spec.whatwg.org/#dom-url-url
function* URL_(realm: Realm, _this: Value, args: Args, newTarget: JSObject | undefined): Task<Value> {
  const target = requireNew(newTarget, "URL")
  const [input, base] = yield* urlArguments(realm, args)
  const parsed = hostParse(input, base)
  if (parsed === undefined) return invalidURL(realm, input, base)
  const proto = yield* GetPrototypeFromConstructor(realm, target, "%URL.prototype%")
  return new URLObject(proto, parsed.href)
}

// https://url.spec.whatwg.org/#dom-url-parse
function* URL_parse(realm: Realm, _this: Value, args: Args): Task<Value> {
  const [input, base] = yield* urlArguments(realm, args)
  const parsed = hostParse(input, base)
  return parsed === undefined ? null : new URLObject(realm.intrinsic("%URL.prototype%"), parsed.href)
}

// https://url.spec.whatwg.org/#dom-url-canparse
function* URL_canParse(realm: Realm, _this: Value, args: Args): Task<Value> {
  const [input, base] = yield* urlArguments(realm, args)
  return hostParse(input, base) !== undefined
}

type URLPart = "href" | "origin" | "protocol" | "username" | "password" | "host" | "hostname" | "port" | "pathname" | "search" | "hash"

const makeURLGetter = (part: URLPart) =>
  function URLProto_get(_realm: Realm, thisArg: Value): Value {
    const url = thisURL(thisArg)
    return part === "href" ? url.href : new URL(url.href)[part]
  }

const makeURLSetter = (part: Exclude<URLPart, "origin">) =>
  function* URLProto_set(realm: Realm, thisArg: Value, args: Args): Task<Value> {
    const url = thisURL(thisArg)
    const value = yield* str(realm, args[0])
    let next: string
    if (part === "href") {
      // The href setter parses anew and throws on failure.
      const parsed = hostParse(value)
      if (parsed === undefined) return invalidURL(realm, value, undefined)
      next = parsed.href
    } else {
      // Every other setter ignores input it cannot use.
      const host = new URL(url.href)
      host[part] = value
      next = host.href
    }
    checkStringLength(next.length)
    const oldSearch = new URL(url.href).search
    url.href = next
    // The query may have changed: the linked URLSearchParams re-reads it.
    const sp = url.searchParams
    if (sp !== undefined) {
      const newSearch = new URL(next).search
      if (newSearch !== oldSearch) sp.list = parsePairs(newSearch)
    }
    return undefined
  }

// https://url.spec.whatwg.org/#dom-url-searchparams
const URLProto_searchParams = (realm: Realm, thisArg: Value): Value => {
  const url = thisURL(thisArg)
  if (url.searchParams === undefined) {
    const sp = new URLSearchParamsObject(realm.intrinsic("%URLSearchParams.prototype%"), parsePairs(new URL(url.href).search))
    sp.url = url
    url.searchParams = sp
  }
  return url.searchParams
}

// https://url.spec.whatwg.org/#dom-url-tojson (toString is the same)
const URLProto_toString = (_realm: Realm, thisArg: Value): Value => thisURL(thisArg).href

// ---------------------------------------------------------------------------------------------------------------
// URLSearchParams

/** A URLSearchParams: its list of [name, value] pairs and, when it is a URL's `searchParams`, that URL. */
export class URLSearchParamsObject extends JSObject {
  list: Array<[string, string]>
  url: URLObject | undefined = undefined
  constructor(proto: JSObject | null, list: Array<[string, string]>) {
    super(proto)
    this.kind = "URLSearchParams"
    this.list = list
  }
}

/** https://url.spec.whatwg.org/#concept-urlencoded-parser (a leading "?" is dropped, as the constructor does). */
const parsePairs = (query: string): Array<[string, string]> => {
  const pairs: Array<[string, string]> = []
  for (const [k, v] of new URLSearchParams(query)) pairs.push([k, v])
  checkArrayStorage(pairs.length)
  return pairs
}

/** https://url.spec.whatwg.org/#concept-urlencoded-serializer */
const serializePairs = (list: ReadonlyArray<[string, string]>): string => {
  const s = new URLSearchParams(list as Array<[string, string]>).toString()
  checkStringLength(s.length)
  return s
}

/** https://url.spec.whatwg.org/#concept-urlsearchparams-update — writes the list back into the linked URL. */
const update = (sp: URLSearchParamsObject): void => {
  const url = sp.url
  if (url === undefined) return
  const host = new URL(url.href)
  host.search = serializePairs(sp.list)
  url.href = host.href
}

const thisParams = (realm: Realm, v: Value): URLSearchParamsObject =>
  v instanceof URLSearchParamsObject ? v : invalidThis(realm, "URLSearchParams")

const invalidTuple = (realm: Realm): never =>
  throwCodedError(realm, "TypeError", "ERR_INVALID_TUPLE", "Each query pair must be an iterable [name, value] tuple")

/** A throw that a native loop must answer by closing its iterator. */
const isAbrupt = (e: unknown): boolean => e instanceof ThrowCompletion || e instanceof SandboxError

// https://url.spec.whatwg.org/#dom-urlsearchparams-urlsearchparams (Node's reading of `init`)
function* URLSearchParams_(realm: Realm, _this: Value, args: Args, newTarget: JSObject | undefined): Task<Value> {
  const target = requireNew(newTarget, "URLSearchParams")
  const proto = yield* GetPrototypeFromConstructor(realm, target, "%URLSearchParams.prototype%")
  const init = args[0]
  const list: Array<[string, string]> = []
  if (init === undefined) {
    // nothing
  } else if (init instanceof JSObject) {
    const method = yield* init.Get(WellKnownSymbols.iterator, init)
    if (init instanceof URLSearchParamsObject && method === realm.intrinsic("%URLSearchParams.prototype%").properties.get(WellKnownSymbols.iterator)?.value) {
      for (const [k, v] of init.list) list.push([k, v])
    } else if (method !== undefined && method !== null) {
      // A sequence of pairs, each itself an array of two or an iterable of two.
      if (!IsCallable(method)) return throwCodedError(realm, "TypeError", "ERR_ARG_NOT_ITERABLE", "Query pairs must be iterable")
      const record = yield* GetIteratorFromMethod(realm, init, method)
      for (;;) {
        const pair = yield* IteratorStepValue(record)
        if (pair === DONE) break
        try {
          list.push(yield* readPair(realm, pair))
          checkArrayStorage(list.length)
        } catch (e) {
          if (!isAbrupt(e)) throw e
          return yield* IteratorCloseOnThrow(realm, record, e)
        }
      }
    } else {
      // A record: own enumerable keys, the last value of each (USV-converted) key wins.
      const visited = new Map<string, string>()
      for (const key of init.OwnPropertyKeys()) {
        const desc = init.GetOwnProperty(key)
        if (desc === undefined || !desc.enumerable) continue
        if (key instanceof SymbolValue) return throwTypeError("Cannot convert a Symbol value to a string")
        const typedKey = toUSVString(key)
        const typedValue = yield* usv(realm, yield* init.Get(key, init))
        visited.set(typedKey, typedValue)
      }
      for (const [k, v] of visited) list.push([k, v])
    }
  } else {
    for (const pair of parsePairs(yield* usv(realm, init))) list.push(pair)
  }
  return new URLSearchParamsObject(proto, list)
}

/** One [name, value] pair of a sequence argument (Node: an array of length 2, or an iterable yielding two). */
function* readPair(realm: Realm, pair: Value): Task<[string, string]> {
  if (pair === undefined || pair === null) return invalidTuple(realm)
  if (pair instanceof ArrayObject) {
    if (pair.length !== 2) return invalidTuple(realm)
    const name = yield* usv(realm, yield* pair.Get("0", pair))
    const value = yield* usv(realm, yield* pair.Get("1", pair))
    return [name, value]
  }
  if (!(pair instanceof JSObject)) return invalidTuple(realm)
  const method = yield* pair.Get(WellKnownSymbols.iterator, pair)
  if (!IsCallable(method)) return invalidTuple(realm)
  const record = yield* GetIteratorFromMethod(realm, pair, method)
  const items: string[] = []
  for (;;) {
    const element = yield* IteratorStepValue(record)
    if (element === DONE) break
    items.push(yield* usv(realm, element))
  }
  if (items.length !== 2) return invalidTuple(realm)
  return [items[0]!, items[1]!]
}

function* twoArgs(realm: Realm, args: Args): Task<[string, string]> {
  if (args.length < 2) return throwCodedError(realm, "TypeError", "ERR_MISSING_ARGS", 'The "name" and "value" arguments must be specified')
  return [yield* usv(realm, args[0]), yield* usv(realm, args[1])]
}

function* nameArg(realm: Realm, args: Args): Task<string> {
  if (args.length < 1) return missingArgs(realm, "name")
  return yield* usv(realm, args[0])
}

// https://url.spec.whatwg.org/#dom-urlsearchparams-append
function* URLSearchParamsProto_append(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const sp = thisParams(realm, thisArg)
  const [name, value] = yield* twoArgs(realm, args)
  checkArrayStorage(sp.list.length + 1)
  sp.list.push([name, value])
  update(sp)
  return undefined
}

// https://url.spec.whatwg.org/#dom-urlsearchparams-delete
function* URLSearchParamsProto_delete(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const sp = thisParams(realm, thisArg)
  const name = yield* nameArg(realm, args)
  const value = args[1] === undefined ? undefined : yield* usv(realm, args[1])
  const kept = sp.list.filter(([k, v]) => !(k === name && (value === undefined || v === value)))
  sp.list.splice(0, sp.list.length, ...kept)
  update(sp)
  return undefined
}

// https://url.spec.whatwg.org/#dom-urlsearchparams-get
function* URLSearchParamsProto_get(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const sp = thisParams(realm, thisArg)
  const name = yield* nameArg(realm, args)
  const found = sp.list.find(([k]) => k === name)
  return found === undefined ? null : found[1]
}

// https://url.spec.whatwg.org/#dom-urlsearchparams-getall
function* URLSearchParamsProto_getAll(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const sp = thisParams(realm, thisArg)
  const name = yield* nameArg(realm, args)
  return CreateArrayFromList(realm, sp.list.filter(([k]) => k === name).map(([, v]) => v))
}

// https://url.spec.whatwg.org/#dom-urlsearchparams-has
function* URLSearchParamsProto_has(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const sp = thisParams(realm, thisArg)
  const name = yield* nameArg(realm, args)
  const value = args[1] === undefined ? undefined : yield* usv(realm, args[1])
  return sp.list.some(([k, v]) => k === name && (value === undefined || v === value))
}

// https://url.spec.whatwg.org/#dom-urlsearchparams-set
function* URLSearchParamsProto_set(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const sp = thisParams(realm, thisArg)
  const [name, value] = yield* twoArgs(realm, args)
  const first = sp.list.findIndex(([k]) => k === name)
  if (first < 0) sp.list.push([name, value])
  else {
    sp.list[first] = [name, value]
    const kept = sp.list.filter(([k], i) => i <= first || k !== name)
    sp.list.splice(0, sp.list.length, ...kept)
  }
  update(sp)
  return undefined
}

// https://url.spec.whatwg.org/#dom-urlsearchparams-sort — stable, by code units of the names.
const URLSearchParamsProto_sort = (realm: Realm, thisArg: Value): Value => {
  const sp = thisParams(realm, thisArg)
  sp.list.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  update(sp)
  return undefined
}

// https://url.spec.whatwg.org/#urlsearchparams-stringification-behavior
const URLSearchParamsProto_toString = (realm: Realm, thisArg: Value): Value => serializePairs(thisParams(realm, thisArg).list)

// https://url.spec.whatwg.org/#dom-urlsearchparams-size
const URLSearchParamsProto_size = (realm: Realm, thisArg: Value): Value => thisParams(realm, thisArg).list.length

/** Node's forEach: the list is read live, so pairs added by the callback are visited. */
function* URLSearchParamsProto_forEach(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const sp = thisParams(realm, thisArg)
  const [callback, T] = args
  if (!IsCallable(callback)) {
    return throwCodedError(realm, "TypeError", "ERR_INVALID_ARG_TYPE", `The "callback" argument must be of type function. ${describeReceived(callback)}`)
  }
  for (let i = 0; i < sp.list.length; i++) {
    const [key, value] = sp.list[i]!
    yield* Call(callback, T, [value, key, sp])
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------------------------
// URLSearchParams Iterator (Node's: live over the list, and it never finishes for good)

export class URLSearchParamsIteratorObject extends JSObject {
  readonly target: URLSearchParamsObject
  readonly iterationKind: PairIterationKind
  index = 0
  constructor(proto: JSObject | null, target: URLSearchParamsObject, iterationKind: PairIterationKind) {
    super(proto)
    this.kind = "URLSearchParams Iterator"
    this.target = target
    this.iterationKind = iterationKind
  }
}

const makeIterator = (iterationKind: PairIterationKind) =>
  function URLSearchParamsProto_iterator(realm: Realm, thisArg: Value): Value {
    const sp = thisParams(realm, thisArg)
    return new URLSearchParamsIteratorObject(realm.intrinsic("%URLSearchParamsIteratorPrototype%"), sp, iterationKind)
  }

const URLSearchParamsIteratorProto_next = (realm: Realm, thisArg: Value): Value => {
  if (!(thisArg instanceof URLSearchParamsIteratorObject)) return invalidThis(realm, "URLSearchParamsIterator")
  return pairIteratorNext(realm, thisArg, thisArg.target.list)
}

// ---------------------------------------------------------------------------------------------------------------

export const install = (realm: Realm): void => {
  const tag = (o: JSObject, name: string): void =>
    defineValues(o, [[WellKnownSymbols.toStringTag, name]], { writable: false, enumerable: false, configurable: true })

  // URL
  const URLPrototype = new JSObject(realm.ObjectPrototype)
  const URLCtor = defineConstructor(realm, "URL", URL_, 1, URLPrototype)
  defineMethods(realm, URLCtor, "%URL%", [
    ["parse", URL_parse, 1],
    ["canParse", URL_canParse, 1],
  ])
  markEnumerable(URLCtor, ["parse", "canParse"])
  defineMethods(realm, URLPrototype, "%URL.prototype%", [["toString", URLProto_toString, 0]])
  const parts: ReadonlyArray<URLPart | "searchParams"> = [
    "href",
    "origin",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "searchParams",
    "hash",
  ]
  defineAccessors(
    realm,
    URLPrototype,
    "%URL.prototype%",
    parts.map((part) =>
      part === "searchParams"
        ? ([part, URLProto_searchParams, undefined] as const)
        : part === "origin"
          ? ([part, makeURLGetter(part), undefined] as const)
          : ([part, makeURLGetter(part), makeURLSetter(part)] as const),
    ),
  )
  defineMethods(realm, URLPrototype, "%URL.prototype%", [["toJSON", URLProto_toString, 0]])
  markEnumerable(URLPrototype, ["toString", ...parts, "toJSON"])
  tag(URLPrototype, "URL")

  // URLSearchParams
  const SPPrototype = new JSObject(realm.ObjectPrototype)
  defineConstructor(realm, "URLSearchParams", URLSearchParams_, 0, SPPrototype)
  defineAccessors(realm, SPPrototype, "%URLSearchParams.prototype%", [["size", URLSearchParamsProto_size, undefined]])
  const methods = [
    ["append", URLSearchParamsProto_append, 2],
    ["delete", URLSearchParamsProto_delete, 1],
    ["get", URLSearchParamsProto_get, 1],
    ["getAll", URLSearchParamsProto_getAll, 1],
    ["has", URLSearchParamsProto_has, 1],
    ["set", URLSearchParamsProto_set, 2],
    ["sort", URLSearchParamsProto_sort, 0],
    ["entries", makeIterator("key+value"), 0],
    ["forEach", URLSearchParamsProto_forEach, 1],
    ["keys", makeIterator("key"), 0],
    ["values", makeIterator("value"), 0],
    ["toString", URLSearchParamsProto_toString, 0],
  ] as const
  defineMethods(realm, SPPrototype, "%URLSearchParams.prototype%", methods)
  markEnumerable(SPPrototype, ["size", ...methods.map(([name]) => name)])
  tag(SPPrototype, "URLSearchParams")
  SPPrototype.properties.set(WellKnownSymbols.iterator, Property.data(SPPrototype.properties.get("entries")!.value, true, false, true))

  const SPIteratorPrototype = new JSObject(iteratorPrototypeOf(realm))
  realm.register("%URLSearchParamsIteratorPrototype%", SPIteratorPrototype)
  defineMethods(realm, SPIteratorPrototype, "%URLSearchParamsIteratorPrototype%", [["next", URLSearchParamsIteratorProto_next, 0]])
  markEnumerable(SPIteratorPrototype, ["next"])
  tag(SPIteratorPrototype, "URLSearchParams Iterator")
}
