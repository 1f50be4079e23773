/**
 * Faults from outside, one replica pair on one database: hostile HTTP input (every refusal a JSON 4xx, the process
 * serving after each), webhooks that misbehave in every way (each a ToolFailure the program catches), completions
 * that come wrong, twice or from two replicas at once, data Postgres cannot store, a completion that lands while
 * its run is being put to sleep, and bookkeeping Postgres refuses (a trigger stands in for the reasons it could).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { connect, type AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Executor, type Program } from "../../src/server/executor.ts"
import { createDatabase, eventually, request, sealedFields, sealOf, sqlOn, startReplica, type Replica } from "./helpers.ts"

/** Per run id: what happens after the program stopped for a suspend, before the service saves it. */
const afterSuspend = new Map<string, () => Promise<void>>()

/** The VM, with a hook between a program stopping for a suspend and the service saving it. */
const hookedVm = Layer.effect(
  Executor,
  Effect.gen(function* () {
    const vm = yield* Executor
    const hooked = (runId: string) => (program: Program): Program => ({
      ...program,
      run: program.run.pipe(
        Effect.tap((outcome) => {
          const hook = afterSuspend.get(runId)
          return outcome.ok === "suspended" && hook !== undefined ? Effect.promise(hook) : Effect.void
        }),
      ),
    })
    return Executor.of({
      ...vm,
      program: (spec) => Effect.map(vm.program(spec), hooked(spec.runId)),
      resume: (spec) => Effect.map(vm.resume(spec), hooked(spec.runId)),
    })
  }),
).pipe(Layer.provide(Executor.layer))

const MAX_BODY = 64 * 1024

let db: Awaited<ReturnType<typeof createDatabase>>
let a: Replica
let b: Replica
let hooks: { url: string; close: () => Promise<void> }

/** How the webhook of tool `w.<mode>` answers (durable tools' `start` included). */
const replies: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  notjson: (_q, s) => void (s.writeHead(200, { "content-type": "text/plain" }), s.end("hello")),
  array: (_q, s) => void (s.writeHead(200), s.end("[1,2]")),
  nooutput: (_q, s) => void (s.writeHead(200), s.end('{"x":1}')),
  huge: (_q, s) => void (s.writeHead(200), s.end(`{"output":"${"x".repeat(100 * 1024)}"}`)),
  slow: (_q, s) => void setTimeout(() => (s.writeHead(200), s.end('{"output":1}')), 3000),
  reset: (q, s) => void (s.writeHead(200), s.write('{"output":'), setTimeout(() => q.socket.destroy(), 20)),
  never: (_q, s) => void (s.writeHead(200), s.write('{"output":')),
  redirect: (_q, s) => void (s.writeHead(302, { location: "http://127.0.0.1:1/" }), s.end()),
  teapot: (_q, s) => void (s.writeHead(418, { "content-type": "text/html" }), s.end("<h1>\u0000no</h1>")),
  broken: (_q, s) => void (s.writeHead(500), s.end(Buffer.from([0xff, 0xfe, 0x00, 0x41]))),
  deep: (_q, s) => void (s.writeHead(200), s.end(`{"output":${"[".repeat(5000)}${"]".repeat(5000)}}`)),
  nul: (_q, s) => void (s.writeHead(200), s.end('{"output":{"text":"a\\u0000b","\\ud800":1}}')),
  start: (_q, s) => void (s.writeHead(200), s.end('{"data":{"job":1}}')),
  startnodata: (_q, s) => void (s.writeHead(200), s.end("{}")),
  startnotjson: (_q, s) => void (s.writeHead(200), s.end("data=1")),
  startunrecordable: (_q, s) => void (s.writeHead(200), s.end('{"data":{"job":"unrecordable"}}')),
}

/** Every message the webhooks got. */
const received: Array<{ type: string; key: string; path?: string }> = []

