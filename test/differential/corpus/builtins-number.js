// The Number built-ins: the constructor (conversion and wrappers), constants, predicates, parseInt/parseFloat,
// and Number.prototype's formatting methods with their RangeErrors and `this` checks.

// === number-call-conversions
return [Number("42"), Number(" 12.5 "), Number(""), Number("0x1f"), Number("0b101"), Number("0o17"), Number(null), Number(true), Number([]), Number([7]), Number("1e3")].map(String)

// === number-call-nan-cases
return [Number(undefined), Number("abc"), Number("1_000"), Number({}), Number([1, 2]), Number("12px")].map(String)

// === number-call-no-args
return [Number(), Object.is(Number(), 0), Number.length, Number.name]

// === number-bigint-to-number
return [Number(10n), Number(-5n), Number(2n ** 64n), Number(2n ** 53n + 1n)].map(String)

// === number-new-wrapper
const n = new Number(5)
return [typeof n, n instanceof Number, n + 1, n.valueOf(), Object.prototype.toString.call(n), JSON.stringify(n)]

// === number-subclass
class Money extends Number {
  double() {
    return this * 2
  }
}
const m = new Money(21)
return [m.double(), m instanceof Money, m instanceof Number, m.toFixed(1), Object.getPrototypeOf(m) === Money.prototype]

// === number-valueof-coercion
const o = { valueOf() { return 8 } }
const s = { toString() { return "9" } }
return [Number(o), Number(s), Number(new Date(5))]

// === number-symbol-throws
try {
  Number(Symbol("x"))
  return "no"
} catch (e) {
  return e.constructor.name
}

// === number-constants
return [
  Number.EPSILON === 2 ** -52,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  String(Number.NaN),
  String(Number.POSITIVE_INFINITY),
  String(Number.NEGATIVE_INFINITY),
]

// === number-constant-attributes
const d = Object.getOwnPropertyDescriptor(Number, "MAX_SAFE_INTEGER")
return [d.writable, d.enumerable, d.configurable]

// === number-isfinite
return [Number.isFinite(1), Number.isFinite(Infinity), Number.isFinite(NaN), Number.isFinite("1"), Number.isFinite(null), isFinite("1")]

// === number-isinteger
return [Number.isInteger(5), Number.isInteger(5.0), Number.isInteger(5.5), Number.isInteger("5"), Number.isInteger(Infinity), Number.isInteger(-0), Number.isInteger(2 ** 60)]

// === number-isnan
return [Number.isNaN(NaN), Number.isNaN("NaN"), Number.isNaN(undefined), Number.isNaN(0 / 0), isNaN("NaN")]

// === number-issafeinteger
return [
  Number.isSafeInteger(2 ** 53 - 1),
  Number.isSafeInteger(2 ** 53),
  Number.isSafeInteger(-(2 ** 53 - 1)),
  Number.isSafeInteger(1.5),
  Number.isSafeInteger("1"),
]

// === parse-functions-shared
return [Number.parseInt === parseInt, Number.parseFloat === parseFloat, parseInt.length, parseFloat.length, parseInt.name]

// === parseint-basics
return [parseInt("42"), parseInt("  -17abc"), parseInt("0x1F"), parseInt("ff", 16), parseInt("101", 2), parseInt("z", 36), parseInt("12", 3)].map(String)

// === parseint-edge
return [parseInt(""), parseInt("abc"), parseInt("1e3"), parseInt(0.0000005), parseInt("123", 1), parseInt("123", 37), parseInt("-0"), parseInt("0x"), parseInt("11", 0)].map(String)

// === parseint-radix-coercion
return [parseInt("10", "16"), parseInt("10", 16.9), parseInt("10", -1), parseInt("10", 4294967312), parseInt(null, 36)].map(String)

// === parseint-tostring-called
const calls = []
const v = { toString() { calls.push("s"); return "77" } }
const r = { valueOf() { calls.push("r"); return 8 } }
return [parseInt(v, r), calls]

