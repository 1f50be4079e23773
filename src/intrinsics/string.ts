/**
 * String objects (https://tc39.es/ecma262/#sec-string-objects): the String constructor and statics
 * (fromCharCode, fromCodePoint, raw), every String.prototype method, the Annex B HTML methods and substr, and
 * `GetSubstitution` (the `$&`, `$1`, `$<name>` replacement templates shared with RegExp.prototype[@@replace]).
 *
 * Each method first performs the spec's coercions in the spec's order — they are Tasks, because `toString`,
 * `valueOf` and Symbol.toPrimitive are user code — and then does the pure string work with the host's string
 * functions, which implement the same UTF-16 code-unit semantics (indexOf, slice, trim's WhiteSpace set,
 * normalize, case mapping). match/matchAll/replace/replaceAll/search/split dispatch through the argument's
 * Symbol.match/... method as the spec says, so RegExps (and user objects) take over there. Results that can grow
 * are checked against the string-length cap.
 *
 * NON-SPEC: the locale-sensitive methods (localeCompare, toLocaleLowerCase/UpperCase) use the host's ICU with
 * "en-US" when no locale is given (see locale.ts), so results do not depend on the host machine's locale.
 */
import { Caps, checkArrayStorage, checkStringLength } from "../runtime/caps.ts"
import { PollInterrupt } from "../runtime/interrupt.ts"
import { defineConstructor, defineMethods } from "../runtime/builtin.ts"
import { throwRangeError, throwTypeError } from "../runtime/completion.ts"
import {
  ToBoolean,
  ToIntegerOrInfinity,
  ToLength,
  ToNumber,
  ToObject,
  ToString,
  ToUint32,
} from "../runtime/conversions.ts"
import { IsCallable, type NativeImpl } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, CreateArrayFromList, GetMethod, GetPrototypeFromConstructor, Invoke, LengthOfArrayLike } from "../runtime/operations.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import { MISS, type Miss } from "../runtime/references.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { CreateStringIterator } from "./iterator.ts"
import { HostLocales, withHostIntl } from "./locale.ts"
import { IsRegExp, RegExpCreate } from "./regexp.ts"

// ---------------------------------------------------------------------------------------------------------------
// Helpers

/** RequireObjectCoercible(this) then ToString: the prologue of almost every String.prototype method. */
function* thisString(realm: Realm, thisArg: Value, method: string): Task<string> {
  if (typeof thisArg === "string") return thisArg
  if (thisArg === undefined || thisArg === null) return throwTypeError(`String.prototype.${method} called on null or undefined`)
  return yield* ToString(realm, thisArg)
}

/** RequireObjectCoercible(this) only (the methods that first look at a Symbol.* method of their argument). */
const requireCoercible = (thisArg: Value, method: string): Value =>
  thisArg === undefined || thisArg === null ? throwTypeError(`String.prototype.${method} called on null or undefined`) : thisArg

function* toStr(realm: Realm, v: Value): Task<string> {
  return typeof v === "string" ? v : yield* ToString(realm, v)
}

function* toInt(realm: Realm, v: Value): Task<number> {
  return typeof v === "number" && Number.isInteger(v) ? v + 0 : yield* ToIntegerOrInfinity(realm, v)
}

/**
 * A built-in whose common case cannot run user code (a string `this`, integer or string arguments): `fast` answers
 * it at once, or MISS and the Task `slow` does the whole call. A generator per call costs more than most of these
 * methods' work (`s += String.fromCharCode(c)` in a loop).
 */
const fastOr =
  (fast: (thisArg: Value, args: ReadonlyArray<Value>) => Value | Miss, slow: NativeImpl): NativeImpl =>
  (realm, thisArg, args, newTarget, self) => {
    const r = fast(thisArg, args)
    return r === MISS ? slow(realm, thisArg, args, newTarget, self) : r
  }

const isInt = (v: Value): v is number => typeof v === "number" && Number.isInteger(v)

const isIntOrAbsent = (v: Value): v is number | undefined => v === undefined || isInt(v)

const clamp = (n: number, lo: number, hi: number): number => (n < lo ? lo : n > hi ? hi : n)

const checked = (s: string): string => {
  checkStringLength(s.length)
  return s
}

/** https://tc39.es/ecma262/#sec-thisstringvalue */
const thisStringValue = (thisArg: Value, method: string): string => {
  if (typeof thisArg === "string") return thisArg
  if (thisArg instanceof PrimitiveWrapper && thisArg.kind === "String") return thisArg.primitive as string
  return throwTypeError(`String.prototype.${method} requires that 'this' be a String`)
}

/** https://tc39.es/ecma262/#sec-symboldescriptivestring */
const SymbolDescriptiveString = (sym: SymbolValue): string => `Symbol(${sym.description ?? ""})`

