/**
 * Webhook tools' JSON Schemas are enforced (issue 15): registration checks them against the 2020-12 meta-schema and
 * resolves their `$ref`s; a call's input is validated before the webhook, its output before the program sees it.
 * Real VM, real Postgres, a real webhook receiver on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { clientFor, createDatabase, request, startReceiver, startReplica, type Replica } from "./helpers.ts"

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
    call.json.path === "users.bad" ? { json: { output: { name: 42 } } } : { json: { output: { name: `user ${(call.json.input as { id: string }).id}` } } },
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
