/**
 * `Idempotency-Key` on every mutating `/v1` endpoint (issue 7 "Idempotency"; the header as in
 * https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/).
 *
 * The first request with a key claims the row (tenant, key) with its fingerprint (SHA-256 of method, path and
 * body), runs, and stores its answer — successes and the client's own errors (4xx) alike. A repeat with the same
 * key and the same request gets the stored answer (header `idempotent-replayed: true`) without running again,
 * on any replica; the same key with a different request is a 409 `IdempotencyKeyReused`; a repeat while the first
 * is still running is a 409 `IdempotencyKeyInUse`. Answers that say nothing about the request (5xx, a database
 * down, an interrupted request) are not stored: the row is released and a retry runs again.
 *
 * The rows are kept by `IdempotencyStore` (store/idempotency.ts), which also says how long.
 */
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import type * as SqlError from "effect/sql/SqlError"
import * as HttpServerRequest from "effect/http/HttpServerRequest"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import { createHash } from "node:crypto"
import { BadRequest, Conflict, NotFound, PayloadTooLarge, Unavailable } from "./api.ts"
import { Idempotency, Tenant } from "./endpoints.ts"
import { IdempotencyStore } from "./store/idempotency.ts"

export const HEADER = "idempotency-key"

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"])

const fail = <const K extends string>(kind: K, message: string) => ({ error: { kind, message } })

/** The client errors that are the request's answer (stored); anything else is not stored. */
const storedError = (e: unknown): { status: number; body: string } | undefined => {
  for (const [Class, status] of [[BadRequest, 400], [NotFound, 404], [Conflict, 409], [PayloadTooLarge, 413]] as const) {
    if (e instanceof Class) return { status, body: JSON.stringify({ error: e.error }) }
  }
  return undefined
}

const decoder = new TextDecoder()

export const layer: Layer.Layer<Idempotency, never, IdempotencyStore> = Layer.effect(
  Idempotency,
  Effect.gen(function* () {
    const store = yield* IdempotencyStore
    const unavailable = (e: SqlError.SqlError) =>
      Effect.logError("idempotency store", e).pipe(
        Effect.andThen(Effect.fail(new Unavailable(fail("DatabaseUnavailable", "The database is unavailable; try again")))),
      )
    // One generator function for every request (`Effect.fnUntraced`), not one per request: each would get a hidden
    // class of its own in old space, which keeps its request alive until a full GC.
    return Idempotency.of(
      Effect.fnUntraced(function* (httpEffect: Parameters<Parameters<typeof Idempotency.of>[0]>[0]) {
        const request = yield* HttpServerRequest.HttpServerRequest
        const key = request.headers[HEADER]
        if (key === undefined || !MUTATING.has(request.method)) return yield* httpEffect
        if (key === "" || key.length > 255) {
          return yield* new BadRequest(fail("InvalidIdempotencyKey", "Idempotency-Key must be 1 to 255 characters"))
        }
        const tenant = yield* Tenant
        // A body that cannot be read fails the same way in the handler: let it.
        const body = yield* Effect.orElseSucceed(request.text, () => undefined)
        if (body === undefined) return yield* httpEffect
        const path = request.url.split("?")[0] ?? request.url
        const fingerprint = createHash("sha256").update(`${request.method} ${path}\n${body}`).digest("hex")
        const claim = yield* store.begin(tenant, key, fingerprint).pipe(Effect.catchTag("SqlError", unavailable))
        switch (claim._tag) {
          case "Mismatch":
            return yield* new Conflict(
              fail("IdempotencyKeyReused", `Idempotency-Key ${JSON.stringify(key)} was already used for a different request`),
            )
          case "InProgress":
            return yield* new Conflict(
              fail("IdempotencyKeyInUse", `A request with Idempotency-Key ${JSON.stringify(key)} is still in progress; retry later`),
            )
          case "Replay": {
            const headers = { "idempotent-replayed": "true" }
            return claim.body === "" && claim.contentType === null
              ? HttpServerResponse.empty({ status: claim.status, headers })
              : HttpServerResponse.text(claim.body, { status: claim.status, contentType: claim.contentType ?? undefined, headers })
          }
        }
        // Saved whatever happens to the request, an interruption (client gone, shutdown) included.
        const save = (exit: Exit.Exit<HttpServerResponse.HttpServerResponse, unknown>) => {
          let answer: { status: number; contentType: string | null; body: string } | undefined
          if (Exit.isSuccess(exit)) {
            const response = exit.value
            const b = response.body
            if (response.status < 500 && b._tag === "Uint8Array") {
              answer = { status: response.status, contentType: b.contentType, body: decoder.decode(b.body) }
            } else if (response.status < 500 && b._tag === "Empty") answer = { status: response.status, contentType: null, body: "" }
          } else {
            const error = exit.cause.reasons.find((r) => r._tag === "Fail")
            const stored = error === undefined ? undefined : storedError(error.error)
            if (stored !== undefined) answer = { ...stored, contentType: "application/json" }
          }
          return (answer === undefined ? store.release(tenant, key) : store.complete(tenant, key, answer)).pipe(
            Effect.catch((e) => Effect.logWarning("could not save an idempotent answer", e)),
          )
        }
        return yield* httpEffect.pipe(Effect.onExit((exit) => save(exit)))
      }),
    )
  }),
)