beforeAll(async () => {
  db = await createDatabase()
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (c: Buffer) => (body += c.toString()))
    req.on("end", () => {
      const message = JSON.parse(body) as { type: string; key: string; path: string }
      received.push(message)
      if (message.type === "cancel") return void (res.writeHead(200), res.end("{}"))
      replies[message.path.split(".")[1]!]!(req, res)
    })
  })
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
  hooks = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  }
  const env = {
    CODEMODE_MAX_BODY_BYTES: String(MAX_BODY),
    CODEMODE_WEBHOOK_TIMEOUT_MS: "1000",
    CODEMODE_WEBHOOK_RETRIES: "1",
    CODEMODE_WEBHOOK_MAX_REPLY_BYTES: String(64 * 1024),
    CODEMODE_IDLE_SUSPEND_MS: "300",
  }
  a = await startReplica({ databaseUrl: db.url, env, executor: hookedVm })
  b = await startReplica({ databaseUrl: db.url, env, executor: hookedVm })
  for (const mode of Object.keys(replies)) {
    const r = await put(`/v1/tools/w.${mode}`, { description: mode, input: {}, output: {}, url: hooks.url, mode: mode.startsWith("start") ? "durable" : "plain" })
    expect(r.status).toBe(200)
  }
})

afterAll(async () => {
  await a?.close()
  await b?.close()
  await hooks?.close()
  await db?.drop()
})

const put = (path: string, body: unknown) => request(a.url, "PUT", path, body)

/** A raw request (any bytes, any headers); answers the status and the parsed JSON body. */
const send = async (path: string, init: RequestInit & { method: string }) => {
  const res = await fetch(a.url + path, { ...init, signal: AbortSignal.timeout(20_000) })
  const text = await res.text()
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: res.status, body, text }
}

const JSON_TYPE = { "content-type": "application/json" }

/** Bytes on a socket (Latin-1), for what fetch will not send; answers all the server wrote back. */
const raw = (text: string) =>
  new Promise<string>((ok) => {
    const socket = connect(Number(new URL(a.url).port), "127.0.0.1")
    let out = ""
    socket.on("data", (c: Buffer) => (out += c.toString()))
    socket.on("end", () => ok(out))
    socket.on("error", () => ok(out))
    socket.write(Buffer.from(text, "latin1"))
  })

