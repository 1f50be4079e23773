// Date: construction from time values, ISO strings and Date.UTC; Date.parse over the formats V8 accepts; the UTC
// getters and setters (with overflow, NaN and argument coercion); toISOString/toJSON/toUTCString; locale output
// with an explicit timeZone "UTC"; [Symbol.toPrimitive]; TimeClip limits. The oracle runs in the host's time zone,
// so every program here reads UTC-based results only (no local-time getters, no toString of a Date).

// === date-from-time-value
const d = new Date(1764682409000)
return [d.getTime(), d.valueOf(), d.toISOString(), +d]

// === date-utc-components
return [Date.UTC(2026, 11, 2), Date.UTC(2026, 11, 2, 13, 33, 29, 500), Date.UTC(2026), Date.UTC(2026, 0), Date.UTC(1970, 0, 1)]

// === date-utc-two-digit-years
return [Date.UTC(99, 0), Date.UTC(0, 0), Date.UTC(100, 0), Date.UTC(-1, 0), Date.UTC(99.9, 0)]

// === date-utc-overflow
return [
  new Date(Date.UTC(2026, 12, 1)).toISOString(),
  new Date(Date.UTC(2026, -1, 1)).toISOString(),
  new Date(Date.UTC(2026, 1, 29)).toISOString(),
  new Date(Date.UTC(2024, 1, 29)).toISOString(),
  new Date(Date.UTC(2026, 0, 0)).toISOString(),
  new Date(Date.UTC(2026, 0, 1, 25, 61, 61, 1001)).toISOString(),
]

// === date-utc-nan
return [Date.UTC(), Date.UTC(NaN), Date.UTC(2026, NaN), Date.UTC(2026, 0, Infinity), Date.UTC("x")].map(String)

// === date-utc-coercion
return [Date.UTC("2026", "11", "2"), Date.UTC(2026.9, 11.9, 2.9, 1.5), Date.UTC(true, false), Date.UTC(null, null)]

// === date-iso-string-construct
return [
  new Date("2026-12-02T13:33:29Z").getTime(),
  new Date("2026-12-02T13:33:29.123Z").getTime(),
  new Date("2026-12-02").getTime(),
  new Date("2026-12").getTime(),
  new Date("2026").getTime(),
  new Date("2026-12-02T13:33:29+05:30").getTime(),
  new Date("2026-12-02T13:33:29-08:00").getTime(),
]

// === date-parse-iso-variants
return [
  Date.parse("2026-12-02T13:33:29.1Z"),
  Date.parse("2026-12-02T13:33:29.123456Z"),
  Date.parse("+012026-12-02T00:00:00Z"),
  Date.parse("-000001-01-01T00:00:00Z"),
  Date.parse("2026-12-02T24:00:00Z"),
  Date.parse("2026-12-02T13:33Z"),
  Date.parse("1970-01-01T00:00:00.000+00:00"),
]

// === date-parse-invalid
return [
  "2026-13-01",
  "2026-02-30T00:00:00Z",
  "hello",
  "",
  "-000000-01-01T00:00:00Z",
  "2026-12-02T24:00:01Z",
  "2026-12-02T25:00Z",
  "2026-12-02T13:33:29 GMT",
  "2026-12-02T1:33Z",
].map((s) => String(Date.parse(s)))

// === date-parse-legacy-with-zone
return [
  Date.parse("Tue Dec 02 2026 13:33:29 GMT+0000 (Coordinated Universal Time)"),
  Date.parse("Tue, 02 Dec 2026 13:33:29 GMT"),
  Date.parse("Thu, 01 Jan 1970 00:00:00 GMT-0500"),
  Date.parse("Jan 1 1970 00:00:00 EST"),
  Date.parse("Mon, 25 Dec 1995 13:30:00 +0430"),
  Date.parse("Dec 2 2026 10:00 PM UTC"),
  Date.parse("Dec 2 2026 12:00 AM GMT"),
  Date.parse("Jan 1 2000 10:00 GMT-8"),
  Date.parse("Jan 1 2000 10:00:00 Z"),
  Date.parse("2000/1/1 10:00 PST"),
]

