/**
 * A JSON Schema (2020-12) checker for the keywords openapi.yaml uses — type, properties, required,
 * additionalProperties, items, enum, const, anyOf/oneOf/allOf, minimum/maximum/exclusiveMinimum, pattern and
 * local $ref — so the OpenAPI route test can check answers against the document without a validator package.
 * An unknown keyword is an error, so the checker cannot silently accept a shape it does not understand.
 */
type Schema = boolean | { readonly [k: string]: unknown }

const KNOWN = new Set([
  "type", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf", "oneOf", "allOf",
  "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "pattern", "$ref", "description", "title", "format",
  "minItems", "maxItems", "minLength", "maxLength", "examples", "default",
])

const typeOf = (v: unknown): string =>
  v === null ? "null" : Array.isArray(v) ? "array" : typeof v === "number" ? (Number.isInteger(v) ? "integer" : "number") : typeof v

/** The problems with `value` (empty when it conforms). */
export const check = (root: unknown, schema: Schema, value: unknown, at = "$"): Array<string> => {
  if (schema === true) return []
  if (schema === false) return [`${at}: no value is allowed`]
  const unknownKeys = Object.keys(schema).filter((k) => !KNOWN.has(k))
  if (unknownKeys.length > 0) return [`${at}: the checker does not know ${unknownKeys.join(", ")}`]
  const out: Array<string> = []
  const s = schema as Record<string, any>
  if (s.$ref !== undefined) {
    const path = String(s.$ref).replace(/^#\//, "").split("/")
    const target = path.reduce((node: any, key) => node?.[key], root)
    if (target === undefined) return [`${at}: unresolved ${s.$ref}`]
    out.push(...check(root, target, value, at))
  }
  if (s.type !== undefined) {
    const types: Array<string> = Array.isArray(s.type) ? s.type : [s.type]
    const t = typeOf(value)
    if (!types.includes(t) && !(t === "integer" && types.includes("number"))) return [...out, `${at}: expected ${types.join("|")}, got ${t}`]
  }
  if (s.enum !== undefined && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value))) out.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`)
  if ("const" in s && JSON.stringify(s.const) !== JSON.stringify(value)) out.push(`${at}: expected ${JSON.stringify(s.const)}`)
  if (typeof value === "number") {
    if (s.minimum !== undefined && value < s.minimum) out.push(`${at}: below ${s.minimum}`)
    if (s.maximum !== undefined && value > s.maximum) out.push(`${at}: above ${s.maximum}`)
    if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum) out.push(`${at}: not above ${s.exclusiveMinimum}`)
  }
  if (typeof value === "string" && s.pattern !== undefined && !new RegExp(s.pattern, "u").test(value)) out.push(`${at}: does not match ${s.pattern}`)
  if (Array.isArray(value) && s.items !== undefined) value.forEach((v, i) => out.push(...check(root, s.items, v, `${at}[${i}]`)))
  if (typeOf(value) === "object") {
    const obj = value as Record<string, unknown>
    for (const r of s.required ?? []) if (!(r in obj)) out.push(`${at}: missing ${r}`)
    for (const [k, v] of Object.entries(obj)) {
      if (s.properties?.[k] !== undefined) out.push(...check(root, s.properties[k], v, `${at}.${k}`))
      else if (s.additionalProperties !== undefined) out.push(...check(root, s.additionalProperties, v, `${at}.${k}`))
    }
  }
  if (s.allOf !== undefined) for (const sub of s.allOf) out.push(...check(root, sub, value, at))
  if (s.anyOf !== undefined && !s.anyOf.some((sub: Schema) => check(root, sub, value, at).length === 0)) out.push(`${at}: matches no anyOf branch`)
  if (s.oneOf !== undefined && s.oneOf.filter((sub: Schema) => check(root, sub, value, at).length === 0).length !== 1) out.push(`${at}: matches not exactly one oneOf branch`)
  return out
}