// https://tc39.es/ecma262/#sec-getsubstitution
export function* GetSubstitution(
  realm: Realm,
  matched: string,
  str: string,
  position: number,
  captures: ReadonlyArray<Value>,
  namedCaptures: Value,
  replacementTemplate: string,
): Task<string> {
  const stringLength = str.length
  let result = ""
  let i = 0
  const t = replacementTemplate
  while (i < t.length) {
    const c = t.charCodeAt(i)
    if (c !== 0x24 /* $ */) {
      // A run of literal text up to the next "$".
      const next = t.indexOf("$", i)
      const end = next < 0 ? t.length : next
      result += t.slice(i, end)
      i = end
      continue
    }
    if (i + 1 >= t.length) {
      result += "$"
      i++
      continue
    }
    const d = t.charCodeAt(i + 1)
    if (d === 0x24) {
      result += "$"
      i += 2
    } else if (d === 0x26 /* & */) {
      result += matched
      i += 2
    } else if (d === 0x60 /* ` */) {
      result += str.slice(0, position)
      i += 2
    } else if (d === 0x27 /* ' */) {
      const tailPos = Math.min(position + matched.length, stringLength)
      result += str.slice(tailPos)
      i += 2
    } else if (d >= 0x30 && d <= 0x39) {
      // $n and $nn: two digits when both are digits, unless that index exceeds the captures (then one digit).
      let digitCount = i + 2 < t.length && t.charCodeAt(i + 2) >= 0x30 && t.charCodeAt(i + 2) <= 0x39 ? 2 : 1
      let index = Number(t.slice(i + 1, i + 1 + digitCount))
      const captureLen = captures.length
      if (index > captureLen && digitCount === 2) {
        digitCount = 1
        index = d - 0x30
      }
      const ref = t.slice(i, i + 1 + digitCount)
      if (index >= 1 && index <= captureLen) {
        const capture = captures[index - 1]
        result += capture === undefined ? "" : (capture as string)
      } else {
        result += ref
      }
      i += 1 + digitCount
    } else if (d === 0x3c /* < */) {
      const gtPos = t.indexOf(">", i)
      if (gtPos < 0 || namedCaptures === undefined) {
        result += "$<"
        i += 2
      } else {
        const groupName = t.slice(i + 2, gtPos)
        const capture = yield* (namedCaptures as JSObject).Get(groupName, namedCaptures)
        if (capture !== undefined) result += (typeof capture === "string" ? capture : yield* toStr(realm, capture))
        i = gtPos + 1
      }
    } else {
      result += "$"
      i += 1
    }
    checkStringLength(result.length)
  }
  return checked(result)
}

// ---------------------------------------------------------------------------------------------------------------
// The constructor and statics

// https://tc39.es/ecma262/#sec-string-constructor-string-value
function* String_(realm: Realm, _this: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  let s: string
  if (args.length === 0) s = ""
  else {
    const value = args[0]
    // 2.a. String(symbol) is its descriptive string (only when called, not constructed).
    if (newTarget === undefined && value instanceof SymbolValue) return SymbolDescriptiveString(value)
    s = (typeof value === "string" ? value : yield* toStr(realm, value))
  }
  if (newTarget === undefined) return s
  // StringCreate(s, ? GetPrototypeFromConstructor(NewTarget, "%String.prototype%")).
  return new PrimitiveWrapper(yield* GetPrototypeFromConstructor(realm, newTarget, "%String.prototype%"), "String", s)
}

// https://tc39.es/ecma262/#sec-string.fromcharcode
const String_fromCharCode = fastOr((_this, args) => {
  let result = ""
  for (const next of args) {
    if (typeof next !== "number") return MISS
    result += String.fromCharCode(next) // ToUint16
  }
  return result
}, fromCharCodeTask)

function* fromCharCodeTask(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  let result = ""
  for (const next of args) {
    const n = typeof next === "number" ? next : yield* ToNumber(realm, next)
    result += String.fromCharCode(n) // ToUint16
  }
  return result
}

// https://tc39.es/ecma262/#sec-string.fromcodepoint
function* String_fromCodePoint(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  let result = ""
  for (const next of args) {
    const nextCP = typeof next === "number" ? next : yield* ToNumber(realm, next)
    if (!Number.isInteger(nextCP) || nextCP < 0 || nextCP > 0x10ffff) {
      return throwRangeError(`Invalid code point ${String(nextCP)}`)
    }
    result += String.fromCodePoint(nextCP)
  }
  return result
}

// https://tc39.es/ecma262/#sec-string.raw
function* String_raw(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const substitutions = args.slice(1)
  const cooked = ToObject(realm, args[0])
  const literals = ToObject(realm, yield* cooked.Get("raw", cooked))
  const literalCount = yield* LengthOfArrayLike(realm, literals)
  if (literalCount <= 0) return ""
  let R = ""
  for (let nextIndex = 0; ; nextIndex++) {
    PollInterrupt(realm)
    R += yield* toStr(realm, yield* literals.Get(String(nextIndex), literals))
    if (R.length > Caps.maxStringLength) checkStringLength(R.length)
    if (nextIndex + 1 === literalCount) return R
    if (nextIndex < substitutions.length) R += yield* toStr(realm, substitutions[nextIndex])
  }
}

