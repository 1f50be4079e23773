/**
 * The run logic on both stores: lifecycle, idempotent creation, tenants, and the service's decisions to put a
 * run to sleep and wake it — the same answers whether the store is Postgres or memory. Time is the TestClock.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Stream from "effect/Stream"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll } from "vitest"
import { ToolRegistry } from "../../../src/server/registry.ts"
import { Runs } from "../../../src/server/runs.ts"
import { RunStore } from "../../../src/server/store/runs.ts"
import * as Fake from "../fake-executor.ts"
import { startReceiver } from "../helpers.ts"
import { eventually, IDLE_SUSPEND_MS, service } from "./service.ts"
import { stores } from "./stores.ts"

let receiver: Awaited<ReturnType<typeof startReceiver>>
beforeAll(async () => {
  receiver = await startReceiver((c) => (c.json.type === "start" ? { json: { data: { job: c.json.key } } } : { json: {} }))
})
afterAll(() => receiver.close())

let counter = 0
const tenant = () => `tenant-${++counter}`
const echo = (input: unknown) => ({ description: "echo", input: {}, url: receiver.url, mode: "plain" as const, ...(input as object) })

for (const [name, store] of stores) {
  describe(`run logic (${name})`, () => {
    it.layer(service(store), { timeout: 60_000 })((it) => {
      it.effect("a run goes from created to succeeded, with its history in order", () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const t = tenant()
          const run = yield* runs.create(t, { code: Fake.script({ steps: [], return: 42 }) })
          assert.strictEqual(run.status, "succeeded")
          assert.deepStrictEqual(run.result, { ok: true, value: 42, toolCalls: [] })
          assert.deepStrictEqual(yield* runs.get(t, run.id), run)
          const page = yield* runs.list(t, {})
          assert.deepStrictEqual(page.runs.map((r) => r.id), [run.id])
          const events = Array.from(yield* Stream.runCollect(yield* runs.events(t, run.id, undefined)))
          assert.deepStrictEqual(events.map((e) => e.event), ["run.created", "run.succeeded"])
        }),
      )

      it.effect("suspend, resume and cancel follow the run's state", () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const t = tenant()
          const code = Fake.script({ steps: [{ sleep: 5000 }], return: "woke" })
          const run = yield* runs.create(t, { code, wait: false })
          assert.strictEqual(run.status, "running")
          assert.strictEqual((yield* runs.suspend(t, run.id)).status, "suspended")
          const again = yield* Effect.flip(runs.resume(t, "no-such-run", 0))
          assert.strictEqual(again._tag, "RunNotFound")
          const resumed = yield* runs.resume(t, run.id, 0)
          assert.strictEqual(resumed.status, "running")
          const conflict = yield* Effect.flip(runs.resume(t, run.id, 0))
          assert.strictEqual(conflict._tag === "RunConflict" ? conflict.kind : conflict._tag, "RunNotSuspended")
          yield* TestClock.adjust(5000)
          const done = yield* eventually(Effect.map(runs.get(t, run.id), (r) => (r.status === "succeeded" ? r : undefined)))
          assert.deepStrictEqual(done.result, { ok: true, value: "woke", toolCalls: [] })
          const finished = yield* Effect.flip(runs.cancel(t, run.id))
          assert.strictEqual(finished._tag === "RunConflict" ? finished.kind : finished._tag, "RunFinished")
          const other = yield* runs.create(t, { code, wait: false })
          assert.strictEqual((yield* runs.cancel(t, other.id)).status, "cancelled")
          assert.strictEqual(yield* runs.activeCount, 0)
        }),
      )

      it.effect("a fork continues a suspended run's latest checkpoint as a run of its own, saying where it came from", () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const t = tenant()
          const run = yield* runs.create(t, { code: Fake.script({ steps: [{ sleep: 5000 }], return: "forked" }), wait: false })
          assert.strictEqual((yield* runs.suspend(t, run.id)).status, "suspended")
          // The suspend kept its state: the run made no call, yet has a checkpoint to fork from.
          const kept = (yield* runs.checkpoints(t, run.id)).checkpoints
          assert.deepStrictEqual(kept.map((k) => k.calls), [0])
          const request = { id: `fork-${counter}-${name}`, wait: false }
          const fork = yield* runs.fork(t, run.id, request)
          assert.deepStrictEqual(fork.forkedFrom, { run: run.id, checkpoint: kept[0]!.seq })
          yield* TestClock.adjust(5000)
          const done = yield* eventually(Effect.map(runs.get(t, fork.id), (r) => (r.status === "succeeded" ? r : undefined)))
          assert.deepStrictEqual(done.result, { ok: true, value: "forked", toolCalls: [] })
          assert.strictEqual((yield* runs.fork(t, run.id, request)).id, fork.id)
          assert.strictEqual((yield* runs.get(t, run.id)).status, "suspended")
          const created = Array.from(yield* Stream.runCollect(yield* runs.events(t, fork.id, undefined)))[0]!
          assert.deepStrictEqual([created.event, JSON.parse(created.data).forkedFrom], ["run.created", { run: run.id, checkpoint: kept[0]!.seq }])
          const missing = yield* Effect.flip(runs.fork(t, run.id, { at: 99 }))
          assert.strictEqual(missing._tag, "CheckpointNotFound")
          assert.strictEqual((yield* Effect.flip(runs.fork(tenant(), run.id, {})))._tag, "RunNotFound")
        }),
      )

      it.effect("the same request with the same id answers the same run; another request is a conflict", () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const t = tenant()
          const request = { id: `same-${counter}-${name}`, code: Fake.script({ steps: [], return: 1 }) }
          const first = yield* runs.create(t, request)
          assert.deepStrictEqual(yield* runs.create(t, request), first)
          const other = yield* Effect.flip(runs.create(t, { ...request, code: Fake.script({ steps: [], return: 2 }) }))
          assert.strictEqual(other._tag === "RunConflict" ? other.kind : other._tag, "RunExists")
          const elsewhere = yield* Effect.flip(runs.create(tenant(), request))
          assert.strictEqual(elsewhere._tag === "RunConflict" ? elsewhere.kind : elsewhere._tag, "RunExists")
        }),
      )

      it.effect("a run that ends before any call is written once, at its end; an id taken meanwhile is still a conflict", () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const store = yield* RunStore
          const t = tenant()
          const code = Fake.script({ steps: [{ sleep: 1000 }], return: 1 })
          const quick = yield* runs.create(t, { id: `quick-${counter}-${name}`, code: Fake.script({ steps: [], return: 1 }) })
          assert.strictEqual(quick.status, "succeeded")
          const history = Array.from(yield* Stream.runCollect(yield* runs.events(t, quick.id, undefined)))
          assert.deepStrictEqual(history.map((e) => e.event), ["run.created", "run.succeeded"])

          const id = `late-${counter}-${name}`
          const waiting = yield* Effect.forkChild(runs.create(t, { id, code }))
          yield* eventually(Effect.map(runs.activeCount, (n) => (n > 0 ? n : undefined)))
          // Nothing is written while it runs without calls; another replica takes the id meanwhile.
          assert.strictEqual((yield* Effect.flip(runs.get(t, id)))._tag, "RunNotFound")
          yield* store.insert({ id, tenant: t, code: "{}", limits: { timeoutMs: 1000 }, tools: null, owner: "elsewhere", leaseMs: 60_000, requestHash: "other", seed: "s", seal: null })
          yield* TestClock.adjust(1000)
          const clash = yield* Effect.flip(Fiber.join(waiting))
          assert.strictEqual(clash._tag === "RunConflict" ? clash.kind : clash._tag, "RunExists")
          assert.strictEqual((yield* store.get(t, id))?.owner, "elsewhere")
        }),
      )

      it.effect("a wait that passes answers the run still running, at its time and not before; recorded on the way", () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const store = yield* RunStore
          const t = tenant()
          const id = `waited-${counter}-${name}`
          const waiting = yield* Effect.forkChild(runs.create(t, { id, code: Fake.script({ steps: [{ sleep: 5000 }], return: 7 }), wait: 2000 }))
          yield* eventually(Effect.map(runs.activeCount, (n) => (n > 0 ? n : undefined)))
          // Past recordAfterMs (100) the row is written, and the client waits on for the rest of its 2000 ms.
          yield* TestClock.adjust(100)
          yield* eventually(store.get(t, id))
          yield* TestClock.adjust(1899)
          assert.isUndefined(waiting.pollUnsafe())
          yield* TestClock.adjust(1)
          const running = yield* Fiber.join(waiting)
          assert.strictEqual(running.status, "running")
          yield* TestClock.adjust(3000)
          const done = yield* runs.get(t, id, 1000)
          assert.deepStrictEqual(done.result, { ok: true, value: 7, toolCalls: [] })
        }),
      )

      it.effect("a tenant sees only its own runs and tools", () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const registry = yield* ToolRegistry
          const [a, b] = [tenant(), tenant()]
          yield* registry.put(a, "t.echo", echo({}))
          const run = yield* runs.create(a, { code: Fake.script({ steps: [{ call: "t.echo", input: 3 }], return: "$results" }) })
          assert.strictEqual(run.status, "succeeded")
          assert.strictEqual((yield* Effect.flip(runs.get(b, run.id)))._tag, "RunNotFound")
          assert.deepStrictEqual((yield* runs.list(b, {})).runs, [])
          const missing = yield* Effect.flip(runs.create(b, { code: "{}", tools: ["t.echo"] }))
          assert.strictEqual(missing._tag, "UnknownToolFilter")
          const unknown = yield* runs.create(b, { code: Fake.script({ steps: [{ call: "t.echo" }] }) })
          assert.strictEqual(unknown.result?.ok === false ? unknown.result.error.kind : "ok", "UnknownTool")
        }),
      )

      it.effect("a run that only waits on a durable call sleeps in the store, and its completion wakes it", () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const registry = yield* ToolRegistry
          const t = tenant()
          yield* registry.put(t, "jobs.build", echo({ mode: "durable" }))
          const run = yield* runs.create(t, { code: Fake.script({ steps: [{ call: "jobs.build", input: 1 }], return: "$results" }), wait: false })
          const started = yield* eventually(
            Effect.map(runs.get(t, run.id), (r) => (r.pendingCalls?.[0]?.state === "started" ? r.pendingCalls[0] : undefined)),
          )
          // Not yet idle for long enough: it stays in memory.
          yield* TestClock.adjust(IDLE_SUSPEND_MS - 1)
          assert.strictEqual((yield* runs.get(t, run.id)).status, "running")
          yield* TestClock.adjust(1)
          yield* eventually(Effect.map(runs.get(t, run.id), (r) => (r.status === "suspended" ? r : undefined)))
          assert.strictEqual(yield* eventually(Effect.map(runs.activeCount, (n) => (n === 0 ? n : undefined))), 0)
          const outcome = yield* runs.complete({ tenant: t, key: started.key }, { ok: true, output: { built: true } })
          assert.deepStrictEqual(outcome, { key: started.key, runId: run.id, outcome: { ok: true, output: { built: true } } })
          const done = yield* eventually(Effect.map(runs.get(t, run.id), (r) => (r.status === "succeeded" ? r : undefined)))
          assert.deepStrictEqual(done.result?.ok === true ? done.result.value : undefined, [{ built: true }])
          // The same completion again answers the stored outcome; another is refused, carrying it.
          assert.deepStrictEqual(yield* runs.complete({ tenant: t, key: started.key }, { ok: true, output: { built: true } }), outcome)
          const other = yield* Effect.flip(runs.complete({ tenant: t, key: started.key }, { ok: true, output: 0 }))
          assert.deepStrictEqual(other._tag === "CallAlreadySettled" ? other.outcome : other._tag, outcome.outcome)
        }),
      )

      it.effect("a run a client suspends stays asleep when its call completes, until resumed", () =>
        Effect.gen(function* () {
          const runs = yield* Runs
          const registry = yield* ToolRegistry
          const t = tenant()
          yield* registry.put(t, "jobs.build", echo({ mode: "durable" }))
          const run = yield* runs.create(t, { code: Fake.script({ steps: [{ call: "jobs.build", input: 2 }], return: "$results" }), wait: false })
          const started = yield* eventually(
            Effect.map(runs.get(t, run.id), (r) => (r.pendingCalls?.[0]?.state === "started" ? r.pendingCalls[0] : undefined)),
          )
          yield* TestClock.adjust(IDLE_SUSPEND_MS)
          yield* eventually(Effect.map(runs.get(t, run.id), (r) => (r.status === "suspended" ? r : undefined)))
          assert.strictEqual((yield* runs.suspend(t, run.id)).status, "suspended")
          yield* runs.complete({ tenant: t, key: started.key }, { ok: false, error: { message: "no" } })
          yield* TestClock.adjust(5000)
          assert.strictEqual((yield* runs.get(t, run.id)).status, "suspended")
          const done = yield* runs.resume(t, run.id, 60_000)
          // The program reads the completion's failure (the scripted executor fails the run with it).
          assert.strictEqual(done.status, "failed")
          assert.deepStrictEqual(done.result?.ok === false ? done.result.error.message : done.result, "Durable tool jobs.build failed: no")
        }),
      )
    })
  })
}