// === date-parse-legacy-tostring-roundtrip
const t = Date.UTC(2026, 11, 2, 13, 33, 29)
const d = new Date(t)
return [Date.parse(d.toUTCString()) === t, Date.parse(d.toISOString()) === t, new Date(d.toUTCString()).getTime() === t]

// === date-parse-rejects-garbage-after-number
return [Date.parse("Jan 1 2000 foo GMT"), Date.parse("2000-01-01Tfoo"), Date.parse("1 Jan 2000 (x) GMT"), Date.parse("Jan 1 2000 GMT (comment)")].map(String)

// === date-parse-coerces
return [Date.parse({ toString: () => "2026-01-01T00:00:00Z" }), String(Date.parse()), String(Date.parse(null)), Date.parse.length]

// === date-constructor-copies-date
const a = new Date(Date.UTC(2026, 0, 1))
const b = new Date(a)
b.setUTCFullYear(2030)
return [a.getUTCFullYear(), b.getUTCFullYear(), a !== b]

// === date-constructor-toprimitive
const obj = { [Symbol.toPrimitive]: (hint) => (hint === "default" ? "2026-06-01T00:00:00Z" : 0) }
const num = { valueOf: () => 86400000 }
return [new Date(obj).getTime(), new Date(num).getTime(), new Date(true).getTime(), new Date(null).getTime(), String(new Date(undefined).getTime())]

// === date-constructor-components-utc-roundtrip
const t = Date.UTC(2026, 11, 2, 13, 33, 29, 7)
const d = new Date(t)
return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCDay(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()]

// === date-invalid-getters
const d = new Date(NaN)
return [d.getUTCFullYear(), d.getUTCMonth(), d.getTime(), d.getUTCDay(), d.valueOf(), d.getTimezoneOffset()].map(String)

// === date-timeclip-limits
return [
  new Date(8.64e15).getTime(),
  String(new Date(8.64e15 + 1).getTime()),
  new Date(-8.64e15).getTime(),
  String(new Date(-8.64e15 - 1).getTime()),
  new Date(1.9).getTime(),
  new Date(-1.9).getTime(),
  Object.is(new Date(-0).getTime(), 0),
]

// === date-extreme-iso
return [new Date(8.64e15).toISOString(), new Date(-8.64e15).toISOString(), new Date(Date.UTC(-1, 0, 1)).toISOString(), new Date(Date.UTC(10000, 0, 1)).toISOString(), new Date(Date.UTC(0, 0, 1) - Date.UTC(1900, 0, 1)).toISOString()]

// === date-toisostring-invalid
try {
  new Date(NaN).toISOString()
  return "no"
} catch (e) {
  return e.name
}

// === date-toutcstring
return [
  new Date(Date.UTC(2026, 11, 2, 13, 33, 29)).toUTCString(),
  new Date(0).toUTCString(),
  new Date(-1).toUTCString(),
  new Date(8.64e15).toUTCString(),
  new Date(Date.UTC(-5, 0, 1)).toUTCString(),
  new Date(NaN).toUTCString(),
]

// === date-togmtstring-alias
return [Date.prototype.toGMTString === Date.prototype.toUTCString, new Date(0).toGMTString()]

// === date-tojson
const d = new Date(Date.UTC(2026, 11, 2))
return [d.toJSON(), new Date(NaN).toJSON(), JSON.stringify({ d }), JSON.stringify([new Date(NaN)])]

// === date-tojson-generic
const fake = { toISOString: () => "fake-iso", valueOf: () => 1 }
const inf = { toISOString: () => "never", valueOf: () => Infinity }
return [Date.prototype.toJSON.call(fake), Date.prototype.toJSON.call(inf)]

// === date-tojson-missing-toisostring
try {
  Date.prototype.toJSON.call({ valueOf: () => 1 })
  return "no"
} catch (e) {
  return e.name
}

// === date-set-utc-components
const d = new Date(Date.UTC(2026, 0, 31, 10, 0, 0))
const r = []
r.push(d.setUTCMonth(1))
r.push(d.toISOString())
r.push(d.setUTCDate(0))
r.push(d.toISOString())
r.push(d.setUTCHours(23, 59, 59, 999))
r.push(d.toISOString())
r.push(d.setUTCMinutes(120))
r.push(d.toISOString())
return r

