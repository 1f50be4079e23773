/** `KeyStore`: the contract for API keys (table `api_keys`), found by the SHA-256 of the key (keys.ts says why). */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as SqlError from "effect/sql/SqlError"

export interface KeyInfo {
  readonly id: string
  readonly tenant: string
  readonly name: string | null
  readonly createdAt: Date
  readonly revoked: boolean
}

type E<A> = Effect.Effect<A, SqlError.SqlError>

export class KeyStore extends Context.Service<
  KeyStore,
  {
    readonly insert: (key: { readonly hash: string; readonly id: string; readonly tenant: string; readonly name: string | null }) => E<void>
    /** The tenant of the valid (not revoked) key with this hash. */
    readonly tenantOf: (hash: string) => E<string | undefined>
    readonly anyActive: E<boolean>
    /** Every key, oldest first. */
    readonly list: E<ReadonlyArray<KeyInfo>>
    /** Revokes a valid key by its id; false when there is none. */
    readonly revoke: (id: string) => E<boolean>
  }
>()("codemode/server/KeyStore") {}
