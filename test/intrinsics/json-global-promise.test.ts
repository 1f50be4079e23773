/** JSON, the global functions and Promise natives, compared with the host (V8) where the host can say. */
import { describe, expect, it } from "vitest"
import { SandboxError } from "../../src/runtime/completion.ts"
import { CreateDataProperty } from "../../src/runtime/operations.ts"
import { JSObject } from "../../src/runtime/object.ts"
import { PromiseObject } from "../../src/runtime/promise.ts"
import { type Value, WellKnownSymbols } from "../../src/runtime/value.ts"
import { attempt, callFunction, constructFunction, createRealm, errorText, fn, get, global, invoke, runJobs, toHost, toSandbox } from "./support.ts"

const hostError = (f: () => unknown): string => {
  try {
    f()
    return "no throw"
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`
  }
}

describe("JSON.parse", () => {
  const realm = createRealm()
  const J = global(realm, "JSON")
  const good = ['{"a":[1,2,{"b":null}],"c":"x\\u0041\\n"}', " [ ] ", "-0", "1e3", "-12.5E-2", '"\\ud800"', '{"__proto__":1,"a":1,"a":2}', "true", "[[[[]]]]"]
  it.each(good)("parses %s like V8", (text) => {
    expect(toHost(invoke(realm, J, "parse", [text]))).toEqual(JSON.parse(text))
  })
  const bad = ["", " ", "{a:1}", "[1,]", '{"a":1,}', "tru", '"abc', "1 2", '{"a" 1}', "01", '"\\x"', '"a\nb"', "{", "-", "1.", "[1", '{"a":', "1e", "-x", "trux", "nul", "]", "undefined", "NaN", "[1,,2]", "'x'", "-01", "[1]]", '["a" "b"]', "x".repeat(30), '["abcdefghijklmnopqrstuvwxyz", x, "abcdefghijklmnopqrstuvwxyz"]', '{"a":1}\n\n}', '"\\u12"', "[.5]", "+1", "[tru]", "1.e5", "\u00a0 1", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, x]"]
  it.each(bad)("rejects %j with V8's message", (text) => {
    const r = attempt(realm, () => invoke(realm, J, "parse", [text]))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(errorText(r.error)).toBe(hostError(() => JSON.parse(text)))
  })
  it("revives with context.source", () => {
    const reviver = fn(realm, (args) => {
      const [k, v, ctx] = args
      if (v instanceof JSObject) return v
      return `${String(k)}=${String(v)}@${String(get(ctx as JSObject, "source"))}`
    })
    const r = invoke(realm, J, "parse", ['{"a":[1.50,"x"],"b":true}', reviver])
    expect(toHost(r)).toEqual({ a: ["0=1.5@1.50", '1=x@"x"'], b: "b=true@true" })
  })
})

describe("JSON.stringify", () => {
  const realm = createRealm()
  const J = global(realm, "JSON")
  const values: unknown[] = [{ a: 1, b: [1, "x", null, true], c: { d: {} } }, [], {}, "he said \"hi\"\n\u2028\ud800", 1.5, -0, null, [undefined, 1], { u: undefined, n: NaN, i: -Infinity }]
  for (const space of [undefined, 2, "--", 20, "abcdefghijklmnop", 0]) {
    it.each(values)(`stringifies %j (space ${String(space)}) like V8`, (v) => {
      expect(invoke(realm, J, "stringify", [toSandbox(realm, v), undefined, space as Value])).toBe(JSON.stringify(v, null, space as never))
    })
  }
  it("replacer array and function, toJSON", () => {
    const v = { a: 1, b: 2, c: { a: 3, d: 4 } }
    expect(invoke(realm, J, "stringify", [toSandbox(realm, v), toSandbox(realm, ["a", "c", 1])])).toBe(JSON.stringify(v, ["a", "c", 1] as never))
    const rep = fn(realm, (args) => (typeof args[1] === "number" ? (args[1] as number) * 10 : args[1]))
    expect(invoke(realm, J, "stringify", [toSandbox(realm, v), rep])).toBe('{"a":10,"b":20,"c":{"a":30,"d":40}}')
    const o = toSandbox(realm, { x: 1 }) as JSObject
    CreateDataProperty(o, "toJSON", fn(realm, (args) => `key:${String(args[0])}`))
    expect(invoke(realm, J, "stringify", [toSandbox(realm, [1]), undefined])).toBe("[1]")
    const holder = toSandbox(realm, { k: null }) as JSObject
    CreateDataProperty(holder, "k", o)
    expect(invoke(realm, J, "stringify", [holder])).toBe('{"k":"key:k"}')
  })
  it("BigInt and cycles throw V8's TypeErrors", () => {
    const r = attempt(realm, () => invoke(realm, J, "stringify", [toSandbox(realm, { a: 1n })]))
    expect(!r.ok && errorText(r.error)).toBe("TypeError: Do not know how to serialize a BigInt")
    const a = toSandbox(realm, { b: { c: { d: {} } } }) as JSObject
    const d = get(get(get(a, "b") as JSObject, "c") as JSObject, "d") as JSObject
    CreateDataProperty(d, "e", a)
    const r2 = attempt(realm, () => invoke(realm, J, "stringify", [a]))
    const host: { b: { c: { d: { e?: unknown } } } } = { b: { c: { d: {} } } }
    host.b.c.d.e = host
    expect(!r2.ok && errorText(r2.error)).toBe(hostError(() => JSON.stringify(host)))
  })
})

describe("globals", () => {
  const realm = createRealm()
  const g = (n: string) => global(realm, n)
  it("parse and URI functions", () => {
    expect(callFunction(realm, g("parseInt"), undefined, ["  0x1f", undefined])).toBe(31)
    expect(callFunction(realm, g("parseFloat"), undefined, ["3.5e2abc"])).toBe(350)
    expect(callFunction(realm, g("isNaN"), undefined, ["x"])).toBe(true)
    expect(callFunction(realm, g("isFinite"), undefined, ["12"])).toBe(true)
    expect(callFunction(realm, g("encodeURIComponent"), undefined, ["a b&ü"])).toBe("a%20b%26%C3%BC")
    const r = attempt(realm, () => callFunction(realm, g("decodeURIComponent"), undefined, ["%"]))
    expect(!r.ok && errorText(r.error)).toBe("URIError: URI malformed")
    expect(callFunction(realm, g("escape"), undefined, ["a b\u0100"])).toBe(escape("a b\u0100"))
    expect(callFunction(realm, g("unescape"), undefined, ["%41%u0042%zz"])).toBe(unescape("%41%u0042%zz"))
  })
  it("eval refuses strings", () => {
    expect(callFunction(realm, g("eval"), undefined, [5])).toBe(5)
    const r = attempt(realm, () => callFunction(realm, g("eval"), undefined, ["1+1"]))
    expect(!r.ok && errorText(r.error)).toBe("EvalError: Code generation from strings disallowed for this context")
  })
})

describe("Promise", () => {
  const realm = createRealm()
  const P = global(realm, "Promise")
  const state = (p: Value) => {
    const o = p as PromiseObject
    return [o.state, toHost(o.result)]
  }
  it("executor, then, catch, finally ordering", () => {
    const log: string[] = []
    const p = constructFunction(realm, P, [fn(realm, (args) => callFunction(realm, args[0] as JSObject, undefined, [1]))])
    const q = invoke(realm, p, "then", [fn(realm, (a) => (log.push(`then ${String(a[0])}`), (a[0] as number) + 1))])
    invoke(realm, invoke(realm, q, "finally", [fn(realm, () => (log.push("finally"), 99))]), "then", [fn(realm, (a) => (log.push(`after ${String(a[0])}`), undefined))])
    const r = invoke(realm, P, "reject", ["boom"])
    invoke(realm, r, "catch", [fn(realm, (a) => (log.push(`catch ${String(a[0])}`), undefined))])
    runJobs(realm)
    expect(log).toEqual(["then 1", "catch boom", "finally", "after 2"])
  })
  it("executor throw rejects", () => {
    const p = constructFunction(realm, P, [fn(realm, () => { throw new SandboxError("RangeError", "r") })])
    expect((p as PromiseObject).state).toBe("rejected")
  })
  it("all / allSettled / any / race", () => {
    if (get(realm.ArrayPrototype, WellKnownSymbols.iterator) === undefined) return // needs the Array family
    const arr = (xs: Value[]) => toSandbox(realm, xs)
    const r1 = invoke(realm, P, "resolve", [1])
    const r2 = invoke(realm, P, "reject", ["no"])
    const all = invoke(realm, P, "all", [arr([r1, 2])])
    const allBad = invoke(realm, P, "all", [arr([r1, r2])])
    const settled = invoke(realm, P, "allSettled", [arr([r1, r2])])
    const any = invoke(realm, P, "any", [arr([r2, r1])])
    const anyNone = invoke(realm, P, "any", [arr([r2])])
    const race = invoke(realm, P, "race", [arr([r2, r1])])
    runJobs(realm)
    expect(state(all)).toEqual(["fulfilled", [1, 2]])
    expect(state(allBad)).toEqual(["rejected", "no"])
    expect(state(settled)).toEqual(["fulfilled", [{ status: "fulfilled", value: 1 }, { status: "rejected", reason: "no" }]])
    expect(state(any)).toEqual(["fulfilled", 1])
    expect((anyNone as PromiseObject).state).toBe("rejected")
    expect(errorText((anyNone as PromiseObject).result)).toBe("AggregateError: All promises were rejected")
    expect(toHost(get((anyNone as PromiseObject).result as JSObject, "errors"))).toEqual(["no"])
    expect(state(race)).toEqual(["rejected", "no"])
  })
  it("without new / bad executor", () => {
    const r = attempt(realm, () => callFunction(realm, P, undefined, [fn(realm, () => undefined)]))
    expect(!r.ok && errorText(r.error)).toBe("TypeError: Promise constructor cannot be invoked without 'new'")
    const r2 = attempt(realm, () => constructFunction(realm, P, [5]))
    expect(!r2.ok && errorText(r2.error)).toBe("TypeError: Promise resolver 5 is not a function")
  })
})
