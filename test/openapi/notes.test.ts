/**
 * `OpenAPI.fromSpec` end to end (spec "OpenAPI tools"): the notes API of server.ts, described once as OpenAPI 3.1
 * and once as 3.0, turned into tools and called by programs on both engines through a real HTTP client and a real
 * socket. Checks what the requests carried (server.ts records them) and what the program and the catalog see.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { readFileSync } from "node:fs"
import { CodeMode, OpenAPI } from "../../src/index.ts"
import { ENGINES, makeFor } from "../host/engines.ts"
import { API_KEY, startServer, TOKEN, type TestServer } from "./server.ts"

const load = (file: string): OpenAPI.Document => JSON.parse(readFileSync(new URL(`./fixtures/${file}`, import.meta.url), "utf8")) as OpenAPI.Document

const DOCUMENTS = [
  ["3.1", load("notes-3.1.json")],
  ["3.0", load("notes-3.0.json")],
] as const

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const credentials: OpenAPI.Auth = {
  resolve: ({ scheme }) => (scheme === "bearerAuth" ? TOKEN : scheme === "apiKey" ? Effect.succeed(API_KEY) : undefined),
}

/** The document's server URL is `http://{host}`: the variable points it at the test server. */
const notesApi = (spec: OpenAPI.Document, auth: OpenAPI.Auth | undefined = credentials) =>
  OpenAPI.fromSpec({ spec, auth, serverVariables: { host: new URL(server.url).host } })

const run = (engine: (typeof ENGINES)[number], api: OpenAPI.Api, code: string) =>
  Effect.runPromise(makeFor(engine)({ tools: { api: api.tools } }).execute(code).pipe(Effect.provide(FetchHttpClient.layer)))

