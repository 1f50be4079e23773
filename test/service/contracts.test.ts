/**
 * The service keeps its contracts (issue 15). Webhook tools' JSON Schemas are enforced: registration checks them
 * against the 2020-12 meta-schema and resolves their `$ref`s; a call's input is validated before the webhook, its
 * output before the program sees it. Each run's Math.random has a seed of its own, saved with the run.
 * Real VM, real Postgres, a real webhook receiver on loopback.
 */
import * as Effect from "effect/Effect"
import { CodeMode } from "../../src/index.ts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { verify } from "../../src/server/signing.ts"
import { clientFor, createDatabase, eventually, request, sqlOn, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let server: Replica
let receiver: Awaited<ReturnType<typeof startReceiver>>
let api: ReturnType<typeof clientFor>

const userInput = { type: "object", properties: { id: { type: "string" } }, required: ["id"] }
const userOutput = { type: "object", properties: { name: { type: "string" } }, required: ["name"] }

beforeAll(async () => {
  db = await createDatabase()
  server = await startReplica({ databaseUrl: db.url })
  api = clientFor(server.url)
  receiver = await startReceiver((call) =>
    call.json.path === "slow.wait"
      ? { delayMs: 1500, json: {} }
      : call.json.path === "users.bad"
        ? { json: { output: { name: 42 } } }
        : { json: { output: { name: `user ${(call.json.input as { id: string }).id}` } } },
  )
  await api.run((c) =>
    c.tools.put({ params: { path: "slow.wait" }, payload: { description: "Waits", input: { type: "object" }, url: receiver.url, mode: "idempotent" } }),
  )
  for (const path of ["users.get", "users.bad"]) {
    await api.run((c) =>
      c.tools.put({ params: { path }, payload: { description: "A user", input: userInput, output: userOutput, url: receiver.url, mode: "plain" } }),
    )
  }
})

afterAll(async () => {
  await server?.close()
  await receiver?.close()
  await db?.drop()
})

const run = (code: string) => api.run((c) => c.runs.create({ payload: { code } }))
const put = (input: unknown, output?: unknown) =>
  request(server.url, "PUT", "/v1/tools/broken.tool", {
    description: "d",
    input,
    ...(output === undefined ? {} : { output }),
    url: receiver.url,
    mode: "plain",
  })

describe("calls", () => {
  it("passes valid input and output", async () => {
    const r = await run(`return await tools.users.get({ id: "7" })`)
    expect(r.result).toMatchObject({ ok: true, value: { name: "user 7" } })
  })

  it("never sends a wrong-typed input to the webhook: the program catches InvalidToolInput with the pointer", async () => {
    const before = receiver.calls.length
    const r = await run(`
      try { await tools.users.get({ id: 5 }); return "sent" } catch (e) { return e.name + ": " + e.message }
    `)
    expect(r.result).toMatchObject({ ok: true })
    const value = (r.result as { value: string }).value
    expect(value).toMatch(/^TypeError: Invalid input for tools\.users\.get: /)
    expect(value).toContain("/id must be string")
    expect(receiver.calls.length).toBe(before)
    const uncaught = await run(`await tools.users.get({})`)
    expect(uncaught.result).toMatchObject({ ok: false, error: { kind: "InvalidToolInput" } })
    expect((uncaught.result as { error: { message: string } }).error.message).toContain("must have required property 'id'")
    expect(receiver.calls.length).toBe(before)
  })

  it("refuses a wrong-typed output before the program sees it, as a catchable InvalidToolOutput", async () => {
    const caught = await run(`
      try { const u = await tools.users.bad({ id: "1" }); return typeof u.name } catch (e) { return "caught: " + e.message }
    `)
    expect(caught.result).toMatchObject({ ok: true, value: "caught: tools.users.bad returned an invalid output" })
    const uncaught = await run(`return await tools.users.bad({ id: "1" })`)
    expect(uncaught.result).toMatchObject({ ok: false, error: { kind: "InvalidToolOutput" } })
    expect((uncaught.result as { error: { message: string } }).error.message).toContain("/name must be string")
  })
})

describe("registration", () => {
  it("refuses a schema that is not JSON Schema, with its pointer", async () => {
    const r = await put({ type: "strin" })
    expect(r.status).toBe(400)
    expect(r.body.error.kind).toBe("InvalidTool")
    expect(r.body.error.message).toContain("/input/type")
  })

  it("lists every problem, in input and output", async () => {
    const r = await put({ type: "object", properties: { a: { type: "string", minLength: "five" } } }, { type: 5 })
    expect(r.status).toBe(400)
    expect(r.body.error.message).toContain("/input/properties/a/minLength")
    expect(r.body.error.message).toContain("/output/type")
  })

  it("refuses a $ref that does not resolve", async () => {
    const r = await put({ type: "object", properties: { a: { $ref: "#/$defs/missing" } } })
    expect(r.status).toBe(400)
    expect(r.body.error.kind).toBe("InvalidTool")
    expect(r.body.error.message).toContain("#/$defs/missing")
  })

  it("accepts a schema with $defs and annotations of its own", async () => {
    const r = await put({ type: "object", "x-note": "ours", properties: { a: { $ref: "#/$defs/a" } }, $defs: { a: { type: "string" } } })
    expect(r.status).toBe(200)
  })
})

describe("Math.random", () => {
  it("differs between two runs of the same program", async () => {
    const [a, b] = [await run("return Math.random()"), await run("return Math.random()")]
    expect(a.result).toMatchObject({ ok: true })
    expect((a.result as { value: number }).value).not.toBe((b.result as { value: number }).value)
  })

  it("draws from the seed saved with the run, for a run stored whole at its end too", async () => {
    const done = await run("return [Math.random(), Math.random()]")
    const [row] = await sqlOn<{ seed: string }>(db.url, "SELECT seed FROM runs WHERE id = $1", [done.id])
    const expected = await Effect.runPromise(CodeMode.make({ engine: "vm", seed: row!.seed }).execute("return [Math.random(), Math.random()]"))
    expect(done.result).toMatchObject({ ok: true, value: (expected as { value: unknown }).value })
  })

  it("continues a resumed run's own sequence, from the seed saved with the run", async () => {
    const started = await api.run((c) =>
      c.runs.create({ payload: { code: `const a = Math.random(); await tools.slow.wait({}); return [a, Math.random()]`, wait: false } }),
    )
    await eventually(async () => ((await sqlOn(db.url, "SELECT 1 FROM calls WHERE run_id = $1", [started.id])).length > 0 ? true : undefined))
    const suspended = await api.run((c) => c.runs.suspend({ params: { id: started.id } }))
    expect(suspended.status).toBe("suspended")
    const done = await api.run((c) => c.runs.resume({ params: { id: started.id }, payload: {} }))
    const [row] = await sqlOn<{ seed: string }>(db.url, "SELECT seed FROM runs WHERE id = $1", [started.id])
    expect(row!.seed.length).toBeGreaterThan(10)
    const expected = await Effect.runPromise(CodeMode.make({ engine: "vm", seed: row!.seed }).execute("return [Math.random(), Math.random()]"))
    expect(done.result).toMatchObject({ ok: true, value: (expected as { value: unknown }).value })
  })
})

describe("tools and namespaces", () => {
  it("GET one tool, as the catalog shows it; 404 for an unknown one", async () => {
    const tool = await api.run((c) => c.tools.get({ params: { path: "users.get" } }))
    expect(tool).toMatchObject({ path: "users.get", mode: "plain", input: userInput })
    expect(tool.signature).toContain("id: string")
    expect((await request(server.url, "GET", "/v1/tools/users.none")).body.error.kind).toBe("ToolNotFound")
  })

  it("DELETE a namespace's description; its tools stay", async () => {
    await api.run((c) => c.tools.putNamespace({ params: { path: "users" }, payload: { description: "People" } }))
    expect((await api.run((c) => c.tools.list())).namespaces).toContainEqual({ path: "users", description: "People" })
    const gone = await request(server.url, "DELETE", "/v1/namespaces/users")
    expect(gone.status).toBe(204)
    const catalog = await api.run((c) => c.tools.list())
    expect(catalog.namespaces.map((n) => n.path)).not.toContain("users")
    expect(catalog.tools.map((t) => t.path)).toContain("users.get")
    const again = await request(server.url, "DELETE", "/v1/namespaces/users")
    expect(again.status).toBe(404)
    expect(again.body.error.kind).toBe("NamespaceNotFound")
  })
})

describe("secret rotation", () => {
  it("signs with the new and the old secret during the overlap", async () => {
    const first = await api.run((c) =>
      c.tools.put({ params: { path: "rot.tool" }, payload: { description: "r", input: { type: "object" }, url: receiver.url, mode: "plain" } }),
    )
    const rotated = await api.run((c) => c.tools.rotateSecret({ params: { path: "rot.tool" } }))
    expect(rotated.path).toBe("rot.tool")
    expect(rotated.secret).not.toBe(first.secret)
    const r = await run(`await tools.rot.tool({}); return 1`)
    expect(r.result).toMatchObject({ ok: true })
    const call = receiver.calls.filter((c) => c.json.path === "rot.tool").at(-1)!
    expect(call.headers["webhook-signature"]!.split(" ")).toHaveLength(2)
    const now = Math.floor(Date.now() / 1000)
    expect(verify(rotated.secret, call, now)).toBeUndefined()
    expect(verify(first.secret, call, now)).toBeUndefined()
    expect((await request(server.url, "POST", "/v1/tools/rot.none/secret")).status).toBe(404)
  })

  // The registrations a replica keeps between runs (ToolRegistry) hold only until the first overlap among them ends.
  it("signs with the new secret alone once the overlap has passed, though the replica kept the tool", async () => {
    const short = await startReplica({ databaseUrl: db.url, env: { CODEMODE_SECRET_OVERLAP_MS: "1500" } })
    try {
      const api = clientFor(short.url)
      const post = (code: string) => api.run((c) => c.runs.create({ payload: { code } }))
      await api.run((c) => c.tools.put({ params: { path: "rot.short" }, payload: { description: "r", input: { type: "object" }, url: receiver.url, mode: "plain" } }))
      const rotated = await api.run((c) => c.tools.rotateSecret({ params: { path: "rot.short" } }))
      const signatures = async () => {
        expect((await post(`await tools.rot.short({}); return 1`)).result).toMatchObject({ ok: true })
        const call = receiver.calls.filter((c) => c.json.path === "rot.short").at(-1)!
        expect(verify(rotated.secret, call, Math.floor(Date.now() / 1000))).toBeUndefined()
        return call.headers["webhook-signature"]!.split(" ").length
      }
      expect(await signatures()).toBe(2)
      await new Promise((ok) => setTimeout(ok, 1600))
      expect(await signatures()).toBe(1)
    } finally {
      await short.close()
    }
  })
})

describe("events", () => {
  it("logs and calls are in the order the program made them, each event once with a rising id", async () => {
    const r = await run(`console.log("before"); await tools.users.get({ id: "1" }); console.log("after"); return 1`)
    expect(r.status).toBe("succeeded")
    const text = await (await fetch(`${server.url}/v1/runs/${r.id}/events`)).text()
    const events = text.split("\n\n").filter((b) => b.includes("event:")).map((block) => {
      const field = (name: string) => block.split("\n").find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim()
      return { id: field("id")!, event: field("event")!, data: JSON.parse(field("data") ?? "{}") as { line?: string } }
    })
    const order = events.map((e) => (e.event === "log" ? `log ${e.data.line}` : e.event))
    expect(order.filter((e) => e.startsWith("log ") || e.startsWith("call."))).toStrictEqual([
      "log before",
      "call.started",
      "call.settled",
      "log after",
    ])
    expect(order.indexOf("log before")).toBeLessThan(order.indexOf("call.started"))
    expect(order.indexOf("call.settled")).toBeLessThan(order.indexOf("log after"))
    const ids = events.map((e) => BigInt(e.id))
    expect(ids.every((id, i) => i === 0 || id > ids[i - 1]!)).toBe(true)
  })
})
