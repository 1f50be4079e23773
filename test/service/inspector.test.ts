/**
 * The API the run inspector reads (issue 19): tool search with the ranking programs get from `search()`, the
 * catalog's registration details, runs filtered by status, tool and time, and each call's source location — on a
 * real Postgres, a real socket, the real interpreter in the isolation pool, and a real webhook receiver. Another
 * tenant sees none of it.
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, eventually, request, ROOT, startReceiver, startReplica, type Replica } from "./helpers.ts"

const exec = promisify(execFile)

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
let acme: Record<string, string>
let globex: Record<string, string>

const keysCreate = async (tenant: string) => {
  const { stdout } = await exec(process.execPath, ["src/cli/main.ts", "keys", "create", "--tenant", tenant], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url },
  })
  return { authorization: `Bearer ${stdout.trim()}` }
}

const get = (path: string, as = acme) => request(server.url, "GET", path, undefined, as)
const post = (path: string, body: unknown, as = acme) => request(server.url, "POST", path, body, as)

const tools: Record<string, { description: string; input: Record<string, unknown>; mode: string }> = {
  "orders.lookup": { description: "Look up an order by its id", input: { type: "object", properties: { id: { type: "string" } } }, mode: "idempotent" },
  "orders.cancel": { description: "Cancel an order", input: { type: "object", properties: { id: { type: "string" } } }, mode: "plain" },
  "users.find": { description: "Find a customer by email", input: { type: "object", properties: { email: { type: "string" } } }, mode: "plain" },
  "search": { description: "A tool named like the route", input: { type: "object" }, mode: "plain" },
  "orders.fail": { description: "Always fails", input: { type: "object" }, mode: "plain" },
  "orders.slow": { description: "Answers late", input: { type: "object" }, mode: "idempotent" },
  "jobs.build": { description: "Builds in the background", input: { type: "object" }, mode: "durable" },
}
/** How long orders.slow takes to answer: long while a test suspends a run in the middle of it. */
let slowMs = 0

beforeAll(async () => {
  db = await createDatabase()
  acme = await keysCreate("acme")
  globex = await keysCreate("globex")
  server = await startReplica({ databaseUrl: db.url })
  receiver = await startReceiver((call) => {
    if (call.json.type === "start") return { json: { data: { job: call.json.key } } }
    if (call.json.type !== "call") return { json: {} }
    if (call.json.path === "orders.fail") return { status: 500, json: { error: "the order service is down" } }
    if (call.json.path === "orders.slow") return { delayMs: slowMs, json: { output: "slow answer" } }
    return { json: { output: { path: call.json.path, input: call.json.input } } }
  })
  for (const [path, tool] of Object.entries(tools)) {
    const timeoutMs = tool.mode === "durable" ? 600_000 : 30_000
    const put = await request(server.url, "PUT", `/v1/tools/${path}`, { ...tool, url: `${receiver.url}/hooks/${path}?v=1`, timeoutMs }, acme)
    expect(put.status).toBe(200)
  }
  expect((await request(server.url, "PUT", "/v1/namespaces/users", { description: "Customers and their accounts" }, acme)).status).toBe(200)
}, 180_000)

afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await db?.drop()
})