// ---------------------------------------------------------------------------------------------------------------
// String.prototype

// https://tc39.es/ecma262/#sec-string.prototype.at
function* StringProto_at(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "at")
  const len = S.length
  const rel = (typeof args[0] === "number" && Number.isInteger(args[0]) ? args[0] + 0 : yield* toInt(realm, args[0]))
  const k = rel >= 0 ? rel : len + rel
  return k < 0 || k >= len ? undefined : S[k]
}

// https://tc39.es/ecma262/#sec-string.prototype.charat
function* StringProto_charAt(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "charAt")
  const position = (typeof args[0] === "number" && Number.isInteger(args[0]) ? args[0] + 0 : yield* toInt(realm, args[0]))
  return position < 0 || position >= S.length ? "" : S[position]
}

// https://tc39.es/ecma262/#sec-string.prototype.charcodeat
const StringProto_charCodeAt = fastOr((S, [pos]) => {
  if (typeof S !== "string" || !isIntOrAbsent(pos)) return MISS
  const position = pos === undefined ? 0 : pos
  return position < 0 || position >= S.length ? NaN : S.charCodeAt(position)
}, charCodeAtTask)

function* charCodeAtTask(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "charCodeAt")
  const position = (typeof args[0] === "number" && Number.isInteger(args[0]) ? args[0] + 0 : yield* toInt(realm, args[0]))
  return position < 0 || position >= S.length ? NaN : S.charCodeAt(position)
}

// https://tc39.es/ecma262/#sec-string.prototype.codepointat
function* StringProto_codePointAt(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "codePointAt")
  const position = (typeof args[0] === "number" && Number.isInteger(args[0]) ? args[0] + 0 : yield* toInt(realm, args[0]))
  return position < 0 || position >= S.length ? undefined : S.codePointAt(position)
}

// https://tc39.es/ecma262/#sec-string.prototype.concat
function* StringProto_concat(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  let R = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "concat")
  for (const next of args) {
    R += (typeof next === "string" ? next : yield* toStr(realm, next))
    checkStringLength(R.length)
  }
  return R
}

/** startsWith/endsWith/includes: a RegExp argument is refused (it would otherwise be stringified). */
function* searchString(realm: Realm, v: Value, method: string): Task<string> {
  if (yield* IsRegExp(realm, v)) {
    return throwTypeError(`First argument to String.prototype.${method} must not be a regular expression`)
  }
  return (typeof v === "string" ? v : yield* toStr(realm, v))
}

// https://tc39.es/ecma262/#sec-string.prototype.endswith
function* StringProto_endsWith(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "endsWith")
  const searchStr = typeof args[0] === "string" ? args[0] : yield* searchString(realm, args[0], "endsWith")
  const len = S.length
  const pos = args[1] === undefined ? len : (typeof args[1] === "number" && Number.isInteger(args[1]) ? args[1] + 0 : yield* toInt(realm, args[1]))
  const end = clamp(pos, 0, len)
  const start = end - searchStr.length
  return start >= 0 && S.slice(start, end) === searchStr
}

// https://tc39.es/ecma262/#sec-string.prototype.includes
function* StringProto_includes(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "includes")
  const searchStr = typeof args[0] === "string" ? args[0] : yield* searchString(realm, args[0], "includes")
  const pos = (typeof args[1] === "number" && Number.isInteger(args[1]) ? args[1] + 0 : yield* toInt(realm, args[1]))
  return S.indexOf(searchStr, clamp(pos, 0, S.length)) !== -1
}

// https://tc39.es/ecma262/#sec-string.prototype.indexof
function* StringProto_indexOf(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "indexOf")
  const searchStr = (typeof args[0] === "string" ? args[0] : yield* toStr(realm, args[0]))
  const pos = (typeof args[1] === "number" && Number.isInteger(args[1]) ? args[1] + 0 : yield* toInt(realm, args[1]))
  return S.indexOf(searchStr, clamp(pos, 0, S.length))
}

// https://tc39.es/ecma262/#sec-string.prototype.iswellformed
function* StringProto_isWellFormed(realm: Realm, thisArg: Value): Task<Value> {
  return (typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "isWellFormed")).isWellFormed()
}

// https://tc39.es/ecma262/#sec-string.prototype.lastindexof
function* StringProto_lastIndexOf(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "lastIndexOf")
  const searchStr = (typeof args[0] === "string" ? args[0] : yield* toStr(realm, args[0]))
  const numPos = typeof args[1] === "number" ? args[1] : yield* ToNumber(realm, args[1])
  // 6. If numPos is NaN, let pos be +∞; otherwise, let pos be ! ToIntegerOrInfinity(numPos).
  const pos = numPos !== numPos ? Infinity : yield* ToIntegerOrInfinity(realm, numPos)
  return S.lastIndexOf(searchStr, clamp(pos, 0, S.length))
}

