/** `IdempotencyStore` on Postgres: the unique key (tenant, key) decides races between replicas. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import { type Answer, IdempotencyStore, RETENTION_HOURS, STALE_MINUTES } from "../idempotency.ts"
import { decodeRows } from "./shared.ts"

const Stored = Schema.Struct({
  fingerprint: Schema.String,
  status: Schema.NullOr(Schema.Number),
  content_type: Schema.NullOr(Schema.String),
  body: Schema.NullOr(Schema.String),
})
/** The row schemas this store decodes (`decodeRows`): the row decoders' test holds each to the Schema decode. */
export const rowSchemas = { Stored }

export const layer: Layer.Layer<IdempotencyStore, never, SqlClient.SqlClient> = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const begin = Effect.fnUntraced(function* (tenant: string, key: string, fingerprint: string) {
      // Insert, or take over a row that is stale (in progress too long) or expired.
      const claimed = yield* sql`
        INSERT INTO idempotency_keys (tenant, key, fingerprint) VALUES (${tenant}, ${key}, ${fingerprint})
        ON CONFLICT (tenant, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = NULL, content_type = NULL,
          body = NULL, created_at = now(), updated_at = now()
        WHERE (idempotency_keys.status IS NULL AND idempotency_keys.updated_at < now() - ${STALE_MINUTES} * interval '1 minute')
           OR idempotency_keys.created_at < now() - ${RETENTION_HOURS} * interval '1 hour'
        RETURNING key`
      if (claimed.length > 0) return { _tag: "Claimed" } as const
      const rows = yield* decodeRows(Stored)(
        yield* sql`SELECT fingerprint, status, content_type, body FROM idempotency_keys WHERE tenant = ${tenant} AND key = ${key}`,
      )
      const row = rows[0]
      if (row === undefined) return { _tag: "InProgress" } as const // released just now: the client retries
      if (row.fingerprint !== fingerprint) return { _tag: "Mismatch" } as const
      if (row.status === null) return { _tag: "InProgress" } as const
      return { _tag: "Replay", status: row.status, contentType: row.content_type, body: row.body ?? "" } as const
    })
    const complete = Effect.fnUntraced(function* (tenant: string, key: string, answer: Answer) {
      yield* sql`
        UPDATE idempotency_keys SET status = ${answer.status}, content_type = ${answer.contentType}, body = ${answer.body},
          updated_at = now()
        WHERE tenant = ${tenant} AND key = ${key} AND status IS NULL`
    })
    const release = Effect.fnUntraced(function* (tenant: string, key: string) {
      yield* sql`DELETE FROM idempotency_keys WHERE tenant = ${tenant} AND key = ${key} AND status IS NULL`
    })
    return IdempotencyStore.of({ begin, complete, release })
  }),
)
