/**
 * The contract of spec "Bytecode VM and suspending/resuming a run" and "Idempotent and durable tools, and safe
 * suspension", sentence by sentence: programs run once; suspend before, during and after `run()`; what blocks a
 * suspend; idempotent and durable calls across a suspend; limits and keys across resumes; states that cannot be
 * resumed. Tools are gated by Deferreds the test opens, so every interleaving is deterministic.
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Schema } from "effect"
import { TestClock } from "effect/testing"
import { CodeMode, Tool } from "../../src/index.ts"
import type { Suspended } from "../../src/host/vm-run.ts"

const suspended = (o: CodeMode.Outcome): Suspended => {
  if (o.ok !== "suspended") throw new Error(`expected a suspended run, got ${JSON.stringify(o)}`)
  return o
}
const value = (o: CodeMode.Outcome): unknown => {
  if (o.ok !== true) throw new Error(`expected a successful run, got ${JSON.stringify(o)}`)
  return o.value
}

/** Lets forked fibers run until the run loop is waiting (it parks on its event queue). */
const settle = Effect.gen(function* () {
  for (let i = 0; i < 20; i++) yield* Effect.yieldNow
})

const N = Schema.Struct({ n: Schema.Number })

describe("programs", () => {
  it("engine: \"vm\" makes a VmRuntime; the legacy runtime has no program or resume", () => {
    const vm: CodeMode.VmRuntime = CodeMode.make({ engine: "vm" })
    assert.strictEqual(typeof vm.program, "function")
    assert.strictEqual(typeof vm.resume, "function")
    const legacy = CodeMode.make({ engine: "legacy" })
    assert.isFalse("program" in legacy || "resume" in legacy)
  })

  it.effect("nothing runs until run(); a program runs once, and running it again is a defect", () =>
    Effect.gen(function* () {
      let calls = 0
      const count = Tool.make({ description: "count", input: {}, execute: () => Effect.sync(() => void calls++) })
      const rt = CodeMode.make({ tools: { count }, engine: "vm" })
      const p = rt.program(`await tools.count(); return 1`)
      yield* settle
      assert.strictEqual(calls, 0)
      assert.strictEqual(value(yield* p.run()), 1)
      const again = yield* Effect.exit(p.run())
      assert.isTrue(Exit.hasDies(again))
      assert.strictEqual(calls, 1)
    }))

  it.effect("keys are <runId>:<callId>, passed to tools as execute(input, { key })", () =>
    Effect.gen(function* () {
      const keys: string[] = []
      const echo = Tool.make({ description: "echo", input: N, output: Schema.Number, execute: ({ n }, { key }) => Effect.sync(() => (keys.push(key), n)) })
      const r = yield* CodeMode.make({ tools: { echo }, engine: "vm" }).program(`return (await tools.echo({ n: 1 })) + (await tools.echo({ n: 2 }))`, undefined, { runId: "run-7" }).run()
      assert.strictEqual(value(r), 3)
      assert.deepStrictEqual(keys, ["run-7:1", "run-7:2"])
      assert.deepStrictEqual(r.ok === true && r.toolCalls.map((c) => c.key), ["run-7:1", "run-7:2"])
    }))

  it.effect("bindings are globals holding copies of plain data", () =>
    Effect.gen(function* () {
      const rt = CodeMode.make({ engine: "vm" })
      const r = yield* rt.program(`input.items.push(4); return [input.items, limit]`, { input: { items: [1, 2, 3] }, limit: 2 }).run()
      assert.deepStrictEqual(value(r), [[1, 2, 3, 4], 2])
    }))
})