// === date-set-utc-fullyear
const d = new Date(Date.UTC(2024, 1, 29, 12))
d.setUTCFullYear(2025)
const a = d.toISOString()
d.setUTCFullYear(2026, 11, 25)
const b = d.toISOString()
const inv = new Date(NaN)
inv.setUTCFullYear(2020)
return [a, b, inv.toISOString()]

// === date-set-seconds-ms
const d = new Date(Date.UTC(2026, 5, 15, 12, 30, 45, 500))
d.setUTCSeconds(75)
const a = d.toISOString()
d.setUTCMilliseconds(-1)
const b = d.toISOString()
d.setUTCSeconds(0, 250)
return [a, b, d.toISOString()]

// === date-setters-on-invalid
const d = new Date(NaN)
return [d.setUTCHours(1), d.setUTCMonth(1), d.setUTCDate(1), d.setUTCMinutes(1), d.setUTCSeconds(1), d.setUTCMilliseconds(1)].map(String)

// === date-setters-nan-argument
const d = new Date(0)
const r = [String(d.setUTCHours(NaN)), String(d.getTime())]
d.setTime(0)
r.push(String(d.setUTCMonth()), String(d.setTime()))
return r

// === date-setters-coerce-even-when-invalid
const log = []
const d = new Date(NaN)
d.setUTCHours({ valueOf() { log.push("h"); return 1 } }, { valueOf() { log.push("m"); return 2 } })
d.setUTCMonth({ valueOf() { log.push("mon"); return 1 } })
return log

// === date-settime
const d = new Date(0)
return [d.setTime(1000), d.getTime(), d.setTime("2000"), String(d.setTime(8.64e15 + 1)), String(d.getTime()), d.setTime(-1.5)]

// === date-setyear-getyear
const d = new Date(Date.UTC(2000, 5, 15))
const r = [d.getYear()]
d.setYear(99)
r.push(d.getUTCFullYear())
d.setYear(2030)
r.push(d.getUTCFullYear(), d.getYear())
r.push(String(d.setYear(NaN)))
return r

// === date-timezone-offset-value
return typeof new Date(0).getTimezoneOffset()

