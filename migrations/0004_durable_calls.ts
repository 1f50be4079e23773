/**
 * Durable webhook calls (issue 7): a call's one-time capability callback is found by the SHA-256 of its token
 * (`/v1/callbacks/{token}`); the token itself is only in the `start` request sent to the tool.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE calls ADD COLUMN callback_hash text`
  yield* sql`CREATE UNIQUE INDEX calls_callback ON calls (callback_hash) WHERE callback_hash IS NOT NULL`
})
