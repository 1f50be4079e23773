/**
 * `OpenAPI.fromSpec` on hand-written documents: what is skipped and why, names, `$ref` cycles, server selection,
 * security requirements and how each kind of credential is applied, `include`, option errors, and the Effect
 * environment the generated tools add to a runtime.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "@effect/vitest"
import { Context, Effect } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import { Layer } from "effect"
import { CodeMode, OpenAPI } from "../../src/index.ts"
import { executeKind } from "../../src/host/tool.ts"
import { ENGINES, makeFor } from "../host/engines.ts"
import { startServer, type TestServer } from "./server.ts"

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const ok = { "200": { description: "ok", content: { "application/json": { schema: { type: "object" } } } } }

/** A document with the given paths (and components), served nowhere unless a test says so. */
const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}): OpenAPI.Document => ({
  openapi: "3.1.0",
  info: { title: "t", version: "1" },
  paths,
  ...extra,
})

const op = (operationId: string, rest: Record<string, unknown> = {}) => ({ operationId, responses: ok, ...rest })

describe("skipped", () => {
  it("reports every operation that cannot be a tool, with its reason, and keeps the rest", () => {
    const api = OpenAPI.fromSpec({
      spec: doc(
        {
          "/cookie": { get: op("cookie", { parameters: [{ name: "session", in: "cookie", schema: { type: "string" } }] }) },
          "/matrix/{id}": { get: op("matrix", { parameters: [{ name: "id", in: "path", required: true, style: "matrix", schema: { type: "string" } }] }) },
          "/label/{id}": { get: op("label", { parameters: [{ name: "id", in: "path", required: true, style: "label", schema: { type: "string" } }] }) },
          "/header-form": { get: op("headerForm", { parameters: [{ name: "X-A", in: "header", style: "form", schema: { type: "string" } }] }) },
          "/content-param": {
            get: op("contentParam", { parameters: [{ name: "q", in: "query", content: { "text/plain": { schema: { type: "string" } } } }] }),
          },
          "/multipart": {
            post: op("multipart", { requestBody: { content: { "multipart/form-data": { schema: { type: "object" } } } } }),
          },
          "/form": {
            post: op("form", { requestBody: { content: { "application/x-www-form-urlencoded": { schema: { type: "object" } } } } }),
          },
          "/sse": { get: op("sse", { responses: { "200": { description: "events", content: { "text/event-stream": { schema: { type: "string" } } } } } }) },
          "/ndjson": { get: op("ndjson", { responses: { "200": { description: "lines", content: { "application/x-ndjson": {} } } } }) },
          "/png": { get: op("png", { responses: { "200": { description: "image", content: { "image/png": {} } } } }) },
          "/bytes": {
            get: op("bytes", { responses: { "200": { description: "bytes", content: { "*/*": { schema: { type: "string", format: "binary" } } } } } }),
          },
          "/ws": { get: op("ws", { responses: { "101": { description: "upgrade" } } }) },
          "/upgrade": { get: op("upgrade", { parameters: [{ name: "Upgrade", in: "header", schema: { type: "string" } }] }) },
          "/wss": { get: op("wss", { servers: [{ url: "wss://stream.example.com" }] }) },
          "/dangling": { get: op("dangling", { parameters: [{ $ref: "#/components/parameters/Nope" }] }) },
          "/loop": { get: op("loop", { parameters: [{ $ref: "#/components/parameters/A" }] }) },
          "/external": { get: op("external", { requestBody: { $ref: "other.yaml#/components/requestBodies/X" } }) },
          "/dup-a": { get: op("same") },
          "/dup-b": { get: op("same") },
          "/empty-segment": { get: op("a..b") },
          "/undeclared/{id}": { get: op("undeclared") },
          "/both": {
            get: op("both", {
              responses: { "200": { description: "either", content: { "text/event-stream": {}, "application/json": { schema: { type: "string" } } } } },
            }),
          },
        },
        {
          components: {
            parameters: {
              A: { $ref: "#/components/parameters/B" },
              B: { $ref: "#/components/parameters/A" },
            },
          },
        },
      ),
    })
    expect(api.skipped.map((s) => [s.name, s.reason])).toEqual([
      ["cookie", "cookie parameter session is not supported"],
      ["matrix", "path parameter id uses style matrix, which is not supported"],
      ["label", "path parameter id uses style label, which is not supported"],
      ["headerForm", "header parameter X-A uses style form, which is not supported"],
      ["contentParam", "query parameter q has content text/plain; only JSON is supported"],
      ["multipart", "request body without JSON content (multipart/form-data)"],
      ["form", "request body without JSON content (application/x-www-form-urlencoded)"],
      ["sse", "server-sent events response (text/event-stream)"],
      ["ndjson", "streaming response (application/x-ndjson)"],
      ["png", "binary response (image/png)"],
      ["bytes", "binary response (*/*)"],
      ["ws", "WebSocket (101 Switching Protocols response)"],
      ["upgrade", "WebSocket upgrade header parameter Upgrade"],
      ["wss", "WebSocket server wss://stream.example.com"],
      ["dangling", "parameter: unresolvable $ref #/components/parameters/Nope"],
      ["loop", "parameter: circular $ref #/components/parameters/A"],
      ["external", "request body: external $ref other.yaml#/components/requestBodies/X is not supported"],
      ["same", 'duplicate tool name "same" (already used by GET /dup-a)'],
      ["a..b", 'operationId "a..b" has an empty name segment'],
      ["undeclared", "path parameter id is not declared"],
    ])
    expect(api.skipped[0]).toEqual({ name: "cookie", operationId: "cookie", method: "GET", path: "/cookie", tags: [], deprecated: false, reason: api.skipped[0]!.reason })
    expect(Object.keys(api.tools)).toEqual(["same", "both"])
    expect(CodeMode.make({ tools: api.tools }).catalog()[1]!.signature).toBe("tools.both(input?: {}): Promise<string>")
  })
})

