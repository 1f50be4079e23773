/**
 * `limits.maxMemoryBytes` on both engines: what a run keeps alive ends it with an uncatchable ExecutionFailure
 * before the host is in danger, whatever kind of value holds the memory (a suspended body's pending expression
 * too); garbage a run drops is not held against it (on the VM, and on both engines between jobs); the count survives suspend/resume; invalid values are refused
 * at `make`.
 */
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { describe, expect, it } from "vitest"
import { Deferred, Effect, Fiber, Schema } from "effect"
import { CodeMode, Tool } from "../../src/index.ts"
import type { Suspended } from "../../src/host/vm-run.ts"
import { ENGINES, makeFor } from "../host/engines.ts"

const MB = 1024 * 1024
const run = (engine: (typeof ENGINES)[number], code: string, maxMemoryBytes = 32 * MB) =>
  Effect.runPromise(makeFor(engine)({ limits: { maxMemoryBytes, timeoutMs: 20_000 } }).execute(code))

/** The host's heap after a full collection (`gc` made callable for this process only). */
setFlagsFromString("--expose-gc")
const collect = runInNewContext("gc") as () => void
const heapAfterGc = (): number => {
  collect()
  return process.memoryUsage().heapUsed
}

const expectMemoryFailure = (r: CodeMode.Result) => {
  expect(r.ok).toBe(false)
  if (r.ok) return
  expect(r.error.kind).toBe("ExecutionFailure")
  expect(r.error.message).toMatch(/^Memory limit exceeded/)
}

/** Each keeps ~100+ MB alive, in a different kind of value; the try/catch shows the end cannot be caught. */
const HOGS: Record<string, string> = {
  objects: `const a = []; for (let i = 0; i < 1e6; i++) a.push({ i }); return a.length`,
  properties: `const o = {}; for (let i = 0; i < 1e6; i++) o["k" + i] = i; return 1`,
  "array storage": `const a = []; for (let i = 0; i < 2e6; i++) a.push(i, i, i, i, i, i, i, i, i, i); return a.length`,
  strings: `const big = "x".repeat(2 ** 22); const a = []; for (let i = 0; i < 100; i++) a.push(big + i); return a.length`,
  "repeat": `const a = []; for (let i = 0; i < 100; i++) a.push(String(i).repeat(2 ** 20)); return a.length`,
  "array buffers": `const a = []; for (let i = 0; i < 100; i++) a.push(new ArrayBuffer(2 ** 20)); return a.length`,
  "typed arrays": `const a = []; for (let i = 0; i < 100; i++) a.push(new Float64Array(2 ** 17)); return a.length`,
  bigints: `const a = []; let b = 1n << 100000n; for (let i = 0; i < 5000; i++) a.push(b + BigInt(i)); return a.length`,
  "map entries": `const m = new Map(); for (let i = 0; i < 2e6; i++) m.set(i, i); return m.size`,
  "set entries": `const s = new Set(); for (let i = 0; i < 2e6; i++) s.add(i); return s.size`,
  closures: `const fs = []; for (let i = 0; i < 1e6; i++) { let j = i; fs.push(() => j) } return fs.length`,
  "caught": `const a = []; try { for (;;) a.push({ x: [1, 2, 3] }) } catch (e) { return "caught " + e } finally { return "finally" }`,
}

