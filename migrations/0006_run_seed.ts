/**
 * runs.seed: the seed of the run's Math.random (issue 15), drawn when the run is created. A resumed run carries its
 * generator in its saved state; a run replayed from its code (a state this build cannot read) needs the seed to
 * draw the same numbers again. Null for runs created before it existed (they replay with a fresh seed).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE runs ADD COLUMN seed text`
})
