/**
 * On Postgres, the claim of a suspended run (a resume, a wake) commits without waiting for its WAL flush: the
 * statement itself sets `synchronous_commit = off` for its transaction (store/postgres/runs.ts `asyncCommit`), and
 * only for it. Read back here in a transaction around the claim, since the setting ends with the transaction.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as SqlClient from "effect/sql/SqlClient"
import { CallStore } from "../../../src/server/store/calls.ts"
import { RunStore } from "../../../src/server/store/runs.ts"
import { postgres } from "./stores.ts"

const START = { calls: 0, lastKey: undefined, keep: 10 }
const newRun = () => {
  const id = `run-${Math.random().toString(36).slice(2, 8)}`
  return { id, tenant: "t", code: "{}", limits: {}, tools: null, owner: "a", leaseMs: 60_000, requestHash: "h", seed: "s", seal: "x" }
}

describe("the claim's commit (Postgres)", () => {
  it.layer(postgres, { timeout: 60_000 })((it) => {
    const setting = Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly value: string }>`SELECT current_setting('synchronous_commit') AS value`
      return rows[0]!.value
    })
    // The tests' own server runs with synchronous_commit off throughout (test/setup/embedded-postgres.ts), as a
    // database for tests may: each transaction here turns it on first, as a production server has it.
    const on = Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* sql`SET LOCAL synchronous_commit = on`
    })

    it.effect("a resume's claim and a wake's claim turn synchronous_commit off for their own transaction", () =>
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const runs = yield* RunStore
        const calls = yield* CallStore
        const resumed = newRun()
        yield* runs.insert(resumed)
        yield* runs.suspend(resumed.id, "a", new Uint8Array([1]), "x", START)
        const claimed = yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* on
            const before = yield* setting
            const row = yield* runs.claim("t", resumed.id, "b", 60_000)
            return { before, row, after: yield* setting }
          }),
        )
        assert.strictEqual(claimed.before, "on")
        assert.strictEqual(claimed.row?.row.owner, "b")
        assert.strictEqual(claimed.after, "off")
        // Only the claim: the run's end, which is its answer, still waits for the flush.
        const finished = yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* on
            const row = yield* runs.finish(resumed.id, "b", "succeeded", { ok: true, value: 1, toolCalls: [] })
            return { row, after: yield* setting }
          }),
        )
        assert.strictEqual(finished.row?.status, "succeeded")
        assert.strictEqual(finished.after, "on")

        const woken = newRun()
        const key = `${woken.id}:1`
        yield* runs.insert(woken)
        yield* calls.started(woken.id, "a", { key, path: "jobs.run", mode: "durable", input: null, callbackHash: `hash-${woken.id}` })
        yield* calls.accepted(woken.id, key, null, { timeoutMs: undefined, heartbeatTimeoutMs: undefined })
        yield* runs.suspend(woken.id, "a", new Uint8Array([1]), "x", START, { waiting: [key] })
        yield* calls.complete({ callbackHash: `hash-${woken.id}` }, { ok: true, output: 42 })
        const wake = yield* sql.withTransaction(
          Effect.gen(function* () {
            yield* on
            const row = yield* runs.claimWoken(woken.id, "b", 60_000)
            return { row, after: yield* setting }
          }),
        )
        assert.strictEqual(wake.row?.row.owner, "b")
        assert.strictEqual(wake.after, "off")
      }),
    )
  })
})
