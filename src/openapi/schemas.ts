/**
 * The JSON Schemas of a generated tool's signature, from the document's schemas (spec "OpenAPI tools": "Request
 * signatures omit `readOnly` properties; response signatures omit `writeOnly` properties"). They are render-only:
 * the signature renderer (host/signature.ts) reads them, nothing validates values against them.
 *
 * A `$ref` to a schema anywhere in the document becomes a `$ref` into the tool schema's own `$defs`, converted once
 * per side: a recursive schema stays a finite document, and the renderer, which already guards `$ref` cycles,
 * draws the recursion as `unknown`. OpenAPI 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum` become the numeric
 * form of JSON Schema; `nullable` is read by the renderer itself.
 */
import type { JsonSchema } from "../host/json-schema.ts"
import { isObject, type Document, type Obj } from "./document.ts"

/** Which side of the exchange a schema describes: what the program sends, or what it receives. */
export type Side = "request" | "response"

export class SignatureSchemas {
  private readonly doc: Document
  private readonly hidden: "readOnly" | "writeOnly"
  /** Converted targets by `$defs` key; a key is present (possibly unfinished) once conversion has started. */
  private readonly defs = new Map<string, JsonSchema>()

  constructor(doc: Document, side: Side) {
    this.doc = doc
    this.hidden = side === "request" ? "readOnly" : "writeOnly"
  }

  /** The signature schema of a document schema. */
  convert(node: unknown): JsonSchema {
    if (node === false) return { not: {} }
    if (!isObject(node)) return {}
    if (typeof node.$ref === "string") return this.reference(node.$ref, node)
    const out: Record<string, unknown> = {}
    for (const [keyword, value] of Object.entries(node)) {
      switch (keyword) {
        case "properties":
          out.properties = this.properties(value)
          break
        case "required":
          out.required = Array.isArray(value) ? value.filter((name) => !this.isHidden(node, name)) : value
          break
        case "items":
          out.items = Array.isArray(value) ? value.map((v) => this.convert(v)) : this.convert(value)
          break
        case "additionalProperties":
        case "additionalItems":
        case "not":
          out[keyword] = typeof value === "boolean" ? value : this.convert(value)
          break
        case "prefixItems":
        case "anyOf":
        case "oneOf":
        case "allOf":
          out[keyword] = Array.isArray(value) ? value.map((v) => this.convert(v)) : value
          break
        case "exclusiveMinimum":
        case "exclusiveMaximum": {
          // OpenAPI 3.0: a boolean qualifying `minimum`/`maximum`.
          if (typeof value !== "boolean") out[keyword] = value
          else if (value) {
            const bound = keyword === "exclusiveMinimum" ? "minimum" : "maximum"
            if (typeof node[bound] === "number") out[keyword] = node[bound]
          }
          break
        }
        case "minimum":
        case "maximum": {
          const exclusive = keyword === "minimum" ? node.exclusiveMinimum : node.exclusiveMaximum
          if (exclusive !== true) out[keyword] = value
          break
        }
        case "$defs":
        case "definitions":
          // Reached through the document, like every other `$ref` target.
          break
        default:
          out[keyword] = value
      }
    }
    return out
  }

  /** `root` with the `$defs` its conversion used. */
  withDefs(root: JsonSchema): JsonSchema {
    if (this.defs.size === 0) return root
    return { ...root, $defs: Object.fromEntries(this.defs) }
  }

  /** Whether `name`, a property of `schema`, is left out on this side. */
  isHidden(schema: Obj, name: unknown): boolean {
    const properties = isObject(schema.properties) ? schema.properties : undefined
    return typeof name === "string" && properties !== undefined && Object.hasOwn(properties, name) && this.flagged(properties[name])
  }

  private properties(value: unknown): unknown {
    if (!isObject(value)) return value
    const out: Record<string, JsonSchema> = {}
    for (const [name, schema] of Object.entries(value)) {
      if (!this.flagged(schema)) out[name] = this.convert(schema)
    }
    return out
  }

  /** Whether a schema, or the end of its `$ref` chain, is `readOnly` (request side) or `writeOnly` (response side). */
  private flagged(schema: unknown): boolean {
    const seen = new Set<string>()
    let current = schema
    while (isObject(current)) {
      if (current[this.hidden] === true) return true
      const ref = current.$ref
      if (typeof ref !== "string" || seen.has(ref)) return false
      seen.add(ref)
      current = this.doc.pointer(ref)
    }
    return false
  }

  private reference(ref: string, node: Obj): JsonSchema {
    const target = ref.startsWith("#") ? this.doc.pointer(ref) : undefined
    if (target === undefined) return typeof node.description === "string" ? { description: node.description } : {}
    const key = ref.replace(/^#\/?/, "")
    if (!this.defs.has(key)) {
      this.defs.set(key, {})
      this.defs.set(key, this.convert(target))
    }
    // Escaped for JSON Pointer then for the URI fragment, as host/json-schema.ts `resolveRef` unescapes it.
    const pointer = `#/$defs/${encodeURIComponent(key.replace(/~/g, "~0").replace(/\//g, "~1"))}`
    // OpenAPI 3.1 allows siblings beside `$ref`; a description is what a signature can show.
    return typeof node.description === "string" ? { $ref: pointer, description: node.description } : { $ref: pointer }
  }
}
