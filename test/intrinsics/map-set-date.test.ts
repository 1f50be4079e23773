/** Map/Set/WeakMap/WeakSet and Date natives driven through the test engine. */
import { describe, expect, it } from "vitest"
import { ParseDateString } from "../../src/intrinsics/date.ts"
import { JSObject } from "../../src/runtime/object.ts"
import { Property } from "../../src/runtime/property.ts"
import { SymbolValue, type Value } from "../../src/runtime/value.ts"
import { attempt, callFunction, constructFunction, errorText, fn, get, global, invoke, toHost, toSandbox } from "./support.ts"
import { createTestRealm } from "./stub-realm.ts"
import { drain, iterableOf } from "./iterables.ts"

const NOW = Date.UTC(2026, 11, 2, 13, 33, 29)
const realm = createTestRealm(NOW)
const throwsText = (body: () => unknown): string => {
  const r = attempt(realm, body)
  return r.ok ? "no throw" : errorText(r.error)
}
const call = (f: JSObject, t: Value) => callFunction(realm, f, t, [])
const pairs = (xs: Array<[Value, Value]>) => iterableOf(realm, xs.map(([k, v]) => toSandbox(realm, [k, v]) as Value))

describe("Map", () => {
  const MapC = global(realm, "Map")
  it("stores by SameValueZero in insertion order", () => {
    const m = constructFunction(realm, MapC, [pairs([["a", 1], ["b", 2], ["a", 3]])])
    invoke(realm, m, "set", [NaN, "nan"])
    invoke(realm, m, "set", [-0, "zero"])
    expect(invoke(realm, m, "get", [0])).toBe("zero")
    expect(invoke(realm, m, "get", [NaN])).toBe("nan")
    expect(drain(realm, invoke(realm, m, "keys"), call)).toEqual(["a", "b", NaN, 0])
    expect(Object.is(drain(realm, invoke(realm, m, "keys"), call)[3], 0)).toBe(true)
    expect(toHost(drain(realm, invoke(realm, m, "entries"), call)[0]!)).toEqual(["a", 3])
  })
  it("iterators survive deletions, additions, clear and compaction", () => {
    const m = constructFunction(realm, MapC, [])
    for (let i = 0; i < 100; i++) invoke(realm, m, "set", [i, i])
    const it = invoke(realm, m, "keys") as JSObject
    const next = () => (call(get(it, "next") as JSObject, it) as JSObject).lookup("value")!.value
    expect([next(), next(), next()]).toEqual([0, 1, 2])
    for (let i = 0; i < 90; i++) invoke(realm, m, "delete", [i]) // compacts
    invoke(realm, m, "set", [1000, 0])
    expect(drain(realm, it, call)).toEqual([90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 1000])
    invoke(realm, m, "set", [2000, 0])
    expect(drain(realm, it, call)).toEqual([]) // finished iterators stay finished
    const it2 = invoke(realm, m, "values") as JSObject
    invoke(realm, m, "clear")
    invoke(realm, m, "set", ["x", "after-clear"])
    expect(drain(realm, it2, call)).toEqual(["after-clear"])
  })
  it("forEach sees additions and skips deletions", () => {
    const m = constructFunction(realm, MapC, [pairs([[1, "a"], [2, "b"], [3, "c"]])])
    const seen: Value[] = []
    invoke(realm, m, "forEach", [
      fn(realm, (args) => {
        seen.push(args[1]!)
        if (args[1] === 1) {
          invoke(realm, m, "delete", [2])
          invoke(realm, m, "set", [4, "d"])
        }
        return undefined
      }),
    ])
    expect(seen).toEqual([1, 3, 4])
    expect(throwsText(() => invoke(realm, m, "forEach", [1]))).toMatch(/^TypeError/)
  })
  it("constructor calls set and closes the iterator on a bad entry", () => {
    let closed = 0
    expect(throwsText(() => constructFunction(realm, MapC, [iterableOf(realm, [toSandbox(realm, ["a", 1]), 7], () => closed++)]))).toBe(
      "TypeError: Iterator value 7 is not an entry object",
    )
    expect(closed).toBe(1)
    expect(throwsText(() => callFunction(realm, MapC, undefined, []))).toBe("TypeError: Constructor Map requires 'new'")
    expect(throwsText(() => callFunction(realm, get(realm.intrinsic("%Map.prototype%"), "get") as JSObject, toSandbox(realm, {}), []))).toBe(
      "TypeError: Method Map.prototype.get called on incompatible receiver #<Object>",
    )
  })
  it("groupBy", () => {
    const g = invoke(realm, MapC, "groupBy", [iterableOf(realm, [1, 2, 3, 4]), fn(realm, (a) => ((a[0] as number) % 2 ? "odd" : "even"))])
    expect(drain(realm, invoke(realm, g, "keys"), call)).toEqual(["odd", "even"])
    expect(toHost(invoke(realm, g, "get", ["odd"]))).toEqual([1, 3])
  })
})

