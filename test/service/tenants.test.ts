/**
 * Tenants and API keys (issue 7 "Tenants and keys"): keys made by `codemode keys create --tenant NAME`, stored
 * hashed, each bound to a tenant; a tenant never reads, lists, suspends, resumes or cancels another tenant's runs,
 * nor sees or deletes its tools. `CODEMODE_API_KEY` stays the shortcut for the tenant "default".
 */
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { hashKey } from "../../src/server/keys.ts"
import { KeyStore } from "../../src/server/store/keys.ts"
import * as PostgresKeys from "../../src/server/store/postgres/keys.ts"
import * as Fake from "./fake-executor.ts"
import { createDatabase, eventually, request, ROOT, sqlOn, startReceiver, startReplica, type Replica } from "./helpers.ts"

const exec = promisify(execFile)

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
let acme: string
let globex: string
/** A run of acme's, suspended; one still running; a tool of acme's. */
let suspended: string
let running: string

const keysCreate = async (tenant: string) => {
  const { stdout, stderr } = await exec(process.execPath, ["src/cli/main.ts", "keys", "create", "--tenant", tenant], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url },
  })
  expect(stderr).toContain(`for tenant ${tenant}`)
  return stdout.trim()
}

const as = (key: string) => ({ authorization: `Bearer ${key}` })
const sleeper = Fake.script({ steps: [{ sleep: 60_000 }] })

beforeAll(async () => {
  db = await createDatabase()
  acme = await keysCreate("acme")
  globex = await keysCreate("globex")
  server = await startReplica({ databaseUrl: db.url, executor: Fake.layer, env: { CODEMODE_API_KEY: "shortcut" } })
  receiver = await startReceiver((c) => ({ json: { output: c.json.input } }))
  const tool = { description: "acme's tool", input: {}, url: receiver.url, mode: "plain" }
  expect((await request(server.url, "PUT", "/v1/tools/acme.secret", tool, as(acme))).status).toBe(200)
  suspended = (await request(server.url, "POST", "/v1/runs", { code: sleeper, wait: false }, as(acme))).body.id
  expect((await request(server.url, "POST", `/v1/runs/${suspended}/suspend`, undefined, as(acme))).body.status).toBe("suspended")
  running = (await request(server.url, "POST", "/v1/runs", { code: sleeper, wait: false }, as(acme))).body.id
})

afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await db?.drop()
})

describe("API keys", () => {
  it("are printed once and stored only as their SHA-256", async () => {
    expect(acme).toMatch(/^cm_[A-Za-z0-9_-]{43}$/)
    const rows = await sqlOn<{ hash: string; tenant: string }>(db.url, "SELECT hash, tenant FROM api_keys ORDER BY tenant")
    expect(rows).toStrictEqual([
      { hash: hashKey(acme), tenant: "acme" },
      { hash: hashKey(globex), tenant: "globex" },
    ])
    const dump = JSON.stringify(await sqlOn(db.url, "SELECT * FROM api_keys"))
    expect(dump).not.toContain(acme)
  })

  it("are required once keys exist; an unknown key is refused", async () => {
    expect((await request(server.url, "GET", "/v1/runs")).status).toBe(401)
    const wrong = await request(server.url, "GET", "/v1/runs", undefined, as("cm_nope"))
    expect(wrong.status).toBe(401)
    expect(wrong.body.error).toStrictEqual({ kind: "Unauthorized", message: "Invalid API key" })
  })

  it("keys list shows ids and tenants, never keys; revoke stops a key", async () => {
    const extra = await keysCreate("acme")
    expect((await request(server.url, "GET", "/v1/runs", undefined, as(extra))).status).toBe(200)
    const env = { ...process.env, DATABASE_URL: db.url }
    const list = (await exec(process.execPath, ["src/cli/main.ts", "keys", "list"], { cwd: ROOT, env })).stdout
    expect(list).not.toContain(extra)
    const id = hashKey(extra).slice(0, 12)
    expect(list).toContain(id)
    await exec(process.execPath, ["src/cli/main.ts", "keys", "revoke", id], { cwd: ROOT, env })
    expect((await request(server.url, "GET", "/v1/runs", undefined, as(extra))).status).toBe(401)
  })

  it("a revoked key is refused at once, though the replica trusted it a moment ago", async () => {
    const extra = await keysCreate("acme")
    const checked = performance.now()
    expect((await request(server.url, "GET", "/v1/runs", undefined, as(extra))).status).toBe(200)
    // The statement `keys revoke` makes (its process takes longer to start than the trust lasts).
    const revoked = await Effect.runPromise(
      Effect.flatMap(KeyStore, (store) => store.revoke(hashKey(extra).slice(0, 12))).pipe(
        Effect.provide(PostgresKeys.layer.pipe(Layer.provide(PgClient.layer({ url: Redacted.make(db.url), maxConnections: 1 })))),
      ),
    )
    expect(revoked).toBe(true)
    const refused = await eventually(async () => ((await request(server.url, "GET", "/v1/runs", undefined, as(extra))).status === 401 ? true : undefined), 2000, 10)
    expect(refused).toBe(true)
    expect(performance.now() - checked).toBeLessThan(900)
  })

  it("a key found valid is trusted for a second without asking the database again", async () => {
    const extra = await keysCreate("acme")
    expect((await request(server.url, "GET", "/v1/runs", undefined, as(extra))).status).toBe(200)
    // Revoked behind the service's back: no notice, so only the trust's end refuses it.
    await sqlOn(db.url, "UPDATE api_keys SET revoked_at = now() WHERE hash = $1", [hashKey(extra)])
    expect((await request(server.url, "GET", "/v1/runs", undefined, as(extra))).status).toBe(200)
    await new Promise((ok) => setTimeout(ok, 1100))
    expect((await request(server.url, "GET", "/v1/runs", undefined, as(extra))).status).toBe(401)
  })

  it("CODEMODE_API_KEY is the shortcut for the tenant default", async () => {
    const mine = await request(server.url, "POST", "/v1/runs", { code: Fake.script({ steps: [], return: 1 }) }, as("shortcut"))
    expect(mine.status).toBe(200)
    const rows = await sqlOn<{ tenant: string }>(db.url, "SELECT tenant FROM runs WHERE id = $1", [mine.body.id])
    expect(rows[0]?.tenant).toBe("default")
    expect((await request(server.url, "GET", `/v1/runs/${suspended}`, undefined, as("shortcut"))).status).toBe(404)
  })
})

