/**
 * Type-level contract: "The Effect environment is inferred from the supplied tools" (spec "CodeMode.execute and
 * CodeMode.make"), and `execute`'s parameters are typed from the input schema through every form of `execute`.
 */
import { describe, expectTypeOf, it } from "@effect/vitest"
import { Context, Effect, Schema } from "effect"
import * as z from "zod"
import { CodeMode, Namespace, Tool } from "../../src/index.ts"

class Orders extends Context.Service<Orders, { readonly get: (id: string) => Effect.Effect<{ id: string; status: string }> }>()("test/Orders") {}
class Jobs extends Context.Service<Jobs, { readonly wait: (id: string) => Effect.Effect<number> }>()("test/Jobs") {}
class Audit extends Context.Service<Audit, { readonly log: (s: string) => Effect.Effect<void> }>()("test/Audit") {}

const lookup = Tool.make({
  description: "Look up an order",
  input: Schema.Struct({ id: Schema.String }),
  output: Schema.Struct({ id: Schema.String, status: Schema.String }),
  execute: ({ id }) => Orders.use((o) => o.get(id)),
})

const pure = Tool.make({
  description: "Add",
  input: z.object({ a: z.number(), b: z.number() }),
  output: z.number(),
  execute: async ({ a, b }) => a + b,
})

const job = Tool.make({
  description: "Run a job",
  input: Schema.Struct({ n: Schema.Number }),
  output: Schema.Number,
  execute: Tool.durable({
    start: ({ n }) => Effect.succeed({ job: String(n) }),
    wait: ({ job }) => Jobs.use((j) => j.wait(job)),
  }),
})

describe("types", () => {
  it("the R of runtime.execute is inferred from the tools", () => {
    const runtime = CodeMode.make({ tools: { orders: Namespace.make({ description: "Orders", tools: { lookup } }), math: { pure }, "jobs.run": job } })
    expectTypeOf(runtime.execute("1")).toEqualTypeOf<Effect.Effect<CodeMode.Result, never, Orders | Jobs>>()
  })

  it("a runtime without tools requires nothing", () => {
    expectTypeOf(CodeMode.make().execute("1")).toEqualTypeOf<Effect.Effect<CodeMode.Result, never, never>>()
    expectTypeOf(CodeMode.make({ tools: { math: { pure } } }).execute("1")).toEqualTypeOf<Effect.Effect<CodeMode.Result, never, never>>()
  })

  it("hooks' requirements join the environment", () => {
    const runtime = CodeMode.make({
      tools: { math: { pure } },
      hooks: { tool: { before: (call) => Audit.use((a) => a.log(call.name)) } },
    })
    expectTypeOf(runtime.execute("1")).toEqualTypeOf<Effect.Effect<CodeMode.Result, never, Audit>>()
  })

  it("CodeMode.execute infers the same environment", () => {
    expectTypeOf(CodeMode.execute({ tools: { lookup }, code: "1" })).toEqualTypeOf<Effect.Effect<CodeMode.Result, never, Orders>>()
  })

  it("execute's input is the decoded input, through idempotent and durable too", () => {
    Tool.make({
      description: "x",
      input: Schema.Struct({ n: Schema.NumberFromString }),
      execute: (input, context) => {
        expectTypeOf(input).toEqualTypeOf<{ readonly n: number }>()
        expectTypeOf(context.key).toEqualTypeOf<string>()
      },
    })
    Tool.make({
      description: "x",
      input: z.object({ s: z.string() }),
      execute: Tool.idempotent((input) => {
        expectTypeOf(input).toEqualTypeOf<{ s: string }>()
      }),
    })
    Tool.make({
      description: "x",
      input: { type: "object" },
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<unknown>()
      },
    })
  })

  it("execute must produce the output schema's encoded type", () => {
    Tool.make({
      description: "x",
      input: Schema.Struct({}),
      output: Schema.Struct({ n: Schema.Number }),
      // @ts-expect-error a string is not a number
      execute: () => Effect.succeed({ n: "1" }),
    })
  })
})