/** The answer is the API's error shape, and the process still serves. */
const refused = async (answer: { status: number; body: any; text: string }, status: number, kind: string) => {
  expect({ status: answer.status, kind: answer.body?.error?.kind }, answer.text.slice(0, 300)).toStrictEqual({ status, kind })
  expect(typeof answer.body.error.message).toBe("string")
  expect((await request(a.url, "GET", "/health")).status).toBe(200)
}

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`

describe("hostile HTTP input", () => {
  it("answers malformed, mistyped, empty, non-JSON and oversized bodies with a JSON 4xx", async () => {
    await refused(await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: "{bad" }), 400, "InvalidRequest")
    await refused(await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: "" }), 400, "InvalidRequest")
    await refused(await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: "[1]" }), 400, "InvalidRequest")
    await refused(await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: '{"code":1}' }), 400, "InvalidRequest")
    await refused(await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: '{"code":"1","wait":"yes"}' }), 400, "InvalidRequest")
    // fetch sends a string body as text/plain; forms and multipart are not JSON either.
    await refused(await send("/v1/runs", { method: "POST", body: '{"code":"1"}' }), 415, "UnsupportedMediaType")
    await refused(await send("/v1/runs", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "code=1" }), 415, "UnsupportedMediaType")
    await refused(await send("/v1/tools/x.y", { method: "PUT", headers: { "content-type": "multipart/form-data; boundary=z" }, body: "--z--" }), 415, "UnsupportedMediaType")
    await refused(await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ code: "x".repeat(MAX_BODY) }) }), 413, "PayloadTooLarge")
    // An unknown field is refused by name (openapi.yaml: additionalProperties: false).
    const extra = await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: '{"code":"1 + 1","color":"red"}' })
    await refused(extra, 400, "InvalidRequest")
    expect(extra.body.error.message).toContain("color")
  })

  it("takes a program of exactly the body limit, and refuses one byte more", async () => {
    const body = (size: number) => {
      const shell = JSON.stringify({ code: "return 7;" })
      return JSON.stringify({ code: `return 7;${" ".repeat(size - shell.length)}` })
    }
    expect(Buffer.byteLength(body(MAX_BODY))).toBe(MAX_BODY)
    const atLimit = await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: body(MAX_BODY) })
    expect(atLimit.status).toBe(200)
    expect(atLimit.body.result).toMatchObject({ ok: true, value: 7 })
    await refused(await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: body(MAX_BODY + 1) }), 413, "PayloadTooLarge")
  })

  it("survives JSON nested far deeper than any stack, wherever it is", async () => {
    const deep = nested(Math.floor((MAX_BODY - 100) / 6))
    // An unknown field is refused however deep it is.
    await refused(await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: `{"code":"1","x":${deep}}` }), 400, "InvalidRequest")
    await refused(await send("/v1/tools/x.y", { method: "PUT", headers: JSON_TYPE, body: `{"description":"d","url":"${hooks.url}","mode":"plain","input":${deep}}` }), 400, "InvalidTool")
    await refused(await send("/v1/calls/nope/complete", { method: "POST", headers: JSON_TYPE, body: `{"ok":true,"output":${deep}}` }), 400, "InvalidCompletion")
    await refused(await send("/v1/runs", { method: "POST", headers: { ...JSON_TYPE, "idempotency-key": "deep" }, body: `{"code":"1","limits":{"timeoutMs":"x","y":${deep}}}` }), 400, "InvalidRequest")
  })

  it("refuses text Postgres cannot store (U+0000) with a 400, not a database error", async () => {
    await refused(await send("/v1/runs", { method: "POST", headers: JSON_TYPE, body: '{"code":"1\\u0000"}' }), 400, "InvalidRequest")
    await refused(await send("/v1/tools/x.y", { method: "PUT", headers: JSON_TYPE, body: `{"description":"\\u0000","url":"${hooks.url}","mode":"plain","input":{}}` }), 400, "InvalidRequest")
    await refused(await send("/v1/runs/a%00b", { method: "GET" }), 400, "InvalidRequest")
    await refused(await send("/v1/calls/a%00b/heartbeat", { method: "POST" }), 400, "InvalidRequest")
  })

  it("answers odd path parameters, cursors, event ids and idempotency keys with 4xx", async () => {
    await refused(await send("/v1/runs/a%2Fb", { method: "GET" }), 404, "RunNotFound")
    await refused(await send(`/v1/runs/${encodeURIComponent("ünï😀")}`, { method: "GET" }), 404, "RunNotFound")
    await refused(await send(`/v1/runs/${"r".repeat(2000)}/cancel`, { method: "POST" }), 404, "RunNotFound")
    await refused(await send(`/v1/tools/${"t".repeat(2000)}`, { method: "DELETE" }), 400, "InvalidRequest")
    await refused(await send(`/v1/callbacks/${"c".repeat(2000)}`, { method: "POST", headers: JSON_TYPE, body: '{"ok":true}' }), 404, "CallNotFound")
    // Past the router's limit on a parameter (well above any id, key or tool path the service makes).
    const long = await send(`/v1/runs/${"r".repeat(10_000)}`, { method: "GET" })
    await refused(long, 404, "RouteNotFound")
    expect(long.body.error.message.length).toBeLessThan(400)
    await refused(await send("/v1/runs/%E0%A4%A", { method: "GET" }), 404, "RouteNotFound")
    // Beyond a Postgres bigint: not an id this service handed out.
    await refused(await send("/v1/runs?cursor=9223372036854775808", { method: "GET" }), 400, "InvalidCursor")
    const run = await request(a.url, "POST", "/v1/runs", { code: "1" })
    for (const id of ["abc", "-1", "9223372036854775808", "1".repeat(30)]) {
      await refused(await send(`/v1/runs/${run.body.id}/events`, { method: "GET", headers: { "last-event-id": id } }), 400, "InvalidLastEventId")
    }
    await refused(await send("/v1/runs", { method: "POST", headers: { ...JSON_TYPE, "idempotency-key": "k".repeat(256) }, body: '{"code":"1"}' }), 400, "InvalidIdempotencyKey")
    // Refused by Node's HTTP parser before any route: answered with the same JSON errors.
    await refused(await send("/v1/runs", { method: "GET", headers: { "x-big": "h".repeat(32 * 1024) } }), 431, "HeadersTooLarge")
    const garbage = await raw("GARBAGE\r\n\r\n")
    expect(garbage.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request")
    expect(JSON.parse(garbage.slice(garbage.indexOf("\r\n\r\n") + 4))).toMatchObject({ error: { kind: "InvalidRequest" } })
    const framing = await raw("POST /v1/runs HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
    expect(framing.split("\r\n")[0]).toBe("HTTP/1.1 400 Bad Request")
    expect((await request(a.url, "GET", "/health")).status).toBe(200)
  })

  it("serves the longest ids, call keys and tool paths the API allows", async () => {
    const path = Array.from({ length: 16 }, (_, i) => `${i}`.padEnd(64, "p")).join(".")
    expect((await put(`/v1/tools/${path}`, { description: "long", input: {}, url: hooks.url, mode: "plain" })).status).toBe(200)
    expect((await request(a.url, "DELETE", `/v1/tools/${path}`)).status).toBe(204)
    const id = `L${"o".repeat(126)}g`
    const run = await request(a.url, "POST", "/v1/runs", { id, code: `return await tools.w.start({})`, wait: false })
    expect(run.status).toBe(202)
    await eventually(async () => ((await sqlOn<{ state: string }>(db.url, "SELECT state FROM calls WHERE key = $1", [`${id}:1`]))[0]?.state === "started" ? true : undefined))
    expect((await request(b.url, "POST", `/v1/calls/${id}:1/complete`, { ok: true, output: "done" })).status).toBe(200)
    const done = await eventually(async () => {
      const r = await request(b.url, "GET", `/v1/runs/${id}`)
      return r.body.status === "succeeded" ? r.body : undefined
    })
    expect(done.result.value).toBe("done")
  })

  it("takes Latin-1 idempotency keys, and runs one request of many identical ones sent at once", async () => {
    const body = '{"code":"6 * 7"}'
    const withKey = (key: string) =>
      raw(`POST /v1/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nIdempotency-Key: ${key}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`)
    const first = await withKey("clé ÿ")
    const again = await withKey("clé ÿ")
    expect(first.split("\r\n")[0]).toBe("HTTP/1.1 200 OK")
    expect(again).toContain("idempotent-replayed: true")

    const key = `same-${Date.now()}`
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => request(i % 2 === 0 ? a.url : b.url, "POST", "/v1/runs", { code: "return 42" }, { "idempotency-key": key })),
    )
    for (const r of answers) {
      expect([200, 409]).toContain(r.status)
      if (r.status === 409) expect(r.body.error.kind).toBe("IdempotencyKeyInUse")
    }
    const ids = new Set(answers.filter((r) => r.status === 200).map((r) => r.body.id))
    expect(ids.size).toBe(1)
    const replay = await request(b.url, "POST", "/v1/runs", { code: "return 42" }, { "idempotency-key": key })
    expect(replay.body.id).toBe([...ids][0])
    const rows = await sqlOn<{ n: number }>(db.url, "SELECT count(*)::int AS n FROM runs WHERE code = 'return 42'")
    expect(rows[0]!.n).toBe(1)
  })

  it("registers hostile JSON Schemas or refuses them quickly, and keeps rendering the catalog", async () => {
    const tool = (input: unknown) => put("/v1/tools/h.schema", { description: "d", url: hooks.url, mode: "plain", input })
    expect((await tool({ $ref: "#" })).status).toBe(200)
    // References that only lead to each other never reach a schema: refused, with the pointer.
    await refused(await tool({ type: "object", properties: { a: { $ref: "#/$defs/x" } }, $defs: { x: { $ref: "#/$defs/y" }, y: { $ref: "#/$defs/x" } } }), 400, "InvalidTool")
    expect((await tool({ type: "string", enum: Array.from({ length: 3000 }, (_, i) => `v${i}`) })).status).toBe(200)
    expect((await tool({ $ref: "#/%ZZ" })).status).toBeLessThan(500)
    // Two references per level, 40 levels: 2^40 expansions if rendered; refused before the renderer sees it.
    const defs: Record<string, unknown> = { d40: { type: "string" } }
    for (let i = 0; i < 40; i++) defs[`d${i}`] = { type: "object", properties: { a: { $ref: `#/$defs/d${i + 1}` }, b: { $ref: `#/$defs/d${i + 1}` } } }
    const started = Date.now()
    await refused(await tool({ $ref: "#/$defs/d0", $defs: defs }), 400, "InvalidTool")
    expect(Date.now() - started).toBeLessThan(5000)
    let deep: unknown = { type: "string" }
    for (let i = 0; i < 2000; i++) deep = { type: "array", items: deep }
    await refused(await tool(deep), 400, "InvalidTool")
    await refused(await put("/v1/tools/h.schema", { description: "d", url: hooks.url, mode: "plain", input: {}, output: { $ref: "#/$defs/d0", $defs: defs } }), 400, "InvalidTool")
    const catalog = await request(a.url, "GET", "/v1/tools")
    expect(catalog.status).toBe(200)
    expect(catalog.body.tools.find((t: { path: string }) => t.path === "h.schema").signature).toContain("tools.h.schema(")
  })
})

