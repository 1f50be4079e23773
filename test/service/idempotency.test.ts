/**
 * Idempotency (issue 7): `Idempotency-Key` on mutating endpoints answers the stored response on a repeat (per
 * tenant, with a request fingerprint), and `POST /v1/runs` with an existing `id` answers that run for the same
 * request and 409 otherwise.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { hashKey } from "../../src/server/keys.ts"
import * as Fake from "./fake-executor.ts"
import { createDatabase, request, sqlOn, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
const ACME = "cm_acme-test-key"
const GLOBEX = "cm_globex-test-key"

const call = (method: string, path: string, body?: unknown, key?: string, tenant = ACME) =>
  request(server.url, method, path, body, { authorization: `Bearer ${tenant}`, ...(key === undefined ? {} : { "idempotency-key": key }) })

const quick = (value: unknown) => Fake.script({ steps: [], return: value })
const countRuns = async () => (await sqlOn<{ n: number }>(db.url, "SELECT count(*)::int AS n FROM runs"))[0]!.n

beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url, executor: Fake.layer })
  for (const [key, tenant] of [[ACME, "acme"], [GLOBEX, "globex"]]) {
    await sqlOn(db.url, "INSERT INTO api_keys (hash, id, tenant) VALUES ($1, $2, $3)", [hashKey(key!), tenant, tenant])
  }
  receiver = await startReceiver((c) => ({ json: { output: c.json.input } }))
})

afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await db?.drop()
})

describe("Idempotency-Key", () => {
  it("answers a repeated run creation with the stored response, without running it again", async () => {
    const before = await countRuns()
    const first = await call("POST", "/v1/runs", { code: quick("once") }, "create-1")
    expect(first.status).toBe(200)
    expect(first.headers.get("idempotent-replayed")).toBeNull()
    const again = await call("POST", "/v1/runs", { code: quick("once") }, "create-1")
    expect(again.status).toBe(200)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.headers.get("content-type")).toContain("application/json")
    expect(again.body).toStrictEqual(first.body)
    expect(await countRuns()).toBe(before + 1)
  })

  it("refuses the same key for a different request with a clear 409", async () => {
    await call("POST", "/v1/runs", { code: quick(1) }, "create-2")
    const other = await call("POST", "/v1/runs", { code: quick(2) }, "create-2")
    expect(other.status).toBe(409)
    expect(other.body.error.kind).toBe("IdempotencyKeyReused")
    expect(other.body.error.message).toContain("create-2")
    const elsewhere = await call("POST", "/v1/runs/whatever/cancel", undefined, "create-2")
    expect(elsewhere.status).toBe(409)
    expect(elsewhere.body.error.kind).toBe("IdempotencyKeyReused")
  })

  it("keeps keys per tenant", async () => {
    const mine = await call("POST", "/v1/runs", { code: quick("a") }, "shared")
    const theirs = await call("POST", "/v1/runs", { code: quick("a") }, "shared", GLOBEX)
    expect(theirs.status).toBe(200)
    expect(theirs.headers.get("idempotent-replayed")).toBeNull()
    expect(theirs.body.id).not.toBe(mine.body.id)
  })

  it("answers 409 while the first request is still in progress, then the stored answer", async () => {
    const body = { code: Fake.script({ steps: [{ sleep: 1500 }], return: "slow" }) }
    const first = call("POST", "/v1/runs", body, "slow-1")
    await new Promise((ok) => setTimeout(ok, 300))
    const during = await call("POST", "/v1/runs", body, "slow-1")
    expect(during.status).toBe(409)
    expect(during.body.error.kind).toBe("IdempotencyKeyInUse")
    const done = await first
    expect(done.body.result).toMatchObject({ ok: true, value: "slow" })
    const after = await call("POST", "/v1/runs", body, "slow-1")
    expect(after.headers.get("idempotent-replayed")).toBe("true")
    expect(after.body).toStrictEqual(done.body)
  })

  it("stores client errors and empty answers too (cancel of a missing run, a delete)", async () => {
    const missing = await call("POST", "/v1/runs/nope/cancel", undefined, "cancel-1")
    expect(missing.status).toBe(404)
    const again = await call("POST", "/v1/runs/nope/cancel", undefined, "cancel-1")
    expect(again.status).toBe(404)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toStrictEqual(missing.body)
    const tool = { description: "d", input: {}, url: receiver.url, mode: "plain" }
    expect((await call("PUT", "/v1/tools/x.y", tool)).status).toBe(200)
    expect((await call("DELETE", "/v1/tools/x.y", undefined, "delete-1")).status).toBe(204)
    const deleteAgain = await call("DELETE", "/v1/tools/x.y", undefined, "delete-1")
    expect(deleteAgain.status).toBe(204)
    expect(deleteAgain.headers.get("idempotent-replayed")).toBe("true")
    expect((await call("DELETE", "/v1/tools/x.y", undefined, "delete-2")).status).toBe(404)
  })

  it("refuses an empty or oversized key", async () => {
    const long = await call("POST", "/v1/runs", { code: quick(1) }, "k".repeat(256))
    expect(long.status).toBe(400)
    expect(long.body.error.kind).toBe("InvalidIdempotencyKey")
  })
})

describe("POST /v1/runs with an existing id", () => {
  it("answers that run when the request is the same", async () => {
    const first = await call("POST", "/v1/runs", { code: quick("mine"), id: "same-1", limits: { timeoutMs: 5000, maxToolCalls: 3 } })
    expect(first.status).toBe(200)
    const again = await call("POST", "/v1/runs", { code: quick("mine"), id: "same-1", limits: { maxToolCalls: 3, timeoutMs: 5000 }, wait: false })
    expect(again.status).toBe(200)
    expect(again.body).toStrictEqual(first.body)
  })

  it("answers a running run the same way (and waits for it when asked)", async () => {
    const body = { code: Fake.script({ steps: [{ sleep: 800 }], return: "later" }), id: "same-2" }
    const started = await call("POST", "/v1/runs", { ...body, wait: false })
    expect(started.status).toBe(202)
    const waited = await call("POST", "/v1/runs", body)
    expect(waited.status).toBe(200)
    expect(waited.body.result).toMatchObject({ ok: true, value: "later" })
  })

  it("answers 409 for a different request, or another tenant's run", async () => {
    const other = await call("POST", "/v1/runs", { code: quick("theirs"), id: "same-1" })
    expect(other.status).toBe(409)
    expect(other.body.error.kind).toBe("RunExists")
    const tenant = await call("POST", "/v1/runs", { code: quick("mine"), id: "same-1", limits: { timeoutMs: 5000, maxToolCalls: 3 } }, undefined, GLOBEX)
    expect(tenant.status).toBe(409)
    expect(tenant.body.error.kind).toBe("RunExists")
  })
})
