/**
 * TypeScript signatures from JSON Schema (spec "Discovery": "generated TypeScript signature"). A tool renders as
 * `tools.orders.lookup(input: {...}): Promise<{...}>`, with a JSDoc comment on every property that has a
 * description or a constraint the type cannot say (minimum, maxLength, pattern, format, default...). Without an
 * output schema the result is `Promise<void>`.
 *
 * The renderer reads only the meaning of a schema, never its spelling, so the same shape written as an Effect
 * Schema, a Zod schema or a JSON Schema renders the same text: `enum`, `const` and unions of literals all become
 * literal unions, `anyOf`/`oneOf` and type arrays become unions, `additionalProperties: false` and the safe-integer
 * bounds Zod adds to `.int()` are left out. Objects with documented properties are laid out one property per line;
 * others stay on one line.
 */
import { asSchema, isJsonSchemaObject, resolveRef, type JsonSchema } from "./json-schema.ts"

/** The whole signature of a tool called as `expression`. */
export const toolSignature = (expression: string, input: JsonSchema, output: JsonSchema | undefined): string => {
  // An object input without required properties may be left out (the host passes `{}`; see dispatch.ts).
  const params = `input${acceptsNoArgument(input) ? "?" : ""}: ${renderType(input)}`
  const result = output === undefined ? "void" : renderType(output)
  return `${expression}(${params}): Promise<${result}>`
}

/** An object schema none of whose properties is required: a call without an argument passes `{}`. */
export const acceptsNoArgument = (schema: JsonSchema): boolean =>
  (schema.type === "object" || (schema.type === undefined && isJsonSchemaObject(schema.properties))) &&
  !(Array.isArray(schema.required) && schema.required.length > 0)

/** The TypeScript type of a schema, laid out at `indent`. */
export const renderType = (schema: JsonSchema, root: JsonSchema = schema, indent = ""): string =>
  new Renderer(root).type(schema, indent)

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** Property name as written in a type literal. */
export const propertyName = (name: string): string => (IDENTIFIER.test(name) ? name : JSON.stringify(name))

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER

class Renderer {
  private readonly root: JsonSchema
  /** `$ref`s being expanded: a reference back into one of them is recursive and renders as `unknown`. */
  private readonly expanding = new Set<string>()
  constructor(root: JsonSchema) {
    this.root = root
  }

  type(schema: JsonSchema, indent: string): string {
    const members = this.members(schema, indent)
    const unique = [...new Set(members)]
    if (unique.length === 0) return "never"
    if (unique.includes("unknown")) return "unknown"
    return unique.join(" | ")
  }

  /** The union members a schema stands for (one, unless it is a union). */
  private members(schema: JsonSchema, indent: string): string[] {
    if (typeof schema.$ref === "string") {
      const ref = schema.$ref
      const target = resolveRef(this.root, ref)
      if (target === undefined || this.expanding.has(ref)) return ["unknown"]
      this.expanding.add(ref)
      try {
        return this.members(target, indent)
      } finally {
        this.expanding.delete(ref)
      }
    }
    const nullable = schema.nullable === true ? ["null"] : []
    if ("const" in schema) return [literal(schema.const), ...nullable]
    if (Array.isArray(schema.enum)) return [...schema.enum.map(literal), ...nullable]
    const union = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined
    if (union !== undefined) {
      // Keywords beside anyOf (a shared `type`, say) narrow every member; merge them in.
      const { anyOf: _a, oneOf: _o, ...shared } = schema
      return [...union.flatMap((m) => this.members({ ...shared, ...asSchema(m) }, indent)), ...nullable]
    }
    if (Array.isArray(schema.allOf)) {
      const { allOf: _a, ...shared } = schema
      const parts = schema.allOf.map((m) => this.type({ ...shared, ...asSchema(m) }, indent))
      return [parts.length === 1 ? parts[0]! : parts.map(parenthesize).join(" & "), ...nullable]
    }
    if (isJsonSchemaObject(schema.not) && Object.keys(schema.not).length === 0) return []
    const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? inferType(schema)]
    return [...types.map((t) => this.single(String(t), schema, indent)), ...nullable]
  }

  private single(type: string, schema: JsonSchema, indent: string): string {
    switch (type) {
      case "string":
        return "string"
      case "number":
      case "integer":
        return "number"
      case "boolean":
        return "boolean"
      case "null":
        return "null"
      case "array":
        return this.array(schema, indent)
      case "object":
        return this.object(schema, indent)
      default:
        return "unknown"
    }
  }

  private array(schema: JsonSchema, indent: string): string {
    // Tuples: 2020-12 `prefixItems`, or the draft-07 array form of `items`.
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : undefined
    const rest = Array.isArray(schema.items) ? schema.additionalItems : schema.items
    if (prefix === undefined) return `${parenthesize(this.type(asSchema(rest), indent))}[]`
    const minItems = typeof schema.minItems === "number" ? schema.minItems : prefix.length
    const elements = prefix.map((e, i) => `${this.type(asSchema(e), indent)}${i >= minItems ? "?" : ""}`)
    if (rest !== undefined && rest !== false) elements.push(`...${parenthesize(this.type(asSchema(rest), indent))}[]`)
    return `[${elements.join(", ")}]`
  }

  private object(schema: JsonSchema, indent: string): string {
    const properties = isJsonSchemaObject(schema.properties) ? schema.properties : undefined
    const additional = schema.additionalProperties
    const index = isJsonSchemaObject(additional) && Object.keys(additional).length > 0 ? additional : undefined
    if (properties === undefined || Object.keys(properties).length === 0) {
      if (index !== undefined) return `Record<string, ${this.type(index, indent)}>`
      return properties === undefined ? "Record<string, unknown>" : "{}"
    }
    const required = new Set(Array.isArray(schema.required) ? schema.required : [])
    const inner = `${indent}  `
    const rows = Object.entries(properties).map(([name, raw]) => {
      const p = asSchema(raw)
      return { doc: docLines(p), text: `${propertyName(name)}${required.has(name) ? "" : "?"}: ${this.type(p, inner)}` }
    })
    if (index !== undefined) rows.push({ doc: [], text: `[key: string]: ${this.type(index, inner)}` })
    const multiline = rows.some((r) => r.doc.length > 0 || r.text.includes("\n"))
    if (!multiline) return `{ ${rows.map((r) => r.text).join("; ")} }`
    const body = rows.map((r) => [...jsDoc(r.doc, inner), `${inner}${r.text}`].join("\n"))
    return `{\n${body.join("\n")}\n${indent}}`
  }
}

