/**
 * The stores' plain-code row decoders (src/server/store/postgres/row-decoder.ts) against the Schema decode they
 * stand in for: for every row schema a store decodes, the same value for a valid row (keys, their order, which
 * parts are copies and which the row's own values), INVALID for an invalid one (then `decodeRows` dies with the
 * Schema's own message), and no fast decoder at all for a schema with a part it does not know. No database: rows
 * are what the pg client gives (Dates, Buffers, parsed jsonb).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as Arbitrary from "effect/Arbitrary"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { describe, expect, it } from "vitest"
import { Limits, SourceLocation } from "../../src/server/api.ts"
import * as calls from "../../src/server/store/postgres/calls.ts"
import * as events from "../../src/server/store/postgres/events.ts"
import * as idempotency from "../../src/server/store/postgres/idempotency.ts"
import * as keys from "../../src/server/store/postgres/keys.ts"
import { INVALID, rowDecoder } from "../../src/server/store/postgres/row-decoder.ts"
import * as runs from "../../src/server/store/postgres/runs.ts"
import { decodeRows } from "../../src/server/store/postgres/shared.ts"
import * as tools from "../../src/server/store/postgres/tools.ts"
import { claimRow, finishRow, run, tool } from "./fixtures/rows.ts"

type Row = Schema.Decoder<unknown>
const STORES: Record<string, Record<string, Row>> = {
  "calls.ts": calls.rowSchemas,
  "events.ts": events.rowSchemas,
  "idempotency.ts": idempotency.rowSchemas,
  "keys.ts": keys.rowSchemas,
  "runs.ts": runs.rowSchemas,
  "tools.ts": tools.rowSchemas,
}
const ALL: Array<[string, Row]> = Object.values(STORES).flatMap((schemas) => Object.entries(schemas))

const schemaDecode = (schema: Row, input: unknown): Exit.Exit<unknown, unknown> => Effect.runSyncExit(Schema.decodeUnknownEffect(schema)(input))

/**
 * Where the fast decoder's output differs from the Schema decode's for `input` (empty when it does not): the same
 * structure, keys in the same order, numbers by `Object.is`, the same prototypes, and at every object the same
 * answer to "is this the input's own object, or a copy?".
 */
const differences = (expected: unknown, actual: unknown, input: unknown, at = "$", out: Array<string> = []): Array<string> => {
  if (typeof expected !== "object" || expected === null) {
    if (!Object.is(expected, actual)) out.push(`${at}: ${String(actual)} instead of ${String(expected)}`)
    return out
  }
  if (typeof actual !== "object" || actual === null) return (out.push(`${at}: ${String(actual)} instead of an object`), out)
  if ((expected === input) !== (actual === input)) out.push(`${at}: ${expected === input ? "a copy instead of the row's own" : "the row's own instead of a copy"}`)
  if (Object.getPrototypeOf(expected) !== Object.getPrototypeOf(actual)) out.push(`${at}: another prototype`)
  if (expected === input && actual === input) return out
  const ek = Reflect.ownKeys(expected)
  const ak = Reflect.ownKeys(actual)
  if (ek.join("\u0000") !== ak.join("\u0000")) out.push(`${at}: keys [${ak.map(String)}] instead of [${ek.map(String)}]`)
  for (const k of ek) {
    const i = typeof input === "object" && input !== null ? (input as Record<PropertyKey, unknown>)[k] : undefined
    differences((expected as Record<PropertyKey, unknown>)[k], (actual as Record<PropertyKey, unknown>)[k], i, `${at}.${String(k)}`, out)
  }
  return out
}

/** Disagreements of `decode` with the Schema decode over `inputs` (valid ones must match, invalid ones be INVALID). */
const disagreements = (schema: Row, decode: (u: unknown) => unknown, inputs: ReadonlyArray<unknown>): Array<string> =>
  inputs.flatMap((input, n) => {
    const expected = schemaDecode(schema, input)
    const actual = decode(input)
    if (Exit.isFailure(expected)) return actual === INVALID ? [] : [`#${n}: accepted a row the Schema rejects`]
    if (actual === INVALID) return [`#${n}: rejected a row the Schema accepts`]
    return differences(expected.value, actual, input).map((d) => `#${n} ${d}`)
  })

