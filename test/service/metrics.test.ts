/** `GET /metrics` (issue 7): Prometheus text with runs by status, calls, webhook latency, snapshot bytes, resumes. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Fake from "./fake-executor.ts"
import { createDatabase, eventually, request, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url, executor: Fake.layer })
  receiver = await startReceiver((c) => (c.json.path === "m.fail" ? { status: 400, body: "no" } : { json: { output: c.json.input } }))
  for (const path of ["m.echo", "m.fail"]) {
    await request(server.url, "PUT", `/v1/tools/${path}`, { description: "d", input: {}, url: receiver.url, mode: "plain" })
  }
})

afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await db?.drop()
})

/** The samples of the exposition text: `name{labels}` → value. */
const scrape = async () => {
  const res = await request(server.url, "GET", "/metrics")
  expect(res.status).toBe(200)
  expect(res.headers.get("content-type")).toContain("text/plain")
  const samples = new Map<string, number>()
  for (const line of res.text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue
    const at = line.lastIndexOf(" ")
    samples.set(line.slice(0, at), Number(line.slice(at + 1)))
  }
  return { text: res.text, samples }
}

describe("GET /metrics", () => {
  it("counts runs by status, calls, webhook latency, snapshot bytes and resumes", async () => {
    const before = await scrape()
    expect(before.samples.get('codemode_runs{status="succeeded"}')).toBe(0)
    expect(before.samples.get("codemode_resumes_total")).toBe(0)
    expect(before.text).toContain("# TYPE codemode_webhook_duration_seconds histogram")

    const ok = await request(server.url, "POST", "/v1/runs", { code: Fake.script({ steps: [{ call: "m.echo", input: 1 }, { call: "m.echo", input: 2 }] }) })
    expect(ok.body.status).toBe("succeeded")
    await request(server.url, "POST", "/v1/runs", { code: Fake.script({ steps: [{ call: "m.fail", input: 1 }] }) })
    const slow = await request(server.url, "POST", "/v1/runs", { code: Fake.script({ steps: [{ sleep: 400 }], return: "done" }), wait: false })
    expect((await request(server.url, "POST", `/v1/runs/${slow.body.id}/suspend`)).body.status).toBe("suspended")
    const mid = await scrape()
    expect(mid.samples.get('codemode_runs{status="suspended"}')).toBe(1)
    expect(mid.samples.get("codemode_snapshot_bytes_total")).toBeGreaterThan(0)
    expect(mid.samples.get("codemode_snapshots_total")).toBe(1)
    await request(server.url, "POST", `/v1/runs/${slow.body.id}/resume`, {})

    const after = await eventually(async () => {
      const s = await scrape()
      return s.samples.get('codemode_runs{status="succeeded"}') === 2 ? s : undefined
    })
    const m = after.samples
    expect(m.get('codemode_runs{status="suspended"}')).toBe(0)
    expect(m.get("codemode_resumes_total")).toBe(1)
    expect(m.get('codemode_calls_total{mode="plain",outcome="ok"}')).toBe(2)
    expect(m.get('codemode_calls_total{mode="plain",outcome="error"}')).toBe(1)
    expect(m.get('codemode_webhook_duration_seconds_count{outcome="ok"}')).toBe(2)
    expect(m.get('codemode_webhook_duration_seconds_bucket{outcome="ok",le="+Inf"}')).toBe(2)
    expect(m.get('codemode_webhook_duration_seconds_count{outcome="Status"}')).toBe(1)
    expect(m.get('codemode_webhook_duration_seconds_sum{outcome="ok"}')).toBeGreaterThan(0)
    expect(m.get("codemode_active_runs")).toBe(0)
  })
})
