/**
 * The inspect formatter and console against Node itself: each case builds the same value on the host and in the
 * sandbox, and our `inspect` / `formatLog` must print exactly what `util.inspect` / `util.format` print.
 */
import { format, inspect as hostInspect } from "node:util"
import { describe, expect, it } from "vitest"
import { formatLog, inspect } from "../../src/intrinsics/inspect.ts"
import { ArrayObject } from "../../src/runtime/array-object.ts"
import { ToObject } from "../../src/runtime/conversions.ts"
import { ErrorObject } from "../../src/runtime/errors.ts"
import { ScriptFunction } from "../../src/runtime/function-object.ts"
import { JSObject } from "../../src/runtime/object.ts"
import { Property } from "../../src/runtime/property.ts"
import { FulfillPromise, NewPromiseObject, RejectPromise } from "../../src/runtime/promise.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { EMPTY, SymbolValue, type Value } from "../../src/runtime/value.ts"
import { callFunction, constructFunction, createRealm, drive, fn, get, global, invoke } from "./support.ts"

const realm = createRealm()
const hasMap = realm.ownIntrinsics.has("%Map%")
const hasDate = realm.ownIntrinsics.has("%Date%")

const STACK = "\n    at <program>"
const symbols = new Map<symbol, SymbolValue>()

/** The sandbox twin of a host value. */
const toSandbox = (r: Realm, v: unknown, seen = new Map<object, JSObject>()): Value => {
  if (typeof v === "symbol") {
    let s = symbols.get(v)
    if (s === undefined) symbols.set(v, (s = new SymbolValue(v.description)))
    return s
  }
  if (typeof v === "function") {
    if (/^class\b/.test(Function.prototype.toString.call(v))) {
      const f = new ScriptFunction(r.FunctionPrototype, null, null, "normal", "strict", true, true)
      f.isClassConstructor = true
      f.properties.set("name", Property.data(v.name, false, false, true))
      return f
    }
    const f = fn(r, () => undefined, v.name)
    for (const k of Object.keys(v)) f.properties.set(k, Property.data(toSandbox(r, (v as never)[k], seen)))
    return f
  }
  if (typeof v !== "object" || v === null) return v as Value
  const known = seen.get(v)
  if (known) return known
  if (v instanceof Map) {
    const m = constructFunction(r, global(r, "Map"), [])
    seen.set(v, m)
    for (const [k, x] of v) invoke(r, m, "set", [toSandbox(r, k, seen), toSandbox(r, x, seen)])
    return m
  }
  if (v instanceof Set) {
    const m = constructFunction(r, global(r, "Set"), [])
    seen.set(v, m)
    for (const x of v) invoke(r, m, "add", [toSandbox(r, x, seen)])
    return m
  }
  if (v instanceof Date) return constructFunction(r, global(r, "Date"), [v.getTime()])
  if (v instanceof Error) {
    const e = constructFunction(r, global(r, v.name === "Error" || !(v.name in globalThis) ? "Error" : v.name), [v.message]) as ErrorObject
    if ("cause" in v) e.properties.set("cause", Property.data(toSandbox(r, v.cause, seen), true, false, true))
    for (const k of Object.keys(v)) e.properties.set(k, Property.data(toSandbox(r, (v as never)[k], seen)))
    return e
  }
  if (v instanceof Number || v instanceof String || v instanceof Boolean) return ToObject(r, v.valueOf())
  const proto = Object.getPrototypeOf(v)
  let o: JSObject
  if (Array.isArray(v)) {
    const a = new ArrayObject(r.ArrayPrototype, [])
    seen.set(v, a)
    for (let i = 0; i < v.length; i++) a.elements!.push(i in v ? toSandbox(r, v[i], seen) : EMPTY)
    a.length = v.length
    o = a
    for (const k of Object.keys(v)) if (!/^\d+$/.test(k)) a.properties.set(k, Property.data(toSandbox(r, (v as never)[k], seen)))
    return a
  }
  o = new JSObject(proto === null ? null : r.ObjectPrototype)
  seen.set(v, o)
  if (proto !== null && proto !== Object.prototype && proto.constructor?.name) {
    // An instance of a class `K`: give it a prototype whose constructor is a class named K.
    const p = new JSObject(r.ObjectPrototype)
    const C = toSandbox(r, proto.constructor) as JSObject
    C.properties.set("prototype", Property.data(p, false, false, false))
    p.properties.set("constructor", Property.data(C, true, false, true))
    o.proto = p
  }
  for (const k of Reflect.ownKeys(v)) {
    const d = Object.getOwnPropertyDescriptor(v, k)!
    const key = typeof k === "symbol" ? (toSandbox(r, k) as SymbolValue) : k
    if ("value" in d) o.properties.set(key, Property.data(toSandbox(r, d.value, seen), d.writable, d.enumerable, d.configurable))
    else o.properties.set(key, Property.accessorOf(d.get && fn(r, () => undefined), d.set && fn(r, () => undefined), d.enumerable!, d.configurable!))
  }
  return o
}

