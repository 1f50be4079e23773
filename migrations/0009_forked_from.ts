/**
 * Forks (issue 17, `POST /v1/runs/{id}/fork`):
 *
 * - runs.forked_from: the run and checkpoint a forked run started from, `{ "run": <id>, "checkpoint": <seq> }`;
 *   null for runs made from code. Not a foreign key: a fork outlives the run it came from.
 * - runs.checkpoint_seq: the `seq` of the run's last checkpoint. A checkpoint and a suspend can be written at once
 *   (the suspend ends the run's last checkpoint in flight); numbering from the row they both update, rather than
 *   from `max(seq)` of a snapshot each statement read before the other committed, gives them different numbers.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE runs ADD COLUMN forked_from jsonb, ADD COLUMN checkpoint_seq integer NOT NULL DEFAULT 0`
  yield* sql`UPDATE runs SET checkpoint_seq = k.seq FROM (SELECT run_id, max(seq) AS seq FROM checkpoints GROUP BY run_id) k WHERE k.run_id = runs.id`
})
