/**
 * `IdempotencyStore`: the contract for `Idempotency-Key` answers (table `idempotency_keys`; idempotency.ts has
 * the protocol). The first request with a key claims it; a row in progress for longer than `STALE_MINUTES` (its
 * replica died mid-request) can be claimed again, and keys are remembered for `RETENTION_HOURS`.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as SqlError from "effect/sql/SqlError"

export const STALE_MINUTES = 15
export const RETENTION_HOURS = 24

/** What the store says about a key. */
export type Claim =
  | { readonly _tag: "Claimed" }
  | { readonly _tag: "Replay"; readonly status: number; readonly contentType: string | null; readonly body: string }
  | { readonly _tag: "Mismatch" }
  | { readonly _tag: "InProgress" }

export interface Answer {
  readonly status: number
  readonly contentType: string | null
  readonly body: string
}

type E<A> = Effect.Effect<A, SqlError.SqlError>

export class IdempotencyStore extends Context.Service<
  IdempotencyStore,
  {
    readonly begin: (tenant: string, key: string, fingerprint: string) => E<Claim>
    /** Stores the answer of a claim still in progress. */
    readonly complete: (tenant: string, key: string, answer: Answer) => E<void>
    /** Forgets a claim whose request gave no answer worth keeping. */
    readonly release: (tenant: string, key: string) => E<void>
  }
>()("codemode/server/IdempotencyStore") {}
