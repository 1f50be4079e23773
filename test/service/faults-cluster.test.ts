/**
 * Faults of the service's own machinery: Postgres connections killed under running runs, a database that is not
 * there yet when a replica starts, replicas killed (SIGKILL) in the middle of a suspend or of a run they had just
 * woken, two replicas racing to take over one run, a SIGTERM with many runs in flight, and storms of concurrent
 * runs and of suspend/resume/cancel requests on one run from two replicas. No run may be lost, end in an impossible
 * state or have a plain call sent twice, and no request may get a 500.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { createServer as createTcpServer, connect, type AddressInfo, type Server as TcpServer } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  ADMIN_URL,
  createDatabase,
  eventually,
  request,
  spawnReplica,
  sqlOn,
  startReceiver,
  startReplica,
  type ChildReplica,
  type Replica,
} from "./helpers.ts"

type Db = Awaited<ReturnType<typeof createDatabase>>
type Receiver = Awaited<ReturnType<typeof startReceiver>>

const TERMINAL = ["succeeded", "failed", "cancelled"]
const children: Array<ChildReplica> = []
const closers: Array<() => Promise<unknown>> = []

afterAll(async () => {
  for (const c of children) await c.kill()
  for (const close of closers.reverse()) await close()
})

/** Answers `{ output: n * 10 }` after `delayMs`; the first call with a given `hang` gets no answer for a minute. */
const startTools = async () => {
  const hung = new Set<string>()
  const receiver = await startReceiver((c) => {
    if (c.json.type === "start") return { json: { data: { job: c.json.key } } }
    if (c.json.type === "cancel") return { json: {} }
    const input = c.json.input as { n?: number; delayMs?: number; hang?: string }
    if (input.hang !== undefined && !hung.has(input.hang)) {
      hung.add(input.hang)
      return { delayMs: 60_000, json: {} }
    }
    return { delayMs: input.delayMs ?? 0, json: { output: (input.n ?? 0) * 10 } }
  })
  closers.push(receiver.close)
  return receiver
}

const registerTools = async (url: string, receiver: Receiver) => {
  for (const [path, mode] of [["t.idem", "idempotent"], ["t.plain", "plain"], ["t.dur", "durable"]] as const) {
    const r = await request(url, "PUT", `/v1/tools/${path}`, { description: path, input: {}, output: {}, url: receiver.url, mode })
    expect(r.status).toBe(200)
  }
}

const runRow = async (db: Db, id: string) =>
  (await sqlOn<{ status: string; owner: string | null }>(db.url, "SELECT status, owner FROM runs WHERE id = $1", [id]))[0]!

const settled = (db: Db, id: string, timeoutMs = 30_000) =>
  eventually(async () => {
    const row = await runRow(db, id)
    return TERMINAL.includes(row.status) ? row.status : undefined
  }, timeoutMs, 100)

const eventsOf = (db: Db, id: string, type: string) =>
  sqlOn<{ data: Record<string, unknown> }>(db.url, "SELECT data FROM events WHERE run_id = $1 AND type = $2 ORDER BY seq", [id, type])

/**
 * Completes every started durable call until `done()` says to stop; answers the completions that got a 5xx other
 * than 503 (the database is unavailable: try again).
 */
const completer = (db: Db, urls: ReadonlyArray<string>, done: () => boolean) =>
  (async () => {
    const bad: Array<string> = []
    let i = 0
    while (!done()) {
      const open = await sqlOn<{ key: string }>(db.url, "SELECT key FROM calls WHERE mode = 'durable' AND state = 'started'").catch(() => [])
      for (const c of open) {
        const r = await request(urls[i++ % urls.length]!, "POST", `/v1/calls/${c.key}/complete`, { ok: true, output: 5 })
        if (r.status >= 500 && r.status !== 503) bad.push(`${r.status} ${r.text}`)
      }
      await new Promise((ok) => setTimeout(ok, 50))
    }
    return bad
  })()

