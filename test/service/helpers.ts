/**
 * Shared set-up for the service tests: a fresh Postgres database per test file (on the server at DATABASE_URL,
 * which test/setup/postgres.ts provides when the caller did not), replicas built in process or spawned as child processes on
 * the project's Node, a webhook receiver that verifies signatures, and a small fetch helper.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Scope from "effect/Scope"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import * as HttpServer from "effect/http/HttpServer"
import { spawn, type ChildProcess } from "node:child_process"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { fileURLToPath } from "node:url"
import * as Client from "../../src/client/index.ts"
import { ServerConfig } from "../../src/server/config.ts"
import type { Executor } from "../../src/server/executor.ts"
import * as Main from "../../src/server/main.ts"
import { RowSeal, type SealedFields } from "../../src/server/row-seal.ts"
import { Runs } from "../../src/server/runs.ts"
import { verify } from "../../src/server/signing.ts"

/** Empty outside vitest (bench/service.ts borrows these helpers); creating a database then says why it cannot. */
export const ADMIN_URL = process.env["DATABASE_URL"] ?? ""
export const TEST_SNAPSHOT_KEY = "test-snapshot-key-of-32-bytes..."
export const ROOT = fileURLToPath(new URL("../..", import.meta.url))

const admin = <A>(f: (sql: PgClient.PgClient) => Effect.Effect<A, unknown>) => {
  if (!ADMIN_URL) throw new Error("DATABASE_URL is not set: run the tests through vitest, whose globalSetup provides one")
  return Effect.runPromise(
    Effect.gen(function* () {
      return yield* f(yield* PgClient.PgClient)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(ADMIN_URL), maxConnections: 1 }))) as Effect.Effect<A>,
  )
}

/**
 * Creates an empty database for one test file; `drop` removes it (and kicks out leftover connections). The name
 * is unique to this call, and only the run that made a database ever drops it: other checkouts may share the server.
 */
export const createDatabase = async (): Promise<{ url: string; name: string; drop: () => Promise<void> }> => {
  const name = `codemode_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  await admin((sql) => sql.unsafe(`CREATE DATABASE ${name}`))
  const url = new URL(ADMIN_URL)
  url.pathname = `/${name}`
  return {
    url: url.href,
    name,
    drop: () => admin((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  }
}

export interface ReplicaOptions {
  readonly databaseUrl?: string | undefined
  readonly pgliteDir?: string
  readonly executor?: Layer.Layer<Executor>
  readonly notifications?: Main.ServerOptions["notifications"]
  readonly env?: Record<string, string>
}

export interface Replica {
  readonly url: string
  readonly replicaId: string
  readonly activeRuns: () => Promise<number>
  readonly close: () => Promise<void>
}

let replicaCounter = 0

/** Builds a whole server in this process (its own pool, services and socket) on an ephemeral port. */
export const startReplica = async (options: ReplicaOptions): Promise<Replica> => {
  const replicaId = `test-${++replicaCounter}-${Math.random().toString(36).slice(2, 6)}`
  const env: Record<string, string> = {
    PORT: "0",
    HOST: "127.0.0.1",
    CODEMODE_REPLICA_ID: replicaId,
    CODEMODE_LEASE_MS: "3000",
    CODEMODE_POLL_MS: "200",
    CODEMODE_CONTROL_TIMEOUT_MS: "5000",
    // Closing a replica waits this long for plain calls the test never answers.
    CODEMODE_DRAIN_MS: "1000",
    // The tests' webhook receivers listen on loopback, which production refuses (outbound.ts).
    CODEMODE_WEBHOOK_ALLOW: "127.0.0.1",
    // One process runs a replica's programs: starting one loads the library, which is what a loaded machine feels.
    CODEMODE_WORKERS: "1",
    // Replicas of one database sign run states with one key (snapshot-key.ts).
    CODEMODE_SNAPSHOT_KEY: TEST_SNAPSHOT_KEY,
    ...(options.databaseUrl === undefined ? {} : { DATABASE_URL: options.databaseUrl }),
    ...(options.pgliteDir === undefined ? {} : { PGLITE_DIR: options.pgliteDir }),
    ...options.env,
  }
  const scope = Scope.makeUnsafe()
  const layer = Main.layer({ executor: options.executor, notifications: options.notifications }).pipe(
    Layer.provideMerge(ServerConfig.layer),
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromUnknown(env))),
  )
  const context = await Effect.runPromise(Layer.buildWithScope(layer, scope))
  const run = <A, E>(effect: Effect.Effect<A, E, HttpServer.HttpServer | Runs>) =>
    Effect.runPromise(Effect.provideContext(effect, context) as Effect.Effect<A>)
  const address = await run(
    Effect.gen(function* () {
      return (yield* HttpServer.HttpServer).address
    }),
  )
  if (!("port" in address)) throw new Error("expected a TCP address")
  return {
    url: `http://127.0.0.1:${address.port}`,
    replicaId,
    activeRuns: () =>
      run(
        Effect.gen(function* () {
          return yield* (yield* Runs).activeCount
        }),
      ),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void)),
  }
}