describe("suspend and resume", () => {
  it.effect("a suspend before run() waits for it to start; run() returns the same Suspended", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<number>()
      const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Deferred.await(gate)) })
      const rt = CodeMode.make({ tools: { wait }, engine: "vm" })
      const p = rt.program(`return (await tools.wait()) + 1`)
      const early = yield* Effect.forkChild(p.suspend())
      yield* settle
      assert.isUndefined(early.pollUnsafe())
      const run = yield* Effect.forkChild(p.run())
      const s = suspended(yield* Fiber.join(early))
      assert.strictEqual(yield* Fiber.join(run), s)
      yield* Deferred.succeed(gate, 41)
      assert.strictEqual(value(yield* rt.resume(s.state).run()), 42)
    }))

  it.effect("a mapped arguments object still aliases its parameters after a resume, and `this` is still the global", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<number>()
      const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Deferred.await(gate)) })
      const rt = CodeMode.make({ tools: { wait }, engine: "vm" })
      const p = rt.program(`
        async function f(a, b) {
          const n = await tools.wait()
          arguments[0] = n
          b = n + 1
          const second = arguments[1]
          delete arguments[1]
          b = 0
          return [a, second, 1 in arguments, b, this === globalThis]
        }
        const top = this
        return [...(await f(1, 2)), top === globalThis]`)
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const s = suspended(yield* p.suspend())
      yield* Fiber.join(run)
      yield* Deferred.succeed(gate, 41)
      assert.deepStrictEqual(value(yield* rt.resume(CodeMode.toBytes(s.state)).run()), [41, 42, false, 0, true, true])
    }))

  it.effect("resources still to dispose survive a suspend in the middle of disposal", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<number>()
      const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Deferred.await(gate)) })
      const rt = CodeMode.make({ tools: { wait }, engine: "vm" })
      const p = rt.program(`
        const log = []
        const stack = new AsyncDisposableStack()
        stack.defer(() => log.push("stack"))
        {
          using a = { [Symbol.dispose]() { log.push("a") } }
          await using b = { async [Symbol.asyncDispose]() { log.push("b:" + (await tools.wait())) } }
          await using c = stack
          log.push("body")
        }
        return log`)
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const s = suspended(yield* p.suspend())
      yield* Fiber.join(run)
      yield* Deferred.succeed(gate, 7)
      assert.deepStrictEqual(value(yield* rt.resume(CodeMode.toBytes(s.state)).run()), ["body", "stack", "b:7", "a"])
    }))

  it.effect("a suspend after the run ended gives its result", () =>
    Effect.gen(function* () {
      const p = CodeMode.make({ engine: "vm" }).program(`return 5`)
      const r = yield* p.run()
      assert.strictEqual(yield* p.suspend(), r)
    }))

  it.effect("a plain call in flight blocks suspend: SuspendError names it by key and path, and the run goes on untouched", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<number>()
      const after: string[] = []
      const plain = Tool.make({ description: "plain", input: {}, output: Schema.Number, execute: () => Deferred.await(gate) })
      const rt = CodeMode.make({ tools: { svc: { plain } }, engine: "vm", hooks: { tool: { after: (_, o) => void after.push(o._tag) } } })
      const p = rt.program(`const a = tools.svc.plain(); return (await a) * 2`, undefined, { runId: "r" })
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const refused = yield* Effect.flip(p.suspend())
      assert.instanceOf(refused, CodeMode.SuspendError)
      assert.strictEqual(refused.reason, "Blocked")
      assert.deepStrictEqual(refused.calls, [{ key: "r:1", path: "tools.svc.plain" }])
      assert.include(refused.message, "tools.svc.plain (r:1)")
      yield* Deferred.succeed(gate, 21)
      assert.strictEqual(value(yield* Fiber.join(run)), 42)
      assert.deepStrictEqual(after, ["success"])
    }))

  it.effect("queued calls and outcomes already in the inbox are part of the state", () =>
    Effect.gen(function* () {
      let fastRuns = 0
      const fast = Tool.make({ description: "fast", input: {}, output: Schema.Number, execute: () => Effect.sync(() => ++fastRuns) })
      const rt = CodeMode.make({ tools: { fast }, engine: "vm" })
      // The call settles at once; its outcome waits in the inbox while the loop runs, so the suspend is not blocked.
      const p = rt.program(`const p = tools.fast(); let x = 0; for (let i = 0; i < 300000; i++) x++; return [await p, x]`)
      const run = yield* Effect.forkChild(p.run())
      yield* Effect.yieldNow
      const s = suspended(yield* p.suspend())
      assert.strictEqual(yield* Fiber.join(run), s)
      assert.deepStrictEqual(value(yield* rt.resume(CodeMode.toBytes(s.state)).run()), [1, 300000])
      assert.strictEqual(fastRuns, 1)
    }))

  it.effect("idempotent: detached and interrupted without tool.after, re-run on resume with the same key, admitted once", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const seen: string[] = []
      const read = Tool.make({
        description: "read",
        input: N,
        output: Schema.Number,
        execute: Tool.idempotent(({ n }, { key }) =>
          Effect.gen(function* () {
            seen.push(`execute ${key}`)
            yield* Deferred.await(gate)
            return n * 10
          }).pipe(Effect.onInterrupt(() => Effect.sync(() => seen.push(`interrupted ${key}`))))),
      })
      const rt = CodeMode.make({
        tools: { read },
        engine: "vm",
        limits: { maxToolCalls: 1 },
        hooks: { tool: { before: (c) => void seen.push(`before ${c.key}`), after: (c, o) => void seen.push(`after ${c.key} ${o._tag}`) } },
      })
      const p = rt.program(`return await tools.read({ n: 4 })`, undefined, { runId: "i" })
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const s = suspended(yield* p.suspend())
      yield* Fiber.join(run)
      assert.deepStrictEqual(seen, ["before i:1", "execute i:1", "interrupted i:1"])
      yield* Deferred.succeed(gate, undefined)
      const r = yield* rt.resume(CodeMode.toBytes(s.state)).run()
      assert.strictEqual(value(r), 40)
      assert.deepStrictEqual(seen.slice(3), ["before i:1", "execute i:1", "after i:1 success"])
      assert.deepStrictEqual(r.ok === true && r.toolCalls, [{ path: "tools.read", key: "i:1" }])
    }))

  it.effect("durable: start blocks suspend; once started its data is saved; wait is called at once and again when a resume starts", () =>
    Effect.gen(function* () {
      const startGate = yield* Deferred.make<void>()
      const log: string[] = []
      const job = Tool.make({
        description: "job",
        input: N,
        output: Schema.Number,
        execute: Tool.durable({
          start: ({ n }, { key }) =>
            Effect.gen(function* () {
              log.push(`start ${key}`)
              yield* Deferred.await(startGate)
              return { id: `job-${n}` }
            }),
          wait: ({ id }, { key }) => {
            log.push(`wait ${key} ${id}`)
            return log.filter((l) => l.startsWith("wait")).length > 1 ? Effect.succeed(Number(id.slice(4)) * 100) : Effect.never
          },
          cancel: ({ id }) => Effect.sync(() => void log.push(`cancel ${id}`)),
        }),
      })
      const rt = CodeMode.make({ tools: { job }, engine: "vm" })
      // The program never awaits the call before the suspend: `wait` is called anyway.
      const p = rt.program(`const p = tools.job({ n: 3 }); await null; return await p`, undefined, { runId: "d" })
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const blocked = yield* Effect.flip(p.suspend())
      assert.deepStrictEqual(blocked.calls, [{ key: "d:1", path: "tools.job" }])
      yield* Deferred.succeed(startGate, undefined)
      yield* settle
      assert.deepStrictEqual(log, ["start d:1", "wait d:1 job-3"])
      const s = suspended(yield* p.suspend())
      yield* Fiber.join(run)
      const saved = (s.state.run as { calls: ReadonlyArray<unknown> }).calls
      assert.deepStrictEqual(saved, [{ callId: 1, state: "started", data: { id: "job-3" } }])
      assert.deepStrictEqual(log, ["start d:1", "wait d:1 job-3"])
      const r = yield* rt.resume(CodeMode.fromBytes(CodeMode.toBytes(s.state))).run()
      assert.strictEqual(value(r), 300)
      assert.deepStrictEqual(log, ["start d:1", "wait d:1 job-3", "wait d:1 job-3"])
    }))

  it.effect("interrupting run() interrupts every call in progress and cancels started durable work", () =>
    Effect.gen(function* () {
      const log: string[] = []
      const job = Tool.make({
        description: "job",
        input: {},
        execute: Tool.durable({ start: () => Effect.succeed({ id: 1 }), wait: () => Effect.never, cancel: ({ id }) => Effect.sync(() => void log.push(`cancel ${id}`)) }),
      })
      const plain = Tool.make({ description: "plain", input: {}, execute: () => Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => void log.push("plain interrupted")))) })
      const rt = CodeMode.make({ tools: { job, plain }, engine: "vm" })
      const p = rt.program(`await Promise.all([tools.job(), tools.plain()])`)
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      yield* Fiber.interrupt(run)
      assert.sameMembers(log, ["cancel 1", "plain interrupted"])
    }))

  it.effect("cancel runs when the run ends with durable work still waiting, and also after a resume", () =>
    Effect.gen(function* () {
      const log: string[] = []
      const job = Tool.make({
        description: "job",
        input: {},
        execute: Tool.durable({ start: () => Effect.succeed({ id: 1 }), wait: () => Effect.never, cancel: ({ id }) => Effect.sync(() => void log.push(`cancel ${id}`)) }),
      })
      const rt = CodeMode.make({ tools: { job }, engine: "vm" })
      assert.strictEqual(value(yield* rt.program(`tools.job(); return 1`).run()), 1)
      assert.deepStrictEqual(log, ["cancel 1"])
      const p = rt.program(`const j = tools.job(); await new Promise((r) => r()); await tools.job(); return 2`)
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const s = suspended(yield* p.suspend())
      yield* Fiber.join(run)
      assert.deepStrictEqual(log, ["cancel 1"])
      const resumed = yield* Effect.forkChild(rt.resume(s.state).run())
      yield* settle
      yield* Fiber.interrupt(resumed)
      assert.deepStrictEqual(log, ["cancel 1", "cancel 1", "cancel 1"])
    }))

  it.effect("maxBytes is checked before anything changes: a state too large fails the suspend and the run goes on", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<number>()
      const after: string[] = []
      const read = Tool.make({ description: "read", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Deferred.await(gate)) })
      const rt = CodeMode.make({ tools: { read }, engine: "vm", hooks: { tool: { after: (_, o) => void after.push(o._tag) } } })
      const p = rt.program(`const big = "x".repeat(100000) + Math.random(); return (await tools.read()) + big.length`)
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const refused = yield* Effect.flip(p.suspend({ maxBytes: 1000 }))
      assert.strictEqual(refused.reason, "TooLarge")
      yield* Deferred.succeed(gate, 1)
      const r = yield* Fiber.join(run)
      assert.isTrue(r.ok === true && typeof r.value === "number" && r.value > 100000)
      assert.deepStrictEqual(after, ["success"])
    }))

  it.effect("a resumed run keeps its limits: timeoutMs counts active time across every resume", () =>
    Effect.gen(function* () {
      const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Effect.never) })
      const rt = CodeMode.make({ tools: { wait }, engine: "vm", limits: { timeoutMs: 1000 } })
      const p = rt.program(`return await tools.wait()`)
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      yield* TestClock.adjust(600)
      const s = suspended(yield* p.suspend())
      yield* Fiber.join(run)
      assert.strictEqual((s.state.run as { activeMs: number }).activeMs, 600)
      // A resume elsewhere with no limits of its own: the saved ones apply, with 400 ms left.
      const other = CodeMode.make({ tools: { wait }, engine: "vm" })
      const resumed = yield* Effect.forkChild(other.resume(CodeMode.toBytes(s.state)).run())
      yield* settle
      yield* TestClock.adjust(399)
      yield* settle
      assert.isUndefined(resumed.pollUnsafe())
      yield* TestClock.adjust(1)
      const r = yield* Fiber.join(resumed)
      assert.deepStrictEqual(r.ok === false && r.error.kind, "TimeoutExceeded")
    }))

  it.effect("a resumed run keeps its limits: maxToolCalls counts every admitted call of the run", () =>
    Effect.gen(function* () {
      const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Effect.never) })
      const echo = Tool.make({ description: "echo", input: {}, output: Schema.Number, execute: () => Effect.succeed(1) })
      const rt = CodeMode.make({ tools: { wait, echo }, engine: "vm", limits: { maxToolCalls: 2 } })
      const p = rt.program(`const w = tools.wait(); await tools.echo(); return await w`)
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const s = suspended(yield* p.suspend())
      yield* Fiber.join(run)
      const quick = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Effect.succeed(2)) })
      // Resumed: the re-run of `wait` is not admitted again.
      const more = CodeMode.make({ tools: { wait: quick, echo }, engine: "vm" })
      const r1 = yield* more.resume(s.state).run()
      assert.strictEqual(value(r1), 2)
      assert.strictEqual(r1.ok === true && r1.toolCalls.length, 2)
      // The program's next call is its third, over the limit saved with the run.
      const p2 = rt.program(`const w = tools.wait(); await tools.echo(); const v = await w; await tools.echo(); return v`)
      const run2 = yield* Effect.forkChild(p2.run())
      yield* settle
      const s2 = suspended(yield* p2.suspend())
      yield* Fiber.join(run2)
      const r = yield* more.resume(s2.state).run()
      assert.deepStrictEqual(r.ok === false && r.error.kind, "ToolCallLimitExceeded")
    }))
})

