/**
 * Runs that sleep in Postgres (issue 7): on the real VM, with two replicas on one database, a run that waits only
 * on a started durable webhook is suspended by the service, leaves memory, and is resumed by the replica that
 * receives the completion; cancelling tells the tool once; a job that goes silent fails its call; logs stream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, eventually, request, sealedFields, sealOf, sqlOn, startReceiver, startReplica, type ReceivedCall, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let a: Replica
let b: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
const secrets = new Map<string, string>()

beforeAll(async () => {
  db = await createDatabase()
  const env = { CODEMODE_IDLE_SUSPEND_MS: "300" }
  a = await startReplica({ databaseUrl: db.url, env })
  b = await startReplica({ databaseUrl: db.url, env })
  // Every request is verified with its tool's secret (a cancel names no path: found through its call's start).
  receiver = await startReceiver(
    (c) => (c.json.type === "start" ? { json: { data: { job: `job-${c.json.key}` } } } : { json: {} }),
    (m) => secrets.get(m.path ?? receiver.calls.find((c) => c.json.key === m.key)?.json.path ?? ""),
  )
  const register = async (path: string, extra: Record<string, unknown> = {}) => {
    const r = await request(a.url, "PUT", `/v1/tools/${path}`, { description: path, input: {}, output: {}, url: receiver.url, mode: "durable", ...extra })
    expect(r.status).toBe(200)
    secrets.set(path, r.body.secret)
  }
  await register("jobs.build")
  await register("jobs.watched", { heartbeatTimeoutMs: 400 })
  await register("jobs.bounded", { timeoutMs: 500 })
})

afterAll(async () => {
  await a?.close()
  await b?.close()
  await receiver?.close()
  await db?.drop()
})

const starts = (runId: string) => receiver.calls.filter((c) => c.json.type === "start" && c.json.runId === runId)
const cancels = (key: string) => receiver.calls.filter((c) => c.json.type === "cancel" && c.json.key === key)

const status = (replica: Replica, id: string, want: string, timeoutMs = 10_000) =>
  eventually(async () => {
    const r = await request(replica.url, "GET", `/v1/runs/${id}`)
    return r.body.status === want ? r.body : undefined
  }, timeoutMs)

const startOn = async (replica: Replica, code: string) => {
  const run = await request(replica.url, "POST", "/v1/runs", { code, wait: false })
  expect(run.status).toBe(202)
  const start = await eventually(async () => starts(run.body.id)[0])
  return { id: run.body.id as string, start: start as ReceivedCall }
}

describe("auto-suspend and auto-resume", () => {
  it("suspends a run waiting on a started durable call, resumes it on the replica that gets the completion", async () => {
    const { id, start } = await startOn(a, `const r = await tools.jobs.build({ n: 1 }); return r.built + 1`)
    const suspended = await status(b, id, "suspended")
    expect(suspended.pendingCalls).toStrictEqual([{ key: start.json.key, path: "jobs.build", state: "started", location: { line: 1, column: 17 } }])
    expect(await a.activeRuns()).toBe(0)
    const done = await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: { built: 41 } })
    expect(done.status).toBe(200)
    const finished = await status(a, id, "succeeded")
    expect(finished.result).toMatchObject({ ok: true, value: 42 })
    expect(starts(id)).toHaveLength(1)
    // It was resumed on B, the replica that received the completion.
    const resumed = await sqlOn<{ data: { owner: string; auto?: boolean } }>(db.url, "SELECT data FROM events WHERE run_id = $1 AND type = 'run.resumed'", [id])
    expect(resumed.map((r) => r.data)).toStrictEqual([{ owner: b.replicaId, auto: true }])
    const suspends = await sqlOn<{ data: { auto?: boolean } }>(db.url, "SELECT data FROM events WHERE run_id = $1 AND type = 'run.suspended'", [id])
    expect(suspends.map((r) => r.data.auto)).toStrictEqual([true])
  })

  it("a client following the run live sees it through its wake to run.succeeded, in id order", async () => {
    // The run's ids (1, 2, 3 … per run) pass 10, so a history sorted as text would put its 10th event after its
    // 1st: the race seen with `runs events --follow`, the stream ending after an earlier event.
    const { id, start } = await startOn(a, `for (let i = 0; i < 10; i++) console.log("waiting", i); const r = await tools.jobs.build({}); return r.built + 1`)
    await status(a, id, "suspended")
    const res = await fetch(`${b.url}/v1/runs/${id}/events`, { signal: AbortSignal.timeout(20_000) })
    const body = res.text()
    expect((await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: { built: 41 } })).status).toBe(200)
    const events = (await body)
      .split("\n\n")
      .filter((block) => block.includes("data:"))
      .map((block) => Object.fromEntries(block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trim()])))
    const ids = events.map((e) => Number(e["id"]))
    expect(ids.length).toBeGreaterThan(10)
    expect(ids).toStrictEqual(ids.map((_, i) => i + 1))
    const types = events.map((e) => e["event"])
    expect(types.slice(types.indexOf("call.settled"))).toStrictEqual(["call.settled", "run.resumed", "run.succeeded"])
    expect(JSON.parse(events.at(-1)!["data"]!).result).toMatchObject({ ok: true, value: 42 })
  })

  it("POST /v1/runs with wait answers when the run suspends itself, and the callback URL wakes it", async () => {
    const created = request(a.url, "POST", "/v1/runs", { code: `const [x, y] = await Promise.all([tools.jobs.build({}), tools.jobs.build({})]); return x + y` })
    const answered = await created
    expect(answered.status).toBe(200)
    expect(answered.body.status).toBe("suspended")
    const id = answered.body.id as string
    const [first, second] = starts(id) as Array<ReceivedCall & { json: { callbackUrl: string } }>
    expect(second).toBeDefined()
    // The first completion wakes the run; it waits again and suspends again; the second one finishes it.
    expect((await request(b.url, "POST", first!.json.callbackUrl, { ok: true, output: 20 })).status).toBe(200)
    await eventually(async () => {
      const rows = await sqlOn<{ n: number }>(db.url, "SELECT count(*)::int AS n FROM events WHERE run_id = $1 AND type = 'run.suspended'", [id])
      return rows[0]!.n >= 2 ? true : undefined
    })
    expect((await request(a.url, "POST", second!.json.callbackUrl, { ok: true, output: 22 })).status).toBe(200)
    const finished = await status(b, id, "succeeded")
    expect(finished.result.value).toBe(42)
    expect(starts(id)).toHaveLength(2)
  })

  it("a run the service put to sleep stays suspended once a client suspends it, until resumed", async () => {
    const { id, start } = await startOn(a, `return (await tools.jobs.build({})) + 1`)
    await status(a, id, "suspended")
    expect((await request(b.url, "POST", `/v1/runs/${id}/suspend`)).body.status).toBe("suspended")
    expect((await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: 1 })).status).toBe(200)
    await new Promise((ok) => setTimeout(ok, 600))
    expect((await request(a.url, "GET", `/v1/runs/${id}`)).body.status).toBe("suspended")
    const resumed = await request(a.url, "POST", `/v1/runs/${id}/resume`, {})
    expect(resumed.body).toMatchObject({ status: "succeeded", result: { ok: true, value: 2 } })
  })

  it("a saved state this build cannot resume (another build's, or damaged) is replayed from the run's code", async () => {
    const { id, start } = await startOn(a, `console.log("once"); const r = await tools.jobs.build({}); return r * 2`)
    await status(a, id, "suspended")
    const damaged = new TextEncoder().encode("not a snapshot")
    await sqlOn(db.url, "UPDATE runs SET snapshot = $2, seal = $3 WHERE id = $1", [id, damaged, sealOf(await sealedFields(db.url, id), damaged)])
    expect((await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: 21 })).status).toBe(200)
    const finished = await status(a, id, "succeeded")
    expect(finished.result).toMatchObject({ ok: true, value: 42, logs: ["once"] })
    // The replay answered the call from its record: start was sent once.
    expect(starts(id)).toHaveLength(1)
  })

  it("a completion that arrives while the run is in memory is delivered there, without a suspend", async () => {
    const { id, start } = await startOn(a, `return (await tools.jobs.build({})) * 2`)
    expect((await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: 21 })).status).toBe(200)
    const finished = await status(a, id, "succeeded")
    expect(finished.result.value).toBe(42)
    const suspends = await sqlOn(db.url, "SELECT 1 FROM events WHERE run_id = $1 AND type = 'run.suspended'", [id])
    expect(suspends).toHaveLength(0)
  })
})

describe("cancelling a run with a started durable call", () => {
  it("POSTs cancel once with the start data when the run is suspended in the database", async () => {
    const { id, start } = await startOn(a, `return await tools.jobs.build({})`)
    await status(a, id, "suspended")
    const r = await request(b.url, "POST", `/v1/runs/${id}/cancel`)
    expect(r.body.status).toBe("cancelled")
    await eventually(async () => (cancels(start.json.key).length === 1 ? true : undefined))
    expect(cancels(start.json.key)[0]!.json).toMatchObject({ type: "cancel", key: start.json.key, data: { job: `job-${start.json.key}` } })
    // A late completion is a 409 carrying the stored cancelled outcome; nothing is sent again.
    const late = await request(a.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: 1 })
    expect(late.status).toBe(409)
    expect(late.body.error.outcome).toMatchObject({ ok: false, error: { kind: "Cancelled" } })
    await new Promise((ok) => setTimeout(ok, 300))
    expect(cancels(start.json.key)).toHaveLength(1)
  })

  it("POSTs cancel once when the run is cancelled while it waits in memory", async () => {
    const { id, start } = await startOn(a, `await tools.jobs.build({}); for (;;) {}`)
    await eventually(async () => {
      const rows = await sqlOn<{ state: string }>(db.url, "SELECT state FROM calls WHERE key = $1", [start.json.key])
      return rows[0]?.state === "started" ? true : undefined
    })
    const r = await request(b.url, "POST", `/v1/runs/${id}/cancel`)
    expect(r.body.status).toBe("cancelled")
    await eventually(async () => (cancels(start.json.key).length === 1 ? true : undefined))
    await new Promise((ok) => setTimeout(ok, 300))
    expect(cancels(start.json.key)).toHaveLength(1)
  })
})

describe("durable calls that go silent", () => {
  it("a heartbeat keeps the call alive; silence fails it, and the program reads why", async () => {
    const { id, start } = await startOn(a, `try { await tools.jobs.watched({}) } catch (e) { return e.message }`)
    for (let i = 0; i < 4; i++) {
      await new Promise((ok) => setTimeout(ok, 200))
      const beat = await request(b.url, "POST", `/v1/calls/${start.json.key}/heartbeat`)
      expect(beat.status).toBe(200)
      expect(beat.body).toStrictEqual({ key: start.json.key, runId: id, state: "started" })
    }
    const finished = await status(a, id, "succeeded")
    expect(finished.result.value).toBe("Durable tool jobs.watched failed: its job sent no heartbeat for 400 ms")
    const late = await request(b.url, "POST", `/v1/calls/${start.json.key}/heartbeat`)
    expect(late.body.state).toBe("settled")
  })

  it("timeoutMs bounds the whole job, even while the run sleeps in the database", async () => {
    const { id } = await startOn(a, `try { await tools.jobs.bounded({}) } catch (e) { return e.message }`)
    const finished = await status(b, id, "succeeded")
    expect(finished.result.value).toBe("Durable tool jobs.bounded failed: its job did not complete within the tool's timeoutMs")
  })

  it("heartbeats need the tenant's key or the capability URL", async () => {
    expect((await request(a.url, "POST", "/v1/calls/nope/heartbeat")).status).toBe(404)
    expect((await request(a.url, "POST", "/v1/callbacks/nope/heartbeat")).status).toBe(404)
  })

  it("refuses heartbeatTimeoutMs on a tool that is not durable", async () => {
    const r = await request(a.url, "PUT", "/v1/tools/x.plain", { description: "x", input: {}, url: receiver.url, mode: "plain", heartbeatTimeoutMs: 1000 })
    expect(r.status).toBe(400)
    expect(r.text).toContain("heartbeatTimeoutMs applies to durable tools only")
  })
})

describe("live logs", () => {
  it("streams each logged line as an event while the run goes on", async () => {
    const { id, start } = await startOn(a, `console.log("before", 1); const r = await tools.jobs.build({}); console.log("after", r); return r`)
    const logs = async () =>
      (await sqlOn<{ data: { line: string } }>(db.url, "SELECT data FROM events WHERE run_id = $1 AND type = 'log' ORDER BY seq", [id])).map((r) => r.data.line)
    await eventually(async () => ((await logs()).length === 1 ? true : undefined))
    expect(await logs()).toStrictEqual(["before 1"])
    await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: 7 })
    await status(a, id, "succeeded")
    expect(await logs()).toStrictEqual(["before 1", "after 7"])
    const stream = await fetch(`${a.url}/v1/runs/${id}/events`)
    const text = await stream.text()
    expect(text).toContain(`event: log\n`)
    expect(text).toContain(`"line":"after 7"`)
  })

  it("streams the first 1000 lines of a run, counted across its resume, then says later ones are only in its result", async () => {
    const code = `for (let i = 0; i < 998; i++) console.log("l", i); const r = await tools.jobs.build({})
      for (let i = 0; i < 5; i++) console.log("m", i); return r`
    const { id, start } = await startOn(a, code)
    await status(b, id, "suspended")
    await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: 7 })
    const done = await status(a, id, "succeeded")
    expect(done.result.logs).toHaveLength(1003)
    const rows = await sqlOn<{ type: string; data: { line?: string } }>(db.url, "SELECT type, data FROM events WHERE run_id = $1 AND type LIKE 'log%' ORDER BY seq", [id])
    expect(rows.filter((r) => r.type === "log")).toHaveLength(1000)
    expect(rows.slice(-3).map((r) => r.data.line ?? r.type)).toStrictEqual(["m 0", "m 1", "log.truncated"])
  })
})

describe("signatures", () => {
  it("every webhook request of these runs carried a valid signature of its tool's secret", () => {
    expect(receiver.calls.length).toBeGreaterThan(10)
    expect(receiver.calls.filter((c) => c.verified !== undefined).map((c) => [c.json.type, c.json.path, c.verified])).toStrictEqual([])
  })

  it("the receiver refuses a request whose body was tampered with, and accepts the original", async () => {
    const original = receiver.calls.find((c) => c.json.type === "start")!
    const signed = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((h) => [h, original.headers[h]!]))
    const send = (body: string) => fetch(receiver.url, { method: "POST", headers: { "content-type": "application/json", ...signed }, body })
    const tampered = await send(original.body.replace(`"path":"jobs.build"`, `"path":"jobs.build","input":{"evil":true}`))
    expect(tampered.status).toBe(401)
    expect(await tampered.json()).toStrictEqual({ error: "no matching signature" })
    expect((await send(original.body)).status).toBe(200)
  })
})
