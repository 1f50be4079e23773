/**
 * The run inspector (issue 19):
 *
 * - calls.location: where in the program's source the call was made, `{ "line", "column" }` (1-based), recorded when
 *   the call is admitted; null when unknown (calls made before this migration, a call run again after a resume
 *   keeps the location its first attempt recorded).
 * - calls_path: the runs that called a tool (`GET /v1/runs?tool=…`), found without reading every call of every run.
 *
 * Numbered after 0012 rather than in the free 0010: the migrator applies only ids above a database's newest, so a
 * database already at 0012 would never get a 0010.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE calls ADD COLUMN location jsonb`
  yield* sql`CREATE INDEX calls_path ON calls (path, run_id)`
})
