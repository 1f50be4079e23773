/**
 * `runtime.fork`: a saved state continued as another run, with replacement outcomes for the calls in flight in it.
 * Runs in round-trip mode too (npm run test:roundtrip).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber, Schema } from "effect"
import { CodeMode, Tool } from "../../src/index.ts"

const { SnapshotError } = CodeMode

const PROGRAM = `
let sum = 0
for (let n = 1; n <= 5; n++) {
  try { sum += await tools.step({ n }) } catch (e) { return "caught " + e.message + " at " + n }
}
return sum`

/** A runtime whose `step` answers n * 10 at once, except for `hold`, which it never answers. */
const setup = (hold: number) => {
  const seen: Array<string> = []
  const step = Tool.make({
    description: "one step",
    input: Schema.Struct({ n: Schema.Number }),
    output: Schema.Number,
    execute: Tool.idempotent(({ n }, { key }) => Effect.sync(() => seen.push(key)).pipe(Effect.andThen(n === hold ? Effect.never : Effect.succeed(n * 10)))),
  })
  return { seen, runtime: CodeMode.make({ tools: { step }, engine: "vm" }) }
}

/** The state of a run suspended while `step({ n: hold })` is in flight. */
const suspendedAt = (hold: number) =>
  Effect.gen(function* () {
    const { seen, runtime } = setup(hold)
    const program = runtime.program(PROGRAM, undefined, { runId: "src" })
    const fiber = yield* Effect.forkChild(program.run())
    while (seen.length < hold) yield* Effect.yieldNow
    const outcome = yield* program.suspend()
    yield* Fiber.join(fiber)
    assert.strictEqual(outcome.ok, "suspended")
    return { seen, runtime, state: (outcome as CodeMode.Suspended).state }
  })

