/**
 * Isolation under load (issue 16): against a real `codemode serve` process on Postgres, hostile programs (heap
 * bombs, built-ins that work for long, a backtracking regex) run while 200 ordinary runs are submitted at the
 * same time. Every ordinary run succeeds, every hostile one fails with a diagnostic, `/health` answers all along,
 * and the replica is the same process at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, spawnReplica, type ChildReplica } from "./helpers.ts"

const HOSTILE = [
  // Heap bombs: many small objects, one huge flattened string per step, one huge array.
  `const a = []; for (;;) a.push({ n: a.length, s: "x" + a.length })`,
  `const big = "a".repeat(2 ** 27); const kept = []; for (let i = 0; ; i++) kept.push(big + i, (big + i).charCodeAt(1))`,
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
    CODEMODE_WORKER_HEAP_MB: "256",
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
