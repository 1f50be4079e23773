/**
 * RegExp objects (https://tc39.es/ecma262/#sec-regexp-regular-expression-objects): the constructor, the flag and
 * `source` accessors, exec/test/toString/compile, and the Symbol.match / matchAll / replace / search / split
 * protocol methods, written against `RegExpExec` exactly as the spec does so that a subclass overriding `exec`
 * (or `flags`, or `lastIndex`) is honoured everywhere. `RegExp.escape` is implemented here per the proposal.
 *
 * The matching engine. A RegExp object's state is plain data: [[OriginalSource]], [[OriginalFlags]] and its own
 * `lastIndex` property. The matcher is a host RegExp compiled from source+flags and used as a pure
 * string-to-match function (see `Matcher`): it lives in a process-wide cache keyed by flags and source (never in the heap, so a
 * snapshot holds only source, flags and lastIndex), its host `lastIndex` is set before every use, and every match
 * it produces is converted at once into sandbox arrays and objects. The host is V8, so syntax, Unicode case
 * folding, property escapes and the `v` flag behave exactly as V8's do; a bad pattern is V8's own SyntaxError text
 * ("Invalid regular expression: /(/: Unterminated group").
 *
 * A host match is one host call that `timeoutMs` cannot interrupt, so V8 runs only patterns its linear-time engine
 * accepts (it finishes an excessively backtracking match there, `useLinearFallback`); every other pattern runs on
 * the interruptible matcher (regexp-matcher/), which returns the same match arrays and charges its steps to the run.
 *
 * NON-SPEC: the legacy static properties (RegExp.$1-$9, lastMatch, input...) are not provided.
 */
import { Caps, checkArrayStorage, checkStringLength } from "../runtime/caps.ts"
import { PollInterrupt } from "../runtime/interrupt.ts"
import { defineAccessors, defineConstructor, defineMethods } from "../runtime/builtin.ts"
import { SandboxError, throwTypeError } from "../runtime/completion.ts"
import {
  IntegerOrInfinity,
  ToBoolean,
  ToIntegerOrInfinity,
  ToLength,
  ToNumberPrimitive,
  ToObject,
  ToString,
  ToUint32,
} from "../runtime/conversions.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { IsCallable, type NativeFunction } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import {
  Call,
  Construct,
  CreateArrayFromList,
  describeValue,
  GetPrototypeFromConstructor,
  LengthOfArrayLike,
  Set,
  SpeciesConstructor,
} from "../runtime/operations.ts"
import { SameValue } from "../runtime/comparison.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type Value, WellKnownSymbols } from "../runtime/value.ts"
import { callRequest } from "./array-elements.ts"
import { InterruptibleRegExp, linearEngineRefuses, useLinearFallback } from "./regexp-matcher/index.ts"
import { CreateRegExpStringIterator } from "./iterator.ts"
import { GetSubstitution } from "./string.ts"

