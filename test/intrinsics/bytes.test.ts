/** ArrayBuffer, typed arrays, DataView and the Uint8Array base64/hex methods, driven through the test engine. */
import { describe, expect, it } from "vitest"
import { JSObject } from "../../src/runtime/object.ts"
import { WellKnownSymbols } from "../../src/runtime/value.ts"
import type { Value } from "../../src/runtime/value.ts"
import { attempt, callFunction, constructFunction, createRealm, errorText, fn, get, global, invoke, toHost, toSandbox } from "./support.ts"

const realm = createRealm()
const make = (name: string, ...args: Value[]): JSObject => constructFunction(realm, global(realm, name), args)
const arr = (...xs: unknown[]) => toSandbox(realm, xs)
const getter = (o: JSObject, key: string): Value => {
  for (let p: JSObject | null = o; p !== null; p = p.proto) {
    const d = p.properties.get(key)
    if (d !== undefined) return d.accessor ? callFunction(realm, d.get!, o, []) : d.value
  }
  return undefined
}
const list = (ta: JSObject): unknown[] => {
  const n = getter(ta, "length") as number
  const out: unknown[] = []
  for (let i = 0; i < n; i++) out.push(ta.GetOwnProperty(String(i))?.value)
  return out
}
const fails = (body: () => unknown): string => {
  const r = attempt(realm, body)
  if (r.ok) throw new Error("expected a throw")
  return errorText(r.error)
}

describe("typed arrays", () => {
  it("construct from length, array, typed array, buffer", () => {
    expect(list(make("Uint8Array", 3))).toEqual([0, 0, 0])
    expect(list(make("Int8Array", arr(1, 200, -3.7)))).toEqual([1, -56, -3])
    expect(list(make("Uint8ClampedArray", arr(1.5, 2.5, -1, 300)))).toEqual([2, 2, 0, 255])
    expect(list(make("Float32Array", arr(1.1)))).toEqual([Math.fround(1.1)])
    expect(list(make("Float16Array", arr(1.1, 65520)))).toEqual([1.099609375, Infinity])
    expect(list(make("BigInt64Array", arr(1n, -1n)))).toEqual([1n, -1n])
    const src = make("Int16Array", arr(-1, 2))
    expect(list(make("Uint16Array", src))).toEqual([65535, 2])
    const buf = make("ArrayBuffer", 8)
    const u32 = make("Uint32Array", buf, 4)
    expect(getter(u32, "length")).toBe(1)
    expect(getter(u32, "byteOffset")).toBe(4)
    expect(fails(() => make("Uint16Array", buf, 1))).toBe("RangeError: start offset of Uint16Array should be a multiple of 2")
    expect(fails(() => make("Uint8Array", -1))).toBe("RangeError: Invalid typed array length: -1")
    expect(fails(() => callFunction(realm, global(realm, "Uint8Array"), undefined, []))).toBe("TypeError: Constructor Uint8Array requires 'new'")
    expect(fails(() => make("Uint8Array", make("BigInt64Array", 1)))).toMatch(/Cannot mix BigInt/)
  })
  it("exotic properties", () => {
    const u = make("Uint8Array", 2)
    expect(u.OwnPropertyKeys()).toEqual(["0", "1"])
    expect(u.HasProperty("2")).toBe(false)
    expect(u.HasProperty("-0")).toBe(false)
    expect(u.GetOwnProperty("1.5")).toBeUndefined()
    expect(u.Delete("0")).toBe(false)
    expect(u.Delete("5")).toBe(true)
    expect(u.DefineOwnProperty("0", { value: 7 })).toBe(true)
    expect(u.GetOwnProperty("0")?.value).toBe(7)
    expect(u.DefineOwnProperty("0", { value: 7, writable: false })).toBe(false)
    expect(u.DefineOwnProperty("5", { value: 7 })).toBe(false)
  })
  it("methods", () => {
    const u = make("Int32Array", arr(5, 1, 4, -2, 3))
    expect(list(invoke(realm, u, "map", [fn(realm, (a) => (a[0] as number) * 2)]) as JSObject)).toEqual([10, 2, 8, -4, 6])
    expect(list(invoke(realm, u, "filter", [fn(realm, (a) => (a[0] as number) > 2)]) as JSObject)).toEqual([5, 4, 3])
    expect(invoke(realm, u, "join", ["-"])).toBe("5-1-4--2-3")
    expect(invoke(realm, u, "indexOf", [4])).toBe(2)
    expect(invoke(realm, u, "includes", [3])).toBe(true)
    expect(invoke(realm, u, "at", [-1])).toBe(3)
    expect(invoke(realm, u, "reduce", [fn(realm, (a) => (a[0] as number) + (a[1] as number))])).toBe(11)
    expect(list(invoke(realm, u, "toSorted", []) as JSObject)).toEqual([-2, 1, 3, 4, 5])
    expect(list(invoke(realm, u, "toSorted", [fn(realm, (a) => (a[1] as number) - (a[0] as number))]) as JSObject)).toEqual([5, 4, 3, 1, -2])
    expect(list(invoke(realm, u, "subarray", [1, 3]) as JSObject)).toEqual([1, 4])
    expect(list(invoke(realm, u, "slice", [-2]) as JSObject)).toEqual([-2, 3])
    expect(list(invoke(realm, u, "with", [0, 9]) as JSObject)).toEqual([9, 1, 4, -2, 3])
    expect(list(invoke(realm, u, "toReversed", []) as JSObject)).toEqual([3, -2, 4, 1, 5])
    invoke(realm, u, "copyWithin", [0, 3])
    expect(list(u)).toEqual([-2, 3, 4, -2, 3])
    invoke(realm, u, "fill", [7, 1, 3])
    expect(list(u)).toEqual([-2, 7, 7, -2, 3])
    invoke(realm, u, "set", [arr(1, 2), 3])
    expect(list(u)).toEqual([-2, 7, 7, 1, 2])
    invoke(realm, u, "sort", [])
    expect(list(u)).toEqual([-2, 1, 2, 7, 7])
    expect(invoke(realm, u, "lastIndexOf", [7])).toBe(4)
    const f = make("Float64Array", arr(NaN, -0, 0, -1))
    invoke(realm, f, "sort", [])
    expect(list(f).map((x) => Object.is(x, -0) ? "-0" : x)).toEqual([-1, "-0", 0, NaN])
    expect(fails(() => invoke(realm, u, "with", [10, 1]))).toBe("RangeError: Invalid typed array index")
    expect(getter(u, WellKnownSymbols.toStringTag as never)).toBe("Int32Array")
  })
  it("statics", () => {
    const C = global(realm, "Int8Array")
    expect(list(invoke(realm, C, "of", [1, 2, 300]) as JSObject)).toEqual([1, 2, 44])
    expect(list(invoke(realm, C, "from", [toSandbox(realm, { length: 2, 0: 5, 1: 6 })]) as JSObject)).toEqual([5, 6])
  })
})

