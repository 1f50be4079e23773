/**
 * Outbound safety (issue 7): webhook URLs that are or resolve to loopback, private, link-local or unspecified
 * addresses are refused at registration and again at call time, unless CODEMODE_WEBHOOK_ALLOW allows them;
 * request and reply bodies have limits. (Redirects not being followed is in webhooks.test.ts.)
 */
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ServerConfig } from "../../src/server/config.ts"
import { Metrics } from "../../src/server/metrics.ts"
import { InvalidAllowList, policy } from "../../src/server/outbound.ts"
import type { ToolRow } from "../../src/server/store/tools.ts"
import { newSecret } from "../../src/server/signing.ts"
import { Webhooks, type WebhookError } from "../../src/server/webhooks.ts"
import * as Fake from "./fake-executor.ts"
import { createDatabase, request, startReceiver, startReplica, type Replica } from "./helpers.ts"

describe("the address policy", () => {
  it("refuses loopback, private, link-local and unspecified addresses, IPv4-mapped ones too", () => {
    const p = policy("")
    for (const a of ["127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254",
      "100.64.0.1", "0.0.0.0", "::", "::1", "fc00::1", "fd12:3456::1", "fe80::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1"]) {
      expect(p.refusal(a), a).toContain("loopback, private, link-local or unspecified")
    }
    for (const a of ["93.184.216.34", "8.8.8.8", "172.32.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
      expect(p.refusal(a), a).toBeUndefined()
    }
  })

  it("allows what CODEMODE_WEBHOOK_ALLOW lists: hosts, addresses and CIDRs", () => {
    const p = policy(" hooks.internal , 10.0.0.0/8,::1, 192.168.1.7 ")
    expect(p.hostAllowed("HOOKS.internal")).toBe(true)
    expect(p.hostAllowed("other.internal")).toBe(false)
    expect(p.refusal("10.200.0.1")).toBeUndefined()
    expect(p.refusal("::1")).toBeUndefined()
    expect(p.refusal("192.168.1.7")).toBeUndefined()
    expect(p.refusal("192.168.1.8")).toBeDefined()
    expect(p.refusal("127.0.0.1")).toBeDefined()
    expect(() => policy("10.0.0.0/33")).toThrow(InvalidAllowList)
    expect(() => policy("http://x")).toThrow(InvalidAllowList)
  })
})

const webhooks = (env: Record<string, string>) =>
  Webhooks.layer.pipe(
    Layer.provide(Layer.merge(ServerConfig.layer, Metrics.layer)),
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ CODEMODE_WEBHOOK_TIMEOUT_MS: "2000", CODEMODE_WEBHOOK_RETRIES: "1", ...env }))),
  )

const tool = (url: string, extra: Partial<ToolRow> = {}): ToolRow => ({
  previousSecret: undefined,
  path: "t.hook",
  description: "d",
  input: { type: "object" },
  output: undefined,
  url,
  mode: "idempotent",
  timeoutMs: undefined,
  heartbeatTimeoutMs: undefined,
  secret: newSecret(),
  ...extra,
})

const outcome = (env: Record<string, string>, t: ToolRow, input: unknown = {}) =>
  Effect.runPromise(
    Effect.gen(function* () {
      return yield* (yield* Webhooks).call(t, { key: "r:0", runId: "r", input })
    }).pipe(
      Effect.match({ onSuccess: (value) => ({ ok: true as const, value }), onFailure: (error: WebhookError) => ({ ok: false as const, error }) }),
      Effect.provide(webhooks(env)),
    ),
  )