/** An object with [[RegExpMatcher]], [[OriginalSource]] and [[OriginalFlags]]. */
export class RegExpObject extends JSObject {
  originalSource = ""
  originalFlags = ""
  constructor(proto: JSObject | null) {
    super(proto)
    this.kind = "RegExp"
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The host matcher cache

/**
 * A process-wide cache keyed by flags + "/" + source. It outlives runs, so it is bounded both in entries and in the
 * pattern text it keeps alive (a program can build a pattern of millions of characters); the oldest go first.
 */
class PatternCache<V> {
  private readonly entries = new Map<string, V>()
  private chars = 0
  get(key: string): V | undefined {
    return this.entries.get(key)
  }
  set(key: string, value: V): void {
    while (this.entries.size > 0 && (this.entries.size >= 512 || this.chars + key.length > 1 << 22)) {
      const oldest = this.entries.keys().next().value!
      this.entries.delete(oldest)
      this.chars -= oldest.length
    }
    this.entries.set(key, value)
    this.chars += key.length
  }
}

/** Compiled host RegExps, for validation and `source`. */
const hostCache = new PatternCache<RegExp>()

const hostRegExp = (source: string, flags: string): RegExp => {
  const key = `${flags}/${source}`
  let re = hostCache.get(key)
  if (re === undefined) {
    // The `l` flag is V8's while regexp-matcher asks its linear engine a question; it is never the sandbox's.
    if (/[^dgimsuvy]/.test(flags)) throw new SandboxError("SyntaxError", `Invalid flags supplied to RegExp constructor '${flags}'`)
    useLinearFallback()
    try {
      re = new RegExp(source, flags)
    } catch (e) {
      if (e instanceof SyntaxError) throw new SandboxError("SyntaxError", e.message)
      throw e
    }
    hostCache.set(key, re)
  }
  return re
}

/**
 * A string-to-match function with the host RegExp's `exec` from `lastIndex` (flags with `g` or `y`): the host
 * RegExp itself, or for a pattern V8's linear-time engine refuses, the interruptible matcher, which charges its
 * steps to the run through `poll` (so `timeoutMs` ends a catastrophic backtrack).
 */
interface Matcher {
  lastIndex: number
  exec(S: string, poll: (work: number) => void): RegExpExecArray | null
}

/** Matchers by host flags and source. Used only with an explicit lastIndex. */
const matcherCache = new PatternCache<Matcher>()

const matcherFor = (source: string, hostFlags: string): Matcher => {
  const key = `${hostFlags}/${source}`
  let m = matcherCache.get(key)
  if (m === undefined) {
    const host = hostRegExp(source, hostFlags)
    m = linearEngineRefuses(source, hostFlags) ? new InterruptibleRegExp(source, hostFlags) : host
    matcherCache.set(key, m)
  }
  return m
}

/** V8 compiles a pattern at its first match and may refuse it then ("Regular expression too large"). */
const execMatcher = (re: Matcher, S: string, realm: Realm): RegExpExecArray | null => {
  try {
    return re.exec(S, pollOf(realm))
  } catch (e) {
    if (e instanceof SyntaxError) throw new SandboxError("SyntaxError", e.message)
    throw e
  }
}

/** The matcher RegExpBuiltinExec's loop uses: a search from lastIndex (`g` added unless sticky). */
const matcherOf = (R: RegExpObject): Matcher => {
  const flags = R.originalFlags
  return matcherFor(R.originalSource, !flags.includes("g") && !flags.includes("y") ? flags + "g" : flags)
}

const pollOf = (realm: Realm) => (work: number): void => PollInterrupt(realm, work)

// ---------------------------------------------------------------------------------------------------------------
// Abstract operations

// https://tc39.es/ecma262/#sec-regexpalloc
function* RegExpAlloc(realm: Realm, newTarget: JSObject): Task<RegExpObject> {
  const obj = new RegExpObject(yield* GetPrototypeFromConstructor(realm, newTarget, "%RegExp.prototype%"))
  // lastIndex: { [[Writable]]: true, [[Enumerable]]: false, [[Configurable]]: false }
  obj.properties.set("lastIndex", Property.data(undefined, true, false, false))
  return obj
}

// https://tc39.es/ecma262/#sec-regexpinitialize
function* RegExpInitialize(realm: Realm, obj: RegExpObject, pattern: Value, flags: Value): Task<RegExpObject> {
  const P = pattern === undefined ? "" : yield* ToString(realm, pattern)
  const F = flags === undefined ? "" : yield* ToString(realm, flags)
  // Flag validation and pattern parsing are the host's (V8's own messages); a failure is a SyntaxError.
  hostRegExp(P, F)
  obj.originalSource = P
  obj.originalFlags = F
  yield* Set(obj, "lastIndex", 0, true)
  return obj
}

// https://tc39.es/ecma262/#sec-regexpcreate
export function* RegExpCreate(realm: Realm, P: Value, F: Value): Task<RegExpObject> {
  const obj = yield* RegExpAlloc(realm, realm.intrinsic("%RegExp%"))
  return yield* RegExpInitialize(realm, obj, P, F)
}

/**
 * A regular expression literal's object (https://tc39.es/ecma262/#sec-regular-expression-literals-runtime-semantics-evaluation).
 * The compiler has checked the pattern already; no user code can run.
 */
export const RegExpCreateLiteral = (realm: Realm, pattern: string, flags: string): RegExpObject => {
  hostRegExp(pattern, flags)
  const obj = new RegExpObject(realm.intrinsic("%RegExp.prototype%"))
  obj.originalSource = pattern
  obj.originalFlags = flags
  obj.properties.set("lastIndex", Property.data(0, true, false, false))
  return obj
}

const ToUint32Primitive = (v: Exclude<Value, JSObject>): number => ToNumberPrimitive(v) >>> 0

// https://tc39.es/ecma262/#sec-isregexp
export function* IsRegExp(realm: Realm, argument: Value): Task<boolean> {
  void realm
  if (!(argument instanceof JSObject)) return false
  const matcher = yield* argument.Get(WellKnownSymbols.match, argument)
  if (matcher !== undefined) return ToBoolean(matcher)
  return argument instanceof RegExpObject
}

// https://tc39.es/ecma262/#sec-advancestringindex
export const AdvanceStringIndex = (S: string, index: number, unicode: boolean): number => {
  if (!unicode) return index + 1
  if (index + 1 >= S.length) return index + 1
  const cp = S.codePointAt(index)!
  return index + (cp > 0xffff ? 2 : 1)
}

// https://tc39.es/ecma262/#sec-regexpbuiltinexec
export function* RegExpBuiltinExec(realm: Realm, R: RegExpObject, S: string): Task<JSObject | null> {
  const length = S.length
  // 2. Let lastIndex be ℝ(? ToLength(? Get(R, "lastIndex"))).
  const li = yield* R.Get("lastIndex", R)
  let lastIndex = typeof li === "number" && li >= 0 && li <= length && Number.isInteger(li) ? li : yield* ToLength(realm, li)
  const flags = R.originalFlags
  const global = flags.includes("g")
  const sticky = flags.includes("y")
  const hasIndices = flags.includes("d")
  // 5. If global is false and sticky is false, set lastIndex to 0.
  if (!global && !sticky) lastIndex = 0
  let m: RegExpExecArray | null = null
  if (lastIndex <= length) {
    // 11-12. The matcher loop: the host's `g` (or `y`) search from lastIndex is exactly this loop.
    const re = matcherOf(R)
    re.lastIndex = lastIndex
    m = execMatcher(re, S, realm)
  }
  if (m === null) {
    // A failure: global or sticky expressions reset lastIndex (sticky at the failed position, global past the end).
    if (global || sticky) yield* Set(R, "lastIndex", 0, true)
    return null
  }
  // 15-16. e is the end index of the match; global or sticky expressions record it.
  if (global || sticky) yield* Set(R, "lastIndex", m.index + m[0].length, true)
  return MatchResultObject(realm, m, S, hasIndices)
}

/** Steps 19-35 of RegExpBuiltinExec: the host match as a sandbox array (index, input, groups, indices). */
const MatchResultObject = (realm: Realm, m: RegExpExecArray, S: string, hasIndices: boolean): ArrayObject => {
  const elements: Value[] = []
  for (let i = 0; i < m.length; i++) elements.push(m[i])
  const A = new ArrayObject(realm.ArrayPrototype, elements)
  A.properties.set("index", Property.data(m.index))
  A.properties.set("input", Property.data(S))
  A.properties.set("groups", Property.data(m.groups === undefined ? undefined : plainGroups(m.groups, (v) => v)))
  if (hasIndices && m.indices !== undefined) {
    const host = m.indices
    const pair = (p: [number, number] | undefined): Value => (p === undefined ? undefined : CreateArrayFromList(realm, [p[0], p[1]]))
    const pairs: Value[] = []
    for (let i = 0; i < host.length; i++) pairs.push(pair(host[i]))
    const indices = new ArrayObject(realm.ArrayPrototype, pairs)
    indices.properties.set("groups", Property.data(host.groups === undefined ? undefined : plainGroups(host.groups, pair)))
    A.properties.set("indices", Property.data(indices))
  }
  return A
}

/** A null-prototype `groups` object with one data property per group name, in pattern order. */
const plainGroups = <T>(groups: Record<string, T>, convert: (v: T) => Value): JSObject => {
  const o = new JSObject(null)
  for (const name of Object.keys(groups)) o.properties.set(name, Property.data(convert(groups[name] as T)))
  return o
}

// https://tc39.es/ecma262/#sec-regexpexec
export function* RegExpExec(realm: Realm, R: JSObject, S: string): Task<JSObject | null> {
  const exec = yield* R.Get("exec", R)
  // The intrinsic exec on a real RegExp is RegExpBuiltinExec (its brand check and ToString cannot fail here).
  if (R instanceof RegExpObject && exec === realm.findIntrinsic("%RegExp.prototype.exec%")) {
    return yield* RegExpBuiltinExec(realm, R, S)
  }
  if (IsCallable(exec)) {
    const result = yield* Call(exec, R, [S])
    if (!(result instanceof JSObject) && result !== null) {
      return throwTypeError("RegExp exec method returned something other than an Object or null")
    }
    return result
  }
  if (!(R instanceof RegExpObject)) return incompatible("RegExp.prototype.exec", R)
  return yield* RegExpBuiltinExec(realm, R, S)
}

const incompatible = (method: string, receiver: Value): never =>
  throwTypeError(`Method ${method} called on incompatible receiver ${describeValue(receiver)}`)

const thisRegExpObject = (thisArg: Value, method: string): JSObject =>
  thisArg instanceof JSObject ? thisArg : incompatible(method, thisArg)

/** Reads `flags` through the spec's Get, with a fast path for an untouched RegExp. */
function* FlagsOf(realm: Realm, R: JSObject): Task<string> {
  if (isPristine(realm, R)) return canonicalFlags((R as RegExpObject).originalFlags)
  return yield* ToString(realm, yield* R.Get("flags", R))
}

/** The flag accessors in the order the `flags` getter reads them. */
const FLAG_PROPERTIES: ReadonlyArray<readonly [string, string]> = [
  ["d", "hasIndices"],
  ["g", "global"],
  ["i", "ignoreCase"],
  ["m", "multiline"],
  ["s", "dotAll"],
  ["u", "unicode"],
  ["v", "unicodeSets"],
  ["y", "sticky"],
]

const canonicalFlags = (flags: string): string => {
  let out = ""
  for (const [ch] of FLAG_PROPERTIES) if (flags.includes(ch)) out += ch
  return out
}

/**
 * Is R a RegExp whose `flags` read cannot run user code: its own properties are just lastIndex, its prototype is
 * the intrinsic one, and the intrinsic `flags` and flag getters are still in place.
 */
const isPristine = (realm: Realm, R: JSObject): boolean => {
  if (!(R instanceof RegExpObject) || R.properties.size !== 1) return false
  const proto = R.proto
  if (proto === null || proto !== realm.findIntrinsic("%RegExp.prototype%")) return false
  if (proto.properties.get("flags")?.get !== realm.findIntrinsic("%RegExp.prototype.flags[get]%")) return false
  for (const [, name] of FLAG_PROPERTIES) {
    if (proto.properties.get(name)?.get !== realm.findIntrinsic(`%RegExp.prototype.${name}[get]%`)) return false
  }
  return true
}

/**
 * Can RegExpExec on R be run natively, start to finish? R must be pristine, the intrinsic `exec` in place, and its
 * lastIndex a writable data property holding a number (so reading and writing it runs no code and cannot fail).
 */
const canExecNatively = (realm: Realm, R: JSObject): R is RegExpObject => {
  if (!isPristine(realm, R)) return false
  if (R.proto!.properties.get("exec")?.value !== realm.findIntrinsic("%RegExp.prototype.exec%")) return false
  const li = R.properties.get("lastIndex")
  return li !== undefined && !li.accessor && li.writable && typeof li.value === "number"
}

/**
 * The results RegExpExec would return for a [@@match]/[@@replace] loop over S, computed with the host matcher
 * directly when `canExecNatively` (then nothing observable differs: no code runs, and R's lastIndex ends as the
 * loop would leave it). `undefined` when the loop must run through RegExpExec.
 */
const collectNatively = (realm: Realm, R: JSObject, S: string, global: boolean, fullUnicode: boolean): RegExpExecArray[] | undefined => {
  if (!canExecNatively(realm, R)) return undefined
  const lastIndexProp = R.properties.get("lastIndex")!
  const flags = R.originalFlags
  const sticky = flags.includes("y")
  const re = matcherOf(R)
  const out: RegExpExecArray[] = []
  if (!global) {
    // One RegExpBuiltinExec: lastIndex is used (and updated) only when sticky.
    const li = IntegerOrInfinity(lastIndexProp.value as number)
    const start = sticky ? (li <= 0 ? 0 : li) : 0
    const m = start <= S.length ? ((re.lastIndex = start), execMatcher(re, S, realm)) : null
    if (sticky) lastIndexProp.value = m === null ? 0 : m.index + m[0].length
    if (m !== null) out.push(m)
    return out
  }
  // Global: lastIndex starts at 0, empty matches advance it, and the final failure leaves it at 0.
  let lastIndex = 0
  for (;;) {
    PollInterrupt(realm)
    re.lastIndex = lastIndex
    const m = lastIndex <= S.length ? execMatcher(re, S, realm) : null
    if (m === null) break
    out.push(m)
    checkArrayStorage(out.length)
    const e = m.index + m[0].length
    lastIndex = m[0] === "" ? AdvanceStringIndex(S, e, fullUnicode) : e
  }
  lastIndexProp.value = 0
  return out
}

/** Can [@@split] run as the host's split: R pristine, its constructor, species and @@match untouched? */
const canSplitNatively = (realm: Realm, R: JSObject): R is RegExpObject => {
  if (!canExecNatively(realm, R)) return false
  const proto = R.proto!
  const RegExpCtor = realm.findIntrinsic("%RegExp%")
  if (proto.properties.get("constructor")?.value !== RegExpCtor) return false
  if (RegExpCtor?.properties.get(WellKnownSymbols.species)?.get !== realm.findIntrinsic("%RegExp.[Symbol.species][get]%")) return false
  const match = proto.properties.get(WellKnownSymbols.match)
  return match !== undefined && !match.accessor
}

/**
 * Steps 13-20 of [@@split] without the splitter object: the sticky attempt at each position q is a search from q
 * (the first position where the sticky match would succeed is where the search finds its match), so one host
 * search per piece replaces one sticky attempt per code unit.
 */
const splitNatively = (realm: Realm, R: RegExpObject, S: string, lim: number): Value[] => {
  const flags = R.originalFlags
  const unicodeMatching = flags.includes("u") || flags.includes("v")
  const re = matcherFor(R.originalSource, flags.replace(/[dgy]/g, "") + "g")
  const size = S.length
  const A: Value[] = []
  if (size === 0) {
    re.lastIndex = 0
    const z = execMatcher(re, S, realm)
    return z !== null ? A : [S]
  }
  let p = 0
  let q = 0
  while (q < size) {
    PollInterrupt(realm)
    re.lastIndex = q
    const z = execMatcher(re, S, realm)
    if (z === null || z.index >= size) break
    const e = Math.min(z.index + z[0].length, size)
    if (e === p) {
      q = AdvanceStringIndex(S, z.index, unicodeMatching)
      continue
    }
    A.push(S.slice(p, z.index))
    if (A.length === lim) return A
    p = e
    for (let i = 1; i < z.length; i++) {
      A.push(z[i])
      if (A.length === lim) return A
    }
    checkArrayStorage(A.length)
    q = p
  }
  A.push(S.slice(p, size))
  return A
}

// ---------------------------------------------------------------------------------------------------------------
// The constructor

// https://tc39.es/ecma262/#sec-regexp-pattern-flags
function* RegExp_(realm: Realm, _this: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined, self: NativeFunction): Task<Value> {
  const pattern = args[0]
  const flags = args[1]
  // 1. Let patternIsRegExp be ? IsRegExp(pattern).
  const patternIsRegExp = yield* IsRegExp(realm, pattern)
  let target: JSObject
  if (newTarget === undefined) {
    // 2. Called as a function: RegExp(re) returns re itself when its constructor is RegExp.
    target = self
    if (patternIsRegExp && flags === undefined) {
      const patternConstructor = yield* (pattern as JSObject).Get("constructor", pattern)
      if (patternConstructor === target) return pattern
    }
  } else {
    target = newTarget
  }
  let P: Value
  let F: Value
  if (pattern instanceof RegExpObject) {
    // 4. A RegExp object: its [[OriginalSource]] and (unless given) [[OriginalFlags]].
    P = pattern.originalSource
    F = flags === undefined ? pattern.originalFlags : flags
  } else if (patternIsRegExp) {
    // 5. A RegExp-like object (Symbol.match): its `source` and `flags` properties.
    P = yield* (pattern as JSObject).Get("source", pattern)
    F = flags === undefined ? yield* (pattern as JSObject).Get("flags", pattern) : flags
  } else {
    P = pattern
    F = flags
  }
  const O = yield* RegExpAlloc(realm, target)
  return yield* RegExpInitialize(realm, O, P, F)
}

// https://tc39.es/ecma262/#sec-get-regexp-%symbol.species%
const RegExp_species = (_realm: Realm, thisArg: Value): Value => thisArg

// ---------------------------------------------------------------------------------------------------------------
// RegExp.escape (https://tc39.es/proposal-regex-escaping/)

const SYNTAX_CHARACTERS = "^$\\.*+?()[]{}|/"
const OTHER_PUNCTUATORS = ",-=<>#&!%:;@~'`\""
const CONTROL_ESCAPES: Record<number, string> = { 0x09: "t", 0x0a: "n", 0x0b: "v", 0x0c: "f", 0x0d: "r" }

/** WhiteSpace or LineTerminator (https://tc39.es/ecma262/#sec-white-space). */
const isWhiteSpaceOrLineTerminator = (cp: number): boolean =>
  cp === 0x09 || cp === 0x0b || cp === 0x0c || cp === 0x20 || cp === 0xa0 || cp === 0xfeff || cp === 0x1680 ||
  (cp >= 0x2000 && cp <= 0x200a) || cp === 0x202f || cp === 0x205f || cp === 0x3000 ||
  cp === 0x0a || cp === 0x0d || cp === 0x2028 || cp === 0x2029

const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0")

// https://tc39.es/proposal-regex-escaping/#sec-encodeforregexpescape
const EncodeForRegExpEscape = (cp: number): string => {
  const ch = String.fromCodePoint(cp)
  if (SYNTAX_CHARACTERS.includes(ch)) return "\\" + ch
  const control = CONTROL_ESCAPES[cp]
  if (control !== undefined) return "\\" + control
  const isSurrogate = cp >= 0xd800 && cp <= 0xdfff
  if (OTHER_PUNCTUATORS.includes(ch) || isWhiteSpaceOrLineTerminator(cp) || isSurrogate) {
    if (cp <= 0xff) return "\\x" + hex(cp, 2)
    let out = ""
    for (let i = 0; i < ch.length; i++) out += "\\u" + hex(ch.charCodeAt(i), 4)
    return out
  }
  return ch
}

// https://tc39.es/proposal-regex-escaping/#sec-regexp.escape
const RegExp_escape = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const S = args[0]
  if (typeof S !== "string") return throwTypeError("input argument must be a string")
  let escaped = ""
  for (let i = 0; i < S.length; ) {
    const cp = S.codePointAt(i)!
    i += cp > 0xffff ? 2 : 1
    // A leading decimal digit or ASCII letter is written as \xNN so it cannot continue a preceding escape.
    const leading = escaped === "" && ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a))
    escaped += leading ? "\\x" + hex(cp, 2) : EncodeForRegExpEscape(cp)
  }
  checkStringLength(escaped.length)
  return escaped
}