describe("Set", () => {
  const SetC = global(realm, "Set")
  const setOf = (xs: Value[]) => constructFunction(realm, SetC, [iterableOf(realm, xs)])
  const items = (s: Value) => drain(realm, invoke(realm, s, "values"), call)
  it("basics and aliases", () => {
    const s = setOf([1, 2, 2, NaN, NaN, -0])
    expect(items(s)).toEqual([1, 2, NaN, 0])
    const proto = realm.intrinsic("%Set.prototype%")
    expect(get(proto, "keys")).toBe(get(proto, "values"))
  })
  it("set methods follow the spec's paths", () => {
    const s = setOf([1, 2, 3])
    const other = setOf([3, 4])
    expect(items(invoke(realm, s, "union", [other]))).toEqual([1, 2, 3, 4])
    expect(items(invoke(realm, s, "intersection", [other]))).toEqual([3])
    expect(items(invoke(realm, s, "difference", [other]))).toEqual([1, 2])
    expect(items(invoke(realm, s, "symmetricDifference", [other]))).toEqual([1, 2, 4])
    expect(invoke(realm, s, "isSubsetOf", [setOf([1, 2, 3, 4])])).toBe(true)
    expect(invoke(realm, s, "isSupersetOf", [setOf([1, 2])])).toBe(true)
    expect(invoke(realm, s, "isDisjointFrom", [setOf([7])])).toBe(true)
  })
  it("GetSetRecord validates size/has/keys", () => {
    const s = setOf([1])
    const bad = (props: Record<string, Value>) => {
      const o = new JSObject(realm.ObjectPrototype)
      for (const [k, v] of Object.entries(props)) o.properties.set(k, Property.data(v))
      return o
    }
    const f = fn(realm, () => undefined)
    expect(throwsText(() => invoke(realm, s, "union", [bad({ has: f, keys: f })]))).toBe("TypeError: The .size property is NaN")
    expect(throwsText(() => invoke(realm, s, "union", [bad({ size: -1, has: f, keys: f })]))).toBe("RangeError: '-1' is an invalid size")
    expect(throwsText(() => invoke(realm, s, "union", [bad({ size: 1, has: 1, keys: f })]))).toMatch(/^TypeError/)
    expect(throwsText(() => invoke(realm, s, "union", [bad({ size: 1, has: f, keys: f })]))).toBe("TypeError: Result of the keys method is not an object")
    expect(throwsText(() => invoke(realm, s, "union", [1]))).toMatch(/^TypeError/)
  })
})

describe("WeakMap and WeakSet", () => {
  it("accept objects and unregistered symbols only", () => {
    const wm = constructFunction(realm, global(realm, "WeakMap"), [])
    const k = toSandbox(realm, {})
    invoke(realm, wm, "set", [k, 1])
    expect(invoke(realm, wm, "get", [k])).toBe(1)
    const local = new SymbolValue("local")
    invoke(realm, wm, "set", [local, 2])
    expect(invoke(realm, wm, "has", [local])).toBe(true)
    expect(throwsText(() => invoke(realm, wm, "set", [1, 1]))).toBe("TypeError: Invalid value used as weak map key")
    const registered = invoke(realm, global(realm, "Symbol"), "for", ["r"])
    if (registered instanceof SymbolValue) expect(throwsText(() => invoke(realm, wm, "set", [registered, 1]))).toMatch(/^TypeError/)
    const ws = constructFunction(realm, global(realm, "WeakSet"), [])
    expect(throwsText(() => invoke(realm, ws, "add", ["x"]))).toBe("TypeError: Invalid value used in weak set")
  })
})

