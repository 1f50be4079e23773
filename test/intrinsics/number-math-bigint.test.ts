/** Number, Math and BigInt natives driven through the test engine, checked against the host (V8) where exact. */
import { describe, expect, it } from "vitest"
import { f16round } from "../../src/intrinsics/math.ts"
import { JSObject } from "../../src/runtime/object.ts"
import { Property } from "../../src/runtime/property.ts"
import { type Value, WellKnownSymbols } from "../../src/runtime/value.ts"
import { attempt, callFunction, constructFunction, errorText, fn, get, global, invoke, toSandbox } from "./support.ts"
import { createTestRealm } from "./stub-realm.ts"
import { iterableOf } from "./iterables.ts"

const realm = createTestRealm()
const throwsText = (body: () => unknown): string => {
  const r = attempt(realm, body)
  return r.ok ? "no throw" : errorText(r.error)
}

describe("Number", () => {
  const N = global(realm, "Number")
  it("converts when called, wraps with new", () => {
    expect(callFunction(realm, N, undefined, ["0x1f"])).toBe(31)
    expect(callFunction(realm, N, undefined, [12n])).toBe(12)
    expect(callFunction(realm, N, undefined, [])).toBe(0)
    const w = constructFunction(realm, N, [5])
    expect(invoke(realm, w, "valueOf")).toBe(5)
    expect(throwsText(() => callFunction(realm, N, undefined, [toSandbox(realm, {})]))).toBe("no throw")
  })
  it("formats like the host", () => {
    for (const x of [0, -0, 1.005, 123.456, 1e21, -1.5e-7, 0.1 + 0.2, 5e-324, NaN, Infinity]) {
      expect(invoke(realm, x, "toFixed", [2])).toBe(x.toFixed(2))
      expect(invoke(realm, x, "toPrecision", [4])).toBe(x.toPrecision(4))
      expect(invoke(realm, x, "toExponential", [3])).toBe(x.toExponential(3))
      expect(invoke(realm, x, "toExponential", [])).toBe(x.toExponential())
      expect(invoke(realm, x, "toString", [36])).toBe(x.toString(36))
    }
    expect(invoke(realm, 1234.5, "toLocaleString")).toBe("1,234.5")
    expect(invoke(realm, 0.256, "toLocaleString", ["en-US", toSandbox(realm, { style: "percent" })])).toBe("26%")
  })
  it("throws V8's RangeErrors and brand errors", () => {
    expect(throwsText(() => invoke(realm, 1, "toFixed", [101]))).toBe("RangeError: toFixed() digits argument must be between 0 and 100")
    expect(throwsText(() => invoke(realm, 1, "toString", [1]))).toBe("RangeError: toString() radix argument must be between 2 and 36")
    expect(throwsText(() => invoke(realm, 1, "toPrecision", [0]))).toBe("RangeError: toPrecision() argument must be between 1 and 100")
    expect(throwsText(() => callFunction(realm, get(realm.intrinsic("%Number.prototype%"), "toFixed") as JSObject, "x", []))).toBe(
      "TypeError: Number.prototype.toFixed requires that 'this' be a Number",
    )
    expect(throwsText(() => invoke(realm, 1, "toLocaleString", ["en-US", toSandbox(realm, { maximumFractionDigits: 500 })]))).toMatch(/^RangeError/)
  })
  it("parseInt and parseFloat are shared with the global object", () => {
    expect(get(N, "parseInt")).toBe(get(realm.globalObject, "parseInt"))
    expect(get(N, "parseFloat")).toBe(realm.intrinsic("%parseFloat%"))
    expect(invoke(realm, N, "parseInt", ["  0x1F"])).toBe(31)
    expect(invoke(realm, N, "parseInt", ["z", 36])).toBe(35)
    expect(invoke(realm, N, "parseFloat", ["-.5e2x"])).toBe(-50)
  })
  it("predicates do not coerce", () => {
    expect(invoke(realm, N, "isInteger", ["5"])).toBe(false)
    expect(invoke(realm, N, "isSafeInteger", [2 ** 53])).toBe(false)
    expect(invoke(realm, N, "isNaN", [NaN])).toBe(true)
  })
})

