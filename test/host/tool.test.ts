/**
 * `Tool.make` (spec "Tool.make"), host side: schemas, the forms of `execute`, what a call's outcome is. These
 * drive `dispatchTool` directly with real tools; the sandbox side is in the end-to-end files.
 */
import { assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Fiber, Schema } from "effect"
import * as z from "zod"
import * as z3 from "zod/v3"
import { dispatchTool, type CallOutcome } from "../../src/host/dispatch.ts"
import * as Tool from "../../src/host/tool.ts"
import { ToolError } from "../../src/host/tool-error.ts"
import { buildIndex } from "../../src/host/tree.ts"

const call = (tool: Tool.Tool<any>, input: unknown, key = "run:1") =>
  dispatchTool(buildIndex({ t: tool }).entries[0]!, undefined, input as never, key) as Effect.Effect<CallOutcome, never, any>

const Order = Schema.Struct({ id: Schema.String, status: Schema.String })

describe("Tool.make", () => {
  it.effect("Effect Schema input is decoded before execute", () =>
    Effect.gen(function* () {
      let seen: unknown
      const t = Tool.make({
        description: "n",
        input: Schema.Struct({ n: Schema.NumberFromString }),
        execute: (input) => Effect.sync(() => void (seen = input)),
      })
      const outcome = yield* call(t, { n: "42" })
      assert.deepStrictEqual(outcome, { ok: true, value: undefined })
      assert.deepStrictEqual(seen, { n: 42 })
    }))

  it.effect("input that fails decoding is InvalidToolInput and execute never runs", () =>
    Effect.gen(function* () {
      let ran = false
      const t = Tool.make({ description: "x", input: Schema.Struct({ id: Schema.String }), execute: () => Effect.sync(() => void (ran = true)) })
      const outcome = yield* call(t, { id: 1 })
      assert.strictEqual(outcome.ok, false)
      if (outcome.ok !== false) return
      assert.strictEqual(outcome.failure.kind, "InvalidToolInput")
      assert.match(outcome.failure.message, /^Invalid input for tools\.t: Expected string/)
      assert.isFalse(ran)
    }))

  it.effect("Effect Schema output is decoded and safely copied before the program sees it", () =>
    Effect.gen(function* () {
      const t = Tool.make({
        description: "x",
        input: Schema.Struct({}),
        output: Order,
        execute: () => Effect.succeed({ id: "o1", status: "open", secret: "hunter2" }),
      })
      assert.deepStrictEqual(yield* call(t, {}), { ok: true, value: { id: "o1", status: "open" } })
    }))

  it.effect("decoded output reaches the program as JSON: a Schema.Class by its fields, a Date as its ISO string", () =>
    Effect.gen(function* () {
      class Person extends Schema.Class<Person>("Person")({ name: Schema.String }) {}
      const t = Tool.make({
        description: "x",
        input: Schema.Struct({}),
        output: Schema.Struct({ person: Person, at: Schema.Date }),
        execute: () => Effect.succeed({ person: new Person({ name: "Ada" }), at: new Date(0) }),
      })
      assert.deepStrictEqual(yield* call(t, {}), { ok: true, value: { person: { name: "Ada" }, at: "1970-01-01T00:00:00.000Z" } })
    }))

  it.effect("output that fails decoding is InvalidToolOutput; the program reads no details, the diagnostic does", () =>
    Effect.gen(function* () {
      const t = Tool.make({ description: "x", input: Schema.Struct({}), output: Order, execute: () => Effect.succeed({ id: 1, status: "open" } as never) })
      const outcome = yield* call(t, {})
      if (outcome.ok !== false) return assert.fail("expected a failure")
      assert.strictEqual(outcome.failure.kind, "InvalidToolOutput")
      assert.strictEqual(outcome.failure.message, "tools.t returned an invalid output")
      assert.match(outcome.failure.detail, /^tools\.t returned an invalid output: Expected string/)
    }))

  it.effect("output that cannot be copied as data is InvalidToolOutput", () =>
    Effect.gen(function* () {
      const t = Tool.make({ description: "x", input: {}, output: {}, execute: () => ({ n: 1n }) })
      const outcome = yield* call(t, {})
      if (outcome.ok !== false) return assert.fail("expected a failure")
      assert.strictEqual(outcome.failure.kind, "InvalidToolOutput")
      assert.match(outcome.failure.detail, /BigInt/)
    }))

  it.effect("JSON Schemas only shape the signature: values pass through, copied", () =>
    Effect.gen(function* () {
      const t = Tool.make({
        description: "x",
        input: { type: "object", properties: { id: { type: "string" } } },
        output: { type: "object" },
        execute: (input) => ({ got: input, when: new Date(0) }),
      })
      assert.deepStrictEqual(yield* call(t, { id: 7 }), { ok: true, value: { got: { id: 7 }, when: "1970-01-01T00:00:00.000Z" } })
    }))

  it.effect("a host's validate check enforces JSON Schemas: bad input never reaches execute, bad output is refused", () =>
    Effect.gen(function* () {
      let executed = 0
      const t = Tool.make({
        description: "x",
        input: { type: "object", properties: { id: { type: "string" } } },
        output: { type: "object" },
        execute: (input: any) => {
          executed++
          return input.id === "bad" ? 42 : { id: input.id }
        },
        validate: {
          input: (v: any) => (typeof v?.id === "string" ? undefined : "/id must be string"),
          output: (v) => (typeof v === "object" ? undefined : "/ must be object"),
        },
      })
      assert.deepStrictEqual(yield* call(t, { id: "a" }), { ok: true, value: { id: "a" } })
      const bad = yield* call(t, { id: 7 })
      assert.strictEqual(bad.ok === false && bad.failure.kind, "InvalidToolInput")
      assert.strictEqual(bad.ok === false && bad.failure.message, "Invalid input for tools.t: /id must be string")
      assert.strictEqual(executed, 1)
      const badOut = yield* call(t, { id: "bad" })
      assert.strictEqual(badOut.ok === false && badOut.failure.kind, "InvalidToolOutput")
      assert.match(badOut.ok === false ? badOut.failure.detail : "", /\/ must be object/)
    }))

  it.effect("Zod 4 schemas are validated like an Effect Schema is decoded", () =>
    Effect.gen(function* () {
      const t = Tool.make({
        description: "x",
        input: z.object({ n: z.coerce.number() }),
        output: z.object({ doubled: z.number() }),
        execute: async ({ n }) => ({ doubled: n * 2, extra: true }),
      })
      assert.deepStrictEqual(yield* call(t, { n: "2" }), { ok: true, value: { doubled: 4 } })
      const bad = yield* call(t, { n: "x" })
      assert.strictEqual(bad.ok === false && bad.failure.kind, "InvalidToolInput")
    }))

  it.effect("Zod 3 schemas are validated too", () =>
    Effect.gen(function* () {
      const t = Tool.make({ description: "x", input: z3.object({ s: z3.string().min(2) }), execute: () => undefined })
      const bad = yield* call(t, { s: "a" })
      if (bad.ok !== false) return assert.fail("expected a failure")
      assert.strictEqual(bad.failure.kind, "InvalidToolInput")
      assert.match(bad.failure.message, /at \["s"\]/)
    }))

  it.effect("a call without an argument to an object input with nothing required passes {}", () =>
    Effect.gen(function* () {
      let seen: unknown
      const t = Tool.make({ description: "x", input: Schema.Struct({ limit: Schema.optionalKey(Schema.Number) }), execute: (input) => void (seen = input) })
      assert.deepStrictEqual(yield* call(t, undefined), { ok: true, value: undefined })
      assert.deepStrictEqual(seen, {})
      const required = Tool.make({ description: "x", input: Schema.Struct({ id: Schema.String }), execute: () => undefined })
      const outcome = yield* call(required, undefined)
      assert.strictEqual(outcome.ok === false && outcome.failure.kind, "InvalidToolInput")
    }))

  it.effect("without output, the program receives nothing", () =>
    Effect.gen(function* () {
      const t = Tool.make({ description: "x", input: {}, execute: () => Effect.succeed({ internal: "row" }) })
      assert.deepStrictEqual(yield* call(t, {}), { ok: true, value: undefined })
    }))

  it.effect("execute may return an Effect, a Promise or a plain value, and receives the call's key", () =>
    Effect.gen(function* () {
      const out = { type: "object" } as const
      const keys: string[] = []
      const viaEffect = Tool.make({ description: "e", input: {}, output: out, execute: (_, { key }) => Effect.sync(() => (keys.push(key), { via: "effect" })) })
      const viaPromise = Tool.make({ description: "p", input: {}, output: out, execute: async (_, { key }) => (keys.push(key), { via: "promise" }) })
      const viaValue = Tool.make({ description: "v", input: {}, output: out, execute: (_, { key }) => (keys.push(key), { via: "value" }) })
      assert.deepStrictEqual(yield* call(viaEffect, {}, "r:1"), { ok: true, value: { via: "effect" } })
      assert.deepStrictEqual(yield* call(viaPromise, {}, "r:2"), { ok: true, value: { via: "promise" } })
      assert.deepStrictEqual(yield* call(viaValue, {}, "r:3"), { ok: true, value: { via: "value" } })
      assert.deepStrictEqual(keys, ["r:1", "r:2", "r:3"])
    }))

  it.effect("an Effect tool's requirements are provided by the caller of the run", () =>
    Effect.gen(function* () {
      class Prefix extends Context.Service<Prefix, { readonly value: string }>()("test/Prefix") {}
      const t = Tool.make({
        description: "x",
        input: Schema.Struct({ id: Schema.String }),
        output: Schema.Struct({ id: Schema.String }),
        execute: ({ id }) => Effect.gen(function* () { const p = yield* Prefix; return { id: p.value + id } }),
      })
      const outcome = yield* call(t, { id: "1" }).pipe(Effect.provideService(Prefix, { value: "order_" }))
      assert.deepStrictEqual(outcome, { ok: true, value: { id: "order_1" } })
    }))
})