describe.each(DOCUMENTS)("OpenAPI %s notes API", (_version, spec) => {
  describe.each(ENGINES)("on %s", (engine) => {
    it("creates, reads, lists, updates, renders, deletes", async () => {
      const result = await run(
        engine,
        notesApi(spec),
        `
        const created = await tools.api.notes.create({ body: { title: "Groceries", body: "milk", tags: ["home"], extra: { kept: true } } })
        const got = await tools.api.notes.get({ id: created.id })
        const listed = await tools.api.notes.list({ tag: "home", limit: 5, "X-Request-Id": "req-1" })
        const updated = await tools.api.notes.update({ id: created.id, body: { title: "Shopping" } })
        const text = await tools.api.notes.text({ id: created.id })
        const deleted = await tools.api.notes.delete({ id: created.id })
        let after
        try { await tools.api.notes.get({ id: created.id }) } catch (e) { after = { message: e.message, data: e.data } }
        return { created, same: got.title === created.title, listed: listed.map((n) => n.title), updated: updated.title, text, deleted: deleted === undefined, after }
      `,
      )
      expect(result.ok).toBe(true)
      if (result.ok !== true) return
      const value = result.value as Record<string, unknown>
      const created = value.created as Record<string, unknown>
      expect(created).toMatchObject({ title: "Groceries", body: "milk", tags: ["home"], createdAt: "2026-02-02T00:00:00Z" })
      expect(value).toMatchObject({ same: true, listed: ["Groceries"], updated: "Shopping", text: "# Shopping\n\nmilk", deleted: true })
      expect(value.after).toEqual({
        message: `GET /notes/{id} responded 404: {"error":"note ${String(created.id)} not found"}`,
        data: { status: 404, body: { error: `note ${String(created.id)} not found` } },
      })
      const create = server.requests.find((r) => r.method === "POST" && r.url === "/notes")!
      // The body passes through unchanged: the signature's schema does not filter it.
      expect(JSON.parse(create.body)).toEqual({ title: "Groceries", body: "milk", tags: ["home"], extra: { kept: true } })
      expect(create.headers["content-type"]).toBe("application/json")
      expect(create.headers.authorization).toBe(`Bearer ${TOKEN}`)
      const list = server.requests.findLast((r) => r.url.startsWith("/notes?"))!
      expect(list.url).toBe("/notes?tag=home&limit=5")
      expect(list.headers["x-request-id"]).toBe("req-1")
      expect(list.headers.accept).toBe("application/json")
      const update = server.requests.findLast((r) => r.method === "PATCH")!
      expect(update.headers["content-type"]).toBe("application/merge-patch+json")
      expect(server.requests.findLast((r) => r.url.endsWith("/text"))!.headers.accept).toBe("text/plain")
    })

    it("a server error rejects with a ToolError carrying the status and a bounded snippet", async () => {
      const result = await run(
        engine,
        notesApi(spec),
        `try { await tools.api.get_boom() } catch (e) { return { message: e.message, status: e.data.status, bodyLength: e.data.body.length } }`,
      )
      expect(result.ok).toBe(true)
      if (result.ok !== true) return
      const value = result.value as { message: string; status: number; bodyLength: number }
      expect(value.status).toBe(500)
      expect(value.message.startsWith("GET /boom responded 500: internal failure: xxx")).toBe(true)
      expect(value.message.endsWith("…")).toBe(true)
      expect(value.message.length).toBeLessThan(600)
      expect(value.bodyLength).toBe(5018)
    })

    it("an uncaught HTTP error ends the run as a ToolFailure", async () => {
      const result = await run(engine, notesApi(spec), `await tools.api.notes.get({ id: "missing" })`)
      expect(result.ok).toBe(false)
      if (result.ok !== false) return
      expect(result.error.kind).toBe("ToolFailure")
      expect(result.error.message).toContain('GET /notes/{id} responded 404: {"error":"note missing not found"}')
    })

    it("without a credential the request goes out bare and the server refuses it", async () => {
      const seen: OpenAPI.AuthRequest[] = []
      const api = notesApi(spec, { resolve: (request) => void seen.push(request) })
      const result = await run(engine, api, `try { await tools.api.notes.list() } catch (e) { return e.data }`)
      expect(result).toMatchObject({ ok: true, value: { status: 401, body: { error: "unauthorized" } } })
      expect(server.requests.at(-1)!.headers.authorization).toBeUndefined()
      expect(seen).toHaveLength(1)
      expect(seen[0]).toMatchObject({ scheme: "bearerAuth", type: "http", scopes: [], definition: { type: "http", scheme: "bearer" } })
      expect(seen[0]!.operation).toMatchObject({ name: "notes.list", operationId: "notes.list", method: "GET", path: "/notes" })
      expect(seen[0]!.key).toMatch(/:1$/)
    })

    it("credentials reach the server and nothing the program or the model sees", async () => {
      const api = notesApi(spec)
      const runtime = makeFor(engine)({ tools: { api: api.tools } })
      const result = await Effect.runPromise(
        runtime
          .execute(
            `
            const notes = await tools.api.notes.list()
            let failure
            try { await tools.api.notes.get({ id: "nope" }) } catch (e) { failure = [e.message, e.data] }
            return { notes, failure, search: search("notes"), keys: Object.keys(tools.api), tools: String(tools.api.notes.list) }
          `,
          )
          .pipe(Effect.provide(FetchHttpClient.layer)),
      )
      expect(result.ok).toBe(true)
      const visible = JSON.stringify([result, runtime.catalog(), api.skipped])
      expect(visible).not.toContain(TOKEN)
      expect(visible).not.toContain(API_KEY)
      expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${TOKEN}`)
    })

    it("encodes path, query and header parameters in their OpenAPI styles", async () => {
      const result = await run(
        engine,
        notesApi(spec),
        `return await tools.api.echo({
          segment: "a/b c",
          ids: [1, 2],
          csv: ["x", "y z"],
          pipes: ["p", "q"],
          filter: { status: "open", "a b": "c&d" },
          point: { x: 1, y: 2 },
          q: "ü&=?",
          where: { n: 1 },
          "X-Trace": "t-1",
          "query:id": "qid",
          "header:id": "hid",
          body: { nested: { deep: [1, { x: null }] } },
        })`,
      )
      expect(result.ok).toBe(true)
      if (result.ok !== true) return
      const echoed = result.value as { method: string; url: string; headers: Record<string, string>; body: string }
      expect(echoed.method).toBe("POST")
      expect(echoed.url).toBe(
        "/echo/a%2Fb%20c?ids=1&ids=2&csv=x,y%20z&pipes=p|q&filter[status]=open&filter[a%20b]=c%26d&x=1&y=2&q=%C3%BC%26%3D%3F&where=%7B%22n%22%3A1%7D&id=qid",
      )
      expect(echoed.headers).toMatchObject({ "x-trace": "t-1", id: "hid", "x-api-key": API_KEY, "content-type": "application/json", accept: "application/json" })
      expect(JSON.parse(echoed.body)).toEqual({ nested: { deep: [1, { x: null }] } })
    })

    it("refuses input it cannot send, before sending anything", async () => {
      const before = server.requests.length
      const result = await run(
        engine,
        notesApi(spec),
        `
        const errors = []
        for (const call of [
          () => tools.api.notes.get({ id: "n1", title: "x" }),
          () => tools.api.notes.get({}),
          () => tools.api.notes.get("n1"),
          () => tools.api.notes.create({}),
          () => tools.api.echo({ segment: "s", pipes: { a: 1 } }),
        ]) {
          try { await call() } catch (e) { errors.push(e.message) }
        }
        return errors
      `,
      )
      expect(result).toMatchObject({
        ok: true,
        value: [
          'GET /notes/{id}: unknown input "title"; expected "id"',
          'GET /notes/{id}: missing required path parameter "id"',
          "GET /notes/{id}: the input must be an object",
          'POST /notes: missing required "body"',
          'POST /echo/{segment}: query parameter "pipes" is an array parameter (pipeDelimited) and cannot take an object',
        ],
      })
      expect(server.requests.length).toBe(before)
    })
  })
})

describe("signatures", () => {
  const catalogOf = (spec: OpenAPI.Document) => CodeMode.make({ tools: { api: notesApi(spec).tools } }).catalog()

  it("3.0 and 3.1 descriptions of the same API render the same catalog", () => {
    expect(catalogOf(DOCUMENTS[1][1])).toEqual(catalogOf(DOCUMENTS[0][1]))
  })

  it("dotted operationIds are namespaces; the rest are derived from method and path", () => {
    expect(catalogOf(DOCUMENTS[0][1]).map((e) => e.path)).toEqual([
      "api.notes.list",
      "api.notes.create",
      "api.notes.get",
      "api.notes.delete",
      "api.notes.update",
      "api.notes.text",
      "api.get_boom",
      "api.echo",
    ])
  })

  it("requests omit readOnly properties, responses omit writeOnly ones", () => {
    const create = catalogOf(DOCUMENTS[0][1]).find((e) => e.path === "api.notes.create")!
    expect(create.description).toBe("Create a note")
    expect(create.signature).toMatchInlineSnapshot(`
      "tools.api.notes.create(input: {
        /** The new note */
        body: {
          /** @minLength 1 */
          title: string
          body?: string | null
          tags?: string[]
          /** Locks the note */
          password?: string
        }
      }): Promise<{
        id: string
        /** @minLength 1 */
        title: string
        body?: string | null
        tags?: string[]
        /** @format date-time */
        createdAt: string
      }>"
    `)
  })

  it("parameters are documented; 3.0's boolean exclusiveMinimum is read as 3.1's number", () => {
    const list = catalogOf(DOCUMENTS[1][1]).find((e) => e.path === "api.notes.list")!
    expect(list.description).toBe("List notes\n\nNewest first.")
    expect(list.signature.split("): Promise<")[0]).toMatchInlineSnapshot(`
      "tools.api.notes.list(input?: {
        /** Only notes with this tag */
        tag?: string
        /**
         * @integer
         * @exclusiveMinimum 0
         * @maximum 100
         * @default 20
         */
        limit?: number
        /** @format uuid */
        "X-Request-Id"?: string
      }"
    `)
  })

  it("clashing names are qualified by location; security-supplied and reserved headers are left out", () => {
    const echo = catalogOf(DOCUMENTS[0][1]).find((e) => e.path === "api.echo")!
    expect(echo.signature).toBe(
      'tools.api.echo(input: { segment: string; ids?: number[]; csv?: string[]; pipes?: string[]; filter?: Record<string, string>; point?: { x?: number; y?: number }; q?: string; where?: Record<string, unknown>; "X-Trace"?: string; "query:id"?: string; "header:id"?: string; body?: Record<string, unknown> }): Promise<Record<string, unknown>>',
    )
  })

  it("an operation with only an empty success response returns nothing", () => {
    const del = catalogOf(DOCUMENTS[0][1]).find((e) => e.path === "api.notes.delete")!
    expect(del.signature.endsWith("): Promise<void>")).toBe(true)
  })
})
