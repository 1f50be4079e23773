/**
 * On Postgres, the statements that claim a run, record a call's start or outcome and finish a run send the notice
 * of their change themselves (store/postgres `notifying`), in their own transaction: nobody publishes those, and
 * every replica's listener still hears them. A statement that changed nothing announces nothing.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import { type Notice, Notifications } from "../../../src/server/notifications.ts"
import { CallStore } from "../../../src/server/store/calls.ts"
import { RunStore } from "../../../src/server/store/runs.ts"
import { postgres } from "./stores.ts"

const layer = Notifications.layerPostgres.pipe(Layer.provideMerge(postgres))

describe("notices sent by the store's statements (Postgres)", () => {
  it.layer(layer, { timeout: 60_000 })((it) => {
    it.effect("claim, a call's start and outcome, and finish each announce their change", () =>
      Effect.scoped(
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const heard = yield* (yield* Notifications).subscribe
          // A notice that never comes fails the test at its timeout.
          const next = PubSub.take(heard)
          const id = `run-${Math.random().toString(36).slice(2, 8)}`
          const run = { id, tenant: "t", code: "{}", limits: {}, tools: null, owner: "a", leaseMs: 60_000, requestHash: "h", seed: "s", seal: "x" }
          yield* runs.insert(run)
          const key = `${id}:1`
          yield* calls.started(id, "a", { key, path: "p", mode: "idempotent", input: {} })
          assert.deepStrictEqual<Notice>(yield* next, { type: "events", runId: id })
          yield* calls.settled(id, [{ key, outcome: { ok: true, output: 1 } }])
          assert.deepStrictEqual<Notice>(yield* next, { type: "events", runId: id })
          yield* runs.suspend(id, "a", new Uint8Array([1]), "x", { calls: 1, lastKey: key, keep: 10 })
          // Changed nothing (no such call; a run it does not own): nothing to announce.
          yield* calls.settled(id, [{ key: `${id}:9`, outcome: { ok: true, output: 1 } }])
          assert.strictEqual(yield* runs.finish(id, "a", "succeeded", { ok: true, value: 1, toolCalls: [] }), undefined)
          assert.isDefined(yield* runs.claim("t", id, "b", 60_000))
          assert.deepStrictEqual<Notice>(yield* next, { type: "changed", runId: id })
          assert.isDefined(yield* runs.finish(id, "b", "succeeded", { ok: true, value: 1, toolCalls: [] }))
          assert.deepStrictEqual<Notice>(yield* next, { type: "changed", runId: id })
        }),
      ),
    )
  })
})
