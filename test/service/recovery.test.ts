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

/** A run's whole event stream, read from the start as a client would (the run has ended, so the stream ends). */
const sse = async (base: string, id: string) => {
  const res = await fetch(`${base}/v1/runs/${id}/events`, { signal: AbortSignal.timeout(20_000) })
  expect(res.status).toBe(200)
  return (await res.text())
    .split("\n\n")
    .filter((block) => block.includes("data:"))
    .map((block) => {
      const field = (name: string) => block.split("\n").find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim()
      return { id: field("id"), event: field("event")!, data: JSON.parse(field("data")!) }
    })
}

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
    // The call was sent: the Result lists it, from the journal (the program that admitted it died with its replica),
    // with where the dead replica's program made it.
    expect(done.result.toolCalls).toStrictEqual([{ path: "tools.slow.write", key: inFlight.json.key, location: { line: 1, column: 7 } }])
  }, 60_000)

  it("streams each event once: the lines and calls the dead replica wrote are not written again", async () => {
    const victim = await spawn("victim-4")
    const code = `console.log("before"); const a = await tools.slow.read({ n: 1 }); console.log("between", a)
      const b = await tools.slow.read({ n: 2, hang: "s1" }); console.log("after", b); return a + b`
    const run = await request(victim.url, "POST", "/v1/runs", { code, wait: false })
    const id = run.body.id as string
    await eventually(async () => callsOf(id, "slow.read").find((c) => (c.json.input as { hang?: string }).hang === "s1"))
    // The victim wrote both lines and the first call's events before it sent the second call.
    const logged = await sqlOn<{ n: number }>(db.url, "SELECT count(*)::int AS n FROM events WHERE run_id = $1 AND type = 'log'", [id])
    expect(logged[0]!.n).toBe(2)
    await victim.kill()

    const done = await finalState(id)
    expect(done.result).toMatchObject({ ok: true, value: 30, logs: ["before", "between 10", "after 20"] })
    const events = await sse(survivor.url, id)
    expect(events.map((e) => e.id)).toStrictEqual(events.map((_, i) => String(i + 1)))
    const lines = events.map((e) => `${e.event} ${JSON.stringify({ ...e.data, at: undefined })}`)
    expect(new Set(lines).size).toBe(lines.length)
    expect(events.filter((e) => e.event === "log").map((e) => e.data.line)).toStrictEqual(["before", "between 10", "after 20"])
    // The call in flight was sent again: a second attempt, which is news; every other call event is there once.
    const calls = events.filter((e) => e.event.startsWith("call.")).map((e) => [e.event, e.data.key, e.data.attempt])
    expect(calls).toStrictEqual([
      ["call.started", `${id}:1`, 1],
      ["call.settled", `${id}:1`, undefined],
      ["call.started", `${id}:2`, 1],
      ["call.started", `${id}:2`, 2],
      ["call.settled", `${id}:2`, undefined],
    ])
    expect(events.map((e) => e.event).filter((t) => t.startsWith("run."))).toStrictEqual(["run.created", "run.recovered", "run.succeeded"])
    expect(done.result.toolCalls.map((c: { key: string }) => c.key)).toStrictEqual([`${id}:1`, `${id}:2`])
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