describe("states that cannot be resumed", () => {
  const saved = Effect.gen(function* () {
    const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Effect.never) })
    const rt = CodeMode.make({ tools: { wait }, engine: "vm" })
    const p = rt.program(`return await tools.wait()`)
    const run = yield* Effect.forkChild(p.run())
    yield* settle
    const s = suspended(yield* p.suspend())
    yield* Fiber.join(run)
    return { rt, state: s.state }
  })

  it.effect("another build, another format, missing extensions, malformed data: run() fails with SnapshotError", () =>
    Effect.gen(function* () {
      const { rt, state } = yield* saved
      const cases: Array<[unknown, string]> = [
        [{ ...state, build: "0123" }, "another build"],
        [{ ...state, format: 99 }, "format 99"],
        [{ ...state, run: { ...(state.run as object), extensions: ["web"] } }, "extensions this runtime lacks: web"],
        [{ ...state, heap: { root: { r: 99999 }, records: [] } }, "out of range"],
        [{ ...state, run: { ...(state.run as object), activeMs: "soon" } }, "run.activeMs"],
        [null, "must be an object"],
      ]
      for (const [bad, message] of cases) {
        const e = yield* Effect.flip(rt.resume(bad as CodeMode.Snapshot).run())
        assert.instanceOf(e, CodeMode.SnapshotError)
        assert.include(e.message, message)
      }
      const garbage = yield* Effect.flip(rt.resume(new Uint8Array([1, 2, 3])).run())
      assert.instanceOf(garbage, CodeMode.SnapshotError)
      assert.throws(() => CodeMode.fromBytes(new Uint8Array(40)), CodeMode.SnapshotError)
    }))

  it.effect("a runtime without the saved tools cannot resume their calls", () =>
    Effect.gen(function* () {
      // A call the state re-runs is made by its path: without the tool, the run fails as a call of an unknown tool.
      const { state } = yield* saved
      const r = yield* CodeMode.make({ engine: "vm" }).resume(state).run()
      assert.deepStrictEqual(r.ok === false && [r.error.kind, r.error.path], ["UnknownTool", "tools.wait"])
      // A state that still holds a tool names it as a built-in this runtime lacks.
      const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Effect.never) })
      const p = CodeMode.make({ tools: { wait }, engine: "vm" }).program(`const wait = tools.wait; return (await wait()) + (await wait())`)
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const s = suspended(yield* p.suspend())
      yield* Fiber.join(run)
      const e = yield* Effect.flip(CodeMode.make({ engine: "vm" }).resume(s.state).run())
      assert.instanceOf(e, CodeMode.SnapshotError)
      assert.include(e.message, "%codemode.tools")
    }))
})