describe("ToolError and other failures", () => {
  const failing = (execute: () => unknown) => Tool.make({ description: "x", input: {}, execute })

  it.effect("a ToolError's message and data reach the program", () =>
    Effect.gen(function* () {
      const outcome = yield* call(failing(() => Effect.fail(new ToolError({ message: "Order not found", data: { code: 404 } }))), {})
      if (outcome.ok !== false) return assert.fail("expected a failure")
      assert.deepStrictEqual(outcome.failure, { kind: "ToolFailure", message: "Order not found", detail: "Order not found", errorType: "Error", path: "tools.t", data: { code: 404 } })
    }))

  it.effect("a ToolError thrown from an async execute is still a refusal", () =>
    Effect.gen(function* () {
      const outcome = yield* call(failing(async () => { throw new ToolError({ message: "No" }) }), {})
      assert.strictEqual(outcome.ok === false && outcome.failure.message, "No")
    }))

  it.effect("other failures say only that the tool failed; the cause goes to the diagnostic", () =>
    Effect.gen(function* () {
      const cases = [
        () => Effect.fail(new Error("connection refused: postgres://admin:pw@db")),
        () => Effect.die(new Error("connection refused: postgres://admin:pw@db")),
        () => { throw new Error("connection refused: postgres://admin:pw@db") },
        () => Promise.reject(new Error("connection refused: postgres://admin:pw@db")),
      ]
      for (const execute of cases) {
        const outcome = yield* call(failing(execute), {})
        if (outcome.ok !== false) return assert.fail("expected a failure")
        assert.strictEqual(outcome.failure.kind, "ToolFailure")
        assert.strictEqual(outcome.failure.message, "tools.t failed")
        assert.strictEqual(outcome.failure.detail, "tools.t failed: Error: connection refused: postgres://admin:pw@db")
      }
    }))

  it.effect("underlying causes are reported", () =>
    Effect.gen(function* () {
      const outcome = yield* call(failing(() => Effect.fail(new Error("lookup failed", { cause: new Error("timeout") }))), {})
      assert.strictEqual(outcome.ok === false && outcome.failure.detail, "tools.t failed: Error: lookup failed (cause: Error: timeout)")
    }))

  it.effect("a tool that interrupts itself propagates interruption", () =>
    Effect.gen(function* () {
      assert.deepStrictEqual(yield* call(failing(() => Effect.interrupt), {}), { ok: "interrupted" })
    }))
})

