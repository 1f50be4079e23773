/**
 * checkpoints: the states a run saved at its call boundaries (issue 17), kept so a run can later be forked from
 * any of them. `calls` is the position in the run's call journal: how many calls the run had admitted when the
 * state was taken, and `after_key` the key of the last of them (the call the state follows). Pruned by the retention
 * policy (config `CODEMODE_CHECKPOINT_MAX_PER_RUN`, `CODEMODE_CHECKPOINT_RETENTION_MS`); they go with their run.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE TABLE checkpoints (
    run_id text NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    seq integer NOT NULL,
    calls integer NOT NULL,
    after_key text,
    snapshot bytea NOT NULL,
    size integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, seq)
  )`
  yield* sql`CREATE INDEX checkpoints_created ON checkpoints (created_at)`
})