/** Collator options Intl reads as booleans; the others are strings. */
const COLLATOR_OPTIONS = ["localeMatcher", "usage", "sensitivity", "ignorePunctuation", "numeric", "caseFirst", "collation"] as const

// https://tc39.es/ecma402/#sup-String.prototype.localeCompare
function* StringProto_localeCompare(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "localeCompare")
  const That = (typeof args[0] === "string" ? args[0] : yield* toStr(realm, args[0]))
  const locales = yield* HostLocales(realm, args[1])
  let options: Record<string, string | boolean> | undefined
  if (args[2] !== undefined) {
    const O = ToObject(realm, args[2])
    options = {}
    for (const name of COLLATOR_OPTIONS) {
      const v = yield* O.Get(name, O)
      if (v === undefined) continue
      options[name] = name === "numeric" || name === "ignorePunctuation" ? ToBoolean(v) : (typeof v === "string" ? v : yield* toStr(realm, v))
    }
  }
  const result = withHostIntl(() => S.localeCompare(That, locales, options))
  return result === 0 ? 0 : result
}

// https://tc39.es/ecma262/#sec-string.prototype.match
function* StringProto_match(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = requireCoercible(thisArg, "match")
  const regexp = args[0]
  if (regexp !== undefined && regexp !== null) {
    const matcher = yield* GetMethod(realm, regexp, WellKnownSymbols.match)
    if (matcher !== undefined) return yield* Call(matcher, regexp, [O])
  }
  const S = (typeof O === "string" ? O : yield* toStr(realm, O))
  const rx = yield* RegExpCreate(realm, regexp, undefined)
  return yield* Invoke(realm, rx, WellKnownSymbols.match, [S])
}

// https://tc39.es/ecma262/#sec-string.prototype.matchall
function* StringProto_matchAll(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = requireCoercible(thisArg, "matchAll")
  const regexp = args[0]
  if (regexp !== undefined && regexp !== null) {
    if (yield* IsRegExp(realm, regexp)) {
      const flags = yield* (regexp as JSObject).Get("flags", regexp)
      if (flags === undefined || flags === null) return throwTypeError("String.prototype.matchAll called with a non-global RegExp argument")
      if (!((typeof flags === "string" ? flags : yield* toStr(realm, flags))).includes("g")) {
        return throwTypeError("String.prototype.matchAll called with a non-global RegExp argument")
      }
    }
    const matcher = yield* GetMethod(realm, regexp, WellKnownSymbols.matchAll)
    if (matcher !== undefined) return yield* Call(matcher, regexp, [O])
  }
  const S = (typeof O === "string" ? O : yield* toStr(realm, O))
  const rx = yield* RegExpCreate(realm, regexp, "g")
  return yield* Invoke(realm, rx, WellKnownSymbols.matchAll, [S])
}

const NORMALIZATION_FORMS = ["NFC", "NFD", "NFKC", "NFKD"]

// https://tc39.es/ecma262/#sec-string.prototype.normalize
function* StringProto_normalize(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "normalize")
  const f = args[0] === undefined ? "NFC" : (typeof args[0] === "string" ? args[0] : yield* toStr(realm, args[0]))
  if (!NORMALIZATION_FORMS.includes(f)) return throwRangeError("The normalization form should be one of NFC, NFD, NFKC, NFKD.")
  return checked(normalizeInSlices(realm, S, f as "NFC"))
}

/** Code units normalized at once: about 10 ms of the slowest input (U+FDFA under NFKD). */
const NORMALIZE_SLICE = 1 << 14

/**
 * Whether normalization can cut before code unit `c`: it starts a character of canonical combining class 0 that
 * never composes with what precedes it and whose decomposition starts with such a character (Latin and Greek
 * letters, Cyrillic, symbols, CJK ideographs, Hangul syllables, presentation and full-width forms). Normalizing the
 * two sides apart then gives what normalizing the whole gives.
 */
const cutsBefore = (c: number): boolean =>
  c < 0x300 ||
  (c >= 0x370 && c < 0x483) ||
  (c >= 0x1e00 && c < 0x20d0) ||
  (c >= 0x2100 && c < 0x2cef) ||
  (c >= 0x3400 && c < 0xa000) ||
  (c >= 0xac00 && c < 0xd7a4) ||
  (c >= 0xf900 && c < 0xfb00) ||
  (c >= 0xfb50 && c < 0xfe00) ||
  (c >= 0xfe70 && c < 0xff9e)

/**
 * `S.normalize(f)` a slice at a time, asking for the time between slices: the host's normalization of 2^23
 * characters takes seconds in one call. A long stretch with nowhere to cut is refused (RangeError) rather than run
 * unbounded.
 */
