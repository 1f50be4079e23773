/**
 * The JSON Schema shape signatures are rendered from. Every kind of tool schema — Effect Schema, Zod 4, Zod 3, or a
 * hand-written document — is turned into one of these first (schema.ts), so the signature renderer has a single
 * input language. Only the keywords a model-visible type can express are read; the rest pass through unused.
 */

/** A JSON Schema object (any draft); `true`/`false` schemas are normalized to `{}` / `{ not: {} }`. */
export type JsonSchema = { readonly [keyword: string]: unknown }

export const isJsonSchemaObject = (u: unknown): u is JsonSchema => typeof u === "object" && u !== null && !Array.isArray(u)

/** A boolean schema as its object form. */
export const asSchema = (u: unknown): JsonSchema => (u === true || u === undefined ? {} : u === false ? { not: {} } : isJsonSchemaObject(u) ? u : {})

/**
 * The root schema of a document in any of the forms hosts pass: a plain schema, or Effect's
 * `JsonSchema.Document` (`{ dialect, schema, definitions }`), whose definitions become `$defs`.
 */
export const documentRoot = (doc: JsonSchema): JsonSchema => {
  if (typeof doc.dialect === "string" && isJsonSchemaObject(doc.schema)) {
    const defs = isJsonSchemaObject(doc.definitions) ? doc.definitions : {}
    return Object.keys(defs).length === 0 ? doc.schema : { ...doc.schema, $defs: defs }
  }
  return doc
}

/** Resolves a local `$ref` (`#/$defs/X`, `#/definitions/X`, `#`) against the root document. */
export const resolveRef = (root: JsonSchema, ref: string): JsonSchema | undefined => {
  if (ref === "#") return root
  if (!ref.startsWith("#/")) return undefined
  let node: unknown = root
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~")
    if (!isJsonSchemaObject(node)) return undefined
    node = node[key]
  }
  return isJsonSchemaObject(node) ? node : undefined
}