/** Runs a program that calls `tools.w.<mode>` and catches what it throws. */
const callTool = async (mode: string) => {
  const r = await request(a.url, "POST", "/v1/runs", {
    code: `try { return { output: await tools.w.${mode}({}) } } catch (e) { return { caught: e.message } }`,
  })
  expect(r.status).toBe(200)
  expect(r.body.status).toBe("succeeded")
  return r.body.result.value as { output?: unknown; caught?: string }
}

describe("webhooks that misbehave", () => {
  it("fails the call with a ToolFailure the program catches, whatever the reply", async () => {
    const where = `POST ${hooks.url}`
    const expected: Record<string, string> = {
      notjson: `Webhook tool w.notjson failed: ${where} replied 200 with a body that is not JSON: hello`,
      array: `Webhook tool w.array failed: ${where} replied 200 without a JSON object { output }`,
      huge: `Webhook tool w.huge failed: ${where} replied with more than 65536 bytes`,
      slow: `Webhook tool w.slow failed: ${where} did not answer within 1000 ms`,
      reset: `Webhook tool w.reset failed: ${where} could not be reached: ECONNRESET`,
      never: `Webhook tool w.never failed: ${where} did not answer within 1000 ms`,
      redirect: `Webhook tool w.redirect failed: ${where} answered 302`,
      teapot: `Webhook tool w.teapot failed: ${where} answered 418: <h1>\u0000no</h1>`,
      deep: `Webhook tool w.deep failed: ${where} replied 200 with JSON nested deeper than 64 levels`,
      startnotjson: `Webhook tool w.startnotjson failed: ${where} replied 200 with a body that is not JSON: data=1`,
    }
    const outcomes = await Promise.all(Object.keys(expected).map(async (mode) => [mode, await callTool(mode)] as const))
    for (const [mode, outcome] of outcomes) {
      // A program sees the message as it was; the run's stored result had U+0000 replaced (see below).
      expect(outcome.caught?.replace("\ufffd", "\u0000"), mode).toBe(expected[mode])
    }
    const broken = await callTool("broken")
    expect(broken.caught).toMatch(/^Webhook tool w\.broken failed: POST .* answered 500: /)
    expect(await callTool("nooutput")).toStrictEqual({})
    expect((await request(a.url, "GET", "/health")).status).toBe(200)
  })

  it("saves outcomes holding text jsonb refuses, with U+FFFD in its place", async () => {
    expect(await callTool("nul")).toStrictEqual({ output: { text: "a\ufffdb", "\ufffd": 1 } })
    const returned = await request(b.url, "POST", "/v1/runs", { code: `console.log("x\\u0000y"); return ["\\u0000", "\\ud800", "\\ud83d\\ude00"]` })
    expect(returned.body.status).toBe("succeeded")
    expect(returned.body.result).toMatchObject({ value: ["\ufffd", "\ufffd", "😀"], logs: ["x\ufffdy"] })
    const thrown = await request(b.url, "POST", "/v1/runs", { code: `throw new Error("bad\\u0000")` })
    expect(thrown.body).toMatchObject({ status: "failed", result: { error: { message: "Error: bad\ufffd" } } })
  })

  it("replays from its code a run whose call input jsonb could not store as it was", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: `const r = await tools.w.start({ s: "a\\u0000b" }); return r`, wait: false })
    const id = run.body.id as string
    await eventually(async () => ((await sqlOn<{ status: string }>(db.url, "SELECT status FROM runs WHERE id = $1", [id]))[0]?.status === "suspended" ? true : undefined))
    // As if its replica had died before saving any checkpoint: a takeover replays the run's calls from the journal.
    await sqlOn(
      db.url,
      "UPDATE runs SET status = 'running', owner = 'dead', lease_expires_at = now() - interval '1 second', snapshot = NULL, seal = $2 WHERE id = $1",
      [id, sealOf(await sealedFields(db.url, id))],
    )
    await eventually(async () => ((await sqlOn(db.url, "SELECT 1 FROM events WHERE run_id = $1 AND type = 'run.recovered'", [id])).length === 1 ? true : undefined))
    expect((await request(b.url, "POST", `/v1/calls/${id}:1/complete`, { ok: true, output: "woke" })).status).toBe(200)
    const done = await eventually(async () => {
      const r = await request(b.url, "GET", `/v1/runs/${id}`)
      return r.body.status === "succeeded" || r.body.status === "failed" ? r.body : undefined
    })
    expect(done.result).toMatchObject({ ok: true, value: "woke" })
  })

  it("takes a durable start without data, and completes it from two replicas at once with one outcome", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: `return await tools.w.startnodata({})`, wait: false })
    const key = `${run.body.id}:1`
    await eventually(async () => ((await sqlOn<{ state: string }>(db.url, "SELECT state FROM calls WHERE key = $1", [key]))[0]?.state === "started" ? true : undefined))
    const completions = await Promise.all(
      Array.from({ length: 8 }, (_, i) => request(i % 2 === 0 ? a.url : b.url, "POST", `/v1/calls/${key}/complete`, { ok: true, output: i })),
    )
    // One outcome wins; each other (a different output) is a 409 CallAlreadySettled carrying the winner.
    expect(completions.map((c) => c.status).sort()).toStrictEqual([200, ...Array(7).fill(409)])
    const stands = completions.map((c) => (c.status === 200 ? c.body.outcome : c.body.error.outcome))
    expect(new Set(stands.map((o) => JSON.stringify(o))).size).toBe(1)
    const winner = stands[0].output
    const done = await eventually(async () => {
      const r = await request(b.url, "GET", `/v1/runs/${run.body.id}`)
      return r.body.status === "succeeded" ? r.body : undefined
    })
    expect(done.result.value).toBe(winner)
    const settled = await sqlOn(db.url, "SELECT 1 FROM events WHERE run_id = $1 AND type = 'call.settled'", [run.body.id])
    expect(settled).toHaveLength(1)
    // Too late, or wrong: clear answers, nothing changes.
    const beat = await request(a.url, "POST", `/v1/calls/${key}/heartbeat`)
    expect(beat.body).toStrictEqual({ key, runId: run.body.id, state: "settled" })
    const late = await request(b.url, "POST", `/v1/calls/${key}/complete`, { ok: false, error: { message: "late" } })
    expect({ status: late.status, kind: late.body.error.kind, outcome: late.body.error.outcome }).toStrictEqual({ status: 409, kind: "CallAlreadySettled", outcome: { ok: true, output: winner } })
    await refused(await send(`/v1/calls/${key}/complete`, { method: "POST", headers: JSON_TYPE, body: '{"ok":"yes"}' }), 400, "InvalidRequest")
    await refused(await send(`/v1/calls/${key}/complete`, { method: "POST", headers: JSON_TYPE, body: '{"ok":false,"error":{}}' }), 400, "InvalidRequest")
    await refused(await send("/v1/calls/no-such-call/complete", { method: "POST", headers: JSON_TYPE, body: '{"ok":true}' }), 404, "CallNotFound")
    await refused(await send(`/v1/calls/${key}/complete`, { method: "POST", headers: JSON_TYPE, body: JSON.stringify({ ok: true, output: "x".repeat(MAX_BODY) }) }), 413, "PayloadTooLarge")
    await refused(await send("/v1/calls/no-such-call/heartbeat", { method: "POST" }), 404, "CallNotFound")
  })
})

