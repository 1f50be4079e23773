/**
 * Row decoders in plain code, derived once per row schema from its AST: they check a row and copy it as
 * `Schema.decodeUnknownEffect` does for a valid one (same keys, same order, same copies, same shared references),
 * without an Effect per field. They know only the node kinds and checks the stores' row schemas use; a schema with
 * anything else (a transformation, a refinement of its own, a default, an unknown declaration, a tuple, a `oneOf`
 * union) gets no fast decoder at all (`rowDecoder` gives undefined), and an invalid row is left to the Schema decode
 * (`INVALID`), so a defect and its message are the Schema's own. `decodeRows` (shared.ts) uses them.
 *
 * What the Schema decode does, matched here (effect 4.1, SchemaAST `getParser`s): a Struct builds a new object with
 * only its declared keys, in declared order, an optional key absent stays absent, and a key counts as present when
 * `key in row` (own for `__proto__`); a Record (string keys) builds a new object over `Object.keys`; an Array a new
 * array; a union takes its first member, in order, that accepts the value; a Literal gives the literal; String,
 * Number (NaN too), Boolean, Null, Unknown, Date and Uint8Array give the value itself (not copied).
 */
import * as Schema from "effect/Schema"
import * as SchemaAST from "effect/SchemaAST"
import { isObject } from "../../json-guard.ts"

/** What a fast decoder gives for a value it does not accept (the Schema decode then says why). */
export const INVALID: unique symbol = Symbol("invalid row")

type Decode = (input: unknown) => unknown

/** The row schema's fast decoder, or undefined when the schema has a part it does not know (decode with Schema). */
export const rowDecoder = (schema: Schema.Decoder<unknown>): Decode | undefined => {
  try {
    return compile(schema.ast)
  } catch (e) {
    if (e === UNSUPPORTED) return undefined
    throw e
  }
}

const UNSUPPORTED = Symbol("unsupported")
const unsupported = (): never => {
  throw UNSUPPORTED
}

/** The declarations known by identity: their own guard is `instanceof` (and, for Date, a valid time). */
const DECLARATIONS = new Map<unknown, (u: unknown) => boolean>([
  [(Schema.Date.ast as SchemaAST.Declaration).run, (u) => u instanceof Date && !Number.isNaN(u.getTime())],
  [(Schema.Uint8Array.ast as SchemaAST.Declaration).run, (u) => u instanceof Uint8Array],
])

/**
 * Effect's own number checks, pure and synchronous: run as they are (`Filter.run`, which gives an issue or nothing),
 * so what they accept is exactly what the Schema decode accepts. Any other check (a refinement of a schema's own,
 * a pattern, a length) makes the schema fall back: it might not be pure, and a row schema has no need of it.
 */
const KNOWN_CHECKS = new Set([
  "effect/schema/isInt",
  "effect/schema/isFinite",
  "effect/schema/isGreaterThan",
  "effect/schema/isGreaterThanOrEqualTo",
  "effect/schema/isLessThan",
  "effect/schema/isLessThanOrEqualTo",
])

const PARSE_OPTIONS: SchemaAST.ParseOptions = {}

const filtersOf = (checks: ReadonlyArray<SchemaAST.Check<unknown>>, into: Array<SchemaAST.Filter<unknown>>): Array<SchemaAST.Filter<unknown>> => {
  for (const check of checks) {
    if (check._tag === "FilterGroup") filtersOf(check.checks, into)
    else if (KNOWN_CHECKS.has((check.annotations?.representation as { id?: unknown } | undefined)?.id as string)) into.push(check)
    else unsupported()
  }
  return into
}

const compile = (ast: SchemaAST.AST): Decode => {
  if (ast.encoding !== undefined || ast.context?.constructorDefault !== undefined) unsupported()
  if ("encodingChecks" in ast && ast.encodingChecks !== undefined) unsupported()
  const decode = compileNode(ast)
  if (ast.checks === undefined) return decode
  const filters = filtersOf(ast.checks, [])
  return (input) => {
    const value = decode(input)
    if (value === INVALID) return INVALID
    for (let i = 0; i < filters.length; i++) if (filters[i]!.run(value, ast, PARSE_OPTIONS) !== undefined) return INVALID
    return value
  }
}

