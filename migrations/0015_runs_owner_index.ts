/**
 * runs_owner (0001) goes: no statement finds runs by owner alone. Every statement that names an owner also names the
 * run's id (finish, suspend, checkpoint, cancel, control, lease renewal: the primary key), and the sweeps find
 * running runs by their lease (runs_lease). It cost an index entry for every version of a running row: its insert,
 * each claim, takeover and lease renewal (none of them HOT: the lease is indexed).
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP INDEX runs_owner`
})