// === parsefloat-basics
return [parseFloat("3.14"), parseFloat("  .5"), parseFloat("-0.5e2x"), parseFloat("Infinityx"), parseFloat("-Infinity"), parseFloat("1e"), parseFloat("e1"), parseFloat("0x10")].map(String)

// === parsefloat-negative-zero
return [Object.is(parseFloat("-0"), -0), Object.is(parseFloat("-.0e5"), -0), String(parseFloat(""))]

// === tostring-radix
return [(255).toString(16), (255).toString(2), (-255).toString(36), (0.5).toString(2), (3.75).toString(8), (1e21).toString(), (123.456).toString(36)]

// === tostring-radix-range-error
const out = []
for (const r of [1, 37, 0, Infinity]) {
  try {
    out.push((10).toString(r))
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === tostring-radix-undefined
return [(10).toString(undefined), (10).toString(10.9), (-0).toString(), (NaN).toString(2)]

// === tostring-this-check
const out = []
for (const v of ["5", {}, null, true]) {
  try {
    Number.prototype.toString.call(v)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
out.push(Number.prototype.toString.call(new Number(7)))
return out

// === tofixed-values
return [(1.005).toFixed(2), (1.45).toFixed(1), (123.456).toFixed(0), (0).toFixed(2), (-1.5).toFixed(0), (1e21).toFixed(2), (0.000001).toFixed(7), (2.5).toFixed()]

// === tofixed-range
const out = []
for (const d of [-1, 101, 100, Infinity, NaN]) {
  try {
    out.push((1).toFixed(d).length)
  } catch (e) {
    out.push(e.name + ":" + e.message)
  }
}
return out

// === tofixed-nan-infinity
return [NaN.toFixed(2), Infinity.toFixed(1), (-Infinity).toFixed(0)]

// === toexponential-values
return [(123456).toExponential(2), (0.00015).toExponential(), (1).toExponential(0), (-1.5e-7).toExponential(3), (0).toExponential(2), NaN.toExponential(200), Infinity.toExponential()]

// === toexponential-range
const out = []
for (const d of [-1, 101, 100]) {
  try {
    out.push((1.5).toExponential(d).slice(0, 8))
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === toprecision-values
return [(123.456).toPrecision(4), (0.000123).toPrecision(2), (123456).toPrecision(2), (1.5).toPrecision(), (1e21).toPrecision(3), (-0).toPrecision(3), (99.99).toPrecision(3)]

// === toprecision-range
const out = []
for (const p of [0, 101, 1, 100]) {
  try {
    out.push((2).toPrecision(p).length)
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === toprecision-nonfinite-before-range
return [NaN.toPrecision(0), Infinity.toPrecision(500)]

// === toprecision-argument-coercion-order
const log = []
try {
  Number.prototype.toPrecision.call("x", { valueOf() { log.push("v"); return 2 } })
} catch (e) {
  log.push(e.name)
}
return log

// === tolocalestring-default
return [(1234.5).toLocaleString(), (1234567.891).toLocaleString(), (0).toLocaleString(), (-1e6).toLocaleString(), NaN.toLocaleString(), (0.1234567).toLocaleString()]

// === tolocalestring-options
return [
  (1234.5).toLocaleString("en-US", { style: "currency", currency: "USD" }),
  (0.256).toLocaleString("en-US", { style: "percent" }),
  (1234.5678).toLocaleString("en-US", { maximumFractionDigits: 1 }),
  (5).toLocaleString("en-US", { minimumIntegerDigits: 3 }),
  (1234567).toLocaleString("en-US", { useGrouping: false }),
  (3).toLocaleString("en-US", { minimumFractionDigits: 2 }),
]

// === tolocalestring-locales
return [(1234567.89).toLocaleString("de-DE"), (1234567.89).toLocaleString("fr-FR").replace(/\s/g, "_"), (1234.5).toLocaleString(["en-GB"]), (1234.5).toLocaleString(undefined, { maximumFractionDigits: 0 })]

// === tolocalestring-bad-option
try {
  ;(1).toLocaleString("en-US", { maximumFractionDigits: 500 })
  return "no"
} catch (e) {
  return e.name
}

// === valueof-this-check
const out = [Number.prototype.valueOf.call(3), Number.prototype.valueOf.call(Object(4))]
try {
  Number.prototype.valueOf.call("3")
} catch (e) {
  out.push(e.name)
}
return out

// === number-prototype-is-number
return [Number.prototype.valueOf(), Object.prototype.toString.call(Number.prototype), Number.prototype.toFixed(1)]

// === method-lengths
const p = Number.prototype
return [p.toExponential.length, p.toFixed.length, p.toPrecision.length, p.toString.length, p.toLocaleString.length, p.valueOf.length, Number.isFinite.length]

// === methods-not-enumerable
return [Object.keys(Number), Object.keys(Number.prototype), Object.getOwnPropertyNames(Number).sort()]

// === primitive-method-calls
const x = 12.3456
return [x.toFixed(2), (5).toString(2), 1.5.toPrecision(2), 0.5.toExponential(1)]

// === float-formatting-roundtrip
const vals = [0.1 + 0.2, 1 / 3, 2 ** 70, 1e-7, 123e-20, -1e21, 5e-324, 1.7976931348623157e308]
return vals.map((v) => [String(v), Number(String(v)) === v])

// === number-tofixed-argument-coerced
return [(3.14159).toFixed("2"), (3.14159).toFixed(null), (3.14159).toFixed(2.9), (3.14159).toFixed({ valueOf: () => 3 })]

// === number-equality-semantics
return [Object.is(Number("-0"), -0), Number("  \n42\t"), String(Number("+Infinity")), String(Number("infinity")), Number("00012"), Number(".5"), Number("5.")]

// === tostring-radix-fractions
return [(-0.1).toString(3), (1 / 3).toString(2).length, (2 ** 60 + 0.5).toString(16), (1e-7).toString(16), (-255.5).toString(2), Number.MAX_VALUE.toString(36).length, (123.456e-10).toString(5)]

// === tofixed-large-and-rounding
return [(1e20).toFixed(2), (1.23e20).toFixed(1), (0.5).toFixed(0), (1.5).toFixed(0), (-0.5).toFixed(0), (8.345).toFixed(2), (10.235).toFixed(2), (1.0000000000000002).toFixed(20)]

// === toprecision-exponential-forms
return [(123456789).toPrecision(3), (0.0000001234).toPrecision(2), (1e-6).toPrecision(1), (123.45).toPrecision(100).length, (5e-324).toPrecision(3), (-1e21).toPrecision(21)]

// === number-unicode-whitespace
return [Number("\u00a0 42 \u2028"), Number("\ufeff7"), parseFloat("\u3000 1.5"), parseInt("\u2003 12"), String(Number("\u200b1"))]

// === number-numeric-strings-edge
return [Number("1e1000"), Number("-1e-1000"), Number("0.0000001"), Number("1.7976931348623159e308"), Number("2e-324"), Number("3e-324")].map(String)

// === parseint-large-and-exponent
return [parseInt("123456789012345678901234567890"), parseInt("1e21"), parseInt(1e21), parseInt("0x" + "f".repeat(20)), parseInt("-0x10"), parseInt("  +42  ")].map(String)

// === number-wrapper-equality
const a = new Number(1)
const b = new Number(1)
return [a == b, a === b, a == 1, a.valueOf() === b.valueOf(), typeof (a + b), [a].includes(1)]

// === number-methods-on-wrapper-this
const w = new Number(255)
return [w.toString(16), w.toFixed(1), w.toExponential(1), w.toPrecision(2), w.toLocaleString(), Number.prototype.toString.call(w, 2)]