const withStack = <E extends Error>(e: E): E => {
  e.stack = `${e.name}${e.message ? `: ${e.message}` : ""}${STACK}`
  return e
}

const circular: Record<string, unknown> = { name: "root", list: [1, 2] }
circular.self = circular
;(circular.list as unknown[]).push(circular)

class Point {
  x = 1
  y = 2
}
class Empty {}

const cases: Array<[string, () => unknown]> = [
  ["number", () => 42],
  ["negative zero", () => -0],
  ["NaN", () => NaN],
  ["bigint", () => 123n],
  ["string nested", () => ["it's", 'say "hi"', "both ' and \"", "tab\there", "nl\nx"]],
  ["symbol", () => Symbol("x")],
  ["undefined and null", () => [undefined, null]],
  ["plain object", () => ({ a: 1, b: "x", c: true })],
  ["nested depth 2", () => ({ a: { b: { c: { d: 1 } } } })],
  ["nested arrays depth", () => [[[[1]]]]],
  ["array of numbers", () => [1, 2, 3]],
  ["empty things", () => [{}, [], ""]],
  ["holes", () => [1, , , 4, , ]], // eslint-disable-line no-sparse-arrays
  ["array extra props", () => Object.assign([1, 2], { extra: true })],
  ["long array grouped", () => Array.from({ length: 30 }, (_, i) => i * 7)],
  ["array over 100", () => Array.from({ length: 120 }, (_, i) => i)],
  ["string array grouped", () => Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + i).repeat(i % 5 + 1))],
  ["mixed grouped", () => [1, "two", 3, "four", 5, "six", 7, "eight"]],
  ["line breaking object", () => ({ alpha: "aaaaaaaaaaaa", beta: "bbbbbbbbbbbbbb", gamma: "cccccccccccccc", delta: "dddddddd" })],
  ["line breaking nested", () => ({ user: { id: 1, name: "Ada Lovelace", email: "ada@example.com", roles: ["admin", "user"] }, ok: true })],
  ["long string in object", () => ({ text: "x".repeat(100) })],
  ["multiline string in object", () => ({ text: "line one is long enough\nline two is long enough too\nthree" })],
  ["keys needing quotes", () => ({ "a-b": 1, "with space": 2, "1x": 3, __proto_: 4, valid_id: 5 })],
  ["symbol keys", () => ({ [Symbol("s")]: 1, plain: 2 })],
  ["getters and setters", () => Object.defineProperties({}, { g: { get: () => 1, enumerable: true }, s: { set: () => {}, enumerable: true }, gs: { get: () => 1, set: () => {}, enumerable: true } })],
  ["non-enumerable hidden", () => Object.defineProperty({ a: 1 }, "hidden", { value: 2, enumerable: false })],
  ["null prototype", () => Object.assign(Object.create(null), { a: 1 })],
  ["empty null prototype", () => Object.create(null)],
  ["functions", () => [function foo() {}, () => {}, { method() {} }.method]],
  ["function with props", () => Object.assign(function tagged() {}, { version: 2 })],
  ["class", () => Point],
  ["class instance", () => new Point()],
  ["empty class instance", () => new Empty()],
  ["circular", () => circular],
  ["boxed", () => [new Number(3), new String("ab"), new Boolean(false)]],
  ["error", () => withStack(new Error("boom"))],
  ["type error", () => withStack(new TypeError("bad type"))],
  ["error in object", () => ({ err: withStack(new RangeError("r")) })],
  ["error with cause", () => withStack(new Error("outer", { cause: "inner" }))],
  ["error with props", () => Object.assign(withStack(new Error("e")), { code: "E_CODE" })],
  ["error without message", () => withStack(new Error())],
  ["deep object collapse", () => ({ l1: { l2: { l3: { l4: "deep" } }, arr: [[1, [2, [3]]]] } })],
  ["map", () => new Map<unknown, unknown>([["a", 1], [{ k: 1 }, [1, 2]]])],
  ["set", () => new Set([1, "two", { three: 3 }])],
  ["empty map and set", () => [new Map(), new Set()]],
  ["nested map in object", () => ({ m: new Map([["x", new Map([["y", 1]])]]) })],
  ["date", () => new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6))],
  ["invalid date", () => new Date(NaN)],
  ["many keys", () => Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`key${i}`, i]))],
  ["array of objects", () => [{ id: 1, name: "a" }, { id: 2, name: "b" }, { id: 3, name: "c" }]],
  ["unicode strings", () => ["héllo", "日本語", "\ud800", "emoji 😀"]],
]