const normalizeInSlices = (realm: Realm, S: string, f: "NFC"): string => {
  if (S.length <= NORMALIZE_SLICE) return S.normalize(f)
  const parts: string[] = []
  let size = 0
  for (let start = 0; start < S.length; ) {
    let end = Math.min(start + NORMALIZE_SLICE, S.length)
    if (end < S.length) {
      let cut = end
      while (cut > start && !cutsBefore(S.charCodeAt(cut))) cut--
      if (cut === start) {
        cut = end
        while (cut < S.length && cut < start + 4 * NORMALIZE_SLICE && !cutsBefore(S.charCodeAt(cut))) cut++
        if (cut < S.length && !cutsBefore(S.charCodeAt(cut))) return throwRangeError("normalize: the string has no place to cut in 65536 code units")
      }
      end = cut
    }
    const part = S.slice(start, end).normalize(f)
    size += part.length
    if (size > Caps.maxStringLength) checkStringLength(size)
    parts.push(part)
    PollInterrupt(realm, (end - start) >>> 4)
    start = end
  }
  return parts.join("")
}

// https://tc39.es/ecma262/#sec-stringpad
function* StringPad(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>, placement: "start" | "end"): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, placement === "start" ? "padStart" : "padEnd")
  const intMaxLength = yield* ToLength(realm, args[0])
  const stringLength = S.length
  if (intMaxLength <= stringLength) return S
  const fillString = args[1]
  const filler = fillString === undefined ? " " : (typeof fillString === "string" ? fillString : yield* toStr(realm, fillString))
  if (filler === "") return S
  checkStringLength(intMaxLength)
  return placement === "start" ? S.padStart(intMaxLength, filler) : S.padEnd(intMaxLength, filler)
}

// https://tc39.es/ecma262/#sec-string.prototype.padend
const StringProto_padEnd = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => StringPad(realm, thisArg, args, "end")
// https://tc39.es/ecma262/#sec-string.prototype.padstart
const StringProto_padStart = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => StringPad(realm, thisArg, args, "start")

// https://tc39.es/ecma262/#sec-string.prototype.repeat
function* StringProto_repeat(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "repeat")
  const n = (typeof args[0] === "number" && Number.isInteger(args[0]) ? args[0] + 0 : yield* toInt(realm, args[0]))
  if (n < 0 || n === Infinity) return throwRangeError(`Invalid count value: ${String(n)}`)
  if (n === 0 || S === "") return ""
  if (S.length * n > 2 ** 53 - 1) return throwRangeError("Invalid string length")
  checkStringLength(S.length * n)
  return S.repeat(n)
}

// https://tc39.es/ecma262/#sec-string.prototype.replace
function* StringProto_replace(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = requireCoercible(thisArg, "replace")
  const searchValue = args[0]
  let replaceValue = args[1]
  if (searchValue !== undefined && searchValue !== null) {
    const replacer = yield* GetMethod(realm, searchValue, WellKnownSymbols.replace)
    if (replacer !== undefined) return yield* Call(replacer, searchValue, [O, replaceValue])
  }
  const string = (typeof O === "string" ? O : yield* toStr(realm, O))
  const searchString = (typeof searchValue === "string" ? searchValue : yield* toStr(realm, searchValue))
  const functionalReplace = IsCallable(replaceValue)
  if (!functionalReplace) replaceValue = (typeof replaceValue === "string" ? replaceValue : yield* toStr(realm, replaceValue))
  const position = string.indexOf(searchString)
  if (position === -1) return string
  const preceding = string.slice(0, position)
  const following = string.slice(position + searchString.length)
  const replacement = functionalReplace
    ? yield* toStr(realm, yield* Call(replaceValue, undefined, [searchString, position, string]))
    : yield* GetSubstitution(realm, searchString, string, position, [], undefined, replaceValue as string)
  return checked(preceding + replacement + following)
}

/**
 * A string built from very many pieces (`s.replaceAll("", "-")` makes two per code unit): the pieces are joined in
 * batches, so the host holds neither a rope node per piece nor a list of all of them, and the length is checked
 * against the cap as it grows.
 */
class StringBuilder {
  private readonly chunks: string[] = []
  private batch: string[] = []
  private length = 0
  append(piece: string): void {
    this.length += piece.length
    checkStringLength(this.length)
    this.batch.push(piece)
    if (this.batch.length >= 4096) {
      this.chunks.push(this.batch.join(""))
      this.batch = []
    }
  }
  toString(): string {
    return this.chunks.join("") + this.batch.join("")
  }
}