describe("Math", () => {
  const M = global(realm, "Math")
  it("matches the host on many inputs", () => {
    const xs = [0, -0, 0.5, -0.5, 1, -1, 2.5, -2.5, 3, 1e-300, 1e300, Math.PI, NaN, Infinity, -Infinity, 0.1, 7.25]
    for (const name of ["abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "clz32", "cos", "cosh", "exp", "expm1", "floor", "fround", "log", "log1p", "log10", "log2", "round", "sign", "sin", "sinh", "sqrt", "tan", "tanh", "trunc"]) {
      const host = (Math as unknown as Record<string, (x: number) => number>)[name]!
      for (const x of xs) expect(Object.is(invoke(realm, M, name, [x]), host(x)), `${name}(${x})`).toBe(true)
    }
    for (const name of ["atan2", "pow", "imul"]) {
      const host = (Math as unknown as Record<string, (x: number, y: number) => number>)[name]!
      for (const x of xs) for (const y of xs) expect(Object.is(invoke(realm, M, name, [x, y]), host(x, y)), `${name}(${x},${y})`).toBe(true)
    }
  })
  it("hypot, max and min follow V8 exactly", () => {
    let seed = 7
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 10 ** ((seed % 20) - 10)
    for (let i = 0; i < 300; i++) {
      const args = Array.from({ length: 1 + (i % 5) }, rnd)
      expect(invoke(realm, M, "hypot", args)).toBe(Math.hypot(...args))
      expect(invoke(realm, M, "max", args)).toBe(Math.max(...args))
      expect(invoke(realm, M, "min", args)).toBe(Math.min(...args))
    }
    expect(Object.is(invoke(realm, M, "max", [-0, 0]), 0)).toBe(true)
    expect(Object.is(invoke(realm, M, "min", [0, -0]), -0)).toBe(true)
    expect(invoke(realm, M, "hypot", [NaN, Infinity])).toBe(Infinity)
    const many = Array.from({ length: 200_000 }, (_, i) => i)
    expect(invoke(realm, M, "max", many)).toBe(199_999)
  })
  it("f16round rounds once, to even", () => {
    const host = (Math as unknown as { f16round?: (x: number) => number }).f16round
    let seed = 11
    for (let i = 0; i < 20000; i++) {
      seed = (seed * 48271) % 2147483647
      const x = (seed / 2147483647 - 0.5) * 2 ** ((seed % 60) - 30)
      if (host) expect(Object.is(f16round(x), host(x)), String(x)).toBe(true)
    }
    expect(f16round(65520)).toBe(Infinity)
    expect(f16round(65519.99)).toBe(65504)
    expect(Object.is(f16round(-1e-10), -0)).toBe(true)
  })
  it("random is deterministic per realm and in [0, 1)", () => {
    const other = createTestRealm()
    const a = Array.from({ length: 50 }, () => invoke(realm, M, "random") as number)
    const b = Array.from({ length: 50 }, () => invoke(other, global(other, "Math"), "random") as number)
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true)
    expect(new Set(a).size).toBe(50)
    const fresh = createTestRealm()
    const c = Array.from({ length: 50 }, () => invoke(fresh, global(fresh, "Math"), "random") as number)
    expect(c).toEqual(b)
  })
  it("sumPrecise sums exactly", () => {
    const sum = (xs: Value[]): Value => invoke(realm, M, "sumPrecise", [iterableOf(realm, xs)])
    expect(sum([1e20, 0.1, -1e20])).toBe(0.1)
    expect(sum([0.1, 0.2, 0.3])).toBe(0.6)
    expect(Object.is(sum([]), -0)).toBe(true)
    expect(Object.is(sum([-0, -0]), -0)).toBe(true)
    expect(Object.is(sum([-0, 0]), 0)).toBe(true)
    expect(sum([Infinity, 1])).toBe(Infinity)
    expect(sum([Infinity, -Infinity])).toBeNaN()
    expect(sum([1.7976931348623157e308, 1.7976931348623157e308])).toBe(Infinity)
    expect(sum([1.7976931348623157e308, 1.7976931348623157e308, -1.7976931348623157e308])).toBe(1.7976931348623157e308)
    expect(sum([5e-324, 5e-324])).toBe(1e-323)
    expect(sum([2 ** 53, 1, 1])).toBe(2 ** 53 + 2)
    let closed = 0
    expect(throwsText(() => invoke(realm, M, "sumPrecise", [iterableOf(realm, [1, "2", 3], () => closed++)]))).toMatch(/^TypeError/)
    expect(closed).toBe(1)
    let seed = 3
    for (let n = 0; n < 200; n++) {
      const xs = Array.from({ length: 1 + (n % 7) }, () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 2 ** ((seed % 40) - 20))
      // Exact reference: rationals over a common power-of-two denominator, via BigInt.
      const scale = 2n ** 200n
      let exact = 0n
      for (const x of xs) {
        const [m, e] = decompose(x)
        exact += e >= 0 ? (m << BigInt(e)) * scale : (m * scale) >> BigInt(-e)
      }
      const expected = Number(exact) / 2 ** 200
      expect(sum(xs), String(xs)).toBe(expected)
    }
  })
  it("converts arguments through valueOf, in order, before computing", () => {
    const log: string[] = []
    const obj = (tag: string, v: number): JSObject => {
      const o = toSandbox(realm, {}) as JSObject
      o.properties.set("valueOf", Property.data(fn(realm, () => (log.push(tag), v)), true, false, true))
      return o
    }
    expect(invoke(realm, M, "max", [obj("a", NaN), obj("b", 1)])).toBeNaN()
    expect(invoke(realm, M, "pow", [obj("base", 2), obj("exp", 3)])).toBe(8)
    expect(log).toEqual(["a", "b", "base", "exp"])
  })
})

