/** `KeyStore` on Postgres. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import { KeyStore } from "../keys.ts"
import { CHANNEL, decodeRows } from "./shared.ts"

const Tenant = Schema.Struct({ tenant: Schema.String })
const Any = Schema.Struct({ any: Schema.Boolean })
const KeyRaw = Schema.Struct({
  id: Schema.String,
  tenant: Schema.String,
  name: Schema.NullOr(Schema.String),
  created_at: Schema.Date,
  revoked: Schema.Boolean,
})
/** The row schemas this store decodes (`decodeRows`): the row decoders' test holds each to the Schema decode. */
export const rowSchemas = { Tenant, Any, KeyRaw }

export const layer: Layer.Layer<KeyStore, never, SqlClient.SqlClient> = Layer.effect(
  KeyStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    return KeyStore.of({
      insert: (key) => sql`INSERT INTO api_keys (hash, id, tenant, name) VALUES (${key.hash}, ${key.id}, ${key.tenant}, ${key.name})`.pipe(Effect.asVoid),
      tenantOf: (hash) =>
        sql`SELECT tenant FROM api_keys WHERE hash = ${hash} AND revoked_at IS NULL`.pipe(
          Effect.flatMap(decodeRows(Tenant)),
          Effect.map((rows) => rows[0]?.tenant),
        ),
      anyActive: sql`SELECT EXISTS (SELECT 1 FROM api_keys WHERE revoked_at IS NULL) AS any`.pipe(
        Effect.flatMap(decodeRows(Any)),
        Effect.map((rows) => rows[0]?.any === true),
      ),
      list: sql`SELECT id, tenant, name, created_at, revoked_at IS NOT NULL AS revoked FROM api_keys ORDER BY created_at`.pipe(
        Effect.flatMap(decodeRows(KeyRaw)),
        Effect.map((rows) => rows.map((r) => ({ id: r.id, tenant: r.tenant, name: r.name, createdAt: r.created_at, revoked: r.revoked }))),
      ),
      // The notice goes with the change (replicas stop trusting the keys they checked lately: auth.ts).
      revoke: (id) =>
        sql`
          WITH r AS (UPDATE api_keys SET revoked_at = now() WHERE id = ${id} AND revoked_at IS NULL RETURNING id)
          SELECT r.id FROM r, LATERAL (SELECT pg_notify(${CHANNEL}, ${JSON.stringify({ type: "keys" })})) AS notified`.pipe(Effect.map((rows) => rows.length > 0)),
    })
  }),
)