describe("ArrayBuffer", () => {
  it("slice, resize, transfer, detach", () => {
    const b = make("ArrayBuffer", 4, toSandbox(realm, { maxByteLength: 8 }))
    const u = make("Uint8Array", b)
    invoke(realm, u, "set", [arr(1, 2, 3, 4)])
    expect(getter(b, "resizable")).toBe(true)
    invoke(realm, b, "resize", [6])
    expect(getter(u, "length")).toBe(6)
    expect(list(u)).toEqual([1, 2, 3, 4, 0, 0])
    const s = invoke(realm, b, "slice", [1, -2]) as JSObject
    expect(getter(s, "byteLength")).toBe(3)
    const t = invoke(realm, b, "transfer", []) as JSObject
    expect(getter(b, "detached")).toBe(true)
    expect(getter(u, "length")).toBe(0)
    expect(getter(t, "maxByteLength")).toBe(8)
    expect(fails(() => invoke(realm, u, "map", [fn(realm, () => 0)]))).toBe("TypeError: Cannot perform %TypedArray%.prototype.map on a detached ArrayBuffer")
    expect(fails(() => make("ArrayBuffer", 2 ** 40))).toBe("RangeError: Array buffer allocation failed")
  })
})

describe("DataView", () => {
  it("get/set with endianness", () => {
    const b = make("ArrayBuffer", 16)
    const d = make("DataView", b, 2)
    invoke(realm, d, "setUint16", [0, 0x1234])
    expect(invoke(realm, d, "getUint8", [0])).toBe(0x12)
    invoke(realm, d, "setUint16", [0, 0x1234, true])
    expect(invoke(realm, d, "getUint8", [0])).toBe(0x34)
    invoke(realm, d, "setBigInt64", [4, -5n])
    expect(invoke(realm, d, "getBigInt64", [4])).toBe(-5n)
    expect(invoke(realm, d, "getBigUint64", [4])).toBe(2n ** 64n - 5n)
    invoke(realm, d, "setFloat16", [0, 1.5])
    expect(invoke(realm, d, "getFloat16", [0])).toBe(1.5)
    expect(fails(() => invoke(realm, d, "getInt32", [12]))).toBe("RangeError: Offset is outside the bounds of the DataView")
  })
})

