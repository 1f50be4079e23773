/**
 * `node bench/service.ts`: the execution service under load, printed as ratios (the machine is shared and noisy,
 * so absolute numbers mean little on their own).
 *
 * 1. HTTP execute throughput: `POST /v1/runs { code: "1 + 1" }` against the same server's `GET /health`, each
 *    with BENCH_CONNECTIONS concurrent keep-alive clients for BENCH_SECONDS, interleaved over BENCH_ROUNDS rounds;
 *    the server is a `codemode serve` child process on Postgres (DATABASE_URL, default the local test server; a
 *    fresh database is created and dropped) or, with no reachable Postgres, on embedded PGlite.
 * 2. Resume latency (p50, p99), after ten untimed resumes: a program suspended while it awaits an idempotent
 *    webhook is resumed with `wait: true` (claim the row in Postgres, restore the state, call the webhook again,
 *    finish); n/a from a server that cannot suspend. The same measurement made with the scripted executor of the
 *    service tests (service + Postgres, no VM state) tells the service's share.
 *    On Postgres, the transactions its database committed per POST over those rounds (pg_stat_database): a
 *    count the machine's load does not blur, which group commit (store/postgres/batch.ts) brings below one.
 * 3. The fixed costs (issue 20): start-up (spawn until the first `GET /health` answers 200), `POST /v1/runs
 *    "1 + 1"` latency p50/p99 at one connection, and a run with one webhook call (an answer at once), p50/p99.
 * With Postgres on Linux, the resume line is followed by the CPU each resume cost the server, its pool's processes
 * and the Postgres backends (/proc), which the machine's load blurs far less than the latencies.
 * The POST rounds are followed by the same CPU split per POST.
 * `BENCH_ONLY=resume` runs start-up and the resume part alone, `BENCH_ONLY=call` start-up and the webhook-call line
 * alone (with the CPU each such run cost); `BENCH_NODE_ARGS` passes flags to the server's Node.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { randomBytes } from "node:crypto"
import { Agent, createServer, request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const SECONDS = Number(process.env["BENCH_SECONDS"] ?? 3)
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 3)
const CONNECTIONS = Number(process.env["BENCH_CONNECTIONS"] ?? 32)
/**
 * Samples of each latency line. A p99 of 100 is their second worst, which one pause of any of the processes a
 * request crosses decides; of 300 it is the fourth worst.
 */
const RESUMES = Number(process.env["BENCH_RESUMES"] ?? 300)
/** Resumes made untimed before the timed ones. */
const RESUME_WARMUP = 10
const RESUME_CONCURRENCY = Number(process.env["BENCH_RESUME_CONCURRENCY"] ?? 1)
/** `BENCH_ONLY=resume`: only start-up and the two resume lines (no throughput rounds), to measure one change quickly. */
const ONLY_RESUME = process.env["BENCH_ONLY"] === "resume"
/** `BENCH_ONLY=call`: only start-up and the line of a run with one webhook call (RESUMES runs). */
const ONLY_CALL = process.env["BENCH_ONLY"] === "call"
/** Prefix of the bench's database, so helpers sharing a Postgres server can tell theirs apart. */
const DATABASE_PREFIX = process.env["BENCH_DATABASE_PREFIX"] ?? "codemode_bench"
const SNAPSHOT_KEY = randomBytes(32).toString("base64")
const ADMIN_URL = process.env["DATABASE_URL"] || "postgres://postgres@127.0.0.1:5432/test"

const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s.length % 2 === 1 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}
const percentile = (xs: ReadonlyArray<number>, p: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length === 0 ? NaN : s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!
}

/** The load generator's HTTP: node:http on keep-alive sockets, much lighter than fetch (undici) per request. */
const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS })
const hit = (url: string, method: string, body?: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, agent, headers: body === undefined ? {} : { "content-type": "application/json" } }, (res) => {
      res.on("data", () => {})
      res.on("end", () => resolve(res.statusCode ?? 0))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(body)
  })

/** A JSON POST on the load generator's keep-alive sockets (above), its body parsed. */
const post = (url: string, body: unknown): Promise<any> =>
  new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: "POST", agent, headers: { "content-type": "application/json" } }, (res) => {
      let text = ""
      res.setEncoding("utf8")
      res.on("data", (chunk: string) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode, body: text === "" ? undefined : JSON.parse(text) }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(JSON.stringify(body))
  })

