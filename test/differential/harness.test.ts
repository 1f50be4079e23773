/**
 * Tests of the differential harness itself (corpus format, normalization, the oracle, the ratchet file). They need
 * no codemode engine, so they import the harness's parts rather than harness.ts.
 */
import { describe, expect, it } from "vitest"
import { CorpusError, parseCorpusFile } from "./corpus.ts"
import { parseKnownFailures } from "./known-failures.ts"
import { runOracle, runOracleDetailed } from "./oracle.ts"
import { normalizeEngineResult, normalizeThrown, normalizeValue } from "./outcome.ts"
import { plainDataProblem } from "./plain-data.ts"

describe("corpus files", () => {
  it("splits programs on markers and keeps the header out", () => {
    const programs = parseCorpusFile("t", "t.js", "// header\n\n// === a\nreturn 1\n// === b.c\n\nreturn 2\n")
    expect(programs.map((p) => [p.id, p.code, p.line])).toEqual([
      ["t/a", "return 1", 4],
      ["t/b.c", "return 2", 6],
    ])
  })

  it("rejects duplicate names, empty programs and code before the first marker", () => {
    expect(() => parseCorpusFile("t", "t.js", "// === a\nreturn 1\n// === a\nreturn 2")).toThrow(CorpusError)
    expect(() => parseCorpusFile("t", "t.js", "// === a\n\n// === b\nreturn 2")).toThrow(/empty program/)
    expect(() => parseCorpusFile("t", "t.js", "return 0\n// === a\nreturn 1")).toThrow(/before the first/)
  })
})

describe("normalization", () => {
  it("reduces values to JSON and undefined to null", () => {
    expect(normalizeValue(undefined)).toBe(null)
    expect(normalizeValue({ a: [1, "x", true, null] })).toEqual({ a: [1, "x", true, null] })
    expect(() => normalizeValue(1n)).toThrow()
  })

  it("reduces thrown values to an error name or a string", () => {
    expect(normalizeThrown(new TypeError("x"))).toEqual({ threw: "TypeError" })
    expect(normalizeThrown(42)).toEqual({ threw: "value", value: "42" })
    expect(normalizeThrown({ code: 1 })).toEqual({ threw: "value", value: "[object Object]" })
  })

  it("maps engine results to the same shape", () => {
    const fail = (kind: string, message: string) => ({ ok: false as const, error: { kind, message } })
    expect(normalizeEngineResult({ ok: true, value: [1] })).toEqual({ value: [1] })
    expect(normalizeEngineResult(fail("ExecutionFailure", "TypeError: x is not a function"))).toEqual({ threw: "TypeError" })
    expect(normalizeEngineResult(fail("ExecutionFailure", "RangeError"))).toEqual({ threw: "RangeError" })
    expect(normalizeEngineResult(fail("ExecutionFailure", "Uncaught 42"))).toEqual({ threw: "value", value: "42" })
    expect(normalizeEngineResult(fail("UnsupportedSyntax", "with"))).toEqual({ engineError: "UnsupportedSyntax", message: "with" })
  })
})

describe("oracle (node:vm)", () => {
  it("reports returns and throws", async () => {
    expect(await runOracle("return [1, 2]")).toEqual({ value: [1, 2] })
    expect(await runOracle("await null\nnull.x")).toEqual({ threw: "TypeError" })
    expect(await runOracle("throw 'boom'")).toEqual({ threw: "value", value: "boom" })
    expect(await runOracle("function f() { return f() }\nreturn f()")).toEqual({ threw: "RangeError" })
  })

  it("tolerates rejections the program leaves unhandled", async () => {
    expect(await runOracle("Promise.reject(new Error('x'))\nawait null\nreturn 1")).toEqual({ value: 1 })
  })

  it("refuses programs that cannot be compared", async () => {
    await expect(runOracle("return 1n")).rejects.toThrow(/cannot be normalized/)
    await expect(runOracle("return {")).rejects.toThrow(/does not start/)
  })

  it("sees the returned value as it was at the return statement", async () => {
    const run = await runOracleDetailed("const a = []\nPromise.resolve().then(() => a.push(1))\nreturn a", {
      probeReturns: true,
    })
    expect(run.jsonAtReturn).toBe("[]")
    expect(run.outcome).toEqual({ value: [1] })
  })
})

describe("plain data", () => {
  it("accepts JSON data and names what JSON would rewrite", () => {
    expect(plainDataProblem({ a: [1, "x", null, { b: false }] })).toBeUndefined()
    expect(plainDataProblem([1, NaN])).toMatch(/value\[1\]: NaN/)
    expect(plainDataProblem({ a: -0 })).toMatch(/-0/)
    expect(plainDataProblem({ a: undefined })).toMatch(/undefined/)
    expect(plainDataProblem(new Map())).toMatch(/not a plain object/)
  })
})

describe("known-failures.txt", () => {
  it("reads ids and skips comments", () => {
    expect([...parseKnownFailures("# header\na/b\n\nc/d # why\n")]).toEqual(["a/b", "c/d"])
  })
})