describe("names", () => {
  it("derives names from method and path, and dotted operationIds nest", () => {
    const api = OpenAPI.fromSpec({
      spec: doc({
        "/": { get: { responses: ok } },
        "/users/{user-id}/posts.json": {
          parameters: [{ name: "user-id", in: "path", required: true, schema: { type: "string" } }],
          get: { responses: ok },
          post: op("users.posts.create"),
        },
        "/proto": { get: op("__proto__") },
      }),
    })
    expect(Object.keys(api.tools)).toEqual(["get_root", "get_users_user_id_posts_json", "users.posts.create", "__proto__"])
    expect(Object.getPrototypeOf(api.tools)).toBe(Object.prototype)
    expect(CodeMode.make({ tools: { svc: api.tools } }).catalog().map((e) => e.path)).toEqual([
      "svc.get_root",
      "svc.get_users_user_id_posts_json",
      "svc.users.posts.create",
      "svc.__proto__",
    ])
  })

  it("include keeps the operations it accepts; the others are not reported", () => {
    const seen: OpenAPI.OperationInfo[] = []
    const api = OpenAPI.fromSpec({
      spec: doc({ "/a": { get: op("a", { tags: ["x"] }), delete: op("b", { deprecated: true }) }, "/c": { get: op("c", { parameters: [{ name: "k", in: "cookie" }] }) } }),
      include: (info) => (seen.push(info), info.tags.includes("x") || info.deprecated),
    })
    expect(Object.keys(api.tools)).toEqual(["a", "b"])
    expect(api.skipped).toEqual([])
    expect(seen.map((s) => [s.name, s.method, s.deprecated])).toEqual([
      ["a", "GET", false],
      ["b", "DELETE", true],
      ["c", "GET", false],
    ])
    expect(api.tools.b!.description).toBe("Deprecated. DELETE /a")
  })

  it("safe methods are idempotent tools, others plain", () => {
    const api = OpenAPI.fromSpec({ spec: doc({ "/a": { get: op("get"), head: op("head"), post: op("post"), put: op("put"), delete: op("del") } }) })
    expect(Object.entries(api.tools).map(([name, tool]) => [name, executeKind(tool.execute)._tag])).toEqual([
      ["get", "Idempotent"],
      ["put", "Plain"],
      ["post", "Plain"],
      ["del", "Plain"],
      ["head", "Idempotent"],
    ])
  })
})

describe("options", () => {
  it("throws a TypeError for what is not an OpenAPI 3 document or not a valid option", () => {
    expect(() => OpenAPI.fromSpec({ spec: { swagger: "2.0" } as never })).toThrow(new TypeError("OpenAPI.fromSpec supports OpenAPI 3.x documents, got Swagger 2.0"))
    expect(() => OpenAPI.fromSpec({ spec: { openapi: "4.0.0" } })).toThrow(/got openapi "4.0.0"/)
    expect(() => OpenAPI.fromSpec({ spec: null as never })).toThrow(/spec must be a parsed OpenAPI document/)
    expect(() => OpenAPI.fromSpec({ spec: doc({}), auth: {} as never })).toThrow(/auth.resolve must be a function/)
  })

  it("tools require an HttpClient, and whatever auth.resolve's Effect requires", () => {
    const spec = doc({})
    expectTypeOf(OpenAPI.fromSpec({ spec })).toEqualTypeOf<OpenAPI.Api<never>>()
    expectTypeOf(OpenAPI.fromSpec({ spec, auth: { resolve: () => "token" } })).toEqualTypeOf<OpenAPI.Api<never>>()
    expectTypeOf(OpenAPI.fromSpec({ spec, auth: { resolve: async () => undefined } })).toEqualTypeOf<OpenAPI.Api<never>>()
    const tools = OpenAPI.fromSpec({ spec }).tools
    expectTypeOf(CodeMode.make({ tools: { api: tools } }).execute("1")).toEqualTypeOf<Effect.Effect<CodeMode.Result, never, HttpClient.HttpClient>>()
  })

  it("a document without paths has no tools", () => {
    expect(OpenAPI.fromSpec({ spec: { openapi: "3.0.0" } })).toEqual({ tools: {}, skipped: [] })
  })
})