describe("tool search", () => {
  it("finds what a program's search() finds, in its order, with registered paths and scores", async () => {
    for (const q of ["order", "customer", "cancel order", "orders", "users.find", ""]) {
      const found = await get(`/v1/tools/search?q=${encodeURIComponent(q)}`)
      expect(found.status).toBe(200)
      const run = await post("/v1/runs", { code: `return search(${JSON.stringify(q)}).items.map((i) => i.path)` })
      expect(run.body.status).toBe("succeeded")
      const paths = found.body.results.map((r: { path: string }) => `tools.${r.path}`)
      expect(paths).toStrictEqual(run.body.result.value)
      for (const r of found.body.results) {
        expect(r).toStrictEqual({ path: expect.any(String), description: tools[r.path]!.description, signature: expect.stringContaining(`tools.${r.path}(`), score: expect.any(Number) })
        expect(r.score).toBeGreaterThan(0)
        expect(r.score).toBeLessThanOrEqual(1)
      }
    }
    // A namespace's description is searched, as in programs; the better match ranks first.
    const customers = await get("/v1/tools/search?q=customer%20accounts")
    expect(customers.body.results.map((r: { path: string }) => r.path)).toStrictEqual(["users.find"])
    const orders = (await get("/v1/tools/search?q=cancel%20order")).body.results
    expect(orders[0].path).toBe("orders.cancel")
    expect(orders[0].score).toBeGreaterThan(orders[1].score)
    expect((await get("/v1/tools/search?q=order&limit=1")).body.results).toHaveLength(1)
    expect((await get("/v1/tools/search?q=zebra%20giraffe")).body).toStrictEqual({ results: [] })
    expect((await get("/v1/tools/search?limit=0")).status).toBe(400)
  })

  it("is the tenant's own: another tenant finds nothing", async () => {
    expect((await get("/v1/tools/search?q=order", globex)).body).toStrictEqual({ results: [] })
    expect((await get("/v1/tools/search", globex)).body).toStrictEqual({ results: [] })
    expect((await get("/v1/tools/search?q=order", {})).status).toBe(401)
  })

  it("the catalog shows each tool's signature, mode, webhook host and timeouts, never its secret", async () => {
    const catalog = await get("/v1/tools")
    const lookup = catalog.body.tools.find((t: { path: string }) => t.path === "orders.lookup")
    expect(lookup).toMatchObject({
      path: "orders.lookup",
      signature: expect.stringContaining("tools.orders.lookup(input"),
      mode: "idempotent",
      host: new URL(receiver.url).host,
      timeoutMs: 30_000,
    })
    expect(catalog.text).not.toContain("whsec_")
    // The tool at the path `search` stays readable through the catalog.
    expect(catalog.body.tools.map((t: { path: string }) => t.path)).toContain("search")
    expect((await get("/v1/tools", globex)).body).toStrictEqual({ tools: [], namespaces: [] })
  })
})