// ---------------------------------------------------------------------------------------------------------------
// RegExp.prototype accessors

// https://tc39.es/ecma262/#sec-get-regexp.prototype.flags
function* RegExpProto_flags(realm: Realm, thisArg: Value): Task<Value> {
  if (!(thisArg instanceof JSObject)) {
    return throwTypeError(`RegExp.prototype.flags getter called on non-object ${describeValue(thisArg)}`)
  }
  if (isPristine(realm, thisArg)) return canonicalFlags((thisArg as RegExpObject).originalFlags)
  let result = ""
  for (const [ch, name] of FLAG_PROPERTIES) {
    if (ToBoolean(yield* thisArg.Get(name, thisArg))) result += ch
  }
  return result
}

/** https://tc39.es/ecma262/#sec-regexphasflag — the getter for one flag. */
const flagGetter = (flag: string, name: string) => (realm: Realm, thisArg: Value): Value => {
  if (thisArg instanceof RegExpObject) return thisArg.originalFlags.includes(flag)
  if (thisArg === realm.findIntrinsic("%RegExp.prototype%")) return undefined
  return throwTypeError(`RegExp.prototype.${name} getter called on non-RegExp object`)
}

// https://tc39.es/ecma262/#sec-get-regexp.prototype.source
const RegExpProto_source = (realm: Realm, thisArg: Value): Value => {
  if (thisArg instanceof RegExpObject) {
    // EscapeRegExpPattern: V8's own escaping of "/" and line terminators; "(?:)" for the empty pattern.
    return hostRegExp(thisArg.originalSource, thisArg.originalFlags).source
  }
  if (thisArg === realm.findIntrinsic("%RegExp.prototype%")) return "(?:)"
  return throwTypeError("RegExp.prototype.source getter called on non-RegExp object")
}

