/**
 * Crash recovery (issue 7): replicas are real `codemode serve` processes on one Postgres. A replica killed with
 * SIGKILL in the middle of a run stops renewing its lease; once the lease expires another replica takes the run
 * over and continues it from its last checkpoint, replaying recorded calls, repeating the idempotent call that was
 * in flight with the same key and reconnecting a started durable call — or fails the run with a clear diagnostic
 * when a plain call, which cannot be repeated safely, was in flight.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, eventually, request, spawnReplica, sqlOn, startReceiver, type ChildReplica, type ReceivedCall } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let survivor: ChildReplica
let receiver: Awaited<ReturnType<typeof startReceiver>>
const children: Array<ChildReplica> = []

const env = (id: string) => ({
  DATABASE_URL: db.url,
  CODEMODE_REPLICA_ID: id,
  CODEMODE_LEASE_MS: "1500",
  CODEMODE_POLL_MS: "200",
  // The durable case checks a run waiting in memory is reconnected, so it must not be put to sleep first.
  CODEMODE_IDLE_SUSPEND_MS: "0",
})

const spawn = async (id: string) => {
  const child = await spawnReplica(env(id))
  children.push(child)
  return child
}

/** Calls answered at once, except the first of each `hang` input, which never gets an answer. */
const hung = new Set<string>()

beforeAll(async () => {
  db = await createDatabase()
  receiver = await startReceiver((c) => {
    if (c.json.type === "start") return { json: { data: { job: c.json.key } } }
    const input = c.json.input as { n?: number; hang?: string }
    if (input.hang !== undefined && !hung.has(input.hang)) {
      hung.add(input.hang)
      return { delayMs: 120_000, json: {} }
    }
    return { json: { output: (input.n ?? 0) * 10 } }
  })
  survivor = await spawn("survivor")
  for (const [path, mode] of [
    ["slow.read", "idempotent"],
    ["slow.write", "plain"],
    ["jobs.build", "durable"],
  ] as const) {
    const r = await request(survivor.url, "PUT", `/v1/tools/${path}`, { description: path, input: {}, output: {}, url: receiver.url, mode })
    expect(r.status).toBe(200)
  }
}, 60_000)

afterAll(async () => {
  for (const c of children) await c.kill()
  await receiver?.close()
  await db?.drop()
})

const callsOf = (runId: string, path: string) => receiver.calls.filter((c) => c.json.runId === runId && c.json.path === path)

const finalState = (id: string) =>
  eventually(
    async () => {
      const r = await request(survivor.url, "GET", `/v1/runs/${id}`)
      return r.body.status === "succeeded" || r.body.status === "failed" ? r.body : undefined
    },
    30_000,
    100,
  )

const recoveredEvents = (id: string) =>
  sqlOn<{ data: { owner: string; from: string; attempt: number } }>(db.url, "SELECT data FROM events WHERE run_id = $1 AND type = 'run.recovered'", [id])

describe("a replica killed with SIGKILL mid-run", () => {
  it("loses nothing while awaiting an idempotent webhook: the other replica finishes the run", async () => {
    const victim = await spawn("victim-1")
    const code = `const a = await tools.slow.read({ n: 1 }); const b = await tools.slow.read({ n: 3, hang: "r1" }); console.log("sum"); return a + b`
    const run = await request(victim.url, "POST", "/v1/runs", { code, wait: false })
    expect(run.status).toBe(202)
    const id = run.body.id as string
    const inFlight: ReceivedCall = await eventually(async () => callsOf(id, "slow.read").find((c) => (c.json.input as { hang?: string }).hang === "r1"))
    expect(await victim.kill()).toBe(null)

    const done = await finalState(id)
    expect(done.status).toBe("succeeded")
    expect(done.result).toMatchObject({ ok: true, value: 40, logs: ["sum"] })
    // The first call settled before the crash: never sent again. The one in flight was repeated with its key.
    const reads = callsOf(id, "slow.read")
    expect(reads.filter((c) => (c.json.input as { n: number }).n === 1)).toHaveLength(1)
    const repeated = reads.filter((c) => (c.json.input as { n: number }).n === 3)
    expect(repeated.map((c) => c.json.key)).toStrictEqual([inFlight.json.key, inFlight.json.key])
    expect((await recoveredEvents(id)).map((e) => e.data)).toStrictEqual([{ owner: "survivor", from: "victim-1", attempt: 1 }])
    expect(done.result.toolCalls.map((c: { key: string }) => c.key)).toStrictEqual([`${id}:1`, `${id}:2`])
  }, 60_000)

  it("fails the run with a clear diagnostic when a plain call was in flight", async () => {
    const victim = await spawn("victim-2")
    const run = await request(victim.url, "POST", "/v1/runs", { code: `await tools.slow.write({ hang: "w1" }); return "written"`, wait: false })
    const id = run.body.id as string
    const inFlight = await eventually(async () => callsOf(id, "slow.write")[0])
    await victim.kill()

    const done = await finalState(id)
    expect(done.status).toBe("failed")
    expect(done.result.error.kind).toBe("ExecutionFailure")
    expect(done.result.error.message).toBe(
      `The replica executing run ${id} stopped while calls that cannot be repeated safely were in progress: tools.slow.write (${inFlight.json.key})`,
    )
    expect(callsOf(id, "slow.write")).toHaveLength(1)
  }, 60_000)

  it("reconnects a started durable call: start is not sent again, and the completion finishes the run", async () => {
    const victim = await spawn("victim-3")
    const run = await request(victim.url, "POST", "/v1/runs", { code: `const r = await tools.jobs.build({ n: 1 }); return r + 1`, wait: false })
    const id = run.body.id as string
    const start = await eventually(async () => callsOf(id, "jobs.build").find((c) => c.json.type === "start"))
    await eventually(async () => {
      const rows = await sqlOn<{ state: string }>(db.url, "SELECT state FROM calls WHERE key = $1", [start.json.key])
      return rows[0]?.state === "started" ? true : undefined
    })
    await victim.kill()
    await eventually(async () => ((await recoveredEvents(id)).length === 1 ? true : undefined), 20_000, 100)

    const completed = await request(survivor.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: 41 })
    expect(completed.status).toBe(200)
    const done = await finalState(id)
    expect(done.result).toMatchObject({ ok: true, value: 42 })
    expect(callsOf(id, "jobs.build").filter((c) => c.json.type === "start")).toHaveLength(1)
    expect(callsOf(id, "jobs.build").filter((c) => c.json.type === "cancel")).toHaveLength(0)
  }, 60_000)
})
