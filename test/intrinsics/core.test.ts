/** Object, Function, Error, Symbol and Boolean natives driven through the test engine. */
import { describe, expect, it } from "vitest"
import { JSObject } from "../../src/runtime/object.ts"
import { CreateDataProperty } from "../../src/runtime/operations.ts"
import { SymbolValue, WellKnownSymbols } from "../../src/runtime/value.ts"
import { attempt, callFunction, constructFunction, createRealm, errorText, fn, get, global, invoke, toHost, toSandbox } from "./support.ts"

describe("Object", () => {
  const realm = createRealm()
  const O = global(realm, "Object")
  it("keys/values/entries/assign", () => {
    const o = toSandbox(realm, { a: 1, b: "x" })
    expect(toHost(invoke(realm, O, "keys", [o]))).toEqual(["a", "b"])
    expect(toHost(invoke(realm, O, "values", [o]))).toEqual([1, "x"])
    expect(toHost(invoke(realm, O, "entries", [o]))).toEqual([["a", 1], ["b", "x"]])
    const t = invoke(realm, O, "assign", [toSandbox(realm, {}), o, null, toSandbox(realm, { c: 3 })])
    expect(toHost(t)).toEqual({ a: 1, b: "x", c: 3 })
  })
  it("toString tags", () => {
    const ts = get(realm.ObjectPrototype, "toString") as JSObject
    expect(callFunction(realm, ts, undefined, [])).toBe("[object Undefined]")
    expect(callFunction(realm, ts, toSandbox(realm, [1]), [])).toBe("[object Array]")
    expect(callFunction(realm, ts, O, [])).toBe("[object Function]")
    expect(callFunction(realm, ts, true, [])).toBe("[object Boolean]")
    expect(callFunction(realm, ts, new SymbolValue("x"), [])).toBe("[object Symbol]")
    const e = constructFunction(realm, global(realm, "TypeError"), ["m"])
    expect(callFunction(realm, ts, e, [])).toBe("[object Error]")
  })
  it("freeze/defineProperty errors", () => {
    const o = invoke(realm, O, "freeze", [toSandbox(realm, { a: 1 })])
    const r = attempt(realm, () => invoke(realm, O, "defineProperty", [o, "a", toSandbox(realm, { value: 2 })]))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(errorText(r.error)).toBe("TypeError: Cannot redefine property: a")
    expect(invoke(realm, O, "isFrozen", [o])).toBe(true)
  })
  it("groupBy and fromEntries use the iterator protocol (needs Array iterator)", () => {
    if (get(realm.ArrayPrototype, WellKnownSymbols.iterator) === undefined) return
    const g = invoke(realm, O, "groupBy", [toSandbox(realm, [1, 2, 3]), fn(realm, (a) => ((a[0] as number) % 2 ? "odd" : "even"))])
    expect(toHost(g)).toEqual({ odd: [1, 3], even: [2] })
  })
})

describe("Function", () => {
  const realm = createRealm()
  it("refuses to compile strings", () => {
    const r = attempt(realm, () => callFunction(realm, global(realm, "Function"), undefined, ["return 1"]))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(errorText(r.error)).toBe("EvalError: Code generation from strings disallowed for this context")
  })
  it("bind/call/apply/toString", () => {
    const add = fn(realm, (a, t) => `${String(t)}:${a.join(",")}`, "add", 3)
    const bound = invoke(realm, add, "bind", ["T", 1]) as JSObject
    expect(get(bound, "name")).toBe("bound add")
    expect(get(bound, "length")).toBe(2)
    expect(callFunction(realm, bound, "ignored", [2])).toBe("T:1,2")
    expect(invoke(realm, add, "call", ["X", 1, 2])).toBe("X:1,2")
    expect(invoke(realm, add, "apply", ["X", toSandbox(realm, [3, 4])])).toBe("X:3,4")
    expect(invoke(realm, add, "toString")).toBe("function add() { [native code] }")
    expect(invoke(realm, bound, "toString")).toBe("function () { [native code] }")
  })
})