export interface ChildReplica {
  readonly url: string
  readonly process: ChildProcess
  readonly output: () => string
  /** SIGTERM and wait for exit. */
  readonly stop: () => Promise<number | null>
  /** SIGKILL and wait for exit. */
  readonly kill: () => Promise<number | null>
}

/** Spawns `codemode serve` on the project's Node (process.execPath under vitest) and waits for its address. */
export const spawnReplica = (env: Record<string, string>, timeoutMs = 60_000): Promise<ChildReplica> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["src/cli/main.ts", "serve"], {
      cwd: ROOT,
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", CODEMODE_WEBHOOK_ALLOW: "127.0.0.1", CODEMODE_WORKERS: "1", CODEMODE_SNAPSHOT_KEY: TEST_SNAPSHOT_KEY, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let out = ""
    const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)))
    const timer = setTimeout(() => {
      child.kill("SIGKILL")
      reject(new Error(`replica did not start in ${timeoutMs} ms:\n${out}`))
    }, timeoutMs)
    const onData = (chunk: Buffer) => {
      out += chunk.toString()
      const m = /codemode listening on (http:\/\/[^\s]+)/.exec(out)
      if (m !== null) {
        clearTimeout(timer)
        child.stdout!.off("data", onData)
        child.stdout!.on("data", (c: Buffer) => (out += c.toString()))
        resolve({
          url: m[1]!,
          process: child,
          output: () => out,
          stop: () => (child.exitCode !== null ? Promise.resolve(child.exitCode) : (child.kill("SIGTERM"), exited)),
          kill: () => (child.exitCode !== null ? Promise.resolve(child.exitCode) : (child.kill("SIGKILL"), exited)),
        })
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()))
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`replica exited with ${code} before listening:\n${out}`))
    })
  })

export interface ReceivedCall {
  readonly headers: Record<string, string | undefined>
  readonly body: string
  readonly json: { type: string; key: string; runId: string; path: string; input: unknown }
  readonly verified: string | undefined
}

export type Reply = { status?: number; json?: unknown; body?: string; delayMs?: number; destroy?: boolean }

/**
 * A webhook receiver: records every request (with the result of verifying its signature against the secret
 * `secret` gives for it, refusing it with 401 when that fails)
 * and answers with what `reply` says.
 */
export const startReceiver = async (
  reply: (call: ReceivedCall, n: number) => Reply | Promise<Reply>,
  secret: (message: ReceivedCall["json"]) => string | undefined = () => undefined,
): Promise<{ url: string; calls: Array<ReceivedCall>; close: () => Promise<void>; server: Server }> => {
  const calls: Array<ReceivedCall> = []
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ""
    req.on("data", (c: Buffer) => (body += c.toString()))
    req.on("end", async () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v]))
      let json: ReceivedCall["json"]
      try {
        json = JSON.parse(body) as ReceivedCall["json"]
      } catch {
        json = { type: "unparsable", key: "", runId: "", path: "", input: body }
      }
      const s = secret(json)
      const call: ReceivedCall = {
        headers,
        body,
        json,
        verified: s === undefined ? "no secret" : verify(s, { headers, body }, Math.floor(Date.now() / 1000)),
      }
      calls.push(call)
      // As a real tool should: a request whose signature does not verify is refused, and reply never sees it.
      const r = s !== undefined && call.verified !== undefined ? { status: 401, json: { error: call.verified } } : await reply(call, calls.length)
      if (r.delayMs !== undefined) await new Promise((ok) => setTimeout(ok, r.delayMs))
      if (r.destroy) {
        req.socket.destroy()
        return
      }
      if (res.destroyed) return
      res.writeHead(r.status ?? 200, { "content-type": "application/json" })
      res.end(r.body ?? JSON.stringify(r.json ?? {}))
    })
  })
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    server,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections()
        server.close(() => ok())
      }),
  }
}