/** Requests per second of `once` with CONNECTIONS concurrent loops for SECONDS. */
const throughput = async (once: () => Promise<boolean>): Promise<{ rps: number; done: number; errors: number }> => {
  let done = 0
  let errors = 0
  const until = performance.now() + SECONDS * 1000
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) {
        if (await once().catch(() => false)) done++
        else errors++
      }
    }),
  )
  return { rps: done / ((performance.now() - started) / 1000), done, errors }
}

const sqlOn = async (url: string, statement: string): Promise<ReadonlyArray<Record<string, unknown>>> => {
  const [{ Effect }, PgClient, { Redacted }] = await Promise.all([
    import("effect"),
    import("@effect/sql-pg/PgClient"),
    import("effect"),
  ])
  return await Effect.runPromise(
    Effect.gen(function* () {
      const sql = yield* PgClient.PgClient
      return yield* sql.unsafe<Record<string, unknown>>(statement)
    }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1, connectTimeout: "2 seconds" }))),
  )
}
const adminSql = async (statement: string): Promise<void> => void (await sqlOn(ADMIN_URL, statement))

/**
 * Transactions the bench's database has ended, once the server's backends have reported them: a backend gone idle
 * within a second of its last report reports again only after 10 s (Postgres 15's PGSTAT_IDLE_INTERVAL), and a
 * shorter wait missed up to half of a hundred resumes' statements (paired: 8-17 per resume, 11-12 with this wait).
 */
const transactions = async (env: Record<string, string>): Promise<number | undefined> => {
  if (!env["DATABASE_URL"]) return undefined
  await new Promise((ok) => setTimeout(ok, 11_000))
  const [row] = await sqlOn(env["DATABASE_URL"], "SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()")
  return Number(row?.["n"])
}

/** A database for the bench: a fresh one on the Postgres server, or undefined (embedded) when none answers. */
const database = async (): Promise<{ env: Record<string, string>; label: string; drop: () => Promise<void> }> => {
  const name = `${DATABASE_PREFIX}_${Date.now().toString(36)}`
  try {
    await adminSql(`CREATE DATABASE ${name}`)
    const url = new URL(ADMIN_URL)
    url.pathname = `/${name}`
    return { env: { DATABASE_URL: url.href }, label: `Postgres at ${url.host}`, drop: () => adminSql(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) }
  } catch {
    const dir = mkdtempSync(join(tmpdir(), "codemode-bench-"))
    return {
      env: { DATABASE_URL: "", PGLITE_DIR: join(dir, "pglite") },
      label: "embedded PGlite (no Postgres answered at DATABASE_URL)",
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    }
  }
}

/** Latencies (ms) of `n` requests one after another, after a few untimed ones. */
const sequential = async (n: number, once: () => Promise<void>): Promise<Array<number>> => {
  for (let i = 0; i < 10; i++) await once()
  const times: Array<number> = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    await once()
    times.push(performance.now() - t)
  }
  return times
}

const latencies = (times: ReadonlyArray<number>): string =>
  `p50 ${percentile(times, 50).toFixed(2)} ms   p99 ${percentile(times, 99).toFixed(2)} ms`

/** A webhook that answers every call at once. */
const echoWebhook = async (): Promise<{ url: string; close: () => void }> => {
  const server = createServer((req, res) => {
    req.on("data", () => {})
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ output: "ok" }))
    })
  })
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

/** `codemode serve` in a child process; `startMs` is from the spawn until the first `GET /health` answered 200. */
const serve = async (env: Record<string, string>): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void>; startMs: number }> => {
  const spawned = performance.now()
  const server = await listen(env)
  while ((await fetch(`${server.url}/health`).then((r) => r.status, () => 0)) !== 200) await new Promise((ok) => setTimeout(ok, 5))
  return { ...server, startMs: performance.now() - spawned }
}

