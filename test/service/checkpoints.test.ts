/**
 * The states a run saves at its call boundaries are kept for forks (issue 17): listed per run with the call each
 * follows, for its tenant only, at most CODEMODE_CHECKPOINT_MAX_PER_RUN of them, and pruned past
 * CODEMODE_CHECKPOINT_RETENTION_MS. Real interpreter, real Postgres, real webhook receiver.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createDatabase, eventually, request, ROOT, startReceiver, startReplica } from "./helpers.ts"

const exec = promisify(execFile)

let db: Awaited<ReturnType<typeof createDatabase>>
let receiver: Awaited<ReturnType<typeof startReceiver>>
let acme: string
let globex: string

const keysCreate = async (tenant: string) => {
  const { stdout } = await exec(process.execPath, ["src/cli/main.ts", "keys", "create", "--tenant", tenant], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db.url },
  })
  return stdout.trim()
}
const as = (key: string) => ({ authorization: `Bearer ${key}` })

/** Five calls of one tool; the fifth fails (the receiver answers 500 for n = 5). Idempotent: a state may be taken while a call runs. */
const fiveCalls = "for (let n = 1; n <= 5; n++) await tools.steps.do({ n })\n'done'"

const replica = (env: Record<string, string> = {}) => startReplica({ databaseUrl: db.url, env })

beforeAll(async () => {
  db = await createDatabase()
  acme = await keysCreate("acme")
  globex = await keysCreate("globex")
  // n = 8 answers after the state before it has been held for the run's end long enough (HOLD_MS) to be written
  // alone; n = 9 only once the run is long cancelled.
  receiver = await startReceiver((c) => {
    const n = (c.json.input as { n: number }).n
    return n === 5 ? { status: 500, json: { error: "no" } } : { json: { output: c.json.input }, ...(n === 8 ? { delayMs: 150 } : n === 9 ? { delayMs: 5000 } : {}) }
  })
  const server = await replica()
  const tool = { description: "a step", input: { type: "object" }, url: receiver.url, mode: "idempotent" }
  expect((await request(server.url, "PUT", "/v1/tools/steps.do", tool, as(acme))).status).toBe(200)
  await server.close()
})

afterAll(async () => {
  await receiver?.close()
  await db?.drop()
})

