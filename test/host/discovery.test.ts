/**
 * Spec "Discovery", sentence by sentence: `runtime.catalog()`, `CodeMode.searchSignature`,
 * `CodeMode.toolExpression(path)`, and the `search(...)` built-in as programs use it.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { CodeMode, Namespace, Tool } from "../../src/index.ts"
import { ENGINES, makeFor } from "./engines.ts"

const t = <S extends Schema.Codec<any, any, never, never>>(description: string, input: S) =>
  Tool.make({ description, input, output: Schema.Struct({ ok: Schema.Boolean }), execute: () => Effect.succeed({ ok: true }) })

const tools = {
  orders: Namespace.make({
    description: "Purchases, fulfillment, and shipment tracking",
    tools: { lookup: t("Look up an order by ID", Schema.Struct({ id: Schema.String })), cancel: t("Cancel an order", Schema.Struct({})) },
  }),
  customers: { find: t("Find a customer by email", Schema.Struct({ email: Schema.String })) },
  context7: { "resolve-library-id": t("Resolve a library id", Schema.Struct({})) },
}

describe.each(ENGINES)("%s engine", (engine) => {
  const make = makeFor(engine)
  const runtime = make({ tools })
  const value = (code: string, rt: { execute: (c: string) => Effect.Effect<CodeMode.Result> } = runtime) =>
    Effect.map(rt.execute(code), (r) => (r.ok ? r.value : r.error))

  describe("Discovery", () => {
    it("runtime.catalog() returns exact path, description and generated TypeScript signature for every visible tool", () => {
      assert.deepStrictEqual(runtime.catalog(), [
        { path: "orders.lookup", description: "Look up an order by ID", signature: "tools.orders.lookup(input: { id: string }): Promise<{ ok: boolean }>" },
        { path: "orders.cancel", description: "Cancel an order", signature: "tools.orders.cancel(input?: {}): Promise<{ ok: boolean }>" },
        { path: "customers.find", description: "Find a customer by email", signature: "tools.customers.find(input: { email: string }): Promise<{ ok: boolean }>" },
        {
          path: "context7.resolve-library-id",
          description: "Resolve a library id",
          signature: 'tools.context7["resolve-library-id"](input?: {}): Promise<{ ok: boolean }>',
        },
      ])
    })

    it("CodeMode.searchSignature and CodeMode.toolExpression(path) supply the exact callable forms", () => {
      assert.strictEqual(CodeMode.toolExpression("orders.lookup"), "tools.orders.lookup")
      assert.strictEqual(CodeMode.toolExpression("context7.resolve-library-id"), 'tools.context7["resolve-library-id"]')
      assert.match(CodeMode.searchSignature, /^search\(query\?: string, options\?: \{ namespace\?: string; limit\?: number; offset\?: number \}\): /)
      for (const entry of runtime.catalog()) assert.isTrue(entry.signature.startsWith(`${CodeMode.toolExpression(entry.path)}(`))
    })

    it.effect("the synchronous search(...) built-in is always available", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* value(`const r = search(); return [typeof search, r instanceof Promise, r.total]`, make()), ["function", false, 0])
        assert.deepStrictEqual(yield* value(`search("").total`), 4)
      }))

    it.effect("it supports exact-path lookup", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* value(`search("orders.lookup").items.map((i) => i.path)`), ["tools.orders.lookup"])
        assert.deepStrictEqual(yield* value(`search('tools.context7["resolve-library-id"]').items.length`), 1)
      }))

    it.effect("it supports namespace-scoped search", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* value(`search("order", { namespace: "orders" }).items.map((i) => i.path)`), ["tools.orders.lookup", "tools.orders.cancel"])
        assert.deepStrictEqual(yield* value(`search({ query: "email", namespace: "orders" }).total`), 0)
      }))

    it.effect("it supports empty-query browsing", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* value(`search().items.map((i) => i.path)`), [
          "tools.orders.lookup",
          "tools.orders.cancel",
          "tools.customers.find",
          'tools.context7["resolve-library-id"]',
        ])
      }))

    it.effect("it supports pagination", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* value(`const a = search("", { limit: 3 }); const b = search("", { limit: 3, offset: a.nextOffset }); return [a.hasMore, a.items.length, b.hasMore, b.items.map((i) => i.path)]`), [
          true,
          3,
          false,
          ['tools.context7["resolve-library-id"]'],
        ])
      }))

    it.effect("it returns callable paths with full signatures", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* value(`search("email").items[0]`), {
          path: "tools.customers.find",
          description: "Find a customer by email",
          signature: "tools.customers.find(input: { email: string }): Promise<{ ok: boolean }>",
        })
      }))

    it.effect("its result can be used directly, awaited, or chained with then, catch, and finally", () =>
      Effect.gen(function* () {
        const r = yield* value(`
          const direct = search("email").items[0].path
          const awaited = (await search("email")).items[0].path
          const chained = await search("email").then((r) => r.items[0].path)
          const caught = await search("email").catch(() => "never").then((r) => r.total)
          let finalized = false
          const fin = await search("email").finally(() => { finalized = true })
          return [direct, awaited, chained, caught, fin.total, finalized, typeof (await search("email")).then]
        `)
        assert.deepStrictEqual(r, ["tools.customers.find", "tools.customers.find", "tools.customers.find", 1, 1, true, "undefined"])
      }))

    it.effect("search counts toward maxToolCalls", () =>
      Effect.gen(function* () {
        const limited = make({ tools, limits: { maxToolCalls: 2 } })
        const r = yield* limited.execute(`search("a"); await tools.orders.cancel({}); search("b"); return "unreachable"`)
        assert.strictEqual(r.ok === false && r.error.kind, "ToolCallLimitExceeded")
        assert.deepStrictEqual(r.toolCalls.map((c) => c.path), ["search", "tools.orders.cancel"])
      }))

    it.effect("search calls are recorded in toolCalls with the path search", () =>
      Effect.gen(function* () {
        const r = yield* runtime.execute(`search("x"); 1`)
        assert.deepStrictEqual(r.toolCalls.map((c) => c.path), ["search"])
      }))

    it.effect("search also matches descriptions from enclosing Namespace values", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* value(`search("shipment").items.map((i) => i.path)`), ["tools.orders.lookup", "tools.orders.cancel"])
      }))

    it.effect("search is shadowed by program declarations", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* value(`const search = (q) => "mine: " + q; return search("x")`), "mine: x")
        assert.deepStrictEqual(yield* value(`function search() { return 1 } return search()`), 1)
        const r = yield* runtime.execute(`const search = 1; search`)
        assert.deepStrictEqual(r.toolCalls, [])
      }))

    it.effect("malformed search arguments throw a TypeError the program can catch", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* value(`try { search("x", { limit: -1 }) } catch (e) { return [e.name, e.message] }`), ["TypeError", "search: limit must be an integer of at least 1"])
      }))
  })
})