describe("Error", () => {
  const realm = createRealm()
  it("constructs with message, cause and a lazy stack", () => {
    const e = constructFunction(realm, global(realm, "RangeError"), ["bad", toSandbox(realm, { cause: 7 })])
    expect(e.OwnPropertyKeys()).toEqual(["stack", "message", "cause"])
    expect(get(e, "cause")).toBe(7)
    const stackGetter = e.GetOwnProperty("stack")!.get!
    expect(callFunction(realm, stackGetter, e, [])).toBe("RangeError: bad\n    at <program>")
    expect(invoke(realm, e, "toString")).toBe("RangeError: bad")
    const plain = callFunction(realm, global(realm, "Error"), undefined, [])
    expect(invoke(realm, plain, "toString")).toBe("Error")
  })
  it("AggregateError collects errors", () => {
    if (get(realm.ArrayPrototype, WellKnownSymbols.iterator) === undefined) return
    const e = constructFunction(realm, global(realm, "AggregateError"), [toSandbox(realm, [1, 2]), "m"])
    expect(toHost(get(e, "errors"))).toEqual([1, 2])
  })
})

describe("Symbol and Boolean", () => {
  const realm = createRealm()
  const S = global(realm, "Symbol")
  it("for/keyFor/description/new", () => {
    const a = invoke(realm, S, "for", ["k"])
    expect(invoke(realm, S, "for", ["k"])).toBe(a)
    expect(invoke(realm, S, "keyFor", [a])).toBe("k")
    expect(invoke(realm, S, "keyFor", [new SymbolValue("k")])).toBe(undefined)
    expect(get(S, "iterator")).toBe(WellKnownSymbols.iterator)
    const r = attempt(realm, () => constructFunction(realm, S, []))
    expect(r.ok).toBe(false)
    expect(invoke(realm, callFunction(realm, S, undefined, ["d"]), "toString")).toBe("Symbol(d)")
  })
  it("Boolean", () => {
    const B = global(realm, "Boolean")
    expect(callFunction(realm, B, undefined, [""])).toBe(false)
    const b = constructFunction(realm, B, [1])
    expect(invoke(realm, b, "valueOf")).toBe(true)
    expect(invoke(realm, false, "toString")).toBe("false")
  })
})

