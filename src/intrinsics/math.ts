/**
 * The Math object (https://tc39.es/ecma262/#sec-math-object). Arguments go through ToNumber (which may run user
 * code, hence Tasks, all of them converted before anything is computed, in argument order); then the host's Math
 * functions, which are V8's own (same fdlibm ports), compute the exact same results. `f16round` rounds to IEEE
 * half precision directly (not through float32, which would round twice). `sumPrecise` adds exactly with BigInt
 * arithmetic over the doubles' binary expansions and rounds once.
 *
 * Math.random is xorshift128+ (V8's generator) with its state kept as four 32-bit numbers in the realm
 * (`Realm.randomState`), so it is plain data and survives a snapshot without the Math object counting as changed
 * (which would save it and copy all its methods into every resumed run). The host seeds it per run (host/random-seed.ts);
 * NON-SPEC in spirit (the spec asks for "random or pseudo random" numbers): a run given a seed is reproducible.
 */
import { SandboxError, throwTypeError } from "../runtime/completion.ts"
import { ToNumber, ToUint32 } from "../runtime/conversions.ts"
import { defineMethods, defineValues } from "../runtime/builtin.ts"
import { DONE, GetIterator, IteratorCloseOnThrow, IteratorStepValue } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import { Property } from "../runtime/property.ts"
import { defineForker } from "../runtime/realm-fork.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type Value, WellKnownSymbols } from "../runtime/value.ts"

/** The Math object: ordinary but for its class, which structured cloning tells from other host objects. */
export class MathObject extends JSObject {
  constructor(proto: JSObject) {
    super(proto)
    this.kind = "Math"
  }
}

defineForker(MathObject, (_t, proto) => new MathObject(proto!))

function* toNum(realm: Realm, v: Value): Task<number> {
  return typeof v === "number" ? v : yield* ToNumber(realm, v)
}

/** A Math function of one Number argument. */
const unary = (f: (x: number) => number) =>
  function* (realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
    return f(yield* toNum(realm, args[0]))
  }

/** A Math function of two Number arguments, converted left to right. */
const binary = (f: (x: number, y: number) => number) =>
  function* (realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
    const x = yield* toNum(realm, args[0])
    const y = yield* toNum(realm, args[1])
    return f(x, y)
  }

/**
 * A variadic Math function: every argument is coerced first (https://tc39.es/ecma262/#sec-math.max step 2). The
 * reductions are written out rather than spread into the host's function, which would overflow the host stack
 * on a very long argument list.
 */
const variadic = (f: (xs: ReadonlyArray<number>) => number) =>
  function* (realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
    const coerced: number[] = []
    for (const a of args) coerced.push(yield* toNum(realm, a))
    return f(coerced)
  }

// https://tc39.es/ecma262/#sec-math.max
const max = (xs: ReadonlyArray<number>): number => {
  let r = -Infinity
  for (const n of xs) {
    if (n !== n) return NaN
    if (n > r || (n === 0 && r === 0 && Object.is(r, -0))) r = n
  }
  return r
}

// https://tc39.es/ecma262/#sec-math.min
const min = (xs: ReadonlyArray<number>): number => {
  let r = Infinity
  for (const n of xs) {
    if (n !== n) return NaN
    if (n < r || (n === 0 && r === 0 && Object.is(n, -0))) r = n
  }
  return r
}

// https://tc39.es/ecma262/#sec-math.hypot — V8's algorithm (scale by the largest, Kahan-sum the squares), so
// results match it to the last bit.
const hypot = (xs: ReadonlyArray<number>): number => {
  let oneIsInfinity = false
  let oneIsNaN = false
  let largest = 0
  const abs: number[] = []
  for (const x of xs) {
    const a = Math.abs(x)
    if (a !== a) oneIsNaN = true
    else if (a === Infinity) oneIsInfinity = true
    else if (a > largest) largest = a
    abs.push(a)
  }
  if (oneIsInfinity) return Infinity
  if (oneIsNaN) return NaN
  if (largest === 0) return 0
  let sum = 0
  let compensation = 0
  for (const a of abs) {
    const n = a / largest
    const summand = n * n - compensation
    const preliminary = sum + summand
    compensation = preliminary - sum - summand
    sum = preliminary
  }
  return Math.sqrt(sum) * largest
}

