/**
 * Two replicas on one Postgres, each a whole server built in this process (its own pool, LISTEN connection,
 * services and socket), driven over HTTP. Programs run on the scripted executor, whose runs last as long as a test
 * needs without using the CPU, so the cross-replica logic — control through LISTEN/NOTIFY and its polling
 * fallback, the atomic resume claim, leases, takeovers, shutdown — is tested here. cluster.test.ts and
 * recovery.test.ts repeat the headline scenarios with child processes and the real VM.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import type { Run } from "../../src/client/index.ts"
import { Notifications } from "../../src/server/notifications.ts"
import * as Fake from "./fake-executor.ts"
import { clientFor, createDatabase, eventually, keyGates, request, sealOf, sqlOn, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let receiver: Awaited<ReturnType<typeof startReceiver>>
let started: Array<Replica> = []
/**
 * `t.gate` answers a key only once the test opens that key's gate (calls before that hang until the caller gives
 * up); `t.plain` is the same tool registered as plain; `t.echo` answers at once.
 */
const gates = keyGates()

beforeAll(async () => {
  db = await createDatabase()
  receiver = await startReceiver(async (call) => {
    if (call.json.path === "t.echo") return { json: { output: call.json.input } }
    await gates.wait(call.json.key)
    return { json: { output: `answered ${call.json.key}` } }
  })
  const a = await replica()
  const api = clientFor(a.url)
  for (const [path, mode] of [["t.gate", "idempotent"], ["t.plain", "plain"], ["t.echo", "plain"]] as const) {
    await api.run((c) => c.tools.put({ params: { path }, payload: { description: path, input: {}, url: receiver.url, mode } }))
  }
})

afterEach(async () => {
  gates.openAll()
  await Promise.all(started.map((r) => r.close()))
  started = []
  // Runs a closing replica suspended would continue on the next test's replicas: keep each test to its own runs.
  await sqlOn(db.url, "UPDATE runs SET auto_resume = false, wake = false WHERE status = 'suspended'")
})

afterAll(async () => {
  await receiver?.close()
  await db?.drop()
})

const replica = async (options: Parameters<typeof startReplica>[0] = {}) => {
  const r = await startReplica({ databaseUrl: db.url, executor: Fake.layer, ...options })
  started.push(r)
  return r
}

const callsFor = (runId: string) => receiver.calls.filter((c) => c.json.runId === runId)
const waitForCalls = (runId: string, n: number) => eventually(async () => (callsFor(runId).length >= n ? true : undefined))
const open = gates.open

const gated = (tool = "t.gate") => Fake.script({ steps: [{ call: tool, input: { q: 1 } }], return: "$results" })

