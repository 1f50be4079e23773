/**
 * Webhook tools' JSON Schemas, enforced (issue 15): Ajv (draft 2020-12) checks a schema against the meta-schema
 * and resolves its `$ref`s when the tool is registered, and validates each call's input before the webhook and its
 * output before the program sees it. Ajv compiles a schema to a function (1–2 ms, after ~80 ms for the first), so
 * validators are cached by the schema's text: every run of a tool version reuses one.
 *
 * Ajv is not strict about keywords: a registered schema may carry annotations of its own (`x-…`, `example`), which
 * JSON Schema allows and the signature renderer ignores. Unknown `format`s are not checked.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js"
import { canonical } from "./canonical.ts"

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, logger: false })

/** A problem and where it is: a JSON pointer into the value (or the schema, at registration). */
const describe = (errors: ReadonlyArray<ErrorObject> | null | undefined, prefix = ""): Array<string> =>
  (errors ?? []).map((e) => `${prefix}${e.instancePath === "" ? "/" : e.instancePath} ${e.message ?? "is invalid"}`)

const compileMessage = (e: unknown): string => {
  const missing = (e as { missingRef?: unknown }).missingRef
  if (typeof missing === "string") return `$ref ${missing} does not resolve`
  return e instanceof Error ? e.message : String(e)
}

/**
 * Every problem of a tool schema, each with its pointer under `at` (`/input/type must be equal to one of the allowed
 * values`); empty when it is valid and every `$ref` resolves.
 */
export const schemaProblems = (schema: Record<string, unknown>, at: string): Array<string> => {
  if (!ajv.validateSchema(schema)) return describe(ajv.errors, at)
  try {
    ajv.compile(schema)
    ajv.removeSchema(schema)
    return []
  } catch (e) {
    return [`${at}: ${compileMessage(e)}`]
  }
}

const MAX_CACHED = 1000
const cache = new Map<string, ValidateFunction | null>()

/**
 * A validator for a registered schema (undefined when Ajv cannot compile it: a tool registered before schemas were
 * checked stays render-only rather than refusing every call).
 */
export const validatorFor = (schema: Record<string, unknown>): ((value: unknown) => string | undefined) | undefined => {
  const key = canonical(schema)
  let validate = cache.get(key)
  if (validate === undefined) {
    try {
      validate = ajv.compile(schema)
    } catch {
      validate = null
    }
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!)
    cache.set(key, validate)
  }
  const v = validate
  if (v === null) return undefined
  return (value) => (v(value) ? undefined : describe(v.errors).join("; "))
}
