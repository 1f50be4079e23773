/** Iterator natives driven through the test engine: helpers, closing, generator-like state, Iterator.from. */
import { describe, expect, it } from "vitest"
import { JSObject } from "../../src/runtime/object.ts"
import { Property } from "../../src/runtime/property.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { WellKnownSymbols } from "../../src/runtime/value.ts"
import { CreateIterResultObject } from "../../src/runtime/iteration.ts"
import { attempt, constructFunction, createRealm, errorText, fn, get, global, invoke, toHost, toSandbox } from "./support.ts"

/** An Iterator-inheriting object counting 0, 1, 2... (endless unless `limit`), recording return() calls. */
const counter = (realm: Realm, log: string[], limit = Infinity): JSObject => {
  const o = new JSObject(realm.intrinsic("%Iterator.prototype%"))
  let i = 0
  o.properties.set("next", Property.data(fn(realm, () => {
    log.push(`next${i}`)
    return i < limit ? CreateIterResultObject(realm, i++, false) : CreateIterResultObject(realm, undefined, true)
  })))
  o.properties.set("return", Property.data(fn(realm, () => {
    log.push("return")
    return CreateIterResultObject(realm, undefined, true)
  })))
  return o
}

describe("Iterator", () => {
  const realm = createRealm()
  const double = fn(realm, ([x]) => (x as number) * 2)

  it("is registered first under both names", () => {
    expect(realm.intrinsic("%IteratorPrototype%")).toBe(realm.intrinsic("%Iterator.prototype%"))
    expect(realm.intrinsic("%ArrayIteratorPrototype%").proto).toBe(realm.intrinsic("%Iterator.prototype%"))
  })

  it("lazy helpers pull on demand", () => {
    const log: string[] = []
    const h = invoke(realm, counter(realm, log), "map", [double])
    expect(log).toEqual([])
    const r = invoke(realm, h, "next") as JSObject
    expect(get(r, "value")).toBe(0)
    expect(log).toEqual(["next0"])
  })

  it("take closes the underlying iterator, drop skips", () => {
    const log: string[] = []
    const t = invoke(realm, invoke(realm, counter(realm, log), "drop", [2]), "take", [2])
    expect(toHost(invoke(realm, t, "toArray"))).toEqual([2, 3])
    expect(log.at(-1)).toBe("return")
  })

  it("return() on a fresh helper closes; a finished helper stays done", () => {
    const log: string[] = []
    const h = invoke(realm, counter(realm, log), "filter", [fn(realm, () => true)])
    invoke(realm, h, "return")
    expect(log).toEqual(["return"])
    expect(get(invoke(realm, h, "next") as JSObject, "done")).toBe(true)
  })

  it("argument validation closes the receiver", () => {
    const log: string[] = []
    const r = attempt(realm, () => invoke(realm, counter(realm, log), "map", [1]))
    expect(!r.ok && errorText(r.error)).toBe("TypeError: number 1 is not a function")
    expect(log).toEqual(["return"])
    const t = attempt(realm, () => invoke(realm, counter(realm, log), "take", [-1]))
    expect(!t.ok && errorText(t.error)).toBe("RangeError: -1 must be positive")
  })

  it("flatMap flattens iterables and rejects strings", () => {
    const pair = fn(realm, ([x]) => toSandbox(realm, [x, x]))
    const h = invoke(realm, invoke(realm, toSandbox(realm, [1, 2]), "values"), "flatMap", [pair])
    expect(toHost(invoke(realm, h, "toArray"))).toEqual([1, 1, 2, 2])
    const s = invoke(realm, invoke(realm, toSandbox(realm, [1]), "values"), "flatMap", [fn(realm, () => "ab")])
    const r = attempt(realm, () => invoke(realm, s, "toArray"))
    expect(r.ok).toBe(false)
  })

  it("eager helpers", () => {
    const it2 = () => invoke(realm, toSandbox(realm, [1, 2, 3]), "values")
    expect(invoke(realm, it2(), "reduce", [fn(realm, ([a, b]) => (a as number) + (b as number))])).toBe(6)
    expect(invoke(realm, it2(), "some", [fn(realm, ([x]) => x === 2)])).toBe(true)
    expect(invoke(realm, it2(), "every", [fn(realm, ([x]) => (x as number) < 3)])).toBe(false)
    expect(invoke(realm, it2(), "find", [fn(realm, ([x]) => (x as number) > 1)])).toBe(2)
    const r = attempt(realm, () => invoke(realm, invoke(realm, toSandbox(realm, []), "values"), "reduce", [double]))
    expect(!r.ok && errorText(r.error)).toBe("TypeError: Reduce of a done iterator with no initial value")
  })

  it("Iterator is abstract and Iterator.from wraps", () => {
    const I = global(realm, "Iterator")
    const r = attempt(realm, () => constructFunction(realm, I, []))
    expect(!r.ok && errorText(r.error)).toBe("TypeError: Abstract class Iterator not directly constructable")
    const plain = new JSObject(realm.ObjectPrototype)
    let n = 0
    plain.properties.set("next", Property.data(fn(realm, () => CreateIterResultObject(realm, n, n++ >= 2))))
    const w = invoke(realm, I, "from", [plain])
    expect(w).not.toBe(plain)
    expect(toHost(invoke(realm, w, "toArray"))).toEqual([0, 1])
    const arrIt = invoke(realm, toSandbox(realm, [1]), "values")
    expect(invoke(realm, I, "from", [arrIt])).toBe(arrIt)
  })

  it("string and array iterators", () => {
    const s = invoke(realm, "a😀", WellKnownSymbols.iterator)
    const lengths = invoke(realm, invoke(realm, s, "map", [fn(realm, ([c]) => (c as string).length)]), "toArray")
    expect(toHost(lengths)).toEqual([1, 2])
    const e = invoke(realm, toSandbox(realm, ["x"]), "entries")
    expect(toHost(get(invoke(realm, e, "next") as JSObject, "value"))).toEqual([0, "x"])
  })
})