describe("a tenant cannot touch another tenant's", () => {
  it("runs by reading them", async () => {
    expect((await request(server.url, "GET", `/v1/runs/${suspended}`, undefined, as(acme))).status).toBe(200)
    const other = await request(server.url, "GET", `/v1/runs/${suspended}`, undefined, as(globex))
    expect(other.status).toBe(404)
    expect(other.body.error.kind).toBe("RunNotFound")
  })

  it("runs by streaming their events", async () => {
    const other = await request(server.url, "GET", `/v1/runs/${suspended}/events`, undefined, as(globex))
    expect(other.status).toBe(404)
    expect(other.body.error.kind).toBe("RunNotFound")
  })

  it("runs by listing them", async () => {
    const mine = await request(server.url, "GET", "/v1/runs", undefined, as(acme))
    expect(mine.body.runs.map((r: { id: string }) => r.id)).toContain(suspended)
    const other = await request(server.url, "GET", "/v1/runs", undefined, as(globex))
    expect(other.status).toBe(200)
    expect(other.body.runs).toStrictEqual([])
    expect((await request(server.url, "GET", "/v1/runs?status=suspended", undefined, as(globex))).body.runs).toStrictEqual([])
  })

  it("runs by resuming them", async () => {
    const other = await request(server.url, "POST", `/v1/runs/${suspended}/resume`, { wait: false }, as(globex))
    expect(other.status).toBe(404)
    expect((await request(server.url, "GET", `/v1/runs/${suspended}`, undefined, as(acme))).body.status).toBe("suspended")
  })

  it("runs by suspending them", async () => {
    expect((await request(server.url, "POST", `/v1/runs/${running}/suspend`, undefined, as(globex))).status).toBe(404)
    expect((await request(server.url, "GET", `/v1/runs/${running}`, undefined, as(acme))).body.status).toBe("running")
  })

  it("runs by cancelling them", async () => {
    expect((await request(server.url, "POST", `/v1/runs/${running}/cancel`, undefined, as(globex))).status).toBe(404)
    expect((await request(server.url, "POST", `/v1/runs/${suspended}/cancel`, undefined, as(globex))).status).toBe(404)
    expect((await request(server.url, "GET", `/v1/runs/${running}`, undefined, as(acme))).body.status).toBe("running")
    expect((await request(server.url, "GET", `/v1/runs/${suspended}`, undefined, as(acme))).body.status).toBe("suspended")
  })

  it("tools, by seeing them in the catalog", async () => {
    const mine = await request(server.url, "GET", "/v1/tools", undefined, as(acme))
    expect(mine.body.tools.map((t: { path: string }) => t.path)).toStrictEqual(["acme.secret"])
    const other = await request(server.url, "GET", "/v1/tools", undefined, as(globex))
    expect(other.body).toStrictEqual({ tools: [], namespaces: [] })
  })

  it("tools, by deleting them or running programs with them", async () => {
    const del = await request(server.url, "DELETE", "/v1/tools/acme.secret", undefined, as(globex))
    expect(del.status).toBe(404)
    expect(del.body.error.kind).toBe("ToolNotFound")
    const run = await request(server.url, "POST", "/v1/runs", { code: sleeper, tools: ["acme.secret"] }, as(globex))
    expect(run.status).toBe(400)
    expect(run.body.error.kind).toBe("UnknownTool")
    expect((await request(server.url, "GET", "/v1/tools", undefined, as(acme))).body.tools).toHaveLength(1)
  })
})