describe("Object details", () => {
  const realm = createRealm()
  const O = global(realm, "Object")
  const fail = (f: () => unknown) => {
    const r = attempt(realm, f)
    return r.ok ? "no throw" : errorText(r.error)
  }
  it("V8's messages for bad prototypes and cycles", () => {
    expect(fail(() => invoke(realm, O, "create", [5]))).toBe("TypeError: Object prototype may only be an Object or null: 5")
    const a = toSandbox(realm, {})
    const b = invoke(realm, O, "create", [a])
    expect(fail(() => invoke(realm, O, "setPrototypeOf", [a, b]))).toBe("TypeError: Cyclic __proto__ value")
    const ne = invoke(realm, O, "preventExtensions", [toSandbox(realm, {})])
    expect(fail(() => invoke(realm, O, "setPrototypeOf", [ne, toSandbox(realm, {})]))).toBe("TypeError: #<Object> is not extensible")
    expect(fail(() => invoke(realm, O, "keys", [null]))).toBe("TypeError: Cannot convert undefined or null to object")
    expect(fail(() => invoke(realm, O, "defineProperty", [1, "x", toSandbox(realm, {})]))).toBe("TypeError: Object.defineProperty called on non-object")
  })
  it("defineProperty on array length converts the value", () => {
    const arr = toSandbox(realm, [1, 2, 3, 4])
    let calls = 0
    const lengthValue = toSandbox(realm, {}) as JSObject
    CreateDataProperty(lengthValue, "valueOf", fn(realm, () => (calls++, 2)))
    const desc = toSandbox(realm, {}) as JSObject
    CreateDataProperty(desc, "value", lengthValue)
    invoke(realm, O, "defineProperty", [arr, "length", desc])
    expect(toHost(arr)).toEqual([1, 2])
    expect(calls).toBe(2) // ToUint32 and ToNumber, as ArraySetLength does
    expect(fail(() => invoke(realm, O, "defineProperty", [arr, "length", toSandbox(realm, { value: -1 })]))).toBe("RangeError: Invalid array length")
  })
  it("__proto__ accessor and legacy getters", () => {
    const o = toSandbox(realm, {}) as JSObject
    const p = toSandbox(realm, { inherited: 1 }) as JSObject
    const protoDesc = realm.ObjectPrototype.GetOwnProperty("__proto__")!
    callFunction(realm, protoDesc.set!, o, [p])
    expect(o.GetPrototypeOf()).toBe(p)
    expect(callFunction(realm, protoDesc.get!, o, [])).toBe(p)
    callFunction(realm, protoDesc.set!, o, [5])
    expect(o.GetPrototypeOf()).toBe(p)
    invoke(realm, o, "__defineGetter__", ["g", fn(realm, () => 7)])
    expect(typeof invoke(realm, o, "__lookupGetter__", ["g"])).toBe("object")
    expect(invoke(realm, o, "__lookupSetter__", ["g"])).toBe(undefined)
  })
  it("getOwnPropertyDescriptor(s) and names/symbols", () => {
    const s = new SymbolValue("s")
    const o = toSandbox(realm, { b: 1, 2: 2, a: 3 }) as JSObject
    o.properties.set(s, o.properties.get("a")!)
    expect(toHost(invoke(realm, O, "getOwnPropertyNames", [o]))).toEqual(["2", "b", "a"])
    expect((invoke(realm, O, "getOwnPropertySymbols", [o]) as JSObject).OwnPropertyKeys()).toEqual(["0", "length"])
    expect(toHost(invoke(realm, O, "getOwnPropertyDescriptor", ["abc", 1]))).toEqual({ value: "b", writable: false, enumerable: true, configurable: false })
    expect(toHost(invoke(realm, O, "getOwnPropertyDescriptors", [toSandbox(realm, { x: 1 })]))).toEqual({ x: { value: 1, writable: true, enumerable: true, configurable: true } })
  })
  it("integrity levels", () => {
    const o = toSandbox(realm, { a: 1 })
    invoke(realm, O, "seal", [o])
    expect([invoke(realm, O, "isSealed", [o]), invoke(realm, O, "isFrozen", [o]), invoke(realm, O, "isExtensible", [o])]).toEqual([true, false, false])
    expect([invoke(realm, O, "isFrozen", [1]), invoke(realm, O, "isExtensible", [1]), invoke(realm, O, "freeze", ["s"])]).toEqual([true, false, "s"])
  })
  it("hasOwn / is / propertyIsEnumerable / isPrototypeOf", () => {
    const o = toSandbox(realm, { own: 1 }) as JSObject
    expect(invoke(realm, O, "hasOwn", [o, "own"])).toBe(true)
    expect(invoke(realm, O, "hasOwn", ["abc", "length"])).toBe(true)
    expect(invoke(realm, O, "is", [NaN, NaN])).toBe(true)
    expect(invoke(realm, O, "is", [0, -0])).toBe(false)
    expect(invoke(realm, o, "propertyIsEnumerable", ["own"])).toBe(true)
    expect(invoke(realm, o, "propertyIsEnumerable", ["toString"])).toBe(false)
    expect(invoke(realm, realm.ObjectPrototype, "isPrototypeOf", [o])).toBe(true)
  })
})

describe("Error details", () => {
  const realm = createRealm()
  it("stack follows name and message set after construction, and can be assigned", () => {
    const e = constructFunction(realm, global(realm, "Error"), ["m"])
    e.properties.set("name", (toSandbox(realm, { n: "Custom" }) as JSObject).properties.get("n")!)
    const stack = e.GetOwnProperty("stack")!
    expect(callFunction(realm, stack.get!, e, [])).toBe("Custom: m\n    at <program>")
    callFunction(realm, stack.set!, e, ["changed"])
    expect(callFunction(realm, stack.get!, e, [])).toBe("changed")
  })
  it("captureStackTrace on plain objects and isError", () => {
    const o = toSandbox(realm, { name: "N", message: "M" }) as JSObject
    invoke(realm, global(realm, "Error"), "captureStackTrace", [o])
    expect(get(o, "stack")).toBe("N: M\n    at <program>")
    expect(o.GetOwnProperty("stack")!.enumerable).toBe(false)
    expect(invoke(realm, global(realm, "Error"), "isError", [constructFunction(realm, global(realm, "TypeError"), [])])).toBe(true)
    expect(invoke(realm, global(realm, "Error"), "isError", [o])).toBe(false)
  })
  it("Error.prototype.toString on a non-object", () => {
    const r = attempt(realm, () => callFunction(realm, get(global(realm, "Error").properties.get("prototype")!.value as JSObject, "toString") as JSObject, 5, []))
    expect(!r.ok && errorText(r.error)).toBe("TypeError: Method Error.prototype.toString called on incompatible receiver 5")
  })
})