describe.each(ENGINES)("maxMemoryBytes on %s", (engine) => {
  for (const [name, code] of Object.entries(HOGS)) {
    it(`ends a run that keeps ${name} alive`, async () => {
      const t = performance.now()
      expectMemoryFailure(await run(engine, code))
      expect(performance.now() - t).toBeLessThan(20_000)
    })
  }

  it("lets a run that stays within its budget finish", async () => {
    const r = await run(engine, `const a = []; for (let i = 0; i < 1e4; i++) a.push({ i, s: "v" + i }); return a.length`)
    expect(r).toMatchObject({ ok: true, value: 1e4 })
  })

  it("does not count garbage dropped between jobs", async () => {
    // 20 × ~8 MB of objects, each batch dropped before an await: far more than the budget in all, never alive at once.
    const r = await run(engine, `
      let n = 0
      for (let j = 0; j < 20; j++) { await null; let a = []; for (let i = 0; i < 3e4; i++) a.push({ i }); n += a.length }
      return n`)
    expect(r).toMatchObject({ ok: true, value: 6e5 })
  })

  it("does not count garbage dropped within a synchronous loop", async () => {
    const r = await run(engine, `let n = 0; for (let i = 0; i < 1e6; i++) { const o = { i, s: "x" + i }; n += o.i } return n`)
    expect(r).toMatchObject({ ok: true, value: 499999500000 })
    // Every intermediate string charged as if flattened would be ~4 GB; they are dropped as the loop goes.
    const built = await run(engine, `function build() { let s = ""; for (let i = 0; i < 20000; i++) s += "0123456789"; return s } return build().length`)
    expect(built).toMatchObject({ ok: true, value: 200000 })
  })

  // Objects share their key lists (shapes) across runs: a run making up megabytes of keys, each dropped at once,
  // must not leave them alive in the process after it ends (500 × 100 kB would be 50 MB).
  it("leaves nothing of its made-up property keys in the process", async () => {
    const before = heapAfterGc()
    const r = await run(engine, `for (let i = 0; i < 500; i++) { const o = {}; o["k".repeat(1e5) + i] = i; await null } return 1`)
    expect(r).toMatchObject({ ok: true, value: 1 })
    expect(heapAfterGc() - before).toBeLessThan(20 * MB)
  })

  it("counts what callers hold in pending expressions while a loop drops garbage", async () => {
    expectMemoryFailure(
      await run(engine, `
        function churn() { let n = 0; for (let i = 0; i < 1e5; i++) { const o = { i }; n += o.i } return n }
        function hold(d) { return d === 0 ? 0 : [String(d).repeat(5e5), churn(), hold(d - 1)].length }
        return hold(100)`),
    )
  })

  // 60 × 4 MB, each held only by a body suspended in the middle of an expression: the measure between jobs
  // cannot see what the legacy engine's host generators hold there, so it must not drop it.
  it("counts what suspended async bodies hold in a pending expression", async () => {
    expectMemoryFailure(
      await run(engine, `
        const never = new Promise(() => {})
        async function hold(i) { return [("x".repeat(2e6) + i), await never] }
        for (let i = 0; i < 60; i++) { hold(i); await null }
        return "held"`),
    )
  })

  it("counts what suspended generators hold in a pending expression", async () => {
    expectMemoryFailure(
      await run(engine, `
        function* hold(i) { yield [("x".repeat(2e6) + i), yield 1] }
        const held = []
        for (let i = 0; i < 60; i++) { const g = hold(i); g.next(); held.push(g); await null }
        return held.length`),
    )
  })
})

describe("maxMemoryBytes on the VM", () => {
  it("counts the run's memory across suspend and resume", async () => {
    const called = Effect.runSync(Deferred.make<void>())
    const pause = Tool.make({ description: "waits", input: Schema.Struct({}), execute: Tool.idempotent(() => Deferred.succeed(called, undefined).pipe(Effect.andThen(Effect.never))) })
    const runtime = CodeMode.make({ tools: { pause }, engine: "vm", limits: { maxMemoryBytes: 16 * MB } })
    // ~10 MB alive when the run is suspended; another ~10 MB after the resume passes the budget only if the first
    // 10 MB are still counted.
    const keep = `globalThis.keep = []; for (let i = 0; i < 6e4; i++) keep.push({ i })`
    const code = `${keep}; await tools.pause({}); for (let i = 0; i < 6e4; i++) keep.push({ i }); return keep.length`
    const suspended = await Effect.runPromise(
      Effect.gen(function* () {
        const program = runtime.program(code)
        const fiber = yield* Effect.forkChild(program.run())
        yield* Deferred.await(called)
        const s = (yield* program.suspend()) as Suspended
        yield* Fiber.join(fiber)
        return s
      }) as Effect.Effect<Suspended>,
    )
    const run = suspended.state.run as { memoryBytes: number }
    expect(run.memoryBytes).toBeGreaterThan(6 * MB)
    const bytes = CodeMode.toBytes(suspended.state)
    const resumed = CodeMode.make({ tools: { pause: Tool.make({ description: "waits", input: Schema.Struct({}), execute: () => Effect.void }) }, engine: "vm" })
    expectMemoryFailure((await Effect.runPromise(resumed.resume(bytes).run())) as CodeMode.Result)
  })
})

describe("maxMemoryBytes validation", () => {
  it.each([0, -1, 1.5, Number.NaN, Infinity, "1"])("refuses %s with a RangeError", (v) => {
    expect(() => CodeMode.make({ limits: { maxMemoryBytes: v as number } })).toThrow(RangeError)
  })
})