// ---------------------------------------------------------------------------------------------------------------
// RegExp.prototype methods

// https://tc39.es/ecma262/#sec-regexp.prototype.exec
function* RegExpProto_exec(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  if (!(thisArg instanceof RegExpObject)) return incompatible("RegExp.prototype.exec", thisArg)
  const S = yield* ToString(realm, args[0])
  return yield* RegExpBuiltinExec(realm, thisArg, S)
}

// https://tc39.es/ecma262/#sec-regexp.prototype.test
function* RegExpProto_test(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const R = thisRegExpObject(thisArg, "RegExp.prototype.test")
  const string = yield* ToString(realm, args[0])
  return (yield* RegExpExec(realm, R, string)) !== null
}

// https://tc39.es/ecma262/#sec-regexp.prototype.tostring
function* RegExpProto_toString(realm: Realm, thisArg: Value): Task<Value> {
  const R = thisRegExpObject(thisArg, "RegExp.prototype.toString")
  const pattern = yield* ToString(realm, yield* R.Get("source", R))
  const flags = yield* ToString(realm, yield* R.Get("flags", R))
  return `/${pattern}/${flags}`
}

// https://tc39.es/ecma262/#sec-regexp.prototype.compile (Annex B)
function* RegExpProto_compile(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  if (!(thisArg instanceof RegExpObject)) return incompatible("RegExp.prototype.compile", thisArg)
  const pattern = args[0]
  const flags = args[1]
  let P: Value
  let F: Value
  if (pattern instanceof RegExpObject) {
    if (flags !== undefined) return throwTypeError("Cannot supply flags when constructing one RegExp from another")
    P = pattern.originalSource
    F = pattern.originalFlags
  } else {
    P = pattern
    F = flags
  }
  return yield* RegExpInitialize(realm, thisArg, P, F)
}