const keysSentTwice = (receiver: Receiver, path: string) => {
  const counts = new Map<string, number>()
  for (const c of receiver.calls) if (c.json.path === path && c.json.type === "call") counts.set(c.json.key, (counts.get(c.json.key) ?? 0) + 1)
  return [...counts].filter(([, n]) => n > 1).map(([key]) => key)
}

const SHORT = { CODEMODE_LEASE_MS: "2500", CODEMODE_POLL_MS: "100", CODEMODE_IDLE_SUSPEND_MS: "300", CODEMODE_CONTROL_TIMEOUT_MS: "5000" }

describe("two replicas on one database", () => {
  let db: Db
  let a: Replica
  let b: Replica
  let tools: Receiver

  beforeAll(async () => {
    db = await createDatabase()
    closers.push(db.drop)
    tools = await startTools()
    a = await startReplica({ databaseUrl: db.url, env: SHORT })
    closers.push(a.close)
    b = await startReplica({ databaseUrl: db.url, env: SHORT })
    closers.push(b.close)
    await registerTools(a.url, tools)
  })

  it("finishes every run while Postgres connections are killed under it, and keeps serving", async () => {
    const programs = [
      `let s = 0; for (let n = 0; n < 6; n++) s += await tools.t.idem({ n, delayMs: 30 }); return s`,
      `let s = 0; for (let n = 0; n < 4; n++) s += await tools.t.plain({ n, delayMs: 30 }); return s`,
      `let s = 0; for (let n = 0; n < 2; n++) s += await tools.t.dur({ n }); return s`,
    ]
    const ids: Array<string> = []
    for (let i = 0; i < 12; i++) {
      const r = await request(i % 2 === 0 ? a.url : b.url, "POST", "/v1/runs", { code: programs[i % 3], wait: false })
      expect(r.status).toBe(202)
      ids.push(r.body.id)
    }
    let stop = false
    const completing = completer(db, [a.url, b.url], () => stop)
    for (let k = 0; k < 12; k++) {
      await new Promise((ok) => setTimeout(ok, 150))
      await sqlOn(ADMIN_URL, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [db.name])
    }
    const outcomes = await Promise.all(ids.map((id) => settled(db, id)))
    stop = true
    expect(await completing).toStrictEqual([])
    for (const [i, id] of ids.entries()) {
      const run = (await request(a.url, "GET", `/v1/runs/${id}`)).body
      if (i % 3 === 1 && run.status === "failed") {
        // A plain call in flight when its replica lost the run cannot be repeated: the only acceptable failure.
        expect(run.result.error.message).toMatch(/cannot be repeated safely/)
      } else {
        expect({ id, status: outcomes[i], result: run.result }).toMatchObject({ status: "succeeded", result: { ok: true } })
      }
    }
    expect(keysSentTwice(tools, "t.plain")).toStrictEqual([])
    // The pools and the LISTEN connections came back: probes answer, and a cancel crosses replicas.
    for (const r of [a, b]) {
      expect((await request(r.url, "GET", "/health")).status).toBe(200)
      await eventually(async () => ((await request(r.url, "GET", "/ready")).status === 200 ? true : undefined))
    }
    await eventually(async () => {
      const listening = await sqlOn(db.url, "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN%'", [db.name])
      return listening.length >= 2 ? true : undefined
    })
    const long = await request(a.url, "POST", "/v1/runs", { code: `await tools.t.idem({ hang: "after-kills" }); return 1`, wait: false })
    await eventually(async () => (tools.calls.some((c) => (c.json.input as { hang?: string }).hang === "after-kills") ? true : undefined))
    const cancelled = await request(b.url, "POST", `/v1/runs/${long.body.id}/cancel`)
    expect(cancelled.status).toBe(200)
    expect(cancelled.body.status).toBe("cancelled")
  }, 90_000)

  it("registers one of a tool and a tool under it sent at once to two replicas, never both", async () => {
    for (let round = 0; round < 10; round++) {
      const tool = { description: "d", input: {}, url: tools.url, mode: "plain" }
      const answers = await Promise.all([
        request(a.url, "PUT", `/v1/tools/race${round}`, tool),
        request(b.url, "PUT", `/v1/tools/race${round}.sub`, tool),
      ])
      expect(answers.map((r) => r.status).sort()).toStrictEqual([200, 409])
      expect(answers.find((r) => r.status === 409)!.body.error.kind).toBe("ToolPathConflict")
    }
  })

  it("runs 50 concurrent runs with tool calls across both replicas", async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        request(i % 2 === 0 ? a.url : b.url, "POST", "/v1/runs", {
          code: `let s = 0; for (let n = 1; n <= 4; n++) s += await tools.t.${i % 3 === 0 ? "plain" : "idem"}({ n, delayMs: 10 }); return s`,
        }),
      ),
    )
    for (const r of answers) expect({ status: r.status, run: r.body.status, value: r.body.result?.value }).toStrictEqual({ status: 200, run: "succeeded", value: 100 })
    expect(keysSentTwice(tools, "t.plain")).toStrictEqual([])
  }, 60_000)

  it("answers storms of suspend, resume and cancel on one run from both replicas sanely, and the run ends", async () => {
    const programs = [
      `let s = 0; for (let n = 0; n < 25; n++) s += await tools.t.idem({ n, delayMs: 20 }); return s`,
      `let s = 0; for (let n = 0; n < 25; n++) s += await tools.t.plain({ n, delayMs: 20 }); return s`,
      `let s = 0; for (let n = 0; n < 4; n++) s += await tools.t.dur({ n }); return s`,
      `let s = 0; for (let n = 0; n < 8; n++) { s += await tools.t.idem({ n, delayMs: 20 }); s += await tools.t.dur({ n }) } return s`,
    ]
    const bad: Array<string> = []
    let stop = false
    const completing = completer(db, [a.url, b.url], () => stop)
    const storm = async (code: string, withCancel: boolean) => {
      const id = (await request(a.url, "POST", "/v1/runs", { code, wait: false })).body.id as string
      const ops = withCancel ? ["suspend", "resume", "suspend", "resume", "cancel"] : ["suspend", "resume"]
      await Promise.all(
        Array.from({ length: 30 }, async (_, i) => {
          await new Promise((ok) => setTimeout(ok, (i * 37) % 400))
          const op = ops[i % ops.length]!
          const wait = i % 3 === 0
          const r = await request(i % 2 === 0 ? a.url : b.url, "POST", `/v1/runs/${id}/${op}`, op === "resume" ? { wait } : undefined)
          const sane =
            r.status === 200 || r.status === 202 || r.status === 409 || (r.status === 503 && r.body?.error?.kind === "ControlTimeout")
          const consistent =
            r.status !== 200 ||
            (op === "suspend" && r.body.status === "suspended") ||
            (op === "cancel" && r.body.status === "cancelled") ||
            // A resume that waits answers how the run ended, and a cancel of the storm may be how it ended.
            (op === "resume" && (wait || r.body.status !== "cancelled"))
          if (!sane || !consistent) bad.push(`${op} → ${r.status} ${r.text.slice(0, 200)}`)
        }),
      )
      // Whatever the storm left, the run can still be brought to an end.
      const status = await eventually(async () => {
        const run = (await request(b.url, "GET", `/v1/runs/${id}`)).body
        if (run.status === "suspended") await request(a.url, "POST", `/v1/runs/${id}/resume`, { wait: false })
        return TERMINAL.includes(run.status) ? run.status : undefined
      }, 40_000, 200)
      const ends = await sqlOn<{ type: string }>(db.url, "SELECT type FROM events WHERE run_id = $1 AND type IN ('run.succeeded', 'run.failed', 'run.cancelled')", [id])
      expect(ends.map((e) => e.type)).toStrictEqual([`run.${status}`])
      return status
    }
    const statuses = await Promise.all(programs.flatMap((code) => [storm(code, false), storm(code, true)]))
    stop = true
    expect(await completing).toStrictEqual([])
    expect(bad).toStrictEqual([])
    // Without cancels, every run ends in success (a plain call blocks a suspend; it is never repeated).
    expect(statuses.filter((_, i) => i % 2 === 0)).toStrictEqual(["succeeded", "succeeded", "succeeded", "succeeded"])
    expect(keysSentTwice(tools, "t.plain")).toStrictEqual([])
  }, 90_000)
})

