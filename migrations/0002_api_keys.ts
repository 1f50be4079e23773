/**
 * API keys (issue 7 "Tenants and keys"). A key is 32 random bytes (`cm_` + base64url) shown once by
 * `codemode keys create --tenant NAME`; only its SHA-256 is stored, and a request's key is looked up by that hash
 * (the primary key). A fast hash is enough here: slow hashes (bcrypt, argon2) protect low-entropy passwords from
 * guessing, and a 256-bit random key cannot be guessed from its hash however fast the hash is. `id` is a short
 * public name of the key (the first 12 hex digits of the hash) for listings and revocation.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE api_keys (
    hash text PRIMARY KEY,
    id text NOT NULL UNIQUE,
    tenant text NOT NULL,
    name text,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz
  )`
  yield* sql`CREATE INDEX api_keys_tenant ON api_keys (tenant)`
})