describe("base64 and hex", () => {
  it("round trips", () => {
    const U8 = global(realm, "Uint8Array")
    const u = invoke(realm, U8, "fromBase64", ["SGVsbG8="]) as JSObject
    expect(list(u)).toEqual([72, 101, 108, 108, 111])
    expect(invoke(realm, u, "toBase64", [])).toBe("SGVsbG8=")
    expect(invoke(realm, u, "toBase64", [toSandbox(realm, { omitPadding: true })])).toBe("SGVsbG8")
    expect(invoke(realm, u, "toHex", [])).toBe("48656c6c6f")
    expect(list(invoke(realm, U8, "fromHex", ["ff00"]) as JSObject)).toEqual([255, 0])
    expect(fails(() => invoke(realm, U8, "fromHex", ["f"]))).toMatch(/^SyntaxError/)
    const target = make("Uint8Array", 4)
    expect(toHost(invoke(realm, target, "setFromBase64", ["SGVsbG8="]))).toEqual({ read: 4, written: 3 })
    expect(list(target)).toEqual([72, 101, 108, 0])
    expect(list(invoke(realm, U8, "fromBase64", ["_-8", toSandbox(realm, { alphabet: "base64url" })]) as JSObject)).toEqual([255, 239])
  })
})

describe("base64 decoding details (spec examples)", () => {
  const U8 = () => global(realm, "Uint8Array")
  const from = (str: string, options: Record<string, unknown> = {}): unknown => {
    const r = attempt(realm, () => invoke(realm, U8(), "fromBase64", [str, toSandbox(realm, options)]))
    return r.ok ? list(r.value as JSObject) : errorText(r.error).split(":")[0]
  }
  it("last chunk handling", () => {
    expect(from("ZXhhZg")).toEqual([101, 120, 97, 102])
    expect(from("ZXhhZg", { lastChunkHandling: "strict" })).toBe("SyntaxError")
    expect(from("ZXhhZg", { lastChunkHandling: "stop-before-partial" })).toEqual([101, 120, 97])
    expect(from("ZXhhZh==")).toEqual([101, 120, 97, 102])
    expect(from("ZXhhZh==", { lastChunkHandling: "strict" })).toBe("SyntaxError")
    expect(from("ZXhhZg==", { lastChunkHandling: "strict" })).toEqual([101, 120, 97, 102])
    expect(from("ZXhhZ=")).toBe("SyntaxError")
    expect(from("ZXhhZg=")).toBe("SyntaxError")
    expect(from("ZXhhZg=", { lastChunkHandling: "stop-before-partial" })).toEqual([101, 120, 97])
    expect(from(" Z g = = ")).toEqual([102])
    expect(from("Zg==x")).toBe("SyntaxError")
    expect(from("Z")).toBe("SyntaxError")
    expect(from("Zm9v\u000B")).toBe("SyntaxError")
    expect(from("-_8", { alphabet: "base64url" })).toEqual([251, 255])
    expect(from("+/8", { alphabet: "base64url" })).toBe("SyntaxError")
    expect(from("x", { alphabet: "other" })).toBe("TypeError")
  })
  it("setFromBase64 stops at the target's end and reports read/written", () => {
    const target = make("Uint8Array", 4)
    expect(toHost(invoke(realm, target, "setFromBase64", ["Zm9vYmFy"]))).toEqual({ read: 4, written: 3 })
    const exact = make("Uint8Array", 6)
    expect(toHost(invoke(realm, exact, "setFromBase64", ["Zm9vYmFy"]))).toEqual({ read: 8, written: 6 })
    const partial = make("Uint8Array", 5)
    expect(toHost(invoke(realm, partial, "setFromBase64", ["Zm9vYmE="]))).toEqual({ read: 8, written: 5 })
    const bad = make("Uint8Array", 8)
    expect(fails(() => invoke(realm, bad, "setFromBase64", ["Zm9v*"]))).toMatch(/^SyntaxError/)
    expect(list(bad).slice(0, 4)).toEqual([102, 111, 111, 0])
    const hex = make("Uint8Array", 2)
    expect(toHost(invoke(realm, hex, "setFromHex", ["a1b2c3"]))).toEqual({ read: 4, written: 2 })
    const toHex = get(realm.intrinsic("%Uint8Array.prototype%"), "toHex") as JSObject
    expect(fails(() => callFunction(realm, toHex, make("Int8Array", 2), []))).toMatch(/^TypeError/)
  })
})

