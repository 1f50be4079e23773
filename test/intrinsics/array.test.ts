/**
 * Array natives driven through the test engine. The callback-free methods are also fuzzed against the host's own
 * Array.prototype (V8) on random arrays with holes, both on dense ArrayObjects (the fast paths) and on array-like
 * ordinary objects (the generic algorithm), comparing results and the receiver's final state hole for hole.
 */
import { describe, expect, it } from "vitest"
import { ArrayObject } from "../../src/runtime/array-object.ts"
import { JSObject } from "../../src/runtime/object.ts"
import { Property } from "../../src/runtime/property.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { EMPTY, type Value } from "../../src/runtime/value.ts"
import { throwTypeError } from "../../src/runtime/completion.ts"
import { attempt, callFunction, constructFunction, createRealm, errorText, fn, get, global, invoke, runJobs, toHost, toSandbox } from "./support.ts"

/** A host array (holes allowed) as a sandbox array or array-like, keeping holes. */
const sandboxArray = (realm: Realm, host: unknown[], arrayLike: boolean | "sparse"): JSObject => {
  if (arrayLike !== true) {
    const els: Array<Value | typeof EMPTY> = []
    for (let i = 0; i < host.length; i++) els.push(i in host ? (host[i] as Value) : EMPTY)
    const a = new ArrayObject(realm.ArrayPrototype, els)
    if (arrayLike === "sparse") a.makeSparse()
    return a
  }
  const o = new JSObject(realm.ObjectPrototype)
  for (let i = 0; i < host.length; i++) if (i in host) o.properties.set(String(i), Property.data(host[i] as Value))
  o.properties.set("length", Property.data(host.length))
  return o
}

/** The receiver's indexed state as "v" / "<hole>" strings, plus its length. */
const snapshot = (o: unknown): string => {
  if (o instanceof JSObject) {
    const len = o instanceof ArrayObject ? o.length : (get(o, "length") as number)
    const parts: string[] = []
    for (let i = 0; i < len; i++) {
      const p = o.GetOwnProperty(String(i))
      parts.push(p === undefined ? "<hole>" : p.value instanceof JSObject ? "obj" : (JSON.stringify(p.value) ?? "undefined"))
    }
    return `${len}:[${parts.join(",")}]`
  }
  if (Array.isArray(o) || (typeof o === "object" && o !== null && "length" in o)) {
    const h = o as ArrayLike<unknown>
    const parts: string[] = []
    for (let i = 0; i < h.length; i++) parts.push(!(i in h) ? "<hole>" : typeof h[i] === "object" && h[i] !== null ? "obj" : (JSON.stringify(h[i]) ?? "undefined"))
    return `${h.length}:[${parts.join(",")}]`
  }
  return JSON.stringify(o) ?? String(o)
}

/** A small deterministic PRNG. */
const rng = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}

const randomArray = (r: () => number): unknown[] => {
  const n = Math.floor(r() * 8)
  const a: unknown[] = new Array(n)
  for (let i = 0; i < n; i++) {
    const x = r()
    if (x < 0.2) continue // hole
    a[i] = x < 0.3 ? undefined : x < 0.4 ? "s" + Math.floor(r() * 5) : Math.floor(r() * 10)
  }
  return a
}

const randomArg = (r: () => number): unknown => {
  const x = r()
  if (x < 0.1) return undefined
  if (x < 0.15) return -Infinity
  if (x < 0.2) return Infinity
  if (x < 0.25) return NaN
  return Math.floor(r() * 14) - 7
}

const METHODS: Record<string, number> = {
  at: 1, concat: 2, copyWithin: 3, fill: 3, includes: 2, indexOf: 2, join: 1, lastIndexOf: 2, pop: 0, push: 2,
  reverse: 0, shift: 0, slice: 2, sort: 0, splice: 4, toReversed: 0, toSorted: 0, toSpliced: 4, unshift: 2,
  flat: 1, with: 2,
}

