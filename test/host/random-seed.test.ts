/** Math.random's seed (issue 15): each run draws its own sequence unless given a seed; a resumed run continues its own. */
import { Deferred, Effect, Fiber, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { CodeMode, Tool } from "../../src/index.ts"
import { ENGINES, makeFor } from "./engines.ts"

const draws = `return [Math.random(), Math.random()]`

describe.each(ENGINES)("Math.random (%s)", (engine) => {
  it("differs between two runs without a seed", async () => {
    const rt = makeFor(engine)()
    const a = await Effect.runPromise(rt.execute(draws))
    const b = await Effect.runPromise(rt.execute(draws))
    expect(a.ok && b.ok).toBe(true)
    expect(a.ok && a.value).not.toEqual(b.ok && b.value)
  })

  it("repeats with the same seed, and differs with another", async () => {
    const run = (seed: string) => Effect.runPromise(makeFor(engine)({ seed }).execute(draws))
    const [a, b, c] = [await run("s1"), await run("s1"), await run("s2")]
    expect(a).toEqual(b)
    expect(a).not.toEqual(c)
  })

  it("takes a null seed as none, and refuses any other non-string at make", async () => {
    const rt = makeFor(engine)({ seed: null as unknown as string })
    const [a, b] = [await Effect.runPromise(rt.execute(draws)), await Effect.runPromise(rt.execute(draws))]
    expect(a.ok && b.ok).toBe(true)
    expect(a.ok && a.value).not.toEqual(b.ok && b.value)
    for (const seed of ["", 5, {}]) expect(() => makeFor(engine)({ seed: seed as unknown as string })).toThrow(new TypeError("seed must be a non-empty string"))
  })
})

describe("Math.random on the VM", () => {
  it("a program's own seed wins, and a resumed run continues its sequence", async () => {
    const rt = CodeMode.make({ engine: "vm", tools: {} }) as CodeMode.VmRuntime
    const whole = await Effect.runPromise(rt.program(`return [Math.random(), Math.random(), Math.random()]`, undefined, { seed: "x" }).run())
    const resumed = await Effect.runPromise(
      Effect.gen(function* () {
        const gate = yield* Deferred.make<number>()
        const wait = Tool.make({ description: "wait", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Deferred.await(gate)) })
        const p = CodeMode.make({ engine: "vm", tools: { wait } }).program(
          `const a = Math.random(); await tools.wait(); return [a, Math.random(), Math.random()]`,
          undefined,
          { seed: "x" },
        )
        const fiber = yield* Effect.forkChild(p.run())
        yield* Effect.sleep(50)
        const s = yield* p.suspend()
        yield* Fiber.join(fiber)
        if (s.ok !== "suspended") throw new Error("not suspended")
        yield* Deferred.succeed(gate, 1)
        return yield* CodeMode.make({ engine: "vm", tools: { wait } }).resume(CodeMode.toBytes(s.state)).run()
      }),
    )
    expect(resumed).toMatchObject({ ok: true, value: (whole as { value: unknown }).value })
  })
})