// https://tc39.es/ecma262/#sec-string.prototype.replaceall
function* StringProto_replaceAll(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = requireCoercible(thisArg, "replaceAll")
  const searchValue = args[0]
  let replaceValue = args[1]
  if (searchValue !== undefined && searchValue !== null) {
    if (yield* IsRegExp(realm, searchValue)) {
      const flags = yield* (searchValue as JSObject).Get("flags", searchValue)
      if (flags === undefined || flags === null || !((typeof flags === "string" ? flags : yield* toStr(realm, flags))).includes("g")) {
        return throwTypeError("String.prototype.replaceAll called with a non-global RegExp argument")
      }
    }
    const replacer = yield* GetMethod(realm, searchValue, WellKnownSymbols.replace)
    if (replacer !== undefined) return yield* Call(replacer, searchValue, [O, replaceValue])
  }
  const string = (typeof O === "string" ? O : yield* toStr(realm, O))
  const searchString = (typeof searchValue === "string" ? searchValue : yield* toStr(realm, searchValue))
  const functionalReplace = IsCallable(replaceValue)
  if (!functionalReplace) replaceValue = (typeof replaceValue === "string" ? replaceValue : yield* toStr(realm, replaceValue))
  const searchLength = searchString.length
  const advanceBy = Math.max(1, searchLength)
  // 11-12. All match positions first (StringIndexOf finds "" at every position, including the end). The string
  // cannot change meanwhile, so finding each position as it is replaced is the same list, without holding 2^27
  // numbers for `s.replaceAll("", x)`.
  const nextPosition = (position: number): number => {
    const from = position + advanceBy
    return from > string.length ? -1 : string.indexOf(searchString, from)
  }
  // A replacement without `$` patterns is the same string every time: no Task per match.
  const plain = !functionalReplace && !(replaceValue as string).includes("$") ? (replaceValue as string) : undefined
  const result = new StringBuilder()
  let endOfLastMatch = 0
  for (let p = string.indexOf(searchString, 0); p !== -1; p = nextPosition(p)) {
    PollInterrupt(realm)
    result.append(string.slice(endOfLastMatch, p))
    result.append(
      plain ??
        (functionalReplace
          ? yield* toStr(realm, yield* Call(replaceValue, undefined, [searchString, p, string]))
          : yield* GetSubstitution(realm, searchString, string, p, [], undefined, replaceValue as string)),
    )
    endOfLastMatch = p + searchLength
  }
  if (endOfLastMatch < string.length) result.append(string.slice(endOfLastMatch))
  return result.toString()
}

// https://tc39.es/ecma262/#sec-string.prototype.search
function* StringProto_search(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = requireCoercible(thisArg, "search")
  const regexp = args[0]
  if (regexp !== undefined && regexp !== null) {
    const searcher = yield* GetMethod(realm, regexp, WellKnownSymbols.search)
    if (searcher !== undefined) return yield* Call(searcher, regexp, [O])
  }
  const string = (typeof O === "string" ? O : yield* toStr(realm, O))
  const rx = yield* RegExpCreate(realm, regexp, undefined)
  return yield* Invoke(realm, rx, WellKnownSymbols.search, [string])
}

// https://tc39.es/ecma262/#sec-string.prototype.slice
const StringProto_slice = fastOr((S, [start, end]) => {
  if (typeof S !== "string" || !isInt(start) || !isIntOrAbsent(end)) return MISS
  return sliceOf(S, start, end === undefined ? S.length : end)
}, sliceTask)

function* sliceTask(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "slice")
  const intStart = (typeof args[0] === "number" && Number.isInteger(args[0]) ? args[0] + 0 : yield* toInt(realm, args[0]))
  const intEnd = args[1] === undefined ? S.length : (typeof args[1] === "number" && Number.isInteger(args[1]) ? args[1] + 0 : yield* toInt(realm, args[1]))
  return sliceOf(S, intStart, intEnd)
}

/** String.prototype.slice steps 5-11, once start and end are integers (or ±Infinity). */
const sliceOf = (S: string, intStart: number, intEnd: number): string => {
  const len = S.length
  const from = intStart === -Infinity ? 0 : intStart < 0 ? Math.max(len + intStart, 0) : Math.min(intStart, len)
  const to = intEnd === -Infinity ? 0 : intEnd < 0 ? Math.max(len + intEnd, 0) : Math.min(intEnd, len)
  return from >= to ? "" : S.slice(from, to)
}

// https://tc39.es/ecma262/#sec-string.prototype.split
function* StringProto_split(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = requireCoercible(thisArg, "split")
  const separator = args[0]
  const limit = args[1]
  if (separator !== undefined && separator !== null) {
    const splitter = yield* GetMethod(realm, separator, WellKnownSymbols.split)
    if (splitter !== undefined) return yield* Call(splitter, separator, [O, limit])
  }
  const S = (typeof O === "string" ? O : yield* toStr(realm, O))
  const lim = limit === undefined ? 2 ** 32 - 1 : yield* ToUint32(realm, limit)
  const R = (typeof separator === "string" ? separator : yield* toStr(realm, separator))
  if (lim === 0) return CreateArrayFromList(realm, [])
  if (separator === undefined) return CreateArrayFromList(realm, [S])
  if (R === "" && Math.min(lim, S.length) > Caps.maxArrayStorage) checkArrayStorage(Math.min(lim, S.length))
  // The host's split with a string separator is the spec's algorithm (including "" splitting into code units),
  // limited to one piece past the array storage cap so that the host never holds more.
  return CreateArrayFromList(realm, S.split(R, Math.min(lim, Caps.maxArrayStorage + 1)))
}

