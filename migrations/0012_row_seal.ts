/**
 * runs.seal and checkpoints.seal: the HMAC the service seals a run row with — its execution-shaping fields and
 * its saved state (src/server/row-seal.ts) — checked before the row is executed again. Null for rows written
 * before it existed, or by a service without a key; with a key set, such a row is refused when resumed.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE runs ADD COLUMN seal text`
  yield* sql`ALTER TABLE checkpoints ADD COLUMN seal text`
})
