/**
 * The service on the real interpreter (the library's VM): programs in JavaScript, webhook tools called from
 * them, diagnostics carried into the run. One in-process replica over a real Postgres and a real socket.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientFor, createDatabase, request, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
let api: ReturnType<typeof clientFor>
const secrets = new Map<string, string>()

beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url })
  api = clientFor(server.url)
  receiver = await startReceiver(
    (call) =>
      call.json.path === "orders.lookup"
        ? { json: { output: { id: (call.json.input as { id: string }).id, status: "open" } } }
        : { status: 500, json: { error: "exploded" } },
    (m) => secrets.get(m.path),
  )
  const registered = await api.run((c) =>
    c.tools.put({
      params: { path: "orders.lookup" },
      payload: {
        description: "Look up an order by ID",
        input: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
        output: { type: "object", properties: { id: { type: "string" }, status: { type: "string" } }, required: ["id", "status"] },
        url: receiver.url,
        mode: "idempotent",
      },
    }),
  )
  secrets.set("orders.lookup", registered.secret)
  const cancel = await api.run((c) =>
    c.tools.put({ params: { path: "orders.cancel" }, payload: { description: "Cancel an order", input: { type: "object" }, url: receiver.url, mode: "plain" } }),
  )
  secrets.set("orders.cancel", cancel.secret)
  await api.run((c) => c.tools.putNamespace({ params: { path: "orders" }, payload: { description: "Purchases and shipments" } }))
})

afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await db?.drop()
})

const run = (code: string) => api.run((c) => c.runs.create({ payload: { code } }))

describe("runs on the VM", () => {
  it("answers 2 for 1 + 1", async () => {
    const r = await run("1 + 1")
    expect(r.status).toBe("succeeded")
    expect(r.result).toStrictEqual({ ok: true, value: 2, toolCalls: [] })
  })

  it("fails a program that does not parse, carrying its ParseError", async () => {
    const r = await run("const = 1")
    expect(r.status).toBe("failed")
    expect(r.result).toMatchObject({ ok: false, error: { kind: "ParseError", location: { line: 1 } } })
  })

  it("calls a webhook tool with a signed request and returns its output to the program", async () => {
    const r = await run(`
      const order = await tools.orders.lookup({ id: "order_42" })
      return { id: order.id, needsAttention: order.status !== "complete" }
    `)
    expect(r.status).toBe("succeeded")
    expect(r.result).toMatchObject({ ok: true, value: { id: "order_42", needsAttention: true } })
    const call = receiver.calls.find((c) => c.json.path === "orders.lookup")!
    expect(call.json).toMatchObject({ type: "call", path: "orders.lookup", input: { id: "order_42" } })
    expect(call.verified).toBeUndefined()
    // With where the program made the call: line 2 (the source starts with a line break), at `tools`.
    if (r.result?.ok) expect(r.result.toolCalls).toStrictEqual([{ path: "tools.orders.lookup", key: call.json.key, location: { line: 2, column: 27 } }])
  })

  it("lets the program read a failed webhook's message", async () => {
    const r = await run(`
      try { await tools.orders.cancel({ id: "x" }); return "no" } catch (e) { return e.message }
    `)
    expect(r.status).toBe("succeeded")
    expect(r.result).toMatchObject({ ok: true, value: `Webhook tool orders.cancel failed: POST ${receiver.url}/ answered 500: {"error":"exploded"}` })
  })

  it("renders the catalog's signatures from the tools' JSON Schemas", async () => {
    const catalog = await api.run((c) => c.tools.list())
    const lookup = catalog.tools.find((t) => t.path === "orders.lookup")!
    expect(lookup.signature).toContain("tools.orders.lookup(input: {")
    expect(lookup.signature).toContain("id: string")
    expect(lookup.signature).toContain("Promise<{")
  })

  it("refuses at registration a tool whose schema the library cannot use", async () => {
    const res = await request(server.url, "PUT", "/v1/tools/odd.tool", { description: "x", input: { _zod: {} }, url: receiver.url, mode: "plain" })
    expect(res.status).toBe(400)
    expect(res.body.error.kind).toBe("InvalidTool")
    expect((await api.run((c) => c.tools.list())).tools.map((t) => t.path)).not.toContain("odd.tool")
  })

  // Issue 5 landed: the VM suspends and resumes runs; the suspend/resume scenarios are in cluster.test.ts.
})