const compileNode = (ast: SchemaAST.AST): Decode => {
  switch (ast._tag) {
    case "String":
      return (u) => (typeof u === "string" ? u : INVALID)
    case "Number":
      return (u) => (typeof u === "number" ? u : INVALID)
    case "Boolean":
      return (u) => (typeof u === "boolean" ? u : INVALID)
    case "Null":
      return (u) => (u === null ? u : INVALID)
    case "Unknown":
      return (u) => u
    case "Literal": {
      const literal = ast.literal
      // As Effect's: a match gives the literal itself, except 0, which gives the input (so -0 stays -0).
      return literal === 0 ? (u) => (u === 0 ? u : INVALID) : (u) => (u === literal ? literal : INVALID)
    }
    case "Declaration": {
      const is = DECLARATIONS.get(ast.run)
      if (is === undefined || ast.typeParameters.length > 0 || ast.encodingRun !== undefined) return unsupported()
      return (u) => (is(u) ? u : INVALID)
    }
    case "Union":
      return union(ast)
    case "Arrays":
      return array(ast)
    case "Objects":
      return ast.indexSignatures.length === 0 ? struct(ast) : record(ast)
    default:
      return unsupported()
  }
}

/** `anyOf`: the first member, in order, that accepts the value (Effect's candidate index only skips members that would not). */
const union = (ast: SchemaAST.Union): Decode => {
  if (ast.options?.mode === "oneOf" || ast.types.length === 0) unsupported()
  const members = ast.types.map(compile)
  if (members.length === 2) {
    const [a, b] = members as [Decode, Decode]
    return (u) => {
      const v = a(u)
      return v === INVALID ? b(u) : v
    }
  }
  return (u) => {
    for (let i = 0; i < members.length; i++) {
      const v = members[i]!(u)
      if (v !== INVALID) return v
    }
    return INVALID
  }
}

/** `Schema.Array(item)` only (no tuple elements): a new array. */
const array = (ast: SchemaAST.Arrays): Decode => {
  if (ast.elements.length !== 0 || ast.rest.length !== 1) unsupported()
  const item = compile(ast.rest[0]!)
  return (u) => {
    if (!Array.isArray(u)) return INVALID
    const out = new Array<unknown>(u.length)
    for (let i = 0; i < u.length; i++) {
      const v = item(u[i])
      if (v === INVALID) return INVALID
      out[i] = v
    }
    return out
  }
}

/** Effect's `assignProperty`: an own `__proto__` key is defined, not set (which would change the prototype). */
const assign = (out: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true })
  else out[key] = value
}

/** A Struct: its declared (string) keys only, in declared order, into a new object. */
const struct = (ast: SchemaAST.Objects): Decode => {
  const properties = ast.propertySignatures
  // The empty struct accepts any non-nullish value as it is; no row schema is one.
  if (properties.length === 0) unsupported()
  const names = properties.map((p) => (typeof p.name === "string" ? p.name : unsupported()))
  const optional = properties.map((p) => p.type.context?.isOptional === true)
  const fields = properties.map((p) => compile(p.type))
  const n = names.length
  return (u) => {
    if (!isObject(u)) return INVALID
    const out: Record<string, unknown> = {}
    for (let i = 0; i < n; i++) {
      const name = names[i]!
      if (name === "__proto__" ? !Object.hasOwn(u, name) : !(name in u)) {
        if (optional[i]) continue
        return INVALID
      }
      const v = fields[i]!(u[name])
      if (v === INVALID) return INVALID
      assign(out, name, v)
    }
    return out
  }
}

/** `Schema.Record(Schema.String, value)`: every own enumerable string key, in `Object.keys` order, into a new object. */
const record = (ast: SchemaAST.Objects): Decode => {
  if (ast.propertySignatures.length !== 0 || ast.indexSignatures.length !== 1) unsupported()
  const index = ast.indexSignatures[0]!
  if (index.parameter !== SchemaAST.string) unsupported()
  const value = compile(index.type)
  return (u) => {
    if (!isObject(u)) return INVALID
    const out: Record<string, unknown> = {}
    const keys = Object.keys(u)
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i]!
      const v = value(u[key])
      if (v === INVALID) return INVALID
      assign(out, key, v)
    }
    return out
  }
}