const samples = (schema: Row, count: number, seed: number): ReadonlyArray<unknown> =>
  Effect.runSync(Arbitrary.sampleEffect(Arbitrary.schema(schema as Schema.Codec<unknown>), { count, seed }))

/** The row with each column whose type admits null set to null (and an excess column the decode must drop). */
const nulled = (schema: Row, row: Record<string, unknown>): Record<string, unknown> => {
  const out: Record<string, unknown> = { ...row, excess: "not a column" }
  for (const p of (schema.ast as SchemaAST.Objects).propertySignatures) {
    if (SchemaAST.isUnion(p.type) && p.type.types.some(SchemaAST.isNull)) out[p.name as string] = null
  }
  return out
}

describe("row decoders", () => {
  it("cover every schema a store decodes, and each has a fast decoder", () => {
    const dir = path.join(import.meta.dirname, "../../src/server/store/postgres")
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith(".ts"))) {
      const used = [...fs.readFileSync(path.join(dir, file), "utf8").matchAll(/decodeRows\((\w+)\)/g)].map((m) => m[1]!)
      for (const name of used) expect(Object.keys(STORES[file] ?? {}), `${file}: ${name}`).toContain(name)
    }
    for (const [name, schema] of ALL) expect(rowDecoder(schema), name).toBeTypeOf("function")
  })

  it.each(ALL)("%s: agrees with the Schema decode on generated rows, and on them with every nullable column null", (_, schema) => {
    const decode = rowDecoder(schema)!
    const rows = samples(schema, 150, 7)
    const withNulls = rows.slice(0, 20).map((r) => nulled(schema, r as Record<string, unknown>))
    for (const r of withNulls) expect(Exit.isSuccess(schemaDecode(schema, r))).toBe(true)
    expect(disagreements(schema, decode, [...rows, ...withNulls])).toEqual([])
  })

  it("agree on the claim and finish rows of a resume, whole and with their nullable columns null", () => {
    const claim = runs.rowSchemas.ClaimedRaw as Row
    const finish = runs.rowSchemas.Finished as Row
    const valid: Array<[Row, unknown]> = [
      [claim, claimRow],
      [claim, nulled(claim, claimRow)],
      [claim, { ...claimRow, registered_tools: [(({ previous_secret: _, ...rest }) => rest)(tool)] }], // an optional key absent
      [finish, finishRow],
      [finish, nulled(finish, finishRow)],
      [finish, { ...finishRow, locations: {} }],
    ]
    for (const [schema, row] of valid) expect(disagreements(schema, rowDecoder(schema)!, [row])).toEqual([])
    const out = rowDecoder(claim)!(claimRow) as typeof claimRow
    expect(out).not.toBe(claimRow)
    expect(out.snapshot).toBe(claimRow.snapshot) // a Buffer is a Uint8Array: kept, as the Schema keeps it
    expect(out.created_at).toBe(claimRow.created_at)
    expect(out.journal).not.toBe(claimRow.journal)
    expect(out.limits).not.toBe(claimRow.limits)
  })

  const invalid: Array<[string, Row, unknown]> = [
    ["a location off the line grid", runs.rowSchemas.Finished as Row, { ...finishRow, locations: { k: { line: 1.5, column: 1 } } }],
    ["a non-positive timeout", runs.rowSchemas.Finished as Row, { ...finishRow, limits: { timeoutMs: 0 } }],
    ["an infinite timeout", runs.rowSchemas.RunRaw as Row, { ...run, limits: { timeoutMs: Infinity } }],
    ["a negative tool-call budget", runs.rowSchemas.ClaimedRaw as Row, { ...claimRow, limits: { maxToolCalls: -1 } }],
    ["an unknown status", runs.rowSchemas.ClaimedRaw as Row, { ...claimRow, status: "paused" }],
    ["an unknown journal state", runs.rowSchemas.ClaimedRaw as Row, { ...claimRow, journal: { k: { ...claimRow.journal["run-7f3a:1"], state: "lost" } } }],
    ["a reply that is neither", runs.rowSchemas.ClaimedRaw as Row, { ...claimRow, control: { id: "c", action: "cancel", reply: { ok: "yes" } } }],
    ["a missing column", runs.rowSchemas.Finished as Row, (({ locations: _, ...rest }) => rest)(finishRow)],
    ["an invalid Date", keys.rowSchemas.KeyRaw as Row, { id: "k", tenant: "t", name: null, created_at: new Date(NaN), revoked: false }],
    ["a string for a Date", events.rowSchemas.EventRow as Row, { seq: "1", type: "run.created", data: {}, created_at: "2026-12-07" }],
    ["a bytea as an array", runs.rowSchemas.State as Row, { seq: 1, snapshot: [1, 2], seal: null }],
    ["an undefined optional key", runs.rowSchemas.ClaimedRaw as Row, { ...claimRow, registered_tools: [{ ...tool, previous_secret: undefined }] }],
  ]

  it.each(invalid)("rejects %s, and decodeRows dies with the Schema's message", (_, schema, row) => {
    expect(rowDecoder(schema)!(row)).toBe(INVALID)
    const expected = Effect.runSyncExit(Schema.decodeUnknownEffect(Schema.Array(schema))([row]))
    const actual = Effect.runSyncExit(decodeRows(schema)([row]))
    expect(Exit.isFailure(expected) && Exit.isFailure(actual)).toBe(true)
    const message = (exit: Exit.Exit<unknown, unknown>) => String(Cause.squash((exit as Exit.Failure<unknown, unknown>).cause))
    expect(message(actual)).toBe(message(expected))
    expect(message(actual)).not.toBe("")
  })

  it("rejects, for every column of every schema, a value of the wrong kind and the column's absence", () => {
    const wrong = [undefined, 1.5, "x", true, {}, [], new Date(0)]
    for (const [name, schema] of ALL) {
      const decode = rowDecoder(schema)!
      const [row] = samples(schema, 1, 11) as Array<Record<string, unknown>>
      const variants: Array<unknown> = [null, [], "row"]
      for (const p of (schema.ast as SchemaAST.Objects).propertySignatures) {
        const k = p.name as string
        for (const w of wrong) variants.push({ ...row, [k]: w })
        const { [k]: _, ...without } = row!
        variants.push(without)
      }
      expect(disagreements(schema, decode, variants), name).toEqual([])
    }
  })

  it("the comparison catches a decoder that returns the row as it is, or drops a check", () => {
    const finish = runs.rowSchemas.Finished as Row
    expect(disagreements(finish, (u) => u, [nulled(finish, finishRow)])).not.toEqual([])
    expect(disagreements(finish, (u) => u, [finishRow])).not.toEqual([])
    // SourceLocation without its Int checks, and Limits without its bounds: a decoder that dropped them.
    const unchecked = Schema.Struct({ ...runs.rowSchemas.Finished.fields, limits: Schema.Struct({ timeoutMs: Schema.optionalKey(Schema.Number) }), locations: Schema.NullOr(Schema.Record(Schema.String, Schema.Struct({ line: Schema.Number, column: Schema.Number }))) })
    const lax = rowDecoder(unchecked)!
    expect(disagreements(finish, lax, [{ ...finishRow, locations: { k: { line: 1.5, column: 1 } } }])).not.toEqual([])
    expect(disagreements(finish, lax, [{ ...finishRow, limits: { timeoutMs: -1 } }])).not.toEqual([])
    expect(lax({ ...finishRow, limits: { timeoutMs: -1 } })).not.toBe(INVALID)
  })

  it("decodeRows gives copies with the declared columns only", () => {
    const rows = [{ ...finishRow, extra: 1 }, nulled(runs.rowSchemas.Finished as Row, finishRow)]
    const out = Effect.runSync(decodeRows(runs.rowSchemas.Finished as Row)(rows)) as Array<Record<string, unknown>>
    expect(out).not.toBe(rows)
    expect(out[0]).not.toBe(rows[0])
    expect(Object.keys(out[0]!)).toEqual(Object.keys(runs.rowSchemas.Finished.fields))
    expect(out).toEqual(Effect.runSync(Schema.decodeUnknownEffect(Schema.Array(runs.rowSchemas.Finished))(rows)))
  })

  it("follow the Schema decode where the stores' rows do not reach: union order, inherited and __proto__ keys, -0", () => {
    const overlapping = Schema.Struct({ u: Schema.Union([Schema.Struct({ a: Schema.String }), Schema.Struct({ a: Schema.String, b: Schema.String })]) })
    const zero = Schema.Struct({ z: Schema.Literal(0), n: Schema.Number, o: Schema.optionalKey(Schema.Unknown) })
    const proto = Schema.Struct({ ["__proto__"]: Schema.String, r: Schema.Record(Schema.String, Schema.Number) })
    const inherited = Object.create({ a: "from the prototype" }) as object
    const cases: Array<[Row, Array<unknown>]> = [
      [overlapping, [{ u: { a: "x", b: "y" } }, { u: { b: "y" } }, { u: { a: "x" } }]],
      [zero, [{ z: -0, n: -0 }, { z: 0, n: NaN, o: undefined }, { z: 1, n: 0 }, { n: 0 }]],
      [proto, [JSON.parse('{"__proto__": "p", "r": {"__proto__": 1, "2": 2, "1": 1, "b": 3}}'), { r: {} }, JSON.parse('{"__proto__": 1, "r": {}}')]],
      [Schema.Struct({ a: Schema.String }), [inherited, Object.assign(Object.create(null), { a: "x" })]],
      [Schema.Struct({ ["__proto__"]: Schema.optionalKey(Schema.Unknown) }), [{}, JSON.parse('{"__proto__": [1]}')]],
    ]
    for (const [schema, inputs] of cases) expect(disagreements(schema, rowDecoder(schema)!, inputs)).toEqual([])
  })

  describe("fall back to the Schema decode for what they do not know", () => {
    const unknownParts: Array<[string, Row]> = [
      ["a refinement of its own", Schema.Struct({ a: Schema.String.check(Schema.makeFilter((s: string) => s.length > 0)) })],
      ["a pattern", Schema.Struct({ a: Schema.String.check(Schema.isPattern(/^a/)) })],
      ["a refinement on a struct", Schema.Struct({ a: Schema.Number }).check(Schema.makeFilter((r: { a: number }) => r.a > 0))],
      ["a transformation", Schema.Struct({ a: Schema.NumberFromString })],
      ["a decoding default", Schema.Struct({ a: Schema.optionalKey(Schema.String).pipe(Schema.withDecodingDefaultKey(Effect.succeed("d"))) })],
      ["a constructor default", Schema.Struct({ a: Schema.String.pipe(Schema.withConstructorDefault(Effect.succeed("d"))) })],
      ["a declaration it does not know", Schema.Struct({ a: Schema.instanceOf(Map) })],
      ["a tuple", Schema.Struct({ a: Schema.Tuple([Schema.String]) })],
      ["a oneOf union", Schema.Struct({ a: Schema.Union([Schema.String, Schema.Number], { mode: "oneOf" }) })],
      ["a symbol", Schema.Struct({ a: Schema.Symbol })],
      ["a nested refinement", Schema.Struct({ a: Schema.NullOr(Schema.Array(Schema.Struct({ b: Schema.Int.check(Schema.isMultipleOf(2)) }))) })],
    ]
    it.each(unknownParts)("%s: no fast decoder", (_, schema) => {
      expect(rowDecoder(schema)).toBeUndefined()
    })

    it("and decodeRows still applies the refinement", () => {
      const schema = unknownParts[0]![1]
      const exit = Effect.runSyncExit(decodeRows(schema)([{ a: "" }]))
      expect(Exit.isFailure(exit)).toBe(true)
      expect(Effect.runSync(decodeRows(schema)([{ a: "x", b: 1 }]))).toEqual([{ a: "x" }])
    })

    it("but know Effect's own number checks, run as they are", () => {
      expect(rowDecoder(Schema.Struct({ location: SourceLocation, limits: Limits }))).toBeTypeOf("function")
    })
  })
})