// === date-this-checks
const out = []
for (const [name, arg] of [["getTime"], ["getUTCDate"], ["setUTCDate", 1], ["toISOString"], ["toUTCString"], ["valueOf"]]) {
  try {
    Date.prototype[name].call({}, arg)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === date-prototype-not-a-date
try {
  Date.prototype.getTime()
  return "no"
} catch (e) {
  return [e.name, Object.prototype.toString.call(Date.prototype)]
}

// === date-toprimitive
const d = new Date(Date.UTC(2026, 0, 1))
const p = Date.prototype[Symbol.toPrimitive]
return [d[Symbol.toPrimitive]("number"), typeof d[Symbol.toPrimitive]("default"), typeof d[Symbol.toPrimitive]("string"), p.name, p.length, typeof (d - 0), d - new Date(Date.UTC(2025, 11, 31))]

// === date-toprimitive-errors
const out = []
const p = Date.prototype[Symbol.toPrimitive]
for (const [t, h] of [[new Date(0), "bogus"], [new Date(0), undefined], [1, "number"], [{ valueOf: () => 5 }, "number"]]) {
  try {
    out.push(p.call(t, h))
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === date-toprimitive-descriptor
const d = Object.getOwnPropertyDescriptor(Date.prototype, Symbol.toPrimitive)
return [d.writable, d.enumerable, d.configurable]

// === date-addition-is-string
const d = new Date(0)
return [typeof (d + 1), typeof (d * 1), d * 1, `${d.getTime()}`, d < new Date(1), d == d.getTime(), d.getTime() === +d]

// === date-called-as-function
return [typeof Date(), typeof Date(0), Date(0) === Date(1) || typeof Date(0) === "string", typeof new Date()]

// === date-now-shape
const a = Date.now()
const b = new Date().getTime()
return [typeof a, Number.isInteger(a), b >= a, a > Date.UTC(2020, 0, 1)]

// === date-shape
return [Date.length, Date.name, Date.UTC.length, Date.now.length, Date.prototype.constructor === Date, Date.prototype.setUTCHours.length, Date.prototype.setFullYear.length, Date.prototype.setMonth.length]

// === date-subclass
class Stamp extends Date {
  iso() {
    return this.toISOString().slice(0, 10)
  }
}
const s = new Stamp(Date.UTC(2026, 11, 2))
return [s.iso(), s instanceof Date, s instanceof Stamp, Object.prototype.toString.call(s)]

// === date-string-tag
return [Object.prototype.toString.call(new Date(0)), new Date(0) instanceof Date, typeof new Date(0)]

// === date-tolocale-utc
const d = new Date(Date.UTC(2026, 11, 2, 13, 33, 29))
return [
  d.toLocaleString("en-US", { timeZone: "UTC" }),
  d.toLocaleDateString("en-US", { timeZone: "UTC" }),
  d.toLocaleTimeString("en-US", { timeZone: "UTC" }),
  d.toLocaleDateString("en-US", { timeZone: "UTC", year: "numeric", month: "long", day: "numeric" }),
  d.toLocaleDateString("en-US", { timeZone: "UTC", weekday: "long" }),
]

// === date-tolocale-other-locales-utc
const d = new Date(Date.UTC(2026, 11, 2, 13, 33, 29))
return [
  d.toLocaleString("de-DE", { timeZone: "UTC" }),
  d.toLocaleDateString("en-GB", { timeZone: "UTC" }),
  d.toLocaleTimeString("en-US", { timeZone: "UTC", hour12: false }),
  d.toLocaleDateString("ja-JP", { timeZone: "UTC" }),
  d.toLocaleString("en-US", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" }),
]

// === date-tolocale-other-timezone
const d = new Date(Date.UTC(2026, 6, 1, 12))
return [d.toLocaleString("en-US", { timeZone: "America/New_York" }), d.toLocaleTimeString("en-US", { timeZone: "Asia/Tokyo" })]

// === date-tolocale-invalid
return [new Date(NaN).toLocaleString("en-US", { timeZone: "UTC" }), new Date(NaN).toLocaleDateString("en-US", { timeZone: "UTC" })]

// === date-tolocale-bad-timezone
try {
  new Date(0).toLocaleString("en-US", { timeZone: "Not/AZone" })
  return "no"
} catch (e) {
  return e.name
}

// === date-day-of-week-table
const out = []
for (let m = 0; m < 12; m++) out.push(new Date(Date.UTC(2026, m, 1)).getUTCDay())
return out

// === date-leap-years
const isLeap = (y) => new Date(Date.UTC(y, 1, 29)).getUTCMonth() === 1
return [1900, 2000, 2004, 2023, 2024, 2100, 2400, 0, -4].map(isLeap)

// === date-days-between
const a = Date.UTC(2026, 0, 1)
const b = Date.UTC(2026, 11, 25)
return [(b - a) / 86400000, Math.round((Date.UTC(2027, 0, 1) - a) / 864e5)]

// === date-add-days-utc
const addDays = (d, n) => {
  const c = new Date(d.getTime())
  c.setUTCDate(c.getUTCDate() + n)
  return c.toISOString().slice(0, 10)
}
const d = new Date("2026-12-30T00:00:00Z")
return [addDays(d, 1), addDays(d, 2), addDays(d, 60), addDays(d, -365)]

// === date-negative-times
const d = new Date(-1)
return [d.toISOString(), d.getUTCFullYear(), d.getUTCMilliseconds(), d.getUTCDay(), new Date(-86400001).toISOString()]

// === date-ancient-and-future
const t1 = Date.UTC(-271821, 3, 20)
const t2 = Date.UTC(275760, 8, 13)
return [t1, t2, new Date(t1).getUTCDay(), new Date(t2).getUTCDay(), String(Date.UTC(275760, 8, 13, 0, 0, 0, 1))]

// === date-sort-by-time
const dates = ["2026-03-01T00:00:00Z", "2025-12-31T23:59:59Z", "2026-01-15T12:00:00Z"].map((s) => new Date(s))
dates.sort((a, b) => a - b)
return dates.map((d) => d.toISOString())

// === date-iso-week-number
const isoWeek = (t) => {
  const d = new Date(t)
  const day = d.getUTCDay() || 7
  d.setUTCDate(d.getUTCDate() + 4 - day)
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1)
  return Math.ceil(((d - yearStart) / 86400000 + 1) / 7)
}
return [isoWeek(Date.UTC(2026, 0, 1)), isoWeek(Date.UTC(2026, 11, 31)), isoWeek(Date.UTC(2021, 0, 3)), isoWeek(Date.UTC(2026, 11, 2))]

// === date-parse-month-names
return ["1 January 2026 UTC", "February 14, 2026 GMT", "Mar 3 2026 10:20:30 GMT", "2026 Apr 4 GMT", "sept 5 2026 GMT", "DEC 31, 1999 23:59:59 UTC"].map((s) => new Date(s).toISOString())

// === date-parse-numeric-legacy-utc
return ["12/25/2026 GMT", "2026/12/25 10:00 UTC", "12/25/26 GMT", "12/25/70 UTC", "1/2/2026 3:04:05 PM GMT"].map((s) => String(Date.parse(s)))

// === date-getters-from-iso-offsets
const d = new Date("2026-12-31T23:30:00-02:00")
return [d.toISOString(), d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours()]

// === date-utc-single-arg-and-extra
return [Date.UTC(2026), Date.UTC(2026, 1, 1, 0, 0, 0, 0, 99), String(Date.UTC(1e6)), String(Date.UTC(-1e6 - 1)), Date.UTC(275760, 8, 13), String(Date.UTC(275760, 8, 14))]

// === date-year-zero-and-negative
const t = Date.UTC(0, 0, 1) - 1900 * 0
const y0 = new Date("0000-01-01T00:00:00Z")
return [y0.getUTCFullYear(), y0.toISOString(), y0.getUTCDay(), new Date("-000100-06-15T00:00:00Z").toUTCString(), new Date(Date.UTC(-100, 5, 15)).getUTCDay(), t]

// === date-parse-more-legacy
return [
  "Sat, 01 Jan 2000 00:00:00 +0100",
  "January 1, 2000 00:00:00 UTC+0200",
  "1/1/2000 00:00:00 GMT+2",
  "2000-01-01 00:00:00Z",
  "2000-01-01 00:00:00 +05:30",
  "Jan 1 2000 12:30:45.678 GMT",
  "1 1 2000 GMT",
  "Jan 1 2000 4:05 pm GMT",
  "2000-W01",
  "2000-001",
].map((s) => String(Date.parse(s)))

// === date-parse-whitespace-and-case
return ["  2026-12-02T00:00:00Z", "2026-12-02T00:00:00Z  ", "dec 2 2026 gmt", "DEC 2 2026 GMT", "Dec\t2\n2026 GMT", "2026-12-02t00:00:00z"].map((s) => String(Date.parse(s)))

// === date-set-fullyear-on-invalid-with-args
const d = new Date(NaN)
d.setUTCFullYear(2026, 5, 15)
const e = new Date(NaN)
e.setFullYear(2026)
return [d.toISOString(), e.getUTCMonth(), e.getUTCDate(), e.getUTCHours()]

// === date-setutcmonth-with-date
const d = new Date(Date.UTC(2026, 0, 15, 8))
return [d.setUTCMonth(5, 31), d.toISOString(), d.setUTCMonth(-1), d.toISOString(), d.setUTCDate(400), d.toISOString()]

// === date-valueof-and-gettime-equal
const ts = [0, -1, 1764682409123, -62135596800000, 8.64e15]
return ts.map((t) => {
  const d = new Date(t)
  return [d.valueOf() === d.getTime(), d.getUTCMilliseconds(), d.getUTCSeconds()]
})

// === date-json-roundtrip
const obj = { when: new Date(Date.UTC(2026, 11, 2, 13, 33, 29, 45)) }
const text = JSON.stringify(obj)
const back = JSON.parse(text, (k, v) => (k === "when" ? new Date(v) : v))
return [text, back.when.getTime() === obj.when.getTime(), back.when instanceof Date]
