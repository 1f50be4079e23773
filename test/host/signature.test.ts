/**
 * Signatures (spec "Discovery": "generated TypeScript signature"): rendering from JSON Schema, JSDoc from
 * descriptions and constraints, and the same signature whatever schema language a tool is written in.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import * as z from "zod"
import * as z3 from "zod/v3"
import { buildCatalog } from "../../src/host/catalog.ts"
import { renderType, toolSignature } from "../../src/host/signature.ts"
import * as Tool from "../../src/host/tool.ts"
import { buildIndex } from "../../src/host/tree.ts"

const signatureOf = (tool: Tool.Tool<unknown>): string => buildCatalog(buildIndex({ orders: { find: tool } }))[0]!.signature

const description = "Find orders"

const effectTool = Tool.make({
  description,
  input: Schema.Struct({
    customer: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "Customer id" }),
    status: Schema.optionalKey(Schema.Literals(["open", "closed"])),
    limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))),
    tags: Schema.Array(Schema.String),
    "created-after": Schema.optionalKey(Schema.String.annotate({ format: "date-time" })),
  }),
  output: Schema.Struct({
    orders: Schema.Array(Schema.Struct({ id: Schema.String, total: Schema.Number })),
    next: Schema.NullOr(Schema.String),
  }),
  execute: () => Effect.succeed({ orders: [], next: null }),
})

const jsonTool = Tool.make({
  description,
  input: {
    type: "object",
    properties: {
      customer: { type: "string", minLength: 1, description: "Customer id" },
      status: { type: "string", enum: ["open", "closed"] },
      limit: { type: "integer", minimum: 1, maximum: 100 },
      tags: { type: "array", items: { type: "string" } },
      "created-after": { type: "string", format: "date-time" },
    },
    required: ["customer", "tags"],
  },
  output: {
    type: "object",
    properties: {
      orders: { type: "array", items: { type: "object", properties: { id: { type: "string" }, total: { type: "number" } }, required: ["id", "total"] } },
      next: { type: ["string", "null"] },
    },
    required: ["orders", "next"],
    additionalProperties: false,
  },
  execute: () => ({ orders: [], next: null }),
})

const zodTool = Tool.make({
  description,
  input: z.object({
    customer: z.string().min(1).describe("Customer id"),
    status: z.enum(["open", "closed"]).optional(),
    limit: z.number().int().min(1).max(100).optional(),
    tags: z.array(z.string()),
    "created-after": z.iso.datetime().optional(),
  }),
  output: z.object({ orders: z.array(z.object({ id: z.string(), total: z.number() })), next: z.string().nullable() }),
  execute: async () => ({ orders: [], next: null }),
})

const zod3Tool = Tool.make({
  description,
  input: z3.object({
    customer: z3.string().min(1).describe("Customer id"),
    status: z3.enum(["open", "closed"]).optional(),
    limit: z3.number().int().min(1).max(100).optional(),
    tags: z3.array(z3.string()),
    "created-after": z3.string().datetime().optional(),
  }),
  output: z3.object({ orders: z3.array(z3.object({ id: z3.string(), total: z3.number() })), next: z3.string().nullable() }),
  execute: () => ({ orders: [], next: null }),
})

describe("signature", () => {
  it("renders a tool as its callable path, typed input and Promise of its output", () => {
    expect(signatureOf(jsonTool)).toMatchInlineSnapshot(`
      "tools.orders.find(input: {
        /**
         * Customer id
         * @minLength 1
         */
        customer: string
        status?: "open" | "closed"
        /**
         * @integer
         * @minimum 1
         * @maximum 100
         */
        limit?: number
        tags: string[]
        /** @format date-time */
        "created-after"?: string
      }): Promise<{ orders: { id: string; total: number }[]; next: string | null }>"
    `)
  })

  it("the same tools defined with Effect Schema, JSON Schema and Zod render the same catalog signature", () => {
    const expected = signatureOf(jsonTool)
    expect(signatureOf(effectTool)).toBe(expected)
    expect(signatureOf(zodTool)).toBe(expected)
    expect(signatureOf(zod3Tool)).toBe(expected)
  })

  it("without output, the signature uses Promise<void>", () => {
    const t = Tool.make({ description: "Ping", input: Schema.Struct({}), execute: () => Effect.void })
    expect(signatureOf(t)).toBe("tools.orders.find(input?: {}): Promise<void>")
  })

  it("describes the encoded side of an input and the decoded side of an output", () => {
    const t = Tool.make({
      description: "Convert",
      input: Schema.Struct({ n: Schema.NumberFromString }),
      output: Schema.Struct({ n: Schema.NumberFromString }),
      execute: ({ n }) => Effect.succeed({ n: String(n) }),
    })
    expect(signatureOf(t)).toBe("tools.orders.find(input: { n: string }): Promise<{ n: number }>")
  })

  it("uses bracket notation for segments that are not identifiers", () => {
    const index = buildIndex({ context7: { "resolve-library-id": jsonTool } })
    expect(buildCatalog(index)[0]!.signature.startsWith('tools.context7["resolve-library-id"](input: ')).toBe(true)
  })

  it("renders JSON Schema forms by meaning", () => {
    expect(renderType({ anyOf: [{ const: "a" }, { const: 1 }, { type: "null" }] })).toBe('"a" | 1 | null')
    expect(renderType({ type: "array", prefixItems: [{ type: "string" }, { type: "number" }], minItems: 1, items: false })).toBe("[string, number?]")
    expect(renderType({ type: "object", additionalProperties: { type: "number" } })).toBe("Record<string, number>")
    expect(renderType({ type: "object" })).toBe("Record<string, unknown>")
    expect(renderType({})).toBe("unknown")
    expect(renderType({ not: {} })).toBe("never")
    expect(renderType({ allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { type: "object", properties: { b: { type: "number" } } }] })).toBe(
      "{ a: string } & { b?: number }",
    )
    expect(renderType({ type: "string", nullable: true })).toBe("string | null")
    expect(renderType({ type: "array", items: { anyOf: [{ type: "string" }, { type: "number" }] } })).toBe("(string | number)[]")
    const a = { type: "object", properties: { a: { enum: ["x", "y"] } }, required: ["a"] }
    const b = { type: "object", properties: { b: { type: "string", description: 'has " and { and |' } } }
    expect(renderType({ type: "array", items: { oneOf: [a, { type: "object", properties: { b: { type: "number" } } }] } })).toBe(
      '({ a: "x" | "y" } | { b?: number })[]',
    )
    expect(renderType({ type: "array", items: { allOf: [a, { type: "object" }] } })).toBe('({ a: "x" | "y" } & Record<string, unknown>)[]')
    expect(renderType({ type: "array", items: b })).toBe('{\n  /** has " and { and | */\n  b?: string\n}[]')
    expect(renderType({ type: "array", items: a })).toBe('{ a: "x" | "y" }[]')
  })

  it("resolves $ref and stops at recursion", () => {
    const tree = {
      $defs: { Node: { type: "object", properties: { value: { type: "number" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } }, required: ["value"] } },
      $ref: "#/$defs/Node",
    }
    expect(renderType(tree)).toBe("{ value: number; children?: unknown[] }")
  })

  it("escapes comment terminators in descriptions", () => {
    expect(toolSignature("tools.x", { type: "object", properties: { a: { type: "string", description: "ends */ here" } } }, undefined)).toContain(
      "/** ends *\\/ here */",
    )
  })

  it("shows defaults and patterns", () => {
    expect(renderType({ type: "object", properties: { a: { type: "string", pattern: "^a+$", default: "aa" } } })).toBe(
      '{\n  /**\n   * @pattern ^a+$\n   * @default "aa"\n   */\n  a?: string\n}',
    )
  })
})

describe("Effect Schema specifics", () => {
  it("renders Schema.Class by its fields, Date as an ISO string, tuples without size tags", () => {
    class Person extends Schema.Class<Person>("Person")({ name: Schema.String }) {}
    const t = Tool.make({
      description: "x",
      input: Schema.Struct({ pair: Schema.Tuple([Schema.String, Schema.Number]) }),
      output: Schema.Struct({ person: Person, at: Schema.Date }),
      execute: () => Effect.succeed({ person: new Person({ name: "Ada" }), at: new Date(0) }),
    })
    expect(signatureOf(t)).toBe("tools.orders.find(input: { pair: [string, number] }): Promise<{\n  person: { name: string }\n  /** @format date-time */\n  at: string\n}>")
  })
})
