/**
 * Attacks on the sandbox, part three: single steps that would hold the process. A built-in whose loop runs as long
 * as the program asks (`reverse` of an array whose length is 2^32 - 1, `indexOf` on `{ length: 2 ** 53 - 1 }`,
 * `JSON.stringify` of a graph of shared objects, `replaceAll` building a huge string), a built-in whose every call
 * costs a tenth of a second, and a value whose copy across the boundary would be larger than any host can hold must
 * each end with a catchable RangeError or with TimeoutExceeded in bounded time — and the process goes on.
 */
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { CodeMode, Extension, Tool } from "../../src/index.ts"
import { Caps } from "../../src/runtime/caps.ts"
import { engines } from "../engines.ts"

const TIMEOUT_MS = 300
/** Generous: the slowest of these ends within a second of its limit; a hang is minutes. */
const BOUND_MS = 8_000

const echo = Tool.make({ description: "echo", input: { type: "object" }, output: { type: "object" }, execute: (i: unknown) => Effect.succeed(i) })
const ext = Extension.make({ name: "x", globals: { id: (v: unknown) => v } })

/** `null`: no time limit. */
const timed = async (engine: (typeof engines)[number], code: string, timeoutMs: number | null = TIMEOUT_MS) => {
  const started = Date.now()
  const result = await Effect.runPromise(
    CodeMode.execute({ code, engine, tools: { echo }, extensions: [ext], ...(timeoutMs === null ? {} : { limits: { timeoutMs } }) }),
  )
  return { result, ms: Date.now() - started }
}

const SPARSE = "const a = []; a.length = 2 ** 32 - 1;"
const GENERIC = "const o = { length: 2 ** 53 - 1 };"
const DAG = "let x = [1]; for (let i = 0; i < 30; i++) x = [x, x];"
const DAG_OBJECT = "let x = {}; for (let i = 0; i < 30; i++) x = { a: x, b: x };"

/** Programs each stuck in one built-in (or one step at a time in very heavy ones) for minutes without the fix. */
const stuckInOneStep: Record<string, string> = {
  "reverse of a sparse array of length 2^32 - 1": `${SPARSE} a.reverse()`,
  "copyWithin on it": `${SPARSE} a.copyWithin(0, 1)`,
  "unshift on it": `${SPARSE} a.unshift(1)`,
  "splice on it": `${SPARSE} a.splice(0, 1)`,
  "spreading it": `${SPARSE} [...a].length`,
  "a rest element over it": `${SPARSE} const [...rest] = a; rest.length`,
  "new Set of it": `${SPARSE} new Set(a).size`,
  "Promise.all of it": `${SPARSE} Promise.all(a); 1`,
  "Object.fromEntries of its entries": `${SPARSE} Object.fromEntries(a.entries())`,
  "JSON.stringify of it": `${SPARSE} JSON.stringify(a).length`,
  "indexOf on an array-like of length 2^53 - 1": `${GENERIC} Array.prototype.indexOf.call(o, 1)`,
  "lastIndexOf on it": `${GENERIC} Array.prototype.lastIndexOf.call(o, 1)`,
  "includes on it": `${GENERIC} Array.prototype.includes.call(o, 1)`,
  "fill on it": `${GENERIC} Array.prototype.fill.call(o, 1)`,
  "reverse on it": `${GENERIC} Array.prototype.reverse.call(o)`,
  "sort on it": `${GENERIC} Array.prototype.sort.call(o)`,
  "JSON.stringify of 2^30 shared paths": `${DAG_OBJECT} JSON.stringify(x).length`,
  "flat(Infinity) of 2^30 shared paths": `${DAG} x.flat(Infinity).length`,
  "join of 2^30 shared paths": `${DAG} x.join().length`,
  "a global regular expression replace over 2^26 matches": `"x".repeat(2 ** 26).replace(/x/g, "yy").length`,
  "a global match over 2^27 matches": `"x".repeat(2 ** 27).match(/x/g).length`,
  "replaceAll of the empty string over 2^27 code units": `"a".repeat(2 ** 27).replaceAll("", "").length`,
  "replaceAll with $ patterns over 2^26 matches": `"a".repeat(2 ** 26).replaceAll("a", "$&$&").length`,
  "a loop of calls that each read 2^26 code units": `const s = "x".repeat(2 ** 26); for (;;) s.indexOf("y")`,
  "a loop of calls that each make 2^26 code units": `const s = "x".repeat(2 ** 26); for (;;) s.toUpperCase()`,
  "a loop logging a megabyte per line": `const s = "x".repeat(2 ** 20); for (let i = 0; ; i++) console.log(s + i)`,
}

/** Allocations that must fail at once, before the host pays for them. */
const refusedAtOnce: Record<string, readonly [string, RegExp]> = {
  "the keys of a string of 2^27 code units": ['Object.keys("x".repeat(2 ** 27)).length', /^RangeError: Invalid array length/],
  "spreading such a string into an object": ['({ ..."x".repeat(2 ** 26) })', /^RangeError: Invalid array length/],
  "the keys of a 2^28-element typed array": ["Reflect.ownKeys(new Uint8Array(2 ** 28)).length", /^RangeError: Invalid array length/],
  "joining a 2^28-element typed array": ["new Uint8Array(2 ** 28).join().length", /^RangeError: Invalid string length/],
  "splitting a string of 2^27 code units into code units": ['"x".repeat(2 ** 27).split("").length', /^RangeError: Invalid array length/],
  "a BigInt of 2^33 bits": ["(10n ** 10000000n) > 0n", /^RangeError: Maximum BigInt size exceeded/],
  "a BigInt shifted by 2^30": ["(1n << (2n ** 30n)) > 0n", /^RangeError: Maximum BigInt size exceeded/],
  "BigInt.asUintN with 2^53 - 1 bits": ["BigInt.asUintN(2 ** 53 - 1, -1n) > 0n", /^RangeError: Maximum BigInt size exceeded/],
  "an ArrayBuffer resized to 2^31 bytes": ["new ArrayBuffer(8, { maxByteLength: 2 ** 40 }).resize(2 ** 31)", /^RangeError: Array buffer allocation failed/],
  "unbounded recursion": ["const f = () => f(); f()", /^RangeError: Maximum call stack size exceeded/],
  "JSON.parse of a million nested arrays": ['JSON.parse("[".repeat(1e6) + "]".repeat(1e6))', /^RangeError: Maximum call stack size exceeded/],
  "JSON.stringify of 20,000 nested arrays": ["let v = []; for (let i = 0; i < 20000; i++) v = [v]; JSON.stringify(v)", /^RangeError: Maximum call stack size exceeded/],
}