describe("webhook calls", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let port: number
  beforeAll(async () => {
    receiver = await startReceiver((c) => (c.json.input === "big" ? { body: JSON.stringify({ output: "x".repeat(5000) }) } : { json: { output: "reached" } }))
    port = Number(new URL(receiver.url).port)
  })
  afterAll(() => receiver?.close())

  it("refuse a loopback address, by IP and by a name that resolves to it, without retrying or sending anything", async () => {
    const before = receiver.calls.length
    for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`]) {
      const r = await outcome({}, tool(url))
      expect(r.ok, url).toBe(false)
      if (r.ok) continue
      expect(r.error.reason).toBe("Refused")
      expect(r.error.retryable).toBe(false)
      expect(r.error.message).toContain("loopback, private, link-local or unspecified")
      expect(r.error.message).toContain("CODEMODE_WEBHOOK_ALLOW")
    }
    expect(receiver.calls.length).toBe(before)
  })

  it("reach it when CODEMODE_WEBHOOK_ALLOW allows the address or the host", async () => {
    expect(await outcome({ CODEMODE_WEBHOOK_ALLOW: "127.0.0.0/8" }, tool(`http://localhost:${port}/`))).toMatchObject({ ok: true, value: "reached" })
    expect(await outcome({ CODEMODE_WEBHOOK_ALLOW: "localhost" }, tool(`http://localhost:${port}/`))).toMatchObject({ ok: true, value: "reached" })
  })

  it("limit the request body and the reply", async () => {
    const before = receiver.calls.length
    const big = await outcome({ CODEMODE_WEBHOOK_ALLOW: "127.0.0.1", CODEMODE_WEBHOOK_MAX_REQUEST_BYTES: "1000" }, tool(receiver.url), "y".repeat(2000))
    expect(big).toMatchObject({ ok: false, error: { reason: "TooLarge", retryable: false } })
    expect(receiver.calls.length).toBe(before)
    const reply = await outcome({ CODEMODE_WEBHOOK_ALLOW: "127.0.0.1", CODEMODE_WEBHOOK_MAX_REPLY_BYTES: "1000" }, tool(receiver.url), "big")
    expect(reply).toMatchObject({ ok: false, error: { reason: "InvalidReply", retryable: false } })
    if (!reply.ok) expect(reply.error.message).toContain("replied with more than 1000 bytes")
  })
})

describe("the service", () => {
  let db: Awaited<ReturnType<typeof createDatabase>>
  let open: Replica
  let strict: Replica
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  beforeAll(async () => {
    db = await createDatabase()
    receiver = await startReceiver(() => ({ json: { output: "reached" } }))
    open = await startReplica({ databaseUrl: db.url, executor: Fake.layer })
    strict = await startReplica({ databaseUrl: db.url, executor: Fake.layer, env: { CODEMODE_WEBHOOK_ALLOW: "" } })
  })
  afterAll(async () => {
    await open?.close()
    await strict?.close()
    await receiver?.close()
    await db?.drop()
  })

  const register = (server: Replica, path: string, url: string) =>
    request(server.url, "PUT", `/v1/tools/${path}`, { description: "d", input: {}, url, mode: "plain" })

  it("refuses to register a loopback webhook without CODEMODE_WEBHOOK_ALLOW", async () => {
    const port = new URL(receiver.url).port
    for (const url of [receiver.url, `http://localhost:${port}/hook`, "http://[::1]:9/", "http://169.254.169.254/latest/meta-data"]) {
      const r = await register(strict, "t.local", url)
      expect(r.status, url).toBe(400)
      expect(r.body.error.kind).toBe("WebhookUrlRefused")
      expect(r.body.error.message).toContain("CODEMODE_WEBHOOK_ALLOW")
    }
    expect((await register(open, "t.local", receiver.url)).status).toBe(200)
  })

  it("checks again at call time: a tool registered where it was allowed is refused where it is not", async () => {
    const code = Fake.script({ steps: [{ call: "t.local", input: 1 }], return: "$results" })
    const allowed = await request(open.url, "POST", "/v1/runs", { code })
    expect(allowed.body.result).toMatchObject({ ok: true, value: ["reached"] })
    const calls = receiver.calls.length
    const refused = await request(strict.url, "POST", "/v1/runs", { code })
    expect(refused.body.status).toBe("failed")
    expect(JSON.stringify(refused.body.result)).toContain("loopback, private, link-local or unspecified")
    expect(receiver.calls.length).toBe(calls)
  })
})
