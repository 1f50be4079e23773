import { describe, expect, it } from "vitest"
import { document, yaml } from "../../src/server/openapi.ts"
import { parse, stringify, type Json } from "../../src/server/yaml.ts"

describe("yaml", () => {
  const samples: Array<Json> = [
    { a: 1, b: "two", c: [1, 2, { d: null }], e: {}, f: [], g: true },
    { "200": { description: "x" }, "/v1/runs/{id}": { get: { tags: ["runs"] } } },
    ["plain", "needs: quoting", "# not a comment", "yes", "1.0", "", " leading", "trailing ", 'quote " inside', "multi\nline"],
    { nested: [[1, 2], ["a", { b: 1 }]], deep: { deeper: { deepest: [{ x: 1, y: [{ z: "w" }] }] } } },
    { $ref: "#/components/schemas/Run", "key with space": -1.5e-7, unicode: "é ✓" },
    "just a string",
    42,
    null,
  ]
  for (const [i, sample] of samples.entries()) {
    it(`round-trips sample ${i}`, () => {
      expect(parse(stringify(sample))).toStrictEqual(sample)
    })
  }

  it("writes block style with quoted keys where YAML would retype them", () => {
    expect(stringify({ responses: { "200": { description: "Run" } }, tags: ["runs"], version: "0.1.0" })).toBe(
      'responses:\n  "200":\n    description: Run\ntags:\n  - runs\nversion: "0.1.0"\n',
    )
  })

  it("reads the OpenAPI document back exactly", () => {
    expect(parse(yaml())).toStrictEqual(document())
  })

  it("refuses what it does not understand, naming the line", () => {
    expect(() => parse("a: 1\n  b: 2\n")).toThrow(/line 2/)
    expect(() => parse("a: 1\na: 2\n")).toThrow(/duplicate key a/)
    expect(() => parse("a:\n")).toThrow(/no value/)
  })
})
