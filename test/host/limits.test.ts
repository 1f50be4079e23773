/**
 * Spec "Execution Limits", sentence by sentence. Time-based tests run on the live clock with short limits.
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Ref, Schema } from "effect"
import { CodeMode, Tool } from "../../src/index.ts"
import { ENGINES, makeFor } from "./engines.ts"

const echo = Tool.make({ description: "Echo", input: {}, output: {}, execute: (input) => input })

describe.each(ENGINES)("%s engine", (engine) => {
  const make = makeFor(engine)

  describe("Execution Limits", () => {
    it.effect("execution limits have no default values", () =>
      Effect.gen(function* () {
        const r = yield* make({ tools: { echo } }).execute(`
          for (let i = 0; i < 200; i++) await tools.echo(i)
          for (let i = 0; i < 100; i++) console.log("x".repeat(1000))
          return "y".repeat(1e6)
        `)
        assert.strictEqual(r.ok, true)
        assert.strictEqual(r.toolCalls.length, 200)
        assert.strictEqual(r.logs?.length, 100)
        assert.strictEqual(r.ok && (r.value as string).length, 1e6)
        assert.isUndefined(r.truncated)
      }))

    it("invalid limit configuration throws RangeError", () => {
      for (const limits of [
        { timeoutMs: 0 },
        { timeoutMs: -5 },
        { timeoutMs: Number.NaN },
        { timeoutMs: Infinity },
        { maxToolCalls: -1 },
        { maxToolCalls: 1.5 },
        { maxOutputBytes: 0 },
        { maxOutputBytes: "100" },
        { maxToolcalls: 3 },
      ]) {
        assert.throws(() => make({ limits: limits as never }), RangeError)
        assert.throws(() => CodeMode.execute({ code: "1", limits: limits as never }), RangeError)
      }
      make({ limits: { timeoutMs: 0.5, maxToolCalls: 0, maxOutputBytes: 1 } })
      // Other options are checked at make too.
      assert.throws(() => CodeMode.make({ engine: "fast" as never }), TypeError)
      assert.throws(() => CodeMode.make({ hooks: { tool: { before: 1 } } as never }), TypeError)
      assert.throws(() => CodeMode.make({ tools: { x: 1 } as never }), TypeError)
    })

    it.effect("maxToolCalls counts admitted calls: the call over the limit is not admitted and the run fails", () =>
      Effect.gen(function* () {
        const ran = yield* Ref.make(0)
        const count = Tool.make({ description: "x", input: {}, execute: () => Ref.update(ran, (n) => n + 1) })
        const r = yield* make({ tools: { count }, limits: { maxToolCalls: 2 } }).execute(`
          try { await tools.count(); await tools.count(); await tools.count() } catch (e) { return "caught" }
        `)
        assert.deepStrictEqual(r.ok === false && r.error, {
          kind: "ToolCallLimitExceeded",
          message: "The program exceeded the limit of 2 tool calls (call to tools.count)",
        })
        assert.strictEqual(r.toolCalls.length, 2)
        assert.strictEqual(yield* Ref.get(ran), 2)
        const none = yield* make({ tools: { count }, limits: { maxToolCalls: 0 } }).execute(`await tools.count()`)
        assert.strictEqual(none.ok === false && none.error.kind, "ToolCallLimitExceeded")
      }))

    it.effect("maxOutputBytes controls the retained result value and logs", () =>
      Effect.gen(function* () {
        const r = yield* make({ limits: { maxOutputBytes: 100 } }).execute(`
          for (let i = 0; i < 10; i++) console.log("line " + i + " " + "-".repeat(20))
          return "ok"
        `)
        assert.isTrue(r.ok)
        assert.isTrue(r.truncated)
        assert.isBelow(r.logs!.length, 10)
        const total = (r.logs ?? []).reduce((n, l) => n + Buffer.byteLength(l), Buffer.byteLength(JSON.stringify("ok")))
        assert.isAtMost(total, 100)
      }))

    it.effect("truncation does not fail execution; an oversized value becomes a string with an in-band marker", () =>
      Effect.gen(function* () {
        const r = yield* make({ limits: { maxOutputBytes: 128 } }).execute(`return { items: Array.from({ length: 50 }, (_, i) => ({ id: i })) }`)
        assert.isTrue(r.ok)
        if (!r.ok) return
        assert.isTrue(r.truncated)
        assert.strictEqual(typeof r.value, "string")
        assert.match(r.value as string, /^\{"items":\[\{"id":0\}.*…\[truncated: \d+ bytes exceed maxOutputBytes 128\]$/)
        assert.isAtMost(Buffer.byteLength(JSON.stringify(r.value)), 128)
      }))

    it.effect("warnings receive a separate budget equal to maxOutputBytes", () =>
      Effect.gen(function* () {
        const refuse = Tool.make({ description: "x", input: {}, execute: () => Effect.fail(new Error("no")) })
        const ok = Tool.make({ description: "x", input: {}, execute: () => Effect.void })
        const rt = make({ tools: { refuse, ok }, limits: { maxOutputBytes: 150 } })
        // The value fills the output budget; the one warning still fits its own.
        const one = yield* rt.execute(`tools.refuse(); await tools.ok(); return "v".repeat(140)`)
        assert.isTrue(one.ok)
        if (!one.ok) return
        assert.strictEqual(one.warnings?.length, 1)
        assert.strictEqual(one.warnings?.[0]?.kind, "ToolFailure")
        // Many warnings: those past 150 bytes are replaced by one Truncated warning.
        const many = yield* rt.execute(`for (let i = 0; i < 20; i++) tools.refuse(); await tools.ok(); return 1`)
        if (!many.ok) return assert.fail("expected success")
        const kinds = many.warnings!.map((w) => w.kind)
        assert.strictEqual(kinds.at(-1), "Truncated")
        assert.isBelow(kinds.length, 20)
        const kept = many.warnings!.slice(0, -1).reduce((n, w) => n + Buffer.byteLength(JSON.stringify(w)), 0)
        assert.isAtMost(kept, 150)
      }))

    it.live("timeouts interrupt busy loops", () =>
      Effect.gen(function* () {
        const r = yield* make({ limits: { timeoutMs: 50 } }).execute(`let i = 0; try { while (true) { i++ } } catch { return "caught" }`)
        assert.deepStrictEqual(r.ok === false && r.error, { kind: "TimeoutExceeded", message: "Execution exceeded the 50 ms time limit" })
      }))

    it.live("timeouts interrupt tool calls", () =>
      Effect.gen(function* () {
        const interrupted = yield* Deferred.make<void>()
        const hang = Tool.make({ description: "x", input: {}, execute: () => Effect.never.pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined))) })
        const r = yield* make({ tools: { hang }, limits: { timeoutMs: 50 } }).execute(`await tools.hang()`)
        assert.strictEqual(r.ok === false && r.error.kind, "TimeoutExceeded")
        yield* Deferred.await(interrupted)
      }))

    it.live("a result returned before cleanup times out remains successful with a TimeoutExceeded warning", () =>
      Effect.gen(function* () {
        const stubborn = Tool.make({ description: "x", input: {}, execute: () => Effect.uninterruptible(Effect.sleep("300 millis")) })
        const r = yield* make({ tools: { stubborn }, limits: { timeoutMs: 60 } }).execute(`tools.stubborn(); return "done"`)
        assert.isTrue(r.ok)
        if (!r.ok) return
        assert.strictEqual(r.value, "done")
        assert.deepStrictEqual(r.warnings?.map((w) => w.kind), ["TimeoutExceeded"])
        // Cleanup that finishes in time leaves no warning.
        const polite = Tool.make({ description: "x", input: {}, execute: () => Effect.never })
        const ok = yield* make({ tools: { polite }, limits: { timeoutMs: 1000 } }).execute(`tools.polite(); return "done"`)
        assert.deepStrictEqual(ok, { ok: true, value: "done", toolCalls: ok.toolCalls })
      }))

    it.effect("tool-call concurrency is unrestricted", () =>
      Effect.gen(function* () {
        const arrived = yield* Ref.make(0)
        const all = yield* Deferred.make<void>()
        const barrier = Tool.make({
          description: "Waits until 5 calls are running at once",
          input: Schema.Struct({ i: Schema.Number }),
          output: Schema.Number,
          execute: ({ i }) =>
            Effect.gen(function* () {
              const n = yield* Ref.updateAndGet(arrived, (x) => x + 1)
              if (n === 5) yield* Deferred.succeed(all, undefined)
              yield* Deferred.await(all)
              return i
            }),
        })
        const r = yield* make({ tools: { barrier } }).execute(`await Promise.all([0, 1, 2, 3, 4].map((i) => tools.barrier({ i })))`)
        assert.deepStrictEqual(r.ok && r.value, [0, 1, 2, 3, 4])
      }))

    it.effect("boundary data is limited to 32 nested levels", () =>
      Effect.gen(function* () {
        const deep = (n: number): unknown => (n === 0 ? 0 : [deep(n - 1)])
        const out = (n: number) => Tool.make({ description: "x", input: {}, output: {}, execute: () => deep(n) })
        const r32 = yield* make({ tools: { t: out(32) } }).execute(`await tools.t(); return "ok"`)
        assert.isTrue(r32.ok)
        const r33 = yield* make({ tools: { t: out(33) } }).execute(`await tools.t()`)
        assert.strictEqual(r33.ok === false && r33.error.kind, "InvalidToolOutput")
      }))
  })
})