// https://tc39.es/ecma262/#sec-regexp.prototype-%symbol.match%
function* RegExpProto_match(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const rx = thisRegExpObject(thisArg, "RegExp.prototype.@@match")
  const S = yield* ToString(realm, args[0])
  const flags = yield* FlagsOf(realm, rx)
  if (!flags.includes("g")) return yield* RegExpExec(realm, rx, S)
  const fullUnicode = flags.includes("u") || flags.includes("v")
  const native = collectNatively(realm, rx, S, true, fullUnicode)
  if (native !== undefined) return native.length === 0 ? null : CreateArrayFromList(realm, native.map((m) => m[0]))
  yield* Set(rx, "lastIndex", 0, true)
  const matches: Value[] = []
  for (;;) {
    PollInterrupt(realm)
    const result = yield* RegExpExec(realm, rx, S)
    if (result === null) return matches.length === 0 ? null : CreateArrayFromList(realm, matches)
    const matchStr = yield* ToString(realm, yield* result.Get("0", result))
    matches.push(matchStr)
    if (matchStr === "") {
      const thisIndex = yield* ToLength(realm, yield* rx.Get("lastIndex", rx))
      yield* Set(rx, "lastIndex", AdvanceStringIndex(S, thisIndex, fullUnicode), true)
    }
  }
}

