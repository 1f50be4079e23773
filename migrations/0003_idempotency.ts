/**
 * Idempotency (issue 7 "Idempotency").
 *
 * - idempotency_keys: the stored answer of a mutating request per (tenant, `Idempotency-Key`), with the
 *   fingerprint of the request it answered (method, path, body). `status` is null while the first request is in
 *   progress; a row in progress for long (its replica died) can be taken over (`Idempotency.begin`).
 * - runs.request_hash: the fingerprint of the `POST /v1/runs` that made the run (code, tools, limits), so a
 *   repeat with the same client-chosen `id` answers that run and a different request with it a 409.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE idempotency_keys (
    tenant text NOT NULL,
    key text NOT NULL,
    fingerprint text NOT NULL,
    status integer,
    content_type text,
    body text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (tenant, key)
  )`
  yield* sql`CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at)`
  yield* sql`ALTER TABLE runs ADD COLUMN request_hash text`
})