describe("checkpoints of a run", () => {
  it("are listed for the run's tenant, each with the calls before it and the call it follows", async () => {
    const server = await replica()
    try {
      const run = await request(server.url, "POST", "/v1/runs", { code: fiveCalls }, as(acme))
      expect(run.body.status).toBe("failed")
      // An idempotent call is tried again on a 500: the fifth may be sent more than once, the others once.
      const sent = receiver.calls.filter((c) => c.json.runId === run.body.id).map((c) => (c.json.input as { n: number }).n)
      expect(sent.slice(0, 5)).toStrictEqual([1, 2, 3, 4, 5])
      expect(new Set(sent.slice(4))).toStrictEqual(new Set([5]))
      const listed = await request(server.url, "GET", `/v1/runs/${run.body.id}/checkpoints`, undefined, as(acme))
      expect(listed.status).toBe(200)
      const kept: Array<any> = listed.body.checkpoints
      expect(listed.body.runId).toBe(run.body.id)
      expect(kept.length).toBeGreaterThan(0)
      expect(kept.map((k) => k.seq)).toStrictEqual(kept.map((_, i) => i + 1))
      for (const [i, k] of kept.entries()) {
        expect(k.calls).toBeGreaterThanOrEqual(i === 0 ? 1 : kept[i - 1].calls)
        expect(k.size).toBeGreaterThan(0)
        expect(Number.isNaN(Date.parse(k.createdAt))).toBe(false)
        // The state follows the last call it had admitted: call number `calls`.
        expect(k.after.key.startsWith(`${run.body.id}:`)).toBe(true)
        expect(k.after.path).toBe("steps.do")
        expect(k.after.input).toStrictEqual({ n: k.calls })
      }
      expect((await request(server.url, "GET", `/v1/runs/${run.body.id}/checkpoints`, undefined, as(globex))).status).toBe(404)
    } finally {
      await server.close()
    }
  })

  it("taken before a call are kept before the run's answer, however slow their write", async () => {
    const server = await replica()
    // Another transaction holds a lock that makes every write of a checkpoint wait for it (the finish of a run that
    // keeps no state takes none): the state saved before the call, which answers too late to keep it with the
    // run's end, is written after its outcome, and the run ends meanwhile.
    const locked = Promise.withResolvers<void>()
    const holdMs = 1500
    const holding = Effect.runPromise(
      Effect.gen(function* () {
        const sql = yield* PgClient.PgClient
        yield* sql.withTransaction(
          sql`LOCK TABLE checkpoints IN SHARE MODE`.pipe(Effect.andThen(Effect.sync(() => locked.resolve())), Effect.andThen(Effect.sleep(holdMs))),
        )
      }).pipe(Effect.provide(PgClient.layer({ url: Redacted.make(db.url), maxConnections: 1 }))),
    )
    try {
      await locked.promise
      const started = Date.now()
      const run = await request(server.url, "POST", "/v1/runs", { code: "await tools.steps.do({ n: 8 }); 2" }, as(acme))
      expect(run.body.result.value).toBe(2)
      // The answer waited for the checkpoint: it is listed, and a fork without `at` starts from it.
      expect(Date.now() - started).toBeGreaterThanOrEqual(holdMs - 100)
      const kept: Array<any> = (await request(server.url, "GET", `/v1/runs/${run.body.id}/checkpoints`, undefined, as(acme))).body.checkpoints
      expect(kept.map((k) => [k.calls, k.after.input])).toStrictEqual([[1, { n: 8 }]])
      const fork = await request(server.url, "POST", `/v1/runs/${run.body.id}/fork`, {}, as(acme))
      expect(fork.body.status, JSON.stringify(fork.body)).toBe("succeeded")
      expect(fork.body.forkedFrom).toStrictEqual({ run: run.body.id, checkpoint: kept[0].seq })
    } finally {
      await holding
      await server.close()
    }
  })

  it("taken before a call that answers at once are kept with the run's end, and a fork starts from them", async () => {
    const server = await replica()
    try {
      // The state before the call is held for the run's end (background.ts HOLD_MS), which keeps it in its statement.
      const run = await request(server.url, "POST", "/v1/runs", { code: "await tools.steps.do({ n: 7 }); 21" }, as(acme))
      expect(run.body.result.value).toBe(21)
      const kept: Array<any> = (await request(server.url, "GET", `/v1/runs/${run.body.id}/checkpoints`, undefined, as(acme))).body.checkpoints
      expect(kept.map((k) => [k.seq, k.calls, k.after.input, k.after.outcome.ok])).toStrictEqual([[1, 1, { n: 7 }, true]])
      const fork = await request(server.url, "POST", `/v1/runs/${run.body.id}/fork`, { outcomes: { [`${run.body.id}:1`]: { ok: true, value: null } } }, as(acme))
      expect(fork.body.status, JSON.stringify(fork.body)).toBe("succeeded")
      expect(fork.body.forkedFrom).toStrictEqual({ run: run.body.id, checkpoint: 1 })
      expect(receiver.calls.filter((c) => c.json.runId === fork.body.id)).toStrictEqual([])
    } finally {
      await server.close()
    }
  })

  it("taken before a call are kept when the run is cancelled while they wait for its end", async () => {
    const server = await replica()
    try {
      const run = await request(server.url, "POST", "/v1/runs", { code: "await tools.steps.do({ n: 9 }); 21", wait: false }, as(acme))
      await eventually(async () => (receiver.calls.some((c) => c.json.runId === run.body.id) ? true : undefined), 10_000, 2)
      expect((await request(server.url, "POST", `/v1/runs/${run.body.id}/cancel`, {}, as(acme))).body.status).toBe("cancelled")
      const kept: Array<any> = (await request(server.url, "GET", `/v1/runs/${run.body.id}/checkpoints`, undefined, as(acme))).body.checkpoints
      expect(kept.map((k) => [k.seq, k.calls, k.after.input])).toStrictEqual([[1, 1, { n: 9 }]])
    } finally {
      await server.close()
    }
  })

  it("are kept at most CODEMODE_CHECKPOINT_MAX_PER_RUN per run, the newest", async () => {
    const server = await replica({ CODEMODE_CHECKPOINT_MAX_PER_RUN: "1" })
    try {
      const run = await request(server.url, "POST", "/v1/runs", { code: fiveCalls }, as(acme))
      const kept: Array<any> = (await request(server.url, "GET", `/v1/runs/${run.body.id}/checkpoints`, undefined, as(acme))).body.checkpoints
      expect(kept.length).toBe(1)
      expect(kept[0].seq).toBeGreaterThan(1)
    } finally {
      await server.close()
    }
  })

  it("are not saved again before a resumed run sends again the idempotent call it was suspended in", async () => {
    const held: Array<() => void> = []
    // Step 1 hangs the first time (until the run is suspended) and answers after; step 2 never answers.
    const steps = await startReceiver((c, n) =>
      (c.json.input as { step: number }).step === 2 || n === 1 ? new Promise((ok) => held.push(() => ok({ json: { output: null } }))) : { json: { output: "ok" } },
    )
    const server = await replica()
    try {
      const tool = { description: "a step", input: { type: "object" }, url: steps.url, mode: "idempotent" }
      expect((await request(server.url, "PUT", "/v1/tools/held.do", tool, as(acme))).status).toBe(200)
      const run = await request(server.url, "POST", "/v1/runs", { code: "await tools.held.do({ step: 1 }); await tools.held.do({ step: 2 })", wait: false }, as(acme))
      await eventually(async () => (steps.calls.length === 1 ? true : undefined))
      await eventually(async () => ((await request(server.url, "POST", `/v1/runs/${run.body.id}/suspend`, {}, as(acme))).status === 200 ? true : undefined))
      const path = `/v1/runs/${run.body.id}/checkpoints`
      const after = async (step: number) =>
        ((await request(server.url, "GET", path, undefined, as(acme))).body.checkpoints as Array<any>).filter((k) => k.after.input.step === step).length
      const suspended = await after(1)
      expect((await request(server.url, "POST", `/v1/runs/${run.body.id}/resume`, { wait: false }, as(acme))).status).toBe(202)
      // Saved one at a time: once the state with step 2 in flight is kept, any state saved before it is too.
      await eventually(async () => ((await after(2)) > 0 ? true : undefined))
      // Step 1 was in flight in the suspended state, which is kept: sent again, it saves that state no second time.
      expect(await after(1)).toBe(suspended)
      expect(steps.calls.map((c) => (c.json.input as { step: number }).step)).toStrictEqual([1, 1, 2])
      await request(server.url, "POST", `/v1/runs/${run.body.id}/cancel`, {}, as(acme))
    } finally {
      for (const release of held) release()
      await server.close()
      await steps.close()
    }
  })

  it("are pruned past CODEMODE_CHECKPOINT_RETENTION_MS", async () => {
    const server = await replica({ CODEMODE_CHECKPOINT_RETENTION_MS: "300" })
    try {
      const run = await request(server.url, "POST", "/v1/runs", { code: fiveCalls }, as(acme))
      const path = `/v1/runs/${run.body.id}/checkpoints`
      await eventually(async () => ((await request(server.url, "GET", path, undefined, as(acme))).body.checkpoints.length === 0 ? true : undefined))
    } finally {
      await server.close()
    }
  })
})