describe("a completion racing the service's suspend", () => {
  it("wakes the run when it lands after the run stopped waiting and before its suspend is saved", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: `const r = await tools.w.start({}); return r + 1`, wait: false })
    const id = run.body.id as string
    let stopped!: () => void
    const inWindow = new Promise<void>((ok) => (stopped = ok))
    let proceed!: () => void
    afterSuspend.set(id, () => (stopped(), new Promise<void>((ok) => (proceed = ok))))
    // The idle timer stops the run (its wait for the call ends); it is held there, before the suspend is saved.
    await inWindow
    const completed = await request(b.url, "POST", `/v1/calls/${id}:1/complete`, { ok: true, output: 41 })
    expect(completed.status).toBe(200)
    afterSuspend.delete(id)
    proceed()
    const done = await eventually(async () => {
      const r = await request(b.url, "GET", `/v1/runs/${id}`)
      return r.body.status === "succeeded" ? r.body : undefined
    })
    expect(done.result.value).toBe(42)
  })

  it("wakes the run when the completion commits while the suspend's statement is in progress", async () => {
    const id = `race-${Date.now()}`
    // The suspend's statement holds the run's row for a second before it commits.
    await sqlOn(db.url, `CREATE FUNCTION slow_suspend() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.id = '${id}' AND NEW.status = 'suspended' THEN PERFORM pg_sleep(1); END IF; RETURN NEW; END $$`)
    await sqlOn(db.url, "CREATE TRIGGER slow_suspend BEFORE UPDATE ON runs FOR EACH ROW EXECUTE FUNCTION slow_suspend()")
    try {
      let stopped!: () => void
      const inWindow = new Promise<void>((ok) => (stopped = ok))
      afterSuspend.set(id, async () => stopped())
      await request(a.url, "POST", "/v1/runs", { id, code: `const r = await tools.w.start({}); return r + 1`, wait: false })
      await inWindow
      afterSuspend.delete(id)
      await eventually(async () => {
        const sleeping = await sqlOn(db.url, "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%run.suspended%' AND wait_event = 'PgSleep'", [db.name])
        return sleeping.length > 0 ? true : undefined
      })
      expect((await request(b.url, "POST", `/v1/calls/${id}:1/complete`, { ok: true, output: 1 })).status).toBe(200)
      const done = await eventually(async () => {
        const r = await request(b.url, "GET", `/v1/runs/${id}`)
        return r.body.status === "succeeded" ? r.body : undefined
      })
      expect(done.result.value).toBe(2)
    } finally {
      await sqlOn(db.url, "DROP TRIGGER slow_suspend ON runs")
    }
  })
})