describe("Date", () => {
  const D = global(realm, "Date")
  const at = (t: number) => constructFunction(realm, D, [t])
  it("reads the realm's clock", () => {
    expect(invoke(realm, D, "now")).toBe(NOW)
    expect(invoke(realm, constructFunction(realm, D, []), "getTime")).toBe(NOW)
    expect(callFunction(realm, D, undefined, [])).toBe("Wed Dec 02 2026 13:33:29 GMT+0000 (Coordinated Universal Time)")
  })
  it("getters agree with the host's UTC getters", () => {
    let seed = 5
    for (let i = 0; i < 3000; i++) {
      seed = (seed * 48271) % 2147483647
      const t = Math.round((seed / 2147483647 - 0.5) * 2 * 8.64e15)
      const d = at(t)
      const h = new Date(t)
      expect(
        ["getUTCFullYear", "getUTCMonth", "getUTCDate", "getUTCDay", "getUTCHours", "getUTCMinutes", "getUTCSeconds", "getUTCMilliseconds", "toISOString", "toUTCString"].map((m) => invoke(realm, d, m)),
      ).toEqual([h.getUTCFullYear(), h.getUTCMonth(), h.getUTCDate(), h.getUTCDay(), h.getUTCHours(), h.getUTCMinutes(), h.getUTCSeconds(), h.getUTCMilliseconds(), h.toISOString(), h.toUTCString()])
    }
  })
  it("formats in UTC", () => {
    const d = at(NOW)
    expect(invoke(realm, d, "toString")).toBe("Wed Dec 02 2026 13:33:29 GMT+0000 (Coordinated Universal Time)")
    expect(invoke(realm, d, "toDateString")).toBe("Wed Dec 02 2026")
    expect(invoke(realm, d, "toTimeString")).toBe("13:33:29 GMT+0000 (Coordinated Universal Time)")
    expect(invoke(realm, d, "toLocaleString")).toBe("12/2/2026, 1:33:29 PM")
    expect(invoke(realm, d, "toLocaleDateString", ["en-US", toSandbox(realm, { year: "numeric", month: "long", day: "numeric" })])).toBe("December 2, 2026")
    expect(invoke(realm, d, "toLocaleTimeString")).toBe("1:33:29 PM")
    expect(invoke(realm, d, "getTimezoneOffset")).toBe(0)
    expect(throwsText(() => invoke(realm, at(NaN), "toISOString"))).toBe("RangeError: Invalid time value")
    expect(invoke(realm, at(NaN), "toString")).toBe("Invalid Date")
  })
  it("constructs from components, strings and dates", () => {
    expect(invoke(realm, constructFunction(realm, D, [2026, 11, 2, 13, 33, 29]), "getTime")).toBe(NOW)
    expect(invoke(realm, constructFunction(realm, D, [99, 0]), "getUTCFullYear")).toBe(1999)
    expect(invoke(realm, constructFunction(realm, D, ["2026-12-02T13:33:29Z"]), "getTime")).toBe(NOW)
    expect(invoke(realm, constructFunction(realm, D, [at(5)]), "getTime")).toBe(5)
    expect(invoke(realm, D, "UTC", [2026, 11, 2, 13, 33, 29])).toBe(NOW)
    expect(invoke(realm, D, "UTC", [])).toBeNaN()
  })
  it("setters follow MakeDay/MakeTime", () => {
    const d = at(Date.UTC(2026, 0, 31, 10))
    expect(invoke(realm, d, "setUTCMonth", [1])).toBe(Date.UTC(2026, 2, 3, 10))
    expect(invoke(realm, d, "setHours", [25, 61])).toBe(new Date(Date.UTC(2026, 2, 3, 10)).setUTCHours(25, 61))
    const inv = at(NaN)
    expect(invoke(realm, inv, "setUTCDate", [1])).toBeNaN()
    expect(invoke(realm, inv, "setFullYear", [2020])).toBe(Date.UTC(2020, 0, 1))
    expect(invoke(realm, at(0), "setTime", [8.64e15 + 1])).toBeNaN()
  })
  it("Date.parse agrees with V8 (the host) on sample strings", () => {
    if (new Date(2020, 0, 1).getTimezoneOffset() !== 0) return // the host must be in UTC for local-time forms
    for (const s of ["2026-12-02", "2026-12-02T13:33:29", "Tue Dec 02 2026 13:33:29 GMT+0000 (Coordinated Universal Time)", "Dec 2, 2026", "12/25", "1/2/26 3:04 PM", "x"]) {
      expect(Object.is(ParseDateString(s), Date.parse(s)), s).toBe(true)
    }
  })
  it("toPrimitive and toJSON", () => {
    const d = at(NOW)
    const tp = realm.intrinsic("%Date.prototype.[Symbol.toPrimitive]%")
    expect(callFunction(realm, tp, d, ["number"])).toBe(NOW)
    expect(callFunction(realm, tp, d, ["default"])).toBe("Wed Dec 02 2026 13:33:29 GMT+0000 (Coordinated Universal Time)")
    expect(throwsText(() => callFunction(realm, tp, d, ["x"]))).toBe("TypeError: Invalid hint: x")
    expect(invoke(realm, d, "toJSON")).toBe("2026-12-02T13:33:29.000Z")
    expect(invoke(realm, at(NaN), "toJSON")).toBe(null)
  })
})