/** fetch with a JSON body and a timeout; answers the status and the parsed body. */
export const request = async (
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any; text: string; headers: Headers }> => {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  })
  const text = await res.text()
  let parsed: unknown = undefined
  try {
    parsed = text === "" ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  return { status: res.status, body: parsed, text, headers: res.headers }
}

/** Polls `f` until it returns a defined value or the time runs out. */
/**
 * Gates by key, for a test's webhook to answer a call only when the test says: `wait(key)` resolves once the test
 * opens that key (every wait pending then; a later one waits for the next open), and `openAll` ends them all.
 */
export const keyGates = () => {
  let waiting = new Map<string, () => void>()
  return {
    wait: (key: string) =>
      new Promise<void>((open) => {
        const previous = waiting.get(key)
        waiting.set(key, () => {
          previous?.()
          open()
        })
      }),
    open: (key: string): void => waiting.get(key)?.(),
    openAll: (): void => {
      for (const open of waiting.values()) open()
      waiting = new Map()
    },
  }
}

export const eventually = async <A>(f: () => Promise<A | undefined>, timeoutMs = 10_000, everyMs = 50): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const v = await f()
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((ok) => setTimeout(ok, everyMs))
  }
}

/** Runs effects against a server through the typed client (so every route test also tests `src/client`). */
export const clientFor = (baseUrl: string, apiKey?: string) => {
  const run = <A, E>(f: (client: Client.ApiClient) => Effect.Effect<A, E>) =>
    Effect.runPromise(
      Effect.gen(function* () {
        return yield* f(yield* Client.make({ baseUrl, apiKey }))
      }).pipe(Effect.provide(FetchHttpClient.layer)) as Effect.Effect<A, E>,
    )
  /** The API error the call fails with (a test failure if it succeeds or fails otherwise). */
  const fail = <A, E>(f: (client: Client.ApiClient) => Effect.Effect<A, E>): Promise<Client.ApiError> =>
    run((c) =>
      Effect.flip(f(c)).pipe(
        Effect.flatMap((e) => (typeof e === "object" && e !== null && "error" in e ? Effect.succeed(e as unknown as Client.ApiError) : Effect.die(e))),
      ),
    )
  return { run, fail }
}

/** Runs one SQL statement on a database (to arrange states the API cannot reach, like a dead owner). */
export const sqlOn = <A extends object = Record<string, unknown>>(url: string, text: string, params: ReadonlyArray<unknown> = []) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      return yield* sql.unsafe<A>(text, params)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))) as Effect.Effect<ReadonlyArray<A>>,
  )

/**
 * The seal the service gives a run row with these fields and saved state under TEST_SNAPSHOT_KEY (row-seal.ts),
 * for tests that arrange with SQL a row the service itself could have written (a replica that died before its
 * first checkpoint, a state saved by another build): an unsealed change would make the service refuse it.
 */
export const sealOf = (fields: SealedFields, state?: Uint8Array): string => RowSeal.make(TEST_SNAPSHOT_KEY).seal(fields, state)!

/** The sealed fields of a stored run. */
export const sealedFields = async (url: string, id: string): Promise<SealedFields> => {
  const [row] = await sqlOn<SealedFields>(url, `SELECT id, tenant, code, limits, tools, seed, forked_from AS "forkedFrom" FROM runs WHERE id = $1`, [id])
  if (row === undefined) throw new Error(`no run ${id}`)
  return row
}