describe("bookkeeping the database refuses", () => {
  beforeAll(async () => {
    // Postgres refuses these rows for good (not a lost connection): what the service does then is under test.
    const refuse = (table: string, condition: string) =>
      sqlOn(db.url, `CREATE FUNCTION refuse_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF ${condition} THEN RAISE EXCEPTION 'refused by the test'; END IF; RETURN NEW; END $$`).then(() =>
        sqlOn(db.url, `CREATE TRIGGER refuse_${table} BEFORE INSERT OR UPDATE ON ${table} FOR EACH ROW EXECUTE FUNCTION refuse_${table}()`),
      )
    await refuse("calls", "NEW.input->>'refuse' = 'yes' OR NEW.data->>'job' = 'unrecordable'")
    await refuse("runs", "NEW.result->>'value' = 'unstorable'")
  })

  it("does not send a call it could not record (a takeover could not know about it)", async () => {
    const run = await request(a.url, "POST", "/v1/runs", {
      code: `const out = []
        for (const t of [tools.w.nooutput, tools.w.start]) {
          try { await t({ refuse: "yes" }); out.push("sent") } catch (e) { out.push(e.message) }
        }
        return out`,
    })
    expect(run.body.status).toBe("succeeded")
    expect(run.body.result.value).toStrictEqual([
      expect.stringMatching(/^The call to w\.nooutput was not sent: the service could not record it \(.*refused by the test/),
      expect.stringMatching(/^The call to w\.start was not sent: the service could not record it \(.*refused by the test/),
    ])
    expect(received.filter((m) => m.key.startsWith(`${run.body.id}:`))).toStrictEqual([])
  })

  it("fails a durable call whose accepted start it could not record, and cancels its job", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: `try { return await tools.w.startunrecordable({}) } catch (e) { return e.message }` })
    expect(run.body.status).toBe("succeeded")
    expect(run.body.result.value).toMatch(/^Durable tool w\.startunrecordable started its job, but the service could not record it \(.*\); the job was cancelled$/)
    const key = `${run.body.id}:1`
    expect(received.filter((m) => m.key === key).map((m) => m.type)).toStrictEqual(["start", "cancel"])
  })

  it("fails a run whose outcome Postgres refuses instead of leaving it running", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: `return "unstorable"` })
    expect(run.status).toBe(200)
    expect(run.body.status).toBe("failed")
    expect(run.body.result.error.message).toMatch(/^The run ended, but its outcome could not be stored: .*refused by the test/)
  })
})
