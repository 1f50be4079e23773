/** The Promise client (`codemode/client`'s `Client`) against a live server: no Effect in sight. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client, ClientError } from "../../src/client/index.ts"
import { createDatabase, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url })
})
afterAll(async () => {
  await server?.close()
  await db?.drop()
})

const rejection = (p: Promise<unknown>) => p.then(() => expect.unreachable("it resolved"), (e: unknown) => e as ClientError)

describe("Client", () => {
  it("runs a program, reads it back, and streams its events", async () => {
    const client = new Client({ baseUrl: server.url })
    expect(await client.health()).toStrictEqual({ status: "ok" })
    const run = await client.runs.create({ payload: { code: "console.log('hi'); return 6 * 7", id: "promise-client" } })
    expect(run).toMatchObject({ id: "promise-client", status: "succeeded", result: { ok: true, value: 42, logs: ["hi"] } })
    expect((await client.runs.get({ params: { id: run.id }, query: {} })).status).toBe("succeeded")
    const events: Array<string> = []
    for await (const e of await client.runs.events({ params: { id: run.id }, query: {} })) events.push(e.event)
    expect(events).toStrictEqual(["run.created", "log", "run.succeeded"])
  })

  it("rejects with a ClientError carrying the service's kind and status", async () => {
    const client = new Client({ baseUrl: server.url })
    const e = await rejection(client.runs.get({ params: { id: "missing" }, query: {} }))
    expect(e).toBeInstanceOf(ClientError)
    expect([e.kind, e.status, e.message]).toStrictEqual(["RunNotFound", 404, "No run with id missing"])
  })

  it("rejects with Unreachable when nothing answers", async () => {
    const e = await rejection(new Client({ baseUrl: "http://127.0.0.1:9" }).runs.list({ query: {} }))
    expect(e).toBeInstanceOf(ClientError)
    expect(e.kind).toBe("Unreachable")
    expect(e.message).toMatch(/^cannot reach GET http:\/\/127\.0\.0\.1:9\/v1\/runs/)
  })
})
