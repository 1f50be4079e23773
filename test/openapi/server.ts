/**
 * A real HTTP server (node:http on 127.0.0.1, ephemeral port) for the OpenAPI tests: a small notes API that checks
 * its bearer token, an `/echo` route that reports the request exactly as it arrived (raw URL, headers, body), and
 * the sessions/files routes the larger "opencode" fixture describes. Every request is recorded, so tests can look
 * at what the generated tools really sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export const TOKEN = "secret-token-7f3a"
export const API_KEY = "key-9c1e"

export interface Recorded {
  readonly method: string
  readonly url: string
  readonly headers: IncomingMessage["headers"]
  readonly body: string
}

export interface TestServer {
  readonly url: string
  readonly requests: Recorded[]
  readonly close: () => Promise<void>
}

interface Note {
  id: string
  title: string
  body: string
  tags: string[]
  createdAt: string
}

interface Session {
  id: string
  title: string
  parentID: string | null
  messages: Array<{ id: string; role: string; text: string }>
}

const json = (res: ServerResponse, status: number, value: unknown) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" })
  res.end(JSON.stringify(value))
}

const text = (res: ServerResponse, status: number, value: string) => {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" })
  res.end(value)
}

export const startServer = async (): Promise<TestServer> => {
  const requests: Recorded[] = []
  const notes = new Map<string, Note>([["n1", { id: "n1", title: "First", body: "hello", tags: ["a"], createdAt: "2026-01-01T00:00:00Z" }]])
  const sessions = new Map<string, Session>()
  let counter = 1

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? "/", "http://localhost")
    const parts = url.pathname.split("/").filter((s) => s !== "").map(decodeURIComponent)
    const method = req.method ?? "GET"
    const input = (): Record<string, unknown> => (body === "" ? {} : (JSON.parse(body) as Record<string, unknown>))

    if (parts[0] === "echo") {
      return json(res, 200, { method, url: req.url, headers: req.headers, body: body === "" ? null : body })
    }
    if (parts[0] === "boom") return text(res, 500, `internal failure: ${"x".repeat(5000)}`)

    if (parts[0] === "notes") {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) return json(res, 401, { error: "unauthorized" })
      const id = parts[1]
      if (id === undefined && method === "GET") {
        const tag = url.searchParams.get("tag")
        const limit = Number(url.searchParams.get("limit") ?? "100")
        const list = [...notes.values()].filter((n) => tag === null || n.tags.includes(tag)).slice(0, limit)
        res.setHeader("x-request-id", req.headers["x-request-id"] ?? "")
        return json(res, 200, list)
      }
      if (id === undefined && method === "POST") {
        const { title, body: text, tags } = input()
        if (typeof title !== "string") return json(res, 400, { error: "title is required" })
        const note: Note = { id: `n${++counter}`, title, body: String(text ?? ""), tags: Array.isArray(tags) ? tags.map(String) : [], createdAt: "2026-02-02T00:00:00Z" }
        notes.set(note.id, note)
        return json(res, 201, note)
      }
      const note = id === undefined ? undefined : notes.get(id)
      if (note === undefined) return json(res, 404, { error: `note ${id} not found` })
      if (parts[2] === "text" && method === "GET") return text(res, 200, `# ${note.title}\n\n${note.body}`)
      if (method === "GET") return json(res, 200, note)
      if (method === "PATCH") {
        Object.assign(note, input())
        return json(res, 200, note)
      }
      if (method === "DELETE") {
        notes.delete(note.id)
        res.writeHead(204)
        return res.end()
      }
    }

    if (parts[0] === "session") {
      if (url.searchParams.get("api_key") !== API_KEY) return json(res, 401, { error: "bad api key" })
      const id = parts[1]
      if (id === undefined && method === "GET") return json(res, 200, [...sessions.values()].map(({ messages: _, ...s }) => s))
      if (id === undefined && method === "POST") {
        const { title, parentID } = input()
        const session: Session = { id: `ses_${++counter}`, title: typeof title === "string" ? title : "untitled", parentID: typeof parentID === "string" ? parentID : null, messages: [] }
        sessions.set(session.id, session)
        const { messages: _, ...out } = session
        return json(res, 200, out)
      }
      const session = id === undefined ? undefined : sessions.get(id)
      if (session === undefined) return json(res, 404, { name: "NotFoundError", data: { message: `session ${id} not found` } })
      if (parts[2] === "message" && method === "POST") {
        const { parts: given } = input() as { parts?: Array<{ type: string; text: string }> }
        const text = (given ?? []).map((p) => p.text).join(" ")
        session.messages.push({ id: `msg_${++counter}`, role: "user", text })
        const reply = { id: `msg_${++counter}`, role: "assistant", text: `echo: ${text}` }
        session.messages.push(reply)
        return json(res, 200, { info: { id: reply.id, role: reply.role, sessionID: session.id }, parts: [{ type: "text", text: reply.text }] })
      }
      if (parts[2] === "message" && method === "GET") return json(res, 200, session.messages.map((m) => ({ info: { id: m.id, role: m.role, sessionID: session.id }, parts: [{ type: "text", text: m.text }] })))
      if (method === "DELETE") {
        sessions.delete(session.id)
        return json(res, 200, true)
      }
      if (method === "GET") {
        const { messages: _, ...out } = session
        return json(res, 200, out)
      }
    }
    if (parts[0] === "file" && parts[1] === "content") {
      if (url.searchParams.get("api_key") !== API_KEY) return json(res, 401, { error: "bad api key" })
      return json(res, 200, { type: "text", content: `contents of ${url.searchParams.get("path")}` })
    }
    return json(res, 404, { error: `no route ${method} ${url.pathname}` })
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on("data", (c: Buffer) => chunks.push(c))
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8")
      requests.push({ method: req.method ?? "GET", url: req.url ?? "/", headers: req.headers, body })
      try {
        handle(req, res, body)
      } catch (e) {
        text(res, 500, String(e))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  }
}
