/**
 * The search algorithm (src/host/search.ts) over a realistic tree; the `search(...)` built-in as programs use it is
 * tested in discovery.test.ts.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as Namespace from "../../src/host/namespace.ts"
import { rankedSearch, search, SearchRequestError } from "../../src/host/search.ts"
import * as CodeMode from "../../src/host/public.ts"
import * as Tool from "../../src/host/tool.ts"
import { buildIndex } from "../../src/host/tree.ts"

const t = (description: string, input: Schema.Top = Schema.Struct({})) => Tool.make({ description, input, execute: () => Effect.void })

const index = buildIndex({
  orders: Namespace.make({
    description: "Purchases, fulfillment, and shipment tracking",
    tools: {
      lookup: t("Look up an order by ID", Schema.Struct({ id: Schema.String })),
      cancelOrder: t("Cancel an open order"),
      refunds: { create: t("Refund a payment", Schema.Struct({ amount: Schema.Number })) },
    },
  }),
  customers: { find: t("Find a customer by email", Schema.Struct({ email: Schema.String })) },
  context7: { "resolve-library-id": t("Resolve a package name to a Context7 library id") },
})

const paths = (request: Parameters<typeof search>[1]) => search(index, request).items.map((i) => i.path)

describe("search", () => {
  it("finds a tool by its exact path, in either form", () => {
    expect(paths({ query: "orders.lookup" })).toEqual(["tools.orders.lookup"])
    expect(paths({ query: "tools.orders.lookup" })).toEqual(["tools.orders.lookup"])
    expect(paths({ query: 'tools.context7["resolve-library-id"]' })).toEqual(['tools.context7["resolve-library-id"]'])
  })

  it("browses a namespace named exactly", () => {
    expect(paths({ query: "orders" })).toEqual(["tools.orders.lookup", "tools.orders.cancelOrder", "tools.orders.refunds.create"])
  })

  it("matches words in paths (camelCase and dashes split), descriptions and signatures", () => {
    expect(paths({ query: "cancel" })[0]).toBe("tools.orders.cancelOrder")
    expect(paths({ query: "library" })[0]).toBe('tools.context7["resolve-library-id"]')
    expect(paths({ query: "email" })[0]).toBe("tools.customers.find")
    expect(paths({ query: "refund payment" })[0]).toBe("tools.orders.refunds.create")
  })

  it("matches descriptions from enclosing namespaces", () => {
    expect(paths({ query: "shipment" })).toEqual(["tools.orders.lookup", "tools.orders.cancelOrder", "tools.orders.refunds.create"])
  })

  it("scopes a search to a namespace", () => {
    expect(paths({ query: "find", namespace: "customers" })).toEqual(["tools.customers.find"])
    expect(paths({ query: "", namespace: "tools.orders.refunds" })).toEqual(["tools.orders.refunds.create"])
    expect(paths({ query: "email", namespace: "orders" })).toEqual([])
  })

  it("browses everything with an empty query, in tree order", () => {
    expect(paths({})).toHaveLength(5)
    expect(paths({ query: "  " })[0]).toBe("tools.orders.lookup")
  })

  it("paginates", () => {
    const first = search(index, { limit: 2 })
    expect(first).toMatchObject({ total: 5, offset: 0, limit: 2, hasMore: true, nextOffset: 2 })
    const last = search(index, { limit: 2, offset: 4 })
    expect(last.items.map((i) => i.path)).toEqual(['tools.context7["resolve-library-id"]'])
    expect(last.hasMore).toBe(false)
    expect("nextOffset" in last).toBe(false)
  })

  it("returns callable paths with full signatures", () => {
    expect(search(index, { query: "orders.lookup" }).items[0]).toEqual({
      path: "tools.orders.lookup",
      description: "Look up an order by ID",
      signature: "tools.orders.lookup(input: { id: string }): Promise<void>",
    })
  })

  it("refuses malformed pagination", () => {
    expect(() => search(index, { limit: 0 })).toThrow(SearchRequestError)
    expect(() => search(index, { offset: -1 })).toThrow(SearchRequestError)
    expect(() => search(index, { offset: 1.5 })).toThrow(SearchRequestError)
    expect(search(index, { limit: 1000 }).limit).toBe(100)
  })
})

describe("the host's search (runtime.search, non-spec)", () => {
  it("finds what the built-in finds, in its order, with catalog paths and scores from 0 to 1", () => {
    for (const query of ["cancel", "refund payment", "shipment", "orders", "orders.lookup", "", "nothing"]) {
      const ranked = rankedSearch(index, { query })
      expect(ranked.items.map((i) => CodeMode.toolExpression(i.path))).toEqual(paths({ query }))
      const scores = ranked.items.map((i) => i.score)
      for (const s of scores) expect(s > 0 && s <= 1).toBe(true)
    }
    // A word found in the path weighs most: both words in the path score 1, one of them in a description less.
    expect(rankedSearch(index, { query: "cancel order" }).items[0]).toEqual({
      path: "orders.cancelOrder",
      description: "Cancel an open order",
      signature: "tools.orders.cancelOrder(input?: {}): Promise<void>",
      score: 1,
    })
    expect(rankedSearch(index, { query: "email" }).items[0]!.score).toBe(0.4)
    expect(rankedSearch(index, { query: "orders.lookup" }).items.map((i) => i.score)).toEqual([1])
  })

  it("is on every runtime, and refuses what the built-in refuses with a TypeError", () => {
    const tools = { orders: { lookup: t("Look up an order by ID") } }
    for (const engine of ["legacy", "vm"] as const) {
      const runtime = CodeMode.make({ tools, engine })
      expect(runtime.search({ query: "order" }).items.map((i) => i.path)).toEqual(["orders.lookup"])
      expect(() => runtime.search({ limit: 0 })).toThrow(TypeError)
    }
  })
})