describe("Tool.idempotent and Tool.durable", () => {
  it.effect("an idempotent execute runs as is on this path", () =>
    Effect.gen(function* () {
      const t = Tool.make({ description: "x", input: Schema.Struct({ n: Schema.Number }), output: Schema.Number, execute: Tool.idempotent(({ n }) => Effect.succeed(n + 1)) })
      assert.deepStrictEqual(yield* call(t, { n: 1 }), { ok: true, value: 2 })
      assert.strictEqual(Tool.executeKind(t.execute)._tag, "Idempotent")
    }))

  it.effect("a durable tool runs start then wait", () =>
    Effect.gen(function* () {
      const log: string[] = []
      const t = Tool.make({
        description: "x",
        input: Schema.Struct({ n: Schema.Number }),
        output: Schema.Number,
        execute: Tool.durable({
          start: ({ n }, { key }) => Effect.sync(() => (log.push(`start ${key}`), { job: n })),
          wait: ({ job }, { key }) => Effect.sync(() => (log.push(`wait ${key}`), job * 10)),
          cancel: () => Effect.sync(() => void log.push("cancel")),
        }),
      })
      assert.deepStrictEqual(yield* call(t, { n: 4 }, "r:9"), { ok: true, value: 40 })
      assert.deepStrictEqual(log, ["start r:9", "wait r:9"])
      assert.strictEqual(Tool.executeKind(t.execute)._tag, "Durable")
    }))

  it.effect("cancel runs when the call is interrupted while waiting", () =>
    Effect.gen(function* () {
      const waiting = yield* Deferred.make<void>()
      const cancelled = yield* Deferred.make<unknown>()
      const t = Tool.make({
        description: "x",
        input: {},
        execute: Tool.durable({
          start: () => Effect.succeed({ job: "j1" }),
          wait: () => Effect.andThen(Deferred.succeed(waiting, undefined), Effect.never),
          cancel: (data) => Deferred.succeed(cancelled, data),
        }),
      })
      const fiber = yield* Effect.forkChild(call(t, {}))
      yield* Deferred.await(waiting)
      yield* Fiber.interrupt(fiber)
      assert.deepStrictEqual(yield* Deferred.await(cancelled), { job: "j1" })
    }))
})
