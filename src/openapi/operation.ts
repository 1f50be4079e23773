/**
 * What one OpenAPI operation becomes: a `Plan` (the request to build from the program's input, the responses to
 * expect, the signature's schemas) or the reason it cannot be a tool (spec "OpenAPI tools": unsupported parameter
 * encodings, request bodies without JSON content, WebSocket or SSE semantics, binary responses). Building the plan
 * reads the whole operation once, at `fromSpec`, so a call only fills values in.
 */
import type { JsonSchema } from "../host/json-schema.ts"
import { isObject, serverUrl, type Document, type Obj, type RawOperation } from "./document.ts"
import { classifyMedia, type MediaKind } from "./media.ts"
import { SignatureSchemas } from "./schemas.ts"
import type { OperationInfo } from "./types.ts"

export type Location = "path" | "query" | "header"

/** A parameter's serialization (OpenAPI "Style Values"); `json` for a parameter described by `content`. */
export type Style = "simple" | "form" | "spaceDelimited" | "pipeDelimited" | "deepObject" | "json"

export interface ParameterPlan {
  /** The input property the program sets. */
  readonly key: string
  readonly name: string
  readonly in: Location
  readonly style: Style
  readonly explode: boolean
  readonly allowReserved: boolean
  readonly required: boolean
}

/** One scheme of a security requirement, with the document's definition of it. */
export interface SchemeUse {
  readonly name: string
  readonly definition: Obj
  readonly scopes: ReadonlyArray<string>
}

export interface Plan {
  readonly info: OperationInfo
  readonly description: string
  /** The server URL without a trailing slash; the path template is appended. */
  readonly server: string
  readonly parameters: ReadonlyArray<ParameterPlan>
  /** The JSON media type the body is sent as, when the operation takes one. */
  readonly body: { readonly mediaType: string; readonly required: boolean } | undefined
  /** The `Accept` header: the media types of the success responses the tool reads. */
  readonly accept: string | undefined
  /** Alternative security requirements, in order; each lists the schemes that must all be applied. */
  readonly security: ReadonlyArray<ReadonlyArray<SchemeUse>>
  readonly input: JsonSchema
  readonly output: JsonSchema | undefined
}

export type Analysis = { readonly ok: true; readonly plan: Plan } | { readonly ok: false; readonly reason: string }

class Unsupported {
  readonly reason: string
  constructor(reason: string) {
    this.reason = reason
  }
}

const STYLES: { readonly [L in Location | "cookie"]: ReadonlyArray<string> } = {
  path: ["simple"],
  query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"],
  header: ["simple"],
  cookie: [],
}

/** Headers the OpenAPI specification says a parameter cannot define ("SHALL be ignored"). */
const IGNORED_HEADERS = new Set(["accept", "content-type", "authorization"])

const WEBSOCKET_HEADERS = /^(upgrade|connection|sec-websocket-.*)$/i

export const analyzeOperation = (
  doc: Document,
  raw: RawOperation,
  info: OperationInfo,
  options: { readonly baseUrl: string | undefined; readonly serverVariables: { readonly [name: string]: string } },
): Analysis => {
  try {
    return { ok: true, plan: plan(doc, raw, info, options) }
  } catch (e) {
    if (e instanceof Unsupported) return { ok: false, reason: e.reason }
    throw e
  }
}

const plan = (
  doc: Document,
  raw: RawOperation,
  info: OperationInfo,
  options: { readonly baseUrl: string | undefined; readonly serverVariables: { readonly [name: string]: string } },
): Plan => {
  const { operation } = raw
  const server = options.baseUrl ?? serverUrl(doc, raw, options.serverVariables)
  if (/^wss?:/i.test(server)) throw new Unsupported(`WebSocket server ${server}`)
  const security = securityOf(doc, raw)
  const request = new SignatureSchemas(doc, "request")
  const properties: Array<[string, JsonSchema]> = []
  const required: string[] = []

  const params = collectParameters(doc, raw).filter((p) => !suppliedBySecurity(p, security))
  for (const [, name] of raw.path.matchAll(/\{([^}]*)\}/g)) {
    if (!params.some((p) => p.in === "path" && p.name === name)) throw new Unsupported(`path parameter ${name} is not declared`)
  }
  const body = requestBody(doc, operation, request)
  const taken = new Map<string, number>()
  for (const p of params) taken.set(p.name, (taken.get(p.name) ?? 0) + 1)
  const parameters = params.map((p): ParameterPlan => {
    const clash = (taken.get(p.name) ?? 0) > 1 || (body !== undefined && p.name === "body")
    const key = clash ? `${p.in}:${p.name}` : p.name
    properties.push([key, p.schema(request)])
    if (p.required) required.push(key)
    return { key, name: p.name, in: p.in, style: p.style, explode: p.explode, allowReserved: p.allowReserved, required: p.required }
  })
  if (body !== undefined) {
    properties.push(["body", body.schema])
    if (body.required) required.push("body")
  }

  const responses = successResponses(doc, operation)
  const input: JsonSchema = request.withDefs({ type: "object", properties: Object.fromEntries(properties), ...(required.length > 0 ? { required } : {}) })
  return {
    info,
    description: describe(raw, info),
    server: server.replace(/\/+$/, ""),
    parameters,
    body: body === undefined ? undefined : { mediaType: body.mediaType, required: body.required },
    accept: responses.accept,
    security,
    input,
    output: responses.output,
  }
}

