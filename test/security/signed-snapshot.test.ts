/**
 * `CodeMode.make({ snapshotKey })`: saved states are signed, and a runtime with a key resumes only states signed
 * with it — an unsigned one, one signed with another key, and one altered after signing (its limits raised, its
 * calls forgotten) are a SnapshotError, as bytes and as JSON. Without a key, a resumed run's limits are capped by
 * the resuming runtime's own (the forged `maxToolCalls: 3` that admitted 6 calls).
 */
import { describe, expect, it } from "vitest"
import { Cause, Effect, Exit, Fiber, Schema } from "effect"
import { CodeMode, Tool } from "../../src/index.ts"
import type { Suspended } from "../../src/host/vm-run.ts"

const KEY = "k".repeat(32)
const pause = Tool.make({ description: "waits", input: Schema.Struct({}), execute: Tool.idempotent(() => Effect.never) })
const tick = Tool.make({ description: "counts", input: Schema.Struct({}), output: Schema.Number, execute: () => Effect.succeed(1) })
const tools = { pause, tick }

/** Calls `tick` until refused: how many calls the run was admitted. */
const PROGRAM = `
  await tools.pause({})
  let n = 0
  try { for (let i = 0; i < 10; i++) n += await tools.tick({}) } catch (e) { return [n, e.message] }
  return [n]`

const suspendWith = (snapshotKey: string | undefined) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const runtime = CodeMode.make({ tools, engine: "vm", limits: { maxToolCalls: 3 }, ...(snapshotKey === undefined ? {} : { snapshotKey }) })
      const program = runtime.program(PROGRAM)
      const fiber = yield* Effect.forkChild(program.run())
      for (let k = 0; k < 50; k++) yield* Effect.yieldNow
      const s = (yield* program.suspend()) as Suspended
      yield* Fiber.join(fiber)
      return JSON.parse(JSON.stringify(s.state)) as CodeMode.Snapshot & { run: { limits: Record<string, number> } }
    }) as Effect.Effect<CodeMode.Snapshot & { run: { limits: Record<string, number> } }, unknown>,
  )

const resumeWith = (options: { snapshotKey?: string; limits?: CodeMode.Limits }, state: unknown) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const runtime = CodeMode.make({ tools: { pause: Tool.make({ description: "", input: Schema.Struct({}), execute: () => Effect.void }), tick }, engine: "vm", ...options })
      const exit = yield* Effect.exit(runtime.resume(state as CodeMode.Snapshot).run())
      if (Exit.isSuccess(exit)) return { result: exit.value as CodeMode.Result }
      return { error: Cause.squash(exit.cause) }
    }) as Effect.Effect<{ result?: CodeMode.Result; error?: unknown }>,
  )

const raised = <S extends { run: { limits: Record<string, number> } }>(s: S): S => {
  const copy = structuredClone(s)
  copy.run.limits.maxToolCalls = 6
  return copy
}

const expectRefused = (outcome: { error?: unknown }, message: RegExp) => {
  expect(outcome.error).toBeInstanceOf(CodeMode.SnapshotError)
  expect((outcome.error as Error).message).toMatch(message)
}

describe("signed snapshots", () => {
  it("a state signed with the key resumes, as JSON and as bytes", async () => {
    const state = await suspendWith(KEY)
    expect(typeof state.signature).toBe("string")
    for (const input of [state, CodeMode.toBytes(state)]) {
      const { result } = await resumeWith({ snapshotKey: KEY }, input)
      expect(result).toMatchObject({ ok: false, error: { kind: "ToolCallLimitExceeded" } })
      expect(result?.toolCalls.length).toBe(3)
    }
  })

  it("a state whose text has the signature elsewhere than last resumes as bytes too", async () => {
    const { signature, ...rest } = await suspendWith(KEY)
    const { result } = await resumeWith({ snapshotKey: KEY }, CodeMode.toBytes({ signature, ...rest } as CodeMode.Snapshot))
    expect(result?.toolCalls.length).toBe(3)
  })

  it("refuses an unsigned state", async () => {
    expectRefused(await resumeWith({ snapshotKey: KEY }, await suspendWith(undefined)), /not signed/)
  })

  it("refuses a state signed with another key", async () => {
    expectRefused(await resumeWith({ snapshotKey: KEY }, await suspendWith("another key of 32 bytes........")), /signature does not match/)
  })

  it("refuses a state whose limits were raised after signing, as JSON and as bytes", async () => {
    const forged = raised(await suspendWith(KEY))
    expectRefused(await resumeWith({ snapshotKey: KEY }, forged), /signature does not match/)
    expectRefused(await resumeWith({ snapshotKey: KEY }, CodeMode.toBytes(forged)), /signature does not match/)
  })

  it("refuses a state whose calls were forgotten after signing", async () => {
    const forged = structuredClone(await suspendWith(KEY)) as unknown as { run: { toolCalls: unknown[] } }
    forged.run.toolCalls = []
    expectRefused(await resumeWith({ snapshotKey: KEY }, forged), /signature does not match/)
  })

  it("resumes the state it checked, even from getters that answer differently later", async () => {
    const state = raised(await suspendWith(KEY))
    let reads = 0
    const tricky = { ...state }
    const honest = await suspendWith(KEY)
    Object.defineProperty(tricky, "run", { enumerable: true, get: () => (reads++ === 0 ? honest.run : state.run) })
    Object.defineProperty(tricky, "signature", { enumerable: true, value: honest.signature })
    const { result, error } = await resumeWith({ snapshotKey: KEY }, tricky)
    // Either the state is refused, or the run resumed is the one that was checked: three calls, never six.
    if (result === undefined) expect(error).toBeInstanceOf(CodeMode.SnapshotError)
    else expect(result.toolCalls.length).toBeLessThanOrEqual(3)
  })

  it("refuses keys that are not keys", () => {
    for (const snapshotKey of ["short", 42, null, new Uint8Array(8)]) {
      expect(() => CodeMode.make({ engine: "vm", snapshotKey: snapshotKey as string })).toThrow(TypeError)
    }
    expect(() => CodeMode.make({ engine: "vm", snapshotKey: new Uint8Array(32) })).not.toThrow()
  })
})

describe("unsigned snapshots", () => {
  it("a forged raise of maxToolCalls is capped by the resuming runtime's own limit", async () => {
    const forged = raised(await suspendWith(undefined))
    const { result } = await resumeWith({ limits: { maxToolCalls: 3 } }, forged)
    expect(result).toMatchObject({ ok: false, error: { kind: "ToolCallLimitExceeded" } })
    expect(result?.toolCalls.length).toBe(3)
  })

  it("the saved limits stand where the resuming runtime sets none (and where they are lower)", async () => {
    const state = await suspendWith(undefined)
    const { result } = await resumeWith({ limits: { maxToolCalls: 100 } }, state)
    expect(result?.toolCalls.length).toBe(3)
    const { result: forged } = await resumeWith({}, raised(state))
    expect(forged?.toolCalls.length).toBe(6)
  })
})
