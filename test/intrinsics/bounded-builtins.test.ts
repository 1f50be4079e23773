/**
 * Issue 3's promises about built-ins and limits, on both engines: a time limit ends a run whose infinite loop sits
 * inside a callback that a built-in makes (a `sort` comparator, a `map` callback, a `replace` function, a getter
 * reached by `JSON.stringify`), and allocations past the run's caps end with a RangeError in the result while the
 * process goes on.
 */
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { CodeMode } from "../../src/index.ts"
import { engines } from "../engines.ts"

const run = (code: string, engine: (typeof engines)[number], timeoutMs?: number) =>
  Effect.runPromise(CodeMode.execute({ code, engine, ...(timeoutMs === undefined ? {} : { limits: { timeoutMs } }) }))

const loopsInsideBuiltins = {
  "a sort comparator": "[3, 1, 2].sort(() => { while (true) {} })",
  "a map callback": "[1, 2].map(() => { for (;;) {} })",
  "a replace function": '"abc".replace(/b/, () => { while (true) {} })',
  "a getter reached by JSON.stringify": "JSON.stringify({ get x() { while (true) {} } })",
  "a getter whose loop sits inside try/catch": "const o = { get x() { try { while (true) {} } catch {} } }; JSON.stringify(o)",
}

describe.each(engines)("built-ins stay within the run's limits (%s)", (engine) => {
  for (const [where, code] of Object.entries(loopsInsideBuiltins)) {
    it(`timeoutMs ends an infinite loop inside ${where} with TimeoutExceeded`, async () => {
      const result = await run(code, engine, 200)
      expect(result.ok).toBe(false)
      if (!result.ok) expect(result.error.kind).toBe("TimeoutExceeded")
    })
  }

  it("a catastrophically backtracking regular expression does not hold the process", async () => {
    // Exponential on a backtracking engine (2^40 paths): without the linear-time fallback this never returns.
    const code = 'const s = "a".repeat(40) + "b"; [/(a+)+$/.test(s), /^(a|a)*$/.test(s), /(x+x+)+y/.test("x".repeat(40)), "aaa".replace(/(a+)+$/, "z")]'
    expect(await run(code, engine, 5_000)).toMatchObject({ ok: true, value: [false, false, false, "z"] })
  })

  it("a program building a 2^30-character string ends with a RangeError, and the process goes on", async () => {
    const result = await run('let s = "x"; for (let i = 0; i < 30; i++) s += s; s.length', engine)
    expect(result).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: expect.stringMatching(/^RangeError: /) } })
    expect(await run('"x".repeat(2 ** 30).length', engine)).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^RangeError: /) } })
    expect(await run("1 + 1", engine)).toMatchObject({ ok: true, value: 2 })
  })

  it("a program building a 1e9-element array ends with a RangeError, and the process goes on", async () => {
    const filled = await run("new Array(1e9).fill(0).length", engine)
    expect(filled).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: expect.stringMatching(/^RangeError: /) } })
    const joined = await run("new Array(1e9).join(',').length", engine)
    expect(joined).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^RangeError: /) } })
    expect(await run("[1, 2, 3].length", engine)).toMatchObject({ ok: true, value: 3 })
  })
})
