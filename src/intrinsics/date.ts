/**
 * Date (https://tc39.es/ecma262/#sec-date-objects). A Date is a `DateObject` whose [[DateValue]] is a time value
 * (epoch milliseconds or NaN). The day/time arithmetic (Day, YearFromTime, MakeDay, MakeTime, MakeDate, TimeClip)
 * is the spec's, written out here over plain numbers; no host Date holds sandbox state.
 *
 * Time zone: the sandbox's local time zone is UTC (LocalTime and UTC are the identity, getTimezoneOffset is 0,
 * toString says "GMT+0000 (Coordinated Universal Time)"), so output never depends on the host machine.
 * The current time comes from the realm's host clock (`realm.clock()`, see RealmHost.now), never from a clock
 * read here.
 *
 * Date.parse is a port of V8's DateParser (src/date/dateparser*.{h,cc}): the ES date-time string format first,
 * then V8's legacy fallback (month names, `Tue Dec 02 2026 13:33:29 GMT+0000`, `12/2/2026`, `Dec 2, 2026 1:00 PM`,
 * RFC 2822 zones like `EST`), with its quirks (a missing year is 2001, two-digit years 50-99 are 19xx, 0-49 20xx).
 *
 * toLocaleString/toLocaleDateString/toLocaleTimeString format through the host's Intl (same ICU data as V8) with
 * the sandbox's defaults: locale "en-US" when none is given and timeZone "UTC" unless the options name one.
 */
import { throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { OrdinaryToPrimitive, ToNumber, ToObject, ToPrimitive, ToString } from "../runtime/conversions.ts"
import { CreateBuiltinFunction, defineConstructor, defineMethods } from "../runtime/builtin.ts"
import { JSObject } from "../runtime/object.ts"
import { describeValue, GetPrototypeFromConstructor, Invoke } from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type Value, WellKnownSymbols } from "../runtime/value.ts"
import { DATE_TIME_FORMAT_OPTIONS, HostLocales, ReadHostOptions, withHostIntl } from "./locale.ts"

