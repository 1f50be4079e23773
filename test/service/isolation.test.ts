/**
 * Isolation under load (issue 16): against a real `codemode serve` process on Postgres, hostile programs (heap
 * bombs, built-ins that work for long, a backtracking regex) run while 200 ordinary runs are submitted at the
 * same time. Every ordinary run succeeds, every hostile one fails with a diagnostic, `/health` answers all along,
 * and the replica is the same process at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { execFileSync } from "node:child_process"
import { createDatabase, eventually, request, spawnReplica, sqlOn, startReceiver, startReplica, type ChildReplica } from "./helpers.ts"

const HOSTILE = [
  // Heap bombs: many small objects, one huge flattened string per step, one huge array.
  `const a = []; for (;;) a.push({ n: a.length, s: "x" + a.length })`,
  // 2 ** 26 characters: from 2 ** 27, `big + i` passes the string length cap, a RangeError at once and no heap bomb.
  `const big = "a".repeat(2 ** 26); const kept = []; for (let i = 0; ; i++) kept.push(big + i, (big + i).charCodeAt(1))`,
  `const t = []; for (;;) t.push(new Array(2 ** 24).fill(1.5))`,
  `Reflect.apply(Math.max, null, { length: 2 ** 27 })`,
  // Built-ins that work long in one step.
  `let x = 3n ** 300000n; for (;;) x = x * x`,
  `const s = "a".repeat(2 ** 26); const t = "a".repeat(2 ** 26); let n = 0; for (;;) n += s === t ? 1 : 0`,
  `"\\uFDFA".repeat(2 ** 23).normalize("NFKD").length`,
  // A backreference keeps V8's backtracking engine.
  `/^(a+)+\\1?$/.test("a".repeat(34) + "b")`,
]

let db: Awaited<ReturnType<typeof createDatabase>>
let replica: ChildReplica

beforeAll(async () => {
  db = await createDatabase()
  replica = await spawnReplica({
    DATABASE_URL: db.url,
    CODEMODE_WORKERS: "2",
    CODEMODE_WORKER_HEAP_MB: "512",
    CODEMODE_MAX_MEMORY_BYTES: String(128 * 1024 * 1024),
    CODEMODE_WORKER_GRACE_MS: "2000",
  })
}, 60_000)
afterAll(async () => {
  await replica?.kill()
  await db?.drop()
})

const post = async (body: unknown) => {
  const response = await fetch(`${replica.url}/v1/runs`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  return { status: response.status, json: (await response.json()) as { status: string; result?: { ok: boolean; value?: unknown; error?: { message: string } } } }
}

describe("isolation", () => {
  it("keeps the replica up and ordinary runs succeeding while hostile runs execute", async () => {
    const pid = replica.process.pid
    const health: Array<{ ok: boolean; ms: number }> = []
    let polling = true
    const poller = (async () => {
      while (polling) {
        const t0 = Date.now()
        const ok = await fetch(`${replica.url}/health`, { signal: AbortSignal.timeout(2000) }).then(
          (r) => r.ok,
          () => false,
        )
        health.push({ ok, ms: Date.now() - t0 })
        await new Promise((r) => setTimeout(r, 100))
      }
    })()

    const started = Date.now()
    const hostile = HOSTILE.map((code) => post({ code, limits: { timeoutMs: 2000 } }))
    const ordinary = Array.from({ length: 200 }, (_, i) =>
      post({ code: `let s = 0; for (let k = 0; k < 1000; k++) s += k; return s + ${i}`, limits: { timeoutMs: 60_000 } }),
    )
    const ordinaryDone = await Promise.all(ordinary)
    const hostileDone = await Promise.all(hostile)
    const elapsed = Date.now() - started
    polling = false
    await poller

    for (const [i, r] of ordinaryDone.entries()) {
      expect(r.status, JSON.stringify(r.json)).toBe(200)
      expect(r.json.status, JSON.stringify(r.json)).toBe("succeeded")
      expect(r.json.result?.value).toBe(499500 + i)
    }
    for (const [i, r] of hostileDone.entries()) {
      expect(r.json.status, `${HOSTILE[i]}: ${JSON.stringify(r.json)}`).toBe("failed")
      expect(r.json.result?.error?.message ?? "").not.toBe("")
    }
    expect(health.length).toBeGreaterThan(0)
    expect(health.filter((h) => !h.ok)).toEqual([])
    expect(replica.process.exitCode).toBe(null)
    expect(replica.process.pid).toBe(pid)
    expect((await fetch(`${replica.url}/health`)).ok).toBe(true)
    console.log(
      `isolation: ${elapsed} ms for 8 hostile + 200 ordinary runs; /health ${health.length} answers, slowest ${Math.max(...health.map((h) => h.ms))} ms`,
      hostileDone.map((r) => r.json.result?.error?.message),
    )
  }, 180_000)
})

/** The pool's processes under this (test) process. */
const poolProcesses = (): Array<number> =>
  execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes("isolation/child.ts"))
    .map((line) => Number(line.trim().split(/\s+/)[0]))

describe("a process of the pool that dies", () => {
  it("fails the run that had called a tool, runs again the one that had not, and is replaced", async () => {
    const db2 = await createDatabase()
    const receiver = await startReceiver(() => ({ json: { output: 1 }, delayMs: 3_000 }))
    const server = await startReplica({ databaseUrl: db2.url, env: { CODEMODE_WORKERS: "1" } })
    try {
      expect((await request(server.url, "PUT", "/v1/tools/slow.wait", { description: "waits", input: {}, url: receiver.url, mode: "plain" })).status).toBe(200)
      const [victim] = poolProcesses()
      expect(victim).toBeDefined()
      const calling = await request(server.url, "POST", "/v1/runs", { code: `console.log("before"); return await tools.slow.wait({})`, wait: false })
      await eventually(async () => (receiver.calls.length > 0 ? true : undefined))
      const computing = await request(server.url, "POST", "/v1/runs", {
        code: `console.log("once"); let s = 0; for (let i = 0; i < 300000; i++) s += i % 7; return s`,
        wait: false,
      })
      process.kill(victim!, "SIGKILL")
      const settled = async (id: string) =>
        eventually(async () => {
          const r = await request(server.url, "GET", `/v1/runs/${id}`)
          return r.body.status === "running" ? undefined : r.body
        }, 60_000)
      const failed = await settled(calling.body.id)
      expect(failed.status).toBe("failed")
      expect(failed.result.error.message).toMatch(/process running this run stopped unexpectedly \(SIGKILL\)/)
      const again = await settled(computing.body.id)
      expect(again.status, JSON.stringify(again)).toBe("succeeded")
      expect(again.result.value).toBe(899997)
      // Its second attempt did not deliver its line again.
      const lines = await sqlOn<{ data: { line: string } }>(db2.url, "SELECT data FROM events WHERE run_id = $1 AND type = 'log'", [computing.body.id])
      expect(lines.map((r) => r.data.line)).toStrictEqual(["once"])
      // A new process took the dead one's place, and runs programs.
      await eventually(async () => (poolProcesses().some((p) => p !== victim) ? true : undefined), 30_000)
      expect((await request(server.url, "POST", "/v1/runs", { code: "1 + 1" })).body.result.value).toBe(2)
    } finally {
      await server.close()
      await receiver.close()
      await db2.drop()
    }
    expect(poolProcesses()).toStrictEqual([])
  }, 120_000)
})
