/**
 * The options and results of `OpenAPI.fromSpec` (spec "OpenAPI tools"): what a host passes (the document, how to
 * authenticate, where to send requests, which operations to keep) and what it gets back (the tools, and the
 * operations that could not become tools, each with a reason).
 *
 * How a generated tool looks to the program:
 *
 * - **Name.** The `operationId`; dots in it create namespaces (`sessions.list` is `tools.<prefix>.sessions.list`).
 *   An operation without one is named `<method>_<path segments>`, with `{` `}` dropped and any other character
 *   that is not a letter, digit, `_` or `$` turned into `_`: `GET /users/{userId}/posts` is `get_users_userId_posts`,
 *   `GET /` is `get_root`.
 * - **Description.** The operation's `summary` and `description` (`METHOD /path` when it has neither), prefixed with
 *   "Deprecated." for a deprecated operation.
 * - **Input.** One object: every path, query and header parameter under its own name, and the JSON request body
 *   under `body`. A parameter whose name is taken (by a parameter of another location, or by `body`) is keyed
 *   `<in>:<name>` instead (`"query:id"`). Header parameters named `Accept`, `Content-Type` or `Authorization`, and
 *   parameters an API key security scheme of the operation supplies, are left out: the host sets those.
 * - **Output.** The JSON Schema of the success responses (2xx, or `default` when there is none): parsed JSON for a
 *   JSON media type, a string for a text one, `null` for an empty body; `Promise<void>` when no success response
 *   has content.
 * - **Failures.** A non-2xx response rejects with a `ToolError` whose message names the operation and status and
 *   carries the start of the body, and whose `data` is `{ status, body }` (the body parsed when it is JSON, cut to
 *   a bounded length otherwise). A request that cannot be sent rejects with a `ToolError` that names the operation,
 *   never the URL (which may hold an API key).
 *
 * Operations with safe methods (GET, HEAD, OPTIONS, TRACE) are `Tool.idempotent`: a VM run may be suspended while
 * one is in flight, and resends it on resume.
 */
import type * as Effect from "effect/Effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { Tool } from "../host/tool.ts"

/**
 * An OpenAPI 3.0 or 3.1 document, already parsed from JSON or YAML. Only `openapi` is checked up front; the rest
 * is read as the OpenAPI specification describes it, and what cannot be used is reported in `skipped`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Document {
  readonly openapi: string
  readonly [key: string]: unknown
}

/**
 * An operation as `include`, `auth.resolve` and `skipped` describe it.
 *
 * @since 0.1.0
 * @category models
 */
export interface OperationInfo {
  /** The tool's path under the tools it is installed with: `sessions.list`, `get_users_userId`. */
  readonly name: string
  readonly operationId: string | undefined
  /** Upper case: `GET`, `POST`... */
  readonly method: string
  /** The path template as the document writes it: `/users/{id}`. */
  readonly path: string
  readonly tags: ReadonlyArray<string>
  readonly deprecated: boolean
}

/**
 * A credential for one security scheme:
 *
 * - `apiKey`: the key, sent in the header, query parameter or cookie the scheme names;
 * - `http` with scheme `bearer`, `oauth2`, `openIdConnect`: the token, sent as `Authorization: Bearer <token>`;
 * - `http` with scheme `basic`: `{ username, password }`, or a string already in base64 form;
 * - any other `http` scheme: sent as `Authorization: <Scheme> <credential>`.
 *
 * @since 0.1.0
 * @category models
 */
export type Credential = string | { readonly username: string; readonly password: string }

/**
 * What `auth.resolve` is asked for: one security scheme of one request.
 *
 * @since 0.1.0
 * @category models
 */
export interface AuthRequest {
  /** The scheme's name in `components.securitySchemes`. */
  readonly scheme: string
  /** `apiKey`, `http`, `oauth2` or `openIdConnect` (`mutualTLS` is the HTTP client's business and never asked). */
  readonly type: string
  /** The scheme object from the document, `$ref` resolved. */
  readonly definition: { readonly [key: string]: unknown }
  /** The scopes the operation's security requirement lists (OAuth 2 and OpenID Connect). */
  readonly scopes: ReadonlyArray<string>
  readonly operation: OperationInfo
  /** The tool call's idempotency key, `<runId>:<callId>`. */
  readonly key: string
}

/**
 * How requests are authenticated. Credentials are resolved by the host for every request and applied to it; they
 * never appear in signatures, descriptions, results or error messages the program sees.
 *
 * @since 0.1.0
 * @category models
 */
export interface Auth<R = never> {
  /**
   * A credential for one scheme of the request, or `undefined` when the host has none. The operation's security
   * requirements (or the document's) are tried in order, and the first whose schemes all resolve is applied; when
   * none does, the request is sent without credentials and the server decides. May return an Effect (whose
   * requirements join the tools'), a Promise or a value; a failure fails the call as a host fault.
   */
  readonly resolve: (request: AuthRequest) => Effect.Effect<Credential | undefined, unknown, R> | PromiseLike<Credential | undefined> | Credential | undefined
}

/**
 * Options of `OpenAPI.fromSpec`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options<R = never> {
  /** The OpenAPI 3.x document. */
  readonly spec: Document
  /** How to authenticate requests; without it, requests carry no credentials. */
  readonly auth?: Auth<R> | undefined
  /**
   * Where requests go, overriding the document's `servers` (e.g. `https://api.example.com/v1`). Without it, each
   * operation uses the first server of the operation, else of its path, else of the document, with its variables
   * from `serverVariables` or their defaults. A relative server URL is used as is, for an HTTP client that
   * prepends an origin (`HttpClient.mapRequest(HttpClientRequest.prependUrl(origin))`).
   */
  readonly baseUrl?: string | undefined
  /** Values for server URL variables (`https://{region}.example.com`), over their defaults. */
  readonly serverVariables?: { readonly [name: string]: string } | undefined
  /** Headers sent with every request (a user agent, an API version...); parameters and credentials override them. */
  readonly headers?: { readonly [name: string]: string } | undefined
  /** Keeps only the operations it returns `true` for; the others are neither tools nor reported in `skipped`. */
  readonly include?: ((operation: OperationInfo) => boolean) | undefined
}

/**
 * An operation that could not become a tool, and why (an unsupported parameter encoding, a request body without
 * JSON content, WebSocket or SSE semantics, a binary response, an unresolvable `$ref`, a duplicate name...).
 *
 * @since 0.1.0
 * @category models
 */
export interface Skipped extends OperationInfo {
  readonly reason: string
}

/**
 * The result of `OpenAPI.fromSpec`: one tool per supported operation, keyed by name (dotted names create
 * namespaces when installed), and the skipped operations in document order.
 *
 * @since 0.1.0
 * @category models
 */
export interface Api<R = never> {
  readonly tools: { readonly [name: string]: Tool<HttpClient.HttpClient | R> }
  readonly skipped: ReadonlyArray<Skipped>
}
