/**
 * Effect Schema to JSON Schema, for model-visible signatures only. Effect's own `Schema.toJsonSchemaDocument`
 * describes the canonical JSON *codec* of a schema (a `Number` becomes `number | "Infinity" | "NaN"`, an optional
 * key accepts `null`, and checks on a transformed node are dropped), which is not what a program passes or receives
 * here: a tool's input is decoded with the schema itself and its output is the decoded value. So this module walks
 * the schema's public representation (`SchemaRepresentation.toRepresentation`) of the side the program sees — the
 * encoded side of an input, the type side of an output — and emits the plain JSON Schema a Zod or hand-written
 * schema of the same shape would have, so all three render the same signature. Checks are translated from their
 * representation ids (`effect/schema/isMinLength`...); an unknown check is simply not shown, which is safe because
 * the schema itself still validates.
 */
import { createRequire } from "node:module"
import type * as SchemaAST from "effect/SchemaAST"
import type * as SchemaRepresentation from "effect/SchemaRepresentation"
import type * as Schema from "effect/Schema"
import type { JsonSchema } from "./json-schema.ts"

type Rep = SchemaRepresentation.Representation
type Check = SchemaRepresentation.Check

/** The side of a schema to describe: what the program passes (`encoded`) or what it receives (`type`). */
export type Side = "encoded" | "type"

// Loaded with the first Effect Schema to render (schema.ts): a host without any never pays for them.
const require = createRequire(import.meta.url)
let modules: { readonly ast: typeof SchemaAST; readonly representation: typeof SchemaRepresentation } | undefined
const schemaModules = () =>
  (modules ??= {
    ast: require("effect/SchemaAST") as typeof SchemaAST,
    representation: require("effect/SchemaRepresentation") as typeof SchemaRepresentation,
  })

export const effectToJsonSchema = (schema: Schema.Top, side: Side): JsonSchema => {
  const { ast: AST, representation } = schemaModules()
  const ast = side === "encoded" ? AST.toEncoded(schema.ast) : AST.toType(schema.ast)
  const document = representation.toRepresentation(ast)
  const defs: Record<string, JsonSchema> = {}
  for (const [name, rep] of Object.entries(document.references)) defs[name] = compile(rep)
  const root = compile(document.representation)
  return Object.keys(defs).length === 0 ? root : { ...root, $defs: defs }
}

/** The JSON Schema keywords Effect annotations carry over as they are. */
const ANNOTATION_KEYS = ["title", "description", "default", "examples", "format", "readOnly", "writeOnly"] as const

const annotationsOf = (annotations: Schema.Annotations.Annotations | undefined): JsonSchema => {
  const out: Record<string, unknown> = {}
  if (annotations === undefined) return out
  for (const key of ANNOTATION_KEYS) {
    const v = (annotations as Record<string, unknown>)[key]
    if (v !== undefined) out[key] = v
  }
  return out
}

const compile = (rep: Rep): JsonSchema => {
  const base = compileNode(rep)
  const checks = "checks" in rep ? checksOf(rep.checks, rep._tag) : {}
  const annotations = "annotations" in rep ? annotationsOf(rep.annotations) : {}
  // An integer check turns `number` into `integer`, as Zod and JSON Schema say it.
  const { integer, ...constraints } = checks as JsonSchema & { integer?: boolean }
  const typed = integer === true && base.type === "number" ? { ...base, type: "integer" } : base
  return { ...typed, ...constraints, ...annotations }
}

const compileNode = (rep: Rep): JsonSchema => {
  switch (rep._tag) {
    case "Null":
      return { type: "null" }
    case "String":
    case "TemplateLiteral":
      return { type: "string" }
    case "Number":
      return { type: "number" }
    case "Boolean":
      return { type: "boolean" }
    case "Literal":
      return literal(rep.literal)
    case "Enum":
      return { enum: rep.enums.map(([, v]) => v) }
    case "Never":
      return { not: {} }
    case "Objects":
      return objects(rep)
    case "Arrays":
      return arrays(rep)
    case "Union":
      return union(rep.types)
    case "Suspend":
      return compile(rep.thunk)
    case "Reference":
      return { $ref: `#/$defs/${rep.$ref}` }
    case "ObjectKeyword":
      return { type: "object" }
    case "Declaration":
      return declaration(rep)
    // No JSON form (undefined, void, bigint, symbols): anything the schema accepts.
    case "Undefined":
    case "Void":
    case "Unknown":
    case "Any":
    case "BigInt":
    case "Symbol":
    case "UniqueSymbol":
      return {}
  }
}

/**
 * Declarations are opaque types, but the program only ever sees them as JSON: a `Schema.Class` instance as its
 * fields (its one type parameter is the fields' struct), a `Date` as its ISO string. Others stay unconstrained.
 */
const declaration = (rep: SchemaRepresentation.Declaration): JsonSchema => {
  if (rep.representation?.id === "effect/schema/Date") return { type: "string", format: "date-time" }
  const [fields, ...more] = rep.typeParameters
  if (fields !== undefined && more.length === 0 && fields._tag === "Objects") return compile(fields)
  return {}
}