/** An object with a [[DateValue]] internal slot. */
export class DateObject extends JSObject {
  dateValue: number
  constructor(proto: JSObject | null, dateValue: number) {
    super(proto)
    this.kind = "Date"
    this.dateValue = dateValue
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Time values and their arithmetic (https://tc39.es/ecma262/#sec-time-values-and-time-range)

const msPerSecond = 1000
const msPerMinute = 60000
const msPerHour = 3600000
const msPerDay = 86400000

/** `x modulo y` with the sign of y (https://tc39.es/ecma262/#eqn-modulo). */
const modulo = (x: number, y: number): number => {
  const r = x % y
  return r < 0 ? r + y : r + 0
}

// https://tc39.es/ecma262/#sec-day
const Day = (t: number): number => Math.floor(t / msPerDay)
// https://tc39.es/ecma262/#sec-timewithinday
const TimeWithinDay = (t: number): number => modulo(t, msPerDay)
// https://tc39.es/ecma262/#sec-daysinyear
const DaysInYear = (y: number): number => (y % 4 !== 0 ? 365 : y % 100 !== 0 ? 366 : y % 400 !== 0 ? 365 : 366)
// https://tc39.es/ecma262/#sec-dayfromyear
const DayFromYear = (y: number): number =>
  365 * (y - 1970) + Math.floor((y - 1969) / 4) - Math.floor((y - 1901) / 100) + Math.floor((y - 1601) / 400)
// https://tc39.es/ecma262/#sec-timefromyear
const TimeFromYear = (y: number): number => msPerDay * DayFromYear(y)

// https://tc39.es/ecma262/#sec-yearfromtime — the largest y with TimeFromYear(y) <= t.
const YearFromTime = (t: number): number => {
  let y = Math.floor(t / (msPerDay * 365.2425)) + 1970
  while (TimeFromYear(y) > t) y--
  while (TimeFromYear(y + 1) <= t) y++
  return y
}

const InLeapYear = (t: number): boolean => DaysInYear(YearFromTime(t)) === 366

/** Days before the first of each month, in a common and in a leap year. */
const CUMULATIVE_DAYS = [
  [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365],
  [0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366],
] as const

const DayWithinYear = (t: number): number => Day(t) - DayFromYear(YearFromTime(t))

// https://tc39.es/ecma262/#sec-monthfromtime
const MonthFromTime = (t: number): number => {
  const table = CUMULATIVE_DAYS[InLeapYear(t) ? 1 : 0]
  const d = DayWithinYear(t)
  let m = 0
  while (d >= table[m + 1]!) m++
  return m
}

// https://tc39.es/ecma262/#sec-datefromtime
const DateFromTime = (t: number): number => {
  const table = CUMULATIVE_DAYS[InLeapYear(t) ? 1 : 0]
  return DayWithinYear(t) - table[MonthFromTime(t)]! + 1
}

// https://tc39.es/ecma262/#sec-weekday
const WeekDay = (t: number): number => modulo(Day(t) + 4, 7)
// https://tc39.es/ecma262/#sec-hourfromtime and the others
const HourFromTime = (t: number): number => modulo(Math.floor(t / msPerHour), 24)
const MinFromTime = (t: number): number => modulo(Math.floor(t / msPerMinute), 60)
const SecFromTime = (t: number): number => modulo(Math.floor(t / msPerSecond), 60)
const msFromTime = (t: number): number => modulo(t, msPerSecond)

const toInteger = (n: number): number => Math.trunc(n) + 0

// https://tc39.es/ecma262/#sec-maketime
export const MakeTime = (hour: number, min: number, sec: number, ms: number): number => {
  if (!Number.isFinite(hour) || !Number.isFinite(min) || !Number.isFinite(sec) || !Number.isFinite(ms)) return NaN
  const h = toInteger(hour)
  const m = toInteger(min)
  const s = toInteger(sec)
  const milli = toInteger(ms)
  return h * msPerHour + m * msPerMinute + s * msPerSecond + milli
}

// https://tc39.es/ecma262/#sec-makeday
export const MakeDay = (year: number, month: number, date: number): number => {
  if (!Number.isFinite(year) || !Number.isFinite(month) || !Number.isFinite(date)) return NaN
  // NON-SPEC (V8's bounds, unobservable after TimeClip except for absurd day counts): years within ±1e6 and
  // months within ±1e7, so that the arithmetic below stays exact.
  if (year < -1e6 || year > 1e6 || month < -1e7 || month > 1e7) return NaN
  const y = toInteger(year)
  const m = toInteger(month)
  const dt = toInteger(date)
  const ym = y + Math.floor(m / 12)
  const mn = modulo(m, 12)
  const day = DayFromYear(ym) + CUMULATIVE_DAYS[DaysInYear(ym) === 366 ? 1 : 0][mn]!
  return day + dt - 1
}

// https://tc39.es/ecma262/#sec-makedate
export const MakeDate = (day: number, time: number): number => {
  if (!Number.isFinite(day) || !Number.isFinite(time)) return NaN
  const tv = day * msPerDay + time
  return Number.isFinite(tv) ? tv : NaN
}

// https://tc39.es/ecma262/#sec-makefullyear
const MakeFullYear = (year: number): number => {
  if (year !== year) return NaN
  const truncated = toInteger(year)
  return truncated >= 0 && truncated <= 99 ? 1900 + truncated : year
}

// https://tc39.es/ecma262/#sec-timeclip
export const TimeClip = (time: number): number => {
  if (!Number.isFinite(time)) return NaN
  if (Math.abs(time) > 8.64e15) return NaN
  return toInteger(time)
}

// ---------------------------------------------------------------------------------------------------------------
// Formatting (https://tc39.es/ecma262/#sec-todatestring)

const DAY_NAMES = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const
const MONTH_NAMES = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"] as const

const pad = (n: number, width: number): string => String(n).padStart(width, "0")
const yearText = (y: number): string => (y < 0 ? "-" : "") + pad(Math.abs(y), 4)

// https://tc39.es/ecma262/#sec-datestring
const DateString = (tv: number): string =>
  `${DAY_NAMES[WeekDay(tv)]!} ${MONTH_NAMES[MonthFromTime(tv)]!} ${pad(DateFromTime(tv), 2)} ${yearText(YearFromTime(tv))}`

// https://tc39.es/ecma262/#sec-timestring
const TimeString = (tv: number): string => `${pad(HourFromTime(tv), 2)}:${pad(MinFromTime(tv), 2)}:${pad(SecFromTime(tv), 2)} GMT`

// https://tc39.es/ecma262/#sec-timezoneestring — always UTC here; V8 appends the zone's long name.
const TimeZoneString = "+0000 (Coordinated Universal Time)"

// https://tc39.es/ecma262/#sec-todatestring
export const ToDateString = (tv: number): string =>
  tv !== tv ? "Invalid Date" : `${DateString(tv)} ${TimeString(tv)}${TimeZoneString}`

const ISOString = (tv: number): string => {
  const y = YearFromTime(tv)
  const year = y >= 0 && y <= 9999 ? pad(y, 4) : (y < 0 ? "-" : "+") + pad(Math.abs(y), 6)
  return (
    `${year}-${pad(MonthFromTime(tv) + 1, 2)}-${pad(DateFromTime(tv), 2)}` +
    `T${pad(HourFromTime(tv), 2)}:${pad(MinFromTime(tv), 2)}:${pad(SecFromTime(tv), 2)}.${pad(msFromTime(tv), 3)}Z`
  )
}

// ---------------------------------------------------------------------------------------------------------------
// Date.parse: V8's DateParser

type KeywordType = "invalid" | "month" | "zone" | "tsep" | "ampm"

type DateToken =
  | { readonly tag: "number"; readonly value: number; readonly length: number }
  | { readonly tag: "symbol"; readonly value: string }
  | { readonly tag: "whitespace" }
  | { readonly tag: "keyword"; readonly type: KeywordType; readonly value: number; readonly length: number }
  | { readonly tag: "unknown" }
  | { readonly tag: "end" }
  | { readonly tag: "invalid" }

/** V8's KeywordTable: a word matches on its first three letters (longer words only for month names). */
const KEYWORDS: ReadonlyArray<readonly [string, KeywordType, number]> = [
  ["jan", "month", 1],
  ["feb", "month", 2],
  ["mar", "month", 3],
  ["apr", "month", 4],
  ["may", "month", 5],
  ["jun", "month", 6],
  ["jul", "month", 7],
  ["aug", "month", 8],
  ["sep", "month", 9],
  ["oct", "month", 10],
  ["nov", "month", 11],
  ["dec", "month", 12],
  ["am", "ampm", 0],
  ["pm", "ampm", 12],
  ["ut", "zone", 0],
  ["utc", "zone", 0],
  ["z", "zone", 0],
  ["gmt", "zone", 0],
  ["cdt", "zone", -5],
  ["cst", "zone", -6],
  ["edt", "zone", -4],
  ["est", "zone", -5],
  ["mdt", "zone", -6],
  ["mst", "zone", -7],
  ["pdt", "zone", -7],
  ["pst", "zone", -8],
  ["t", "tsep", 0],
]

const isWhiteSpace = (c: number): boolean => /\s/.test(String.fromCharCode(c))
const isDigit = (c: number): boolean => c >= 48 && c <= 57

/** DateStringTokenizer over an InputReader, with one token of lookahead. */
class DateTokenizer {
  private pos = 0
  private ch = 0
  private next_: DateToken
  private readonly s: string
  constructor(s: string) {
    this.s = s
    this.ch = s.length > 0 ? s.charCodeAt(0) : 0
    this.next_ = this.scan()
  }
  private advance(): void {
    this.pos++
    this.ch = this.pos < this.s.length ? this.s.charCodeAt(this.pos) : 0
  }
  private atEnd(): boolean {
    return this.pos >= this.s.length
  }
  private scan(): DateToken {
    const pre = this.pos
    if (this.atEnd()) return { tag: "end" }
    if (isDigit(this.ch)) {
      // ReadUnsignedNumeral: leading zeros skipped, at most 9 significant digits kept.
      let n = 0
      let i = 0
      while (this.ch === 48) this.advance()
      while (isDigit(this.ch)) {
        if (i < 9) n = n * 10 + this.ch - 48
        i++
        this.advance()
      }
      return { tag: "number", value: n, length: this.pos - pre }
    }
    for (const c of [":", "-", "+", ".", ")"]) {
      if (this.ch === c.charCodeAt(0)) {
        this.advance()
        return { tag: "symbol", value: c }
      }
    }
    if (this.ch >= 65 && !isWhiteSpace(this.ch)) {
      // ReadWord: the first three characters, lowercased (| 0x20), and the word's length.
      let prefix = ""
      let len = 0
      for (; this.ch >= 65 && !isWhiteSpace(this.ch); this.advance(), len++) {
        if (len < 3) prefix += String.fromCharCode(this.ch | 0x20)
      }
      for (const [word, type, value] of KEYWORDS) {
        if (word === prefix && (len <= 3 || type === "month")) return { tag: "keyword", type, value, length: len }
      }
      return { tag: "keyword", type: "invalid", value: 0, length: len }
    }
    if (isWhiteSpace(this.ch)) {
      this.advance()
      return { tag: "whitespace" }
    }
    if (this.ch === 40) {
      // SkipParentheses: a balanced (possibly nested) comment.
      let balance = 0
      do {
        const c: number = this.ch
        if (c === 41) --balance
        else if (c === 40) ++balance
        this.advance()
      } while (balance > 0 && (this.ch as number) !== 0)
      return { tag: "unknown" }
    }
    this.advance()
    return { tag: "unknown" }
  }
  next(): DateToken {
    const t = this.next_
    this.next_ = this.scan()
    return t
  }
  peek(): DateToken {
    return this.next_
  }
  skipSymbol(c: string): boolean {
    if (this.next_.tag === "symbol" && this.next_.value === c) {
      this.next()
      return true
    }
    return false
  }
}

const isNumberToken = (t: DateToken): t is Extract<DateToken, { tag: "number" }> => t.tag === "number"
const isFixedLengthNumber = (t: DateToken, length: number): boolean => t.tag === "number" && t.length === length
const isSymbol = (t: DateToken, c: string): boolean => t.tag === "symbol" && t.value === c
const isAsciiSign = (t: DateToken): boolean => t.tag === "symbol" && (t.value === "+" || t.value === "-")
const asciiSign = (t: DateToken): number => (t.tag === "symbol" && t.value === "-" ? -1 : 1)
const isKeywordZ = (t: DateToken): boolean => t.tag === "keyword" && t.type === "zone" && t.length === 1 && t.value === 0
const between = (x: number, lo: number, hi: number): boolean => x >= lo && x <= hi
const isMonth = (x: number): boolean => between(x, 1, 12)
const isDay = (x: number): boolean => between(x, 1, 31)
const isHour = (x: number): boolean => between(x, 0, 23)
const isMinute = (x: number): boolean => between(x, 0, 59)
const isSecond = (x: number): boolean => between(x, 0, 59)
const isHour12 = (x: number): boolean => between(x, 0, 12)
const isMillisecond = (x: number): boolean => between(x, 0, 999)

const NONE = Number.MIN_SAFE_INTEGER

class DayComposer {
  comp: number[] = []
  namedMonth = NONE
  isoDate = false
  isEmpty(): boolean {
    return this.comp.length === 0
  }
  add(n: number): boolean {
    if (this.comp.length >= 3) return false
    this.comp.push(n)
    return true
  }
  write(out: number[]): boolean {
    if (this.comp.length < 1) return false
    while (this.comp.length < 3) this.comp.push(1) // day and month default to 1
    const c = this.comp as [number, number, number]
    let year = 0
    let month: number
    let day: number
    if (this.namedMonth === NONE) {
      if (this.isoDate || !isDay(c[0])) {
        year = c[0]
        month = c[1]
        day = c[2]
      } else {
        month = c[0]
        day = c[1]
        year = c[2]
      }
    } else {
      month = this.namedMonth
      if (!isDay(c[0])) {
        year = c[0]
        day = c[1]
      } else {
        day = c[0]
        year = c[1]
      }
    }
    if (!this.isoDate) {
      if (between(year, 0, 49)) year += 2000
      else if (between(year, 50, 99)) year += 1900
    }
    if (!isMonth(month) || !isDay(day)) return false
    out[0] = year
    out[1] = month - 1
    out[2] = day
    return true
  }
}

class TimeComposer {
  comp: number[] = []
  hourOffset = NONE
  isEmpty(): boolean {
    return this.comp.length === 0
  }
  isExpecting(n: number): boolean {
    const i = this.comp.length
    return (i === 1 && isMinute(n)) || (i === 2 && isSecond(n)) || (i === 3 && isMillisecond(n))
  }
  add(n: number): boolean {
    if (this.comp.length >= 4) return false
    this.comp.push(n)
    return true
  }
  addFinal(n: number): boolean {
    if (!this.add(n)) return false
    while (this.comp.length < 4) this.comp.push(0)
    return true
  }
  write(out: number[]): boolean {
    while (this.comp.length < 4) this.comp.push(0)
    let [hour, minute, second, ms] = this.comp as [number, number, number, number]
    if (this.hourOffset !== NONE) {
      if (!isHour12(hour)) return false
      hour %= 12
      hour += this.hourOffset
    }
    if (!isHour(hour) || !isMinute(minute) || !isSecond(second) || !isMillisecond(ms)) {
      // A 24th hour is allowed if minutes, seconds, and milliseconds are 0.
      if (hour !== 24 || minute !== 0 || second !== 0 || ms !== 0) return false
    }
    out[3] = hour
    out[4] = minute
    out[5] = second
    out[6] = ms
    return true
  }
}

class TimeZoneComposer {
  sign = NONE
  hour = NONE
  minute = NONE
  set(offsetInHours: number): void {
    this.sign = offsetInHours < 0 ? -1 : 1
    this.hour = offsetInHours * this.sign
    this.minute = 0
  }
  isExpecting(n: number): boolean {
    return this.hour !== NONE && this.minute === NONE && isMinute(n)
  }
  isUTC(): boolean {
    return this.hour === 0 && this.minute === 0
  }
  isEmpty(): boolean {
    return this.sign === NONE && this.hour === NONE && this.minute === NONE
  }
  write(out: number[]): boolean {
    if (this.sign !== NONE) {
      if (this.hour === NONE) this.hour = 0
      if (this.minute === NONE) this.minute = 0
      const total = this.hour * 3600 + this.minute * 60
      if (total > 2 ** 30 - 1) return false
      out[7] = this.sign < 0 ? -total : total
    } else {
      out[7] = NaN // local time
    }
    return true
  }
}

/** ReadMilliseconds: the first three significant digits of a fraction, from its value and digit count. */
const readMilliseconds = (token: Extract<DateToken, { tag: "number" }>): number => {
  let number = token.value
  let length = token.length
  if (length === 1) number *= 100
  else if (length === 2) number *= 10
  else if (length > 3) {
    if (length > 9) length = 9
    let factor = 1
    do {
      factor *= 10
      length--
    } while (length > 3)
    number = Math.trunc(number / factor)
  }
  return number
}

/** ParseES5DateTime: the ES date-time string format. Returns the first token it did not handle. */
const parseES5DateTime = (scanner: DateTokenizer, day: DayComposer, time: TimeComposer, tz: TimeZoneComposer): DateToken => {
  // Mandatory date: [('-'|'+')yy]yyyy[':'MM[':'DD]]
  if (isAsciiSign(scanner.peek())) {
    const signToken = scanner.next()
    if (!isFixedLengthNumber(scanner.peek(), 6)) return signToken
    const sign = asciiSign(signToken)
    const year = (scanner.next() as { value: number }).value
    if (sign < 0 && year === 0) return signToken
    day.add(sign * year)
  } else if (isFixedLengthNumber(scanner.peek(), 4)) {
    day.add((scanner.next() as { value: number }).value)
  } else {
    return scanner.next()
  }
  if (scanner.skipSymbol("-")) {
    const m = scanner.peek()
    if (!isFixedLengthNumber(m, 2) || !isMonth((m as { value: number }).value)) return scanner.next()
    day.add((scanner.next() as { value: number }).value)
    if (scanner.skipSymbol("-")) {
      const d = scanner.peek()
      if (!isFixedLengthNumber(d, 2) || !isDay((d as { value: number }).value)) return scanner.next()
      day.add((scanner.next() as { value: number }).value)
    }
  }
  // Optional time: 'T'HH':'mm[':'ss['.'sss]]Z
  const sep = scanner.peek()
  if (!(sep.tag === "keyword" && sep.type === "tsep")) {
    if (scanner.peek().tag !== "end") return scanner.next()
  } else {
    scanner.next()
    const h = scanner.peek()
    if (!isFixedLengthNumber(h, 2) || !between((h as { value: number }).value, 0, 24)) return { tag: "invalid" }
    // Allow 24:00[:00[.000]], but no other time starting with 24.
    const hourIs24 = (h as { value: number }).value === 24
    time.add((scanner.next() as { value: number }).value)
    if (!scanner.skipSymbol(":")) return { tag: "invalid" }
    const mi = scanner.peek()
    if (!isFixedLengthNumber(mi, 2) || !isMinute((mi as { value: number }).value) || (hourIs24 && (mi as { value: number }).value > 0)) {
      return { tag: "invalid" }
    }
    time.add((scanner.next() as { value: number }).value)
    if (scanner.skipSymbol(":")) {
      const s = scanner.peek()
      if (!isFixedLengthNumber(s, 2) || !isSecond((s as { value: number }).value) || (hourIs24 && (s as { value: number }).value > 0)) {
        return { tag: "invalid" }
      }
      time.add((scanner.next() as { value: number }).value)
      if (scanner.skipSymbol(".")) {
        const f = scanner.peek()
        if (!isNumberToken(f) || (hourIs24 && f.value > 0)) return { tag: "invalid" }
        // Allow more or less than the mandated three digits.
        time.add(readMilliseconds(scanner.next() as Extract<DateToken, { tag: "number" }>))
      }
    }
    // Optional zone: 'Z' | ('+'|'-')hh':'mm | ('+'|'-')hhmm
    if (isKeywordZ(scanner.peek())) {
      scanner.next()
      tz.set(0)
    } else if (isSymbol(scanner.peek(), "+") || isSymbol(scanner.peek(), "-")) {
      tz.sign = asciiSign(scanner.next()) < 0 ? -1 : 1
      if (isFixedLengthNumber(scanner.peek(), 4)) {
        const hourmin = (scanner.next() as { value: number }).value
        const hour = Math.trunc(hourmin / 100)
        const min = hourmin % 100
        if (!isHour(hour) || !isMinute(min)) return { tag: "invalid" }
        tz.hour = hour
        tz.minute = min
      } else {
        const zh = scanner.peek()
        if (!isFixedLengthNumber(zh, 2) || !isHour((zh as { value: number }).value)) return { tag: "invalid" }
        tz.hour = (scanner.next() as { value: number }).value
        if (!scanner.skipSymbol(":")) return { tag: "invalid" }
        const zm = scanner.peek()
        if (!isFixedLengthNumber(zm, 2) || !isMinute((zm as { value: number }).value)) return { tag: "invalid" }
        tz.minute = (scanner.next() as { value: number }).value
      }
    }
    if (scanner.peek().tag !== "end") return { tag: "invalid" }
  }
  // Date-only forms without an offset are UTC; date-time forms are local time.
  if (tz.isEmpty() && time.isEmpty()) tz.set(0)
  day.isoDate = true
  return { tag: "end" }
}

/** DateParser::Parse: fills [year, month, day, hour, minute, second, ms, utcOffsetSeconds|NaN], or fails. */
const parseDateFields = (s: string): number[] | undefined => {
  const scanner = new DateTokenizer(s)
  const day = new DayComposer()
  const time = new TimeComposer()
  const tz = new TimeZoneComposer()
  const first = parseES5DateTime(scanner, day, time, tz)
  if (first.tag === "invalid") return undefined
  let hasReadNumber = !day.isEmpty()
  for (let token: DateToken = first; token.tag !== "end"; token = scanner.next()) {
    if (token.tag === "number") {
      hasReadNumber = true
      const n = token.value
      if (scanner.skipSymbol(":")) {
        if (scanner.skipSymbol(":")) {
          // n + "::"
          if (!time.isEmpty()) return undefined
          time.add(n)
          time.add(0)
        } else {
          // n + ":"
          if (!time.add(n)) return undefined
          if (isSymbol(scanner.peek(), ".")) scanner.next()
        }
      } else if (scanner.skipSymbol(".") && time.isExpecting(n)) {
        time.add(n)
        if (!isNumberToken(scanner.peek())) return undefined
        const ms = readMilliseconds(scanner.next() as Extract<DateToken, { tag: "number" }>)
        if (ms < 0) return undefined
        time.addFinal(ms)
      } else if (tz.isExpecting(n)) {
        tz.minute = n
      } else if (time.isExpecting(n)) {
        time.addFinal(n)
        // Require end, white space, "Z", "+" or "-" immediately after finalizing time.
        const peek = scanner.peek()
        if (peek.tag !== "end" && peek.tag !== "whitespace" && !isKeywordZ(peek) && !isAsciiSign(peek)) return undefined
      } else {
        if (!day.add(n)) return undefined
        scanner.skipSymbol("-")
      }
    } else if (token.tag === "keyword") {
      if (token.type === "ampm" && !time.isEmpty()) {
        time.hourOffset = token.value
      } else if (token.type === "month") {
        day.namedMonth = token.value
        scanner.skipSymbol("-")
      } else if (token.type === "zone" && hasReadNumber) {
        tz.set(token.value)
      } else {
        // Garbage words are illegal if a number has been read.
        if (hasReadNumber) return undefined
        // The first number has to be separated from garbage words by whitespace or other separators.
        if (isNumberToken(scanner.peek())) return undefined
      }
    } else if (isAsciiSign(token) && (tz.isUTC() || !time.isEmpty())) {
      // Parse UTC offset (only after UTC or time).
      tz.sign = asciiSign(token) < 0 ? -1 : 1
      let n = 0
      let length = 0
      const p = scanner.peek()
      if (isNumberToken(p)) {
        scanner.next()
        length = p.length
        n = p.value
      }
      hasReadNumber = true
      if (isSymbol(scanner.peek(), ":")) {
        tz.hour = n
        tz.minute = NONE
      } else if (length === 2 || length === 1) {
        // Time zones like GMT-8
        tz.hour = n
        tz.minute = 0
      } else if (length === 4 || length === 3) {
        // Time zones like GMT-0800
        tz.hour = Math.trunc(n / 100)
        tz.minute = n % 100
      } else {
        return undefined
      }
    } else if ((isAsciiSign(token) || isSymbol(token, ")")) && hasReadNumber) {
      // Extra sign or ')' is illegal if a number has been read.
      return undefined
    }
    // Ignore other characters and whitespace.
  }
  const out: number[] = []
  return day.write(out) && time.write(out) && tz.write(out) ? out : undefined
}

/** The time value of a date string as V8's Date.parse computes it (ParseDateTimeString), or NaN. */
export const ParseDateString = (s: string): number => {
  const out = parseDateFields(s)
  if (out === undefined) return NaN
  const [year, month, day, hour, minute, second, ms, offset] = out as [number, number, number, number, number, number, number, number]
  let date = MakeDate(MakeDay(year, month, day), MakeTime(hour, minute, second, ms))
  if (offset !== offset) {
    // Local time (UTC here), within the range V8 accepts before converting.
    if (!(Math.abs(date) <= 8.64e15 + 864e6)) return NaN
  } else {
    date -= offset * 1000
    if (!(Math.abs(date) <= 8.64e15)) return NaN
  }
  return TimeClip(date)
}

// ---------------------------------------------------------------------------------------------------------------
// The constructor and its functions

// https://tc39.es/ecma262/#sec-date
function* Date_(realm: Realm, _t: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  // 1. If NewTarget is undefined: the current time as a string.
  if (newTarget === undefined) return ToDateString(TimeClip(realm.clock()))
  let dv: number
  if (args.length === 0) {
    // 3. The current time value.
    dv = TimeClip(realm.clock())
  } else if (args.length === 1) {
    // 4. One argument: a Date's value, a string to parse, or a number.
    const value = args[0]
    let tv: number
    if (value instanceof DateObject) tv = value.dateValue
    else {
      const v = yield* ToPrimitive(realm, value)
      tv = typeof v === "string" ? ParseDateString(v) : yield* ToNumber(realm, v)
    }
    dv = TimeClip(tv)
  } else {
    // 5. Components in local time (= UTC).
    const c = yield* ToDateComponents(realm, args)
    dv = TimeClip(MakeDate(MakeDay(MakeFullYear(c[0]!), c[1]!, c[2]!), MakeTime(c[3]!, c[4]!, c[5]!, c[6]!)))
  }
  // 6-8. OrdinaryCreateFromConstructor(NewTarget, "%Date.prototype%", « [[DateValue]] »).
  return new DateObject(yield* GetPrototypeFromConstructor(realm, newTarget, "%Date.prototype%"), dv)
}

/** ToNumber of year, month[, date, hours, minutes, seconds, ms] in order, with the spec's defaults. */
function* ToDateComponents(realm: Realm, args: ReadonlyArray<Value>): Task<number[]> {
  const defaults = [NaN, 0, 1, 0, 0, 0, 0]
  const out: number[] = []
  for (let i = 0; i < 7; i++) {
    out.push(i < args.length ? yield* ToNumber(realm, args[i]) : defaults[i]!)
  }
  return out
}

// https://tc39.es/ecma262/#sec-date.now
const Date_now = (realm: Realm): Value => TimeClip(realm.clock())

// https://tc39.es/ecma262/#sec-date.parse
function* Date_parse(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  const s = typeof args[0] === "string" ? args[0] : yield* ToString(realm, args[0])
  return ParseDateString(s)
}

// https://tc39.es/ecma262/#sec-date.utc
function* Date_UTC(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  const c = yield* ToDateComponents(realm, args)
  return TimeClip(MakeDate(MakeDay(MakeFullYear(c[0]!), c[1]!, c[2]!), MakeTime(c[3]!, c[4]!, c[5]!, c[6]!)))
}

// ---------------------------------------------------------------------------------------------------------------
// Date.prototype

// https://tc39.es/ecma262/#sec-thistimevalue
const thisDate = (v: Value): DateObject => (v instanceof DateObject ? v : throwTypeError("this is not a Date object."))

/** A getter of a time component (local = UTC): NaN for an invalid date. */
const getter = (f: (t: number) => number) => (_r: Realm, thisArg: Value): Value => {
  const t = thisDate(thisArg).dateValue
  return t !== t ? NaN : f(t)
}

// https://tc39.es/ecma262/#sec-date.prototype.gettime
const DateProto_getTime = (_r: Realm, thisArg: Value): Value => thisDate(thisArg).dateValue
// https://tc39.es/ecma262/#sec-date.prototype.gettimezoneoffset — (t - LocalTime(t)) / msPerMinute = 0.
const DateProto_getTimezoneOffset = getter(() => 0)
// https://tc39.es/ecma262/#sec-date.prototype.getyear (Annex B)
const DateProto_getYear = getter((t) => YearFromTime(t) - 1900)

/**
 * setHours/setMinutes/setSeconds/setMilliseconds and their UTC twins (https://tc39.es/ecma262/#sec-date.prototype.sethours):
 * the given fields, from `first` (0 hour ... 3 ms), replace the time's; absent optional ones keep theirs.
 */
const timeSetter = (first: number, count: number) =>
  function* (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
    const dateObject = thisDate(thisArg)
    const t = dateObject.dateValue
    // Every present argument is converted, even for an invalid date.
    const given: Array<number | undefined> = []
    for (let i = 0; i < count; i++) given.push(i === 0 || i < args.length ? yield* ToNumber(realm, args[i]) : undefined)
    if (t !== t) return NaN
    const fields = [HourFromTime(t), MinFromTime(t), SecFromTime(t), msFromTime(t)]
    given.forEach((v, i) => {
      if (v !== undefined) fields[first + i] = v
    })
    const u = TimeClip(MakeDate(Day(t), MakeTime(fields[0]!, fields[1]!, fields[2]!, fields[3]!)))
    dateObject.dateValue = u
    return u
  }

// https://tc39.es/ecma262/#sec-date.prototype.setdate
function* DateProto_setDate(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const dateObject = thisDate(thisArg)
  const t = dateObject.dateValue
  const dt = yield* ToNumber(realm, args[0])
  if (t !== t) return NaN
  const u = TimeClip(MakeDate(MakeDay(YearFromTime(t), MonthFromTime(t), dt), TimeWithinDay(t)))
  dateObject.dateValue = u
  return u
}

// https://tc39.es/ecma262/#sec-date.prototype.setmonth
function* DateProto_setMonth(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const dateObject = thisDate(thisArg)
  const t = dateObject.dateValue
  const m = yield* ToNumber(realm, args[0])
  const date = args.length > 1 ? yield* ToNumber(realm, args[1]) : undefined
  if (t !== t) return NaN
  const dt = date ?? DateFromTime(t)
  const u = TimeClip(MakeDate(MakeDay(YearFromTime(t), m, dt), TimeWithinDay(t)))
  dateObject.dateValue = u
  return u
}

// https://tc39.es/ecma262/#sec-date.prototype.setfullyear
function* DateProto_setFullYear(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const dateObject = thisDate(thisArg)
  let t = dateObject.dateValue
  const y = yield* ToNumber(realm, args[0])
  // 5. If t is NaN, set t to +0; otherwise, set t to LocalTime(t).
  if (t !== t) t = 0
  const m = args.length > 1 ? yield* ToNumber(realm, args[1]) : MonthFromTime(t)
  const dt = args.length > 2 ? yield* ToNumber(realm, args[2]) : DateFromTime(t)
  const u = TimeClip(MakeDate(MakeDay(y, m, dt), TimeWithinDay(t)))
  dateObject.dateValue = u
  return u
}

// https://tc39.es/ecma262/#sec-date.prototype.settime
function* DateProto_setTime(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const dateObject = thisDate(thisArg)
  const t = yield* ToNumber(realm, args[0])
  const v = TimeClip(t)
  dateObject.dateValue = v
  return v
}

// https://tc39.es/ecma262/#sec-date.prototype.setyear (Annex B)
function* DateProto_setYear(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const dateObject = thisDate(thisArg)
  let t = dateObject.dateValue
  const y = yield* ToNumber(realm, args[0])
  if (t !== t) t = 0
  const yyyy = MakeFullYear(y)
  const d = MakeDay(yyyy, MonthFromTime(t), DateFromTime(t))
  const u = TimeClip(MakeDate(d, TimeWithinDay(t)))
  dateObject.dateValue = u
  return u
}

// https://tc39.es/ecma262/#sec-date.prototype.todatestring
const DateProto_toDateString = (_r: Realm, thisArg: Value): Value => {
  const tv = thisDate(thisArg).dateValue
  return tv !== tv ? "Invalid Date" : DateString(tv)
}

// https://tc39.es/ecma262/#sec-date.prototype.toisostring
const DateProto_toISOString = (_r: Realm, thisArg: Value): Value => {
  const tv = thisDate(thisArg).dateValue
  if (!Number.isFinite(tv)) return throwRangeError("Invalid time value")
  return ISOString(tv)
}

// https://tc39.es/ecma262/#sec-date.prototype.tojson
function* DateProto_toJSON(realm: Realm, thisArg: Value): Task<Value> {
  const O = ToObject(realm, thisArg)
  const tv = yield* ToPrimitive(realm, O, "number")
  if (typeof tv === "number" && !Number.isFinite(tv)) return null
  return yield* Invoke(realm, O, "toISOString")
}

/** toLocaleString & co.: host Intl on the time value, with the sandbox's defaults (see the header). */
const localeFormatter = (method: "toLocaleString" | "toLocaleDateString" | "toLocaleTimeString") =>
  function* (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
    // ECMA-402: an invalid date is "Invalid Date" before locales and options are read.
    const tv = thisDate(thisArg).dateValue
    if (tv !== tv) return "Invalid Date"
    const locales = yield* HostLocales(realm, args[0])
    const options = (yield* ReadHostOptions(realm, args[1], DATE_TIME_FORMAT_OPTIONS)) ?? {}
    if (options["timeZone"] === undefined) options["timeZone"] = "UTC"
    return withHostIntl(() => new Date(tv)[method](locales, options))
  }

// https://tc39.es/ecma262/#sec-date.prototype.tostring
const DateProto_toString = (_r: Realm, thisArg: Value): Value => ToDateString(thisDate(thisArg).dateValue)

// https://tc39.es/ecma262/#sec-date.prototype.totimestring
const DateProto_toTimeString = (_r: Realm, thisArg: Value): Value => {
  const tv = thisDate(thisArg).dateValue
  return tv !== tv ? "Invalid Date" : TimeString(tv) + TimeZoneString
}

// https://tc39.es/ecma262/#sec-date.prototype.toutcstring
const DateProto_toUTCString = (_r: Realm, thisArg: Value): Value => {
  const tv = thisDate(thisArg).dateValue
  if (tv !== tv) return "Invalid Date"
  return `${DAY_NAMES[WeekDay(tv)]!}, ${pad(DateFromTime(tv), 2)} ${MONTH_NAMES[MonthFromTime(tv)]!} ${yearText(YearFromTime(tv))} ${TimeString(tv)}`
}

// https://tc39.es/ecma262/#sec-date.prototype.valueof
const DateProto_valueOf = (_r: Realm, thisArg: Value): Value => thisDate(thisArg).dateValue

// https://tc39.es/ecma262/#sec-date.prototype-%symbol.toprimitive%
function* DateProto_toPrimitive(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisArg
  if (!(O instanceof JSObject)) {
    return throwTypeError(`Method Date.prototype [ @@toPrimitive ] called on incompatible receiver ${describeValue(O)}`)
  }
  const hint = args[0]
  let tryFirst: "string" | "number"
  if (hint === "string" || hint === "default") tryFirst = "string"
  else if (hint === "number") tryFirst = "number"
  else return throwTypeError(`Invalid hint: ${typeof hint === "string" ? hint : describeValue(hint)}`)
  return yield* OrdinaryToPrimitive(realm, O, tryFirst)
}

export const install = (realm: Realm): void => {
  // %Date.prototype% is an ordinary object (not a Date).
  const proto = new JSObject(realm.ObjectPrototype)
  const DateCtor = defineConstructor(realm, "Date", Date_, 7, proto)
  defineMethods(realm, DateCtor, "%Date%", [
    ["now", Date_now, 0],
    ["parse", Date_parse, 1],
    ["UTC", Date_UTC, 7],
  ])

  const getDate = getter(DateFromTime)
  const getDay = getter(WeekDay)
  const getFullYear = getter(YearFromTime)
  const getHours = getter(HourFromTime)
  const getMilliseconds = getter(msFromTime)
  const getMinutes = getter(MinFromTime)
  const getMonth = getter(MonthFromTime)
  const getSeconds = getter(SecFromTime)
  defineMethods(realm, proto, "%Date.prototype%", [
    ["getDate", getDate, 0],
    ["getDay", getDay, 0],
    ["getFullYear", getFullYear, 0],
    ["getHours", getHours, 0],
    ["getMilliseconds", getMilliseconds, 0],
    ["getMinutes", getMinutes, 0],
    ["getMonth", getMonth, 0],
    ["getSeconds", getSeconds, 0],
    ["getTime", DateProto_getTime, 0],
    ["getTimezoneOffset", DateProto_getTimezoneOffset, 0],
    ["getUTCDate", getDate, 0],
    ["getUTCDay", getDay, 0],
    ["getUTCFullYear", getFullYear, 0],
    ["getUTCHours", getHours, 0],
    ["getUTCMilliseconds", getMilliseconds, 0],
    ["getUTCMinutes", getMinutes, 0],
    ["getUTCMonth", getMonth, 0],
    ["getUTCSeconds", getSeconds, 0],
    ["getYear", DateProto_getYear, 0],
    ["setDate", DateProto_setDate, 1],
    ["setFullYear", DateProto_setFullYear, 3],
    ["setHours", timeSetter(0, 4), 4],
    ["setMilliseconds", timeSetter(3, 1), 1],
    ["setMinutes", timeSetter(1, 3), 3],
    ["setMonth", DateProto_setMonth, 2],
    ["setSeconds", timeSetter(2, 2), 2],
    ["setTime", DateProto_setTime, 1],
    ["setUTCDate", DateProto_setDate, 1],
    ["setUTCFullYear", DateProto_setFullYear, 3],
    ["setUTCHours", timeSetter(0, 4), 4],
    ["setUTCMilliseconds", timeSetter(3, 1), 1],
    ["setUTCMinutes", timeSetter(1, 3), 3],
    ["setUTCMonth", DateProto_setMonth, 2],
    ["setUTCSeconds", timeSetter(2, 2), 2],
    ["setYear", DateProto_setYear, 1],
    ["toDateString", DateProto_toDateString, 0],
    ["toISOString", DateProto_toISOString, 0],
    ["toJSON", DateProto_toJSON, 1],
    ["toLocaleDateString", localeFormatter("toLocaleDateString"), 0],
    ["toLocaleString", localeFormatter("toLocaleString"), 0],
    ["toLocaleTimeString", localeFormatter("toLocaleTimeString"), 0],
    ["toString", DateProto_toString, 0],
    ["toTimeString", DateProto_toTimeString, 0],
    ["toUTCString", DateProto_toUTCString, 0],
    ["valueOf", DateProto_valueOf, 0],
  ])
  // https://tc39.es/ecma262/#sec-date.prototype.togmtstring (Annex B): the same function object as toUTCString.
  proto.properties.set("toGMTString", Property.data(proto.properties.get("toUTCString")!.value, true, false, true))
  // [Symbol.toPrimitive]: not writable, configurable.
  const toPrimitive = CreateBuiltinFunction(realm, "Date.prototype.[Symbol.toPrimitive]", DateProto_toPrimitive, 1, "[Symbol.toPrimitive]")
  realm.register("%Date.prototype.[Symbol.toPrimitive]%", toPrimitive)
  proto.properties.set(WellKnownSymbols.toPrimitive, Property.data(toPrimitive, false, false, true))
}
