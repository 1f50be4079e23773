/**
 * The service signs run states with its key (CODEMODE_SNAPSHOT_KEY; snapshot-key.ts) and seals each run row —
 * code, limits, tools filter, seed, tenant, id, forked_from and saved state (row-seal.ts): a run whose row was altered in the
 * database, field by field, is refused when it is resumed, woken or taken over, and fails saying so without
 * calling anything; the same run untouched resumes. A kept checkpoint changed in the database is not forked. A run's memory budget defaults to CODEMODE_MAX_MEMORY_BYTES
 * and survives a suspend.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createHmac } from "node:crypto"
import { CodeMode } from "../../src/index.ts"
import { canonical } from "../../src/server/canonical.ts"
import { storable } from "../../src/server/json-guard.ts"
import { RowSeal, type SealedFields } from "../../src/server/row-seal.ts"
import { createDatabase, eventually, request, sqlOn, startReceiver, startReplica, TEST_SNAPSHOT_KEY, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
let fast: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  db = await createDatabase()
  receiver = await startReceiver(() => ({ json: { output: 1 }, delayMs: 60_000 }))
  fast = await startReceiver(() => ({ json: { output: 1 } }))
  server = await startReplica({ databaseUrl: db.url, env: { CODEMODE_MAX_MEMORY_BYTES: String(64 * 1024 * 1024) } })
  await request(server.url, "PUT", "/v1/tools/wait.long", { description: "waits", input: {}, output: { type: "number" }, url: receiver.url, mode: "idempotent" })
  await request(server.url, "PUT", "/v1/tools/fast.echo", { description: "answers", input: {}, output: { type: "number" }, url: fast.url, mode: "idempotent" })
}, 120_000)
afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await fast?.close()
  await db?.drop()
})

/** A run suspended while it waits on its first call. */
const suspended = async (code: string) => {
  const created = await request(server.url, "POST", "/v1/runs", { code, wait: false })
  const id = created.body.id as string
  await eventually(async () => (receiver.calls.some((c) => c.json.runId === id) ? true : undefined))
  expect((await request(server.url, "POST", `/v1/runs/${id}/suspend`)).body.status).toBe("suspended")
  return id
}

const stateOf = async (id: string) => {
  const [row] = await sqlOn<{ snapshot: Uint8Array }>(db.url, "SELECT snapshot FROM runs WHERE id = $1", [id])
  return CodeMode.fromBytes(row!.snapshot) as CodeMode.Snapshot & { run: { limits: Record<string, number> }; signature?: string }
}

const code = `const n = await tools.wait.long({}); return n + 1`
const REFUSED = /^The run's stored row was refused: its seal does not match/

/** Resumes a run whose row a statement changed, and expects it refused without a call going out for it. */
const refusedAfter = async (change: string, params: ReadonlyArray<unknown> = []) => {
  const id = await suspended(code)
  await sqlOn(db.url, change, [id, ...params])
  receiver.calls.length = 0
  const refused = await request(server.url, "POST", `/v1/runs/${id}/resume`, {})
  expect(refused.body.status).toBe("failed")
  // Neither continued nor replayed from its code: no call went out for it.
  expect(receiver.calls.filter((c) => c.json.runId === id)).toStrictEqual([])
  return refused.body.result.error.message as string
}