describe("inspect matches util.inspect", () => {
  for (const [name, make] of cases) {
    const needsMap = /map|set/.test(name)
    const needsDate = /date/.test(name)
    it.skipIf((needsMap && !hasMap) || (needsDate && !hasDate))(name, () => {
      const host = make()
      expect(inspect(realm, toSandbox(realm, host))).toBe(hostInspect(host))
    })
  }
  it("promises", () => {
    const p = NewPromiseObject(realm)
    expect(inspect(realm, p)).toBe(hostInspect(new Promise(() => {})))
    FulfillPromise(realm, p, 1)
    expect(inspect(realm, p)).toBe(hostInspect(Promise.resolve(1)))
    const q = NewPromiseObject(realm)
    q.isHandled = true
    RejectPromise(realm, q, toSandbox(realm, { code: 7 }))
    const hostRejected = Promise.reject({ code: 7 })
    hostRejected.catch(() => {})
    expect(inspect(realm, q)).toBe(hostInspect(hostRejected))
  })
  it("showHidden and depth options", () => {
    const v = { a: [1, 2], b: { c: { d: { e: 1 } } } }
    expect(inspect(realm, toSandbox(realm, v), { showHidden: true, depth: 4 })).toBe(hostInspect(v, { showHidden: true, depth: 4 }))
    expect(inspect(realm, toSandbox(realm, v), { depth: 0 })).toBe(hostInspect(v, { depth: 0 }))
  })
})

describe("formatLog matches util.format", () => {
  const formats: unknown[][] = [
    ["hello", "world", 1, true],
    ["%s is %d years", "Ada", 36],
    ["%i and %f", "42.9px", "3.5e1"],
    ["%j", { a: [1, "x"] }],
    ["%o", { a: 1 }],
    ["%O", { a: { b: { c: { d: 1 } } } }],
    ["100%% sure %s", "yes"],
    ["%c styled", "color: red"],
    ["%s", { a: 1 }],
    ["%s", [1, [2, [3]]]],
    ["%s %s", null, undefined],
    ["%d", -0],
    ["%s", 5n],
    ["missing %s %s", "one"],
    ["unknown %x", 1],
    [{ a: 1 }, "text", [1]],
    ["trailing %"],
    ["%s", Symbol("sym")],
  ]
  for (const args of formats) {
    it(JSON.stringify(args, (_k, v) => (typeof v === "bigint" || typeof v === "symbol" ? String(v) : v)), () => {
      const sandboxArgs = args.map((a) => toSandbox(realm, a))
      expect(drive(realm, formatLog(realm, sandboxArgs))).toBe(format(...args))
    })
  }
})

describe("console", () => {
  it("appends one entry per call, with groups, counts and assert", () => {
    const r = createRealm()
    const con = global(r, "console")
    const call = (m: string, ...args: unknown[]) => callFunction(r, get(con, m) as JSObject, con, args.map((a) => toSandbox(r, a)))
    call("log", "a", { b: 1 })
    call("group", "G")
    call("warn", "inside\nlines")
    call("groupEnd")
    call("count")
    call("count")
    call("count", "x")
    call("assert", true, "never")
    call("assert", false, "failed %s", "here")
    call("assert", false)
    call("error", new Error("e").message)
    call("dir", { a: { b: { c: { d: 1 } } } }, { depth: 0 })
    expect(r.logs).toEqual(["a { b: 1 }", "G", "  inside\n  lines", "default: 1", "default: 2", "x: 1", "Assertion failed: failed here", "Assertion failed", "e", "{ a: [Object] }"])
  })
  it("table draws like Node", () => {
    const r = createRealm()
    const con = global(r, "console")
    const captured: string[] = []
    const nodeTable = (data: unknown, props?: string[]) => {
      const { Console } = require("node:console") as typeof import("node:console")
      const { Writable } = require("node:stream") as typeof import("node:stream")
      let out = ""
      const stream = new Writable({ write(chunk, _enc, cb) { out += String(chunk); cb() } })
      new Console({ stdout: stream, stderr: stream }).table(data, props)
      return out.replace(/\n$/, "")
    }
    const tables: Array<[unknown, string[]?]> = [
      [[{ a: 1, b: "x" }, { a: 2, c: true }]],
      [{ r1: { v: 1 }, r2: { v: 22 } }],
      [[1, "two", { three: 3 }]],
      [[{ a: 1, b: 2 }, { a: 3, b: 4 }], ["a"]],
      [[["x", "y"], ["z"]]],
      [5],
    ]
    for (const [data, props] of tables) {
      r.logs.length = 0
      callFunction(r, get(con, "table") as JSObject, con, props ? [toSandbox(r, data), toSandbox(r, props)] : [toSandbox(r, data)])
      captured.push(r.logs[0]!)
      expect(r.logs[0]).toBe(nodeTable(data, props))
    }
  })
})
