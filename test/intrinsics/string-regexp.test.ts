/**
 * String and RegExp natives driven through the test engine, fuzzed against the host's (V8's) own methods on random
 * strings (with surrogates, `$` templates, empty matches) and random regular expressions.
 */
import { describe, expect, it } from "vitest"
import { ArrayObject } from "../../src/runtime/array-object.ts"
import { JSObject } from "../../src/runtime/object.ts"
import type { Value } from "../../src/runtime/value.ts"
import { attempt, callFunction, constructFunction, createRealm, errorText, fn, get, global, invoke, toHost } from "./support.ts"

const rng = (seed: number) => () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff
  return seed / 0x7fffffff
}

const ALPHABET = ["a", "b", "c", "A", "-", " ", "$", "😀", "\uD800", "1", "22", "é", "\n", "ab"]
const TEMPLATES = ["x", "$&", "$1", "$2", "$01", "$10", "$<g>", "$<h>", "$`", "$'", "$$", "$", "[$1|$<g>]", "$0"]
const PATTERNS: Array<[string, string]> = [
  ["a", ""], ["a", "g"], ["(a)|(b)", "g"], ["(?<g>a+)", "g"], ["(?:)", "g"], ["(?:)", "gu"], ["\\d+", "g"],
  ["b*", "g"], ["[^a]", "gi"], ["(?<g>.)(?<h>.)?", "gu"], ["^a", "gm"], ["a|$", "g"], ["-", ""], ["(-)", "y"],
  ["\\s", "g"], ["😀", "gu"], [".", "gs"], ["(a)(b)?", ""],
]

const randomString = (r: () => number): string => {
  let s = ""
  const n = Math.floor(r() * 8)
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)]
  return s
}

const randomArg = (r: () => number): unknown => {
  const x = r()
  if (x < 0.1) return undefined
  if (x < 0.13) return Infinity
  if (x < 0.16) return -Infinity
  if (x < 0.2) return NaN
  if (x < 0.5) return randomString(r)
  return Math.floor(r() * 12) - 5
}

const show = (v: unknown): string => {
  if (v instanceof ArrayObject) {
    const parts: string[] = []
    for (let i = 0; i < v.length; i++) parts.push(show(get(v, String(i))))
    const extra = ["index", "input"].map((k) => (v.GetOwnProperty(k) ? `${k}=${show(get(v, k))}` : "")).join(",")
    const groups = v.GetOwnProperty("groups") ? show(toHost(get(v, "groups"))) : ""
    return `[${parts.join(",")}]${extra}${groups}`
  }
  if (Array.isArray(v)) {
    const extra = ["index", "input"].map((k) => (k in v ? `${k}=${show((v as unknown as Record<string, unknown>)[k])}` : "")).join(",")
    const groups = "groups" in v ? show((v as unknown as { groups: unknown }).groups === undefined ? undefined : { ...(v as unknown as { groups: object }).groups }) : ""
    return `[${v.map(show).join(",")}]${extra}${groups}`
  }
  if (typeof v === "number" && Number.isNaN(v)) return "NaN"
  if (Object.is(v, -0)) return "-0"
  return JSON.stringify(v) ?? String(v)
}

const STRING_METHODS: Record<string, number> = {
  at: 1, charAt: 1, charCodeAt: 1, codePointAt: 1, concat: 2, endsWith: 2, includes: 2, indexOf: 2, lastIndexOf: 2,
  padEnd: 2, padStart: 2, slice: 2, split: 2, startsWith: 2, substring: 2, substr: 2, trim: 0, trimStart: 0,
  trimEnd: 0, toUpperCase: 0, toLowerCase: 0, isWellFormed: 0, toWellFormed: 0, replace: 2, replaceAll: 2,
  normalize: 1, localeCompare: 1,
}