// https://tc39.es/ecma262/#sec-math.clz32
function* Math_clz32(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  return Math.clz32(yield* ToUint32(realm, args[0]))
}

// https://tc39.es/ecma262/#sec-math.imul
function* Math_imul(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  const a = yield* ToUint32(realm, args[0])
  const b = yield* ToUint32(realm, args[1])
  return Math.imul(a, b)
}

/** Rounds a non-negative q < 2^53 to an integer, ties to even. */
const roundHalfEven = (q: number): number => {
  const f = Math.floor(q)
  const d = q - f
  if (d > 0.5) return f + 1
  if (d < 0.5) return f
  return f % 2 === 0 ? f : f + 1
}

/** https://tc39.es/ecma262/#sec-math.f16round — roundTiesToEven to binary16, as a double. */
export const f16round = (x: number): number => {
  if (x !== x || x === 0 || !Number.isFinite(x)) return x
  const sign = x < 0 ? -1 : 1
  const a = Math.abs(x)
  // The largest half is 65504; 65520 is halfway to 65536 (the next, unrepresentable, step) and rounds to even: up.
  if (a >= 65520) return sign * Infinity
  if (a < 2 ** -14) return sign * roundHalfEven(a * 2 ** 24) * 2 ** -24 // subnormal halves: steps of 2^-24
  let e = Math.floor(Math.log2(a))
  if (2 ** e > a) e--
  else if (2 ** (e + 1) <= a) e++
  const quantum = 2 ** (e - 10) // 11 significant bits
  return sign * roundHalfEven(a / quantum) * quantum
}

// https://tc39.es/ecma262/#sec-math.random
const Math_random = (realm: Realm): Value => nextRandom(realm.randomState)

const MASK64 = (1n << 64n) - 1n
const join64 = (hi: number, lo: number): bigint => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0)

/** One step of V8's xorshift128+ over `state` (mutated); returns a double in [0, 1). */
export const nextRandom = (state: number[]): number => {
  let s1 = join64(state[0]!, state[1]!)
  const s0 = join64(state[2]!, state[3]!)
  const state0 = s0
  s1 ^= (s1 << 23n) & MASK64
  s1 ^= s1 >> 17n
  s1 ^= s0
  s1 ^= s0 >> 26n
  state[0] = Number(state0 >> 32n)
  state[1] = Number(state0 & 0xffffffffn)
  state[2] = Number(s1 >> 32n)
  state[3] = Number(s1 & 0xffffffffn)
  // V8's ToDouble: the top 52 bits of state0 as the mantissa of a double in [1, 2), minus 1.
  return Number(state0 >> 12n) / 2 ** 52
}

/** A finite double's exact value as an integer multiple of 2^-1074. */
const scratch = new DataView(new ArrayBuffer(8))
const scaledOf = (n: number): bigint => {
  scratch.setFloat64(0, n)
  const hi = scratch.getUint32(0)
  const lo = scratch.getUint32(4)
  const exp = (hi >>> 20) & 0x7ff
  const mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo)
  const m = exp === 0 ? mant : (mant | (1n << 52n)) << BigInt(exp - 1)
  return hi >>> 31 === 1 ? -m : m
}

/** The double nearest to S × 2^-1074 (ties to even). */
const doubleOfScaled = (S: bigint): number => {
  if (S === 0n) return 0
  const neg = S < 0n
  const a = neg ? -S : S
  const bits = a.toString(2).length
  let r: number
  if (bits <= 53) {
    r = Number(a) * 2 ** -1074 // exact: at most 53 significant bits at this scale
  } else {
    const shift = bits - 53
    let mant = a >> BigInt(shift)
    const rem = a - (mant << BigInt(shift))
    const half = 1n << BigInt(shift - 1)
    if (rem > half || (rem === half && (mant & 1n) === 1n)) mant += 1n
    // A normal result (at least 2^-1021): the product is exact, or overflows to Infinity as rounding demands.
    r = Number(mant) * 2 ** (shift - 1074)
  }
  return neg ? -r : r
}