describe("two replicas on one database", () => {
  it("a long-poll GET on B returns when the run on A finishes; POST and GET waits are bounded", async () => {
    const [a, b] = [await replica(), await replica()]
    const [onA, onB] = [clientFor(a.url), clientFor(b.url)]
    const run = await onA.run((c) => c.runs.create({ payload: { code: gated(), wait: "200ms" } }))
    expect(run.status).toBe("running")
    const past = Date.now()
    const still = await onB.run((c) => c.runs.get({ params: { id: run.id }, query: { wait: "300ms" } }))
    expect(still.status).toBe("running")
    expect(Date.now() - past).toBeGreaterThanOrEqual(250)
    await waitForCalls(run.id, 1)
    const polled = onB.run((c) => c.runs.get({ params: { id: run.id }, query: { wait: "30s" } }))
    await new Promise((ok) => setTimeout(ok, 300))
    const opened = Date.now()
    open(callsFor(run.id)[0]!.json.key)
    const done = await polled
    expect(done.status).toBe("succeeded")
    expect(Date.now() - opened).toBeLessThan(5000)
    const bad = await request(b.url, "GET", `/v1/runs/${run.id}?wait=soon`)
    expect(bad.status).toBe(400)
  })

  it("a run started on A is suspended through B, resumed on B, and succeeds; the idempotent call in flight is called again with the same key", async () => {
    const [a, b] = [await replica(), await replica()]
    const [onA, onB] = [clientFor(a.url), clientFor(b.url)]
    const run = await onA.run((c) => c.runs.create({ payload: { code: gated(), wait: false } }))
    await waitForCalls(run.id, 1)
    expect(await a.activeRuns()).toBe(1)

    const suspended = await onB.run((c) => c.runs.suspend({ params: { id: run.id } }))
    expect(suspended.status).toBe("suspended")
    expect(suspended.pendingCalls).toStrictEqual([{ key: `${run.id}:0`, path: "t.gate", state: "queued" }])
    expect(await a.activeRuns()).toBe(0)
    expect((await onA.run((c) => c.runs.get({ params: { id: run.id }, query: {} }))).status).toBe("suspended")

    const resuming = onB.run((c) => c.runs.resume({ params: { id: run.id }, payload: {} }))
    await waitForCalls(run.id, 2)
    expect(await b.activeRuns()).toBe(1)
    open(`${run.id}:0`)
    const done = await resuming
    expect(done.status).toBe("succeeded")
    expect(done.result).toStrictEqual({ ok: true, value: [`answered ${run.id}:0`], toolCalls: [{ path: "t.gate", key: `${run.id}:0` }] })
    expect(callsFor(run.id).map((c) => c.headers["webhook-id"])).toStrictEqual([`${run.id}:0`, `${run.id}:0`])
    expect(callsFor(run.id).every((c) => c.json.key === `${run.id}:0` && c.body === callsFor(run.id)[0]!.body)).toBe(true)
    expect(await onA.run((c) => c.runs.get({ params: { id: run.id }, query: {} }))).toStrictEqual(done)
    const events = await sqlOn<{ type: string }>(db.url, "SELECT type FROM events WHERE run_id = $1 ORDER BY seq", [run.id])
    expect(events.map((e) => e.type)).toStrictEqual([
      "run.created",
      "call.started",
      "run.suspended",
      "run.resumed",
      "call.started",
      "call.settled",
      "run.succeeded",
    ])
  })

  it("relays the owner's refusal when a plain call blocks the suspend", async () => {
    const [a, b] = [await replica(), await replica()]
    const run = await clientFor(a.url).run((c) => c.runs.create({ payload: { code: gated("t.plain"), wait: false } }))
    await waitForCalls(run.id, 1)
    const refused = await clientFor(b.url).fail((c) => c.runs.suspend({ params: { id: run.id } }))
    expect(refused._tag).toBe("Conflict")
    expect(refused.error).toStrictEqual({
      kind: "SuspendBlocked",
      message: `The call ${run.id}:0 (tools.t.plain) is running and cannot be repeated`,
      calls: [{ key: `${run.id}:0`, path: "tools.t.plain" }],
    })
    open(`${run.id}:0`)
    const done = await eventually(async () => {
      const r = await clientFor(b.url).run((c) => c.runs.get({ params: { id: run.id }, query: {} }))
      return r.status === "succeeded" ? r : undefined
    })
    expect(done.result).toMatchObject({ ok: true, value: [`answered ${run.id}:0`] })
    expect(callsFor(run.id)).toHaveLength(1)
  })

  it("cancels through B a run executing on A", async () => {
    const [a, b] = [await replica(), await replica()]
    const run = await clientFor(a.url).run((c) => c.runs.create({ payload: { code: gated("t.plain"), wait: false } }))
    await waitForCalls(run.id, 1)
    const cancelled = await clientFor(b.url).run((c) => c.runs.cancel({ params: { id: run.id } }))
    expect(cancelled.status).toBe("cancelled")
    expect(await a.activeRuns()).toBe(0)
    const calls = await sqlOn<{ state: string }>(db.url, "SELECT state FROM calls WHERE run_id = $1", [run.id])
    expect(calls.map((c) => c.state)).toStrictEqual(["settled"])
  })

  it("a suspended run survives a restart of both replicas", async () => {
    const [a, b] = [await replica(), await replica()]
    const run = await clientFor(a.url).run((c) => c.runs.create({ payload: { code: gated(), wait: false } }))
    await waitForCalls(run.id, 1)
    await clientFor(b.url).run((c) => c.runs.suspend({ params: { id: run.id } }))
    await Promise.all([a.close(), b.close()])
    started = []

    const [c, d] = [await replica(), await replica()]
    const seen = await clientFor(d.url).run((x) => x.runs.get({ params: { id: run.id }, query: {} }))
    expect(seen.status).toBe("suspended")
    expect(seen.pendingCalls).toHaveLength(1)
    const resuming = clientFor(c.url).run((x) => x.runs.resume({ params: { id: run.id }, payload: {} }))
    await waitForCalls(run.id, 2)
    open(`${run.id}:0`)
    expect((await resuming).status).toBe("succeeded")
  })

  it("lets exactly one of two replicas resuming at once claim the run", async () => {
    const [a, b] = [await replica(), await replica()]
    const run = await clientFor(a.url).run((c) =>
      c.runs.create({ payload: { code: Fake.script({ steps: [{ sleep: 60_000 }] }), wait: false } }),
    )
    await clientFor(a.url).run((c) => c.runs.suspend({ params: { id: run.id } }))
    const answers = await Promise.all(
      [a, b, a, b].map((r) => request(r.url, "POST", `/v1/runs/${run.id}/resume`, { wait: false })),
    )
    const statuses = answers.map((x) => x.status).sort()
    expect(statuses).toStrictEqual([202, 409, 409, 409])
    expect(answers.filter((x) => x.status === 409).every((x) => x.body.error.kind === "RunNotSuspended")).toBe(true)
    expect((await a.activeRuns()) + (await b.activeRuns())).toBe(1)
  })

  it("falls back to polling when the owner never hears the notification", async () => {
    const deaf = await replica({ notifications: Notifications.layerMemory })
    const b = await replica()
    const run = await clientFor(deaf.url).run((c) => c.runs.create({ payload: { code: gated(), wait: false } }))
    await waitForCalls(run.id, 1)
    const suspended = await clientFor(b.url).run((c) => c.runs.suspend({ params: { id: run.id } }))
    expect(suspended.status).toBe("suspended")
    expect(await deaf.activeRuns()).toBe(0)
  })

  it("takes over the runs of a replica that died once their leases expire, and finishes them", async () => {
    const b = await replica()
    const code = Fake.script({ steps: [{ call: "t.echo", input: { n: 7 } }], return: "$results" })
    await sqlOn(
      db.url,
      `INSERT INTO runs (id, tenant, status, code, owner, lease_expires_at, seal)
       VALUES ('orphan-1', 'default', 'running', $1, 'replica-that-died', now() - interval '1 minute', $2)`,
      [code, sealOf({ id: "orphan-1", tenant: "default", code, limits: {}, tools: null, seed: null })],
    )
    const done = await eventually(async () => {
      const r = await clientFor(b.url).run((c) => c.runs.get({ params: { id: "orphan-1" }, query: {} }))
      return r.status === "succeeded" ? r : undefined
    })
    expect(done.result).toMatchObject({ ok: true, value: [{ n: 7 }] })
    const events = await sqlOn<{ data: unknown }>(db.url, "SELECT data FROM events WHERE run_id = 'orphan-1' AND type = 'run.recovered'")
    expect(events.map((e) => e.data)).toStrictEqual([{ owner: b.replicaId, from: "replica-that-died", attempt: 1 }])
  })

  it("fails a run taken over more often than CODEMODE_MAX_RECOVERIES allows", async () => {
    const b = await replica({ env: { CODEMODE_MAX_RECOVERIES: "1" } })
    await sqlOn(
      db.url,
      `INSERT INTO runs (id, tenant, status, code, owner, lease_expires_at, recovery_attempts)
       VALUES ('orphan-3', 'default', 'running', '{}', 'replica-that-died', now() - interval '1 minute', 1)`,
    )
    const done = await eventually(async () => {
      const r = await clientFor(b.url).run((c) => c.runs.get({ params: { id: "orphan-3" }, query: {} }))
      return r.status === "failed" ? r : undefined
    })
    expect(done.result).toMatchObject({
      ok: false,
      error: { kind: "ExecutionFailure", message: "Run orphan-3 was taken over 2 times after its replica stopped; it is not continued again" },
    })
  })

  it("times out a control request nobody answers", async () => {
    const b = await replica({ env: { CODEMODE_CONTROL_TIMEOUT_MS: "600" } })
    await sqlOn(
      db.url,
      `INSERT INTO runs (id, tenant, status, code, owner, lease_expires_at)
       VALUES ('silent', 'default', 'running', '{}', 'replica-that-hangs', now() + interval '1 minute')`,
    )
    const started = Date.now()
    const timeout = await clientFor(b.url).fail((c) => c.runs.suspend({ params: { id: "silent" } }))
    expect(timeout._tag).toBe("Unavailable")
    expect(timeout.error.kind).toBe("ControlTimeout")
    expect(Date.now() - started).toBeGreaterThanOrEqual(500)
  })

  it("stops a run whose lease was taken, without writing anything", async () => {
    const a = await replica()
    const run = await clientFor(a.url).run((c) => c.runs.create({ payload: { code: gated(), wait: false } }))
    await waitForCalls(run.id, 1)
    // Taken by a replica that is alive (its lease runs on), so nobody takes the run over again.
    await sqlOn(db.url, "UPDATE runs SET owner = 'someone-else', lease_expires_at = now() + interval '1 minute' WHERE id = $1", [run.id])
    await eventually(async () => ((await a.activeRuns()) === 0 ? true : undefined))
    const [row] = await sqlOn<{ status: string; owner: string }>(db.url, "SELECT status, owner FROM runs WHERE id = $1", [run.id])
    expect(row).toStrictEqual({ status: "running", owner: "someone-else" })
  })

  it("sends no plain call of a run taken from it before its lease renewal notices, and stops the run unwritten", async () => {
    // No renewal within the test: only the call's own start can find that the run is not this replica's.
    const a = await replica({ env: { CODEMODE_POLL_MS: "600000" } })
    const code = Fake.script({ steps: [{ call: "t.gate", input: { q: 1 } }, { call: "t.plain", input: { q: 2 } }], return: "$results" })
    const run = await clientFor(a.url).run((c) => c.runs.create({ payload: { code, wait: false } }))
    await waitForCalls(run.id, 1)
    await sqlOn(db.url, "UPDATE runs SET owner = 'someone-else', lease_expires_at = now() + interval '1 minute' WHERE id = $1", [run.id])
    open(`${run.id}:0`)
    await eventually(async () => ((await a.activeRuns()) === 0 ? true : undefined))
    expect(callsFor(run.id).map((c) => c.json.path)).toStrictEqual(["t.gate"])
    const [row] = await sqlOn<{ status: string; owner: string }>(db.url, "SELECT status, owner FROM runs WHERE id = $1", [run.id])
    expect(row).toStrictEqual({ status: "running", owner: "someone-else" })
    const recorded = await sqlOn<{ key: string }>(db.url, "SELECT key FROM calls WHERE run_id = $1 ORDER BY key", [run.id])
    expect(recorded.map((c) => c.key)).toStrictEqual([`${run.id}:0`])
  })

  it("on shutdown suspends what it can, for another replica to continue, and fails what it cannot", async () => {
    const a = await replica({ env: { CODEMODE_DRAIN_MS: "1500" } })
    const api = clientFor(a.url)
    const idle = await api.run((c) => c.runs.create({ payload: { code: gated(), wait: false } }))
    const blocked = await api.run((c) => c.runs.create({ payload: { code: gated("t.plain"), wait: false } }))
    const answering = await api.run((c) => c.runs.create({ payload: { code: gated("t.plain"), wait: false } }))
    await waitForCalls(idle.id, 1)
    await waitForCalls(blocked.id, 1)
    await waitForCalls(answering.id, 1)
    // A plain call that answers while the replica drains is waited for; the other one is not answered in time.
    const closing = a.close()
    await new Promise((ok) => setTimeout(ok, 300))
    open(`${answering.id}:0`)
    await closing
    started = []
    const settled = await sqlOn<{ status: string; result: unknown }>(db.url, "SELECT status, result FROM runs WHERE id = $1", [answering.id])
    expect(settled[0]).toMatchObject({ status: "succeeded", result: { ok: true, value: [`answered ${answering.id}:0`] } })
    const b = await replica()
    const after = async (id: string): Promise<Run> => clientFor(b.url).run((c) => c.runs.get({ params: { id }, query: {} }))
    const suspends = await sqlOn<{ data: { auto?: boolean } }>(db.url, "SELECT data FROM events WHERE run_id = $1 AND type = 'run.suspended'", [idle.id])
    expect(suspends.map((e) => e.data.auto)).toStrictEqual([true])
    // B continues the suspended run by itself: the idempotent call in flight is sent again with its key.
    await waitForCalls(idle.id, 2)
    expect(callsFor(idle.id).map((c) => c.json.key)).toStrictEqual([`${idle.id}:0`, `${idle.id}:0`])
    open(`${idle.id}:0`)
    await eventually(async () => ((await after(idle.id)).status === "succeeded" ? true : undefined))
    const failed = await after(blocked.id)
    expect(failed.status).toBe("failed")
    expect(failed.result).toMatchObject({
      ok: false,
      error: { kind: "ExecutionFailure", message: "The replica executing this run shut down before the run finished" },
    })
  })
})
