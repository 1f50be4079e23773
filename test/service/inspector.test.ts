/**
 * The API the run inspector reads (issue 19): tool search with the ranking programs get from `search()`, the
 * catalog's registration details, runs filtered by status, tool and time, and each call's source location — on a
 * real Postgres, a real socket, the real interpreter in the isolation pool, and a real webhook receiver. Another
 * tenant sees none of it.
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, request, ROOT, startReceiver, startReplica, type Replica } from "./helpers.ts"

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
}

beforeAll(async () => {
  db = await createDatabase()
  acme = await keysCreate("acme")
  globex = await keysCreate("globex")
  server = await startReplica({ databaseUrl: db.url })
  receiver = await startReceiver((call) => ({ json: { output: { path: call.json.path, input: call.json.input } } }))
  for (const [path, tool] of Object.entries(tools)) {
    const put = await request(server.url, "PUT", `/v1/tools/${path}`, { ...tool, url: `${receiver.url}/hooks/${path}?v=1`, timeoutMs: 5000 }, acme)
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
    expect(orders.map((r: { path: string }) => r.path)).toStrictEqual(["orders.cancel", "orders.lookup"])
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
      timeoutMs: 5000,
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