const describe = (raw: RawOperation, info: OperationInfo): string => {
  const parts = [raw.operation.summary, raw.operation.description].filter((s): s is string => typeof s === "string" && s.trim() !== "")
  const unique = parts.filter((s, i) => parts.indexOf(s) === i).map((s) => s.trim())
  const text = unique.length > 0 ? unique.join("\n\n") : `${info.method} ${info.path}`
  return info.deprecated ? `Deprecated. ${text}` : text
}

interface ParameterSource {
  readonly name: string
  readonly in: Location
  readonly style: Style
  readonly explode: boolean
  readonly allowReserved: boolean
  readonly required: boolean
  readonly schema: (schemas: SignatureSchemas) => JsonSchema
}

/** The path item's parameters overridden by the operation's (same name and location), in that order. */
const collectParameters = (doc: Document, raw: RawOperation): ParameterSource[] => {
  const byKey = new Map<string, Obj>()
  for (const list of [raw.pathItem.parameters, raw.operation.parameters]) {
    if (!Array.isArray(list)) continue
    for (const entry of list) {
      const resolved = doc.resolve(entry)
      if (!resolved.ok) throw new Unsupported(`parameter: ${resolved.reason}`)
      const p = resolved.value
      byKey.set(`${String(p.in)}:${String(p.name)}`, p)
    }
  }
  const out: ParameterSource[] = []
  for (const p of byKey.values()) {
    const source = parameter(p)
    if (source !== undefined) out.push(source)
  }
  return out
}

const parameter = (p: Obj): ParameterSource | undefined => {
  const name = p.name
  const location = p.in
  if (typeof name !== "string") throw new Unsupported("a parameter without a name")
  if (location === "header" && WEBSOCKET_HEADERS.test(name)) throw new Unsupported(`WebSocket upgrade header parameter ${name}`)
  if (location === "header" && IGNORED_HEADERS.has(name.toLowerCase())) return undefined
  if (location === "cookie") throw new Unsupported(`cookie parameter ${name} is not supported`)
  if (location !== "path" && location !== "query" && location !== "header") {
    throw new Unsupported(`parameter ${name} in ${JSON.stringify(location)} is not supported`)
  }
  const describeParam = (schema: JsonSchema): JsonSchema => ({
    ...schema,
    ...(typeof p.description === "string" ? { description: p.description } : {}),
    ...(p.deprecated === true ? { deprecated: true } : {}),
  })
  const base = { name, in: location as Location, required: location === "path" || p.required === true, allowReserved: p.allowReserved === true }
  if (isObject(p.content)) {
    const [mediaType, media] = Object.entries(p.content)[0] ?? []
    if (mediaType === undefined || classifyMedia(mediaType) !== "json") {
      throw new Unsupported(`${location} parameter ${name} has content ${mediaType ?? "(none)"}; only JSON is supported`)
    }
    const schema = isObject(media) ? media.schema : undefined
    return { ...base, style: "json", explode: false, schema: (s) => describeParam(s.convert(schema)) }
  }
  const style = typeof p.style === "string" ? p.style : location === "query" ? "form" : "simple"
  if (!STYLES[location].includes(style)) throw new Unsupported(`${location} parameter ${name} uses style ${style}, which is not supported`)
  const explode = typeof p.explode === "boolean" ? p.explode : style === "form"
  return { ...base, style: style as Style, explode, schema: (s) => describeParam(s.convert(p.schema)) }
}

/** Parameters an API key scheme of the operation supplies: the host's credential, not the program's. */
const suppliedBySecurity = (p: ParameterSource, security: ReadonlyArray<ReadonlyArray<SchemeUse>>): boolean =>
  security.some((alternative) =>
    alternative.some(
      ({ definition }) =>
        definition.type === "apiKey" &&
        definition.in === p.in &&
        typeof definition.name === "string" &&
        (p.in === "header" ? definition.name.toLowerCase() === p.name.toLowerCase() : definition.name === p.name),
    ),
  )