describe("Array.prototype fuzzed against the host", () => {
  const realm = createRealm()
  const ROUNDS = Number(process.env["ARRAY_FUZZ_ROUNDS"] ?? 3000)
  for (const arrayLike of [false, "sparse", true] as const) {
    it(arrayLike === true ? "array-likes (generic algorithm)" : arrayLike === "sparse" ? "sparse arrays" : "dense arrays (fast paths)", () => {
      const r = rng(arrayLike === true ? 7 : arrayLike === "sparse" ? 99 : 42)
      for (let round = 0; round < ROUNDS; round++) {
        const method = Object.keys(METHODS)[Math.floor(r() * Object.keys(METHODS).length)]!
        const host = randomArray(r)
        const argc = Math.floor(r() * (METHODS[method]! + 1))
        const args: unknown[] = []
        for (let i = 0; i < argc; i++) args.push(method === "join" ? ["-", undefined, ""][Math.floor(r() * 3)] : method === "concat" ? [[1, , 3], 5][Math.floor(r() * 2)] : randomArg(r))
        if (method === "with" && argc < 1) continue
        const hostReceiver: unknown = arrayLike === true ? Object.assign({ length: host.length }, Object.fromEntries(Object.entries(host))) : host.slice()
        let expected: string
        try {
          expected = "ok " + snapshot((Array.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!.apply(hostReceiver, args)) + " " + snapshot(hostReceiver)
        } catch (e) {
          expected = "throw " + (e as Error).name
        }
        const receiver = sandboxArray(realm, host, arrayLike)
        const sArgs = args.map((a) => (Array.isArray(a) ? sandboxArray(realm, a, false) : (a as Value)))
        const res = attempt(realm, () => callFunction(realm, get(realm.ArrayPrototype, method) as JSObject, receiver, sArgs))
        const actual = res.ok ? "ok " + snapshot(res.value === receiver ? receiver : res.value) + " " + snapshot(receiver) : "throw " + errorText(res.error).split(":")[0]
        if (actual !== expected) {
          throw new Error(`${String(arrayLike)} ${JSON.stringify(snapshot(host))}.${method}(${args.map((a) => snapshot(a)).join(", ")}): expected ${expected}, got ${actual}`)
        }
      }
    })
  }
})

describe("Array", () => {
  const realm = createRealm()
  const A = global(realm, "Array")
  const arr = (xs: unknown[]) => toSandbox(realm, xs)

  it("constructor", () => {
    expect((constructFunction(realm, A, [3]) as ArrayObject).length).toBe(3)
    expect(toHost(callFunction(realm, A, undefined, [1, 2]))).toEqual([1, 2])
    const r = attempt(realm, () => constructFunction(realm, A, [-1]))
    expect(!r.ok && errorText(r.error)).toBe("RangeError: Invalid array length")
  })

  it("sort is stable and calls the comparator through the engine", () => {
    const data = Array.from({ length: 200 }, (_, i) => ({ k: (i * 37) % 7, i }))
    const items = arr(data.map((d) => [d.k, d.i]))
    let calls = 0
    const cmp = fn(realm, ([a, b]) => {
      calls++
      return (get(a as JSObject, "0") as number) - (get(b as JSObject, "0") as number)
    })
    invoke(realm, items, "sort", [cmp])
    const sorted = toHost(items) as number[][]
    const expected = data.slice().sort((x, y) => x.k - y.k).map((d) => [d.k, d.i])
    expect(sorted).toEqual(expected)
    expect(calls).toBeGreaterThan(0)
  })

  it("sort puts undefined last and keeps the hole count", () => {
    const a = sandboxArray(realm, [3, undefined, , 1, undefined, , 2], false)
    invoke(realm, a, "sort")
    expect(snapshot(a)).toBe('7:[1,2,3,undefined,undefined,<hole>,<hole>]')
  })

  it("callbacks that throw propagate", () => {
    const r = attempt(realm, () => invoke(realm, arr([1, 2]), "map", [fn(realm, () => throwTypeError("from the callback"))]))
    expect(r.ok).toBe(false)
  })

  it("join detects cycles like V8", () => {
    const a = arr([1, 2]) as ArrayObject
    invoke(realm, a, "push", [a])
    expect(invoke(realm, a, "join", ["-"])).toBe("1-2-")
  })

  it("skips huge runs of holes", () => {
    const a = constructFunction(realm, A, [1e9]) as ArrayObject
    invoke(realm, a, "push", [5])
    let calls = 0
    invoke(realm, a, "forEach", [fn(realm, () => { calls++; return undefined })])
    expect(calls).toBe(1)
    expect(invoke(realm, a, "indexOf", [5])).toBe(1e9)
    expect(invoke(realm, a, "lastIndexOf", [5])).toBe(1e9)
    expect(invoke(realm, a, "join", [""])).toBe("5")
  })

  it("caps: fill past the storage cap is a RangeError", () => {
    const a = constructFunction(realm, A, [2 ** 31])
    const r = attempt(realm, () => invoke(realm, a, "fill", [0]))
    expect(!r.ok && errorText(r.error)).toBe("RangeError: Invalid array length")
    const j = attempt(realm, () => invoke(realm, constructFunction(realm, A, [2 ** 30]), "join", ["abc"]))
    expect(!j.ok && errorText(j.error)).toBe("RangeError: Invalid string length")
  })

  it("Array.from with iterables and array-likes", () => {
    expect(toHost(invoke(realm, A, "from", ["a😀"]))).toEqual(["a", "😀"])
    expect(toHost(invoke(realm, A, "from", [toSandbox(realm, { length: 2, 0: "x" })]))).toEqual(["x", undefined])
  })

  it("Array.fromAsync settles through jobs", () => {
    const p = invoke(realm, A, "fromAsync", [arr([1, 2, 3])]) as JSObject & { state?: string; result?: Value }
    runJobs(realm)
    expect(p.state).toBe("fulfilled")
    expect(toHost(p.result as Value)).toEqual([1, 2, 3])
    const q = invoke(realm, A, "fromAsync", [toSandbox(realm, { length: 2, 0: "a", 1: "b" }), fn(realm, ([v, i]) => `${String(v)}${String(i)}`)]) as JSObject & { state?: string; result?: Value }
    runJobs(realm)
    expect(toHost(q.result as Value)).toEqual(["a0", "b1"])
  })
})