const listen = (env: Record<string, string>): Promise<{ url: string; child: ChildProcess; stop: () => Promise<void> }> =>
  new Promise((resolve, reject) => {
    // BENCH_NODE_ARGS: flags for the server's Node (`--cpu-prof --cpu-prof-dir=/tmp/p`, say), to profile it under load.
    const child = spawn(process.execPath, [...(process.env["BENCH_NODE_ARGS"]?.split(" ").filter(Boolean) ?? []), "src/cli/main.ts", "serve"], {
      cwd: ROOT,
      // A fresh signing key per bench: the server requires one on Postgres.
      env: { ...process.env, PORT: "0", HOST: "127.0.0.1", CODEMODE_WEBHOOK_ALLOW: "127.0.0.1", CODEMODE_SNAPSHOT_KEY: SNAPSHOT_KEY, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    })
    let out = ""
    const onData = (c: Buffer) => {
      out += c.toString()
      const m = /codemode listening on (http:\/\/\S+)/.exec(out)
      if (m !== null) {
        const exited = new Promise<void>((ok) => child.once("exit", () => ok()))
        resolve({ url: m[1]!, child, stop: () => (child.kill("SIGTERM"), exited) })
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", (c: Buffer) => (out += c.toString()))
    child.once("exit", (code) => reject(new Error(`codemode serve exited with ${code}:\n${out}`)))
  })

/** A webhook whose first call for a key hangs (until the run is suspended) and later calls answer at once. */
const gateWebhook = async (): Promise<{ url: string; seen: Set<string>; close: () => void }> => {
  const seen = new Set<string>()
  const server = createServer((req, res) => {
    let body = ""
    req.on("data", (c: Buffer) => (body += c.toString()))
    req.on("end", () => {
      const key = (JSON.parse(body) as { key: string }).key
      if (!seen.has(key)) {
        seen.add(key)
        return // never answered: the suspend interrupts the call
      }
      res.writeHead(200, { "content-type": "application/json" })
      res.end(JSON.stringify({ output: "ok" }))
    })
  })
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections()
      server.close()
    },
  }
}

/** The processes under `pid` (itself included), from /proc. */
const tree = (pid: number): Array<number> => {
  const children = (p: number): Array<number> => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
    } catch {
      return []
    }
  }
  return [pid, ...children(pid).flatMap(tree)]
}

/** CPU milliseconds (user + system) `pid` has used so far, 0 once it has gone. */
const cpuMs = (pid: number): number => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /, "").split(" ")
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return 0
  }
}

/**
 * CPU the server (with its pool's processes) and the Postgres backends serving the bench's database have used so
 * far, by process; undefined without /proc or Postgres. A count the machine's load blurs far less than latencies.
 */
const cpu = async (server: number | undefined, env: Record<string, string>): Promise<Map<string, number> | undefined> => {
  if (server === undefined || !env["DATABASE_URL"] || !existsSync("/proc/self/stat")) return undefined
  const backends = await sqlOn(env["DATABASE_URL"], "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
  const used = new Map<string, number>()
  for (const pid of tree(server)) used.set(pid === server ? "server" : `child ${pid}`, cpuMs(pid))
  for (const row of backends) used.set(`postgres ${row["pid"]}`, cpuMs(Number(row["pid"])))
  return used
}

/** CPU (ms) used between two `cpu` readings by the server, its pool's processes, and Postgres. */
const cpuBetween = (before: Map<string, number>, after: Map<string, number>) => {
  const sums = { server: 0, children: 0, postgres: 0 }
  for (const [name, ms] of after) {
    const used = ms - (before.get(name) ?? 0)
    if (name === "server") sums.server += used
    else if (name.startsWith("child")) sums.children += used
    else sums.postgres += used
  }
  return sums
}

/** The line `CPU per <what>` (ms): the server, its pool's processes, and Postgres; "" without readings. */
const cpuPer = (what: string, used: { server: number; children: number; postgres: number } | undefined, n: number, digits = 2): string => {
  if (used === undefined) return ""
  const per = (ms: number) => (ms / n).toFixed(digits)
  return `\n  ${`CPU per ${what}`.padEnd(32)}server ${per(used.server)} ms, pool ${per(used.children)} ms, Postgres ${per(used.postgres)} ms`
}

/**
 * Resume latencies (ms) of RESUMES runs suspended mid-call, and the transactions the database (`env`) ended per
 * resume, with the server's background statements; undefined when the server cannot suspend.
 */
const resumeLatencies = async (
  base: string,
  webhook: { seen: Set<string> },
  program: (i: number) => string,
  env: Record<string, string>,
  server?: number,
): Promise<{ times: Array<number>; transactions: number | undefined; cpu: string } | undefined> => {
  const ids: Array<string> = []
  for (let i = 0; i < RESUME_WARMUP + RESUMES; i++) {
    const before = webhook.seen.size
    const created = await post(`${base}/v1/runs`, { code: program(i), wait: false })
    // Suspend only once the call is in flight at the webhook (runs go one at a time, so a new key is this run's),
    // so the resume calls it again, and then it answers.
    for (let tries = 0; webhook.seen.size === before; tries++) {
      if (tries > 500) throw new Error("the program never called the webhook")
      await new Promise((ok) => setTimeout(ok, 5))
    }
    for (let tries = 0; ; tries++) {
      const suspended = await post(`${base}/v1/runs/${created.body.id}/suspend`, {})
      if (suspended.status === 200) break
      if (suspended.body?.error?.kind === "NotSuspendable") return undefined
      if (tries > 50) throw new Error(`could not suspend: ${JSON.stringify(suspended.body)}`)
      await new Promise((ok) => setTimeout(ok, 10))
    }
    ids.push(created.body.id)
  }
  // Untimed first, as `sequential` does for requests: a server's first resumes run its resume path's code cold.
  for (const id of ids.splice(0, RESUME_WARMUP)) {
    const resumed = await post(`${base}/v1/runs/${id}/resume`, { wait: true })
    if (resumed.body?.status !== "succeeded") throw new Error(`resume did not succeed: ${JSON.stringify(resumed.body)}`)
  }
  const times: Array<number> = []
  const before = await transactions(env)
  const cpuBefore = await cpu(server, env)
  // BENCH_RESUME_CONCURRENCY clients resume at once (1: one after another), each taking the next suspended run.
  const queue = [...ids]
  await Promise.all(
    Array.from({ length: RESUME_CONCURRENCY }, async () => {
      for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
        const started = performance.now()
        const resumed = await post(`${base}/v1/runs/${id}/resume`, { wait: true })
        times.push(performance.now() - started)
        if (resumed.body?.status !== "succeeded") throw new Error(`resume did not succeed: ${JSON.stringify(resumed.body)}`)
      }
    }),
  )
  const cpuAfter = await cpu(server, env)
  const after = await transactions(env)
  return {
    times,
    transactions: before === undefined || after === undefined ? undefined : (after - before) / ids.length,
    cpu: cpuPer("resume", cpuBefore && cpuAfter && cpuBetween(cpuBefore, cpuAfter), ids.length),
  }
}

