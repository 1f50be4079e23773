/**
 * Webhook tool calls against a real HTTP receiver: the request (body, signature), the answer, and every way a
 * call can fail, with the retry policy of idempotent tools.
 */
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { ServerConfig } from "../../src/server/config.ts"
import { Metrics } from "../../src/server/metrics.ts"
import type { ToolRow } from "../../src/server/store/tools.ts"
import { newSecret } from "../../src/server/signing.ts"
import { Webhooks, type WebhookError } from "../../src/server/webhooks.ts"
import { startReceiver, type Reply } from "./helpers.ts"

const services = Webhooks.layer.pipe(
  Layer.provide(Layer.merge(ServerConfig.layer, Metrics.layer)),
  Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown({ CODEMODE_WEBHOOK_TIMEOUT_MS: "2000", CODEMODE_WEBHOOK_RETRIES: "3", CODEMODE_WEBHOOK_ALLOW: "127.0.0.1" }))),
)

const call = (tool: ToolRow, input: unknown = { q: 1 }) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const webhooks = yield* Webhooks
      return yield* webhooks.call(tool, { key: "run-1:0", runId: "run-1", input }).pipe(
        Effect.match({ onSuccess: (success) => ({ _tag: "Success" as const, success }), onFailure: (failure) => ({ _tag: "Failure" as const, failure }) }),
      )
    }).pipe(Effect.provide(services)),
  )

const failure = async (tool: ToolRow): Promise<WebhookError> => {
  const r = await call(tool)
  if (r._tag !== "Failure") throw new Error(`expected a failure, got ${JSON.stringify(r)}`)
  return r.failure
}

let closers: Array<() => Promise<void>> = []
afterEach(async () => {
  await Promise.all(closers.map((c) => c()))
  closers = []
})

const receiver = async (reply: (n: number) => Reply, secret?: string) => {
  const r = await startReceiver((_, n) => reply(n), () => secret)
  closers.push(r.close)
  return r
}

const tool = (url: string, extra: Partial<ToolRow> = {}): ToolRow => ({
  previousSecret: undefined,
  path: "orders.lookup",
  description: "Look up an order",
  input: { type: "object" },
  output: undefined,
  url,
  mode: "plain",
  timeoutMs: undefined,
  heartbeatTimeoutMs: undefined,
  secret: newSecret(),
  ...extra,
})