// https://tc39.es/proposal-math-sum/#sec-math.sumprecise
function* Math_sumPrecise(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  const items = args[0]
  // 1. Perform ? RequireObjectCoercible(items).
  if (items === undefined || items === null) return throwTypeError(`Math.sumPrecise called on ${String(items)}`)
  // 2. Let iteratorRecord be ? GetIterator(items, sync).
  const iteratorRecord = yield* GetIterator(realm, items)
  // 3-5. state is minus-zero, sum is 0, count is 0.
  let state: "minus-zero" | "finite" | "plus-infinity" | "minus-infinity" | "not-a-number" = "minus-zero"
  let sum = 0n
  let count = 0
  for (;;) {
    const next = yield* IteratorStepValue(iteratorRecord)
    if (next === DONE) break
    count++
    if (count >= 2 ** 53) {
      return yield* IteratorCloseOnThrow(realm, iteratorRecord, new SandboxError("RangeError", "Too many values"))
    }
    if (typeof next !== "number") {
      return yield* IteratorCloseOnThrow(
        realm,
        iteratorRecord,
        new SandboxError("TypeError", "Math.sumPrecise requires that every value be a Number"),
      )
    }
    const n = next
    if (state === "not-a-number") continue
    if (n !== n) state = "not-a-number"
    else if (n === Infinity) state = state === "minus-infinity" ? "not-a-number" : "plus-infinity"
    else if (n === -Infinity) state = state === "plus-infinity" ? "not-a-number" : "minus-infinity"
    else if (!Object.is(n, -0) && (state === "minus-zero" || state === "finite")) {
      state = "finite"
      if (n !== 0) sum += scaledOf(n)
    }
  }
  switch (state) {
    case "not-a-number":
      return NaN
    case "plus-infinity":
      return Infinity
    case "minus-infinity":
      return -Infinity
    case "minus-zero":
      return -0
    default:
      return doubleOfScaled(sum)
  }
}

export const install = (realm: Realm): void => {
  const M = new MathObject(realm.ObjectPrototype)
  realm.register("%Math%", M)
  realm.globalObject.properties.set("Math", Property.data(M, true, false, true))

  // https://tc39.es/ecma262/#sec-value-properties-of-the-math-object
  defineValues(M, [
    ["E", Math.E],
    ["LN10", Math.LN10],
    ["LN2", Math.LN2],
    ["LOG10E", Math.LOG10E],
    ["LOG2E", Math.LOG2E],
    ["PI", Math.PI],
    ["SQRT1_2", Math.SQRT1_2],
    ["SQRT2", Math.SQRT2],
  ])
  defineValues(M, [[WellKnownSymbols.toStringTag, "Math"]], { writable: false, enumerable: false, configurable: true })

  // https://tc39.es/ecma262/#sec-function-properties-of-the-math-object
  defineMethods(realm, M, "%Math%", [
    ["abs", unary(Math.abs), 1],
    ["acos", unary(Math.acos), 1],
    ["acosh", unary(Math.acosh), 1],
    ["asin", unary(Math.asin), 1],
    ["asinh", unary(Math.asinh), 1],
    ["atan", unary(Math.atan), 1],
    ["atanh", unary(Math.atanh), 1],
    ["atan2", binary(Math.atan2), 2],
    ["cbrt", unary(Math.cbrt), 1],
    ["ceil", unary(Math.ceil), 1],
    ["clz32", Math_clz32, 1],
    ["cos", unary(Math.cos), 1],
    ["cosh", unary(Math.cosh), 1],
    ["exp", unary(Math.exp), 1],
    ["expm1", unary(Math.expm1), 1],
    ["floor", unary(Math.floor), 1],
    ["fround", unary(Math.fround), 1],
    ["f16round", unary(f16round), 1],
    ["hypot", variadic(hypot), 2],
    ["imul", Math_imul, 2],
    ["log", unary(Math.log), 1],
    ["log1p", unary(Math.log1p), 1],
    ["log10", unary(Math.log10), 1],
    ["log2", unary(Math.log2), 1],
    ["max", variadic(max), 2],
    ["min", variadic(min), 2],
    ["pow", binary(Math.pow), 2],
    ["random", Math_random, 0],
    ["round", unary(Math.round), 1],
    ["sign", unary(Math.sign), 1],
    ["sin", unary(Math.sin), 1],
    ["sinh", unary(Math.sinh), 1],
    ["sqrt", unary(Math.sqrt), 1],
    ["sumPrecise", Math_sumPrecise, 1],
    ["tan", unary(Math.tan), 1],
    ["tanh", unary(Math.tanh), 1],
    ["trunc", unary(Math.trunc), 1],
  ])
}
