/**
 * openapi.yaml is the contract: the committed file matches the API declaration, and every route it lists exists
 * on a running server and answers — on success and on its declared errors — with a status the document declares
 * for that route and a body that conforms to the schema declared for that status.
 */
import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { yaml } from "../../src/server/openapi.ts"
import { parse } from "../../src/server/yaml.ts"
import * as Fake from "./fake-executor.ts"
import { createDatabase, request, startReceiver, startReplica, ROOT, type Replica } from "./helpers.ts"
import { check } from "./json-schema.ts"

const file = readFileSync(`${ROOT}/openapi.yaml`, "utf8")
const doc = parse(file) as any

type Probe = { readonly name: string; readonly method?: string; readonly path: string; readonly body?: unknown; readonly status: number }

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
let suspended: string
let running: string
let settled: string

const code = (steps: Array<unknown>, ret: unknown = null) => Fake.script({ steps: steps as never, return: ret })

/** Requests for every operation: the success answer and the errors each one can give. */
const probes = (): Record<string, ReadonlyArray<Probe>> => ({
  "runs.create": [
    { name: "settled", path: "/v1/runs", body: { code: code([{ call: "p.echo", input: 1 }], "$results") }, status: 200 },
    { name: "running", path: "/v1/runs", body: { code: code([{ sleep: 50 }]), wait: false }, status: 202 },
    { name: "bad shape", path: "/v1/runs", body: { code: 1 }, status: 400 },
    { name: "duplicate id", path: "/v1/runs", body: { code: "{}", id: suspended }, status: 409 },
    { name: "too large", path: "/v1/runs", body: { code: "x".repeat(1_100_000) }, status: 413 },
  ],
  "runs.list": [
    { name: "page", path: "/v1/runs?limit=2", status: 200 },
    { name: "by status", path: "/v1/runs?status=suspended", status: 200 },
    { name: "by tool and time", path: "/v1/runs?tool=p.echo&since=2026-01-01T00:00:00Z&until=2099-01-01", status: 200 },
    { name: "bad time", path: "/v1/runs?since=soon", status: 400 },
    { name: "bad cursor", path: "/v1/runs?cursor=x", status: 400 },
  ],
  "runs.events": [
    { name: "history", path: `/v1/runs/${settled}/events`, status: 200 },
    { name: "after", path: `/v1/runs/${settled}/events?after=1`, status: 200 },
    { name: "bad after", path: `/v1/runs/${settled}/events?after=x`, status: 400 },
    { name: "missing", path: "/v1/runs/missing/events", status: 404 },
  ],
  "runs.get": [
    { name: "suspended", path: `/v1/runs/${suspended}`, status: 200 },
    { name: "missing", path: "/v1/runs/missing", status: 404 },
  ],
  "runs.checkpoints": [
    { name: "kept", path: `/v1/runs/${settled}/checkpoints`, status: 200 },
    { name: "missing", path: "/v1/runs/missing/checkpoints", status: 404 },
  ],
  "runs.suspend": [
    { name: "running", path: `/v1/runs/${running}/suspend`, status: 200 },
    { name: "missing", path: "/v1/runs/missing/suspend", status: 404 },
  ],
  "runs.resume": [
    { name: "suspended", path: `/v1/runs/${suspended}/resume`, body: { wait: false }, status: 202 },
    { name: "not suspended", path: `/v1/runs/${suspended}/resume`, body: {}, status: 409 },
  ],
  "runs.fork": [
    { name: "forked", path: `/v1/runs/${suspended}/fork`, body: { wait: false }, status: 202 },
    { name: "no such checkpoint", path: `/v1/runs/${suspended}/fork`, body: { at: 99 }, status: 404 },
    { name: "missing", path: "/v1/runs/missing/fork", body: {}, status: 404 },
    { name: "bad shape", path: `/v1/runs/${suspended}/fork`, body: { at: 0 }, status: 400 },
  ],
  "runs.cancel": [
    { name: "running", path: `/v1/runs/${suspended}/cancel`, status: 200 },
    { name: "missing", path: "/v1/runs/missing/cancel", status: 404 },
  ],
  "tools.put": [
    { name: "register", method: "PUT", path: "/v1/tools/p.other", body: { description: "d", input: {}, url: receiver.url, mode: "plain" }, status: 200 },
    { name: "conflict", method: "PUT", path: "/v1/tools/p", body: { description: "d", input: {}, url: receiver.url, mode: "plain" }, status: 409 },
    { name: "bad", method: "PUT", path: "/v1/tools/p.x", body: { description: "d" }, status: 400 },
  ],
  "calls.complete": [
    { name: "missing", path: "/v1/calls/missing:0/complete", body: { ok: true, output: 1 }, status: 404 },
    { name: "bad shape", path: "/v1/calls/missing:0/complete", body: { ok: "yes" }, status: 400 },
  ],
  "callbacks.complete": [
    { name: "unknown token", path: "/v1/callbacks/nope", body: { ok: false, error: { message: "m" } }, status: 404 },
  ],
  "calls.heartbeat": [{ name: "missing", path: "/v1/calls/missing:0/heartbeat", status: 404 }],
  "callbacks.heartbeat": [{ name: "unknown token", path: "/v1/callbacks/nope/heartbeat", status: 404 }],
  "tools.list": [{ name: "catalog", path: "/v1/tools", status: 200 }],
  "tools.search": [
    { name: "found", path: "/v1/tools/search?q=echo&limit=5", status: 200 },
    { name: "bad limit", path: "/v1/tools/search?limit=1000", status: 400 },
  ],
  "tools.delete": [
    { name: "delete", method: "DELETE", path: "/v1/tools/p.other", status: 204 },
    { name: "missing", method: "DELETE", path: "/v1/tools/p.other", status: 404 },
  ],
  "tools.get": [
    { name: "one", path: "/v1/tools/p.echo", status: 200 },
    { name: "missing", path: "/v1/tools/p.none", status: 404 },
  ],
  "tools.rotateSecret": [{ name: "missing", method: "POST", path: "/v1/tools/p.none/secret", status: 404 }],
  "tools.deleteNamespace": [{ name: "missing", method: "DELETE", path: "/v1/namespaces/p.none", status: 404 }],
  "tools.putNamespace": [{ name: "describe", method: "PUT", path: "/v1/namespaces/p", body: { description: "probes" }, status: 200 }],
  health: [{ name: "up", path: "/health", status: 200 }],
  ready: [{ name: "ready", path: "/ready", status: 200 }],
  openapi: [{ name: "document", path: "/openapi.yaml", status: 200 }],
  metrics: [{ name: "scrape", path: "/metrics", status: 200 }],
})

