/**
 * events.run_id loses its foreign key to runs (issue 20). The key was checked by a lookup of the run's row (the
 * referential-integrity trigger) for every event written: two per short run, one per log line and per call change,
 * about a tenth of the Postgres CPU of a short run. It guarded nothing the writes do not: a run's events are written
 * by the statements that write or lock its row, and by its log flushes, which only a replica that has recorded the
 * run makes. No statement deletes runs, so its cascade never ran.
 *
 * Mixed versions: a replica of an older version is unaffected (none of its statements relied on an event refused).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE events DROP CONSTRAINT events_run_id_fkey`
})
