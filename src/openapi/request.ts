/**
 * A generated tool's call: the program's input becomes an HTTP request (path parameters percent-encoded into the
 * template, query parameters in their OpenAPI style, header parameters, a JSON body), the host's credentials are
 * applied, the request goes through the `HttpClient` in the environment, and the response comes back as the
 * tool's result or a `ToolError`.
 *
 * What the program may read is chosen here: a ToolError names the operation by its method and path template and
 * never by its URL, whose query may carry an API key; transport failures are described by their kind alone.
 */
import { createRequire } from "node:module"
import * as Effect from "effect/Effect"
import type * as HttpClient from "effect/http/HttpClient"
import type * as HttpClientRequest from "effect/http/HttpClientRequest"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type { HttpMethod } from "effect/http/HttpMethod"
import { callHost } from "../host/returned.ts"
import { ToolError } from "../host/tool-error.ts"
import { isObject } from "./document.ts"
import { isJsonContentType } from "./media.ts"
import type { ParameterPlan, Plan, SchemeUse } from "./operation.ts"
import type { Auth, Credential } from "./types.ts"

/** How much of an error response's body its ToolError carries. */
const SNIPPET_CHARS = 500
/** Error bodies up to this size are given to the program parsed, in the ToolError's `data`. */
const ERROR_BODY_CHARS = 16_384

export interface Settings {
  readonly auth: Auth<unknown> | undefined
  readonly headers: { readonly [name: string]: string }
}

// Effect's HTTP client modules are loaded with the first request: a host that never calls an OpenAPI tool (most)
// does not pay for them at start-up. The host that does has them loaded already, for its HttpClient layer.
const require = createRequire(import.meta.url)
let http: { readonly HttpClient: typeof HttpClient; readonly HttpClientRequest: typeof HttpClientRequest } | undefined
const httpModules = () =>
  (http ??= {
    HttpClient: require("effect/http/HttpClient") as typeof HttpClient,
    HttpClientRequest: require("effect/http/HttpClientRequest") as typeof HttpClientRequest,
  })

export const callOperation = (plan: Plan, settings: Settings, input: unknown, key: string): Effect.Effect<unknown, unknown, unknown> =>
  Effect.gen(function* () {
    const label = `${plan.info.method} ${plan.info.path}`
    if (input !== undefined && !isObject(input)) return yield* new ToolError({ message: `${label}: the input must be an object` })
    const args: { readonly [key: string]: unknown } = input ?? {}
    const known = new Set(plan.parameters.map((p) => p.key))
    if (plan.body !== undefined) known.add("body")
    const unknown = Object.keys(args).filter((k) => !known.has(k))
    if (unknown.length > 0) {
      const expected = known.size === 0 ? "it takes no input" : `expected ${[...known].map((k) => JSON.stringify(k)).join(", ")}`
      return yield* new ToolError({ message: `${label}: unknown input ${unknown.map((k) => JSON.stringify(k)).join(", ")}; ${expected}` })
    }

    let path = plan.info.path
    const query: string[] = []
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(settings.headers)) headers[name.toLowerCase()] = value
    const cookies: string[] = []
    for (const p of plan.parameters) {
      const value = args[p.key]
      if (value === undefined || value === null) {
        if (p.required) return yield* new ToolError({ message: `${label}: missing required ${p.in} parameter ${JSON.stringify(p.key)}` })
        continue
      }
      const encoded = encodeParameter(p, value)
      if (typeof encoded !== "object") return yield* new ToolError({ message: `${label}: ${encoded}` })
      if (p.in === "path") path = path.split(`{${p.name}}`).join(encoded.value)
      else if (p.in === "query") query.push(...encoded.pairs)
      else headers[p.name.toLowerCase()] = encoded.value
    }
    if (plan.body !== undefined && args.body === undefined && plan.body.required) {
      return yield* new ToolError({ message: `${label}: missing required "body"` })
    }
    if (plan.accept !== undefined) headers.accept = plan.accept

    const credentials = yield* resolveCredentials(plan, settings.auth, key)
    for (const { scheme, credential } of credentials) applyCredential(scheme.definition, credential, { headers, query, cookies })
    if (cookies.length > 0) headers.cookie = cookies.join("; ")

    const { HttpClient, HttpClientRequest } = httpModules()
    const url = `${plan.server}${path}${query.length > 0 ? `?${query.join("&")}` : ""}`
    let request = HttpClientRequest.make(plan.info.method as HttpMethod)(url, { headers })
    if (plan.body !== undefined && args.body !== undefined) request = HttpClientRequest.bodyText(request, JSON.stringify(args.body), plan.body.mediaType)

    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(request).pipe(
      Effect.flatMap((response) => Effect.map(response.text, (text) => ({ response, text }))),
      Effect.mapError((e) => new ToolError({ message: `${label}: the request failed (${e.reason._tag})` })),
    )
    return yield* decodeResponse(label, response.response, response.text)
  })

const decodeResponse = (label: string, response: HttpClientResponse.HttpClientResponse, text: string): Effect.Effect<unknown, ToolError> => {
  const json = isJsonContentType(response.headers["content-type"])
  if (response.status < 200 || response.status > 299) {
    const snippet = text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}…` : text
    let body: unknown = text.length > ERROR_BODY_CHARS ? `${text.slice(0, ERROR_BODY_CHARS)}…` : text
    const parsed = json && text.length <= ERROR_BODY_CHARS ? parseJson(text) : undefined
    if (parsed !== undefined) body = parsed.value
    const message = `${label} responded ${response.status}${snippet === "" ? "" : `: ${snippet}`}`
    return Effect.fail(new ToolError({ message, data: { status: response.status, body } }))
  }
  if (text === "") return Effect.succeed(null)
  if (!json) return Effect.succeed(text)
  const parsed = parseJson(text)
  if (parsed === undefined) {
    const snippet = text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}…` : text
    return Effect.fail(new ToolError({ message: `${label} responded ${response.status} with invalid JSON: ${snippet}` }))
  }
  return Effect.succeed(parsed.value)
}