describe("webhook calls", () => {
  it("POSTs a signed call and answers the reply's output", async () => {
    const secret = newSecret()
    const r = await receiver(() => ({ json: { output: { id: "o1", status: "open" } } }), secret)
    const result = await call(tool(r.url, { secret }), { id: "o1" })
    expect(result).toStrictEqual({ _tag: "Success", success: { id: "o1", status: "open" } })
    expect(r.calls).toHaveLength(1)
    const c = r.calls[0]!
    expect(c.json).toStrictEqual({ type: "call", key: "run-1:0", runId: "run-1", path: "orders.lookup", input: { id: "o1" } })
    expect(c.headers["webhook-id"]).toBe("run-1:0")
    expect(c.headers["content-type"]).toBe("application/json")
    expect(c.verified).toBeUndefined() // the receiver's Standard Webhooks verification passed
  })

  it("treats a reply without output as undefined (a void tool)", async () => {
    const r = await receiver(() => ({ json: {} }))
    expect(await call(tool(r.url))).toStrictEqual({ _tag: "Success", success: undefined })
  })

  it("fails with the status and body of a non-2xx reply, without retrying a plain tool", async () => {
    const r = await receiver(() => ({ status: 503, json: { error: "maintenance" } }))
    const e = await failure(tool(r.url))
    expect(e.reason).toBe("Status")
    expect(e.retryable).toBe(true)
    expect(e.message).toBe(`Webhook tool orders.lookup failed: POST ${r.url}/ answered 503: {"error":"maintenance"}`)
    expect(r.calls).toHaveLength(1)
  })

  it("retries an idempotent tool on 5xx with the same key until it succeeds", async () => {
    const r = await receiver((n) => (n < 3 ? { status: 500, body: "boom" } : { json: { output: n } }))
    expect(await call(tool(r.url, { mode: "idempotent" }))).toStrictEqual({ _tag: "Success", success: 3 })
    expect(r.calls.map((c) => c.headers["webhook-id"])).toStrictEqual(["run-1:0", "run-1:0", "run-1:0"])
  })

  it("does not retry what a retry cannot fix (4xx, invalid replies)", async () => {
    const r = await receiver(() => ({ status: 404, body: "no such order" }))
    const e = await failure(tool(r.url, { mode: "idempotent" }))
    expect(e.retryable).toBe(false)
    expect(e.message).toContain("answered 404: no such order")
    expect(r.calls).toHaveLength(1)

    const bad = await receiver(() => ({ body: "<html>" }))
    const e2 = await failure(tool(bad.url, { mode: "idempotent" }))
    expect(e2.reason).toBe("InvalidReply")
    expect(e2.message).toContain("with a body that is not JSON: <html>")
    expect(bad.calls).toHaveLength(1)

    const arr = await receiver(() => ({ json: [1, 2] }))
    expect((await failure(tool(arr.url))).message).toContain("without a JSON object { output }")
  })

  it("takes an empty 2xx reply (a 204) as a call that returns nothing", async () => {
    const empty = await receiver(() => ({ status: 204, body: "" }))
    expect(await call(tool(empty.url))).toStrictEqual({ _tag: "Success", success: undefined })
  })

  it("gives up after the retries and reports the last failure", async () => {
    const r = await receiver(() => ({ status: 502, body: "bad gateway" }))
    const e = await failure(tool(r.url, { mode: "idempotent" }))
    expect(e.message).toContain("answered 502: bad gateway")
    expect(r.calls).toHaveLength(4) // the call and three retries
  })

  // A wall-clock bound (the timeout must fire well before the receiver answers): retried for a loaded machine.
  it("times out a tool that does not answer", { retry: 2 }, async () => {
    const r = await receiver(() => ({ delayMs: 1500, json: { output: 1 } }))
    const started = Date.now()
    const e = await failure(tool(r.url, { timeoutMs: 200 }))
    expect(e.reason).toBe("Timeout")
    expect(e.message).toBe(`Webhook tool orders.lookup failed: POST ${r.url}/ did not answer within 200 ms`)
    expect(Date.now() - started).toBeLessThan(1400)
  })

  // A suspend or cancel interrupts a call in flight: its request must not stay open at the tool.
  it("drops the request of an interrupted call", async () => {
    const closed = Promise.withResolvers<void>()
    const arrived = Promise.withResolvers<void>()
    const server = createServer((req) => {
      req.socket.on("close", () => closed.resolve())
      arrived.resolve()
    })
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
    closers.push(() => new Promise((ok) => (server.closeAllConnections(), server.close(() => ok()))))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const exit = await Effect.runPromiseExit(
      Effect.gen(function* () {
        const webhooks = yield* Webhooks
        const fiber = yield* Effect.forkChild(webhooks.call(tool(url), { key: "run-1:0", runId: "run-1", input: null }))
        yield* Effect.promise(() => arrived.promise)
        yield* Fiber.interrupt(fiber)
        return yield* Fiber.await(fiber)
      }).pipe(Effect.provide(services)),
    )
    expect(exit._tag === "Success" && Exit.hasInterrupts(exit.value)).toBe(true)
    // Well before the 2 s timeout, which would drop it too.
    const late = new Promise<string>((ok) => setTimeout(() => ok("still open"), 1000).unref())
    expect(await Promise.race([closed.promise.then(() => "closed"), late])).toBe("closed")
  })

  it("reports an unreachable host, and retries it for idempotent tools", async () => {
    const r = await receiver(() => ({ json: {} }))
    await r.close()
    const e = await failure(tool(r.url))
    expect(e.reason).toBe("Unreachable")
    expect(e.message).toMatch(/could not be reached: ECONNREFUSED/)

    const dropping = await receiver((n) => (n === 1 ? { destroy: true } : { json: { output: "second try" } }))
    expect(await call(tool(dropping.url, { mode: "idempotent" }))).toStrictEqual({ _tag: "Success", success: "second try" })
    expect(dropping.calls).toHaveLength(2)
  })

  it("keeps query strings (tokens) of the URL out of messages", async () => {
    const r = await receiver(() => ({ status: 400, body: "no" }))
    const u = new URL(r.url)
    const e = await failure(tool(`http://${u.host}/hook?token=secret#x`))
    expect(e.message).toBe(`Webhook tool orders.lookup failed: POST http://${u.host}/hook answered 400: no`)
  })

  it("does not follow redirects", async () => {
    const target = await receiver(() => ({ json: { output: "followed" } }))
    const r = await startReceiver(() => ({ status: 307, body: "" }))
    closers.push(r.close)
    r.server.removeAllListeners("request")
    r.server.on("request", (_req, res) => {
      res.writeHead(307, { location: target.url })
      res.end()
    })
    const e = await failure(tool(r.url))
    expect(e.message).toContain("answered 307")
    expect(target.calls).toHaveLength(0)
  })
})