describe("the run list", () => {
  const ids = (page: { runs: Array<{ id: string }> }) => page.runs.map((r) => r.id)

  it("filters by a tool the runs called, by creation time and status, newest first, a page at a time", async () => {
    const before = new Date().toISOString()
    const made: Array<string> = []
    for (let i = 0; i < 3; i++) {
      const run = await post("/v1/runs", { id: `lookup-${i}`, code: `return await tools.orders.lookup({ id: "o${i}" })` })
      expect(run.body.status).toBe("succeeded")
      made.push(run.body.id)
    }
    const between = new Date().toISOString()
    const other = await post("/v1/runs", { id: "find-0", code: `return await tools.users.find({ email: "a@b.c" })` })
    expect(other.body.status).toBe("succeeded")
    const failed = await post("/v1/runs", { id: "lookup-failed", code: `await tools.orders.lookup({ id: "x" }); throw new Error("after the call")` })
    expect(failed.body.status).toBe("failed")

    expect(ids((await get("/v1/runs?tool=orders.lookup")).body)).toStrictEqual(["lookup-failed", "lookup-2", "lookup-1", "lookup-0"])
    expect(ids((await get("/v1/runs?tool=orders.lookup&status=succeeded")).body)).toStrictEqual(["lookup-2", "lookup-1", "lookup-0"])
    expect(ids((await get("/v1/runs?tool=users.find")).body)).toStrictEqual(["find-0"])
    // A namespace is not a tool: the filter names the tool a run called.
    expect(ids((await get("/v1/runs?tool=orders")).body)).toStrictEqual([])
    expect(ids((await get(`/v1/runs?since=${encodeURIComponent(between)}`)).body)).toStrictEqual(["lookup-failed", "find-0"])
    expect(ids((await get(`/v1/runs?since=${encodeURIComponent(before)}&until=${encodeURIComponent(between)}`)).body)).toStrictEqual(
      ["lookup-2", "lookup-1", "lookup-0"],
    )

    const seen: Array<string> = []
    let cursor: string | undefined
    do {
      const page = await get(`/v1/runs?tool=orders.lookup&limit=2${cursor === undefined ? "" : `&cursor=${cursor}`}`)
      expect(page.status).toBe(200)
      expect(page.body.runs.length).toBeLessThanOrEqual(2)
      seen.push(...ids(page.body))
      cursor = page.body.nextCursor
    } while (cursor !== undefined)
    expect(seen).toStrictEqual(["lookup-failed", "lookup-2", "lookup-1", "lookup-0"])

    expect((await get("/v1/runs?since=yesterday")).status).toBe(400)
    expect((await get("/v1/runs?tool=has%20space")).status).toBe(400)
  })

  it("shows a run's program in its own answers; lists leave it out", async () => {
    const code = `return await tools.orders.lookup({ id: "shown" })`
    expect((await post("/v1/runs", { id: "with-code", code })).body.code).toBe(code)
    expect((await get("/v1/runs/with-code")).body.code).toBe(code)
    const listed = (await get("/v1/runs?limit=100")).body.runs.find((r: { id: string }) => r.id === "with-code")
    expect(listed).toBeDefined()
    expect(listed.code).toBeUndefined()
  })

  it("is the tenant's own: another tenant lists nothing, whatever the filter, and cannot read a run", async () => {
    expect((await get("/v1/runs?tool=orders.lookup", globex)).body).toStrictEqual({ runs: [] })
    expect((await get(`/v1/runs?since=2000-01-01`, globex)).body).toStrictEqual({ runs: [] })
    expect((await get("/v1/runs/with-code", globex)).status).toBe(404)
  })
})

