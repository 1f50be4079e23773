/**
 * The VM's non-spec hooks for hosts that keep runs alive across process crashes: `program.checkpoint()` (the
 * state a suspend would save, while the run goes on), the `onLog` observer (each logged line as it happens) and the
 * `onCall` observer (each host call as it is admitted, with where the program made it).
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Fiber, Schema } from "effect"
import { CodeMode, Tool } from "../../src/index.ts"

const settle = Effect.gen(function* () {
  for (let i = 0; i < 20; i++) yield* Effect.yieldNow
})

const N = Schema.Struct({ n: Schema.Number })

describe("checkpoint", () => {
  it.effect("saves the state without stopping the run; resuming it elsewhere repeats the idempotent call in flight", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const seen: Array<string> = []
      const fetchN = Tool.make({
        description: "an idempotent read",
        input: N,
        output: Schema.Number,
        execute: Tool.idempotent(({ n }, { key }) => Effect.sync(() => seen.push(key)).pipe(Effect.andThen(Deferred.await(gate)), Effect.as(n * 10))),
      })
      const runtime = CodeMode.make({ tools: { fetchN }, engine: "vm" })
      const program = runtime.program(`console.log("before"); const a = await tools.fetchN({ n: 4 }); return a + 1`, undefined, { runId: "cp" })
      const fiber = yield* Effect.forkChild(program.run())
      yield* settle
      const saved = yield* program.checkpoint()
      assert.strictEqual(saved.ok, "suspended")
      // The run goes on and ends as if nothing happened.
      yield* Deferred.succeed(gate, undefined)
      const outcome = yield* Fiber.join(fiber)
      assert.deepStrictEqual(outcome.ok === true && outcome.value, 41)
      // The checkpoint, resumed in a fresh runtime, runs the call again with the same key.
      const state = CodeMode.toBytes((saved as CodeMode.Suspended).state)
      const again = yield* CodeMode.make({ tools: { fetchN }, engine: "vm" }).resume(CodeMode.fromBytes(state)).run()
      assert.deepStrictEqual(again.ok === true && again.value, 41)
      assert.deepStrictEqual(again.ok === true && again.logs, ["before"])
      assert.deepStrictEqual(seen, ["cp:1", "cp:1"])
    }))

  it.effect("asked for as an outcome arrives, waits for the program to run it: taken at its next call, or never when it ends", () =>
    Effect.gen(function* () {
      const seen: Array<string> = []
      const asked: Array<Fiber.Fiber<CodeMode.Outcome, CodeMode.SuspendError>> = []
      const hold = yield* Deferred.make<void>()
      let program: CodeMode.Program<never> | undefined
      // As the service does: a checkpoint is asked for once the call's outcome is recorded, as the tool returns.
      const fetchN = Tool.make({
        description: "an idempotent read; the call of n = 5 waits",
        input: N,
        output: Schema.Number,
        execute: Tool.idempotent(({ n }, { key }) =>
          Effect.gen(function* () {
            seen.push(key)
            if (n === 5) yield* Deferred.await(hold)
            asked.push(yield* Effect.forkDetach(program!.checkpoint(), { startImmediately: true }))
            return n * 10
          }),
        ),
      })
      const runtime = CodeMode.make({ tools: { fetchN }, engine: "vm" })
      program = runtime.program(`const a = await tools.fetchN({ n: 4 }); const b = await tools.fetchN({ n: 5 }); return a + b`, undefined, { runId: "cp" })
      const fiber = yield* Effect.forkChild(program.run())
      yield* settle
      // Taken once the first outcome ran: the second call is in flight in it, and resuming it makes that call alone.
      const first = yield* Fiber.join(asked[0]!)
      assert.strictEqual(first.ok, "suspended")
      yield* Deferred.succeed(hold, undefined)
      const outcome = yield* Fiber.join(fiber)
      assert.deepStrictEqual(outcome.ok === true && outcome.value, 90)
      // The program ended in the slice that ran the second outcome: no state, its outcome.
      assert.deepStrictEqual(yield* Fiber.join(asked[1]!), outcome)
      const again = yield* CodeMode.make({ tools: { fetchN }, engine: "vm" }).resume(CodeMode.fromBytes(CodeMode.toBytes((first as CodeMode.Suspended).state))).run()
      assert.deepStrictEqual(again.ok === true && again.value, 90)
      assert.deepStrictEqual(seen, ["cp:1", "cp:2", "cp:2"])
    }))

  it.effect("asked for now just before the call's outcome arrives, is the state with that call in flight, which a fork answers otherwise", () =>
    Effect.gen(function* () {
      const seen: Array<string> = []
      const asked: Array<Fiber.Fiber<CodeMode.Outcome, CodeMode.SuspendError>> = []
      let program: CodeMode.Program<never> | undefined
      // As the service does before it sends an idempotent call: the request is made, then the outcome comes, and
      // the run loop hears of both at once.
      const fetchN = Tool.make({
        description: "an idempotent read",
        input: N,
        output: Schema.Number,
        execute: Tool.idempotent(({ n }, { key }) =>
          Effect.gen(function* () {
            seen.push(key)
            if (asked.length === 0) asked.push(yield* Effect.forkDetach(program!.checkpoint({ now: true }), { startImmediately: true }))
            return n * 10
          }),
        ),
      })
      const runtime = CodeMode.make({ tools: { fetchN }, engine: "vm" })
      program = runtime.program(`const a = await tools.fetchN({ n: 4 }); return a + 1`, undefined, { runId: "cp" })
      const outcome = yield* program.run()
      assert.deepStrictEqual(outcome.ok === true && outcome.value, 41)
      // Without \`now\` it would wait for the outcome to run, and the run ends in that slice: no state at all.
      const taken = yield* Fiber.join(asked[0]!)
      assert.strictEqual(taken.ok, "suspended")
      const state = CodeMode.toBytes((taken as CodeMode.Suspended).state)
      const again = yield* CodeMode.make({ tools: { fetchN }, engine: "vm" }).resume(CodeMode.fromBytes(state)).run()
      assert.deepStrictEqual(again.ok === true && again.value, 41)
      assert.deepStrictEqual(seen, ["cp:1", "cp:1"])
      const forked = yield* CodeMode.make({ tools: { fetchN }, engine: "vm" }).fork(state, { outcomes: { "cp:1": { ok: true, value: 70 } } }).run()
      assert.deepStrictEqual(forked.ok === true && forked.value, 71)
      assert.deepStrictEqual(seen, ["cp:1", "cp:1"])
    }))

  it.effect("is refused while a plain call runs, naming it, and the run goes on", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const plain = Tool.make({ description: "plain", input: N, output: Schema.Number, execute: ({ n }) => Deferred.await(gate).pipe(Effect.as(n)) })
      const program = CodeMode.make({ tools: { plain }, engine: "vm" }).program(`return await tools.plain({ n: 2 })`, undefined, { runId: "p" })
      const fiber = yield* Effect.forkChild(program.run())
      yield* settle
      const refused = yield* Effect.flip(program.checkpoint())
      assert.strictEqual(refused.reason, "Blocked")
      assert.deepStrictEqual(refused.calls, [{ key: "p:1", path: "tools.plain" }])
      yield* Deferred.succeed(gate, undefined)
      const outcome = yield* Fiber.join(fiber)
      assert.deepStrictEqual(outcome.ok === true && outcome.value, 2)
      // After the end, a checkpoint gives the outcome.
      assert.deepStrictEqual(yield* program.checkpoint(), outcome)
    }))
})

describe("onLog", () => {
  it.effect("reports each line once, as the run logs it, with its index, and not again after a resume", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<void>()
      const wait = Tool.make({ description: "wait", input: {}, execute: Tool.idempotent(() => Deferred.await(gate)) })
      const lines: Array<string> = []
      const runtime = CodeMode.make({ tools: { wait }, engine: "vm" })
      const program = runtime.program(`console.log("one", 1); await tools.wait({}); console.log("two"); return 0`, undefined, {
        onLog: (line, index) => lines.push(`${index}: ${line}`),
      })
      const fiber = yield* Effect.forkChild(program.run())
      yield* settle
      assert.deepStrictEqual(lines, ["0: one 1"])
      const suspended = yield* program.suspend()
      yield* Fiber.join(fiber)
      yield* Deferred.succeed(gate, undefined)
      const resumed = runtime.resume((suspended as CodeMode.Suspended).state, { onLog: (line, index) => lines.push(`resumed ${index}: ${line}`) })
      const outcome = yield* resumed.run()
      assert.deepStrictEqual(outcome.ok === true && outcome.logs, ["one 1", "two"])
      assert.deepStrictEqual(lines, ["0: one 1", "resumed 1: two"])
    }))

  it.effect("an observer that throws does not end the run", () =>
    Effect.gen(function* () {
      const program = CodeMode.make({ engine: "vm" }).program(`console.log("x"); 5`, undefined, {
        onLog: () => {
          throw new Error("observer broke")
        },
      })
      const outcome = yield* program.run()
      assert.deepStrictEqual(outcome.ok === true && outcome.value, 5)
    }))
})

describe("onCall", () => {
  it.effect("reports each call once, before its tool runs, with its key, path and source location", () =>
    Effect.gen(function* () {
      const events: Array<string> = []
      const double = Tool.make({
        description: "double",
        input: N,
        output: Schema.Number,
        execute: ({ n }, { key }) => Effect.sync(() => (events.push(`tool ${key}`), n * 2)),
      })
      const code = ["const a = await tools.double({ n: 1 })", "const [b, c] = await Promise.all([", "  tools.double({ n: a }),", "    tools.double({ n: 3 })])", "return a + b + c"].join("\n")
      const program = CodeMode.make({ tools: { double }, engine: "vm" }).program(code, undefined, {
        runId: "oc",
        onCall: (call) => events.push(`call ${call.key} ${call.path} ${call.location?.line}:${call.location?.column}`),
      })
      const outcome = yield* program.run()
      assert.deepStrictEqual(outcome.ok === true && outcome.value, 12)
      assert.deepStrictEqual(events, [
        "call oc:1 tools.double 1:17",
        "tool oc:1",
        "call oc:2 tools.double 3:3",
        "tool oc:2",
        "call oc:3 tools.double 4:5",
        "tool oc:3",
      ])
    }))

  it.effect("an observer that throws does not end the run, nor keep the call from its tool", () =>
    Effect.gen(function* () {
      const double = Tool.make({ description: "double", input: N, output: Schema.Number, execute: ({ n }) => Effect.succeed(n * 2) })
      const program = CodeMode.make({ tools: { double }, engine: "vm" }).program(`return await tools.double({ n: 4 })`, undefined, {
        onCall: () => {
          throw new Error("observer broke")
        },
      })
      const outcome = yield* program.run()
      assert.deepStrictEqual(outcome.ok === true && outcome.value, 8)
    }))
})
