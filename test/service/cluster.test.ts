/**
 * The service as it is deployed: `codemode serve` processes on the project's Node, talking to one Postgres, with
 * the real VM. Two replicas on ephemeral ports; webhook tools served by this test.
 *
 * The suspend/resume scenarios of issue 6 ("Done when") are written in full below; they run on the VM's suspend and
 * resume (issue 5), which `src/server/executor.ts` uses as soon as a runtime has `program` / `resume`.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { spawn } from "node:child_process"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { clientFor, createDatabase, eventually, request, ROOT, spawnReplica, startReceiver, type ChildReplica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let receiver: Awaited<ReturnType<typeof startReceiver>>
let replicas: Array<ChildReplica> = []
/** Calls to `slow.*` wait until the test releases their key. */
let release = new Map<string, () => void>()
const released = (key: string) => new Promise<void>((ok) => release.set(key, ok))

const env = () => ({ DATABASE_URL: db.url, CODEMODE_LEASE_MS: "3000", CODEMODE_POLL_MS: "200", CODEMODE_DRAIN_MS: "1000" })

const replica = async () => {
  const r = await spawnReplica(env())
  replicas.push(r)
  return r
}

beforeAll(async () => {
  db = await createDatabase()
  receiver = await startReceiver(async (call) => {
    if (call.json.path.startsWith("slow.")) await released(call.json.key)
    return { json: { output: { echo: call.json.input, key: call.json.key } } }
  })
  const a = await replica()
  for (const [path, mode] of [["fast.echo", "plain"], ["slow.idem", "idempotent"], ["slow.plain", "plain"]] as const) {
    await request(a.url, "PUT", `/v1/tools/${path}`, { description: path, input: { type: "object" }, output: {}, url: receiver.url, mode })
  }
}, 120_000)

afterEach(async () => {
  for (const open of release.values()) open()
  release = new Map()
  await Promise.all(replicas.map((r) => r.stop()))
  replicas = []
})

afterAll(async () => {
  await receiver?.close()
  await db?.drop()
})

const callsFor = (runId: string) => receiver.calls.filter((c) => c.json.runId === runId)
const waitForCall = (pred: (c: (typeof receiver.calls)[number]) => boolean, n = 1) =>
  eventually(async () => (receiver.calls.filter(pred).length >= n ? true : undefined), 20_000)