describe("String.prototype fuzzed against the host", () => {
  const realm = createRealm()
  it("string arguments", () => {
    const r = rng(5)
    for (let round = 0; round < 20000; round++) {
      const methods = Object.keys(STRING_METHODS)
      const method = methods[Math.floor(r() * methods.length)]!
      const s = randomString(r)
      const argc = Math.floor(r() * (STRING_METHODS[method]! + 1))
      const args: unknown[] = []
      for (let i = 0; i < argc; i++) {
        if ((method === "replace" || method === "replaceAll") && i === 1) args.push(TEMPLATES[Math.floor(r() * TEMPLATES.length)])
        else if (method === "normalize") args.push(["NFC", "NFD", "NFKC", "NFKD", undefined, "x"][Math.floor(r() * 6)])
        else if (method === "padEnd" || method === "padStart") args.push(i === 0 ? Math.floor(r() * 12) : randomArg(r))
        else args.push(randomArg(r))
      }
      let expected: string
      try {
        expected = "ok " + show((String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[method]!.apply(s, args))
      } catch (e) {
        expected = "throw " + (e as Error).name
      }
      const res = attempt(realm, () => invoke(realm, s, method, args as Value[]))
      const actual = res.ok ? "ok " + show(res.value) : "throw " + errorText(res.error).split(":")[0]
      if (actual !== expected) throw new Error(`${JSON.stringify(s)}.${method}(${args.map(show).join(", ")}): expected ${expected}, got ${actual}`)
    }
  })

  it("regular expression arguments", () => {
    const r = rng(11)
    const RegExpCtor = global(realm, "RegExp")
    for (let round = 0; round < 20000; round++) {
      const [source, flags] = PATTERNS[Math.floor(r() * PATTERNS.length)]!
      const method = ["match", "matchAll", "replace", "replaceAll", "search", "split", "exec", "test"][Math.floor(r() * 8)]!
      const s = randomString(r)
      const template = TEMPLATES[Math.floor(r() * TEMPLATES.length)]!
      const lastIndex = Math.floor(r() * 4)
      const limit = r() < 0.7 ? undefined : Math.floor(r() * 4)
      const hostRe = new RegExp(source, flags)
      hostRe.lastIndex = lastIndex
      const sandRe = constructFunction(realm, RegExpCtor, [source, flags])
      ;(sandRe as JSObject).properties.get("lastIndex")!.value = lastIndex
      const run = (target: "host" | "sandbox"): string => {
        const re: unknown = target === "host" ? hostRe : sandRe
        const call = (m: string, args: unknown[]): unknown =>
          target === "host"
            ? (m === "exec" || m === "test" ? (hostRe as unknown as Record<string, (...a: unknown[]) => unknown>)[m]!.apply(hostRe, args) : (String.prototype as unknown as Record<string, (...a: unknown[]) => unknown>)[m]!.apply(s, args))
            : m === "exec" || m === "test"
              ? invoke(realm, sandRe, m, args as Value[])
              : invoke(realm, s, m, args as Value[])
        let out: unknown
        switch (method) {
          case "exec":
          case "test":
            out = call(method, [s])
            break
          case "replace":
          case "replaceAll":
            out = call(method, [re, template])
            break
          case "split":
            out = call(method, [re, limit])
            break
          case "matchAll": {
            const it = call(method, [re])
            if (target === "host") out = [...(it as Iterable<unknown>)]
            else {
              const items: unknown[] = []
              for (;;) {
                const step = invoke(realm, it as Value, "next") as JSObject
                if (get(step, "done") === true) break
                items.push(get(step, "value"))
              }
              out = items
            }
            break
          }
          default:
            out = call(method, [re])
        }
        const li = target === "host" ? hostRe.lastIndex : get(sandRe, "lastIndex")
        return `${show(out)} lastIndex=${String(li)}`
      }
      let expected: string
      try {
        expected = "ok " + run("host")
      } catch (e) {
        expected = "throw " + (e as Error).name
      }
      const res = attempt(realm, () => run("sandbox"))
      const actual = res.ok ? "ok " + res.value : "throw " + errorText(res.error).split(":")[0]
      if (process.env["FUZZ_DEBUG"] && round < 12) console.log(JSON.stringify(s), method, source, flags, template, "=>", actual)
      if (actual !== expected) {
        throw new Error(`${JSON.stringify(s)}.${method}(/${source}/${flags} lastIndex=${lastIndex}, ${JSON.stringify(template)}, limit=${String(limit)}): expected ${expected}, got ${actual}`)
      }
    }
  })
})

describe("String", () => {
  const realm = createRealm()
  const S = global(realm, "String")
  it("constructor and statics", () => {
    expect(callFunction(realm, S, undefined, [123])).toBe("123")
    expect(invoke(realm, S, "fromCodePoint", [0x1f600])).toBe("😀")
    const r = attempt(realm, () => invoke(realm, S, "fromCodePoint", [-1]))
    expect(!r.ok && errorText(r.error)).toBe("RangeError: Invalid code point -1")
    const w = constructFunction(realm, S, ["ab"])
    expect(get(w, "length")).toBe(2)
  })
  it("replace calls function replacers through the engine", () => {
    const calls: unknown[] = []
    const out = invoke(realm, "a-b", "replace", ["-", fn(realm, (args) => { calls.push(args.length); return "+" })])
    expect(out).toBe("a+b")
    expect(calls).toEqual([3])
  })
  it("caps", () => {
    const r = attempt(realm, () => invoke(realm, "abc", "repeat", [2 ** 29]))
    expect(!r.ok && errorText(r.error)).toBe("RangeError: Invalid string length")
    const p = attempt(realm, () => invoke(realm, "a", "padStart", [2 ** 30]))
    expect(!p.ok && errorText(p.error)).toBe("RangeError: Invalid string length")
  })
})

describe("RegExp", () => {
  const realm = createRealm()
  const R = global(realm, "RegExp")
  it("syntax errors carry V8's message", () => {
    const r = attempt(realm, () => constructFunction(realm, R, ["("]))
    expect(!r.ok && errorText(r.error)).toBe("SyntaxError: Invalid regular expression: /(/: Unterminated group")
  })
  it("escape", () => {
    for (const s of ["a.b", "1+1", " ,-=<>#&!%:;@~'`\"", "\t\n\v\f\r", "\u00a0\u2028\ufeff\u3000", "\uD800x", "😀", "_", "9a", "Zz"]) {
      expect(invoke(realm, R, "escape", [s])).toBe((RegExp as unknown as { escape: (s: string) => string }).escape(s))
    }
  })
  it("named groups and indices", () => {
    const m = invoke(realm, constructFunction(realm, R, ["(?<x>b)(c)?", "d"]), "exec", ["abc"]) as JSObject
    expect(toHost(get(m, "groups"))).toEqual({ x: "b" })
    const indices = get(m, "indices") as JSObject
    expect(toHost(indices)).toEqual([[1, 3], [1, 2], [2, 3]])
    expect(Object.getPrototypeOf(get(m, "groups"))).toBe(JSObject.prototype)
    expect((get(m, "groups") as JSObject).proto).toBe(null)
  })
})