describe("fork", () => {
  it.effect("continues from the state with the call in flight answered, under the new run's keys", () =>
    Effect.gen(function* () {
      const { seen, runtime, state } = yield* suspendedAt(3)
      const bytes = CodeMode.toBytes(state)
      const before = Buffer.from(bytes).toString("base64")
      const result = yield* runtime.fork(bytes, { runId: "f1", outcomes: { "src:3": { ok: true, value: 1000 } } }).run()
      assert.deepStrictEqual(result.ok === true && result.value, 10 + 20 + 1000 + 40 + 50)
      // Calls 1-3 are not made again; 4 and 5 are made under the fork's keys.
      assert.deepStrictEqual(seen, ["src:1", "src:2", "src:3", "f1:4", "f1:5"])
      assert.deepStrictEqual(
        result.ok === true && result.toolCalls.map((c) => c.key),
        ["f1:1", "f1:2", "f1:3", "f1:4", "f1:5"],
      )
      // The source is unchanged: it still resumes as the original run, repeating call 3 under its own key.
      assert.strictEqual(Buffer.from(bytes).toString("base64"), before)
      const { seen: seenAgain, runtime: answering } = setup(0)
      const again = yield* answering.resume(state).run()
      assert.deepStrictEqual(again.ok === true && again.value, 150)
      assert.deepStrictEqual(seenAgain, ["src:3", "src:4", "src:5"])
    }))

  it.effect("delivers a replacement error to the program as the tool's error, from a Snapshot object", () =>
    Effect.gen(function* () {
      const { seen, runtime, state } = yield* suspendedAt(2)
      const result = yield* runtime.fork(state, { runId: "f2", outcomes: { "src:2": { ok: false, error: { message: "no stock" } } } }).run()
      assert.deepStrictEqual(result.ok === true && result.value, "caught no stock at 2")
      assert.deepStrictEqual(seen, ["src:1", "src:2"])
    }))

  it.effect("makes a call in flight again under the new key when no outcome replaces it; two forks are independent", () =>
    Effect.gen(function* () {
      const { seen, state } = yield* suspendedAt(5)
      const { seen: seen2, runtime: other } = setup(0)
      const a = yield* other.fork(state, { runId: "a" }).run()
      const b = yield* other.fork(state).run()
      assert.deepStrictEqual(a.ok === true && a.value, 150)
      assert.deepStrictEqual(b.ok === true && b.value, 150)
      assert.deepStrictEqual(seen, ["src:1", "src:2", "src:3", "src:4", "src:5"])
      assert.strictEqual(seen2[0], "a:5")
      assert.match(seen2[1]!, /^[0-9a-f-]{36}:5$/)
    }))

  it.effect("answers a started durable call: its wait is not called again in the fork, and the source still waits", () =>
    Effect.gen(function* () {
      const waited: Array<string> = []
      const build = Tool.make({
        description: "a long build",
        input: {},
        output: Schema.String,
        execute: Tool.durable({
          start: (_, { key }) => Effect.succeed({ job: key }),
          wait: ({ job }) => Effect.sync(() => waited.push(job)).pipe(Effect.andThen(Effect.never)),
        }),
      })
      const runtime = CodeMode.make({ tools: { build }, engine: "vm" })
      const program = runtime.program(`return "got " + (await tools.build({}))`, undefined, { runId: "d" })
      const fiber = yield* Effect.forkChild(program.run())
      while (waited.length === 0) yield* Effect.yieldNow
      const state = ((yield* program.suspend()) as CodeMode.Suspended).state
      yield* Fiber.join(fiber)
      const forked = yield* runtime.fork(state, { runId: "d2", outcomes: { "d:1": { ok: true, value: "v2" } } }).run()
      assert.deepStrictEqual(forked.ok === true && forked.value, "got v2")
      assert.deepStrictEqual(waited, ["d:1"])
    }))

  it.effect("refuses an outcome for a call that is not in flight (SnapshotError) and a malformed one (TypeError)", () =>
    Effect.gen(function* () {
      const { runtime, state } = yield* suspendedAt(3)
      const settled = yield* Effect.flip(runtime.fork(state, { outcomes: { "src:1": { ok: true, value: 1 } } }).run())
      assert.instanceOf(settled, SnapshotError)
      assert.match(settled.message, /src:1 is not a tool call in flight/)
      const stray = yield* Effect.flip(runtime.fork(state, { outcomes: { "f:3": { ok: true, value: 1 } } }).run())
      assert.instanceOf(stray, SnapshotError)
      assert.throws(() => runtime.fork(state, { outcomes: { "src:3": { ok: "yes" } as never } }), TypeError)
      assert.throws(() => runtime.fork(state, { outcomes: { "src:3": { ok: true, value: new Map() } } }), /not plain data/)
      assert.throws(() => runtime.fork(state, { outcomes: { "src:3": { ok: false, error: {} } as never } }), /message must be a string/)
      assert.throws(() => runtime.fork(state, { runId: "" }), TypeError)
    }))

  it.effect("gives the fork the limits asked for in place of the saved ones, checked at once", () =>
    Effect.gen(function* () {
      const { runtime, state } = yield* suspendedAt(3)
      // The source run had no call limit: its fork may make two more calls in all (three were made before).
      const limited = yield* runtime.fork(state, { runId: "l1", outcomes: { "src:3": { ok: true, value: 0 } }, limits: { maxToolCalls: 4 } }).run()
      assert.strictEqual(limited.ok === false && limited.error.kind, "ToolCallLimitExceeded")
      assert.match(limited.ok === false ? limited.error.message : "", /limit of 4 tool calls/)
      const free = yield* runtime.fork(state, { runId: "l2", outcomes: { "src:3": { ok: true, value: 0 } }, limits: { maxToolCalls: 5 } }).run()
      assert.deepStrictEqual(free.ok === true && free.value, 10 + 20 + 0 + 40 + 50)
      assert.throws(() => runtime.fork(state, { limits: { maxToolCalls: -1 } }), RangeError)
    }))

  it.effect("keeps a signed state's signature rules: the fork of an altered state is refused", () =>
    Effect.gen(function* () {
      const snapshotKey = new Uint8Array(32).fill(7)
      const seen: Array<string> = []
      const step = Tool.make({
        description: "one step",
        input: Schema.Struct({ n: Schema.Number }),
        output: Schema.Number,
        execute: Tool.idempotent(({ n }, { key }) => Effect.sync(() => seen.push(key)).pipe(Effect.andThen(n === 2 ? Effect.never : Effect.succeed(n)))),
      })
      const runtime = CodeMode.make({ tools: { step }, engine: "vm", snapshotKey })
      const program = runtime.program(PROGRAM, undefined, { runId: "s" })
      const fiber = yield* Effect.forkChild(program.run())
      while (seen.length < 2) yield* Effect.yieldNow
      const state = ((yield* program.suspend()) as CodeMode.Suspended).state
      yield* Fiber.join(fiber)
      const forked = yield* runtime.fork(state, { outcomes: { "s:2": { ok: true, value: 2 } } }).run()
      assert.deepStrictEqual(forked.ok === true && forked.value, 15)
      const altered = { ...state, run: { ...(state.run as object), activeMs: 1 } } as CodeMode.Snapshot
      assert.instanceOf(yield* Effect.flip(runtime.fork(altered, { outcomes: { "s:2": { ok: true, value: 2 } } }).run()), SnapshotError)
    }))
})
