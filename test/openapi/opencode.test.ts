/**
 * A realistic document: fixtures/opencode.json, shaped like the opencode server's API (23 operations: sessions
 * and their messages, files, search, config, provider auth, an event stream, an upload, an export, a PTY
 * WebSocket), authenticated by an API key in the query. The part server.ts implements is driven by a multi-step
 * program on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { readFileSync } from "node:fs"
import { CodeMode, Namespace, OpenAPI } from "../../src/index.ts"
import { ENGINES, makeFor } from "../host/engines.ts"
import { API_KEY, startServer, type TestServer } from "./server.ts"

const spec = JSON.parse(readFileSync(new URL("./fixtures/opencode.json", import.meta.url), "utf8")) as OpenAPI.Document

let server: TestServer
beforeAll(async () => {
  server = await startServer()
})
afterAll(() => server.close())

const opencode = () => OpenAPI.fromSpec({ spec, baseUrl: server.url, auth: { resolve: ({ scheme }) => (scheme === "apiKey" ? API_KEY : undefined) } })

const tools = () => ({ opencode: Namespace.make({ description: "The opencode server: coding sessions, files, config", tools: opencode().tools }) })

describe("the opencode document", () => {
  it("becomes 20 tools; the event stream, the upload, the export and the PTY socket are skipped", () => {
    const api = opencode()
    expect(api.skipped.map((s) => `${s.method} ${s.path} (${s.name}): ${s.reason}`)).toEqual([
      "GET /session/{id}/export (sessions.export): binary response (application/zip)",
      "GET /event (events.subscribe): server-sent events response (text/event-stream)",
      "POST /file/upload (files.upload): request body without JSON content (multipart/form-data)",
      "GET /pty/{id}/connect (pty.connect): WebSocket (101 Switching Protocols response)",
    ])
    const catalog = CodeMode.make({ tools: tools() }).catalog()
    expect(catalog.map((e) => e.path)).toEqual([
      "opencode.sessions.list",
      "opencode.sessions.create",
      "opencode.sessions.get",
      "opencode.sessions.delete",
      "opencode.sessions.update",
      "opencode.sessions.children",
      "opencode.sessions.abort",
      "opencode.sessions.share",
      "opencode.sessions.unshare",
      "opencode.sessions.messages.list",
      "opencode.sessions.messages.send",
      "opencode.files.list",
      "opencode.files.read",
      "opencode.find.text",
      "opencode.find.files",
      "opencode.config.get",
      "opencode.config.providers",
      "opencode.auth.set",
      "opencode.tui.appendPrompt",
      "opencode.get_doc",
    ])
    const signature = (path: string) => catalog.find((e) => e.path === path)!.signature
    expect(signature("opencode.sessions.messages.send")).toMatchInlineSnapshot(`
      "tools.opencode.sessions.messages.send(input: {
        /**
         * Session ID
         * @pattern ^ses
         */
        id: string
        body: {
          model?: { providerID: string; modelID: string }
          /** Agent to run the prompt with */
          agent?: string
          parts: ({ type: "text"; text: string } | {
            type: "file"
            /** @format uri */
            url: string
            mime?: string
          })[]
        }
      }): Promise<{ info: { id: string; role: "user" | "assistant"; sessionID: string }; parts: ({ type: "text"; text: string } | { type: "tool"; tool: string; state?: Record<string, unknown> })[] }>"
    `)
    // writeOnly secrets are part of what the program sends, never of what it reads.
    expect(signature("opencode.auth.set")).toBe(
      'tools.opencode.auth.set(input: { providerID: string; body?: { type: "api"; key: string } | { type: "oauth"; refresh: string; access: string; expires?: number } }): Promise<boolean>',
    )
    expect(signature("opencode.config.get")).toContain("fallback?: unknown")
    expect(signature("opencode.sessions.list")).toBe(
      "tools.opencode.sessions.list(input?: {}): Promise<{ id: string; title: string; parentID?: string | null; share?: { url: string }; time?: { created?: number; updated?: number } }[]>",
    )
    expect(signature("opencode.sessions.messages.send")).not.toContain("messageID")
    expect(catalog.find((e) => e.path === "opencode.sessions.unshare")!.description).toBe("Deprecated. Unshare a session")
  })

  describe.each(ENGINES)("on %s", (engine) => {
    it("a program works through sessions, messages and files", async () => {
      const runtime = makeFor(engine)({ tools: tools() })
      const result = await Effect.runPromise(
        runtime
          .execute(`
            const found = search("send a message to a session").items.map((i) => i.path)
            const session = await tools.opencode.sessions.create({ body: { title: "Fix the build" } })
            const reply = await tools.opencode.sessions.messages.send({
              id: session.id,
              body: { parts: [{ type: "text", text: "why does tsc fail?" }], model: { providerID: "p", modelID: "m" } },
            })
            const history = await tools.opencode.sessions.messages.list({ id: session.id, limit: 10 })
            const file = await tools.opencode.files.read({ path: "src/index.ts" })
            const [sessions, removed] = await Promise.all([tools.opencode.sessions.list(), tools.opencode.sessions.delete({ id: session.id })])
            let missing
            try {
              await tools.opencode.sessions.get({ id: session.id })
            } catch (e) {
              missing = e.data.body.data.message
            }
            return {
              found: found[0] === "tools.opencode.sessions.messages.send",
              title: session.title,
              reply: reply.parts[0].text,
              roles: history.map((m) => m.info.role),
              file: file.content,
              listed: sessions.some((s) => s.id === session.id),
              removed,
              missing: missing === "session " + session.id + " not found",
            }
          `)
          .pipe(Effect.provide(FetchHttpClient.layer)),
      )
      expect(result).toMatchObject({
        ok: true,
        value: {
          found: true,
          title: "Fix the build",
          reply: "echo: why does tsc fail?",
          roles: ["user", "assistant"],
          file: "contents of src/index.ts",
          listed: true,
          removed: true,
          missing: true,
        },
      })
      const sent = server.requests.filter((r) => r.url.startsWith("/session") || r.url.startsWith("/file"))
      expect(sent.every((r) => new URL(r.url, "http://x").searchParams.get("api_key") === API_KEY)).toBe(true)
      expect(sent.find((r) => r.method === "GET" && r.url.includes("/message?"))!.url).toMatch(/^\/session\/ses_\d+\/message\?limit=10&api_key=key-9c1e$/)
      expect(JSON.stringify(result)).not.toContain(API_KEY)
    })
  })
})
