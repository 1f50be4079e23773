/**
 * `ApiKeys`: API keys bound to tenants (issue 7 "Tenants and keys"; stored by `KeyStore`).
 *
 * A key is `cm_` + base64url of 32 random bytes. It is shown once, when it is created; the database keeps its
 * SHA-256 only, and a request's key is found by that hash. A fast hash is the right tool for a high-entropy
 * secret: bcrypt/argon2 slow down guessing of low-entropy passwords, while 256 random bits cannot be guessed from
 * their hash at any speed — and a deterministic hash lets the lookup be one indexed read instead of a scan.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as SqlError from "effect/sql/SqlError"
import { createHash, randomBytes } from "node:crypto"
import { type KeyInfo, KeyStore } from "./store/keys.ts"

/** Tenant names: as run ids, letters, digits, `.`, `_`, `-`. */
export const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export const hashKey = (key: string): string => createHash("sha256").update(key).digest("hex")

export class InvalidTenant extends Data.TaggedError("InvalidTenant")<{ readonly tenant: string }> {
  override get message(): string {
    return `Invalid tenant name ${JSON.stringify(this.tenant)}: use letters, digits, ".", "_" and "-" (at most 64)`
  }
}

type E<A, X = never> = Effect.Effect<A, SqlError.SqlError | X>

export class ApiKeys extends Context.Service<
  ApiKeys,
  {
    /** Makes a key for `tenant`; the answer holds the key itself, which is never available again. */
    readonly create: (tenant: string, name?: string) => E<{ readonly id: string; readonly key: string; readonly tenant: string }, InvalidTenant>
    /** The tenant of a valid (not revoked) key, or undefined. */
    readonly tenantOf: (key: string) => E<string | undefined>
    /** Whether any key is valid: a server without `CODEMODE_API_KEY` is open only while none is. */
    readonly anyActive: E<boolean>
    readonly list: E<ReadonlyArray<KeyInfo>>
    /** Revokes a key by its id; false when there is no such valid key. */
    readonly revoke: (id: string) => E<boolean>
  }
>()("codemode/server/ApiKeys") {
  static readonly layer: Layer.Layer<ApiKeys, never, KeyStore> = Layer.effect(
    ApiKeys,
    Effect.gen(function* () {
      const store = yield* KeyStore

      const create = Effect.fnUntraced(function* (tenant: string, name?: string) {
        if (!TENANT_PATTERN.test(tenant)) return yield* new InvalidTenant({ tenant })
        const key = "cm_" + randomBytes(32).toString("base64url")
        const hash = hashKey(key)
        const id = hash.slice(0, 12)
        yield* store.insert({ hash, id, tenant, name: name ?? null })
        return { id, key, tenant }
      })

      // Once a key exists the answer is cached for good (safe: the server stays closed); "none" for a second, so
      // an open server notices a key created by `codemode keys create` almost at once.
      let known: { readonly any: boolean; readonly at: number } | undefined
      const anyActive = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        if (known !== undefined && (known.any || now - known.at < 1000)) return known.any
        known = { any: yield* store.anyActive, at: now }
        return known.any
      })

      return ApiKeys.of({
        create,
        tenantOf: (key) => store.tenantOf(hashKey(key)),
        anyActive,
        list: store.list.pipe(Effect.withSpan("ApiKeys.list")),
        revoke: (id) => store.revoke(id).pipe(Effect.withSpan("ApiKeys.revoke")),
      })
    }),
  )
}