// https://tc39.es/ecma262/#sec-regexp-prototype-%symbol.matchall%
function* RegExpProto_matchAll(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const R = thisRegExpObject(thisArg, "RegExp.prototype.@@matchAll")
  const S = yield* ToString(realm, args[0])
  const C = yield* SpeciesConstructor(R, realm.intrinsic("%RegExp%"))
  const flags = yield* ToString(realm, yield* R.Get("flags", R))
  const matcher = yield* Construct(C, [R, flags])
  const lastIndex = yield* ToLength(realm, yield* R.Get("lastIndex", R))
  yield* Set(matcher, "lastIndex", lastIndex, true)
  return CreateRegExpStringIterator(realm, matcher, S, flags.includes("g"), flags.includes("u") || flags.includes("v"))
}

// https://tc39.es/ecma262/#sec-regexp.prototype-%symbol.replace%
function* RegExpProto_replace(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const rx = thisRegExpObject(thisArg, "RegExp.prototype.@@replace")
  const S = yield* ToString(realm, args[0])
  const lengthS = S.length
  let replaceValue = args[1]
  const functionalReplace = IsCallable(replaceValue)
  if (!functionalReplace) replaceValue = yield* ToString(realm, replaceValue)
  // NON-SPEC (V8 compatibility): V8 reads `global` and then, for a global expression, `unicode` here, not `flags`
  // as ES2022+ does; a subclass or object overriding those getters sees V8's reads.
  let global: boolean
  let fullUnicode: boolean
  if (isPristine(realm, rx)) {
    const flags = (rx as RegExpObject).originalFlags
    global = flags.includes("g")
    fullUnicode = flags.includes("u") || flags.includes("v")
  } else {
    global = ToBoolean(yield* rx.Get("global", rx))
    fullUnicode = global && ToBoolean(yield* rx.Get("unicode", rx))
  }
  // 11. Collect the results first (all of them for a global expression).
  const native = collectNatively(realm, rx, S, global, fullUnicode)
  const results: Array<JSObject | RegExpExecArray> = native ?? []
  if (native === undefined) {
    if (global) yield* Set(rx, "lastIndex", 0, true)
    for (;;) {
      PollInterrupt(realm)
      const result = yield* RegExpExec(realm, rx, S)
      if (result === null) break
      results.push(result)
      if (!global) break
      const matchStr = yield* ToString(realm, yield* result.Get("0", result))
      if (matchStr === "") {
        const thisIndex = yield* ToLength(realm, yield* rx.Get("lastIndex", rx))
        yield* Set(rx, "lastIndex", AdvanceStringIndex(S, thisIndex, fullUnicode), true)
      }
    }
  }
  // 14-15. Then build the replaced string from them.
  let accumulatedResult = ""
  let nextSourcePosition = 0
  for (const result of results) {
    PollInterrupt(realm)
    let matched: string
    let position: number
    const captures: Value[] = []
    let namedCaptures: Value
    if (result instanceof JSObject) {
      const resultLength = yield* LengthOfArrayLike(realm, result)
      const nCaptures = Math.max(resultLength - 1, 0)
      matched = yield* ToString(realm, yield* result.Get("0", result))
      position = Math.max(Math.min(yield* ToIntegerOrInfinity(realm, yield* result.Get("index", result)), lengthS), 0)
      // NON-SPEC: as many captures as an array can store (an `exec` may claim a length of 2^32 - 1).
      checkArrayStorage(nCaptures)
      for (let n = 1; n <= nCaptures; n++) {
        PollInterrupt(realm)
        const capN = yield* result.Get(String(n), result)
        captures.push(capN === undefined ? undefined : yield* ToString(realm, capN))
      }
      namedCaptures = yield* result.Get("groups", result)
    } else {
      // A host match (the native path): the same values the result array would hold.
      matched = result[0]
      position = result.index
      for (let n = 1; n < result.length; n++) captures.push(result[n])
      namedCaptures = result.groups === undefined ? undefined : plainGroups(result.groups, (v) => v)
    }
    const matchLength = matched.length
    let replacement: string
    if (functionalReplace) {
      const replacerArgs: Value[] = [matched, ...captures, position, S]
      if (namedCaptures !== undefined) replacerArgs.push(namedCaptures)
      const replValue = yield callRequest(replaceValue as JSObject, undefined, replacerArgs)
      replacement = typeof replValue === "string" ? replValue : yield* ToString(realm, replValue)
    } else {
      if (namedCaptures !== undefined) namedCaptures = ToObject(realm, namedCaptures)
      replacement = (replaceValue as string).includes("$")
        ? yield* GetSubstitution(realm, matched, S, position, captures, namedCaptures, replaceValue as string)
        : (replaceValue as string)
    }
    if (position >= nextSourcePosition) {
      accumulatedResult += S.slice(nextSourcePosition, position) + replacement
      if (accumulatedResult.length > Caps.maxStringLength) checkStringLength(accumulatedResult.length)
      nextSourcePosition = position + matchLength
    }
  }
  if (nextSourcePosition >= lengthS) return accumulatedResult
  const out = accumulatedResult + S.slice(nextSourcePosition)
  checkStringLength(out.length)
  return out
}