const perResume = (transactions: number | undefined) => (transactions === undefined ? "" : `   ${transactions.toFixed(2)} transactions per resume`)

const main = async () => {
  const db = await database()
  const webhook = await gateWebhook()
  try {
    await measure(db, webhook)
  } finally {
    webhook.close()
    await db.drop()
  }
}

/** The line of a run with one webhook call (an idempotent tool answering at once), with its CPU when `env` is given. */
const oneCall = async (server: { url: string; child: ChildProcess }, env?: Record<string, string>): Promise<void> => {
  const echo = await echoWebhook()
  try {
    await fetch(`${server.url}/v1/tools/bench.echo`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "echo", input: {}, output: { type: "string" }, url: echo.url, mode: "idempotent" }),
    })
    const before = env === undefined ? undefined : await cpu(server.child.pid, env)
    const called = await sequential(RESUMES, async () => {
      const r = await post(`${server.url}/v1/runs`, { code: "return await tools.bench.echo({})" })
      if (r.body?.result?.value !== "ok") throw new Error(`the webhook run answered ${JSON.stringify(r.body)}`)
    })
    const after = env === undefined ? undefined : await cpu(server.child.pid, env)
    const used = before === undefined || after === undefined ? undefined : cpuBetween(before, after)
    // The CPU includes the untimed runs `sequential` makes first.
    console.log(`  a run with one webhook call     ${latencies(called)}${cpuPer("run", used, RESUMES + 10)}`)
  } finally {
    echo.close()
  }
}

