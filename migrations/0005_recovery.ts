/**
 * Runs that sleep and runs that survive their replica (issue 7).
 *
 * - runs.auto_resume: the run was suspended by the service itself (it waited only on started durable calls, or
 *   its replica shut down), so it continues on its own — on the replica that receives a completion, or on any
 *   replica's sweep. runs.wake: something it waits for has happened; set in the same statement that settles the
 *   call, so a completion that races the suspend is never lost.
 * - runs.snapshot of a running run is its last checkpoint: what another replica resumes when the owner's lease
 *   expires (recovery_attempts counts those takeovers).
 * - tools.heartbeat_timeout_ms and calls.deadline_at / heartbeat_ms / heartbeat_at: a durable call whose job
 *   went silent (no heartbeat in time, or no completion by its deadline) is settled as failed by any replica.
 */
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"

export default Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE runs ADD COLUMN auto_resume boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE runs ADD COLUMN wake boolean NOT NULL DEFAULT false`
  yield* sql`CREATE INDEX runs_wake ON runs (updated_at) WHERE status = 'suspended' AND wake`
  yield* sql`CREATE INDEX runs_lease ON runs (lease_expires_at) WHERE status = 'running'`
  yield* sql`ALTER TABLE tools ADD COLUMN heartbeat_timeout_ms integer`
  yield* sql`ALTER TABLE calls ADD COLUMN deadline_at timestamptz`
  yield* sql`ALTER TABLE calls ADD COLUMN heartbeat_ms integer`
  yield* sql`ALTER TABLE calls ADD COLUMN heartbeat_at timestamptz`
  yield* sql`CREATE INDEX calls_started ON calls (run_id) WHERE state = 'started'`
})
