/**
 * The service signs run states with its key (CODEMODE_SNAPSHOT_KEY; snapshot-key.ts): a suspended run whose saved
 * state was altered in the database (its limits raised) is refused when resumed, and fails saying so; the same
 * run untouched resumes. A run's memory budget defaults to CODEMODE_MAX_MEMORY_BYTES and survives a suspend.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CodeMode } from "../../src/index.ts"
import { createDatabase, eventually, request, sqlOn, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  db = await createDatabase()
  receiver = await startReceiver(() => ({ json: { output: 1 }, delayMs: 60_000 }))
  server = await startReplica({ databaseUrl: db.url, env: { CODEMODE_MAX_MEMORY_BYTES: String(64 * 1024 * 1024) } })
  await request(server.url, "PUT", "/v1/tools/wait.long", { description: "waits", input: {}, output: { type: "number" }, url: receiver.url, mode: "idempotent" })
}, 120_000)
afterAll(async () => {
  await server?.close()
  await receiver?.close()
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

describe("signed run states", () => {
  it("refuses a saved state whose limits were raised in the database, and resumes an untouched one", async () => {
    const code = `const n = await tools.wait.long({}); return n + 1`
    const altered = await suspended(code)
    const state = await stateOf(altered)
    expect(typeof state.signature).toBe("string")
    state.run.limits.maxToolCalls = 1000
    await sqlOn(db.url, "UPDATE runs SET snapshot = $2 WHERE id = $1", [altered, CodeMode.toBytes(state)])
    receiver.calls.length = 0
    const refused = await request(server.url, "POST", `/v1/runs/${altered}/resume`, {})
    expect(refused.body.status).toBe("failed")
    expect(refused.body.result.error.message).toMatch(/saved state was refused: the snapshot's signature does not match/)
    // It was not replayed from its code either: no call went out for it.
    expect(receiver.calls.filter((c) => c.json.runId === altered)).toStrictEqual([])

    const honest = await suspended(code)
    const resuming = request(server.url, "POST", `/v1/runs/${honest}/resume`, { wait: false })
    expect((await resuming).status).toBeLessThan(300)
    await eventually(async () => (receiver.calls.some((c) => c.json.runId === honest) ? true : undefined))
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
