/**
 * tools.previous_secret / previous_secret_until: a rotated tool's old secret, which still signs its requests (beside
 * the new one) until the overlap ends, so receivers can switch without dropping calls (issue 15).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE tools ADD COLUMN previous_secret text`
  yield* sql`ALTER TABLE tools ADD COLUMN previous_secret_until timestamptz`
})
