/**
 * Hooks (spec "CodeMode.execute and CodeMode.make", the hooks paragraph, and the contract in src/host/hooks.ts):
 * one test per sentence, host side. What the program sees of a denied call is in hooks-program.test.ts.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Schema } from "effect"
import { dispatchTool, type CallOutcome } from "../../src/host/dispatch.ts"
import type { Hooks, ToolHookCall, ToolHookOutcome } from "../../src/host/hooks.ts"
import * as Tool from "../../src/host/tool.ts"
import { ToolError } from "../../src/host/tool-error.ts"
import { buildIndex } from "../../src/host/tree.ts"

const call = (tool: Tool.Tool<any>, hooks: Hooks, input: unknown, key = "run:1") =>
  dispatchTool(buildIndex({ orders: { lookup: tool } }).entries[0]!, hooks, input as never, key) as Effect.Effect<CallOutcome, never, any>

const lookup = (execute: (input: { readonly id: number }) => unknown = ({ id }) => Effect.succeed({ id, status: "open" })) =>
  Tool.make({
    description: "Look up",
    input: Schema.Struct({ id: Schema.NumberFromString }),
    output: Schema.Struct({ id: Schema.Number, status: Schema.String }),
    execute: execute as never,
  })

describe("tool hooks", () => {
  it.effect("tool.before and tool.after receive { name, input, key } with decoded input and the call's key", () =>
    Effect.gen(function* () {
      const seen: Array<[string, ToolHookCall]> = []
      const hooks: Hooks = {
        tool: {
          before: (c) => void seen.push(["before", c]),
          after: (c) => void seen.push(["after", c]),
        },
      }
      yield* call(lookup(), hooks, { id: "7" }, "run-9:3")
      const expected = { name: "orders.lookup", input: { id: 7 }, key: "run-9:3" }
      assert.deepStrictEqual(seen, [["before", expected], ["after", expected]])
    }))

  it.effect("an after hook receives success with its value", () =>
    Effect.gen(function* () {
      let outcome: ToolHookOutcome | undefined
      yield* call(lookup(), { tool: { after: (_, o) => void (outcome = o) } }, { id: "7" })
      assert.deepStrictEqual(outcome, { _tag: "success", value: { id: 7, status: "open" } })
    }))

  it.effect("an after hook receives failure with its error", () =>
    Effect.gen(function* () {
      let outcome: ToolHookOutcome | undefined
      const boom = new Error("boom")
      yield* call(lookup(() => Effect.fail(boom)), { tool: { after: (_, o) => void (outcome = o) } }, { id: "7" })
      assert.deepStrictEqual(outcome, { _tag: "failure", error: boom })
    }))

  it.effect("an after hook receives interrupted", () =>
    Effect.gen(function* () {
      const started = yield* Deferred.make<void>()
      const after = yield* Deferred.make<ToolHookOutcome>()
      const fiber = yield* Effect.forkChild(
        call(lookup(() => Effect.andThen(Deferred.succeed(started, undefined), Effect.never)), { tool: { after: (_, o) => Deferred.succeed(after, o) } }, { id: "1" }),
      )
      yield* Deferred.await(started)
      yield* Fiber.interrupt(fiber)
      assert.deepStrictEqual(yield* Deferred.await(after), { _tag: "interrupted" })
    }))

  it.effect("a failing before hook denies the call: the host function is never called", () =>
    Effect.gen(function* () {
      let executed = false
      let afterRan = false
      const outcome = yield* call(
        lookup(() => Effect.sync(() => (executed = true))),
        { tool: { before: () => Effect.fail(new Error("not allowed")), after: () => void (afterRan = true) } },
        { id: "1" },
      )
      assert.isFalse(executed)
      assert.isFalse(afterRan)
      if (outcome.ok !== false) return assert.fail("expected a denial")
      assert.strictEqual(outcome.failure.kind, "ToolFailure")
      assert.strictEqual(outcome.failure.message, "tools.orders.lookup was denied")
      assert.strictEqual(outcome.failure.detail, "tools.orders.lookup was denied: Error: not allowed")
    }))

  it.effect("a before hook denies by throwing, rejecting or failing; a ToolError's message reaches the program", () =>
    Effect.gen(function* () {
      const denials = [
        () => { throw new ToolError({ message: "Ask a human first" }) },
        () => Promise.reject(new ToolError({ message: "Ask a human first" })),
        () => Effect.fail(new ToolError({ message: "Ask a human first" })),
      ]
      for (const before of denials) {
        const outcome = yield* call(lookup(), { tool: { before } }, { id: "1" })
        assert.strictEqual(outcome.ok === false && outcome.failure.message, "Ask a human first")
      }
    }))

  it.effect("a before hook runs after input decoding: invalid input fires no hook", () =>
    Effect.gen(function* () {
      let fired = false
      const outcome = yield* call(lookup(), { tool: { before: () => void (fired = true) } }, { id: 5 })
      assert.strictEqual(outcome.ok === false && outcome.failure.kind, "InvalidToolInput")
      assert.isFalse(fired)
    }))

  it.effect("a failing after hook turns the call into a ToolFailure", () =>
    Effect.gen(function* () {
      const outcome = yield* call(lookup(), { tool: { after: () => Effect.fail(new ToolError({ message: "Redacted" })) } }, { id: "1" })
      assert.strictEqual(outcome.ok === false && outcome.failure.message, "Redacted")
    }))

  it.effect("hooks may be Effects whose requirements join the runtime's environment", () =>
    Effect.gen(function* () {
      class Audit extends Context.Service<Audit, { readonly log: Array<string> }>()("test/Audit") {}
      const audit = { log: [] as Array<string> }
      const hooks = {
        tool: {
          before: (c: ToolHookCall) => Effect.gen(function* () { (yield* Audit).log.push(`before ${c.name}`) }),
          after: (c: ToolHookCall, o: ToolHookOutcome) => Effect.gen(function* () { (yield* Audit).log.push(`after ${c.name} ${o._tag}`) }),
        },
      }
      yield* call(lookup(), hooks, { id: "1" }).pipe(Effect.provideService(Audit, audit))
      assert.deepStrictEqual(audit.log, ["before orders.lookup", "after orders.lookup success"])
    }))
})
