/**
 * Durable webhook tools (issue 7), without suspend: `start` with a one-time callback URL, the reply's `data`
 * saved with the call, completion on any replica by API key or by the capability URL, a second completion
 * answering the stored outcome (409 CallAlreadySettled for a different one), and `cancel` POSTed once when the run is really cancelled.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashKey } from "../../src/server/keys.ts"
import * as Fake from "./fake-executor.ts"
import { createDatabase, eventually, request, sqlOn, startReceiver, startReplica, type ReceivedCall, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let a: Replica
let b: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
let secret: string
const KEY = "durable-test-key"
const auth = { authorization: `Bearer ${KEY}` }

beforeAll(async () => {
  db = await createDatabase()
  const env = { CODEMODE_API_KEY: KEY }
  a = await startReplica({ databaseUrl: db.url, executor: Fake.layer, env })
  b = await startReplica({ databaseUrl: db.url, executor: Fake.layer, env })
  receiver = await startReceiver(
    (c) => (c.json.type === "start" ? { json: { data: { job: `job-${c.json.key}` } } } : { json: {} }),
    () => secret,
  )
  const r = await request(a.url, "PUT", "/v1/tools/d.build", { description: "a long build", input: {}, url: receiver.url, mode: "durable" }, auth)
  expect(r.status).toBe(200)
  secret = r.body.secret
  await sqlOn(db.url, "INSERT INTO api_keys (hash, id, tenant) VALUES ($1, 'other', 'other')", [hashKey("other-key")])
})

afterAll(async () => {
  await a?.close()
  await b?.close()
  await receiver?.close()
  await db?.drop()
})

type Start = ReceivedCall["json"] & { callbackUrl: string }

const startRun = async () => {
  const run = await request(a.url, "POST", "/v1/runs", { code: Fake.script({ steps: [{ call: "d.build", input: { n: 1 } }], return: "$results" }), wait: false }, auth)
  expect(run.status).toBe(202)
  const start = await eventually(async () => receiver.calls.find((c) => c.json.type === "start" && c.json.runId === run.body.id))
  // The service saved the reply's data with the call before it waits.
  await eventually(async () => {
    const rows = await sqlOn<{ state: string; data: unknown }>(db.url, "SELECT state, data FROM calls WHERE key = $1", [start.json.key])
    return rows[0]?.state === "started" ? rows[0] : undefined
  })
  return { id: run.body.id as string, start: start as ReceivedCall & { json: Start } }
}

const status = (id: string, want: string) =>
  eventually(async () => {
    const r = await request(b.url, "GET", `/v1/runs/${id}`, undefined, auth)
    return r.body.status === want ? r.body : undefined
  })

describe("durable webhook tools", () => {
  it("start once (signed, with a callback URL), then complete through another replica by API key", async () => {
    const { id, start } = await startRun()
    expect(start.verified).toBeUndefined()
    expect(start.json).toMatchObject({ type: "start", runId: id, path: "d.build", input: { n: 1 } })
    expect(start.json.callbackUrl).toMatch(/^\/v1\/callbacks\/[A-Za-z0-9_-]{43}$/)
    const rows = await sqlOn<{ data: unknown }>(db.url, "SELECT data FROM calls WHERE key = $1", [start.json.key])
    expect(rows[0]!.data).toStrictEqual({ job: `job-${start.json.key}` })
    expect((await request(b.url, "GET", `/v1/runs/${id}`, undefined, auth)).body.pendingCalls).toStrictEqual([
      { key: start.json.key, path: "d.build", state: "started" },
    ])

    const done = await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: { built: true } }, auth)
    expect(done.status).toBe(200)
    expect(done.body).toStrictEqual({ key: start.json.key, runId: id, outcome: { ok: true, output: { built: true } } })
    const run = await status(id, "succeeded")
    expect(run.result).toMatchObject({ ok: true, value: [{ built: true }] })

    const same = await request(a.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: { built: true } }, auth)
    expect(same.status).toBe(200)
    expect(same.body.outcome).toStrictEqual({ ok: true, output: { built: true } })
    const again = await request(a.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: false, error: { message: "late" } }, auth)
    expect(again.status).toBe(409)
    expect(again.body.error.kind).toBe("CallAlreadySettled")
    expect(again.body.error.outcome).toStrictEqual({ ok: true, output: { built: true } })
    expect(receiver.calls.filter((c) => c.json.runId === id && c.json.type === "start")).toHaveLength(1)
  })

  it("complete by the one-time callback URL without an API key; a failure reaches the program", async () => {
    const { id, start } = await startRun()
    const unknown = await request(b.url, "POST", "/v1/callbacks/not-a-token", { ok: true })
    expect(unknown.status).toBe(404)
    const done = await request(b.url, "POST", start.json.callbackUrl, { ok: false, error: { message: "the build broke" } })
    expect(done.status).toBe(200)
    expect(done.body.outcome).toStrictEqual({ ok: false, error: { kind: "ToolFailure", message: "the build broke" } })
    const run = await status(id, "failed")
    expect(JSON.stringify(run.result)).toContain("the build broke")
    const again = await request(a.url, "POST", start.json.callbackUrl, { ok: true, output: 1 })
    expect(again.status).toBe(409)
    expect(again.body.error.outcome).toStrictEqual(done.body.outcome)
  })

  it("cannot be completed, or kept alive, by another tenant", async () => {
    const { id, start } = await startRun()
    const other = await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: 1 }, { authorization: "Bearer other-key" })
    expect(other.status).toBe(404)
    expect(other.body.error.kind).toBe("CallNotFound")
    const beat = await request(b.url, "POST", `/v1/calls/${start.json.key}/heartbeat`, undefined, { authorization: "Bearer other-key" })
    expect(beat.status).toBe(404)
    expect((await request(b.url, "POST", `/v1/calls/${start.json.key}/heartbeat`, undefined, auth)).body.state).toBe("started")
    expect((await request(b.url, "GET", `/v1/runs/${id}`, undefined, auth)).body.status).toBe("running")
    await request(b.url, "POST", `/v1/calls/${start.json.key}/complete`, { ok: true, output: 1 }, auth)
    await status(id, "succeeded")
  })

  it("POST cancel once, with the start data, when the run is cancelled", async () => {
    const { id, start } = await startRun()
    const cancelled = await request(b.url, "POST", `/v1/runs/${id}/cancel`, undefined, auth)
    expect(cancelled.body.status).toBe("cancelled")
    const cancels = await eventually(async () => {
      const c = receiver.calls.filter((c) => c.json.type === "cancel" && c.json.key === start.json.key)
      return c.length > 0 ? c : undefined
    })
    await new Promise((ok) => setTimeout(ok, 300))
    expect(receiver.calls.filter((c) => c.json.type === "cancel" && c.json.key === start.json.key)).toHaveLength(1)
    expect(cancels[0]!.json).toStrictEqual({ type: "cancel", key: start.json.key, data: { job: `job-${start.json.key}` } })
    expect(cancels[0]!.verified).toBeUndefined()
    const late = await request(b.url, "POST", start.json.callbackUrl, { ok: true, output: 1 })
    expect(late.status).toBe(409)
    expect(late.body.error.kind).toBe("CallAlreadySettled")
    expect(late.body.error.outcome.ok).toBe(false)
  })
})
