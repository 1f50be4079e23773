/**
 * The client without Effect: every endpoint of the Effect client (`ApiClient`) as a function that returns a
 * Promise, and the event stream as an `AsyncIterable`. Failures reject with a `ClientError` that says what went
 * wrong in one line: the service's own `{ kind, message }` for a 4xx/5xx answer, `Unreachable` when no answer came.
 *
 * ```ts
 * const client = new Client({ baseUrl: "http://127.0.0.1:8080" })
 * const run = await client.runs.create({ payload: { code: "1 + 1" } })
 * for await (const event of await client.runs.events({ params: { id: run.id }, query: {} })) console.log(event)
 * ```
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"
import type { ApiClient, ClientOptions } from "./effect.ts"
import { make } from "./effect.ts"
import type { BlockingCall } from "../server/api.ts"

/**
 * `ApiClient` with Promises for Effects and async iterables for streams. The Effect client's `withResponse: true`
 * variant (the value with its raw response) has no Promise form: its results are dropped from the types here.
 */
export type Promised<T> = {
  readonly [K in keyof T]: T[K] extends (...args: infer P) => Effect.Effect<infer A, infer _E, infer _R>
    ? (...args: P) => Promise<Plain<A> extends Stream.Stream<infer X, infer _SE, infer _SR> ? AsyncIterable<X> : Plain<A>>
    : Promised<T[K]>
}

type Plain<A> = Exclude<A, HttpClientResponse.HttpClientResponse | readonly [unknown, HttpClientResponse.HttpClientResponse]>

/** Why a request failed. `status` is the HTTP status when the service answered. */
export class ClientError extends Error {
  override readonly name = "ClientError"
  /** The service's error kind (`NotFound`, `Conflict`, `InvalidCompletion`, …), or `Unreachable` / `InvalidResponse` / `InvalidRequest`. */
  readonly kind: string
  readonly status: number | undefined
  /** With a refused suspend: the calls in flight that cannot be repeated. */
  readonly calls: ReadonlyArray<BlockingCall> | undefined

  constructor(kind: string, message: string, status?: number, calls?: ReadonlyArray<BlockingCall>, options?: ErrorOptions) {
    super(message, options)
    this.kind = kind
    this.status = status
    this.calls = calls
  }
}

/** The statuses the API's error classes are answered with (api.ts). */
const apiStatus: Record<string, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  NotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  UnsupportedMediaType: 415,
  Unavailable: 503,
}

const statusOf = (error: object): number | undefined => {
  const tag = (error as { _tag?: unknown })._tag
  if (typeof tag === "string" && apiStatus[tag] !== undefined) return apiStatus[tag]
  const response = (error as { reason?: { response?: { status?: unknown } } }).reason?.response
  return typeof response?.status === "number" ? response.status : undefined
}

/** One line for any failure the Effect client can produce. */
export const toClientError = (error: unknown): ClientError => {
  if (error instanceof ClientError) return error
  if (typeof error !== "object" || error === null) return new ClientError("InvalidRequest", String(error))
  const body = (error as { error?: { kind?: unknown; message?: unknown; calls?: ReadonlyArray<BlockingCall> } }).error
  if (body !== undefined && typeof body.kind === "string" && typeof body.message === "string") {
    return new ClientError(body.kind, body.message, statusOf(error), body.calls, { cause: error })
  }
  const tag = (error as { _tag?: unknown })._tag
  const reason = (error as { reason?: { _tag?: unknown; request?: { method?: string; url?: string }; cause?: unknown } }).reason
  if (tag === "HttpClientError" && reason !== undefined) {
    const where = reason.request ? `${reason.request.method} ${reason.request.url}` : "the service"
    if (reason._tag === "TransportError") {
      const cause = reason.cause as { message?: unknown; cause?: { code?: unknown; message?: unknown } } | undefined
      const why = cause?.cause?.code ?? cause?.cause?.message ?? cause?.message ?? "no answer"
      return new ClientError("Unreachable", `cannot reach ${where}: ${String(why)}`, undefined, undefined, { cause: error })
    }
    const status = statusOf(error)
    return new ClientError(
      "InvalidResponse",
      `unexpected answer to ${where}${status === undefined ? "" : ` (HTTP ${status})`}`,
      status,
      undefined,
      { cause: error },
    )
  }
  const message = error instanceof Error ? error.message.split("\n")[0]! : String(error)
  return new ClientError(tag === "SchemaError" ? "InvalidRequest" : "InvalidResponse", message, undefined, undefined, { cause: error })
}

const promised = (value: unknown): unknown => {
  if (typeof value === "function") {
    return (...args: Array<unknown>) =>
      Effect.runPromise(
        (value as (...a: Array<unknown>) => Effect.Effect<unknown, unknown>)(...args).pipe(
          Effect.map((out) =>
            Stream.isStream(out) ? Stream.toAsyncIterable(Stream.mapError(out as Stream.Stream<unknown, unknown>, toClientError)) : out,
          ),
          Effect.mapError(toClientError),
        ),
      ).catch((error: unknown) => {
        // runPromise wraps failures in a FiberFailure-like error; keep ours.
        throw toClientError((error as { cause?: unknown }).cause instanceof ClientError ? (error as { cause: unknown }).cause : error)
      })
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, promised(v)]))
  }
  return value
}

/** A Promise client of the service over `fetch`: `client.runs.get({ params: { id } })`, `client.health()`, … */
export class Client {
  readonly runs: Promised<ApiClient["runs"]>
  readonly tools: Promised<ApiClient["tools"]>
  readonly calls: Promised<ApiClient["calls"]>
  /** Durable-call capability URLs (`callbackUrl`), which need no API key. */
  readonly callbacks: Promised<ApiClient["callbacks"]>
  readonly health: Promised<ApiClient>["health"]
  readonly ready: Promised<ApiClient>["ready"]
  readonly metrics: Promised<ApiClient>["metrics"]
  readonly openapi: Promised<ApiClient>["openapi"]

  constructor(options: ClientOptions) {
    const api = promised(Effect.runSync(make(options).pipe(Effect.provide(FetchHttpClient.layer)))) as Promised<ApiClient>
    this.runs = api.runs
    this.tools = api.tools
    this.calls = api.calls
    this.callbacks = api.callbacks
    this.health = api.health
    this.ready = api.ready
    this.metrics = api.metrics
    this.openapi = api.openapi
  }
}
