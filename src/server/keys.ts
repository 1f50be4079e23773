/**
 * `ApiKeys`: API keys bound to tenants (issue 7 "Tenants and keys"; table `api_keys`, migration 0002).
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
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { createHash, randomBytes } from "node:crypto"

/** Tenant names: as run ids, letters, digits, `.`, `_`, `-`. */
export const TENANT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

export const hashKey = (key: string): string => createHash("sha256").update(key).digest("hex")

export class InvalidTenant extends Data.TaggedError("InvalidTenant")<{ readonly tenant: string }> {
  override get message(): string {
    return `Invalid tenant name ${JSON.stringify(this.tenant)}: use letters, digits, ".", "_" and "-" (at most 64)`
  }
}

export interface KeyInfo {
  readonly id: string
  readonly tenant: string
  readonly name: string | null
  readonly createdAt: Date
  readonly revoked: boolean
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
  static readonly layer: Layer.Layer<ApiKeys, never, SqlClient.SqlClient> = Layer.effect(
    ApiKeys,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient

      const create = Effect.fn("ApiKeys.create")(function* (tenant: string, name?: string) {
        if (!TENANT_PATTERN.test(tenant)) return yield* new InvalidTenant({ tenant })
        const key = "cm_" + randomBytes(32).toString("base64url")
        const hash = hashKey(key)
        const id = hash.slice(0, 12)
        yield* sql`INSERT INTO api_keys (hash, id, tenant, name) VALUES (${hash}, ${id}, ${tenant}, ${name ?? null})`
        return { id, key, tenant }
      })

      const tenantOf = Effect.fnUntraced(function* (key: string) {
        const rows = yield* sql<{ tenant: string }>`
          SELECT tenant FROM api_keys WHERE hash = ${hashKey(key)} AND revoked_at IS NULL`
        return rows[0]?.tenant
      })

      // Once a key exists the answer is cached for good (safe: the server stays closed); "none" for a second, so
      // an open server notices a key created by `codemode keys create` almost at once.
      let known: { readonly any: boolean; readonly at: number } | undefined
      const anyActive = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        if (known !== undefined && (known.any || now - known.at < 1000)) return known.any
        const rows = yield* sql<{ any: boolean }>`SELECT EXISTS (SELECT 1 FROM api_keys WHERE revoked_at IS NULL) AS any`
        known = { any: rows[0]?.any === true, at: now }
        return known.any
      })

      const list = Effect.gen(function* () {
        const rows = yield* sql<{ id: string; tenant: string; name: string | null; created_at: Date; revoked: boolean }>`
          SELECT id, tenant, name, created_at, revoked_at IS NOT NULL AS revoked FROM api_keys ORDER BY created_at`
        return rows.map((r) => ({ id: r.id, tenant: r.tenant, name: r.name, createdAt: r.created_at, revoked: r.revoked }))
      }).pipe(Effect.withSpan("ApiKeys.list"))

      const revoke = Effect.fn("ApiKeys.revoke")(function* (id: string) {
        const rows = yield* sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${id} AND revoked_at IS NULL RETURNING id`
        return rows.length > 0
      })

      return ApiKeys.of({ create, tenantOf, anyActive, list, revoke })
    }),
  )
}