describe("$ref cycles", () => {
  const spec = doc(
    {
      "/echo/tree": {
        post: op("tree", {
          requestBody: { required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/Tree" } } } },
          responses: { "200": { $ref: "#/components/responses/Tree" } },
        }),
      },
      "/echo/pair": {
        get: op("pair", { responses: { "200": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/A" } } } } } }),
      },
      "/echo/alias": {
        get: op("alias", { responses: { "200": { description: "", content: { "application/json": { schema: { $ref: "#/components/schemas/Loop1" } } } } } }),
      },
    },
    {
      components: {
        responses: { Tree: { description: "a tree", content: { "application/json": { schema: { $ref: "#/components/schemas/Tree" } } } } },
        schemas: {
          Tree: {
            type: "object",
            required: ["name"],
            properties: {
              id: { type: "string", readOnly: true },
              name: { type: "string" },
              secret: { type: "string", writeOnly: true },
              children: { type: "array", items: { $ref: "#/components/schemas/Tree" } },
            },
          },
          A: { type: "object", properties: { b: { $ref: "#/components/schemas/B" } } },
          B: { type: "object", properties: { a: { $ref: "#/components/schemas/A" }, n: { type: "number" } } },
          Loop1: { $ref: "#/components/schemas/Loop2" },
          Loop2: { $ref: "#/components/schemas/Loop1" },
        },
      },
    },
  )

  it("recursive schemas render, recursion drawn as unknown, each side filtered", () => {
    const catalog = CodeMode.make({ tools: OpenAPI.fromSpec({ spec }).tools }).catalog()
    expect(catalog.map((e) => e.signature)).toEqual([
      "tools.tree(input: { body: { name: string; secret?: string; children?: unknown[] } }): Promise<{ id?: string; name: string; children?: unknown[] }>",
      "tools.pair(input?: {}): Promise<{ b?: { a?: unknown; n?: number } }>",
      "tools.alias(input?: {}): Promise<unknown>",
    ])
  })

  it.each(ENGINES)("values pass through unfiltered on %s", async (engine) => {
    const api = OpenAPI.fromSpec({ spec, baseUrl: server.url })
    const result = await Effect.runPromise(
      makeFor(engine)({ tools: api.tools })
        .execute(`
          const tree = { id: "r", name: "root", extra: 1, children: [{ name: "leaf", children: [] }] }
          const echoed = await tools.tree({ body: tree })
          return { url: echoed.url, body: JSON.parse(echoed.body) }
        `)
        .pipe(Effect.provide(FetchHttpClient.layer)),
    )
    expect(result).toMatchObject({ ok: true, value: { url: "/echo/tree", body: { id: "r", name: "root", extra: 1, children: [{ name: "leaf", children: [] }] } } })
  })
})

describe("servers and credentials", () => {
  class Vault extends Context.Service<Vault, { readonly secret: (name: string) => Effect.Effect<string | undefined> }>()("test/Vault") {}

  const secured = (serverUrl: string) =>
    doc(
      {
        "/echo/secured": {
          get: op("secured", {
            security: [{ oauth: ["notes:read"] }, { key: [], basic: [] }],
          }),
        },
        "/echo/cookie": { get: op("cookie", { security: [{ cookieKey: [] }] }) },
        "/echo/token": { get: op("token", { security: [{ digest: [] }, { oidc: ["openid"] }] }) },
        "/echo/path-server": { servers: [{ url: `${serverUrl}/echo` }], get: op("pathServer", { security: [] }) },
        "/echo/op-server": {
          servers: [{ url: "http://127.0.0.1:1" }],
          get: op("opServer", { servers: [{ url: "http://{host}/echo/{v}", variables: { host: { default: "127.0.0.1:1" }, v: { default: "v1" } } }], security: [] }),
        },
      },
      {
        servers: [{ url: "http://127.0.0.1:1" }],
        components: {
          securitySchemes: {
            oauth: { type: "oauth2", flows: {} },
            key: { type: "apiKey", in: "query", name: "api-key" },
            basic: { type: "http", scheme: "basic" },
            cookieKey: { type: "apiKey", in: "cookie", name: "sid" },
            digest: { type: "http", scheme: "Digest" },
            oidc: { $ref: "#/components/securitySchemes/oidcReal" },
            oidcReal: { type: "openIdConnect", openIdConnectUrl: "https://id.example.com" },
          },
        },
      },
    )

  const vault = Layer.succeed(Vault, {
    secret: (name) => Effect.succeed(({ key: "k&1", cookieKey: "s 1", oidc: "oidc-token" } as Record<string, string>)[name]),
  })

  it("the first security requirement the host can meet is applied, each scheme its own way", async () => {
    const asked: Array<[string, ReadonlyArray<string>]> = []
    const api = OpenAPI.fromSpec({
      spec: secured(server.url),
      baseUrl: `${server.url}/`,
      auth: {
        resolve: ({ scheme, scopes }) =>
          Effect.gen(function* () {
            asked.push([scheme, scopes])
            if (scheme === "basic") return { username: "ana", password: "pä:ss" }
            return yield* Vault.use((v) => v.secret(scheme))
          }),
      },
    })
    const runtime = CodeMode.make({ tools: api.tools })
    expectTypeOf(runtime.execute("1")).toEqualTypeOf<Effect.Effect<CodeMode.Result, never, HttpClient.HttpClient | Vault>>()
    const result = await Effect.runPromise(
      runtime
        .execute(`return [await tools.secured(), await tools.cookie(), await tools.token()]`)
        .pipe(Effect.provide(Layer.merge(FetchHttpClient.layer, vault))),
    )
    expect(result.ok).toBe(true)
    if (result.ok !== true) return
    const [securedReq, cookieReq, tokenReq] = result.value as Array<{ url: string; headers: Record<string, string> }>
    expect(securedReq!.url).toBe("/echo/secured?api-key=k%261")
    expect(securedReq!.headers.authorization).toBe(`Basic ${Buffer.from("ana:pä:ss").toString("base64")}`)
    expect(cookieReq!.headers.cookie).toBe("sid=s%201")
    expect(tokenReq!.headers.authorization).toBe("Bearer oidc-token")
    expect(asked).toEqual([
      ["oauth", ["notes:read"]],
      ["key", []],
      ["basic", []],
      ["cookieKey", []],
      ["digest", []],
      ["oidc", ["openid"]],
    ])
  })

  it.each(ENGINES)("servers: operation, then path, then document; a relative one goes through the client (%s)", async (engine) => {
    const spec = secured(server.url)
    const direct = OpenAPI.fromSpec({ spec, serverVariables: { host: new URL(server.url).host } })
    const relative = OpenAPI.fromSpec({ spec: { ...spec, servers: [{ url: "/echo" }] } })
    const prepend = Layer.effect(
      HttpClient.HttpClient,
      Effect.map(HttpClient.HttpClient, HttpClient.mapRequest(HttpClientRequest.prependUrl(server.url))),
    ).pipe(Layer.provide(FetchHttpClient.layer))
    const result = await Effect.runPromise(
      Effect.all([
        makeFor(engine)({ tools: direct.tools })
          .execute(`return [(await tools.pathServer()).url, (await tools.opServer()).url]`)
          .pipe(Effect.provide(FetchHttpClient.layer)),
        makeFor(engine)({ tools: relative.tools }).execute(`return (await tools.cookie()).url`).pipe(Effect.provide(prepend)),
      ]),
    )
    expect(result.map((r) => (r.ok === true ? r.value : r.error.message))).toEqual([["/echo/echo/path-server", "/echo/v1/echo/op-server"], "/echo/echo/cookie"])
  })

  it.each(ENGINES)("a request that cannot be sent fails without showing its URL or credentials (%s)", async (engine) => {
    const api = OpenAPI.fromSpec({ spec: secured(server.url), auth: { resolve: ({ scheme }) => (scheme === "key" ? "hunter2" : scheme === "basic" ? "aHVudGVyMg==" : undefined) } })
    const result = await Effect.runPromise(
      makeFor(engine)({ tools: api.tools })
        .execute(`
          let caught
          try { await tools.secured() } catch (e) { caught = e.message }
          await tools.secured()
          return caught
        `)
        .pipe(Effect.provide(FetchHttpClient.layer)),
    )
    expect(result.ok).toBe(false)
    if (result.ok !== false) return
    expect(result.error.kind).toBe("ToolFailure")
    expect(result.error.message).toContain("GET /echo/secured: the request failed (TransportError)")
    expect(JSON.stringify(result)).not.toContain("hunter2")
    expect(JSON.stringify(result)).not.toContain("aHVudGVyMg")
    expect(JSON.stringify(result)).not.toContain("127.0.0.1")
  })
})