describe("signed run states", () => {
  it("refuses a saved state whose limits were raised in the database, and resumes an untouched one", async () => {
    const altered = await suspended(code)
    const state = await stateOf(altered)
    expect(typeof state.signature).toBe("string")
    state.run.limits.maxToolCalls = 1000
    await sqlOn(db.url, "UPDATE runs SET snapshot = $2 WHERE id = $1", [altered, CodeMode.toBytes(state)])
    receiver.calls.length = 0
    const refused = await request(server.url, "POST", `/v1/runs/${altered}/resume`, {})
    expect(refused.body.status).toBe("failed")
    expect(refused.body.result.error.message).toMatch(REFUSED)
    expect(receiver.calls.filter((c) => c.json.runId === altered)).toStrictEqual([])

    const honest = await suspended(code)
    const resuming = request(server.url, "POST", `/v1/runs/${honest}/resume`, { wait: false })
    expect((await resuming).status).toBeLessThan(300)
    await eventually(async () => (receiver.calls.some((c) => c.json.runId === honest) ? true : undefined))
  })

  it("seals a kept checkpoint under its run's fields, as the row is sealed with its state", async () => {
    const id = await suspended(`await tools.fast.echo({}); const n = await tools.wait.long({}); return n + 1`)
    const [row] = await sqlOn<SealedFields & { snapshot: Uint8Array; seal: string }>(
      db.url,
      `SELECT id, tenant, code, limits, tools, seed, forked_from AS "forkedFrom", snapshot, seal FROM runs WHERE id = $1`,
      [id],
    )
    const kept = await sqlOn<{ snapshot: Uint8Array; seal: string }>(db.url, "SELECT snapshot, seal FROM checkpoints WHERE run_id = $1", [id])
    expect(kept.length).toBeGreaterThan(0)
    const sealer = RowSeal.make(TEST_SNAPSHOT_KEY)
    expect(row!.seal).toBe(sealer.seal(row!, row!.snapshot))
    for (const k of kept) expect(k.seal).toBe(sealer.seal(row!, k.snapshot))
  })

  it("refuses to fork a kept checkpoint changed in the database, and forks it untouched", async () => {
    const id = await suspended(code)
    const [kept] = await sqlOn<{ seq: number }>(db.url, "SELECT max(seq) AS seq FROM checkpoints WHERE run_id = $1", [id])
    await sqlOn(db.url, "UPDATE checkpoints SET snapshot = snapshot || '\\x20'::bytea WHERE run_id = $1 AND seq = $2", [id, kept!.seq])
    const refused = await request(server.url, "POST", `/v1/runs/${id}/fork`, { at: kept!.seq, wait: false })
    expect(refused.status).toBe(409)
    expect(refused.body.error.kind).toBe("CheckpointRefused")
    const honest = await suspended(code)
    const forked = await request(server.url, "POST", `/v1/runs/${honest}/fork`, { wait: false })
    expect(forked.status).toBeLessThan(300)
    await eventually(async () => (receiver.calls.some((c) => c.json.runId === forked.body.id) ? true : undefined))
  })

  it("refuses a row whose code, limits, tools, seed or saved state was changed, or whose seal was removed", async () => {
    expect(await refusedAfter("UPDATE runs SET code = $2 WHERE id = $1", [`return await tools.wait.long({ other: true })`])).toMatch(REFUSED)
    expect(await refusedAfter("UPDATE runs SET limits = limits || '{\"maxToolCalls\": 1000}' WHERE id = $1")).toMatch(REFUSED)
    expect(await refusedAfter(`UPDATE runs SET tools = '["wait"]' WHERE id = $1`)).toMatch(REFUSED)
    expect(await refusedAfter("UPDATE runs SET seed = 'chosen' WHERE id = $1")).toMatch(REFUSED)
    expect(await refusedAfter("UPDATE runs SET snapshot = snapshot || '\\x20'::bytea WHERE id = $1")).toMatch(REFUSED)
    expect(await refusedAfter("UPDATE runs SET seal = NULL WHERE id = $1")).toBe("The run's stored row was refused: it is not sealed, and this service seals every run it stores")
  })

  it("refuses a row whose origin (forked_from) was changed: a run made a fork, or a fork made a run from code", async () => {
    expect(await refusedAfter(`UPDATE runs SET forked_from = '{"run": "elsewhere", "checkpoint": 1}' WHERE id = $1`)).toMatch(REFUSED)
    const source = await suspended(code)
    const fork = (await request(server.url, "POST", `/v1/runs/${source}/fork`, { wait: false })).body.id as string
    await eventually(async () => (receiver.calls.some((c) => c.json.runId === fork) ? true : undefined))
    expect((await request(server.url, "POST", `/v1/runs/${fork}/suspend`)).body.status).toBe("suspended")
    // As a run from code, a fork taken over before its own first state would be replayed from its code.
    await sqlOn(db.url, "UPDATE runs SET forked_from = NULL WHERE id = $1", [fork])
    receiver.calls.length = 0
    const refused = await request(server.url, "POST", `/v1/runs/${fork}/resume`, {})
    expect(refused.body.status).toBe("failed")
    expect(refused.body.result.error.message).toMatch(REFUSED)
    expect(receiver.calls.filter((c) => c.json.runId === fork)).toStrictEqual([])
  })

  it("resumes a row sealed before forked_from was covered (a v1 seal)", async () => {
    const id = await suspended(code)
    const [row] = await sqlOn<SealedFields & { snapshot: Uint8Array }>(db.url, "SELECT id, tenant, code, limits, tools, seed, snapshot FROM runs WHERE id = $1", [id])
    // The previous build's seal, computed as it did: the fields without forked_from, a NUL, the state.
    const key = createHmac("sha256", TEST_SNAPSHOT_KEY).update("codemode run row seal").digest()
    const { id: i, tenant, code: c, limits, tools, seed } = row!
    const mac = createHmac("sha256", key).update(canonical(storable({ id: i, tenant, code: c, limits, tools, seed }))).update(Buffer.of(0)).update(row!.snapshot)
    await sqlOn(db.url, "UPDATE runs SET seal = $2 WHERE id = $1", [id, `v1.${mac.digest("base64url")}`])
    receiver.calls.length = 0
    expect((await request(server.url, "POST", `/v1/runs/${id}/resume`, { wait: false })).status).toBeLessThan(300)
    await eventually(async () => (receiver.calls.some((c) => c.json.runId === id) ? true : undefined))
  })

  it("refuses another run's genuine, signed state moved into a row", async () => {
    const donor = await suspended(`const n = await tools.wait.long({}); return n * 1000`)
    expect(await refusedAfter("UPDATE runs SET snapshot = (SELECT snapshot FROM runs WHERE id = $2) WHERE id = $1", [donor])).toMatch(REFUSED)
  })

  it("refuses a row moved to another tenant when it is woken", async () => {
    const id = await suspended(code)
    await sqlOn(db.url, "UPDATE runs SET tenant = 'elsewhere', wake = true WHERE id = $1", [id])
    const [row] = await eventually(async () => {
      const rows = await sqlOn<{ status: string; result: { error: { message: string } } }>(db.url, "SELECT status, result FROM runs WHERE id = $1", [id])
      return rows[0]?.status === "failed" ? rows : undefined
    })
    expect(row!.result.error.message).toMatch(REFUSED)
  })

  it("refuses a run taken over after its replica stopped when its code was changed meanwhile", async () => {
    const created = await request(server.url, "POST", "/v1/runs", { code, wait: false })
    const id = created.body.id as string
    await eventually(async () => (receiver.calls.some((c) => c.json.runId === id) ? true : undefined))
    // As if its replica had died: its lease is over and its owner gone; this replica takes it over.
    await sqlOn(db.url, "UPDATE runs SET owner = 'dead', lease_expires_at = now() - interval '1 second', code = 'return 1' WHERE id = $1", [id])
    const done = await eventually(async () => {
      const r = await request(server.url, "GET", `/v1/runs/${id}`)
      return r.body.status === "failed" ? r.body : undefined
    }, 20_000)
    expect(done.result.error.message).toMatch(REFUSED)
  })

  it("gives a run the configured memory budget, caps what a run asks for, and keeps it across a suspend", async () => {
    const bomb = `const k = []; for (;;) k.push({ n: k.length, s: "x" + k.length })`
    const ended = await request(server.url, "POST", "/v1/runs", { code: bomb, limits: { timeoutMs: 60_000, maxMemoryBytes: 2 ** 40 } })
    expect(ended.body.status).toBe("failed")
    expect(ended.body.result.error.message).toMatch(/memory limit/i)
    const id = await suspended(`const n = await tools.wait.long({}); const k = []; for (;;) k.push({ n })`)
    expect((await stateOf(id)).run.limits.maxMemoryBytes).toBe(64 * 1024 * 1024)
  })

  it("starts on Postgres without a key, saving states unsigned", async () => {
    const unkeyed = await startReplica({ databaseUrl: db.url, env: { CODEMODE_SNAPSHOT_KEY: "" } })
    try {
      const created = await request(unkeyed.url, "POST", "/v1/runs", { code: `const n = await tools.wait.long({}); return n + 1`, wait: false })
      const id = created.body.id as string
      await eventually(async () => (receiver.calls.some((c) => c.json.runId === id) ? true : undefined))
      expect((await request(unkeyed.url, "POST", `/v1/runs/${id}/suspend`)).body.status).toBe("suspended")
      expect((await stateOf(id)).signature).toBeUndefined()
      expect((await request(unkeyed.url, "POST", "/v1/runs", { code: "1 + 1" })).body.result.value).toBe(2)
    } finally {
      await unkeyed.close()
    }
  })
})
