/**
 * Issue 16: a regular expression that backtracks catastrophically on a pattern V8's linear-time engine refuses
 * (a backreference, a lookahead, the i/u/v/d flags) used to hold the host on V8's backtracking engine far past
 * `timeoutMs`. It now runs on the interruptible matcher, so the run ends with TimeoutExceeded on time and the
 * process goes on.
 */
import { describe, expect, it } from "vitest"
import { Effect } from "effect"
import { CodeMode } from "../../src/index.ts"
import { engines } from "../engines.ts"

const run = (code: string, engine: (typeof engines)[number], timeoutMs?: number) =>
  Effect.runPromise(CodeMode.execute({ code, engine, ...(timeoutMs === undefined ? {} : { limits: { timeoutMs } }) }))

/** Each needs billions of steps on a backtracking engine: minutes to hours. */
const HOSTILE = {
  "a backreference": '/^(a+)+\\1?$/.test("a".repeat(34) + "b")',
  "the i flag": '/(a+)+$/i.test("a".repeat(34) + "b")',
  "the u flag": '"a".repeat(40).replace(/(a|aa)+b/u, "x")',
  "the d flag": '/(a+)+$/d.exec("a".repeat(34) + "b")',
  "a lookahead": '/(?=(a+)+$)a/.test("a".repeat(34) + "b")',
  "a lookbehind": '/(?<=^y(a+)+)b/.test("a".repeat(34) + "b")',
  "a global split": '"a".repeat(40).split(/(?:a|aa)+(?=b)/)',
  "a counted repetition": '/^(a{1,1000})+$/.test("a".repeat(34) + "b")',
}

describe.each(engines)("regular expressions cannot hold the host past timeoutMs (%s)", (engine) => {
  for (const [what, code] of Object.entries(HOSTILE)) {
    // A wall-clock bound: a moment without a core on a shared machine is retried; a match never stopped fails every try.
    it(`a catastrophic backtrack with ${what} ends with TimeoutExceeded within timeoutMs + 1 s`, { retry: 2 }, async () => {
      const started = Date.now()
      const result = await run(code, engine, 500)
      expect(Date.now() - started).toBeLessThan(1_500)
      expect(result).toMatchObject({ ok: false, error: { kind: "TimeoutExceeded" } })
      expect(await run('/(a)\\1/i.exec("xAa")[1]', engine)).toMatchObject({ ok: true, value: "A" })
    })
  }

  it("a match that needs more backtracking stack than the matcher keeps ends with a RangeError, as on V8", async () => {
    // Two open choice points per character; V8's own stack gives out a few million characters later.
    const result = await run('/^(?:a|bc)*d/i.test("a".repeat(1e6))', engine, 10_000)
    expect(result).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: "RangeError: Maximum call stack size exceeded" } })
    expect(await run('/^(?:a|bc)*d/i.test("a".repeat(1e5) + "d")', engine)).toMatchObject({ ok: true, value: true })
  })

  it("the backtracking stack a match grows is charged to maxMemoryBytes", async () => {
    const code = '/^(?:a|bc)*d/i.test("a".repeat(1e6))'
    const limits = { maxMemoryBytes: 8 * 1024 * 1024, timeoutMs: 10_000 }
    const result = await Effect.runPromise(CodeMode.execute({ code, engine, limits }))
    expect(result).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: expect.stringMatching(/^Memory limit exceeded/) } })
  })

  it("a pattern nested deeper than the matcher can read is a SyntaxError, and shallower ones run", async () => {
    const deep = await run('const d = 20000; new RegExp("(".repeat(d) + "a" + ")".repeat(d) + "\\\\1").test("aa")', engine)
    expect(deep).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: "SyntaxError: Invalid regular expression: too deeply nested" } })
    const nested = await run('const d = 200; new RegExp("(".repeat(d) + "a" + ")".repeat(d) + "\\\\1").exec("aa").length', engine)
    expect(nested).toMatchObject({ ok: true, value: 201 })
  })

  it("a pattern too long for the matcher (or for V8) is a SyntaxError", async () => {
    const long = await run('new RegExp("a".repeat(7e4) + "|b", "i").test("b")', engine)
    expect(long).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: expect.stringMatching(/^SyntaxError: Invalid regular expression: a pattern of 70002 characters is longer/) } })
    const onV8 = await run('new RegExp("a".repeat(7e4) + "|b").test("b")', engine)
    expect(onV8).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: expect.stringMatching(/^SyntaxError: .*Regular expression too large$/) } })
    expect(await run('new RegExp("a".repeat(3e4) + "|b", "i").test("B")', engine)).toMatchObject({ ok: true, value: true })
  })

  it("a pattern the linear engine refuses gives V8's answers through the whole RegExp protocol", async () => {
    const code = `[
      "2024-01-31 and 1999-12-01".replace(/(\\d+)-(\\d+)-(\\d+)/gd, "$3/$2/$1"),
      "a1b2c3".split(/(?<=\\d)/),
      [..."aXbxc".matchAll(/(?<l>[a-c])(?=x)/gid)].map((m) => [m.index, m.groups.l, m.indices[1]]),
      "the The cat cat".replace(/\\b(\\w+)\\s+\\1\\b/gi, "<$1>"),
      "😀a😀b".search(/(?<=😀)b/u),
      /(?<q>['"])(.*?)\\k<q>/.exec("say 'hi'").slice(),
      "a 👩🏻‍❤️‍💋‍👨🏼 and 🏴󠁧󠁢󠁥󠁮󠁧󠁿!".match(/\\p{RGI_Emoji}/gv),
      new RegExp("(?i:[\\\\q{abc|ab}])c", "v").exec("xABc").slice(),
    ]`
    const expected = new Function(`return ${code}`)()
    expect(await run(code, engine)).toMatchObject({ ok: true, value: expected })
  })
})