describe("where each call was made", () => {
  /** The 1-based line and column of the first `needle` in `code`. */
  const at = (code: string, needle: string) => {
    const before = code.slice(0, code.indexOf(needle)).split("\n")
    return { line: before.length, column: before.at(-1)!.length + 1 }
  }
  const sse = (text: string) =>
    text
      .split("\n\n")
      .map((block) => /^event: (.*)$/m.exec(block)?.[1] === undefined ? undefined : { event: /^event: (.*)$/m.exec(block)![1]!, data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) })
      .filter((e) => e !== undefined)

  it("is in the run's toolCalls, its list entry, its call.started events and its final event", async () => {
    const code = ["const a = await tools.orders.lookup({ id: 'x' })", "const [b] = await Promise.all([", "  tools.users.find({ email: 'e' })])", "return [a, b]"].join("\n")
    const run = await post("/v1/runs", { id: "located", code })
    expect(run.body.status).toBe("succeeded")
    const expected = [
      { path: "tools.orders.lookup", key: "located:1", location: at(code, "tools.orders") },
      { path: "tools.users.find", key: "located:2", location: at(code, "tools.users") },
    ]
    expect(expected.map((c) => c.location)).toStrictEqual([{ line: 1, column: 17 }, { line: 3, column: 3 }])
    expect(run.body.result.toolCalls).toStrictEqual(expected)
    expect((await get("/v1/runs/located")).body.result.toolCalls).toStrictEqual(expected)
    const listed = (await get("/v1/runs?tool=users.find")).body.runs.find((r: { id: string }) => r.id === "located")
    expect(listed.result.toolCalls).toStrictEqual(expected)
    const history = sse((await get("/v1/runs/located/events")).text)
    expect(history.find((e) => e.event === "run.succeeded")!.data.result.toolCalls).toStrictEqual(expected)
    const events = history.filter((e) => e.event === "call.started")
    expect(events.map((e) => [e.data.key, e.data.path, e.data.location])).toStrictEqual([
      ["located:1", "orders.lookup", { line: 1, column: 17 }],
      ["located:2", "users.find", { line: 3, column: 3 }],
    ])
  })

  it("marks the line a suspended run waits on, on every replica, and stays through the resume", async () => {
    const code = ["const before = 1", "const built = await tools.jobs.build({ n: before })", "return built"].join("\n")
    const run = await post("/v1/runs", { id: "durable-located", code, wait: false })
    expect(run.status).toBe(202)
    const key = "durable-located:1"
    const location = at(code, "tools.jobs")
    await eventually(async () => {
      const r = (await get("/v1/runs/durable-located")).body
      return r.pendingCalls?.[0]?.state === "started" ? r : undefined
    })
    const suspended = await post("/v1/runs/durable-located/suspend", undefined)
    expect(suspended.body.status).toBe("suspended")
    expect(suspended.body.pendingCalls).toStrictEqual([{ key, path: "jobs.build", state: "started", location }])
    // Another replica reads it from Postgres.
    const other = await startReplica({ databaseUrl: db.url })
    try {
      const seen = await request(other.url, "GET", "/v1/runs/durable-located", undefined, acme)
      expect(seen.body.pendingCalls).toStrictEqual([{ key, path: "jobs.build", state: "started", location }])
      expect(seen.body.code).toBe(code)
      expect((await request(other.url, "GET", "/v1/runs/durable-located", undefined, globex)).status).toBe(404)
    } finally {
      await other.close()
    }
    expect((await post(`/v1/calls/${key}/complete`, { ok: true, output: 7 })).status).toBe(200)
    const done = await post("/v1/runs/durable-located/resume", { wait: true })
    expect(done.body.status).toBe("succeeded")
    expect(done.body.result.toolCalls).toStrictEqual([{ path: "tools.jobs.build", key, location }])
  })

  it("keeps an interrupted idempotent call's location when it runs again on resume", async () => {
    slowMs = 20_000
    const code = ["// first a comment", "  return await tools.orders.slow({})"].join("\n")
    const location = at(code, "tools.orders")
    expect(location).toStrictEqual({ line: 2, column: 16 })
    await post("/v1/runs", { id: "slow-located", code, wait: false })
    await eventually(async () => ((await get("/v1/runs/slow-located")).body.pendingCalls?.length === 1 ? true : undefined))
    const suspended = await post("/v1/runs/slow-located/suspend", undefined)
    expect(suspended.body.pendingCalls).toStrictEqual([{ key: "slow-located:1", path: "orders.slow", state: "queued", location }])
    slowMs = 0
    const done = await post("/v1/runs/slow-located/resume", { wait: true })
    expect(done.body.status).toBe("succeeded")
    expect(done.body.result.toolCalls).toStrictEqual([{ path: "tools.orders.slow", key: "slow-located:1", location }])
    const started = sse((await get("/v1/runs/slow-located/events")).text).filter((e) => e.event === "call.started")
    expect(started.map((e) => [e.data.attempt, e.data.location])).toStrictEqual([[1, location], [2, location]])
  })

  it("a failed run's error points at the throw, or at the call whose failure ended it", async () => {
    const thrown = ["const a = 1", "if (a) throw new Error('stop here')"].join("\n")
    const failed = await post("/v1/runs", { code: thrown })
    expect(failed.body.status).toBe("failed")
    // An Error's location is where it was made, as V8's stack says.
    expect(failed.body.result.error).toMatchObject({ kind: "ExecutionFailure", location: at(thrown, "new Error") })
    const call = ["const x = 1", "const y = await tools.orders.fail({ x })", "return y"].join("\n")
    const failedCall = await post("/v1/runs", { id: "failed-call", code: call })
    expect(failedCall.body.status).toBe("failed")
    expect(failedCall.body.result.error).toMatchObject({ location: at(call, "tools.orders") })
    expect(failedCall.body.result.toolCalls).toStrictEqual([{ path: "tools.orders.fail", key: "failed-call:1", location: at(call, "tools.orders") }])
  })
})
