// The Math object: constants, every function with its coercions and special values (NaN, ±0, ±Infinity),
// argument evaluation order, and the object's own shape. Math.random is only checked for range and type.

// === math-constants
return [Math.E, Math.LN10, Math.LN2, Math.LOG10E, Math.LOG2E, Math.PI, Math.SQRT1_2, Math.SQRT2]

// === math-constants-readonly
"use strict"
const d = Object.getOwnPropertyDescriptor(Math, "PI")
let threw = false
try {
  Math.PI = 3
} catch (e) {
  threw = e.name
}
return [d.writable, d.enumerable, d.configurable, threw, Math.PI]

// === math-tostringtag
return [Object.prototype.toString.call(Math), String(Math), Math[Symbol.toStringTag], typeof Math]

// === math-not-constructor
try {
  new Math.max()
  return "no"
} catch (e) {
  return e.name
}

// === math-abs
return [Math.abs(-5), Math.abs("-3"), Math.abs(null), String(Math.abs("x")), Object.is(Math.abs(-0), 0), String(Math.abs(-Infinity)), String(Math.abs())]

// === math-floor-ceil-trunc-round
const vals = [1.5, -1.5, 2.5, -2.5, 0.49999999999999994, -0.5, 1e21, -0.2]
return vals.map((v) => [Math.floor(v), Math.ceil(v), Math.trunc(v), Math.round(v)].map((x) => (Object.is(x, -0) ? "-0" : x)))

// === math-round-negative-zero
return [Object.is(Math.round(-0.4), -0), Object.is(Math.round(-0), -0), Object.is(Math.ceil(-0.5), -0), Object.is(Math.trunc(-0.9), -0), Math.round(2 ** 52 + 0.5)]

// === math-sign
return [Math.sign(5), Math.sign(-3), Object.is(Math.sign(-0), -0), Math.sign(0), String(Math.sign(NaN)), Math.sign("-2"), Math.sign(-Infinity)]

// === math-sqrt-cbrt
return [Math.sqrt(16), String(Math.sqrt(-1)), Object.is(Math.sqrt(-0), -0), Math.cbrt(27), Math.cbrt(-8), Math.sqrt(2), Math.cbrt(2)]

// === math-pow
return [Math.pow(2, 10), Math.pow(2, -1), String(Math.pow(NaN, 0)), String(Math.pow(1, Infinity)), Math.pow(-8, 1 / 3), Math.pow(0, -1), Math.pow(-0, -1), Math.pow(4, 0.5)].map(String)

// === math-exp-log
return [Math.exp(1), Math.exp(0), Math.log(Math.E), Math.log(-1), Math.log(0), Math.log10(1000), Math.log2(8), Math.log1p(1e-10), Math.expm1(1e-10), Math.log10(2)].map(String)

// === math-trig
return [Math.sin(0), Math.sin(Math.PI / 2), Math.cos(Math.PI), Math.tan(1), Math.asin(1), Math.acos(-1), Math.atan(1), Math.atan2(1, -1), Math.atan2(-0, -1), String(Math.asin(2))]

// === math-atan2-zeros
return [Math.atan2(0, 0), Math.atan2(-0, 0), Math.atan2(0, -0), Math.atan2(-0, -0)].map((x) => (Object.is(x, -0) ? "-0" : x))

// === math-hyperbolic
return [Math.sinh(1), Math.cosh(1), Math.tanh(1), Math.asinh(1), Math.acosh(2), Math.atanh(0.5), Math.tanh(Infinity), String(Math.acosh(0.5)), Math.atanh(1)].map(String)

// === math-max-min
return [Math.max(1, 3, 2), Math.min(1, 3, 2), Math.max(), Math.min(), String(Math.max(1, NaN, 3)), Math.max("7", 2), Math.min([1], [2])].map(String)

// === math-max-min-zeros
return [Object.is(Math.max(-0, 0), 0), Object.is(Math.max(0, -0), 0), Object.is(Math.min(0, -0), -0), Object.is(Math.min(-0, 0), -0)]

// === math-max-coerces-all-args
const log = []
const a = { valueOf() { log.push("a"); return NaN } }
const b = { valueOf() { log.push("b"); return 1 } }
return [String(Math.max(a, b)), log]

// === math-max-spread-array
const arr = Array.from({ length: 1000 }, (_, i) => (i * 37) % 1001)
return [Math.max(...arr), Math.min(...arr), Math.max.apply(null, arr)]

// === math-hypot
return [Math.hypot(3, 4), Math.hypot(), Math.hypot(-3), Math.hypot(1, 1, 1), Math.hypot(3, 4, "12"), String(Math.hypot(NaN, 1)), Math.hypot(NaN, Infinity), Math.hypot(1e200, 1e200), Math.hypot(0.1, 0.2, 0.3)].map(String)

// === math-hypot-zero
return [Object.is(Math.hypot(-0), 0), Object.is(Math.hypot(-0, -0), 0), Math.hypot.length]

// === math-clz32
return [Math.clz32(1), Math.clz32(0), Math.clz32(-1), Math.clz32(0.5), Math.clz32(2 ** 32), Math.clz32("8"), Math.clz32(NaN), Math.clz32(Infinity)]

// === math-imul
return [Math.imul(3, 4), Math.imul(-5, 12), Math.imul(0xffffffff, 5), Math.imul(2 ** 31, 2), Math.imul("3", "4"), Math.imul(1.9, 2.9), Math.imul()]

// === math-fround
return [Math.fround(5.5), Math.fround(5.05), Math.fround(2 ** 128), Math.fround(1e-46), Object.is(Math.fround(-0), -0), String(Math.fround(NaN)), Math.fround(16777217)].map(String)

