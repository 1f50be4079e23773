/**
 * Attacks on the sandbox, part five: output. Reporting an error runs no program code (a `message` getter that
 * loops is not called), odd thrown values are described safely, and floods of logs and unhandled rejections stay
 * within `maxOutputBytes` (and, without it, within the run's log cap: resources.test.ts).
 */
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { CodeMode } from "../../src/index.ts"
import { engines } from "../engines.ts"

const run = (engine: (typeof engines)[number], code: string, limits: CodeMode.Limits = {}) =>
  Effect.runPromise(CodeMode.execute({ code, engine, limits: { timeoutMs: 5_000, ...limits } }))

describe.each(engines)("output (%s)", (engine) => {
  const thrown: Record<string, readonly [string, string]> = {
    "an error whose message getter loops": ['const e = new Error("x"); Object.defineProperty(e, "message", { get() { while (true) {} } }); throw e', "Error"],
    "an error whose name getter throws": ['const e = new Error("x"); Object.defineProperty(e, "name", { get() { throw new Error("boom") } }); throw e', "Error: x"],
    "a subclass with a looping message getter": ["class E extends Error { get message() { while (true) {} } }; throw new E()", "Error"],
    "an object with a looping message getter": ['throw { get message() { while (true) {} }, name: "X" }', "X"],
    "an error with a huge stack": ['const e = new Error("x"); e.stack = "s".repeat(2 ** 26); throw e', "Error: x"],
    "a symbol": ['throw Symbol("s")', "Uncaught Symbol(s)"],
    "a function": ["throw () => process", "Uncaught [Function]"],
  }
  for (const [what, [code, message]] of Object.entries(thrown)) {
    it(`throwing ${what} is reported without running program code`, async () => {
      const started = Date.now()
      expect(await run(engine, code)).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message } })
      expect(Date.now() - started).toBeLessThan(4_000)
    })
  }

  it("a flood of unhandled rejections keeps to maxOutputBytes: the rest is one Truncated warning", async () => {
    const r = await run(engine, 'for (let i = 0; i < 10000; i++) Promise.reject(new Error("r".repeat(1000) + i)); 1', { maxOutputBytes: 10_000 })
    expect(r).toMatchObject({ ok: true, value: 1 })
    if (r.ok) {
      const warnings = r.warnings ?? []
      expect(warnings.at(-1)).toMatchObject({ kind: "Truncated" })
      expect(warnings.slice(0, -1).reduce((n, w) => n + JSON.stringify(w).length, 0)).toBeLessThanOrEqual(10_000)
    }
  })

  it("huge logs and a huge value keep to maxOutputBytes", async () => {
    const r = await run(engine, 'const s = "x".repeat(2 ** 20); for (let i = 0; i < 50; i++) console.log(s + i); s', { maxOutputBytes: 4_096 })
    expect(r).toMatchObject({ ok: true, truncated: true })
    expect(JSON.stringify({ value: r.ok ? r.value : null, logs: r.logs }).length).toBeLessThan(4_096 + 200)
  })
})
