/**
 * When an idempotent call's outcome is recorded: the program has it at once, and the journal gets it with what the
 * run writes next — its next call, its lines, its end (in the same transaction) — or with the next log flush. And
 * when a resumed run's call in flight is sent again: while its state is restored.
 * Real interpreter, real Postgres (the transaction of each event is read from its row), real webhook receiver.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Executor } from "../../src/server/executor.ts"
import * as Fake from "./fake-executor.ts"
import { createDatabase, eventually, request, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
/** Released by a suspend: the first call of `{ hold: true }` hangs until then. */
const held: Array<() => void> = []

beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url })
  receiver = await startReceiver((c) => {
    const input = c.json.input as { n: number; hold?: boolean }
    if (input.hold === true && receiver.calls.filter((d) => d.json.key === c.json.key).length === 1) {
      return new Promise((ok) => held.push(() => ok({ json: { output: null } })))
    }
    return { json: { output: input.n * 10 } }
  })
  const tool = { description: "a step", input: { type: "object" }, output: { type: "number" }, url: receiver.url, mode: "idempotent" }
  expect((await request(server.url, "PUT", "/v1/tools/t.step", tool)).status).toBe(200)
})

afterAll(async () => {
  for (const release of held) release()
  await server?.close()
  await scripted?.close()
  await receiver?.close()
  await db?.drop()
})

/** A run's events in order, each with the transaction that wrote it. */
const written = (runId: string) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      return yield* sql<{ type: string; tx: string }>`SELECT type, xmin::text AS tx FROM events WHERE run_id = ${runId} ORDER BY seq`
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(db.url), maxConnections: 1 }))),
  )

// Which transaction writes an outcome depends on time: the log flush (every 100 ms) records it if it fires before the
// run's end, and a re-sent call's attempt joins its outcome only within ATTEMPT_GRACE_MS (50 ms, server/calls.ts). A
// loaded machine can stall a run past either, and then more transactions are what the server should write.
describe("an idempotent call's outcome", { retry: 2 }, () => {
  it("is recorded before the lines the program logs after it and before its next call; the last with the run's end", async () => {
    const code = "const a = await tools.t.step({ n: 1 }); console.log('got', a); return await tools.t.step({ n: 2 })"
    const run = await request(server.url, "POST", "/v1/runs", { code })
    expect(run.body.result?.value, JSON.stringify(run.body)).toBe(20)
    const events = await written(run.body.id)
    expect(events.map((e) => e.type)).toStrictEqual([
      "run.created",
      "call.started",
      "call.settled",
      "log",
      "call.started",
      "call.settled",
      "run.succeeded",
    ])
    expect(events[5]!.tx).toBe(events[6]!.tx)
    expect(new Set(events.slice(0, 5).map((e) => e.tx)).has(events[6]!.tx)).toBe(false)
  })

  it("of a call a resumed run sends again is recorded with its new attempt and the run's end, in one transaction", async () => {
    const run = await request(server.url, "POST", "/v1/runs", { code: "return await tools.t.step({ n: 3, hold: true })", wait: false })
    const id = run.body.id
    await eventually(async () => (receiver.calls.some((c) => c.json.runId === id) ? true : undefined))
    await eventually(async () => ((await request(server.url, "POST", `/v1/runs/${id}/suspend`, {})).status === 200 ? true : undefined))
    const resumed = await request(server.url, "POST", `/v1/runs/${id}/resume`, { wait: true })
    expect(resumed.body.result?.value, JSON.stringify(resumed.body)).toBe(30)
    const events = await written(id)
    expect(events.map((e) => e.type).slice(-4)).toStrictEqual(["run.resumed", "call.started", "call.settled", "run.succeeded"])
    const [claim, ...ending] = events.slice(-4).map((e) => e.tx)
    expect(new Set(ending).size).toBe(1)
    expect(ending[0]).not.toBe(claim)
  })

  it("is recorded by the next log flush while the program goes on without writing", async () => {
    const code = "await tools.t.step({ n: 4 }); const end = Date.now() + 3000; while (Date.now() < end) {} 'done'"
    const run = await request(server.url, "POST", "/v1/runs", { code, wait: false })
    const id = run.body.id
    await eventually(async () => ((await written(id)).some((e) => e.type === "call.settled") ? true : undefined), 2500)
    expect((await request(server.url, "GET", `/v1/runs/${id}`)).body.status).toBe("running")
    await request(server.url, "POST", `/v1/runs/${id}/cancel`, {})
  })
})

/** How many times the webhook had a run's calls when the run's state was restored. */
const callsAtRestore = new Map<string, number>()
const callsOf = (runId: string) => receiver.calls.filter((c) => c.json.runId === runId)

/**
 * The scripted executor, with a restore that lasts until the webhook has had the run's call a second time (or 3 s):
 * the call is sent again before the program makes it only if the service sends it while the state is restored.
 */
const slowRestore = Layer.effect(
  Executor,
  Effect.gen(function* () {
    const fake = yield* Executor
    return Executor.of({
      ...fake,
      resume: (spec) =>
        Effect.promise(() => eventually(async () => (callsOf(spec.runId).length >= 2 ? true : undefined), 3000).catch(() => false)).pipe(
          Effect.andThen(Effect.sync(() => void callsAtRestore.set(spec.runId, callsOf(spec.runId).length))),
          Effect.andThen(fake.resume(spec)),
        ),
    })
  }),
).pipe(Layer.provide(Fake.layer))
let scripted: Replica

describe("a resumed run's idempotent call in flight", () => {
  beforeAll(async () => {
    scripted = await startReplica({ databaseUrl: db.url, executor: slowRestore })
  })

  it("is sent again while the state is restored, and the program takes that answer", async () => {
    const code = Fake.script({ steps: [{ call: "t.step", input: { n: 3, hold: true } }], return: "$results" })
    const run = await request(scripted.url, "POST", "/v1/runs", { code, wait: false })
    const id = run.body.id
    await eventually(async () => (callsOf(id).length > 0 ? true : undefined))
    await eventually(async () => ((await request(scripted.url, "POST", `/v1/runs/${id}/suspend`, {})).status === 200 ? true : undefined))
    const resumed = await request(scripted.url, "POST", `/v1/runs/${id}/resume`, { wait: true })
    expect(resumed.body.result?.value, JSON.stringify(resumed.body)).toStrictEqual([30])
    expect(callsAtRestore.get(id)).toBe(2)
    // Not a third time: the program took the answer of the call sent again, recorded as any call sent again is.
    expect(callsOf(id).map((c) => [c.json.key, c.json.input])).toStrictEqual([
      [`${id}:0`, { n: 3, hold: true }],
      [`${id}:0`, { n: 3, hold: true }],
    ])
    expect((await written(id)).map((e) => e.type).slice(-4)).toStrictEqual(["run.resumed", "call.started", "call.settled", "run.succeeded"])
  })
})