/** x = m * 2^e with integer m (|m| < 2^53). */
const decompose = (x: number): [bigint, number] => {
  let e = 0
  while (!Number.isInteger(x)) {
    x *= 2
    e--
  }
  return [BigInt(x), e]
}

describe("BigInt", () => {
  const B = global(realm, "BigInt")
  it("converts", () => {
    expect(callFunction(realm, B, undefined, [42])).toBe(42n)
    expect(callFunction(realm, B, undefined, [" 0x1f "])).toBe(31n)
    expect(callFunction(realm, B, undefined, [true])).toBe(1n)
  })
  it("throws V8's errors", () => {
    expect(throwsText(() => callFunction(realm, B, undefined, [1.5]))).toBe(
      "RangeError: The number 1.5 cannot be converted to a BigInt because it is not an integer",
    )
    expect(throwsText(() => callFunction(realm, B, undefined, ["1.5"]))).toBe("SyntaxError: Cannot convert 1.5 to a BigInt")
    expect(throwsText(() => callFunction(realm, B, undefined, [undefined]))).toBe("TypeError: Cannot convert undefined to a BigInt")
    expect(throwsText(() => constructFunction(realm, B, [1]))).toBe("TypeError: BigInt is not a constructor")
    expect(throwsText(() => invoke(realm, B, "asUintN", [2 ** 40, -1n]))).toBe("RangeError: Maximum BigInt size exceeded")
    expect(throwsText(() => invoke(realm, B, "asIntN", [-1, 1n]))).toBe("RangeError: Invalid value: not (convertible to) a safe integer")
  })
  it("asIntN/asUintN/toString", () => {
    expect(invoke(realm, B, "asIntN", [8, 255n])).toBe(-1n)
    expect(invoke(realm, B, "asUintN", [64, -1n])).toBe(2n ** 64n - 1n)
    expect(invoke(realm, B, "asUintN", [2 ** 40, 5n])).toBe(5n)
    expect(invoke(realm, 255n, "toString", [16])).toBe("ff")
    expect(invoke(realm, 1234567n, "toLocaleString")).toBe("1,234,567")
    expect(get(realm.intrinsic("%BigInt.prototype%"), WellKnownSymbols.toStringTag)).toBe("BigInt")
  })
})