// https://tc39.es/ecma262/#sec-regexp.prototype-%symbol.search%
function* RegExpProto_search(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const rx = thisRegExpObject(thisArg, "RegExp.prototype.@@search")
  const S = yield* ToString(realm, args[0])
  const previousLastIndex = yield* rx.Get("lastIndex", rx)
  if (!SameValue(previousLastIndex, 0)) yield* Set(rx, "lastIndex", 0, true)
  const result = yield* RegExpExec(realm, rx, S)
  const currentLastIndex = yield* rx.Get("lastIndex", rx)
  if (!SameValue(currentLastIndex, previousLastIndex)) yield* Set(rx, "lastIndex", previousLastIndex, true)
  if (result === null) return -1
  return yield* result.Get("index", result)
}

// https://tc39.es/ecma262/#sec-regexp.prototype-%symbol.split%
function* RegExpProto_split(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const rx = thisRegExpObject(thisArg, "RegExp.prototype.@@split")
  const S = yield* ToString(realm, args[0])
  const limit = args[1]
  if (!(limit instanceof JSObject) && canSplitNatively(realm, rx)) {
    // Nothing here can run code: split natively with the same matcher.
    const lim = limit === undefined ? 2 ** 32 - 1 : ToUint32Primitive(limit)
    return CreateArrayFromList(realm, lim === 0 ? [] : splitNatively(realm, rx, S, lim))
  }
  const C = yield* SpeciesConstructor(rx, realm.intrinsic("%RegExp%"))
  const flags = yield* FlagsOf(realm, rx)
  const unicodeMatching = flags.includes("u") || flags.includes("v")
  // 10. The splitter is a sticky copy: it is matched at each candidate position q.
  const newFlags = flags.includes("y") ? flags : flags + "y"
  const splitter = yield* Construct(C, [rx, newFlags])
  const A: Value[] = []
  const lim = limit === undefined ? 2 ** 32 - 1 : yield* ToUint32(realm, limit)
  if (lim === 0) return CreateArrayFromList(realm, A)
  const size = S.length
  if (size === 0) {
    const z = yield* RegExpExec(realm, splitter, S)
    if (z !== null) return CreateArrayFromList(realm, A)
    return CreateArrayFromList(realm, [S])
  }
  let p = 0
  let q = p
  while (q < size) {
    PollInterrupt(realm)
    yield* Set(splitter, "lastIndex", q, true)
    const z = yield* RegExpExec(realm, splitter, S)
    if (z === null) {
      q = AdvanceStringIndex(S, q, unicodeMatching)
      continue
    }
    const e = Math.min(yield* ToLength(realm, yield* splitter.Get("lastIndex", splitter)), size)
    if (e === p) {
      q = AdvanceStringIndex(S, q, unicodeMatching)
      continue
    }
    A.push(S.slice(p, q))
    if (A.length === lim) return CreateArrayFromList(realm, A)
    p = e
    const numberOfCaptures = Math.max((yield* LengthOfArrayLike(realm, z)) - 1, 0)
    for (let i = 1; i <= numberOfCaptures; i++) {
      PollInterrupt(realm)
      checkArrayStorage(A.length + 1)
      A.push(yield* z.Get(String(i), z))
      if (A.length === lim) return CreateArrayFromList(realm, A)
    }
    q = p
  }
  A.push(S.slice(p, size))
  return CreateArrayFromList(realm, A)
}