const parseJson = (text: string): { readonly value: unknown } | undefined => {
  try {
    return { value: JSON.parse(text) }
  } catch {
    return undefined
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Parameters (OpenAPI "Style Values" and "Style Examples")

type Encoded = { readonly value: string; readonly pairs: ReadonlyArray<string> }

/** RFC 3986 reserved characters `allowReserved` leaves as they are, except those that would split the query. */
const encodeReserved = (s: string): string => encodeURIComponent(s).replace(/%(3A|2F|3F|40|21|24|27|28|29|2A|2C|3B|5B|5D)/gi, (m) => decodeURIComponent(m))

/** A scalar as parameter text; nested arrays and objects, which no style defines, as JSON. */
const scalar = (v: unknown): string => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v))

/** The encoded value of a parameter (path and header: `value`; query: `pairs`), or why it cannot be encoded. */
const encodeParameter = (p: ParameterPlan, value: unknown): Encoded | string => {
  const enc = p.in === "header" ? (s: string) => s : p.allowReserved ? encodeReserved : encodeURIComponent
  const name = enc(p.name)
  const one = (v: string): Encoded => ({ value: v, pairs: [`${name}=${v}`] })
  if (p.style === "json") return one(enc(JSON.stringify(value)))
  if (Array.isArray(value)) {
    const items = value.map((v) => enc(scalar(v)))
    switch (p.style) {
      case "simple":
        return one(items.join(","))
      case "form":
        return p.explode ? { value: "", pairs: items.map((v) => `${name}=${v}`) } : one(items.join(","))
      case "spaceDelimited":
      case "pipeDelimited":
        if (p.explode) return { value: "", pairs: items.map((v) => `${name}=${v}`) }
        return one(items.join(p.style === "spaceDelimited" ? "%20" : "|"))
      case "deepObject":
        return `${p.in} parameter ${JSON.stringify(p.key)} is an object parameter (deepObject) and cannot take an array`
    }
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(([k, v]) => [enc(k), enc(scalar(v))] as const)
    switch (p.style) {
      case "simple":
        return one(entries.map(([k, v]) => (p.explode ? `${k}=${v}` : `${k},${v}`)).join(","))
      case "form":
        return p.explode ? { value: "", pairs: entries.map(([k, v]) => `${k}=${v}`) } : one(entries.map(([k, v]) => `${k},${v}`).join(","))
      case "deepObject":
        return { value: "", pairs: entries.map(([k, v]) => `${name}[${k}]=${v}`) }
      case "spaceDelimited":
      case "pipeDelimited":
        return `${p.in} parameter ${JSON.stringify(p.key)} is an array parameter (${p.style}) and cannot take an object`
    }
  }
  return one(enc(scalar(value)))
}

// ---------------------------------------------------------------------------------------------------------------
// Credentials

/** The credentials of the first security requirement whose schemes the host can all resolve; none otherwise. */
const resolveCredentials = (
  plan: Plan,
  auth: Auth<unknown> | undefined,
  key: string,
): Effect.Effect<ReadonlyArray<{ readonly scheme: SchemeUse; readonly credential: Credential }>, unknown, unknown> =>
  Effect.gen(function* () {
    if (auth === undefined) return []
    for (const alternative of plan.security) {
      const resolved: Array<{ readonly scheme: SchemeUse; readonly credential: Credential }> = []
      for (const scheme of alternative) {
        // Mutual TLS is the HTTP client's configuration; there is nothing to add to the request.
        if (scheme.definition.type === "mutualTLS") continue
        const credential = yield* callHost(() =>
          auth.resolve({
            scheme: scheme.name,
            type: String(scheme.definition.type),
            definition: scheme.definition,
            scopes: scheme.scopes,
            operation: plan.info,
            key,
          }),
        )
        if (credential === undefined || credential === null) break
        resolved.push({ scheme, credential: credential as Credential })
      }
      if (resolved.length === alternative.filter((s) => s.definition.type !== "mutualTLS").length) return resolved
    }
    return []
  })

const applyCredential = (
  definition: { readonly [key: string]: unknown },
  credential: Credential,
  target: { readonly headers: Record<string, string>; readonly query: string[]; readonly cookies: string[] },
): void => {
  const secret = typeof credential === "string" ? credential : Buffer.from(`${credential.username}:${credential.password}`, "utf8").toString("base64")
  switch (definition.type) {
    case "apiKey": {
      const name = String(definition.name)
      if (definition.in === "query") target.query.push(`${encodeURIComponent(name)}=${encodeURIComponent(secret)}`)
      else if (definition.in === "cookie") target.cookies.push(`${name}=${encodeURIComponent(secret)}`)
      else target.headers[name.toLowerCase()] = secret
      return
    }
    case "http": {
      const scheme = typeof definition.scheme === "string" ? definition.scheme : "bearer"
      const lower = scheme.toLowerCase()
      const prefix = lower === "bearer" ? "Bearer" : lower === "basic" ? "Basic" : scheme
      target.headers.authorization = `${prefix} ${secret}`
      return
    }
    default:
      // oauth2 and openIdConnect: the access token.
      target.headers.authorization = `Bearer ${secret}`
  }
}
