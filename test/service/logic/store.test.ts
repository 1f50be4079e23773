/**
 * The storage contracts, on both implementations: the same decisions (who wins a claim, when a run wakes, what
 * a cancel settles, which idempotent answer comes back) whether the store is Postgres or memory.
 */
import { assert, describe, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { CallStore, CLAIM_JOURNAL_KEYS } from "../../../src/server/store/calls.ts"
import { EventStore } from "../../../src/server/store/events.ts"
import { IdempotencyStore } from "../../../src/server/store/idempotency.ts"
import { KeyStore } from "../../../src/server/store/keys.ts"
import { endedEvents, RunStore } from "../../../src/server/store/runs.ts"
import { ToolStore } from "../../../src/server/store/tools.ts"
import { elapse, stores } from "./stores.ts"

let counter = 0
const newRun = (owner = "a", leaseMs = 60_000, tenant = "t") => ({
  id: `run-${++counter}-${Math.random().toString(36).slice(2, 6)}`,
  tenant,
  code: "{}",
  limits: { timeoutMs: 1000 },
  tools: null,
  owner,
  leaseMs,
  requestHash: "h",
  seed: `seed-${counter}`,
  seal: `sealed-${counter}`,
})
const bytes = (s: string) => new TextEncoder().encode(s)
/** Where a suspend's state sits: no call made yet, and room for ten checkpoints. */
const START = { calls: 0, lastKey: undefined, keep: 10 }
const types = (runId: string) =>
  Effect.gen(function* () {
    const events = yield* EventStore
    return (yield* events.after(runId, "0", 100)).map((e) => e.type)
  })

for (const [name, layer] of stores) {
  describe(`store contracts (${name})`, () => {
    it.layer(layer, { timeout: 60_000 })((it) => {
      it.effect("a run is created once, seen only by its tenant, and finished only by its owner", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const run = newRun()
          const row = yield* runs.insert(run)
          assert.strictEqual(row?.status, "running")
          assert.strictEqual(row?.owner, "a")
          assert.strictEqual(row?.seed, run.seed)
          assert.strictEqual(yield* runs.insert(run), undefined)
          assert.strictEqual(yield* runs.get("other", run.id), undefined)
          assert.strictEqual(yield* runs.finish(run.id, "b", "succeeded", { ok: true, value: 1, toolCalls: [] }), undefined)
          const done = yield* runs.finish(run.id, "a", "succeeded", { ok: true, value: 1, toolCalls: [] })
          assert.strictEqual(done?.status, "succeeded")
          assert.deepStrictEqual(done?.result, { ok: true, value: 1, toolCalls: [] })
          assert.strictEqual(done?.owner, null)
          assert.deepStrictEqual(yield* types(run.id), ["run.created", "run.succeeded"])
        }),
      )

      it.effect("runs stored whole at once, many together: each with its own row and events, a taken id refused", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const events = yield* EventStore
          const taken = newRun()
          yield* runs.insert(taken)
          const endedRun = (i: number, run = newRun()) => ({
            ...run,
            ...(i === 7 ? { forkedFrom: { run: taken.id, checkpoint: 2 } } : {}),
            status: i % 2 === 0 ? ("succeeded" as const) : ("failed" as const),
            result: { ok: true as const, value: { b: i, a: [i] }, toolCalls: [] },
            logs: Array.from({ length: i % 3 }, (_, n) => ({ line: `line ${n} of ${i}`, index: n })),
            truncated: i === 4,
          })
          // Concurrent, so that the Postgres store writes those that wait on the first in one statement: a group
          // stored together, then one with a taken id (its statement refused, each of its runs stored alone).
          for (const ended of [Array.from({ length: 12 }, (_, i) => endedRun(i)), [0, 1, 2, 3].map((i) => endedRun(i, i === 2 ? taken : newRun()))]) {
            const rows = yield* Effect.forEach(ended, (run) => runs.insertEnded(run), { concurrency: "unbounded" })
            for (const [i, run] of ended.entries()) {
              if (run.id === taken.id) {
                assert.strictEqual(rows[i], undefined)
                assert.deepStrictEqual(yield* types(run.id), ["run.created"])
                continue
              }
              assert.strictEqual(rows[i]?.id, run.id)
              assert.strictEqual(rows[i]?.status, run.status)
              assert.deepStrictEqual(rows[i]?.result, run.result)
              // The row answered is the row stored, as any later read gives it.
              assert.deepStrictEqual(rows[i], yield* runs.get(run.tenant, run.id))
              const history = yield* events.after(run.id, "0", 100)
              assert.deepStrictEqual(
                history.map((e) => ({ id: e.id, type: e.type, data: e.data })),
                endedEvents(run).map((e, n) => ({ id: String(n + 1), type: e.type, data: e.data })),
              )
            }
          }
        }),
      )

      it.effect("every change of a tenant's tools or namespaces raises its version, and a run started with an older one is not stored", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const tools = yield* ToolStore
          const tenant = `versions-${++counter}`
          const tool = { description: "d", input: {}, url: "http://127.0.0.1:9/x", mode: "plain" as const }
          const versions = [(yield* tools.current(tenant)).version]
          const changes = [
            tools.put(tenant, "a.b", tool, "s1"),
            tools.put(tenant, "a.b", { ...tool, description: "e" }, "s2"),
            tools.rotate(tenant, "a.b", "s3", 60_000),
            tools.putNamespace(tenant, "a", "the a"),
            tools.removeNamespace(tenant, "a"),
            tools.remove(tenant, "a.b"),
          ]
          for (const change of changes) {
            yield* change
            versions.push((yield* tools.current(tenant)).version)
          }
          for (let i = 1; i < versions.length; i++) assert.isTrue(versions[i]! > versions[i - 1]!, `change ${i}: ${versions}`)
          // A rotated-out secret's overlap bounds how long the registrations read hold.
          yield* tools.put(tenant, "c", tool, "s4")
          yield* tools.rotate(tenant, "c", "s5", 60_000)
          const rotated = yield* tools.current(tenant)
          assert.isTrue(Number.isFinite(rotated.until))
          assert.strictEqual(rotated.registrations.tools[0]?.previousSecret, "s4")
          // Another tenant's change leaves this one's version as it is.
          yield* tools.put(`${tenant}-other`, "x", tool, "s6")
          const { version } = yield* tools.current(tenant)
          assert.strictEqual(version, rotated.version)

          const current = newRun("a", 60_000, tenant)
          assert.strictEqual((yield* runs.insert({ ...current, toolsVersion: version }))?.id, current.id)
          const ended = (run = newRun("a", 60_000, tenant)) => ({
            ...run,
            toolsVersion: version,
            status: "succeeded" as const,
            result: { ok: true as const, value: 1, toolCalls: [] },
            logs: [],
            truncated: false,
          })
          const together = [ended(), ended(), ended()]
          const stored = yield* Effect.forEach(together, (run) => runs.insertEnded(run), { concurrency: "unbounded" })
          assert.deepStrictEqual(stored.map((r) => r?.id), together.map((r) => r.id))

          yield* tools.putNamespace(tenant, "n", "changed")
          const stale = newRun("a", 60_000, tenant)
          const refused = yield* Effect.flip(runs.insert({ ...stale, toolsVersion: version }))
          assert.strictEqual(refused._tag, "ToolsChanged")
          const late = [ended(), ended(), ended()]
          const exits = yield* Effect.forEach(late, (run) => Effect.exit(runs.insertEnded(run)), { concurrency: "unbounded" })
          for (const exit of exits) assert.isTrue(exit._tag === "Failure" && JSON.stringify(exit.cause).includes("ToolsChanged"), JSON.stringify(exit))
          for (const run of [stale, ...late]) {
            assert.strictEqual(yield* runs.get(tenant, run.id), undefined)
            assert.deepStrictEqual(yield* types(run.id), [])
          }
          // A run that names no version is not checked.
          assert.strictEqual((yield* runs.insert(stale))?.id, stale.id)
        }),
      )

      if (name === "postgres") {
        it.effect("a run the database refuses fails alone, not the runs stored with it", () =>
          Effect.gen(function* () {
            const runs = yield* RunStore
            const ended = Array.from({ length: 6 }, (_, i) => ({
              ...newRun(),
              // Postgres text cannot hold U+0000 (the API refuses such code before it gets here).
              ...(i === 3 ? { code: "a\u0000b" } : {}),
              status: "succeeded" as const,
              result: { ok: true as const, value: i, toolCalls: [] },
              logs: [],
              truncated: false,
            }))
            const exits = yield* Effect.forEach(ended, (run) => Effect.exit(runs.insertEnded(run)), { concurrency: "unbounded" })
            for (const [i, exit] of exits.entries()) {
              assert.strictEqual(exit._tag, i === 3 ? "Failure" : "Success", `run ${i}`)
              if (i !== 3) assert.deepStrictEqual(yield* types(ended[i]!.id), ["run.created", "run.succeeded"])
            }
          }),
        )
      }

      it.effect("lists a tenant's runs newest first, a page at a time", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const tenant = `list-${++counter}`
          const ids = []
          for (let i = 0; i < 3; i++) ids.push((yield* runs.insert(newRun("a", 60_000, tenant)))!.id)
          const first = yield* runs.list(tenant, { limit: 2 })
          assert.deepStrictEqual(first.map((r) => r.id), [ids[2], ids[1]])
          const rest = yield* runs.list(tenant, { limit: 2, before: first[1]!.seq })
          assert.deepStrictEqual(rest.map((r) => r.id), [ids[0]])
          assert.deepStrictEqual(yield* runs.list(tenant, { limit: 5, status: "suspended" }), [])
        }),
      )

      it.effect("a call keeps where the program made it: in its pending entry, its locations and its call.started event", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const events = yield* EventStore
          const run = newRun()
          yield* runs.insert(run)
          const location = { line: 3, column: 9 }
          yield* calls.started(run.id, "a", { key: `${run.id}:1`, path: "slow.echo", mode: "idempotent", input: {}, location })
          yield* calls.started(run.id, "a", { key: `${run.id}:2`, path: "slow.echo", mode: "idempotent", input: {} })
          // Begun again (an interrupted idempotent call on resume) without a location: the recorded one stays.
          yield* calls.started(run.id, "a", { key: `${run.id}:1`, path: "slow.echo", mode: "idempotent", input: {} })
          const pending = (yield* calls.pending([run.id])).get(run.id)
          assert.deepStrictEqual(pending, [
            { key: `${run.id}:1`, path: "slow.echo", state: "running", location },
            { key: `${run.id}:2`, path: "slow.echo", state: "running" },
          ])
          const located = (yield* calls.locations([run.id, "no-such-run"]))
          assert.deepStrictEqual([...located.keys()], [run.id])
          assert.deepStrictEqual([...located.get(run.id)!], [[`${run.id}:1`, location]])
          const started = (yield* events.after(run.id, "0", 100)).filter((e) => e.type === "call.started").map((e) => e.data)
          assert.deepStrictEqual(started, [
            { key: `${run.id}:1`, path: "slow.echo", input: {}, attempt: 1, location },
            { key: `${run.id}:2`, path: "slow.echo", input: {}, attempt: 1 },
            { key: `${run.id}:1`, path: "slow.echo", input: {}, attempt: 2, location },
          ])
        }),
      )

      it.effect("a run recorded with its first call: the call running with its location, its event after run.created, both once", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const events = yield* EventStore
          const run = newRun()
          const location = { line: 1, column: 14 }
          const call = { key: `${run.id}:1`, path: "slow.echo", mode: "idempotent", input: { n: 1 }, location }
          const row = yield* runs.insert({ ...run, call })
          assert.strictEqual(row?.status, "running")
          // A taken id stores neither.
          assert.strictEqual(yield* runs.insert({ ...run, call: { ...call, key: `${run.id}:9` } }), undefined)
          assert.strictEqual(yield* calls.journal(run.id, `${run.id}:9`), undefined)
          const journal = yield* calls.journal(run.id, call.key)
          assert.deepStrictEqual([journal?.path, journal?.mode, journal?.input, journal?.state], ["slow.echo", "idempotent", { n: 1 }, "running"])
          assert.deepStrictEqual((yield* calls.pending([run.id])).get(run.id), [{ key: call.key, path: "slow.echo", state: "running", location }])
          const history = yield* events.after(run.id, "0", 100)
          assert.deepStrictEqual(history.map((e) => [e.id, e.type]), [["1", "run.created"], ["2", "call.started"]])
          assert.deepStrictEqual(history[1]?.data, { key: call.key, path: "slow.echo", input: { n: 1 }, attempt: 1, location })
          // The rest of its life is a recorded run's: the call settles and begins again, the run ends.
          yield* calls.settled(run.id, [{ key: call.key, outcome: { ok: true, output: 2 } }])
          assert.isTrue(yield* calls.started(run.id, "a", { ...call, key: `${run.id}:2` }))
          const done = yield* runs.finish(run.id, "a", "succeeded", { ok: true, value: 2, toolCalls: [] })
          assert.deepStrictEqual(done?.result?.toolCalls.map((c) => c.key), [call.key, `${run.id}:2`])
          assert.deepStrictEqual(yield* types(run.id), ["run.created", "call.started", "call.settled", "call.started", "run.succeeded"])
        }),
      )

      it.effect("a call starts only while its replica owns the running run: another's start records nothing and says so", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          yield* runs.insert(run)
          const call = (n: number) => ({ key: `${run.id}:${n}`, path: "orders.cancel", mode: "plain", input: { n } })
          assert.isTrue(yield* calls.started(run.id, "a", call(1)))
          assert.isFalse(yield* calls.started(run.id, "b", call(2)))
          // Taken over: the replica that lost it records nothing more, the new owner does.
          yield* runs.suspend(run.id, "a", bytes("s"), null, START)
          assert.isFalse(yield* calls.started(run.id, "a", call(2)))
          yield* runs.claim("t", run.id, "b", 60_000)
          assert.isFalse(yield* calls.started(run.id, "a", call(2)))
          assert.isFalse(yield* calls.started("no-such-run", "a", { ...call(2), key: "no-such-run:1" }))
          assert.strictEqual(yield* calls.journal(run.id, call(2).key), undefined)
          assert.deepStrictEqual((yield* calls.pending([run.id])).get(run.id)?.map((c) => c.key), [call(1).key])
          assert.deepStrictEqual(yield* types(run.id), ["run.created", "call.started", "run.suspended", "run.resumed"])
          assert.isTrue(yield* calls.started(run.id, "b", call(2)))
        }),
      )

      it.effect("lists the runs that called a tool, and those created in a time window", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const tenant = `filter-${++counter}`
          const first = (yield* runs.insert(newRun("a", 60_000, tenant)))!
          yield* elapse(20)
          const second = (yield* runs.insert(newRun("a", 60_000, tenant)))!
          yield* calls.started(first.id, "a", { key: `${first.id}:1`, path: "orders.lookup", mode: "plain", input: {} })
          yield* calls.started(second.id, "a", { key: `${second.id}:1`, path: "orders.cancel", mode: "plain", input: {} })
          const ids = (rows: ReadonlyArray<{ readonly id: string }>) => rows.map((r) => r.id)
          assert.deepStrictEqual(ids(yield* runs.list(tenant, { limit: 5, tool: "orders.lookup" })), [first.id])
          assert.deepStrictEqual(ids(yield* runs.list(tenant, { limit: 5, tool: "orders" })), [])
          assert.deepStrictEqual(ids(yield* runs.list("other", { limit: 5, tool: "orders.lookup" })), [])
          assert.deepStrictEqual(ids(yield* runs.list(tenant, { limit: 5, since: second.createdAt })), [second.id])
          assert.deepStrictEqual(ids(yield* runs.list(tenant, { limit: 5, until: second.createdAt })), [first.id])
          assert.deepStrictEqual(ids(yield* runs.list(tenant, { limit: 5, since: first.createdAt, until: second.createdAt, tool: "orders.cancel" })), [])
        }),
      )

      it.effect("a call sent again that answers at once records its attempt with its outcome: started, then settled", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const events = yield* EventStore
          const run = newRun()
          yield* runs.insert(run)
          const location = { line: 2, column: 7 }
          const call = { key: `${run.id}:1`, path: "slow.echo", mode: "idempotent", input: { n: 1 }, location }
          yield* calls.started(run.id, "a", call)
          yield* runs.suspend(run.id, "a", bytes("state"), "sealed-state", START)
          yield* runs.claim("t", run.id, "b", 60_000)
          yield* calls.settled(run.id, [{ key: call.key, outcome: { ok: true, output: 10 }, attempt: { ...call, location: undefined } }])
          assert.deepStrictEqual(yield* calls.journal(run.id, call.key), {
            path: "slow.echo",
            mode: "idempotent",
            input: { n: 1 },
            state: "settled",
            data: null,
            outcome: { ok: true, output: 10 },
          })
          const seen = (yield* events.after(run.id, "0", 100)).filter((e) => e.type.startsWith("call.")).map((e) => [e.type, e.data])
          assert.deepStrictEqual(seen, [
            ["call.started", { key: call.key, path: "slow.echo", input: { n: 1 }, attempt: 1, location }],
            ["call.started", { key: call.key, path: "slow.echo", input: { n: 1 }, attempt: 2, location }],
            ["call.settled", { key: call.key, outcome: { ok: true, output: 10 } }],
          ])
        }),
      )

      it.effect("a run's end records the outcomes given with it, their events first and in order; a finish refused records none", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const events = yield* EventStore
          const run = newRun()
          yield* runs.insert(run)
          const again = { key: `${run.id}:1`, path: "slow.echo", mode: "idempotent", input: { n: 1 } }
          const sent = { key: `${run.id}:2`, path: "slow.echo", mode: "idempotent", input: null }
          yield* calls.started(run.id, "a", again)
          yield* calls.started(run.id, "a", sent)
          const settled = [
            { key: sent.key, outcome: { ok: true, output: 2 } },
            { key: again.key, outcome: { ok: false, error: { kind: "ToolFailure", message: "no" } }, attempt: again },
          ]
          const result = { ok: true as const, value: 1, toolCalls: [] }
          assert.strictEqual(yield* runs.finish(run.id, "b", "succeeded", result, settled), undefined)
          assert.strictEqual((yield* calls.journal(run.id, sent.key))?.state, "running")
          assert.deepStrictEqual(yield* types(run.id), ["run.created", "call.started", "call.started"])
          const done = yield* runs.finish(run.id, "a", "succeeded", result, settled)
          assert.deepStrictEqual(done?.result?.toolCalls.map((c) => c.key), [again.key, sent.key])
          assert.deepStrictEqual(yield* calls.journal(run.id, sent.key), {
            path: "slow.echo",
            mode: "idempotent",
            input: null,
            state: "settled",
            data: null,
            outcome: { ok: true, output: 2 },
          })
          assert.deepStrictEqual((yield* calls.journal(run.id, again.key))?.outcome, settled[1]!.outcome)
          const seen = (yield* events.after(run.id, "3", 100)).map((e) => [e.type, e.data])
          assert.deepStrictEqual(seen, [
            ["call.settled", { key: sent.key, outcome: { ok: true, output: 2 } }],
            ["call.started", { key: again.key, path: "slow.echo", input: { n: 1 }, attempt: 2 }],
            ["call.settled", { key: again.key, outcome: settled[1]!.outcome }],
            ["run.succeeded", { owner: "a" }],
          ])
        }),
      )

      it.effect("a suspended run is claimed once; its running calls are queued meanwhile", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          yield* runs.insert(run)
          yield* calls.started(run.id, "a", { key: `${run.id}:1`, path: "slow.echo", mode: "idempotent", input: { n: 1 } })
          const suspended = yield* runs.suspend(run.id, "a", bytes("state"), "sealed-state", START)
          assert.strictEqual(suspended?.status, "suspended")
          const pending = yield* calls.pending([run.id])
          assert.deepStrictEqual(pending.get(run.id), [{ key: `${run.id}:1`, path: "slow.echo", state: "queued" }])
          const claimed = yield* runs.claim("t", run.id, "b", 60_000)
          assert.strictEqual(new TextDecoder().decode(claimed?.snapshot), "state")
          assert.strictEqual(claimed?.seal, "sealed-state")
          assert.strictEqual(claimed?.row.owner, "b")
          assert.strictEqual(yield* runs.claim("t", run.id, "c", 60_000), undefined)
        }),
      )

      it.effect("a claim reads the run's journal with it: every key, the entries of calls not settled; none past the limit", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          yield* runs.insert(run)
          yield* calls.started(run.id, "a", { key: `${run.id}:1`, path: "slow.echo", mode: "plain", input: 1 })
          yield* calls.settled(run.id, [{ key: `${run.id}:1`, outcome: { ok: true, output: 1 } }])
          yield* calls.started(run.id, "a", { key: `${run.id}:2`, path: "slow.echo", mode: "idempotent", input: { n: 2 } })
          yield* runs.suspend(run.id, "a", bytes("s"), null, START)
          const claimed = yield* runs.claim("t", run.id, "b", 60_000)
          assert.deepStrictEqual(
            claimed?.journal,
            new Map([
              [`${run.id}:1`, null],
              [`${run.id}:2`, { path: "slow.echo", mode: "idempotent", input: { n: 2 }, state: "queued", data: null, outcome: null }],
            ]),
          )

          const crowded = newRun()
          yield* runs.insert(crowded)
          for (let n = 0; n <= CLAIM_JOURNAL_KEYS; n++) yield* calls.started(crowded.id, "a", { key: `${crowded.id}:${n}`, path: "p.echo", mode: "plain", input: n })
          yield* runs.suspend(crowded.id, "a", bytes("s"), null, START)
          const full = yield* runs.claim("t", crowded.id, "b", 60_000)
          assert.strictEqual(full?.row.owner, "b")
          assert.strictEqual(full?.journal, undefined)
        }),
      )

      it.effect("a claim reads its tenant's tools and namespaces with the run, as ToolStore.all gives them", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const tools = yield* ToolStore
          const tenant = `claims-${++counter}`
          yield* tools.put(tenant, "orders.lookup", { description: "d", input: { type: "object" }, url: "http://127.0.0.1/x", mode: "idempotent" }, "s1")
          yield* tools.putNamespace(tenant, "orders", "Orders")
          yield* tools.put("other", "other.tool", { description: "o", input: {}, url: "http://127.0.0.1/y", mode: "plain" }, "s2")
          const run = newRun("a", 60_000, tenant)
          yield* runs.insert(run)
          yield* runs.suspend(run.id, "a", bytes("s"), null, START)
          const claimed = yield* runs.claim(tenant, run.id, "b", 60_000)
          assert.deepStrictEqual(claimed?.registrations, yield* tools.current(tenant))
          assert.deepStrictEqual(claimed?.registrations?.registrations.tools.map((t) => [t.path, t.mode, t.secret]), [["orders.lookup", "idempotent", "s1"]])
        }),
      )

      it.effect("a claim told the version of the registrations kept reads them again only when they changed", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const tools = yield* ToolStore
          const tenant = `claims-${++counter}`
          yield* tools.put(tenant, "orders.lookup", { description: "d", input: { type: "object" }, url: "http://127.0.0.1/x", mode: "idempotent" }, "s1")
          const kept = yield* tools.current(tenant)
          const suspended = () =>
            Effect.gen(function* () {
              const run = newRun("a", 60_000, tenant)
              yield* runs.insert(run)
              yield* runs.suspend(run.id, "a", bytes("s"), null, START)
              return run.id
            })
          const same = yield* runs.claim(tenant, yield* suspended(), "b", 60_000, kept.version)
          assert.strictEqual(same?.row.owner, "b")
          assert.strictEqual(same?.registrations, undefined)
          const id = yield* suspended()
          yield* tools.putNamespace(tenant, "orders", "Orders")
          const changed = yield* runs.claim(tenant, id, "b", 60_000, kept.version)
          assert.deepStrictEqual(changed?.registrations, yield* tools.current(tenant))
          assert.isAbove(changed!.registrations!.version, kept.version)
        }),
      )

      it.effect("an auto-suspended run wakes when a durable call it waits on completes, and is claimed once", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          const key = `${run.id}:1`
          yield* runs.insert(run)
          yield* calls.started(run.id, "a", { key, path: "jobs.run", mode: "durable", input: null, callbackHash: `hash-${run.id}` })
          yield* calls.accepted(run.id, key, { job: 7 }, { timeoutMs: undefined, heartbeatTimeoutMs: undefined })
          yield* runs.suspend(run.id, "a", bytes("s"), null, START, { waiting: [key] })
          assert.isFalse((yield* runs.due(100, [])).wakeable.some((r) => r.id === run.id))
          assert.strictEqual(yield* runs.claimWoken(run.id, "b", 60_000), undefined)
          const done = yield* calls.complete({ callbackHash: `hash-${run.id}` }, { ok: true, output: 42 })
          assert.deepStrictEqual(done, { runId: run.id, key, outcome: { ok: true, output: 42 }, completed: true })
          const again = yield* calls.complete({ tenant: "t", key }, { ok: true, output: 0 })
          assert.deepStrictEqual(again, { runId: run.id, key, outcome: { ok: true, output: 42 }, completed: false })
          assert.isTrue((yield* runs.due(100, [])).wakeable.some((r) => r.id === run.id))
          const woken = yield* runs.claimWoken(run.id, "b", 60_000)
          assert.strictEqual(woken?.row.owner, "b")
          assert.deepStrictEqual(woken?.journal, new Map([[key, null]]))
          assert.strictEqual(yield* runs.claimWoken(run.id, "c", 60_000), undefined)
          assert.deepStrictEqual(yield* calls.journal(run.id, key), {
            path: "jobs.run",
            mode: "durable",
            input: null,
            state: "settled",
            data: { job: 7 },
            outcome: { ok: true, output: 42 },
          })
        }),
      )

      it.effect("a completion that lands while the run is being saved wakes it at once; a pinned run does not wake", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          const key = `${run.id}:1`
          yield* runs.insert(run)
          yield* calls.started(run.id, "a", { key, path: "jobs.run", mode: "durable", input: null })
          yield* calls.settled(run.id, [{ key, outcome: { ok: true, output: 1 } }])
          yield* runs.suspend(run.id, "a", bytes("s"), null, START, { waiting: [key] })
          assert.isTrue((yield* runs.due(100, [])).wakeable.some((r) => r.id === run.id))
          yield* runs.pin("t", run.id)
          assert.isFalse((yield* runs.due(100, [])).wakeable.some((r) => r.id === run.id))
        }),
      )

      it.effect("a durable call that misses its heartbeat fails, and wakes its run", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          const key = `${run.id}:1`
          yield* runs.insert(run)
          yield* calls.started(run.id, "a", { key, path: "jobs.run", mode: "durable", input: null })
          yield* calls.accepted(run.id, key, null, { timeoutMs: undefined, heartbeatTimeoutMs: 1000 })
          yield* runs.suspend(run.id, "a", bytes("s"), null, START, { waiting: [key] })
          assert.deepStrictEqual(yield* calls.expire, [])
          yield* elapse(1100)
          assert.isTrue((yield* runs.due(100, [])).expiring)
          assert.deepStrictEqual(yield* calls.expire, [run.id])
          const outcome = yield* calls.outcome(run.id, key)
          assert.strictEqual(outcome?.state, "settled")
          assert.deepStrictEqual(outcome?.outcome, { ok: false, error: { kind: "ToolFailure", message: "its job sent no heartbeat for 1000 ms" } })
          assert.isTrue((yield* runs.due(100, [])).wakeable.some((r) => r.id === run.id))
        }),
      )

      it.effect("a run keeps its checkpoints for its tenant, the call each follows, at most `keep`, pruned by age", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          yield* runs.insert(run)
          const key = (n: number) => `${run.id}:${n}`
          yield* runs.checkpoint(run.id, "a", bytes("s0"), "sealed-s0", { calls: 0, lastKey: undefined, keep: 3 })
          for (const n of [1, 2, 3]) {
            yield* calls.started(run.id, "a", { key: key(n), path: "p.echo", mode: "plain", input: { n } })
            yield* calls.settled(run.id, [{ key: key(n), outcome: { ok: true, value: n } }])
            yield* runs.checkpoint(run.id, "a", bytes(`s${n}`), `sealed-s${n}`, { calls: n, lastKey: key(n), keep: 3 })
          }
          // Not the owner: neither the state nor a checkpoint is saved.
          yield* runs.checkpoint(run.id, "b", bytes("other"), "sealed-other", { calls: 9, lastKey: undefined, keep: 3 })
          const kept = yield* runs.checkpoints("t", run.id)
          assert.deepStrictEqual(
            kept?.map((k) => [k.seq, k.calls, k.size, k.after?.key, k.after?.path, k.after?.input, k.after?.outcome]),
            [2, 3, 4].map((seq) => [seq, seq - 1, 2, key(seq - 1), "p.echo", { n: seq - 1 }, { ok: true, value: seq - 1 }]),
          )
          assert.strictEqual(yield* runs.checkpoints("other", run.id), undefined)
          assert.deepStrictEqual(yield* runs.checkpoints("t", "missing"), undefined)
          assert.strictEqual(yield* runs.pruneCheckpoints(60_000), 0)
          yield* elapse(300)
          assert.isAtLeast(yield* runs.pruneCheckpoints(200), 3)
          assert.deepStrictEqual(yield* runs.checkpoints("t", run.id), [])
        }),
      )

      it.effect("a run's end keeps the checkpoint it is given, after the earlier ones, with the call it follows; an end refused keeps none", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          const key = `${run.id}:1`
          yield* runs.insert({ ...run, call: { key, path: "p.echo", mode: "idempotent", input: { n: 1 } } })
          yield* runs.checkpoint(run.id, "a", bytes("s0"), "sealed-s0", { calls: 0, lastKey: undefined, keep: 2 })
          yield* runs.checkpoint(run.id, "a", bytes("s1"), "sealed-s1", { calls: 0, lastKey: undefined, keep: 2 })
          const held = { snapshot: bytes("before"), seal: "sealed-before", at: { calls: 1, lastKey: key, keep: 2 } }
          const result = { ok: true as const, value: 1, toolCalls: [{ path: "tools.p.echo", key }] }
          // Not the owner: nothing is kept.
          assert.strictEqual(yield* runs.finish(run.id, "b", "succeeded", result, [], held), undefined)
          const done = yield* runs.finish(run.id, "a", "succeeded", result, [{ key, outcome: { ok: true, output: 1 } }], held)
          assert.strictEqual(done?.status, "succeeded")
          const kept = yield* runs.checkpoints("t", run.id)
          assert.deepStrictEqual(
            kept?.map((k) => [k.seq, k.calls, k.size, k.after?.key, k.after?.outcome]),
            [[2, 0, 2, undefined, undefined], [3, 1, 6, key, { ok: true, output: 1 }]],
          )
          const state = (yield* runs.checkpointState("t", run.id, undefined))?.state
          assert.deepStrictEqual(state && [state.seq, new TextDecoder().decode(state.snapshot), state.seal], [3, "before", "sealed-before"])
          assert.strictEqual((yield* calls.journal(run.id, key))?.state, "settled")
        }),
      )

      it.effect("a kept state is read back by seq or as the latest; a suspend keeps its state as the latest", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const run = newRun()
          yield* runs.insert(run)
          assert.deepStrictEqual(yield* runs.checkpointState("t", run.id, undefined), { run: (yield* runs.get("t", run.id))!, state: undefined })
          yield* runs.checkpoint(run.id, "a", bytes("s1"), "sealed-s1", { calls: 1, lastKey: `${run.id}:1`, keep: 10 })
          yield* runs.checkpoint(run.id, "a", bytes("s2"), "sealed-s2", { calls: 2, lastKey: `${run.id}:2`, keep: 10 })
          const text = (s: { readonly seq: number; readonly snapshot: Uint8Array; readonly seal: string | null } | undefined) =>
            s && [s.seq, new TextDecoder().decode(s.snapshot), s.seal]
          assert.deepStrictEqual(text((yield* runs.checkpointState("t", run.id, 1))?.state), [1, "s1", "sealed-s1"])
          assert.deepStrictEqual(text((yield* runs.checkpointState("t", run.id, undefined))?.state), [2, "s2", "sealed-s2"])
          assert.strictEqual((yield* runs.checkpointState("t", run.id, 7))?.state, undefined)
          assert.strictEqual(yield* runs.checkpointState("other", run.id, 1), undefined)
          yield* runs.suspend(run.id, "a", bytes("s3"), "sealed-s3", { calls: 2, lastKey: `${run.id}:2`, keep: 10 })
          const latest = yield* runs.checkpointState("t", run.id, undefined)
          assert.strictEqual(latest?.run.status, "suspended")
          assert.deepStrictEqual(text(latest?.state), [3, "s3", "sealed-s3"])
          assert.deepStrictEqual((yield* runs.checkpoints("t", run.id))?.map((k) => [k.seq, k.calls]), [[1, 1], [2, 2], [3, 2]])
          // A cancelled run keeps its checkpoints: it can still be forked.
          yield* runs.cancel("t", run.id, "suspended")
          assert.deepStrictEqual(text((yield* runs.checkpointState("t", run.id, undefined))?.state), [3, "s3", "sealed-s3"])
        }),
      )

      it.effect("a fork records where it came from, in its row and its run.created event", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const events = yield* EventStore
          const run = { ...newRun(), forkedFrom: { run: "source", checkpoint: 4 } }
          assert.deepStrictEqual((yield* runs.insert(run))?.forkedFrom, { run: "source", checkpoint: 4 })
          assert.deepStrictEqual((yield* runs.get("t", run.id))?.forkedFrom, { run: "source", checkpoint: 4 })
          const created = (yield* events.after(run.id, "0", 10))[0]
          assert.strictEqual(created?.type, "run.created")
          assert.deepStrictEqual(created?.data, { owner: "a", forkedFrom: { run: "source", checkpoint: 4 } })
          assert.strictEqual((yield* runs.insert(newRun()))?.forkedFrom, null)
        }),
      )

      it.effect("a run whose lease expired is taken over once, never from the replica still executing it", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const run = newRun("dead", 50)
          yield* runs.insert(run)
          yield* runs.checkpoint(run.id, "dead", bytes("cp"), "sealed-cp", { calls: 0, lastKey: undefined, keep: 10 })
          yield* elapse(120)
          assert.isTrue((yield* runs.get("t", run.id))?.leaseExpired)
          assert.isTrue((yield* runs.due(100, [])).orphaned)
          assert.strictEqual(yield* runs.takeOver("b", 60_000, [run.id]), undefined)
          assert.deepStrictEqual(yield* runs.renewLeases("dead", [run.id], 60_000), [{ id: run.id, control: null }])
          assert.strictEqual(yield* runs.takeOver("b", 60_000, []), undefined)
          yield* elapse(0)
          const other = newRun("gone", 50)
          yield* runs.insert(other)
          yield* elapse(120)
          const taken = yield* runs.takeOver("b", 60_000, [])
          assert.strictEqual(taken?.row.id, other.id)
          assert.strictEqual(taken?.previousOwner, "gone")
          assert.strictEqual(taken?.attempts, 1)
          assert.strictEqual(taken?.checkpoint, undefined)
          assert.strictEqual(taken?.seal, other.seal)
          assert.deepStrictEqual(yield* runs.renewLeases("gone", [other.id], 60_000), [])
        }),
      )

      it.effect("control requests reach the owner through lease renewal, and its reply through the row", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const run = newRun()
          yield* runs.insert(run)
          const control = { id: "c1", action: "suspend" as const }
          assert.strictEqual((yield* runs.requestControl("t", run.id, control))?.control?.id, "c1")
          assert.deepStrictEqual(yield* runs.renewLeases("a", [run.id], 60_000), [{ id: run.id, control }])
          const reply = { ...control, reply: { ok: false as const, kind: "Blocked", message: "busy", calls: [{ key: "k", path: "p" }] } }
          yield* runs.replyControl(run.id, "a", reply)
          assert.deepStrictEqual((yield* runs.get("t", run.id))?.control, reply)
        }),
      )

      it.effect("a cancel settles the run's calls and names the durable ones its tools must hear about", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          yield* runs.insert(run)
          yield* calls.started(run.id, "a", { key: "d", path: "jobs.run", mode: "durable", input: null })
          yield* calls.accepted(run.id, "d", { job: 1 }, { timeoutMs: 60_000, heartbeatTimeoutMs: undefined })
          yield* calls.started(run.id, "a", { key: "p", path: "slow.echo", mode: "plain", input: 1 })
          assert.deepStrictEqual(yield* calls.unsafe(run.id), [{ key: "p", path: "slow.echo" }])
          assert.strictEqual(yield* runs.cancel("t", run.id, "suspended"), undefined)
          const cancelled = yield* runs.cancel("t", run.id, { owner: "a" })
          assert.strictEqual(cancelled?.row.status, "cancelled")
          assert.deepStrictEqual(cancelled?.durable, [{ key: "d", path: "jobs.run", data: { job: 1 } }])
          assert.deepStrictEqual((yield* calls.pending([run.id])).get(run.id), undefined)
          assert.strictEqual(yield* calls.cancelled(run.id, "d"), undefined)
        }),
      )

      it.effect("events are read back in the order they were written, after a cursor", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const events = yield* EventStore
          const run = newRun()
          yield* runs.insert(run)
          yield* events.appendLogs(run.id, [{ index: 0, line: "one" }, { index: 1, line: "two" }], true)
          yield* events.append(run.id, "custom", { x: 1 })
          const all = yield* events.after(run.id, "0", 100)
          assert.deepStrictEqual(all.map((e) => e.type), ["run.created", "log", "log", "log.truncated", "custom"])
          assert.deepStrictEqual(all.map((e) => e.id), ["1", "2", "3", "4", "5"])
          assert.deepStrictEqual(all.slice(1, 3).map((e) => e.data), [{ line: "one" }, { line: "two" }])
          const later = yield* events.after(run.id, all[2]!.id, 2)
          assert.deepStrictEqual(later.map((e) => e.type), ["log.truncated", "custom"])
        }),
      )

      it.effect("a finished run's toolCalls keep every call of its journal, in the order they were admitted, with their locations", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const run = newRun()
          yield* runs.insert(run)
          for (const n of [2, 10, 1]) {
            const location = n === 10 ? undefined : { line: n, column: 3 }
            yield* calls.started(run.id, "a", { key: `${run.id}:${n}`, path: `t.c${n}`, mode: "plain", input: n, location })
          }
          // The program's Result knows call 2 only (it failed after a takeover, say): the journal adds 1 and 10.
          const listed = { path: "tools.t.c2", key: `${run.id}:2` }
          const done = yield* runs.finish(run.id, "a", "failed", { ok: false, error: { kind: "ExecutionFailure", message: "m" }, toolCalls: [listed] })
          assert.deepStrictEqual(done?.result?.toolCalls, [
            { path: "tools.t.c1", key: `${run.id}:1` },
            listed,
            { path: "tools.t.c10", key: `${run.id}:10` },
          ])
          // The answer lists where each call was made: the row that ends the run carries that.
          assert.deepStrictEqual(
            [...(done?.locations ?? new Map())].sort(([a], [b]) => a.localeCompare(b)),
            [[`${run.id}:1`, { line: 1, column: 3 }], [`${run.id}:2`, { line: 2, column: 3 }]],
          )
        }),
      )

      it.effect("each run numbers its own events; what a run produced is written once, however often it is reported", () =>
        Effect.gen(function* () {
          const runs = yield* RunStore
          const calls = yield* CallStore
          const events = yield* EventStore
          const [a, b] = [newRun(), newRun()]
          yield* runs.insert(a)
          yield* runs.insert(b)
          yield* events.appendLogs(a.id, [{ index: 0, line: "a0" }], false)
          yield* events.appendLogs(b.id, [{ index: 0, line: "b0" }], false)
          yield* calls.started(a.id, "a", { key: "k1", path: "slow.read", mode: "idempotent", input: 1 })
          yield* calls.settled(a.id, [{ key: "k1", outcome: { ok: true, output: 2 } }])
          // A replica that took the run over from its last checkpoint logs line 0 again, then goes on.
          yield* events.appendLogs(a.id, [{ index: 0, line: "a0" }, { index: 1, line: "a1" }], true)
          yield* events.appendLogs(a.id, [], true)
          yield* calls.settled(a.id, [{ key: "k1", outcome: { ok: true, output: 2 } }])
          // An idempotent call sent again is a new attempt, and says so.
          yield* calls.started(a.id, "a", { key: "k1", path: "slow.read", mode: "idempotent", input: 1 })
          const history = yield* events.after(a.id, "0", 100)
          assert.deepStrictEqual(
            history.map((e) => [e.id, e.type, (e.data as { line?: string; attempt?: number }).line ?? (e.data as { attempt?: number }).attempt ?? null]),
            [
              ["1", "run.created", null],
              ["2", "log", "a0"],
              ["3", "call.started", 1],
              ["4", "call.settled", null],
              ["5", "log", "a1"],
              ["6", "log.truncated", null],
              ["7", "call.started", 2],
            ],
          )
          assert.deepStrictEqual((yield* events.after(b.id, "0", 100)).map((e) => [e.id, e.type]), [["1", "run.created"], ["2", "log"]])
        }),
      )

      it.effect("idempotency keys: claimed once, replayed for the same request, refused for another", () =>
        Effect.gen(function* () {
          const store = yield* IdempotencyStore
          const key = `k-${++counter}`
          assert.strictEqual((yield* store.begin("t", key, "f1"))._tag, "Claimed")
          assert.strictEqual((yield* store.begin("t", key, "f1"))._tag, "InProgress")
          yield* store.complete("t", key, { status: 201, contentType: "application/json", body: "{}" })
          assert.deepStrictEqual(yield* store.begin("t", key, "f1"), { _tag: "Replay", status: 201, contentType: "application/json", body: "{}" })
          assert.strictEqual((yield* store.begin("t", key, "f2"))._tag, "Mismatch")
          assert.strictEqual((yield* store.begin("other", key, "f2"))._tag, "Claimed")
          yield* store.release("other", key)
          assert.strictEqual((yield* store.begin("other", key, "f3"))._tag, "Claimed")
        }),
      )

      it.effect("a tool path is a tool or a namespace, never both; a replaced tool keeps its secret", () =>
        Effect.gen(function* () {
          const tools = yield* ToolStore
          const tenant = `tools-${++counter}`
          const tool = { description: "d", input: { type: "object" }, url: "http://127.0.0.1/x", mode: "plain" as const }
          assert.strictEqual(yield* tools.put(tenant, "orders.lookup", tool, "s1"), "s1")
          assert.strictEqual(yield* tools.put(tenant, "orders.lookup", { ...tool, description: "e" }, "s2"), "s1")
          const clash = yield* Effect.flip(tools.put(tenant, "orders", tool, "s3"))
          assert.strictEqual(clash._tag === "ToolPathConflict" ? clash.existing : clash._tag, "orders.lookup")
          yield* tools.putNamespace(tenant, "orders", "Orders")
          const all = yield* tools.all(tenant)
          assert.deepStrictEqual(all.tools.map((t) => [t.path, t.description, t.secret, t.output]), [["orders.lookup", "e", "s1", undefined]])
          assert.deepStrictEqual(all.namespaces, [{ path: "orders", description: "Orders" }])
          assert.isTrue(yield* tools.remove(tenant, "orders.lookup"))
          assert.isFalse(yield* tools.remove(tenant, "orders.lookup"))
          assert.isTrue(yield* tools.removeNamespace(tenant, "orders"))
          assert.isFalse(yield* tools.removeNamespace(tenant, "orders"))
          assert.deepStrictEqual((yield* tools.all(tenant)).namespaces, [])
        }),
      )

      it.effect("tools read for many tenants at once: each read gets its own tenant's, an unknown tenant none", () =>
        Effect.gen(function* () {
          const tools = yield* ToolStore
          const tenants = Array.from({ length: 5 }, (_, i) => `reads-${++counter}-${i}`)
          const tool = { description: "d", input: { type: "object" }, url: "http://127.0.0.1/x", mode: "plain" as const }
          for (const [i, tenant] of tenants.entries()) {
            for (let n = 0; n < i; n++) yield* tools.put(tenant, `t${n}.go`, tool, `s-${tenant}-${n}`)
            if (i > 0) yield* tools.putNamespace(tenant, "t0", `ns of ${tenant}`)
          }
          // Concurrent, with repeats, so that the Postgres store reads those that wait on the first in one statement.
          const asked = [...tenants, ...tenants, "reads-nobody"]
          const read = yield* Effect.forEach(asked, (tenant) => tools.all(tenant), { concurrency: "unbounded" })
          for (const [i, tenant] of asked.entries()) {
            const n = tenants.indexOf(tenant)
            assert.deepStrictEqual(read[i]!.tools.map((t) => t.secret), Array.from({ length: Math.max(n, 0) }, (_, k) => `s-${tenant}-${k}`))
            assert.deepStrictEqual(read[i]!.namespaces, n > 0 ? [{ path: "t0", description: `ns of ${tenant}` }] : [])
          }
        }),
      )

      it.effect("API keys are found by hash until revoked", () =>
        Effect.gen(function* () {
          const keys = yield* KeyStore
          const id = `id-${++counter}`
          yield* keys.insert({ hash: `hash-${id}`, id, tenant: "t", name: null })
          assert.strictEqual(yield* keys.tenantOf(`hash-${id}`), "t")
          assert.isTrue(yield* keys.anyActive)
          assert.isTrue(yield* keys.revoke(id))
          assert.isFalse(yield* keys.revoke(id))
          assert.strictEqual(yield* keys.tenantOf(`hash-${id}`), undefined)
          assert.isTrue((yield* keys.list).some((k) => k.id === id && k.revoked))
        }),
      )
    })
  })
}
