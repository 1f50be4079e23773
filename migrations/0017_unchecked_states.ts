/**
 * runs.status and calls.state lose their CHECK constraints (issue 20). Postgres builds a table's CHECK expressions
 * again for every statement that writes a row of it (each parsed from the catalog's text and planned: ~47k
 * instructions a statement, under callgrind), so a short run's batched insert paid one, a resume three (its claim,
 * and its end with the call it settles): 3.6 % of the Postgres instructions of a short run. They guarded nothing the
 * writes do not: every status and state written is a literal of a statement or a value of the store's own union
 * types (RunStatus, the call states), never a client's text.
 *
 * Mixed versions: a replica of an older version is unaffected (it writes the same values).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE runs DROP CONSTRAINT runs_status_check`
  yield* sql`ALTER TABLE calls DROP CONSTRAINT calls_state_check`
})