describe("replicas as processes", () => {
  it("serves runs from two replicas sharing one database", async () => {
    const [a, b] = [await replica(), await replica()]
    const run = await clientFor(a.url).run((c) =>
      c.runs.create({ payload: { code: `const r = await tools.fast.echo({ n: 1 }); return r.echo.n + 1` } }),
    )
    expect(run.result).toMatchObject({ ok: true, value: 2 })
    expect(await clientFor(b.url).run((c) => c.runs.get({ params: { id: run.id }, query: {} }))).toStrictEqual(run)
  })

  // A replica keeps a tenant's registrations between runs (ToolRegistry): what B changed before a POST reaches A
  // must be what that run is seen to have used, with a change made while A holds the old ones.
  it("a run on A sees the tools registered, replaced and removed through B before it was posted", async () => {
    const [a, b] = [await replica(), await replica()]
    const run = async (body: Record<string, unknown>) => (await request(a.url, "POST", "/v1/runs", body)).body
    const put = async (path: string, url = receiver.url) =>
      expect((await request(b.url, "PUT", `/v1/tools/${path}`, { description: path, input: { type: "object" }, output: {}, url, mode: "plain" })).status).toBe(200)
    // A reads and keeps the tenant's registrations.
    expect((await run({ code: "1 + 1" })).result).toMatchObject({ ok: true, value: 2 })

    await put("late.echo")
    const found = await run({ code: "const r = await tools.late.echo({ n: 3 }); return r.echo.n" })
    expect(found.result).toMatchObject({ ok: true, value: 3 })
    // A filter naming it is not refused as unknown.
    expect((await run({ code: "return typeof tools.late.echo", tools: ["late"] })).result).toMatchObject({ ok: true, value: "function" })
    // Registrations kept again (the run above read them), then a short run that shows the catalog.
    await put("later.echo")
    expect((await run({ code: "return Object.keys(tools).sort()" })).result).toMatchObject({ ok: true, value: expect.arrayContaining(["late", "later"]) })

    // Replaced with another URL: the call goes to the new one only.
    const other = await startReceiver(async (call) => ({ json: { output: { other: call.json.input } } }))
    try {
      await put("late.echo", other.url)
      const moved = await run({ code: "const r = await tools.late.echo({ n: 4 }); return r.other.n" })
      expect(moved.result).toMatchObject({ ok: true, value: 4 })
      expect(callsFor(moved.id)).toHaveLength(0)
    } finally {
      await other.close()
    }

    // Removed: the run finds no tool, and nothing is sent.
    expect((await request(b.url, "DELETE", "/v1/tools/later.echo")).status).toBe(204)
    const gone = await run({ code: "return await tools.later.echo({ n: 5 })" })
    expect(gone.result).toMatchObject({ ok: false })
    expect(callsFor(gone.id)).toHaveLength(0)
    expect((await request(a.url, "GET", `/v1/runs/${gone.id}`)).body.status).toBe("failed")
  })

  // A run whose first write finds its registrations changed executes again (Runs.create); without being recorded first
  // that time, a tenant whose tools change faster than the program computes before it writes keeps it executing.
  it("a run whose tenant's tools keep changing while it computes is recorded first when it starts again", async () => {
    // A records a run at its first call (before the call leaves), not after 100 ms: the program's whole computation
    // lies between its registrations' read and its first write.
    const a = await spawnReplica({ ...env(), CODEMODE_RECORD_AFTER_MS: "20000" })
    replicas.push(a)
    const b = await replica()
    expect((await request(a.url, "POST", "/v1/runs", { code: "1 + 1" })).body.result).toMatchObject({ ok: true, value: 2 })
    let answered = false
    const churn = (async () => {
      const until = Date.now() + 10_000
      for (let n = 0; !answered && Date.now() < until; n++) {
        await request(b.url, "PUT", "/v1/tools/churn.echo", { description: `change ${n}`, input: { type: "object" }, output: {}, url: receiver.url, mode: "plain" })
      }
      return answered
    })()
    // Computes for about a second (the tools change meanwhile), then calls a tool.
    const code = "let s = 0; for (let i = 0; i < 1e7; i++) s += i; const r = await tools.fast.echo({ n: 1 }); return r.echo.n"
    const created = (await request(a.url, "POST", "/v1/runs", { code })).body
    answered = true
    // Answered while the tools were still changing, not once they stopped.
    expect(await churn).toBe(true)
    expect(created.result).toMatchObject({ ok: true, value: 1 })
    expect(callsFor(created.id)).toHaveLength(1)
  }, 60_000)

  it("a run resumed on A calls the tools as B changed them while it was suspended", async () => {
    const [a, b] = [await replica(), await replica()]
    // Suspended on A while its call waits; A then keeps the tenant's registrations (its claims are told their version).
    const created = (await request(a.url, "POST", "/v1/runs", { code: "const r = await tools.slow.idem({ n: 1 }); return await tools.fast.echo({ n: r.echo.n + 1 })", wait: false })).body
    await waitForCall((c) => c.json.runId === created.id)
    expect((await request(a.url, "POST", `/v1/runs/${created.id}/suspend`)).body.status).toBe("suspended")
    expect((await request(a.url, "POST", "/v1/runs", { code: "1 + 1" })).body.result).toMatchObject({ ok: true, value: 2 })
    const other = await startReceiver(async (call) => ({ json: { output: { other: call.json.input } } }))
    try {
      expect((await request(b.url, "PUT", "/v1/tools/fast.echo", { description: "moved", input: { type: "object" }, output: {}, url: other.url, mode: "plain" })).status).toBe(200)
      const resuming = request(a.url, "POST", `/v1/runs/${created.id}/resume`, { wait: true })
      // Its call in flight is sent again on resume; let it answer then.
      await waitForCall((c) => c.json.runId === created.id, 2)
      for (const open of release.values()) open()
      const resumed = (await resuming).body
      expect(resumed.result).toMatchObject({ ok: true, value: { other: { n: 2 } } })
      expect(callsFor(created.id).filter((c) => c.json.path === "fast.echo")).toHaveLength(0)
    } finally {
      await other.close()
    }
  })

  it("cancels through B a run executing on A, interrupting its webhook call", async () => {
    const [a, b] = [await replica(), await replica()]
    const run = await clientFor(a.url).run((c) =>
      c.runs.create({ payload: { code: `await tools.slow.plain({ wait: true }); return "finished"`, wait: false } }),
    )
    await waitForCall((c) => c.json.path === "slow.plain" && JSON.stringify(c.json.input) === '{"wait":true}')
    const cancelled = await clientFor(b.url).run((c) => c.runs.cancel({ params: { id: run.id } }))
    expect(cancelled.status).toBe("cancelled")
    expect((await clientFor(a.url).run((c) => c.runs.get({ params: { id: run.id }, query: {} }))).status).toBe("cancelled")
  })

  // How fast it stops is a bench concern, not a test's: the machine may be loaded. What must hold is the outcome.
  it("shuts down on SIGTERM, answering the requests that wait on its runs", async () => {
    const a = await replica()
    replicas = []
    const waiting = request(a.url, "POST", "/v1/runs", { code: "let i = 0; while (true) { i++ }", id: "busy-at-shutdown" })
    await eventually(async () => ((await request(a.url, "GET", "/v1/runs/busy-at-shutdown")).status === 200 ? true : undefined))
    const code = await a.stop()
    expect(code).toBe(130) // interrupted by the signal, as NodeRuntime.runMain reports it
    const answer = await waiting
    expect(answer.status).toBe(200)
    // Suspended when the VM can suspend (issue 5); until then failed with a diagnostic, never left running.
    expect(answer.body.id).toBe("busy-at-shutdown")
    expect(["suspended", "failed"]).toContain(answer.body.status)
    if (answer.body.status === "failed") {
      expect(answer.body.result).toMatchObject({
        ok: false,
        error: { kind: "ExecutionFailure", message: "The replica executing this run shut down before the run finished" },
      })
    }
  })

  it("a run started on A is suspended through B, resumed on B and succeeds; the idempotent call in flight is called again with the same key", async () => {
    const [a, b] = [await replica(), await replica()]
    const run = await clientFor(a.url).run((c) =>
      c.runs.create({ payload: { code: `const r = await tools.slow.idem({ step: 1 }); return r.key`, wait: false } }),
    )
    await waitForCall((c) => c.json.runId === run.id)
    const suspended = await clientFor(b.url).run((c) => c.runs.suspend({ params: { id: run.id } }))
    expect(suspended.status).toBe("suspended")
    expect(suspended.pendingCalls).toStrictEqual([
      { key: callsFor(run.id)[0]!.json.key, path: "slow.idem", state: "queued", location: { line: 1, column: 17 } },
    ])
    const resuming = clientFor(b.url).run((c) => c.runs.resume({ params: { id: run.id }, payload: {} }))
    await waitForCall((c) => c.json.runId === run.id, 2)
    const [first, second] = callsFor(run.id)
    expect(second!.headers["webhook-id"]).toBe(first!.headers["webhook-id"])
    expect(second!.json.key).toBe(first!.json.key)
    expect(first!.json.key.startsWith(`${run.id}:`)).toBe(true)
    release.get(first!.json.key)?.()
    const done = await resuming
    expect(done.status).toBe("succeeded")
    expect(done.result).toMatchObject({ ok: true, value: first!.json.key })
  })

  it("a suspended run survives a restart of both replicas", async () => {
    // Four replicas start in this test, two at a time: each loads the library twice (itself, its program process).
    const [a, b] = await Promise.all([replica(), replica()])
    const run = await clientFor(a.url).run((c) =>
      c.runs.create({ payload: { code: `const r = await tools.slow.idem({ step: 1 }); return r.echo.step + 41`, wait: false } }),
    )
    await waitForCall((c) => c.json.runId === run.id)
    expect((await clientFor(b.url).run((c) => c.runs.suspend({ params: { id: run.id } }))).status).toBe("suspended")
    await Promise.all([a.stop(), b.stop()])
    replicas = []
    const [c, d] = await Promise.all([replica(), replica()])
    expect((await clientFor(d.url).run((x) => x.runs.get({ params: { id: run.id }, query: {} }))).status).toBe("suspended")
    const resuming = clientFor(c.url).run((x) => x.runs.resume({ params: { id: run.id }, payload: {} }))
    await waitForCall((x) => x.json.runId === run.id, 2)
    release.get(callsFor(run.id)[1]!.json.key)?.()
    const done = await resuming
    expect(done.result).toMatchObject({ ok: true, value: 42 })
  }, 120_000)

  it("refuses through B to suspend a run whose plain call is running on A, naming the call", async () => {
    const [a, b] = [await replica(), await replica()]
    const run = await clientFor(a.url).run((c) => c.runs.create({ payload: { code: `return await tools.slow.plain({})`, wait: false } }))
    await waitForCall((c) => c.json.runId === run.id)
    const refused = await clientFor(b.url).fail((c) => c.runs.suspend({ params: { id: run.id } }))
    expect(refused._tag).toBe("Conflict")
    expect(refused.error.kind).toBe("SuspendBlocked")
    expect(refused.error.calls).toStrictEqual([{ key: callsFor(run.id)[0]!.json.key, path: "tools.slow.plain" }])
  })
})