/** The events of a Server-Sent Events body, as `{ id?, event?, data }` records. */
const sseEvents = (text: string): Array<Record<string, string>> =>
  text
    .split("\n\n")
    .filter((block) => block.trim() !== "")
    .map((block) => {
      const fields: Record<string, string> = {}
      for (const line of block.split("\n")) {
        const i = line.indexOf(":")
        if (i > 0) fields[line.slice(0, i)] = (fields[line.slice(0, i)] ?? "") + line.slice(i + 1).replace(/^ /, "")
      }
      return fields
    })
    .filter((fields) => fields["data"] !== undefined)

const operations = (): Array<{ id: string; method: string; path: string; operation: any }> =>
  Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, operation]) => ({ id: operation.operationId as string, method: method.toUpperCase(), path, operation })),
  )

beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url, executor: Fake.layer })
  receiver = await startReceiver((c) => ({ json: { output: c.json.input } }))
  await request(server.url, "PUT", "/v1/tools/p.echo", { description: "echo", input: {}, url: receiver.url, mode: "plain" })
  const s = await request(server.url, "POST", "/v1/runs", { code: code([{ sleep: 60_000 }]), wait: false })
  suspended = s.body.id
  await request(server.url, "POST", `/v1/runs/${suspended}/suspend`)
  running = (await request(server.url, "POST", "/v1/runs", { code: code([{ sleep: 60_000 }]), wait: false })).body.id
  settled = (await request(server.url, "POST", "/v1/runs", { code: code([{ call: "p.echo", input: 1 }]) })).body.id
})

afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await db?.drop()
})

describe("openapi.yaml", () => {
  it("is up to date with the API declaration (regenerate with `node src/cli/main.ts openapi --write`)", () => {
    expect(file).toBe(yaml())
  })

  it("is OpenAPI 3.1 with an operation id on every route", () => {
    expect(doc.openapi).toBe("3.1.0")
    for (const op of operations()) expect(op.id, `${op.method} ${op.path}`).toMatch(/^\w+(\.\w+)?$/)
  })

  it("has a probe for every route, and no probe for a route it does not list", () => {
    expect(operations().map((o) => o.id).sort()).toStrictEqual(Object.keys(probes()).sort())
  })

  it("every route exists and answers with the declared statuses and shapes", async () => {
    const table = probes()
    const problems: Array<string> = []
    for (const op of operations()) {
      for (const probe of table[op.id]!) {
        const method = probe.method ?? op.method
        const where = `${op.id} (${probe.name}): ${method} ${probe.path}`
        // The probe's path must be an instance of the route's template.
        const template = new RegExp(`^${op.path.replace(/\{[^}]+\}/g, "[^/]+")}(\\?.*)?$`)
        if (method !== op.method || !template.test(probe.path)) problems.push(`${where}: probe does not match ${op.method} ${op.path}`)
        const res = await request(server.url, method, probe.path, probe.body)
        if (res.status !== probe.status) problems.push(`${where}: answered ${res.status}, the probe expected ${probe.status}: ${res.text.slice(0, 200)}`)
        const declared = op.operation.responses?.[String(res.status)]
        if (declared === undefined) {
          problems.push(`${where}: status ${res.status} is not declared`)
          continue
        }
        if (declared.content === undefined) {
          if (res.text !== "") problems.push(`${where}: declared no content, answered ${res.text.slice(0, 100)}`)
          continue
        }
        const contentType = (res.headers.get("content-type") ?? "").split(";")[0]!
        const media = declared.content[contentType]
        if (media === undefined) {
          problems.push(`${where}: content-type ${contentType} is not declared (${Object.keys(declared.content)})`)
          continue
        }
        if (contentType === "text/event-stream") {
          // Each event (id, event, data fields) must match the declared event schema.
          const events = sseEvents(res.text)
          if (events.length === 0) problems.push(`${where}: no events`)
          for (const event of events) for (const p of check(doc, media.schema, event)) problems.push(`${where}: ${p}`)
          continue
        }
        const body = contentType === "application/json" ? res.body : res.text
        for (const p of check(doc, media.schema, body)) problems.push(`${where}: ${p}`)
      }
    }
    expect(problems).toStrictEqual([])
  })

  it("declares the request bodies the routes accept", () => {
    for (const op of operations()) {
      const probesWithBody = probes()[op.id]!.filter((p) => p.body !== undefined && p.status < 300)
      for (const probe of probesWithBody) {
        const schema = op.operation.requestBody?.content?.["application/json"]?.schema
        expect(schema, `${op.id} has no request body`).toBeDefined()
        expect(check(doc, schema, probe.body), `${op.id} (${probe.name})`).toStrictEqual([])
      }
    }
  })
})