describe("a replica started while its database is unreachable", () => {
  it("waits for the database, then serves", async () => {
    const db = await createDatabase()
    closers.push(db.drop)
    // A port nobody listens on yet; a proxy to Postgres opens there a moment after the replica starts.
    const port = await new Promise<number>((ok) => {
      const probe = createTcpServer().listen(0, "127.0.0.1", () => {
        const p = (probe.address() as AddressInfo).port
        probe.close(() => ok(p))
      })
    })
    const target = new URL(ADMIN_URL)
    const url = new URL(db.url)
    url.host = `127.0.0.1:${port}`
    const starting = startReplica({ databaseUrl: url.href, env: SHORT })
    await new Promise((ok) => setTimeout(ok, 1500))
    const proxy: TcpServer = createTcpServer((client) => {
      const upstream = connect(Number(target.port || 5432), target.hostname)
      client.pipe(upstream).pipe(client)
      client.on("error", () => upstream.destroy())
      upstream.on("error", () => client.destroy())
    })
    await new Promise<void>((ok) => proxy.listen(port, "127.0.0.1", ok))
    closers.push(() => new Promise<void>((ok) => proxy.close(() => ok())))
    const replica = await starting
    closers.push(replica.close)
    expect((await request(replica.url, "GET", "/ready")).status).toBe(200)
    expect((await request(replica.url, "POST", "/v1/runs", { code: "1 + 1" })).body.result.value).toBe(2)
  }, 60_000)
})

