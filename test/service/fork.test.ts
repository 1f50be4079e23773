/**
 * Forking a run (issue 17, `POST /v1/runs/{id}/fork`): a new run from a kept checkpoint of another, whose calls
 * before the checkpoint are not made again, whose calls in flight there are answered by `outcomes`, and whose later
 * calls reach their webhooks under its own keys. Real interpreter (in the pool's worker processes), real Postgres,
 * real webhook receivers, two replicas.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Client } from "../../src/client/index.ts"
import { hashKey } from "../../src/server/keys.ts"
import {
  clientFor,
  createDatabase,
  eventually,
  type Replica,
  request,
  spawnReplica,
  sqlOn,
  startReceiver,
  startReplica,
  TEST_SNAPSHOT_KEY,
} from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let steps: Awaited<ReturnType<typeof startReceiver>>
let slow: Awaited<ReturnType<typeof startReceiver>>
let jobs: Awaited<ReturnType<typeof startReceiver>>
let held: Awaited<ReturnType<typeof startReceiver>>
/** `held` answers `{ n: 3 }`, except the first request for each `hold`, which it never answers. */
const holding = new Set<string>()
let a: Replica
let b: Replica
const acme = "acme-key"
const globex = "globex-key"
const as = (key: string) => ({ authorization: `Bearer ${key}` })

/** Five calls; the webhook fails the fifth (after a while, so the state before it is kept while it is in flight). */
const fiveCalls = "let s = 0\nfor (let n = 1; n <= 5; n++) s += (await tools.steps.do({ n })).n\nreturn s"
/** A call that never answers after one that does: the run is suspended while the second is in flight. */
const thenSlow = "const a = await tools.steps.do({ n: 1 })\nconst b = await tools.slow.do({ n: 2 })\nreturn a.n + b.n"

/** The inputs `n` the steps webhook received from run `runId`, in order. */
const sent = (runId: string) => steps.calls.filter((c) => c.json.runId === runId).map((c) => (c.json.input as { n: number }).n)

const checkpoints = async (server: Replica, id: string): Promise<Array<any>> =>
  (await request(server.url, "GET", `/v1/runs/${id}/checkpoints`, undefined, as(acme))).body.checkpoints

/** The `data` of each event of a run, by type, read through the Promise client to the run's last event. */
const events = async (server: Replica, id: string) => {
  const client = new Client({ baseUrl: server.url, apiKey: acme })
  const seen: Array<{ event: string; data: any }> = []
  for await (const e of await client.runs.events({ params: { id }, query: {} })) seen.push({ event: e.event, data: JSON.parse(e.data) })
  return seen
}

beforeAll(async () => {
  db = await createDatabase()
  steps = await startReceiver((c) =>
    (c.json.input as { n: number }).n === 5 ? { status: 500, json: { error: "no" }, delayMs: 300 } : { json: { output: c.json.input } },
  )
  slow = await startReceiver(() => ({ json: { output: { n: 2 } }, delayMs: 120_000 }))
  jobs = await startReceiver((c) => (c.json.type === "start" ? { json: { data: { job: c.json.key } } } : { json: {} }))
  held = await startReceiver((c) => {
    const hold = (c.json.input as { hold: string }).hold
    if (holding.has(hold)) return { json: { output: { n: 3 } } }
    holding.add(hold)
    return { json: {}, delayMs: 120_000 }
  })
  a = await startReplica({ databaseUrl: db.url })
  b = await startReplica({ databaseUrl: db.url })
  // The replicas migrated the database: the two tenants' API keys go in as `codemode keys create` puts them.
  for (const tenant of ["acme", "globex"] as const) {
    await sqlOn(db.url, "INSERT INTO api_keys (hash, id, tenant) VALUES ($1, $2, $2)", [hashKey(`${tenant}-key`), tenant])
  }
  for (const [path, url] of [["steps.do", steps.url], ["slow.do", slow.url], ["held.do", held.url]]) {
    const tool = { description: "a step", input: { type: "object" }, output: { type: "object" }, url, mode: "idempotent" }
    expect((await request(a.url, "PUT", `/v1/tools/${path}`, tool, as(acme))).status).toBe(200)
  }
  const durable = { description: "a job", input: { type: "object" }, output: { type: "object" }, url: jobs.url, mode: "durable" }
  expect((await request(a.url, "PUT", "/v1/tools/jobs.run", durable, as(acme))).status).toBe(200)
}, 120_000)