// ---------------------------------------------------------------------------------------------------------------

export const install = (realm: Realm): void => {
  const RegExpPrototype = new JSObject(realm.ObjectPrototype)
  const RegExpCtor = defineConstructor(realm, "RegExp", RegExp_, 2, RegExpPrototype)
  defineMethods(realm, RegExpCtor, "%RegExp%", [["escape", RegExp_escape, 1]])
  defineAccessors(realm, RegExpCtor, "%RegExp%", [[WellKnownSymbols.species, RegExp_species, undefined]])
  // V8's property order: exec, the accessors alphabetically, compile, toString, test, then the symbols.
  defineMethods(realm, RegExpPrototype, "%RegExp.prototype%", [["exec", RegExpProto_exec, 1]])
  defineAccessors(realm, RegExpPrototype, "%RegExp.prototype%", [
    ["dotAll", flagGetter("s", "dotAll"), undefined],
    ["flags", RegExpProto_flags, undefined],
    ["global", flagGetter("g", "global"), undefined],
    ["hasIndices", flagGetter("d", "hasIndices"), undefined],
    ["ignoreCase", flagGetter("i", "ignoreCase"), undefined],
    ["multiline", flagGetter("m", "multiline"), undefined],
    ["source", RegExpProto_source, undefined],
    ["sticky", flagGetter("y", "sticky"), undefined],
    ["unicode", flagGetter("u", "unicode"), undefined],
    ["unicodeSets", flagGetter("v", "unicodeSets"), undefined],
  ])
  defineMethods(realm, RegExpPrototype, "%RegExp.prototype%", [
    ["compile", RegExpProto_compile, 2],
    ["toString", RegExpProto_toString, 0],
    ["test", RegExpProto_test, 1],
    [WellKnownSymbols.match, RegExpProto_match, 1],
    [WellKnownSymbols.matchAll, RegExpProto_matchAll, 1],
    [WellKnownSymbols.replace, RegExpProto_replace, 2],
    [WellKnownSymbols.search, RegExpProto_search, 1],
    [WellKnownSymbols.split, RegExpProto_split, 2],
  ])
}

