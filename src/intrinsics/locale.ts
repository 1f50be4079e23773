/**
 * The locale-sensitive methods of the number, bigint and date families (`toLocaleString` & co.) format through the
 * host's Intl, which has the same ICU data as V8. This module turns the sandbox's `locales` and `options`
 * arguments into host data (strings, numbers, booleans — never a sandbox object) by reading them through the
 * sandbox's own Get/ToString, so getters and `toString` methods run as Tasks, and turns a host RangeError/TypeError
 * from Intl into the same sandbox error. Only strings come back.
 *
 * NON-SPEC: the sandbox has no Intl object of its own; when `locales` is undefined (or an empty list) the locale is
 * "en-US", V8's default in an en-US process, so output does not depend on the host machine's locale.
 */
import { SandboxError, throwTypeError } from "../runtime/completion.ts"
import { ToNumber, ToObject, ToString, ToBoolean } from "../runtime/conversions.ts"
import { LengthOfArrayLike } from "../runtime/operations.ts"
import { JSObject } from "../runtime/object.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { SymbolValue, type Value } from "../runtime/value.ts"

export const DEFAULT_LOCALE = "en-US"

export type HostOptions = Record<string, string | number | boolean>

// https://tc39.es/ecma402/#sec-canonicalizelocalelist (the reading part; the host canonicalizes)
export function* HostLocales(realm: Realm, locales: Value): Task<string | string[]> {
  if (locales === undefined) return DEFAULT_LOCALE
  if (typeof locales === "string") return locales
  const O = ToObject(realm, locales)
  const len = yield* LengthOfArrayLike(realm, O)
  const list: string[] = []
  for (let k = 0; k < len; k++) {
    const Pk = String(k)
    if (!O.HasProperty(Pk)) continue
    const kValue = yield* O.Get(Pk, O)
    if (typeof kValue !== "string" && !(kValue instanceof JSObject)) {
      return throwTypeError(`Language ID should be string or object.`)
    }
    list.push(yield* ToString(realm, kValue))
  }
  return list.length === 0 ? DEFAULT_LOCALE : list
}

/** Option names whose values Intl reads as numbers or booleans (the others are read as strings). */
const NUMBER_OPTIONS = new Set([
  "minimumIntegerDigits",
  "minimumFractionDigits",
  "maximumFractionDigits",
  "minimumSignificantDigits",
  "maximumSignificantDigits",
  "roundingIncrement",
  "fractionalSecondDigits",
])
const BOOLEAN_OPTIONS = new Set(["hour12"])

export const NUMBER_FORMAT_OPTIONS = [
  "localeMatcher",
  "numberingSystem",
  "style",
  "currency",
  "currencyDisplay",
  "currencySign",
  "unit",
  "unitDisplay",
  "notation",
  "compactDisplay",
  "signDisplay",
  "useGrouping",
  "minimumIntegerDigits",
  "minimumFractionDigits",
  "maximumFractionDigits",
  "minimumSignificantDigits",
  "maximumSignificantDigits",
  "roundingMode",
  "roundingIncrement",
  "roundingPriority",
  "trailingZeroDisplay",
] as const

export const DATE_TIME_FORMAT_OPTIONS = [
  "localeMatcher",
  "calendar",
  "numberingSystem",
  "hour12",
  "hourCycle",
  "timeZone",
  "weekday",
  "era",
  "year",
  "month",
  "day",
  "dayPeriod",
  "hour",
  "minute",
  "second",
  "fractionalSecondDigits",
  "timeZoneName",
  "formatMatcher",
  "dateStyle",
  "timeStyle",
] as const

/** Copies the named options of a sandbox options object into a host record (undefined when `options` is). */
export function* ReadHostOptions(realm: Realm, options: Value, names: ReadonlyArray<string>): Task<HostOptions | undefined> {
  if (options === undefined) return undefined
  const O = ToObject(realm, options)
  const out: HostOptions = {}
  for (const name of names) {
    const v = yield* O.Get(name, O)
    if (v === undefined) continue
    if (v instanceof SymbolValue) return throwTypeError("Cannot convert a Symbol value to a string")
    if (BOOLEAN_OPTIONS.has(name)) out[name] = ToBoolean(v)
    else if (typeof v === "boolean" && name === "useGrouping") out[name] = v
    else if (NUMBER_OPTIONS.has(name)) out[name] = yield* ToNumber(realm, v)
    else if (v === null) out[name] = "null"
    else out[name] = yield* ToString(realm, v)
  }
  return out
}

/** Runs a host Intl formatting call; its RangeError/TypeError becomes the same sandbox error. */
export const withHostIntl = <A>(f: () => A): A => {
  try {
    return f()
  } catch (e) {
    if (e instanceof RangeError) throw new SandboxError("RangeError", e.message)
    if (e instanceof TypeError) throw new SandboxError("TypeError", e.message)
    throw e
  }
}
