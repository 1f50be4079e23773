/**
 * The spec's Quick Start, verbatim (only `await Effect.runPromise(...)` is inside a test).
 */
import { expect, it } from "@effect/vitest"
import { CodeMode, Namespace, Tool } from "../../src/index.ts"
import { Effect, Schema } from "effect"

it("the Quick Start runs and yields { id: \"order_42\", needsAttention: true }", async () => {
  const lookupOrder = Tool.make({
    description: "Look up an order by ID",
    input: Schema.Struct({ id: Schema.String }),
    output: Schema.Struct({ id: Schema.String, status: Schema.String }),
    execute: ({ id }) => Effect.succeed({ id, status: "open" }),
  })

  const runtime = CodeMode.make({
    tools: { orders: { lookup: lookupOrder } },
  })

  const result = await Effect.runPromise(
    runtime.execute(`
    const order = await tools.orders.lookup({ id: "order_42" })
    return { id: order.id, needsAttention: order.status !== "complete" }
  `),
  )

  expect(result).toEqual({
    ok: true,
    value: { id: "order_42", needsAttention: true },
    toolCalls: [{ path: "tools.orders.lookup", key: expect.stringMatching(/^[0-9a-f-]{36}:1$/) }],
  })

  // The Namespace.make variant from the same section.
  const described = CodeMode.make({
    tools: {
      orders: Namespace.make({
        description: "Purchases, fulfillment, and shipment tracking",
        tools: { lookup: lookupOrder },
      }),
    },
  })
  const again = await Effect.runPromise(described.execute(`return (await tools.orders.lookup({ id: "order_42" })).status`))
  expect(again).toMatchObject({ ok: true, value: "open" })
})
