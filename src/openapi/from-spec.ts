/**
 * `OpenAPI.fromSpec` (spec "OpenAPI tools"): every operation of the document, in document order, becomes a tool or
 * an entry of `skipped`. Names come from `operationId` (or the method and path, types.ts says how), plans from
 * operation.ts, calls from request.ts. Everything about the document is read here, synchronously; nothing is sent
 * until a program calls a tool.
 */
import type * as HttpClient from "effect/http/HttpClient"
import { idempotent, make, type Tool } from "../host/tool.ts"
import { Document, isObject, type RawOperation } from "./document.ts"
import { analyzeOperation, type Plan } from "./operation.ts"
import { callOperation, type Settings } from "./request.ts"
import type { Api, Auth, OperationInfo, Options, Skipped } from "./types.ts"

/** Methods RFC 9110 calls safe: resending one after a suspend changes nothing on the server. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"])

/**
 * Converts an OpenAPI 3.x document into one tool per supported operation. Operations that cannot be tools are
 * reported in `skipped` with a reason; an invalid `options` object throws a `TypeError`.
 *
 * @example
 * ```ts
 * const api = OpenAPI.fromSpec({
 *   spec: JSON.parse(await readFile("openapi.json", "utf8")),
 *   auth: { resolve: ({ scheme }) => (scheme === "bearerAuth" ? Secrets.token : undefined) },
 * })
 * const runtime = CodeMode.make({ tools: { opencode: api.tools } })
 * const result = yield* runtime.execute(code).pipe(Effect.provide(FetchHttpClient.layer))
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const fromSpec = <R = never>(options: Options<R>): Api<R> => {
  const doc = new Document(checkOptions(options))
  const settings: Settings = { auth: options.auth as Auth<unknown> | undefined, headers: options.headers ?? {} }
  const tools: { [name: string]: Tool<HttpClient.HttpClient | R> } = {}
  const skipped: Skipped[] = []
  const owners = new Map<string, string>()
  for (const raw of doc.operations()) {
    const info = operationInfo(raw)
    if (options.include !== undefined && !options.include(info)) continue
    const skip = (reason: string) => void skipped.push({ ...info, reason })
    if (info.name.split(".").some((segment) => segment === "")) {
      skip(`operationId ${JSON.stringify(info.operationId)} has an empty name segment`)
      continue
    }
    const owner = owners.get(info.name)
    if (owner !== undefined) {
      skip(`duplicate tool name ${JSON.stringify(info.name)} (already used by ${owner})`)
      continue
    }
    const analysis = analyzeOperation(doc, raw, info, { baseUrl: options.baseUrl, serverVariables: options.serverVariables ?? {} })
    if (!analysis.ok) {
      skip(analysis.reason)
      continue
    }
    owners.set(info.name, `${info.method} ${info.path}`)
    // A plain assignment of "__proto__" would set the prototype instead of adding a tool.
    Object.defineProperty(tools, info.name, { value: toolOf(analysis.plan, settings), enumerable: true, writable: true, configurable: true })
  }
  return { tools, skipped }
}

const checkOptions = (options: Options<unknown>): Document["root"] => {
  if (!isObject(options)) throw new TypeError("OpenAPI.fromSpec expects an options object")
  const spec: unknown = options.spec
  if (!isObject(spec)) throw new TypeError("OpenAPI.fromSpec: spec must be a parsed OpenAPI document (an object)")
  if (typeof spec.openapi !== "string" || !spec.openapi.startsWith("3.")) {
    const found = typeof spec.swagger === "string" ? `Swagger ${spec.swagger}` : `openapi ${JSON.stringify(spec.openapi)}`
    throw new TypeError(`OpenAPI.fromSpec supports OpenAPI 3.x documents, got ${found}`)
  }
  if (options.auth !== undefined && typeof options.auth?.resolve !== "function") throw new TypeError("OpenAPI.fromSpec: auth.resolve must be a function")
  if (options.baseUrl !== undefined && typeof options.baseUrl !== "string") throw new TypeError("OpenAPI.fromSpec: baseUrl must be a string")
  if (options.include !== undefined && typeof options.include !== "function") throw new TypeError("OpenAPI.fromSpec: include must be a function")
  return spec
}

const operationInfo = (raw: RawOperation): OperationInfo => {
  const { operation } = raw
  const operationId = typeof operation.operationId === "string" && operation.operationId !== "" ? operation.operationId : undefined
  return {
    name: operationId ?? derivedName(raw),
    operationId,
    method: raw.method.toUpperCase(),
    path: raw.path,
    tags: Array.isArray(operation.tags) ? operation.tags.filter((t): t is string => typeof t === "string") : [],
    deprecated: operation.deprecated === true,
  }
}

/** `GET /users/{userId}/posts` → `get_users_userId_posts`; `GET /` → `get_root`. */
const derivedName = (raw: RawOperation): string => {
  const segments = raw.path
    .split("/")
    .filter((s) => s !== "")
    .map((s) => s.replace(/[{}]/g, "").replace(/[^A-Za-z0-9_$]/g, "_"))
    .filter((s) => s !== "")
  return `${raw.method}_${segments.length > 0 ? segments.join("_") : "root"}`
}

const toolOf = <R>(plan: Plan, settings: Settings): Tool<HttpClient.HttpClient | R> => {
  const execute = (input: unknown, context: { readonly key: string }) => callOperation(plan, settings, input, context.key)
  const tool = make({
    description: plan.description,
    input: plan.input,
    ...(plan.output === undefined ? {} : { output: plan.output }),
    execute: SAFE_METHODS.has(plan.info.method) ? idempotent(execute) : execute,
  })
  return tool as Tool<HttpClient.HttpClient | R>
}
