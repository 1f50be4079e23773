/**
 * The embedded database (PGlite, one connection, no LISTEN/NOTIFY): the same service on it, under concurrent
 * load — runs calling webhooks, suspends and cancels at once — must neither deadlock on its single connection
 * nor lose anything. Uses the scripted executor (which can suspend) in process.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Fake from "./fake-executor.ts"
import { clientFor, startReceiver, startReplica, type Replica } from "./helpers.ts"

let dir = ""
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "codemode-embedded-"))
  receiver = await startReceiver(async (call) => ({ delayMs: 20, json: { output: call.json.input } }))
  server = await startReplica({ pgliteDir: join(dir, "pglite"), executor: Fake.layer })
  await clientFor(server.url).run((c) =>
    c.tools.put({ params: { path: "e.echo" }, payload: { description: "echo", input: {}, url: receiver.url, mode: "idempotent" } }),
  )
}, 120_000)

afterAll(async () => {
  await server?.close()
  await receiver?.close()
  if (dir !== "") rmSync(dir, { recursive: true, force: true })
})

describe("embedded PGlite", () => {
  it("serves concurrent runs, suspends and cancels on its single connection", async () => {
    const api = clientFor(server.url)
    const code = (i: number) => Fake.script({ steps: [{ call: "e.echo", input: i }, { call: "e.echo", input: i + 1 }], return: "$results" })
    const settled = await Promise.all(Array.from({ length: 20 }, (_, i) => api.run((c) => c.runs.create({ payload: { code: code(i) } }))))
    expect(settled.map((r) => r.result)).toStrictEqual(settled.map((_, i) => ({ ok: true, value: [i, i + 1], toolCalls: expect.any(Array) })))

    const parked = await Promise.all(
      Array.from({ length: 10 }, () =>
        api.run((c) => c.runs.create({ payload: { code: Fake.script({ steps: [{ sleep: 60_000 }], return: 1 }), wait: false } })),
      ),
    )
    const suspended = await Promise.all(parked.map((r) => api.run((c) => c.runs.suspend({ params: { id: r.id } }))))
    expect(suspended.every((r) => r.status === "suspended")).toBe(true)
    const page = await api.run((c) => c.runs.list({ query: { status: "suspended", limit: 100 } }))
    expect(page.runs).toHaveLength(10)
    const cancelled = await Promise.all(parked.map((r) => api.run((c) => c.runs.cancel({ params: { id: r.id } }))))
    expect(cancelled.every((r) => r.status === "cancelled")).toBe(true)
    expect(await server.activeRuns()).toBe(0)
  })
})
