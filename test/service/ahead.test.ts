/**
 * Resumes restored ahead of their claim (isolation/pool.ts `prepare`): a replica that suspended a run restores the
 * state it saw while the resume's claim is under way, holding whatever the program asks for; the claim's state, when
 * the same, continues it, and otherwise the run continues from the claim's state as if nothing had been prepared.
 * Real replicas (the VM in a pool of one process, so a dropped run and the run that follows share it) over Postgres.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { clientFor, createDatabase, eventually, keyGates, request, sqlOn, startReceiver, startReplica, type Replica } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
let receiver: Awaited<ReturnType<typeof startReceiver>>
let started: Array<Replica> = []
/** `t.gate` answers a call only once the test opens its key. */
const gates = keyGates()

beforeAll(async () => {
  db = await createDatabase()
  receiver = await startReceiver(async (call) => {
    await gates.wait(call.json.key)
    return { json: { output: `answered ${(call.json.input as { n: number }).n}` } }
  })
  const api = clientFor((await replica()).url)
  await api.run((c) =>
    c.tools.put({ params: { path: "t.gate" }, payload: { description: "gate", input: {}, output: { type: "string" }, url: receiver.url, mode: "idempotent" } }),
  )
})

afterEach(async () => {
  gates.openAll()
  await Promise.all(started.map((r) => r.close()))
  started = []
  await sqlOn(db.url, "UPDATE runs SET auto_resume = false, wake = false WHERE status = 'suspended'")
})

afterAll(async () => {
  await receiver?.close()
  await db?.drop()
})

const replica = async () => {
  const r = await startReplica({ databaseUrl: db.url })
  started.push(r)
  return r
}

const callsOf = (key: string) => receiver.calls.filter((c) => c.json.key === key)
const waitForCalls = (key: string, n: number) => eventually(async () => (callsOf(key).length >= n ? true : undefined))
const open = gates.open

/** The replica's `codemode_resumes_prepared_total` counts. */
const prepared = async (r: Replica) => {
  const text = (await request(r.url, "GET", "/metrics")).text
  const count = (outcome: string) => Number(new RegExp(`codemode_resumes_prepared_total\\{outcome="${outcome}"\\} (\\d+)`).exec(text)?.[1])
  return { adopted: count("adopted"), dropped: count("dropped") }
}

const twoCalls = `
  console.log("before")
  const first = await tools.t.gate({ n: 1 })
  console.log("between", first)
  const second = await tools.t.gate({ n: 2 })
  console.log("after", second)
  return [first, second]`

/** A run of `twoCalls` started on `api`'s replica and suspended there in its first call, with its two call keys. */
const suspendedInFirstCall = async (api: ReturnType<typeof clientFor>) => {
  const run = await api.run((c) => c.runs.create({ payload: { code: twoCalls, wait: false } }))
  const keys = [`${run.id}:1`, `${run.id}:2`] as const
  await waitForCalls(keys[0], 1)
  expect((await api.run((c) => c.runs.suspend({ params: { id: run.id } }))).status).toBe("suspended")
  return { id: run.id, keys }
}

/** The result `twoCalls` ends with, whichever replicas continued it. */
const twoCallsResult = { ok: true, value: ["answered 1", "answered 2"], logs: ["before", "between answered 1", "after answered 2"] }

describe("resumes restored ahead of their claim", () => {
  it("a resume on the replica that suspended the run continues the state it restored while claiming, and each call is made once more", async () => {
    const a = await replica()
    const api = clientFor(a.url)
    const { id, keys: [k1, k2] } = await suspendedInFirstCall(api)

    const resuming = api.run((c) => c.runs.resume({ params: { id }, payload: { wait: "30s" } }))
    await waitForCalls(k1, 2)
    open(k1)
    await waitForCalls(k2, 1)
    open(k2)
    const done = await resuming
    expect(done.status).toBe("succeeded")
    expect(done.result).toMatchObject(twoCallsResult)
    expect([callsOf(k1).length, callsOf(k2).length]).toStrictEqual([2, 1])
    expect(await prepared(a)).toStrictEqual({ adopted: 1, dropped: 0 })
  })

  it("a replica whose kept state is no longer the run's continues from the state its claim read, and what it restored ahead makes no call", async () => {
    const [a, b] = [await replica(), await replica()]
    const [onA, onB] = [clientFor(a.url), clientFor(b.url)]
    // A keeps the state in which the first call is in flight.
    const { id, keys: [k1, k2] } = await suspendedInFirstCall(onA)

    // B continues it past the first call and suspends it in the second.
    const onward = onB.run((c) => c.runs.resume({ params: { id }, payload: { wait: false } }))
    await waitForCalls(k1, 2)
    open(k1)
    await onward
    await waitForCalls(k2, 1)
    expect((await onB.run((c) => c.runs.suspend({ params: { id } }))).status).toBe("suspended")

    // A restores its old state while claiming, finds the claim's state another, drops it and continues the claim's
    // on the same process (a pool of one): the first call is not made again, and nothing of the dropped run counts.
    const resuming = onA.run((c) => c.runs.resume({ params: { id }, payload: { wait: "30s" } }))
    await waitForCalls(k2, 2)
    open(k2)
    const done = await resuming
    expect(done.status).toBe("succeeded")
    expect(done.result).toMatchObject(twoCallsResult)
    expect([callsOf(k1).length, callsOf(k2).length]).toStrictEqual([2, 2])
    expect(await prepared(a)).toStrictEqual({ adopted: 0, dropped: 1 })
    // The process that ran both is whole: another run there succeeds.
    expect((await onA.run((c) => c.runs.create({ payload: { code: "1 + 1" } }))).result).toMatchObject({ ok: true, value: 2 })
  })

  it("a resume whose claim fails drops what it restored ahead, which makes no call", async () => {
    const [a, b] = [await replica(), await replica()]
    const [onA, onB] = [clientFor(a.url), clientFor(b.url)]
    const { id, keys: [k1, k2] } = await suspendedInFirstCall(onA)
    const resuming = onB.run((c) => c.runs.resume({ params: { id }, payload: { wait: "30s" } }))
    await waitForCalls(k1, 2)
    open(k1)
    await waitForCalls(k2, 1)
    open(k2)
    expect((await resuming).status).toBe("succeeded")
    const calls = [callsOf(k1).length, callsOf(k2).length]

    const refused = await request(a.url, "POST", `/v1/runs/${id}/resume`, {})
    expect(refused.status).toBe(409)
    await eventually(async () => ((await prepared(a)).dropped === 1 ? true : undefined))
    // Long enough for a call the dropped run made to arrive.
    await new Promise((ok) => setTimeout(ok, 300))
    expect([callsOf(k1).length, callsOf(k2).length]).toStrictEqual(calls)
    expect(await prepared(a)).toStrictEqual({ adopted: 0, dropped: 1 })
    expect((await onA.run((c) => c.runs.create({ payload: { code: "1 + 1" } }))).result).toMatchObject({ ok: true, value: 2 })
  })
})