/** What a schema without `type` is, from the keywords it uses. */
const inferType = (schema: JsonSchema): string =>
  "properties" in schema || "additionalProperties" in schema || "required" in schema
    ? "object"
    : "items" in schema || "prefixItems" in schema
      ? "array"
      : "unknown"

const literal = (v: unknown): string => (v === undefined ? "undefined" : JSON.stringify(v) ?? "unknown")

const parenthesize = (t: string): string => (hasTopLevelOperator(t) ? `(${t})` : t)

/**
 * Whether a rendered type is a union or intersection at its top level (`{ a: 1 } | { b: 2 }`, but not
 * `{ a: 1 | 2 }`): brackets, string literals and JSDoc comments are skipped over.
 */
const hasTopLevelOperator = (t: string): boolean => {
  let depth = 0
  for (let i = 0; i < t.length; i++) {
    const c = t[i]
    if (c === '"') {
      for (i++; i < t.length && t[i] !== '"'; i++) if (t[i] === "\\") i++
    } else if (c === "/" && t[i + 1] === "*") {
      const end = t.indexOf("*/", i + 2)
      i = end === -1 ? t.length : end + 1
    } else if (c === "{" || c === "[" || c === "(" || c === "<") depth++
    else if (c === "}" || c === "]" || c === ")" || c === ">") depth--
    else if (depth === 0 && (c === "|" || c === "&")) return true
  }
  return false
}

/** The constraint keywords shown as JSDoc tags, in this order. */
const TAGS = [
  "minimum",
  "exclusiveMinimum",
  "maximum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "default",
  "deprecated",
] as const

/** Description lines, then one `@tag value` per constraint. */
export const docLines = (schema: JsonSchema): string[] => {
  const lines: string[] = []
  if (typeof schema.description === "string" && schema.description.trim() !== "") {
    lines.push(...schema.description.trim().split(/\r?\n/))
  }
  if (schema.type === "integer") lines.push("@integer")
  for (const tag of TAGS) {
    const v = schema[tag]
    if (v === undefined || v === false) continue
    if ((tag === "minimum" || tag === "maximum") && Math.abs(Number(v)) === SAFE_INTEGER_BOUND) continue
    // A pattern beside a format only spells the format out (Zod and Effect add one for uuid, datetime...).
    if (tag === "pattern" && schema.format !== undefined) continue
    // A tuple's type already says how many items it has.
    if ((tag === "minItems" || tag === "maxItems") && (Array.isArray(schema.prefixItems) || Array.isArray(schema.items))) continue
    lines.push(v === true ? `@${tag}` : `@${tag} ${typeof v === "string" && tag !== "default" ? v : JSON.stringify(v)}`)
  }
  return lines
}

/** A JSDoc block: one line when it fits on one. */
export const jsDoc = (lines: ReadonlyArray<string>, indent: string): string[] => {
  if (lines.length === 0) return []
  const safe = lines.map((l) => l.replace(/\*\//g, "*\\/"))
  if (safe.length === 1) return [`${indent}/** ${safe[0]} */`]
  return [`${indent}/**`, ...safe.map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`]
}
