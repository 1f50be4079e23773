/**
 * Tool trees (spec "Tool.make": nested records, `Namespace.make`, dotted keys, bracket notation) and paths.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { buildCatalog } from "../../src/host/catalog.ts"
import * as Namespace from "../../src/host/namespace.ts"
import { parsePathText, toolExpression } from "../../src/host/path.ts"
import { suggest } from "../../src/host/suggest.ts"
import * as Tool from "../../src/host/tool.ts"
import { buildIndex, findNode } from "../../src/host/tree.ts"

const tool = (description: string) =>
  Tool.make({ description, input: Schema.Struct({}), execute: () => Effect.void })

describe("tool trees", () => {
  it("nested records are the shorthand for ordinary namespaces", () => {
    const index = buildIndex({ orders: { lookup: tool("a"), refunds: { create: tool("b") } } })
    expect(index.entries.map((e) => e.path)).toEqual(["orders.lookup", "orders.refunds.create"])
  })

  it("Namespace.make gives a namespace a description; names still come from record keys", () => {
    const index = buildIndex({ orders: Namespace.make({ description: "Purchases", tools: { lookup: tool("a") } }) })
    expect(index.entries[0]!.path).toBe("orders.lookup")
    expect(index.entries[0]!.namespaceDescriptions).toEqual(["Purchases"])
    expect(findNode(index, ["orders"])!.description).toBe("Purchases")
  })

  it("namespace descriptions apply to every descendant tool, outermost first", () => {
    const index = buildIndex({
      shop: Namespace.make({ description: "Shop", tools: { orders: Namespace.make({ description: "Orders", tools: { refunds: { create: tool("r") } } }) } }),
    })
    expect(index.entries[0]!.namespaceDescriptions).toEqual(["Shop", "Orders"])
  })

  it("dots in keys create nested paths", () => {
    const index = buildIndex({ "orders.refunds.create": tool("r"), orders: { lookup: tool("l") } })
    expect(index.entries.map((e) => e.path)).toEqual(["orders.refunds.create", "orders.lookup"])
    expect(findNode(index, ["orders", "refunds"])!.children.has("create")).toBe(true)
  })

  it("other characters use bracket notation", () => {
    const index = buildIndex({ context7: { "resolve-library-id": tool("r") } })
    expect(index.entries[0]!.expression).toBe('tools.context7["resolve-library-id"]')
    expect(toolExpression("context7.resolve-library-id")).toBe('tools.context7["resolve-library-id"]')
    expect(toolExpression("a.b")).toBe("tools.a.b")
  })

  it("a path can be both callable and a namespace", () => {
    const index = buildIndex({ files: tool("list"), "files.read": tool("read") })
    const node = findNode(index, ["files"])!
    expect(node.tool?.path).toBe("files")
    expect([...node.children.keys()]).toEqual(["read"])
    expect(index.namespaces.has("files")).toBe(true)
  })

  it("the last definition of a canonical path wins", () => {
    const first = tool("first")
    const last = tool("last")
    const index = buildIndex({ "orders.lookup": first, orders: { lookup: last } })
    expect(index.entries).toHaveLength(1)
    expect(index.entries[0]!.tool).toBe(last)
    expect(buildCatalog(index)[0]!.description).toBe("last")
  })

  it("segments named constructor, prototype and __proto__ work", () => {
    const tree = JSON.parse('{"__proto__": {}}') as Record<string, unknown>
    const inner = tree["__proto__"] as Record<string, unknown>
    inner["constructor"] = tool("c")
    inner["prototype"] = tool("p")
    const index = buildIndex(tree as never)
    expect(index.entries.map((e) => e.path)).toEqual(["__proto__.constructor", "__proto__.prototype"])
    expect(index.entries.map((e) => e.expression)).toEqual(["tools.__proto__.constructor", "tools.__proto__.prototype"])
  })

  it("rejects values that are neither tools, namespaces nor records, and empty segments", () => {
    expect(() => buildIndex({ a: 1 } as never)).toThrow(TypeError)
    expect(() => buildIndex({ "a..b": tool("x") })).toThrow(TypeError)
  })
})

describe("paths", () => {
  it("parses both the canonical and the callable form", () => {
    expect(parsePathText("orders.lookup")).toEqual(["orders", "lookup"])
    expect(parsePathText("tools.orders.lookup")).toEqual(["orders", "lookup"])
    expect(parsePathText('tools.context7["resolve-library-id"]')).toEqual(["context7", "resolve-library-id"])
    expect(parsePathText("tools.x['a b']")).toEqual(["x", "a b"])
    expect(parsePathText("tools.x[")).toBeUndefined()
  })

  it("suggests the closest known path for a typo", () => {
    const known = ["orders.lookup", "orders.refund", "customers.find"]
    expect(suggest("orders.lokup", known)).toBe("orders.lookup")
    expect(suggest("Orders.Lookup", known)).toBe("orders.lookup")
    expect(suggest("order.lookup", known)).toBe("orders.lookup")
    expect(suggest("weather.today", known)).toBeUndefined()
  })
})