/** Values a program hands the host that would be larger than any host can hold. */
const tooLargeToCopy: Record<string, readonly [string, string, RegExp]> = {
  "a sparse array of length 2^32 - 1 as the result": [`${SPARSE} a`, "InvalidDataValue", /larger than 134217728 characters of JSON/],
  "2^30 shared paths as the result": [`${DAG} x`, "InvalidDataValue", /larger than 134217728 characters of JSON/],
  "the same long string 2^10 times as the result": ['Array(1024).fill("x".repeat(2 ** 20))', "InvalidDataValue", /larger than/],
  "a sparse array as a tool's input": [`${SPARSE} await tools.echo({ a })`, "InvalidToolInput", /larger than 134217728 characters of JSON/],
  "2^30 shared paths as a tool's input": [`${DAG_OBJECT} await tools.echo({ x })`, "InvalidToolInput", /larger than|deeper than/],
  "a sparse array as an extension's argument": [`${SPARSE} id(a)`, "ExecutionFailure", /^TypeError: id: Data is larger than/],
  "2^26 shared paths an extension gives back": [`let y = {}; for (let i = 0; i < 26; i++) y = { a: y, b: y }; id(y)`, "ExecutionFailure", /id returned a value that cannot be copied: Data is larger than/],
}

describe.each(engines)("single steps stay within the run's limits (%s)", (engine) => {
  for (const [what, code] of Object.entries(stuckInOneStep)) {
    it(`timeoutMs ends ${what}`, async () => {
      const { result, ms } = await timed(engine, code)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error.kind === "TimeoutExceeded" || /^RangeError: /.test(result.error.message)).toBe(true)
      expect(ms).toBeLessThan(BOUND_MS)
    })
  }

  for (const [what, [code, message]] of Object.entries(refusedAtOnce)) {
    it(`${what} is a catchable RangeError, without a time limit`, async () => {
      const { result, ms } = await timed(engine, code, null)
      expect(result).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: expect.stringMatching(message) } })
      expect(ms).toBeLessThan(BOUND_MS)
      const caught = await timed(engine, `try { ${code} } catch (e) { e instanceof RangeError }`, null)
      expect(caught.result).toMatchObject({ ok: true, value: true })
    })
  }

  for (const [what, [code, kind, message]] of Object.entries(tooLargeToCopy)) {
    it(`${what} is refused at the boundary at once`, async () => {
      const { result, ms } = await timed(engine, code, null)
      expect(result).toMatchObject({ ok: false, error: { kind, message: expect.stringMatching(message) } })
      expect(ms).toBeLessThan(BOUND_MS)
    })
  }

  it("console output a run keeps is capped while it runs; one marker line says the rest was dropped", async () => {
    const { result } = await timed(engine, 'const s = "x".repeat(2 ** 20); for (let i = 0; i < 64; i++) console.log(s + i); "done"', null)
    expect(result).toMatchObject({ ok: true, value: "done" })
    const logs = result.logs ?? []
    expect(logs.at(-1)).toBe(`…[console output past ${Caps.maxLogLength} characters was dropped]`)
    expect(logs.slice(0, -1).reduce((n, line) => n + line.length, 0)).toBeLessThanOrEqual(Caps.maxLogLength)
    expect(logs.length).toBeLessThan(40)
  })

  it("a source longer than the cap is a ParseError before anything is parsed", async () => {
    const code = `let x = 0; ${"x++;".repeat(Caps.maxSourceLength / 4)}`
    const { result, ms } = await timed(engine, code)
    expect(result).toMatchObject({ ok: false, error: { kind: "ParseError", message: expect.stringMatching(/^Source is too long: \d+ characters, more than 1048576$/) } })
    expect(ms).toBeLessThan(1_000)
  })

  it("a 100,000-deep nested expression is a ParseError, and a million-term sum is parsed or refused, never a crash", async () => {
    const deep = await timed(engine, "(".repeat(100_000) + "1" + ")".repeat(100_000))
    expect(deep.result).toMatchObject({ ok: false, error: { kind: "ParseError", message: "Source is nested too deeply to parse" } })
    const templates = await timed(engine, "`${".repeat(20_000) + "1" + "}`".repeat(20_000))
    expect(templates.result).toMatchObject({ ok: false, error: { kind: "ParseError" } })
    const sum = await timed(engine, "1" + "+1".repeat(300_000))
    expect(sum.result.ok === true ? sum.result.value : sum.result.error.kind).toSatisfy((v: unknown) => v === 300_001 || v === "ParseError")
  })

  it("after all of these, the process runs programs as before", async () => {
    const { result } = await timed(engine, "[1, 2, 3].map((n) => n * 2).join()")
    expect(result).toMatchObject({ ok: true, value: "2,4,6" })
  })
})