afterAll(async () => {
  await a?.close()
  await b?.close()
  await steps?.close()
  await slow?.close()
  await jobs?.close()
  await held?.close()
  await db?.drop()
})

describe("a fork of a run", () => {
  it("from the state before a failed fifth call, with that call answered, succeeds without making calls 1–4 again", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: fiveCalls }, as(acme))
    expect(run.body.status).toBe("failed")
    // The kept state before call 5: five calls admitted, the fifth in flight.
    const before5 = (await checkpoints(a, run.body.id)).find((k) => k.calls === 5)
    expect(before5.after.input).toStrictEqual({ n: 5 })
    const key5 = before5.after.key
    const fork = await request(
      a.url,
      "POST",
      `/v1/runs/${run.body.id}/fork`,
      { at: before5.seq, outcomes: { [key5]: { ok: true, value: { n: 50 } } } },
      as(acme),
    )
    expect(fork.status).toBe(200)
    expect(fork.body.status).toBe("succeeded")
    expect(fork.body.result.value).toBe(1 + 2 + 3 + 4 + 50)
    expect(fork.body.forkedFrom).toStrictEqual({ run: run.body.id, checkpoint: before5.seq })
    expect(fork.body.id).not.toBe(run.body.id)
    // The webhook saw calls 1–4 once in all, from the original run; the fork sent nothing.
    for (const n of [1, 2, 3, 4]) expect(steps.calls.filter((c) => (c.json.input as { n: number }).n === n && [run.body.id, fork.body.id].includes(c.json.runId))).toHaveLength(1)
    expect(sent(fork.body.id)).toStrictEqual([])
    // The run view and the history say where it came from; the original is as it was.
    const got = await request(b.url, "GET", `/v1/runs/${fork.body.id}`, undefined, as(acme))
    expect(got.body.forkedFrom).toStrictEqual({ run: run.body.id, checkpoint: before5.seq })
    const created = (await events(a, fork.body.id)).find((e) => e.event === "run.created")
    expect(created?.data.forkedFrom).toStrictEqual({ run: run.body.id, checkpoint: before5.seq })
    expect((await request(a.url, "GET", `/v1/runs/${run.body.id}`, undefined, as(acme))).body.status).toBe("failed")
  })

  it("at the latest checkpoint of a run suspended on replica A runs on replica B", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: thenSlow, wait: false }, as(acme))
    const id = run.body.id as string
    const pending = await eventually(async () => {
      const r = await request(a.url, "GET", `/v1/runs/${id}`, undefined, as(acme))
      return r.body.pendingCalls?.find((c: any) => c.path === "slow.do")
    })
    const suspended = await request(a.url, "POST", `/v1/runs/${id}/suspend`, undefined, as(acme))
    expect(suspended.body.status).toBe("suspended")
    // The suspend kept its state as the run's latest checkpoint.
    const latest = (await checkpoints(a, id)).at(-1)
    expect(latest.calls).toBe(2)
    expect(latest.after.key).toBe(pending.key)

    const fork = await request(b.url, "POST", `/v1/runs/${id}/fork`, { outcomes: { [pending.key]: { ok: true, value: { n: 40 } } } }, as(acme))
    expect(fork.body.status).toBe("succeeded")
    expect(fork.body.result.value).toBe(41)
    expect(fork.body.forkedFrom).toStrictEqual({ run: id, checkpoint: latest.seq })
    const created = (await events(b, fork.body.id)).find((e) => e.event === "run.created")
    expect(created?.data.owner).toBe(b.replicaId)
    expect(sent(id)).toStrictEqual([1])
    expect(slow.calls.filter((c) => c.json.runId === fork.body.id)).toHaveLength(0)
    // The source stays suspended, and can still be cancelled as before.
    expect((await request(a.url, "GET", `/v1/runs/${id}`, undefined, as(acme))).body.status).toBe("suspended")
    expect((await request(b.url, "POST", `/v1/runs/${id}/cancel`, undefined, as(acme))).body.status).toBe("cancelled")
    // A cancelled run is forked like any other (its own keys: the call it makes anew is this fork's).
    const again = await request(b.url, "POST", `/v1/runs/${id}/fork`, { at: latest.seq, outcomes: { [pending.key]: { ok: false, error: { message: "down" } } } }, as(acme))
    expect(again.body.status).toBe("failed")
    expect(again.body.result.error.message).toContain("down")
  })

  it("twice gives two independent runs, each making the later calls under its own keys (through the typed clients)", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: "let s = 0\nfor (let n = 11; n <= 13; n++) s += (await tools.steps.do({ n })).n\nreturn s" }, as(acme))
    expect(run.body.result.value).toBe(36)
    // The state before call 11 is the one checkpoint certainly kept: checkpoints are coalesced (a boundary reached
    // while one is being written asks for one more, taken at the state then), so under load a later boundary's own
    // state may be skipped (CI once found none with `calls === 2`). The first has nothing before it to wait for.
    const before11 = (await checkpoints(a, run.body.id))[0]
    expect([before11.calls, before11.after.input]).toStrictEqual([1, { n: 11 }])
    const payload = (n: number) => ({ at: before11.seq, outcomes: { [before11.after.key]: { ok: true as const, value: { n } } } })
    // One through the Effect client, one through its Promise API.
    const first = await clientFor(b.url, acme).run((c) => c.runs.fork({ params: { id: run.body.id }, payload: payload(100) }))
    const second = await new Client({ baseUrl: a.url, apiKey: acme }).runs.fork({ params: { id: run.body.id }, payload: payload(200) })
    expect(first.id).not.toBe(second.id)
    // Seen once failing in round-trip mode under CI load (both forks ended not ok): the message carries their Results.
    const results = JSON.stringify([first.result, second.result]).slice(0, 400)
    expect([first.result?.ok && first.result.value, second.result?.ok && second.result.value], results).toStrictEqual([100 + 12 + 13, 200 + 12 + 13])
    expect(sent(run.body.id)).toStrictEqual([11, 12, 13])
    expect(sent(first.id)).toStrictEqual([12, 13])
    expect(sent(second.id)).toStrictEqual([12, 13])
    const keys = steps.calls.filter((c) => c.json.runId === first.id || c.json.runId === second.id).map((c) => c.json.key)
    expect(keys.sort()).toStrictEqual([`${first.id}:2`, `${first.id}:3`, `${second.id}:2`, `${second.id}:3`].sort())
  })

  it("executing on a replica that dies is continued by another from its own state, not from its code", async () => {
    const code = [
      "const a = await tools.steps.do({ n: 1 })",
      'const b = await tools.held.do({ hold: "source" })',
      'const c = await tools.held.do({ hold: "fork" })',
      "return a.n + b.n + c.n",
    ].join("\n")
    const run = await request(a.url, "POST", "/v1/runs", { code, wait: false }, as(acme))
    const id = run.body.id as string
    const source2 = await eventually(async () => held.calls.find((c) => c.json.runId === id))
    expect((await request(a.url, "POST", `/v1/runs/${id}/suspend`, undefined, as(acme))).body.status).toBe("suspended")
    const victim = await spawnReplica({ DATABASE_URL: db.url, CODEMODE_LEASE_MS: "1500", CODEMODE_POLL_MS: "200", CODEMODE_SNAPSHOT_KEY: TEST_SNAPSHOT_KEY })
    try {
      const fork = await request(victim.url, "POST", `/v1/runs/${id}/fork`, { outcomes: { [source2.json.key]: { ok: true, value: { n: 20 } } }, wait: false }, as(acme))
      expect(fork.status).toBe(202)
      const forkId = fork.body.id as string
      await eventually(async () => held.calls.find((c) => c.json.runId === forkId))
      // Its state with call 3 in flight is stored (a fork killed before it has one fails instead: it has no code to
      // start again from).
      await eventually(async () => ((await checkpoints(a, forkId)).some((k) => k.calls === 3) ? true : undefined))
      await victim.kill()
      // Replica A or B takes it over once its lease has expired, and the journal answers what it had done.
      const done = await eventually(async () => {
        const r = await request(a.url, "GET", `/v1/runs/${forkId}`, undefined, as(acme))
        return r.body.status === "running" ? undefined : r.body
      }, 30_000)
      expect(done.result).toMatchObject({ ok: true, value: 1 + 20 + 3 })
      expect(done.forkedFrom.run).toBe(id)
      // Call 3 was sent again with the same key (idempotent); calls 1 and 2 were never the fork's to make.
      expect(held.calls.filter((c) => c.json.runId === forkId).map((c) => c.json.key)).toStrictEqual([`${forkId}:3`, `${forkId}:3`])
      expect(sent(forkId)).toStrictEqual([])
    } finally {
      await victim.kill()
      await request(a.url, "POST", `/v1/runs/${id}/cancel`, undefined, as(acme))
    }
  }, 120_000)

  it("answers a started durable call only by `outcomes`: its job is the forked run's", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: "return (await tools.jobs.run({ n: 1 })).n", wait: false }, as(acme))
    const id = run.body.id as string
    const started = await eventually(async () => {
      const r = await request(a.url, "GET", `/v1/runs/${id}`, undefined, as(acme))
      return r.body.pendingCalls?.find((c: any) => c.state === "started")
    })
    expect((await request(a.url, "POST", `/v1/runs/${id}/suspend`, undefined, as(acme))).body.status).toBe("suspended")
    const unanswered = await request(b.url, "POST", `/v1/runs/${id}/fork`, {}, as(acme))
    expect(unanswered.body.status).toBe("failed")
    expect(unanswered.body.result.error.message).toContain("a fork answers such a call with `outcomes`")
    const answered = await request(b.url, "POST", `/v1/runs/${id}/fork`, { outcomes: { [started.key]: { ok: true, value: { n: 9 } } } }, as(acme))
    expect(answered.body.status).toBe("succeeded")
    expect(answered.body.result.value).toBe(9)
    // One job was started, by the original run; neither fork started or cancelled one.
    expect(jobs.calls.map((c) => [c.json.type, c.json.runId])).toStrictEqual([["start", id]])
  })

  it("of another tenant's run is 404, as is a checkpoint not kept; unknown fields are 400", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: "await tools.steps.do({ n: 7 }); 1" }, as(acme))
    expect(run.body.status).toBe("succeeded")
    const other = await request(b.url, "POST", `/v1/runs/${run.body.id}/fork`, {}, as(globex))
    expect(other.status).toBe(404)
    expect(other.body.error.kind).toBe("RunNotFound")
    const missing = await request(b.url, "POST", `/v1/runs/${run.body.id}/fork`, { at: 999 }, as(acme))
    expect(missing.status).toBe(404)
    expect(missing.body.error.kind).toBe("CheckpointNotFound")
    const typo = await request(b.url, "POST", `/v1/runs/${run.body.id}/fork`, { outcome: {} }, as(acme))
    expect(typo.status).toBe(400)
    expect(typo.text).toContain("outcome")
    const none = await request(b.url, "POST", "/v1/runs/no-such-run/fork", {}, as(acme))
    expect(none.status).toBe(404)
  })

  it("with an id is made once: the same request answers that run, another is a 409; Idempotency-Key replays", async () => {
    const run = await request(a.url, "POST", "/v1/runs", { code: "await tools.steps.do({ n: 8 }); 2" }, as(acme))
    const body = { id: `fork-of-${run.body.id}`, limits: { maxToolCalls: 5 } }
    const first = await request(a.url, "POST", `/v1/runs/${run.body.id}/fork`, body, as(acme))
    expect(first.body.id).toBe(body.id)
    expect(first.body.status).toBe("succeeded")
    const same = await request(b.url, "POST", `/v1/runs/${run.body.id}/fork`, body, as(acme))
    expect(same.status).toBe(200)
    expect(same.body.createdAt).toBe(first.body.createdAt)
    const other = await request(b.url, "POST", `/v1/runs/${run.body.id}/fork`, { ...body, limits: { maxToolCalls: 6 } }, as(acme))
    expect(other.status).toBe(409)
    expect(other.body.error.kind).toBe("RunExists")
    const keyed = { ...as(acme), "idempotency-key": `k-${run.body.id}` }
    const once = await request(a.url, "POST", `/v1/runs/${run.body.id}/fork`, {}, keyed)
    const replayed = await request(a.url, "POST", `/v1/runs/${run.body.id}/fork`, {}, keyed)
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    expect(replayed.body.id).toBe(once.body.id)
  })
})
