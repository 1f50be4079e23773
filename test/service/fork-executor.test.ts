/**
 * The executor seam forks a saved state (issue 17): `resume` with `fork` continues a checkpoint as a new run, the
 * call that was in flight answered by the given outcome, later calls made under the new run's keys; the position
 * a checkpoint reports in the call journal is the calls admitted and the last one's key.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { describe, expect, it } from "vitest"
import { fromLibrary, type ToolBinding } from "../../src/server/executor.ts"

const code = "let s = 0\nfor (let n = 1; n <= 4; n++) s += await tools.t.get({ n })\nreturn s"

describe("a fork through the executor", () => {
  it("continues a checkpoint taken while call 3 was in flight, with that call answered anew", async () => {
    const executor = fromLibrary(await import("../../src/index.ts"))
    const keys: Array<string> = []
    let inFlight: string | undefined
    const tool: ToolBinding = {
      path: "t.get",
      description: "n, except 3 which never answers",
      input: { type: "object" },
      output: { type: "number" },
      mode: "idempotent",
      call: (input, { key }) =>
        Effect.suspend(() => {
          keys.push(key)
          const n = (input as { n: number }).n
          if (n !== 3) return Effect.succeed(n)
          inFlight = key
          return Effect.never
        }),
    }
    const spec = { tools: [tool], namespaces: [] }
    const original = await Effect.runPromise(executor.program({ ...spec, runId: "orig", code, limits: { timeoutMs: 30_000 } }))
    const running = Effect.runFork(original.run)
    while (inFlight === undefined) await new Promise((r) => setTimeout(r, 5))
    const checkpoint = await Effect.runPromise(original.checkpoint(true))
    await Effect.runPromise(Fiber.interrupt(running))
    expect(checkpoint?.calls).toBe(3)
    expect(checkpoint?.lastKey).toBe(inFlight)

    const forked = await Effect.runPromise(
      executor.resume({ ...spec, runId: "copy", state: checkpoint!.bytes, fork: { outcomes: { [inFlight]: { ok: true, value: 30 } } } }),
    )
    const outcome = await Effect.runPromise(forked.run)
    expect(outcome).toMatchObject({ ok: true, value: 1 + 2 + 30 + 4 })
    // Calls 1–3 were made once, by the original; the fork made only call 4, under its own key.
    expect(keys.filter((k) => k.startsWith("orig:"))).toHaveLength(3)
    expect(keys.filter((k) => k.startsWith("copy:"))).toHaveLength(1)

    // An outcome for a call the state does not have in flight: the fork fails, saying which.
    const bad = await Effect.runPromise(
      executor.resume({ ...spec, runId: "bad", state: checkpoint!.bytes, fork: { outcomes: { "other:1": { ok: true, value: 1 } } } }),
    )
    const failed = await Effect.runPromise(bad.run)
    expect(failed.ok).toBe(false)
    expect(failed.ok === false && failed.error.message).toContain("other:1")
  })
})