const requestBody = (
  doc: Document,
  operation: Obj,
  schemas: SignatureSchemas,
): { readonly mediaType: string; readonly required: boolean; readonly schema: JsonSchema } | undefined => {
  if (operation.requestBody === undefined) return undefined
  const resolved = doc.resolve(operation.requestBody)
  if (!resolved.ok) throw new Unsupported(`request body: ${resolved.reason}`)
  const body = resolved.value
  const content = isObject(body.content) ? body.content : {}
  const types = Object.keys(content)
  if (types.length === 0) return undefined
  const mediaType = types.find((t) => classifyMedia(t) === "json")
  if (mediaType === undefined) throw new Unsupported(`request body without JSON content (${types.join(", ")})`)
  const media = content[mediaType]
  const schema = schemas.convert(isObject(media) ? media.schema : undefined)
  const described = typeof body.description === "string" && schema.description === undefined ? { ...schema, description: body.description } : schema
  return { mediaType, required: body.required === true, schema: described }
}

/**
 * The success responses (2xx, or `default` when none is declared) as one output schema and an `Accept` header.
 * Each response is read in its best representation — JSON, then text — so a response that also offers an event
 * stream or bytes is still usable; one that offers only those makes the operation unsupported.
 */
const successResponses = (doc: Document, operation: Obj): { readonly output: JsonSchema | undefined; readonly accept: string | undefined } => {
  const responses = isObject(operation.responses) ? operation.responses : {}
  if (Object.hasOwn(responses, "101")) throw new Unsupported("WebSocket (101 Switching Protocols response)")
  const codes = Object.keys(responses).filter((code) => /^2(\d\d|XX)$/i.test(code))
  const chosen = codes.length > 0 ? codes : Object.hasOwn(responses, "default") ? ["default"] : []
  if (chosen.length === 0) return { output: {}, accept: undefined }
  const schemas = new SignatureSchemas(doc, "response")
  const members: JsonSchema[] = []
  const accept = new Set<string>()
  let empty = false
  for (const code of chosen) {
    const resolved = doc.resolve(responses[code])
    if (!resolved.ok) throw new Unsupported(`response ${code}: ${resolved.reason}`)
    const content = isObject(resolved.value.content) ? resolved.value.content : {}
    const types = Object.keys(content)
    if (types.length === 0) {
      empty = true
      continue
    }
    const kinds = types.map((t): [string, MediaKind] => [t, classifyMedia(t, schemaOf(content[t]))])
    const pick = kinds.find(([, k]) => k === "json") ?? kinds.find(([, k]) => k === "any") ?? kinds.find(([, k]) => k === "text")
    if (pick === undefined) {
      const [type, kind] = kinds.find(([, k]) => k === "event-stream") ?? kinds.find(([, k]) => k === "stream") ?? kinds[0]!
      throw new Unsupported(
        kind === "event-stream"
          ? `server-sent events response (${type})`
          : kind === "stream"
            ? `streaming response (${type})`
            : `binary response (${type})`,
      )
    }
    const [type, kind] = pick
    accept.add(type)
    members.push(kind === "text" ? { type: "string" } : schemas.convert(schemaOf(content[type])))
  }
  if (members.length === 0) return { output: undefined, accept: undefined }
  if (empty) members.push({ type: "null" })
  const output = members.length === 1 ? members[0]! : { anyOf: members }
  return { output: schemas.withDefs(output), accept: [...accept].join(", ") }
}

const schemaOf = (media: unknown): unknown => (isObject(media) ? media.schema : undefined)

/**
 * The operation's security requirements (its own, else the document's), each as the schemes it needs. A
 * requirement naming a scheme the document does not define can never be met and is left out.
 */
const securityOf = (doc: Document, raw: RawOperation): ReadonlyArray<ReadonlyArray<SchemeUse>> => {
  const requirements = Array.isArray(raw.operation.security) ? raw.operation.security : Array.isArray(doc.root.security) ? doc.root.security : []
  const out: SchemeUse[][] = []
  for (const requirement of requirements) {
    if (!isObject(requirement)) continue
    const uses: SchemeUse[] = []
    let complete = true
    for (const [name, scopes] of Object.entries(requirement)) {
      const definition = doc.securityScheme(name)
      if (definition === undefined) complete = false
      else uses.push({ name, definition, scopes: Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === "string") : [] })
    }
    // An empty requirement (anonymous access) is what happens anyway when no other one can be met.
    if (complete && uses.length > 0) out.push(uses)
  }
  return out
}