describe("replicas killed at the worst moments", () => {
  let db: Db
  let c: Replica
  let d: Replica
  let tools: Receiver
  // Survivors sweep slowly, so the victim wins the claims it makes (a survivor winning one is handled too).
  const survivorEnv = { CODEMODE_LEASE_MS: "1500", CODEMODE_POLL_MS: "700", CODEMODE_IDLE_SUSPEND_MS: "300" }
  const victimEnv = () => ({ DATABASE_URL: db.url, CODEMODE_LEASE_MS: "1500", CODEMODE_POLL_MS: "100", CODEMODE_IDLE_SUSPEND_MS: "300", CODEMODE_DRAIN_MS: "1000" })

  beforeAll(async () => {
    db = await createDatabase()
    closers.push(db.drop)
    // A backend whose client died while it waited on a lock must not go on to commit the dead replica's statement.
    await sqlOn(ADMIN_URL, `ALTER DATABASE ${db.name} SET client_connection_check_interval = '100ms'`)
    tools = await startTools()
    c = await startReplica({ databaseUrl: db.url, env: survivorEnv })
    closers.push(c.close)
    d = await startReplica({ databaseUrl: db.url, env: survivorEnv })
    closers.push(d.close)
    await registerTools(c.url, tools)
  })

  const spawn = async (id: string) => {
    const child = await spawnReplica({ ...victimEnv(), CODEMODE_REPLICA_ID: id })
    children.push(child)
    return child
  }

  it("SIGKILL during a suspend's write: the run stays running, and of two replicas racing to take it over one wins", async () => {
    const victim = await spawn("victim-suspend")
    const run = await request(victim.url, "POST", "/v1/runs", { code: `let s = 0; for (let n = 1; n <= 3; n++) s += await tools.t.idem({ n, delayMs: 300 }); return s`, wait: false })
    const id = run.body.id as string
    await eventually(async () => (tools.calls.some((x) => x.json.runId === id) ? true : undefined))
    await withRowLocked(db.url, id, async () => {
      const suspending = request(victim.url, "POST", `/v1/runs/${id}/suspend`).catch(() => undefined)
      await eventually(async () => {
        const blocked = await sqlOn(db.url, "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE '%run.suspended%'", [db.name])
        return blocked.length > 0 ? true : undefined
      })
      await victim.kill()
      await suspending
      // The dead replica's statement is abandoned once the server sees its client gone.
      await eventually(async () => {
        const blocked = await sqlOn(db.url, "SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%run.suspended%' AND state = 'active' AND pid <> pg_backend_pid()", [db.name])
        return blocked.length === 0 ? true : undefined
      })
    })
    expect(await settled(db, id)).toBe("succeeded")
    expect((await request(c.url, "GET", `/v1/runs/${id}`)).body.result.value).toBe(60)
    expect(await eventsOf(db, id, "run.suspended")).toStrictEqual([])
    const recovered = await eventsOf(db, id, "run.recovered")
    expect(recovered).toHaveLength(1)
    expect([c.replicaId, d.replicaId]).toContain(recovered[0]!.data.owner)
  }, 60_000)

  it("SIGKILL of a replica holding a run it just woke: the lease expires and another continues it", async () => {
    const victim = await spawn("victim-woken")
    const run = await request(c.url, "POST", "/v1/runs", {
      code: `const x = await tools.t.dur({ n: 1 }); const y = await tools.t.idem({ n: 2, hang: "woken" }); return x + y`,
      wait: false,
    })
    const id = run.body.id as string
    await eventually(async () => ((await runRow(db, id)).status === "suspended" ? true : undefined))
    const completed = await request(victim.url, "POST", `/v1/calls/${id}:1/complete`, { ok: true, output: 1 })
    expect(completed.status).toBe(200)
    const resumed = await eventually(async () => (await eventsOf(db, id, "run.resumed"))[0])
    if (resumed.data.owner === "victim-woken") {
      await eventually(async () => (tools.calls.some((x) => (x.json.input as { hang?: string }).hang === "woken") ? true : undefined))
      await victim.kill()
      expect(await settled(db, id)).toBe("succeeded")
      expect(await eventsOf(db, id, "run.recovered")).toHaveLength(1)
    } else {
      await victim.kill()
    }
    expect((await request(d.url, "GET", `/v1/runs/${id}`)).body.result.value).toBe(21)
  }, 60_000)

  it("SIGTERM with many runs in flight: idempotent ones continue elsewhere, plain ones fail clearly, none is lost", async () => {
    const victim = await spawn("victim-term")
    const ids: Array<{ id: string; plain: boolean; value: number }> = []
    for (let i = 0; i < 8; i++) {
      const plain = i % 4 === 3
      const code = plain
        ? `return await tools.t.plain({ n: ${i}, hang: "term-${i}" })`
        : `const x = await tools.t.idem({ n: ${i}, hang: "term-${i}" }); return x + await tools.t.idem({ n: 1 })`
      const r = await request(victim.url, "POST", "/v1/runs", { code, wait: false })
      ids.push({ id: r.body.id, plain, value: i * 10 + 10 })
    }
    await eventually(async () => (ids.every(({ id }) => tools.calls.some((x) => x.json.runId === id)) ? true : undefined))
    expect(await victim.stop()).toBe(130) // interrupted by the signal, as NodeRuntime.runMain reports it
    for (const { id, plain, value } of ids) {
      const status = await settled(db, id)
      const run = (await request(c.url, "GET", `/v1/runs/${id}`)).body
      if (plain) {
        expect(status).toBe("failed")
        expect(run.result.error.message).toBe("The replica executing this run shut down before the run finished")
      } else {
        expect(status).toBe("succeeded")
        expect(run.result.value).toBe(value)
      }
    }
    expect(keysSentTwice(tools, "t.plain")).toStrictEqual([])
  }, 60_000)
})

/** Runs `f` while a transaction holds `SELECT … FOR UPDATE` on the run's row. */
const withRowLocked = async (url: string, id: string, f: () => Promise<void>) => {
  let release!: () => void
  let locked!: () => void
  const held = new Promise<void>((ok) => (locked = ok))
  const released = new Promise<void>((ok) => (release = ok))
  const transaction = Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      yield* sql.withTransaction(
        Effect.gen(function* () {
          yield* sql`SELECT 1 FROM runs WHERE id = ${id} FOR UPDATE`
          locked()
          yield* Effect.promise(() => released)
        }),
      )
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))) as Effect.Effect<void>,
  )
  await held
  try {
    await f()
  } finally {
    release()
    await transaction
  }
}
