/**
 * The hooks paragraph of spec "CodeMode.execute and CodeMode.make", as a program sees it (the host-side contract
 * is in hooks.test.ts).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Tool, ToolError } from "../../src/index.ts"
import { ENGINES, makeFor } from "./engines.ts"

describe.each(ENGINES)("%s engine", (engine) => {
  const make = makeFor(engine)

  describe("hooks, seen from the program", () => {
    it.effect("hooks surround every call the program makes into the host, with the call's <runId>:<callId> key", () =>
      Effect.gen(function* () {
        const seen: string[] = []
        const add = Tool.make({ description: "Add", input: Schema.Struct({ a: Schema.Number }), output: Schema.Number, execute: ({ a }) => Effect.succeed(a + 1) })
        const r = yield* make({
          tools: { math: { add } },
          hooks: { tool: { before: (c) => void seen.push(`before ${c.name} ${c.key}`), after: (c, o) => void seen.push(`after ${c.name} ${c.key} ${o._tag}`) } },
        }).execute(`search("add"); return (await tools.math.add({ a: 1 })) + (await tools.math.add({ a: 2 }))`)
        assert.strictEqual(r.ok && r.value, 5)
        const [, first, second] = r.toolCalls.map((c) => c.key)
        assert.deepStrictEqual(seen, [
          `before math.add ${first}`,
          `after math.add ${first} success`,
          `before math.add ${second}`,
          `after math.add ${second} success`,
        ])
      }))

    it.effect("a failing before hook denies the call: the host function is never called, and the program catches the failure as a thrown error", () =>
      Effect.gen(function* () {
        let executed = false
        const del = Tool.make({ description: "Delete", input: {}, execute: () => Effect.sync(() => void (executed = true)) })
        const rt = make({
          tools: { files: { delete: del } },
          hooks: { tool: { before: ({ name }) => (name === "files.delete" ? Effect.fail(new ToolError({ message: "Deleting files needs approval" })) : Effect.void) } },
        })
        const caught = yield* rt.execute(`try { await tools.files.delete({}) } catch (e) { return e.message }`)
        assert.deepStrictEqual(caught.ok && caught.value, "Deleting files needs approval")
        assert.isFalse(executed)
        // A denied tool call rejects its promise.
        const viaCatch = yield* rt.execute(`return tools.files.delete({}).catch((e) => "rejected: " + e.message)`)
        assert.deepStrictEqual(viaCatch.ok && viaCatch.value, "rejected: Deleting files needs approval")
        // Uncaught, the run fails with the call's ToolFailure.
        const uncaught = yield* rt.execute(`await tools.files.delete({})`)
        assert.deepStrictEqual(uncaught.ok === false && [uncaught.error.kind, uncaught.error.message], ["ToolFailure", "Deleting files needs approval"])
        assert.isFalse(executed)
      }))

    it.effect("after hooks see calls still running when the program returns as interrupted", () =>
      Effect.gen(function* () {
        const outcomes: string[] = []
        const slow = Tool.make({ description: "Slow", input: {}, execute: () => Effect.never })
        const r = yield* make({ tools: { slow }, hooks: { tool: { after: (_, o) => void outcomes.push(o._tag) } } }).execute(`tools.slow(); return 1`)
        assert.strictEqual(r.ok && r.value, 1)
        assert.deepStrictEqual(outcomes, ["interrupted"])
      }))
  })
})
