/**
 * A typed client of the codemode execution service, derived from the same API declaration as the server
 * (`../server/api.ts`), so a route, payload or error that changes there changes here. Used by the CLI, the
 * service tests and anyone driving the service from Effect:
 *
 * ```ts
 * const client = yield* CodeModeClient
 * const run = yield* client.runs.create({ payload: { code: "1 + 1" } })
 * ```
 *
 * Errors arrive as the API's classes (`NotFound`, `Conflict`, …) with their `{ error: { kind, message } }` body.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import * as HttpApiClient from "effect/http-api/HttpApiClient"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import { Api, Authorization } from "../server/endpoints.ts"

export type ApiClient = HttpApiClient.ForApi<typeof Api>

export interface ClientOptions {
  /** The server, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string
  /** Sent as `Authorization: Bearer <apiKey>` when the server has `CODEMODE_API_KEY`. */
  readonly apiKey?: string | undefined
}

const authorization = (apiKey: string | undefined) =>
  HttpApiMiddleware.layerClient(Authorization, ({ next, request }) =>
    next(apiKey === undefined ? request : HttpClientRequest.bearerToken(request, apiKey)),
  )

/** Makes a client over the current `HttpClient`. */
export const make = (options: ClientOptions): Effect.Effect<ApiClient, never, HttpClient.HttpClient> =>
  HttpApiClient.make(Api, { baseUrl: options.baseUrl }).pipe(Effect.provide(authorization(options.apiKey)))

export class CodeModeClient extends Context.Service<CodeModeClient, ApiClient>()("codemode/client/CodeModeClient") {
  /** A client over `fetch`. */
  static readonly layer = (options: ClientOptions): Layer.Layer<CodeModeClient> =>
    Layer.effect(CodeModeClient, make(options)).pipe(Layer.provide(FetchHttpClient.layer))
}
