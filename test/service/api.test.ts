/**
 * The HTTP API on one replica over a real Postgres and a real socket, driven through the typed client. Programs
 * run on the scripted executor (fake-executor.ts), so suspend and resume can be exercised before the VM supports
 * them; test/service/vm.test.ts runs the real interpreter.
 */
import * as Effect from "effect/Effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Run } from "../../src/client/index.ts"
import { latestMigration } from "../../src/server/store/postgres/database.ts"
import { yaml } from "../../src/server/openapi.ts"
import * as Fake from "./fake-executor.ts"
import { clientFor, createDatabase, eventually, request, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let a: Replica
let api: ReturnType<typeof clientFor>
let receiver: Awaited<ReturnType<typeof startReceiver>>
const secrets = new Map<string, string>()

/** Tools of the receiver: `path` in the body decides the answer. */
const answer = (path: string, input: any) => {
  switch (path) {
    case "t.echo":
      return { json: { output: { echo: input } } }
    case "t.fail":
      return { status: 500, json: { error: "exploded" } }
    case "t.slow":
    case "t.slowIdem":
      return { delayMs: input?.ms ?? 1000, json: { output: "slow done" } }
    default:
      return { status: 404 }
  }
}

const register = async (path: string, mode: "plain" | "idempotent" = "plain") => {
  const r = await api.run((c) =>
    c.tools.put({ params: { path }, payload: { description: `tool ${path}`, input: { type: "object" }, url: receiver.url, mode } }),
  )
  secrets.set(path, r.secret)
  return r
}

beforeAll(async () => {
  db = await createDatabase()
  a = await startReplica({ databaseUrl: db.url, executor: Fake.layer })
  api = clientFor(a.url)
  receiver = await startReceiver(
    (call) => answer(call.json.path, call.json.input),
    () => undefined,
  )
  await register("t.echo")
  await register("t.fail")
  await register("t.slow")
  await register("t.slowIdem", "idempotent")
})

afterAll(async () => {
  await a?.close()
  await receiver?.close()
  await db?.drop()
})

const create = (code: string, extra: { wait?: boolean; id?: string; tools?: Array<string> } = {}) =>
  api.run((c) => c.runs.create({ payload: { code, ...extra } }))

const getRun = (id: string) => api.run((c) => c.runs.get({ params: { id }, query: {} }))

const statusOf = (id: string, status: Run["status"]) =>
  eventually(async () => {
    const run = await getRun(id)
    return run.status === status ? run : undefined
  })

describe("system routes", () => {
  it("answers /health, /ready and /openapi.yaml", async () => {
    expect(await api.run((c) => c.health())).toStrictEqual({ status: "ok" })
    expect(await api.run((c) => c.ready())).toStrictEqual({ status: "ready", migration: latestMigration() })
    const doc = await request(a.url, "GET", "/openapi.yaml")
    expect(doc.status).toBe(200)
    expect(doc.headers.get("content-type")).toContain("application/yaml")
    expect(doc.text).toBe(yaml())
  })
})

describe("tools", () => {
  it("registers a webhook tool with a Standard Webhooks secret, kept across replacements", async () => {
    const first = await api.run((c) =>
      c.tools.put({
        params: { path: "orders.lookup" },
        payload: { description: "Look up an order", input: { type: "object", properties: { id: { type: "string" } } }, url: "http://127.0.0.1:9/a", mode: "plain" },
      }),
    )
    expect(first.path).toBe("orders.lookup")
    expect(first.secret).toMatch(/^whsec_/)
    const second = await api.run((c) =>
      c.tools.put({
        params: { path: "orders.lookup" },
        payload: { description: "Look up one order", input: { type: "object" }, url: "http://127.0.0.1:9/b", mode: "idempotent", timeoutMs: 500 },
      }),
    )
    expect(second.secret).toBe(first.secret)
    await api.run((c) => c.tools.putNamespace({ params: { path: "orders" }, payload: { description: "Purchases" } }))
    const catalog = await api.run((c) => c.tools.list())
    const tool = catalog.tools.find((t) => t.path === "orders.lookup")
    expect(tool).toStrictEqual({
      path: "orders.lookup",
      description: "Look up one order",
      signature: expect.stringContaining("tools.orders.lookup("),
      input: { type: "object" },
      url: "http://127.0.0.1:9/b",
      host: "127.0.0.1:9",
      mode: "idempotent",
      timeoutMs: 500,
    })
    expect(JSON.stringify(catalog)).not.toContain("whsec_")
    expect(catalog.namespaces).toContainEqual({ path: "orders", description: "Purchases" })
  })

  it("refuses a path that is both a tool and a namespace, and bad paths", async () => {
    const conflict = await api.fail((c) =>
      c.tools.put({ params: { path: "orders" }, payload: { description: "x", input: {}, url: "http://127.0.0.1:9", mode: "plain" } }),
    )
    expect(conflict._tag).toBe("Conflict")
    expect(conflict.error.kind).toBe("ToolPathConflict")
    const bad = await request(a.url, "PUT", "/v1/tools/has space", { description: "x", input: {}, url: "http://x", mode: "plain" })
    expect(bad.status).toBe(400)
    const badUrl = await request(a.url, "PUT", "/v1/tools/x.y", { description: "x", input: {}, url: "ftp://x", mode: "plain" })
    expect(badUrl.status).toBe(400)
    expect(badUrl.body.error.kind).toBe("InvalidRequest")
  })

  it("deletes a tool, 404 when there is none", async () => {
    await api.run((c) => c.tools.put({ params: { path: "tmp.gone" }, payload: { description: "x", input: {}, url: "http://127.0.0.1:9", mode: "plain" } }))
    await api.run((c) => c.tools.delete({ params: { path: "tmp.gone" } }))
    expect((await api.run((c) => c.tools.list())).tools.map((t) => t.path)).not.toContain("tmp.gone")
    const missing = await api.fail((c) => c.tools.delete({ params: { path: "tmp.gone" } }))
    expect(missing._tag).toBe("NotFound")
    expect(missing.error.kind).toBe("ToolNotFound")
  })
})

describe("runs", () => {
  it("runs a program to its end (wait defaults to true), calling signed webhooks", async () => {
    const run = await create(Fake.script({ steps: [{ call: "t.echo", input: { a: 1 } }], return: "$results" }))
    expect(run.status).toBe("succeeded")
    expect(run.result).toStrictEqual({ ok: true, value: [{ echo: { a: 1 } }], toolCalls: [{ path: "t.echo", key: `${run.id}:0` }] })
    const call = receiver.calls.find((c) => c.json.runId === run.id)!
    expect(call.json).toStrictEqual({ type: "call", key: `${run.id}:0`, runId: run.id, path: "t.echo", input: { a: 1 } })
    expect(call.headers["webhook-id"]).toBe(`${run.id}:0`)
    expect(await getRun(run.id)).toStrictEqual(run)
  })

  it("answers 202 with the running run when wait is false", async () => {
    const res = await request(a.url, "POST", "/v1/runs", { code: Fake.script({ steps: [{ sleep: 300 }], return: 7 }), wait: false })
    expect(res.status).toBe(202)
    expect(res.body.status).toBe("running")
    const done = await statusOf(res.body.id, "succeeded")
    expect(done.result).toStrictEqual({ ok: true, value: 7, toolCalls: [] })
  })

  it("uses a client-chosen id once", async () => {
    const run = await create(Fake.script({ steps: [], return: 1 }), { id: "my-run.1" })
    expect(run.id).toBe("my-run.1")
    const again = await api.fail((c) => c.runs.create({ payload: { code: "{}", id: "my-run.1" } }))
    expect(again._tag).toBe("Conflict")
    expect(again.error.kind).toBe("RunExists")
    const bad = await request(a.url, "POST", "/v1/runs", { code: "{}", id: "not ok!" })
    expect(bad.status).toBe(400)
  })

  it("fails a run whose tool fails, with the webhook's answer in the diagnostic", async () => {
    const run = await create(Fake.script({ steps: [{ call: "t.fail" }] }))
    expect(run.status).toBe("failed")
    expect(run.result?.ok).toBe(false)
    if (run.result?.ok !== false) return
    expect(run.result.error.kind).toBe("ToolFailure")
    expect(run.result.error.message).toBe(`Webhook tool t.fail failed: POST ${receiver.url}/ answered 500: {"error":"exploded"}`)
  })

  it("limits the tools a run sees with `tools`, and refuses a filter that matches nothing", async () => {
    const run = await create(Fake.script({ steps: [{ call: "t.echo" }] }), { tools: ["orders"] })
    expect(run.status).toBe("failed")
    expect(run.result).toMatchObject({ ok: false, error: { kind: "UnknownTool" } })
    const ok = await create(Fake.script({ steps: [{ call: "t.echo" }], return: "$results" }), { tools: ["t"] })
    expect(ok.status).toBe("succeeded")
    const bad = await api.fail((c) => c.runs.create({ payload: { code: "{}", tools: ["nothing.here"] } }))
    expect(bad._tag).toBe("BadRequest")
    expect(bad.error).toStrictEqual({ kind: "UnknownTool", message: "tools: no registered tool matches nothing.here" })
  })

  it("lists runs newest first, by status, a page at a time", async () => {
    const ids: Array<string> = []
    for (let i = 0; i < 5; i++) ids.push((await create(Fake.script({ steps: [], return: i }), { id: `page-${i}` })).id)
    const first = await api.run((c) => c.runs.list({ query: { limit: 2 } }))
    expect(first.runs.map((r) => r.id)).toStrictEqual(["page-4", "page-3"])
    const seen: Array<string> = []
    let cursor: string | undefined
    do {
      const page: { runs: ReadonlyArray<Run>; nextCursor?: string } = await api.run((c) =>
        c.runs.list({ query: { limit: 3, ...(cursor === undefined ? {} : { cursor }) } }),
      )
      seen.push(...page.runs.map((r) => r.id))
      cursor = page.nextCursor
    } while (cursor !== undefined)
    expect(new Set(seen).size).toBe(seen.length)
    expect(seen.filter((id) => id.startsWith("page-"))).toStrictEqual(["page-4", "page-3", "page-2", "page-1", "page-0"])
    const failed = await api.run((c) => c.runs.list({ query: { status: "failed", limit: 100 } }))
    expect(failed.runs.length).toBeGreaterThan(0)
    expect(failed.runs.every((r) => r.status === "failed")).toBe(true)
    const bad = await api.fail((c) => c.runs.list({ query: { cursor: "zzz" } }))
    expect(bad.error.kind).toBe("InvalidCursor")
  })
})

describe("suspend, resume, cancel on the replica that runs the program", () => {
  it("suspends a running run, resumes it, and refuses to do either twice", async () => {
    const run = await create(Fake.script({ steps: [{ sleep: 60_000 }], return: "resumed" }), { wait: false })
    const suspended = await api.run((c) => c.runs.suspend({ params: { id: run.id } }))
    expect(suspended.status).toBe("suspended")
    expect(await a.activeRuns()).toBe(0)
    expect((await api.run((c) => c.runs.suspend({ params: { id: run.id } }))).status).toBe("suspended") // already
    const notAgain = await api.fail((c) => c.runs.cancel({ params: { id: "missing" } }))
    expect(notAgain._tag).toBe("NotFound")
    const resumed = await api.run((c) => c.runs.resume({ params: { id: run.id }, payload: { wait: false } }))
    expect(resumed.status).toBe("running")
    const twice = await api.fail((c) => c.runs.resume({ params: { id: run.id }, payload: {} }))
    expect(twice._tag).toBe("Conflict")
    expect(twice.error).toStrictEqual({ kind: "RunNotSuspended", message: `Run ${run.id} is running, not suspended` })
    const cancelled = await api.run((c) => c.runs.cancel({ params: { id: run.id } }))
    expect(cancelled.status).toBe("cancelled")
    expect(cancelled.result).toBeUndefined()
  })

  it("refuses to suspend while a plain call runs, naming the call", async () => {
    const run = await create(Fake.script({ steps: [{ call: "t.slow", input: { ms: 1500 } }], return: "$results" }), { wait: false })
    await eventually(async () => ((await getRun(run.id)).pendingCalls?.length ? true : undefined))
    const refused = await api.fail((c) => c.runs.suspend({ params: { id: run.id } }))
    expect(refused._tag).toBe("Conflict")
    expect(refused.error).toStrictEqual({
      kind: "SuspendBlocked",
      message: `The call ${run.id}:0 (tools.t.slow) is running and cannot be repeated`,
      calls: [{ key: `${run.id}:0`, path: "tools.t.slow" }],
    })
    const done = await statusOf(run.id, "succeeded") // the run went on untouched
    expect(done.result).toMatchObject({ ok: true, value: ["slow done"] })
  })

  it("suspends during an idempotent call: the call is pending as queued, and runs again with its key on resume", async () => {
    const run = await create(Fake.script({ steps: [{ call: "t.slowIdem", input: { ms: 400 } }], return: "$results" }), { wait: false })
    await eventually(async () => (receiver.calls.some((c) => c.json.runId === run.id) ? true : undefined))
    const suspended = await api.run((c) => c.runs.suspend({ params: { id: run.id } }))
    expect(suspended.status).toBe("suspended")
    expect(suspended.pendingCalls).toStrictEqual([{ key: `${run.id}:0`, path: "t.slowIdem", state: "queued" }])
    const resumed = await api.run((c) => c.runs.resume({ params: { id: run.id }, payload: {} }))
    expect(resumed.status).toBe("succeeded")
    expect(resumed.result).toMatchObject({ ok: true, value: ["slow done"] })
    expect(resumed.pendingCalls).toBeUndefined()
    const keys = receiver.calls.filter((c) => c.json.runId === run.id).map((c) => c.headers["webhook-id"])
    expect(keys).toStrictEqual([`${run.id}:0`, `${run.id}:0`])
  })

  it("cancels running and suspended runs, and not finished ones", async () => {
    const running = await create(Fake.script({ steps: [{ sleep: 60_000 }] }), { wait: false })
    expect((await api.run((c) => c.runs.cancel({ params: { id: running.id } }))).status).toBe("cancelled")
    expect((await api.run((c) => c.runs.cancel({ params: { id: running.id } }))).status).toBe("cancelled")
    const parked = await create(Fake.script({ steps: [{ sleep: 60_000 }] }), { wait: false })
    await api.run((c) => c.runs.suspend({ params: { id: parked.id } }))
    expect((await api.run((c) => c.runs.cancel({ params: { id: parked.id } }))).status).toBe("cancelled")
    const finished = await create(Fake.script({ steps: [] }))
    const refused = await api.fail((c) => c.runs.cancel({ params: { id: finished.id } }))
    expect(refused.error.kind).toBe("RunFinished")
    const notSuspendable = await api.fail((c) => c.runs.suspend({ params: { id: finished.id } }))
    expect(notSuspendable.error.kind).toBe("RunFinished")
    expect(await a.activeRuns()).toBe(0)
  })

  it("waits for the run when resuming with wait (the default)", async () => {
    const run = await create(Fake.script({ steps: [{ sleep: 60_000 }, { call: "t.echo", input: 2 }], return: "$results" }), { wait: false })
    await api.run((c) => c.runs.suspend({ params: { id: run.id } }))
    // the fake restarts the interrupted step: resume a run whose first step is short, but long enough that the
    // suspend reaches it during that step even on a loaded machine (at 100 ms it could finish first)
    const other = await create(Fake.script({ steps: [{ sleep: 1_500 }, { call: "t.echo", input: 2 }], return: "$results" }), { wait: false })
    await api.run((c) => c.runs.suspend({ params: { id: other.id } }))
    const done = await api.run((c) => c.runs.resume({ params: { id: other.id }, payload: {} }))
    expect(done.result).toMatchObject({ ok: true, value: [{ echo: 2 }] })
    await api.run((c) => c.runs.cancel({ params: { id: run.id } }))
  })
})

describe("bad input", () => {
  const cases: Array<[string, string, string, unknown, number, string]> = [
    ["malformed JSON", "POST", "/v1/runs", "{bad json", 400, "InvalidRequest"],
    ["a wrong shape", "POST", "/v1/runs", { code: 42 }, 400, "InvalidRequest"],
    ["a missing field", "POST", "/v1/runs", { wait: true }, 400, "InvalidRequest"],
    ["bad limits", "POST", "/v1/runs", { code: "1", limits: { timeoutMs: -1 } }, 400, "InvalidRequest"],
    ["an unknown field", "POST", "/v1/runs", { code: "1", limits: { timeout: 5 } }, 400, "InvalidRequest"],
    ["an unknown top-level field", "POST", "/v1/runs", { code: "1", wiat: false }, 400, "InvalidRequest"],
    ["an unknown tool field", "PUT", "/v1/tools/t.x", { description: "d", input: {}, url: "http://127.0.0.1:1/", mode: "plain", secret: "x" }, 400, "InvalidRequest"],
    ["an unknown completion field", "POST", "/v1/calls/nope/complete", { ok: true, output: 1, extra: 2 }, 400, "InvalidRequest"],
    ["an unknown run", "GET", "/v1/runs/nope", undefined, 404, "RunNotFound"],
    ["an unknown route", "GET", "/v2/runs", undefined, 404, "RouteNotFound"],
    ["a wrong method", "DELETE", "/v1/runs/x", undefined, 404, "RouteNotFound"],
    ["a bad query", "GET", "/v1/runs?limit=1000", undefined, 400, "InvalidRequest"],
    ["an oversized body", "POST", "/v1/runs", { code: "x".repeat(1_200_000) }, 413, "PayloadTooLarge"],
  ]
  for (const [name, method, path, body, status, kind] of cases) {
    it(`answers ${status} ${kind} for ${name}`, async () => {
      const res = await request(a.url, method, path, body)
      expect(res.status).toBe(status)
      expect(res.body.error.kind).toBe(kind)
      expect(typeof res.body.error.message).toBe("string")
    })
  }

  it("names the unknown field", async () => {
    const res = await request(a.url, "POST", "/v1/runs", { code: "1", limits: { timeout: 5 } })
    expect(res.body.error.message).toContain("timeout")
  })

  it("keeps serving after all of that", async () => {
    expect((await request(a.url, "GET", "/health")).status).toBe(200)
    expect((await create(Fake.script({ steps: [], return: "still here" }))).result).toMatchObject({ value: "still here" })
  })
})

describe("authentication", () => {
  let secured: Replica
  beforeAll(async () => {
    secured = await startReplica({ databaseUrl: db.url, executor: Fake.layer, env: { CODEMODE_API_KEY: "s3cret" } })
  })
  afterAll(async () => {
    await secured?.close()
  })

  it("needs the bearer key on /v1 and nowhere else", async () => {
    const none = await request(secured.url, "GET", "/v1/runs")
    expect(none.status).toBe(401)
    expect(none.body.error.kind).toBe("Unauthorized")
    const wrong = await clientFor(secured.url, "nope").fail((c) => c.runs.list({ query: {} }))
    expect(wrong._tag).toBe("Unauthorized")
    expect(wrong.error.message).toBe("Invalid API key")
    const right = await clientFor(secured.url, "s3cret").run((c) => c.runs.list({ query: { limit: 1 } }))
    expect(right.runs).toHaveLength(1)
    expect((await request(secured.url, "GET", "/health")).status).toBe(200)
    expect((await request(secured.url, "GET", "/openapi.yaml")).status).toBe(200)
    expect(Effect.isEffect(Effect.void)).toBe(true)
  })
})