const measure = async (db: Awaited<ReturnType<typeof database>>, webhook: Awaited<ReturnType<typeof gateWebhook>>) => {
  const server = await serve(db.env)
  try {
    console.log(`service bench: ${CONNECTIONS} connections, ${SECONDS}s x ${ROUNDS} rounds, ${db.label}`)
    console.log(`  start-up (spawn to /health 200) ${server.startMs.toFixed(0).padStart(7)} ms`)
    const ok = await post(`${server.url}/v1/runs`, { code: "1 + 1" })
    if (ok.body?.result?.value !== 2) throw new Error(`1 + 1 answered ${JSON.stringify(ok.body)}`)
    if (ONLY_CALL) {
      await oneCall(server, db.env)
      return
    }
    if (!ONLY_RESUME) {
      const health: Array<number> = []
      const execute: Array<number> = []
      let errors = 0
      let posted = 0
      let postCpu: ReturnType<typeof cpuBetween> | undefined = { server: 0, children: 0, postgres: 0 }
      const before = await transactions(db.env)
      for (let round = 0; round < ROUNDS; round++) {
        const h = await throughput(async () => (await hit(`${server.url}/health`, "GET")) === 200)
        const cpuBefore = await cpu(server.child.pid, db.env)
        const e = await throughput(async () => (await hit(`${server.url}/v1/runs`, "POST", '{"code":"1 + 1"}')) === 200)
        const cpuAfter = await cpu(server.child.pid, db.env)
        if (postCpu !== undefined && cpuBefore !== undefined && cpuAfter !== undefined) {
          const used = cpuBetween(cpuBefore, cpuAfter)
          postCpu = { server: postCpu.server + used.server, children: postCpu.children + used.children, postgres: postCpu.postgres + used.postgres }
        } else postCpu = undefined
        health.push(h.rps)
        execute.push(e.rps)
        posted += e.done
        errors += h.errors + e.errors
      }
      const after = await transactions(db.env)
      const [mh, me] = [median(health), median(execute)]
      console.log(`  GET /health                     ${mh.toFixed(0).padStart(7)} req/s`)
      console.log(`  POST /v1/runs "1 + 1"           ${me.toFixed(0).padStart(7)} req/s   ratio to /health ${(me / mh).toFixed(3)}${errors ? `  (${errors} errors)` : ""}`)
      // The count includes the server's own background statements (lease renewal, the sweep), one or two a second.
      if (before !== undefined && after !== undefined) console.log(`  transactions per POST           ${((after - before) / posted).toFixed(2).padStart(7)}`)
      // Where a POST's CPU goes (µs precision: a POST costs tenths of a millisecond), over the POST rounds alone.
      if (postCpu !== undefined) console.log(cpuPer("POST", postCpu, posted, 3).slice(1))
      const one = await sequential(RESUMES, async () => {
        if ((await hit(`${server.url}/v1/runs`, "POST", '{"code":"1 + 1"}')) !== 200) throw new Error("1 + 1 failed")
      })
      console.log(`  POST /v1/runs "1 + 1", 1 conn.  ${latencies(one)}`)
      await oneCall(server)
    }

    await fetch(`${server.url}/v1/tools/bench.gate`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ description: "gate", input: {}, url: webhook.url, mode: "idempotent" }),
    })
    const real = await resumeLatencies(server.url, webhook, (i) => `await tools.bench.gate({ i: ${i} }); return ${i}`, db.env, server.child.pid)
    console.log(
      real === undefined
        ? "  resume latency (VM)             n/a: the VM cannot suspend yet (issue 5)"
        : `  resume latency (VM)             ${latencies(real.times)}   (${real.times.length} resumes${RESUME_CONCURRENCY > 1 ? `, ${RESUME_CONCURRENCY} at once` : ""})${perResume(real.transactions)}${real.cpu}`,
    )
  } finally {
    await server.stop()
  }

  // The service's share of a resume, measured with the scripted executor of the service tests in process.
  try {
    const [{ startReplica }, Fake] = await Promise.all([import("../test/service/helpers.ts"), import("../test/service/fake-executor.ts")])
    const replica = await startReplica({ databaseUrl: db.env["DATABASE_URL"] || undefined, ...(db.env["PGLITE_DIR"] ? { pgliteDir: db.env["PGLITE_DIR"] + "-scripted" } : {}), executor: Fake.layer })
    try {
      await fetch(`${replica.url}/v1/tools/bench.gate`, {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ description: "gate", input: {}, url: webhook.url, mode: "idempotent" }),
      })
      // Not counted: the test replica's loops poll every 200 ms, more statements than the resumes make.
      const scripted = (await resumeLatencies(replica.url, webhook, (i) => Fake.script({ steps: [{ call: "bench.gate", input: { s: i } }], return: i }), {}))!
      console.log(
        `  resume latency (scripted)       p50 ${percentile(scripted.times, 50).toFixed(2)} ms   p99 ${percentile(scripted.times, 99).toFixed(2)} ms   (service + Postgres, no VM state)`,
      )
    } finally {
      await replica.close()
    }
  } catch (e) {
    console.log(`  resume latency (scripted)       failed: ${e instanceof Error ? e.message : String(e)}`)
  }
}

await main()