// https://tc39.es/ecma262/#sec-string.prototype.startswith
function* StringProto_startsWith(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "startsWith")
  const searchStr = typeof args[0] === "string" ? args[0] : yield* searchString(realm, args[0], "startsWith")
  const len = S.length
  const pos = (typeof args[1] === "number" && Number.isInteger(args[1]) ? args[1] + 0 : yield* toInt(realm, args[1]))
  const start = clamp(pos, 0, len)
  return start + searchStr.length <= len && S.slice(start, start + searchStr.length) === searchStr
}

// https://tc39.es/ecma262/#sec-string.prototype.substring
function* StringProto_substring(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "substring")
  const len = S.length
  const intStart = (typeof args[0] === "number" && Number.isInteger(args[0]) ? args[0] + 0 : yield* toInt(realm, args[0]))
  const intEnd = args[1] === undefined ? len : (typeof args[1] === "number" && Number.isInteger(args[1]) ? args[1] + 0 : yield* toInt(realm, args[1]))
  const finalStart = clamp(intStart, 0, len)
  const finalEnd = clamp(intEnd, 0, len)
  return S.slice(Math.min(finalStart, finalEnd), Math.max(finalStart, finalEnd))
}

// https://tc39.es/ecma262/#sec-string.prototype.substr (Annex B)
function* StringProto_substr(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "substr")
  const size = S.length
  let intStart = (typeof args[0] === "number" && Number.isInteger(args[0]) ? args[0] + 0 : yield* toInt(realm, args[0]))
  if (intStart === -Infinity) intStart = 0
  else if (intStart < 0) intStart = Math.max(size + intStart, 0)
  else intStart = Math.min(intStart, size)
  const intLength = args[1] === undefined ? size : (typeof args[1] === "number" && Number.isInteger(args[1]) ? args[1] + 0 : yield* toInt(realm, args[1]))
  const intEnd = Math.min(intStart + clamp(intLength, 0, size), size)
  return intStart >= intEnd ? "" : S.slice(intStart, intEnd)
}

// https://tc39.es/ecma262/#sec-string.prototype.tolowercase
const StringProto_toLowerCase = fastOr((S) => (typeof S === "string" ? checked(S.toLowerCase()) : MISS), toLowerCaseTask)

function* toLowerCaseTask(realm: Realm, thisArg: Value): Task<Value> {
  return checked((typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "toLowerCase")).toLowerCase())
}

// https://tc39.es/ecma262/#sec-string.prototype.touppercase
const StringProto_toUpperCase = fastOr((S) => (typeof S === "string" ? checked(S.toUpperCase()) : MISS), toUpperCaseTask)

function* toUpperCaseTask(realm: Realm, thisArg: Value): Task<Value> {
  return checked((typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "toUpperCase")).toUpperCase())
}

// https://tc39.es/ecma402/#sup-string.prototype.tolocalelowercase
function* StringProto_toLocaleLowerCase(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "toLocaleLowerCase")
  const locales = yield* HostLocales(realm, args[0])
  return checked(withHostIntl(() => S.toLocaleLowerCase(locales)))
}

// https://tc39.es/ecma402/#sup-string.prototype.tolocaleuppercase
function* StringProto_toLocaleUpperCase(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "toLocaleUpperCase")
  const locales = yield* HostLocales(realm, args[0])
  return checked(withHostIntl(() => S.toLocaleUpperCase(locales)))
}

// https://tc39.es/ecma262/#sec-string.prototype.tostring
const StringProto_toString = (_realm: Realm, thisArg: Value): Value => thisStringValue(thisArg, "toString")

// https://tc39.es/ecma262/#sec-string.prototype.valueof
const StringProto_valueOf = (_realm: Realm, thisArg: Value): Value => thisStringValue(thisArg, "valueOf")

// https://tc39.es/ecma262/#sec-string.prototype.towellformed
function* StringProto_toWellFormed(realm: Realm, thisArg: Value): Task<Value> {
  return (typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "toWellFormed")).toWellFormed()
}

// https://tc39.es/ecma262/#sec-string.prototype.trim (TrimString with the host's identical WhiteSpace set)
function* StringProto_trim(realm: Realm, thisArg: Value): Task<Value> {
  return (typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "trim")).trim()
}
// https://tc39.es/ecma262/#sec-string.prototype.trimstart
function* StringProto_trimStart(realm: Realm, thisArg: Value): Task<Value> {
  return (typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "trimStart")).trimStart()
}
// https://tc39.es/ecma262/#sec-string.prototype.trimend
function* StringProto_trimEnd(realm: Realm, thisArg: Value): Task<Value> {
  return (typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "trimEnd")).trimEnd()
}