// === math-f16round
return [Math.f16round(1.337), Math.f16round(65504), Math.f16round(65520), Math.f16round(65519.99), Math.f16round(5e-8), Math.f16round(2.98e-8), Math.f16round(1e-8), Math.f16round(-1.5), Math.f16round(0.1), Math.f16round(2049), Math.f16round(2051)].map(String)

// === math-f16round-specials
return [Object.is(Math.f16round(-0), -0), Object.is(Math.f16round(-1e-10), -0), String(Math.f16round(NaN)), String(Math.f16round(-Infinity)), Math.f16round("3.3"), Math.f16round.length]

// === math-random-shape
const xs = Array.from({ length: 200 }, () => Math.random())
return [xs.every((x) => typeof x === "number" && x >= 0 && x < 1), new Set(xs).size > 190, Math.random.length]

// === math-function-lengths
const names = Object.getOwnPropertyNames(Math).filter((k) => typeof Math[k] === "function" && k !== "sumPrecise").sort()
return names.map((k) => k + ":" + Math[k].length)

// === math-properties-non-enumerable
return [Object.keys(Math), Object.getOwnPropertyDescriptor(Math, "max").enumerable, Object.getOwnPropertyDescriptor(Math, "max").writable]

// === math-coercion-errors
const out = []
for (const v of [Symbol("s"), 1n]) {
  try {
    Math.abs(v)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === math-valueof-throws
try {
  Math.floor({ valueOf() { throw new RangeError("inner") } })
  return "no"
} catch (e) {
  return [e.name, e.message]
}

// === math-pow-order
const log = []
Math.pow({ valueOf() { log.push("base"); return 2 } }, { valueOf() { log.push("exp"); return 3 } })
return log

// === math-atan2-order
const log = []
Math.atan2({ valueOf() { log.push("y"); return 1 } }, { valueOf() { log.push("x"); return 1 } })
return log

// === math-expm1-log1p-edges
return [Object.is(Math.expm1(-0), -0), Math.expm1(-Infinity), Object.is(Math.log1p(-0), -0), Math.log1p(-1), String(Math.log1p(-2))].map(String)

// === math-overwrite-function
const saved = Math.max
Math.max = () => 42
const r = Math.max(1, 2)
Math.max = saved
return [r, Math.max(1, 2)]

// === math-monte-carlo-deterministic-shape
let inside = 0
const N = 2000
for (let i = 0; i < N; i++) {
  const x = Math.random()
  const y = Math.random()
  if (x * x + y * y <= 1) inside++
}
return Math.abs((4 * inside) / N - Math.PI) < 0.3

// === math-rounding-helpers
const round2 = (x) => Math.round(x * 100) / 100
return [round2(1.005), round2(2.345), round2(-1.555), Math.floor(-7 / 2), Math.trunc(-7 / 2), -7 % 2]

// === math-large-values
return [Math.floor(1e300), Math.sqrt(1e308 * 10), Math.exp(710), Math.exp(-750), Math.cosh(710), Math.log(Number.MAX_VALUE)].map(String)

// === math-clamp-idiom
const clamp = (v, lo, hi) => Math.min(hi, Math.max(lo, v))
return [clamp(5, 0, 3), clamp(-5, 0, 3), clamp(2, 0, 3), String(clamp(NaN, 0, 3))]

// === math-round-halfway-cases
return [Math.round(-2.5), Math.round(-3.5), Math.round(0.5), Math.round(-0.5000000000000001), Math.round(4503599627370495.5), Math.round(-4503599627370495.5), Math.round(1.4999999999999998)].map((x) => (Object.is(x, -0) ? "-0" : x))

// === math-pow-specials
return [Math.pow(NaN, -0), Math.pow(-0, 3), Math.pow(-0, 0.5), Math.pow(-Infinity, 3), Math.pow(-Infinity, 2), Math.pow(-1, Infinity), Math.pow(0.5, -Infinity), 2 ** 0.5 === Math.pow(2, 0.5)].map((x) => (Object.is(x, -0) ? "-0" : String(x)))

// === math-fround-subnormals
return [Math.fround(1.401298464324817e-45), Math.fround(7e-46), Math.fround(7.1e-46), Math.fround(3.4028235677973366e38), Math.fround(3.4028235677973366e38 * 1.0000001), Math.fround(-1.17549435e-38)].map(String)

// === math-cbrt-sqrt-zero
return [Object.is(Math.cbrt(-0), -0), Object.is(Math.sqrt(-0), -0), Math.cbrt(-Infinity), Math.cbrt(1e-300), Math.sqrt(Number.MIN_VALUE)].map(String)

// === math-trig-large
return [Math.sin(1e22), Math.cos(1e22), Math.tan(1e300), Math.sin(Math.PI), Math.cos(Math.PI / 2), Math.atan(Infinity)]

// === math-sign-and-abs-coercion
return [Math.sign("-0"), Math.sign([]), Math.sign([5]), Math.sign({}), Math.abs("  -7  "), Math.abs([-2]), Math.abs(true), Math.abs(false)].map((x) => (Object.is(x, -0) ? "-0" : String(x)))

// === math-log-family-exact
return [Math.log2(2 ** 50), Math.log10(1e15), Math.log2(3), Math.log10(3), Math.log1p(Number.EPSILON), Math.expm1(1), Math.exp(-Infinity), Math.log2(0.125)]

// === math-imul-clz32-bitwise
const out = []
for (const x of [0, 1, -1, 2 ** 31, 2 ** 32 + 3, -(2 ** 31) - 1, 1e10, 0.99]) out.push([Math.clz32(x), Math.imul(x, 7), Math.imul(x, x)])
return out
