/**
 * Live events (issue 7): `GET /v1/runs/{id}/events` as Server-Sent Events — the history from the events table,
 * then the new events live from any replica (LISTEN/NOTIFY, polling as the backstop), with `Last-Event-ID`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Fake from "./fake-executor.ts"
import { createDatabase, request, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let a: Replica
let b: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>

beforeAll(async () => {
  db = await createDatabase()
  a = await startReplica({ databaseUrl: db.url, executor: Fake.layer })
  b = await startReplica({ databaseUrl: db.url, executor: Fake.layer })
  receiver = await startReceiver(async (c) => ({ delayMs: (c.json.input as { ms?: number })?.ms ?? 0, json: { output: c.json.input } }))
  await request(a.url, "PUT", "/v1/tools/e.echo", { description: "d", input: {}, url: receiver.url, mode: "plain" })
})

afterAll(async () => {
  await a?.close()
  await b?.close()
  await receiver?.close()
  await db?.drop()
})

interface Sse {
  readonly id: string
  readonly event: string
  readonly data: any
}

/** Reads an SSE response until it ends (or `until` says so), parsing each event; answers them with the status. */
const stream = async (base: string, path: string, headers: Record<string, string> = {}, until?: (events: Array<Sse>) => boolean) => {
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), 20_000)
  const res = await fetch(base + path, { headers, signal: controller.signal })
  const events: Array<Sse> = []
  if (res.status !== 200 || res.body === null) {
    clearTimeout(timer)
    return { status: res.status, contentType: res.headers.get("content-type"), events, body: await res.text() }
  }
  const decoder = new TextDecoder()
  let buffer = ""
  try {
    for await (const chunk of res.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true })
      let end: number
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const fields: Record<string, string> = {}
        for (const line of block.split("\n")) {
          const i = line.indexOf(":")
          if (i <= 0) continue
          fields[line.slice(0, i)] = (fields[line.slice(0, i)] ?? "") + line.slice(i + 1).replace(/^ /, "")
        }
        if (fields["data"] !== undefined) events.push({ id: fields["id"]!, event: fields["event"]!, data: JSON.parse(fields["data"]) })
      }
      if (until?.(events)) {
        controller.abort()
        break
      }
    }
  } catch (e) {
    if (!controller.signal.aborted) throw e
  } finally {
    clearTimeout(timer)
  }
  return { status: res.status, contentType: res.headers.get("content-type"), events, body: "" }
}

describe("GET /v1/runs/{id}/events", () => {
  it("replays a finished run's history and ends, the last event carrying the result", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: Fake.script({ steps: [{ call: "e.echo", input: 7 }], return: "$results" }) })
    const r = await stream(b.url, `/v1/runs/${run.body.id}/events`)
    expect(r.status).toBe(200)
    expect(r.contentType).toContain("text/event-stream")
    expect(r.events.map((e) => e.event)).toStrictEqual(["run.created", "call.started", "call.settled", "run.succeeded"])
    expect(r.events[1]!.data).toMatchObject({ key: expect.any(String), path: "e.echo", input: 7 })
    expect(r.events[2]!.data).toMatchObject({ key: expect.any(String), outcome: { ok: true, output: 7 } })
    expect(r.events[3]!.data.result).toMatchObject({ ok: true, value: [7] })
    expect(r.events.every((e) => typeof e.data.at === "string")).toBe(true)
    const ids = r.events.map((e) => Number(e.id))
    expect([...ids].sort((x, y) => x - y)).toStrictEqual(ids)
  })

  it("follows a run live on another replica, through suspend and resume, until it ends", async () => {
    // The suspend must reach the run in its first sleep (a plain call in flight would refuse it): a loaded machine
    // took 400 ms to answer the create, so the sleep leaves room.
    const code = Fake.script({ steps: [{ sleep: 3000 }, { call: "e.echo", input: { ms: 200 } }, { sleep: 300 }], return: "done" })
    const run = await request(a.url, "POST", "/v1/runs", { code, wait: false })
    const id = run.body.id
    const watching = stream(b.url, `/v1/runs/${id}/events`)
    await new Promise((ok) => setTimeout(ok, 100))
    expect((await request(b.url, "POST", `/v1/runs/${id}/suspend`)).body.status).toBe("suspended")
    await request(b.url, "POST", `/v1/runs/${id}/resume`, { wait: false })
    const r = await watching
    const types = r.events.map((e) => e.event)
    expect(types[0]).toBe("run.created")
    expect(types).toContain("run.suspended")
    expect(types).toContain("run.resumed")
    expect(types).toContain("call.settled")
    expect(types.at(-1)).toBe("run.succeeded")
    expect(r.events.at(-1)!.data.result).toMatchObject({ ok: true, value: "done" })
  })

  it("continues after Last-Event-ID, or after=", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: Fake.script({ steps: [{ call: "e.echo", input: 1 }] }) })
    const all = await stream(a.url, `/v1/runs/${run.body.id}/events`)
    expect(all.events.map((e) => e.id)).toStrictEqual(["1", "2", "3", "4"])
    const rest = await stream(a.url, `/v1/runs/${run.body.id}/events`, { "last-event-id": all.events[1]!.id })
    expect(rest.events).toStrictEqual(all.events.slice(2))
    expect((await stream(b.url, `/v1/runs/${run.body.id}/events?after=3`)).events).toStrictEqual(all.events.slice(3))
    // The header wins over the query, as an EventSource reconnecting to a URL with `after` sends both.
    expect((await stream(b.url, `/v1/runs/${run.body.id}/events?after=1`, { "last-event-id": "3" })).events).toStrictEqual(all.events.slice(3))
    expect((await stream(a.url, `/v1/runs/${run.body.id}/events?after=x`)).status).toBe(400)
    const bad = await stream(a.url, `/v1/runs/${run.body.id}/events`, { "last-event-id": "x" })
    expect(bad.status).toBe(400)
  })

  it("answers 404 for an unknown run", async () => {
    const r = await stream(a.url, "/v1/runs/nope/events")
    expect(r.status).toBe(404)
    expect(JSON.parse(r.body).error.kind).toBe("RunNotFound")
  })
})
