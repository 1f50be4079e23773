/**
 * Attacks on the sandbox, part four: a hostile snapshot. A state passed to `runtime.resume` is JSON anyone may
 * have written; beside the fuzzing of test/snapshot/fuzz.test.ts, these are crafted: an extension outcome waiting
 * in the inbox whose wire form names a function by a path to the host's `Function`, or is malformed, and a source
 * that is too long. Each must end in a SnapshotError or in a run that reaches nothing of the host.
 */
import { describe, expect, it } from "vitest"
import { Cause, Deferred, Effect, Exit, Fiber, Schema } from "effect"
import { CodeMode, Extension, Tool } from "../../src/index.ts"
import type { Suspended } from "../../src/host/vm-run.ts"

const ext = Extension.make({ name: "x", globals: { id: (v: unknown) => v, fs: { read: () => "r" } } })

const makeRuntime = (gate: Deferred.Deferred<void> | undefined) => {
  const pause = Tool.make({
    description: "waits",
    input: Schema.Struct({}),
    output: Schema.Unknown,
    execute: Tool.idempotent(() => (gate === undefined ? Effect.succeed(1) : Deferred.await(gate).pipe(Effect.as(1)))),
  })
  return CodeMode.make({ tools: { pause }, extensions: [ext], engine: "vm", limits: { timeoutMs: 5_000 } })
}

const PROGRAM = `
  const v = await tools.pause({})
  if (typeof v !== "function") return ["value", String(v)]
  try { return ["called", String(v("return process")), typeof globalThis.process] } catch (e) { return ["threw", e.message] }`

/** A real state of PROGRAM waiting on `pause`, as JSON. */
const suspended = Effect.gen(function* () {
  const gate = yield* Deferred.make<void>()
  const program = makeRuntime(gate).program(PROGRAM, undefined, { runId: "hostile" })
  const fiber = yield* Effect.forkChild(program.run())
  for (let k = 0; k < 30; k++) yield* Effect.yieldNow
  const s = (yield* program.suspend()) as Suspended
  yield* Fiber.join(fiber)
  return JSON.parse(JSON.stringify(s.state)) as { run: { calls: Array<{ callId: number; state: string }>; inbox: unknown[] } }
})

/** The state with the pending call settled by an extension outcome whose wire form is `wire`. */
const withOutcome = (state: Awaited<ReturnType<typeof Effect.runPromise<{ run: { calls: Array<{ callId: number; state: string }>; inbox: unknown[] } }, never>>>, wire: unknown) => {
  const copy = structuredClone(state)
  const call = copy.run.calls[0]!
  call.state = "settled"
  copy.run.inbox = [{ callId: call.callId, outcome: { ok: "returned", value: wire } }]
  return copy
}

const resume = (state: unknown) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const exit = yield* makeRuntime(undefined).resume(state as CodeMode.Snapshot).run().pipe(Effect.timeout(10_000), Effect.exit)
      if (Exit.isSuccess(exit)) return { ran: exit.value as CodeMode.Result }
      expect(Cause.squash(exit.cause)).toBeInstanceOf(CodeMode.SnapshotError)
      return { refused: true }
    }),
  )

describe("hostile snapshots", () => {
  it("the real state resumes (the probes below change only the outcome)", async () => {
    const state = await Effect.runPromise(suspended)
    expect(await resume(state)).toMatchObject({ ran: { ok: true, value: ["value", "1"] } })
  })

  const paths: Record<string, ReadonlyArray<string>> = {
    "the globals' constructor's constructor": ["constructor", "constructor"],
    "a global function's constructor": ["id", "constructor"],
    "__proto__ then constructor": ["__proto__", "constructor"],
    "a method of Function.prototype": ["id", "call"],
    "a method of Object.prototype": ["fs", "hasOwnProperty"],
    "Object.prototype's __defineGetter__": ["__defineGetter__"],
  }
  for (const [what, path] of Object.entries(paths)) {
    it(`a function named by a path through ${what} is no function`, async () => {
      const state = await Effect.runPromise(suspended)
      const r = await resume(withOutcome(state, ["f", "x", 0, path, false, "evil", "evil", 1]))
      expect(r).toMatchObject({ ran: { ok: true, value: ["threw", "evil is not a function"] } })
    })
  }

  it("a function of an extension this runtime lacks is no function either", async () => {
    const state = await Effect.runPromise(suspended)
    const r = await resume(withOutcome(state, ["f", "child_process", 0, ["execSync"], false, "execSync", "execSync", 1]))
    expect(r).toMatchObject({ ran: { ok: true, value: ["threw", "execSync is not available: this runtime has no extension child_process"] } })
  })

  const malformed: Record<string, unknown> = {
    "a function whose path is not a list": ["f", "x", 0, "constructor", false, "f", "f", 0],
    "a BigInt that is not digits": ["b", "constructor"],
    "a typed array whose bytes do not fill its elements": ["t", "Float64Array", "AAAA"],
    "an unknown tag": ["process"],
    "an object whose members are not lists": ["o", 1, 2],
  }
  for (const [what, wire] of Object.entries(malformed)) {
    it(`${what} rejects the call's promise, or is refused`, async () => {
      const state = await Effect.runPromise(suspended)
      const r = await resume(withOutcome(state, wire))
      if ("ran" in r) expect(r.ran).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: expect.stringMatching(/^An extension call's outcome is malformed: malformed (function|BigInt|typed array|value|object)$/) } })
    })
  }

  it("a source longer than the cap is a SnapshotError", async () => {
    const state = (await Effect.runPromise(suspended)) as unknown as { run: { source: string } }
    const copy = structuredClone(state)
    copy.run.source = `${copy.run.source}\n${" ".repeat(1 << 20)}`
    expect(await resume(copy)).toEqual({ refused: true })
  })
})