// https://tc39.es/ecma262/#sec-string.prototype-%symbol.iterator%
function* StringProto_iterator(realm: Realm, thisArg: Value): Task<Value> {
  const s = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, "[Symbol.iterator]")
  return CreateStringIterator(realm, s)
}

// https://tc39.es/ecma262/#sec-createhtml (Annex B)
const CreateHTML = (method: string, tag: string, attribute?: string) =>
  function* (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
    const S = typeof thisArg === "string" ? thisArg : yield* thisString(realm, thisArg, method)
    let p1 = "<" + tag
    if (attribute !== undefined) {
      const V = (typeof args[0] === "string" ? args[0] : yield* toStr(realm, args[0]))
      p1 += ` ${attribute}="${V.replaceAll('"', "&quot;")}"`
    }
    return checked(`${p1}>${S}</${tag}>`)
  }

// ---------------------------------------------------------------------------------------------------------------

export const install = (realm: Realm): void => {
  // https://tc39.es/ecma262/#sec-properties-of-the-string-prototype-object — itself a String object for "".
  const StringPrototype = new PrimitiveWrapper(realm.ObjectPrototype, "String", "")
  const StringCtor = defineConstructor(realm, "String", String_, 1, StringPrototype)
  defineMethods(realm, StringCtor, "%String%", [
    ["fromCharCode", String_fromCharCode, 1],
    ["fromCodePoint", String_fromCodePoint, 1],
    ["raw", String_raw, 1],
  ])
  // V8's property order, so that listing String.prototype matches.
  defineMethods(realm, StringPrototype, "%String.prototype%", [
    ["anchor", CreateHTML("anchor", "a", "name"), 1],
    ["at", StringProto_at, 1],
    ["big", CreateHTML("big", "big"), 0],
    ["blink", CreateHTML("blink", "blink"), 0],
    ["bold", CreateHTML("bold", "b"), 0],
    ["charAt", StringProto_charAt, 1],
    ["charCodeAt", StringProto_charCodeAt, 1],
    ["codePointAt", StringProto_codePointAt, 1],
    ["concat", StringProto_concat, 1],
    ["endsWith", StringProto_endsWith, 1],
    ["fontcolor", CreateHTML("fontcolor", "font", "color"), 1],
    ["fontsize", CreateHTML("fontsize", "font", "size"), 1],
    ["fixed", CreateHTML("fixed", "tt"), 0],
    ["includes", StringProto_includes, 1],
    ["indexOf", StringProto_indexOf, 1],
    ["isWellFormed", StringProto_isWellFormed, 0],
    ["italics", CreateHTML("italics", "i"), 0],
    ["lastIndexOf", StringProto_lastIndexOf, 1],
    ["link", CreateHTML("link", "a", "href"), 1],
    ["localeCompare", StringProto_localeCompare, 1],
    ["match", StringProto_match, 1],
    ["matchAll", StringProto_matchAll, 1],
    ["normalize", StringProto_normalize, 0],
    ["padEnd", StringProto_padEnd, 1],
    ["padStart", StringProto_padStart, 1],
    ["repeat", StringProto_repeat, 1],
    ["replace", StringProto_replace, 2],
    ["replaceAll", StringProto_replaceAll, 2],
    ["search", StringProto_search, 1],
    ["slice", StringProto_slice, 2],
    ["small", CreateHTML("small", "small"), 0],
    ["split", StringProto_split, 2],
    ["strike", CreateHTML("strike", "strike"), 0],
    ["sub", CreateHTML("sub", "sub"), 0],
    ["substr", StringProto_substr, 2],
    ["substring", StringProto_substring, 2],
    ["sup", CreateHTML("sup", "sup"), 0],
    ["startsWith", StringProto_startsWith, 1],
    ["toString", StringProto_toString, 0],
    ["toWellFormed", StringProto_toWellFormed, 0],
    ["trim", StringProto_trim, 0],
    ["trimStart", StringProto_trimStart, 0],
  ])
  // https://tc39.es/ecma262/#sec-string.prototype.trimleft — the same function object as trimStart.
  alias(StringPrototype, "trimLeft", "trimStart")
  defineMethods(realm, StringPrototype, "%String.prototype%", [["trimEnd", StringProto_trimEnd, 0]])
  alias(StringPrototype, "trimRight", "trimEnd")
  defineMethods(realm, StringPrototype, "%String.prototype%", [
    ["toLocaleLowerCase", StringProto_toLocaleLowerCase, 0],
    ["toLocaleUpperCase", StringProto_toLocaleUpperCase, 0],
    ["toLowerCase", StringProto_toLowerCase, 0],
    ["toUpperCase", StringProto_toUpperCase, 0],
    ["valueOf", StringProto_valueOf, 0],
    [WellKnownSymbols.iterator, StringProto_iterator, 0],
  ])
}

const alias = (target: JSObject, aliasKey: string, key: string): void => {
  const p = target.properties.get(key)!
  target.properties.set(aliasKey, Property.data(p.value, true, false, true))
}
