/**
 * Tool schemas (spec "Tool.make"): a tool's `input` and `output` may be an Effect Schema, a Zod schema (Zod 4, or a
 * Zod 3 schema from `zod/v3`), or a JSON Schema document. This module tells them apart and gives each the two things
 * the host needs: a JSON Schema of the side the program sees, for the signature, and a decoder. Effect Schemas
 * decode with `Schema.decodeUnknownEffect` (their decoding services join the runtime's environment); Zod schemas
 * validate with `safeParseAsync`, which is Zod's decoding (transforms and defaults apply); a JSON Schema is
 * render-only and lets every value through.
 *
 * Input is described on its encoded side (what the program passes, before decoding); output on its decoded side
 * (what the program receives). Zod 4 renders with its own `toJSONSchema`; Zod 3 with zod-to-json-schema, which
 * silently returns an empty schema for Zod 4 input (stack-notes §11), hence the explicit split. Both are loaded
 * when the first Zod schema arrives, and Effect's Schema module (and its JSON Schema rendering) when the first
 * Effect Schema does: a host pays at start-up only for the kinds it uses.
 */
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import { createRequire } from "node:module"
import { effectToJsonSchema, type Side } from "./effect-json-schema.ts"
import { documentRoot, isJsonSchemaObject, type JsonSchema } from "./json-schema.ts"

export type { Side } from "./effect-json-schema.ts"

/** A Zod 4 schema, structurally (classic and mini alike). */
export interface Zod4Schema {
  readonly _zod: { readonly input: unknown; readonly output: unknown }
}

/** A Zod 3 schema (`zod/v3`), structurally. */
export interface Zod3Schema {
  readonly _input: unknown
  readonly _output: unknown
  readonly _def: unknown
}

/**
 * Anything `Tool.make` accepts as `input` or `output`.
 *
 * @since 0.1.0
 * @category models
 */
export type ToolSchema = Schema.Top | Zod4Schema | Zod3Schema | JsonSchema

/** The value `execute` receives for an input schema, or returns for an output schema... once decoded. */
export type Decoded<S> = S extends Schema.Top
  ? S["Type"]
  : S extends { readonly _zod: { readonly output: infer O } }
    ? O
    : S extends { readonly _output: infer O }
      ? O
      : unknown

/** The value decoding starts from. */
export type Encoded<S> = S extends Schema.Top
  ? S["Encoded"]
  : S extends { readonly _zod: { readonly input: infer I } }
    ? I
    : S extends { readonly _input: infer I }
      ? I
      : unknown

/** Services an Effect Schema needs to decode; nothing for the other kinds. */
export type DecodingServices<S> = S extends Schema.Top ? S["DecodingServices"] : never

type Kind =
  | { readonly kind: "effect"; readonly schema: Schema.Top }
  | { readonly kind: "zod4"; readonly schema: Zod4Schema }
  | { readonly kind: "zod3"; readonly schema: Zod3Schema & ZodParse }
  | { readonly kind: "json"; readonly schema: JsonSchema }

interface ZodParse {
  safeParseAsync(value: unknown): Promise<{ success: true; data: unknown } | { success: false; error: { issues: ReadonlyArray<ZodIssue> } }>
}
interface ZodIssue {
  readonly path: ReadonlyArray<PropertyKey>
  readonly message: string
}

const require = createRequire(import.meta.url)
let zod4: typeof import("zod/v4/core") | undefined
let zod3: typeof import("zod-to-json-schema") | undefined
/**
 * `Schema.isSchema` without loading Schema: Effect brands every schema (classes too, which are functions) with its
 * TypeId, this string. A host that passes an Effect Schema has loaded the module already; `require` finds it.
 */
const SCHEMA_TYPE_ID = "~effect/Schema/Schema"
const isEffectSchema = (u: unknown): u is Schema.Top =>
  (typeof u === "object" || typeof u === "function") && u !== null && (u as Record<string, unknown>)[SCHEMA_TYPE_ID] === SCHEMA_TYPE_ID
let effectSchema: typeof import("effect/Schema") | undefined
const EffectSchema = () => (effectSchema ??= require("effect/Schema") as typeof import("effect/Schema"))
const zod4Core = () => (zod4 ??= require("zod/v4/core") as typeof import("zod/v4/core"))
const zod3Converter = () => (zod3 ??= require("zod-to-json-schema") as typeof import("zod-to-json-schema"))

const classify = (s: unknown, role: string): Kind => {
  if (isEffectSchema(s)) return { kind: "effect", schema: s }
  if (isJsonSchemaObject(s)) {
    if ("_zod" in s) return { kind: "zod4", schema: s as unknown as Zod4Schema }
    if ("_def" in s && typeof (s as Partial<ZodParse>).safeParseAsync === "function") {
      return { kind: "zod3", schema: s as unknown as Zod3Schema & ZodParse }
    }
    return { kind: "json", schema: s }
  }
  throw new TypeError(`Tool ${role} must be an Effect Schema, a Zod schema or a JSON Schema object`)
}

/** A schema made ready for one side: its model-visible JSON Schema and, unless render-only, its decoder. */
export interface PreparedSchema {
  readonly jsonSchema: JsonSchema
  /** Decodes a copied value; fails with a readable message. Undefined for render-only JSON Schemas. */
  readonly decode: ((value: unknown) => Effect.Effect<unknown, string, unknown>) | undefined
}

/**
 * A host's check of a value against a JSON Schema: undefined when it is valid, else what is wrong (with JSON
 * pointers). Without one a JSON Schema is render-only.
 */
export type JsonSchemaValidator = (value: unknown) => string | undefined

export const prepareSchema = (s: unknown, side: Side, role: string, validate?: JsonSchemaValidator): PreparedSchema => {
  const k = classify(s, role)
  switch (k.kind) {
    case "effect": {
      const decode = EffectSchema().decodeUnknownEffect(k.schema as Schema.Codec<unknown, unknown, unknown, unknown>)
      return {
        jsonSchema: effectToJsonSchema(k.schema, side),
        decode: (value) => decode(value).pipe(Effect.mapError((e) => e.message)),
      }
    }
    case "zod4":
      return {
        jsonSchema: zod4Core().toJSONSchema(k.schema as never, { io: side === "encoded" ? "input" : "output", unrepresentable: "any" }) as JsonSchema,
        decode: zodDecode(k.schema as unknown as ZodParse),
      }
    case "zod3":
      return {
        jsonSchema: zod3Converter().zodToJsonSchema(k.schema as never, { effectStrategy: side === "encoded" ? "input" : "any" }) as JsonSchema,
        decode: zodDecode(k.schema),
      }
    case "json":
      return {
        jsonSchema: documentRoot(k.schema),
        decode:
          validate === undefined
            ? undefined
            : (value) => {
                const problem = validate(value)
                return problem === undefined ? Effect.succeed(value) : Effect.fail(problem)
              },
      }
  }
}

const zodDecode =
  (schema: ZodParse) =>
  (value: unknown): Effect.Effect<unknown, string> =>
    Effect.promise(() => schema.safeParseAsync(value)).pipe(
      Effect.flatMap((r) => (r.success ? Effect.succeed(r.data) : Effect.fail(formatZodIssues(r.error.issues)))),
    )

const formatZodIssues = (issues: ReadonlyArray<ZodIssue>): string =>
  issues
    .map((i) => (i.path.length === 0 ? i.message : `${i.message} at ${i.path.map((p) => `[${JSON.stringify(typeof p === "number" ? p : String(p))}]`).join("")}`))
    .join("; ")