const literal = (v: SchemaAST.LiteralValue): JsonSchema =>
  typeof v === "string"
    ? { type: "string", const: v }
    : typeof v === "number"
      ? { type: "number", const: v }
      : typeof v === "boolean"
        ? { type: "boolean", const: v }
        : {}

/** Undefined members only mark optionality, which the enclosing property or element already says. */
const isUndefinedLike = (rep: Rep): boolean => rep._tag === "Undefined" || rep._tag === "Void"

const union = (types: ReadonlyArray<Rep>): JsonSchema => {
  const members = types.filter((t) => !isUndefinedLike(t))
  if (members.length === 1) return compile(members[0]!)
  if (members.length > 0 && members.every((t) => t._tag === "Literal" && t.checks.length === 0 && t.annotations === undefined)) {
    return { enum: members.map((t) => (t as SchemaRepresentation.Literal).literal) }
  }
  return { anyOf: members.map(compile) }
}

const objects = (rep: SchemaRepresentation.Objects): JsonSchema => {
  const properties: Record<string, JsonSchema> = {}
  const required: string[] = []
  for (const p of rep.propertySignatures) {
    if (typeof p.name !== "string") continue
    properties[p.name] = { ...compile(p.type), ...annotationsOf(p.annotations) }
    if (!p.isOptional) required.push(p.name)
  }
  const out: Record<string, unknown> = { type: "object", properties }
  if (required.length > 0) out.required = required
  const index = rep.indexSignatures.find((s) => s.parameter._tag === "String" || s.parameter._tag === "TemplateLiteral")
  if (index !== undefined) out.additionalProperties = compile(index.type)
  return out
}

const arrays = (rep: SchemaRepresentation.Arrays): JsonSchema => {
  const [rest, ...post] = rep.rest
  if (rep.elements.length === 0) {
    if (rest === undefined) return { type: "array", maxItems: 0 }
    return { type: "array", items: post.length === 0 ? compile(rest) : union([rest, ...post]) }
  }
  const out: Record<string, unknown> = {
    type: "array",
    prefixItems: rep.elements.map((e) => ({ ...compile(e.type), ...annotationsOf(e.annotations) })),
    minItems: rep.elements.filter((e) => !e.isOptional).length,
  }
  if (rest === undefined) {
    out.items = false
    out.maxItems = rep.elements.length
  } else out.items = post.length === 0 ? compile(rest) : union([rest, ...post])
  return out
}

/** Translates the checks Effect's representation names into JSON Schema keywords for a node of kind `tag`. */
const checksOf = (checks: ReadonlyArray<Check>, tag: Rep["_tag"]): JsonSchema => {
  const out: Record<string, unknown> = {}
  // Length checks count characters on strings, items on arrays and keys on objects.
  const [min, max] = tag === "Arrays" ? ["minItems", "maxItems"] : tag === "Objects" ? ["minProperties", "maxProperties"] : ["minLength", "maxLength"]
  const visit = (c: Check): void => {
    if (c._tag === "FilterGroup") for (const inner of c.checks) visit(inner)
    const id = c.representation?.id
    const p = (c.representation?.payload ?? {}) as Record<string, unknown>
    const annotated = annotationsOf(c.annotations)
    if (annotated.format !== undefined) out.format = annotated.format
    if (annotated.description !== undefined) out.description = annotated.description
    if (id === undefined || !id.startsWith("effect/schema/")) return
    switch (id.slice("effect/schema/".length)) {
      case "isInt":
        out.integer = true
        return
      case "isGreaterThanOrEqualTo":
      case "isGreaterThan":
      case "isLessThanOrEqualTo":
      case "isLessThan":
        Object.assign(out, p)
        return
      case "isBetween":
        out[p.exclusiveMinimum === true ? "exclusiveMinimum" : "minimum"] = p.minimum
        out[p.exclusiveMaximum === true ? "exclusiveMaximum" : "maximum"] = p.maximum
        return
      case "isMultipleOf":
        out.multipleOf = p.divisor
        return
      case "isMinLength":
        out[min] = p.minLength
        return
      case "isMaxLength":
        out[max] = p.maxLength
        return
      case "isBetweenLength":
        out[min] = p.minimum
        out[max] = p.maximum
        return
      case "isMinSize":
        out.minItems = p.minSize
        return
      case "isMaxSize":
        out.maxItems = p.maxSize
        return
      case "isBetweenSize":
        out.minItems = p.minimum
        out.maxItems = p.maximum
        return
      case "isMinProperties":
        out.minProperties = p.minProperties
        return
      case "isMaxProperties":
        out.maxProperties = p.maxProperties
        return
      case "isPattern":
        if (typeof p.source === "string") out.pattern = p.source
        return
      case "isUUID":
        out.format = "uuid"
        return
      case "isULID":
        out.format = "ulid"
        return
      case "isBase64":
      case "isBase64Url":
        out.contentEncoding = "base64"
        return
    }
  }
  for (const c of checks) visit(c)
  return out
}