describe("npm start on a fresh clone", () => {
  let dir = ""
  afterAll(() => {
    if (dir !== "") rmSync(dir, { recursive: true, force: true })
  })

  it("serves from an embedded database without DATABASE_URL, 1 + 1 answers 2, and stopping npm stops it", async () => {
    dir = mkdtempSync(join(tmpdir(), "codemode-pglite-"))
    const child = spawn("npm", ["start", "--silent"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: "", PORT: "0", HOST: "127.0.0.1", PGLITE_DIR: join(dir, "pglite") },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true, // its own process group: npm and the server it starts stop together
    })
    let out = ""
    child.stdout.on("data", (c: Buffer) => (out += c.toString()))
    child.stderr.on("data", (c: Buffer) => (out += c.toString()))
    const exited = new Promise<void>((ok) => child.once("exit", () => ok()))
    try {
      const url = await eventually(async () => /codemode listening on (http:\/\/\S+)/.exec(out)?.[1], 90_000, 100)
      const res = await request(url, "POST", "/v1/runs", { code: "1 + 1" })
      expect(res.status).toBe(200)
      expect(res.body.result).toStrictEqual({ ok: true, value: 2, toolCalls: [] })
      expect((await request(url, "GET", "/ready")).body.status).toBe("ready")
      // The server names its process in its replica id (host:pid:random); npm alone is told to stop.
      const server = Number(/\(replica [^:]+:(\d+):/.exec(out)?.[1])
      expect(server).not.toBe(child.pid)
      process.kill(child.pid!, "SIGTERM")
      await exited
      const gone = await eventually(async () => {
        try {
          process.kill(server, 0)
          return undefined
        } catch {
          return true
        }
      }, 30_000)
      expect(gone).toBe(true)
    } finally {
      // Whatever is left of the group, if the test failed before npm stopped.
      try {
        process.kill(-child.pid!, "SIGKILL")
      } catch {}
      await exited
    }
  }, 120_000)
})