describe("built-ins by name", () => {
  it.effect("a small run's snapshot is a few kilobytes, and only changed built-ins are saved", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<number>()
      const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Deferred.await(gate)) })
      const rt = CodeMode.make({ tools: { wait }, engine: "vm" })
      const p = rt.program(`
        Array.prototype.total = function () { return this.reduce((a, b) => a + b, 0) }
        const first = Math.random()
        const order = { id: "o-1", items: [1, 2, 3] }
        const n = await tools.wait()
        return [order.items.total() + n, first !== Math.random()]`)
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const s = suspended(yield* p.suspend())
      yield* Fiber.join(run)
      yield* Deferred.succeed(gate, 5)
      const bytes = CodeMode.toBytes(s.state)
      assert.isBelow(bytes.length, 4096)
      const patched = (s.state.heap.records as ReadonlyArray<{ p?: string }>).flatMap((r) => (r.p === undefined ? [] : [r.p]))
      // Math.random's state is the realm's: drawing from it changes no built-in.
      assert.sameMembers(patched, ["%Array.prototype%"])
      assert.deepStrictEqual(value(yield* rt.resume(bytes).run()), [11, true])
    }))

  it.effect("globals a program reads are not saved; globals it sets or replaces are", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<number>()
      const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Deferred.await(gate)) })
      const rt = CodeMode.make({ tools: { wait }, engine: "vm" })
      const save = (code: string) =>
        Effect.gen(function* () {
          const p = rt.program(code)
          const run = yield* Effect.forkChild(p.run())
          yield* settle
          const s = suspended(yield* p.suspend())
          yield* Fiber.join(run)
          const patched = (s.state.heap.records as ReadonlyArray<{ p?: string }>).flatMap((r) => (r.p === undefined ? [] : [r.p]))
          return { bytes: CodeMode.toBytes(s.state), patched }
        })
      const reads = yield* save(`const m = Math.max(JSON.parse("1"), 0); return m + (await tools.wait())`)
      assert.deepStrictEqual(reads.patched, [])
      const writes = yield* save(`
        globalThis.counter = 1
        JSON = { fake: true }
        const n = await tools.wait()
        return [counter + n, JSON.fake, Object.keys(globalThis).includes("counter")]`)
      assert.deepStrictEqual(writes.patched, ["%GlobalObject%"])
      yield* Deferred.succeed(gate, 5)
      assert.deepStrictEqual(value(yield* rt.resume(reads.bytes).run()), 6)
      assert.deepStrictEqual(value(yield* rt.resume(writes.bytes).run()), [6, true, true])
    }))
})
