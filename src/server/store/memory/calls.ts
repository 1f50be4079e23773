/** `CallStore` in memory: the same decisions as `postgres/calls.ts`. A call's `data` is undefined until accepted. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { PendingCall, SourceLocation } from "../../api.ts"
import { type CallWhere, CallStore, type NewCall, type SettledCall } from "../calls.ts"
import { CANCELLED } from "../runs.ts"
import { callEventKey } from "../events.ts"
import { appendEvent, type CallRecord, callKey, journalEntry, jsonb, MemoryDatabase, ownedRun, type Tables } from "./database.ts"

/** A started durable call past its deadline or heartbeat (`expire`; RunStore.due asks whether there is one). */
export const expiring = (c: CallRecord, now: number): boolean =>
  c.state === "started" &&
  ((c.deadlineAt !== null && c.deadlineAt < now) || (c.heartbeatAt !== null && c.heartbeatMs !== null && c.heartbeatAt + c.heartbeatMs < now))

/** Postgres lists calls by `created_at, key`; statements are microseconds apart, so that is insertion order. */
const inOrder = (calls: Iterable<CallRecord>) => [...calls].sort((a, b) => a.order - b.order)

/** Wakes the auto-suspended run of a call that just settled. */
const wake = (tables: Tables, runId: string): void => {
  const r = tables.runs.get(runId)
  if (r !== undefined && r.status === "suspended" && r.autoResume) r.wake = true
}

const settle = (tables: Tables, c: CallRecord, outcome: unknown, now: number) => {
  c.state = "settled"
  c.outcome = jsonb(outcome)
  appendEvent(tables, c.runId, "call.settled", { key: c.key, outcome: c.outcome }, now, callEventKey("call.settled", c.key))
}

/** A call begins, or begins again: recorded running, with its `call.started` event. */
export const beginCall = (tables: Tables, runId: string, call: NewCall, now: number) => {
  let c = tables.calls.get(callKey(runId, call.key))
  if (c === undefined) {
    c = {
      runId,
      key: call.key,
      path: call.path,
      mode: call.mode,
      input: jsonb(call.input ?? null),
      state: "running",
      attempts: 1,
      callbackHash: call.callbackHash ?? null,
      location: call.location ?? null,
      data: undefined,
      outcome: undefined,
      deadlineAt: null,
      heartbeatMs: null,
      heartbeatAt: null,
      createdAt: now,
      order: ++tables.sequences.call,
    }
    tables.calls.set(callKey(runId, call.key), c)
  } else {
    c.state = "running"
    c.attempts++
    c.callbackHash = call.callbackHash ?? c.callbackHash
    c.location = call.location ?? c.location
  }
  const where = c.location === null ? {} : { location: c.location }
  const data = { key: call.key, path: call.path, input: call.input ?? null, attempt: c.attempts, ...where }
  appendEvent(tables, runId, "call.started", data, now, callEventKey("call.started", call.key, c.attempts))
}

/** `CallStore.settled` in one step, which `RunStore.finish` takes too. */
export const recordSettled = (tables: Tables, runId: string, calls: ReadonlyArray<SettledCall>, now: number): void => {
  for (const { key, outcome, attempt } of calls) {
    if (attempt !== undefined) beginCall(tables, runId, attempt, now)
    const c = tables.calls.get(callKey(runId, key))
    if (c !== undefined) settle(tables, c, outcome, now)
  }
}

export const layer: Layer.Layer<CallStore, never, MemoryDatabase> = Layer.effect(
  CallStore,
  // Long because it is the whole contract over one set of tables: one short member per operation, each
  // one synchronous step (one "statement").
  Effect.gen(function* () {
    const tables = yield* MemoryDatabase
    const atomically = <A>(f: (now: number) => A) => Effect.map(Clock.currentTimeMillis, f)
    const find = (runId: string, key: string) => tables.calls.get(callKey(runId, key))
    const durable = (where: CallWhere) =>
      inOrder(tables.calls.values()).filter(
        (c) =>
          c.mode === "durable" &&
          ("callbackHash" in where
            ? c.callbackHash === where.callbackHash
            : c.key === where.key && tables.runs.get(c.runId)?.tenant === where.tenant),
      )
    return CallStore.of({
      pending: (runIds) =>
        Effect.sync(() => {
          const out = new Map<string, Array<PendingCall>>()
          for (const c of inOrder(tables.calls.values())) {
            if (!runIds.includes(c.runId) || c.state === "settled") continue
            const list = out.get(c.runId) ?? []
            list.push({ key: c.key, path: c.path, state: c.state, ...(c.location === null ? {} : { location: c.location }) })
            out.set(c.runId, list)
          }
          return out
        }),
      locations: (runIds) =>
        Effect.sync(() => {
          const out = new Map<string, Map<string, SourceLocation>>()
          for (const c of tables.calls.values()) {
            if (!runIds.includes(c.runId) || c.location === null) continue
            const byKey = out.get(c.runId) ?? new Map<string, SourceLocation>()
            byKey.set(c.key, c.location)
            out.set(c.runId, byKey)
          }
          return out
        }),
      started: (runId, owner, call: NewCall) =>
        atomically((now) => {
          if (ownedRun(tables, runId, owner) === undefined) return false
          beginCall(tables, runId, call, now)
          return true
        }),
      accepted: (runId, key, data, timing) =>
        atomically((now) => {
          const c = find(runId, key)
          if (c === undefined || c.state === "settled") return
          c.state = "started"
          c.data = jsonb(data ?? null)
          c.deadlineAt = timing.timeoutMs === undefined ? null : now + timing.timeoutMs
          c.heartbeatMs = timing.heartbeatTimeoutMs ?? null
          c.heartbeatAt = now
          appendEvent(tables, runId, "call.accepted", { key, data: c.data }, now, callEventKey("call.accepted", key))
        }),
      settled: (runId, calls) => atomically((now) => recordSettled(tables, runId, calls, now)),
      journal: (runId, key) =>
        Effect.sync(() => {
          const c = find(runId, key)
          return c === undefined ? undefined : journalEntry(c)
        }),
      unsafe: (runId) =>
        Effect.sync(() =>
          inOrder(tables.calls.values())
            .filter((c) => c.runId === runId && c.state === "running" && (c.mode === "plain" || c.mode === "durable"))
            .map((c) => ({ key: c.key, path: c.path })),
        ),
      cancelled: (runId, key) =>
        atomically((now) => {
          const c = find(runId, key)
          if (c === undefined || c.mode !== "durable" || c.state === "settled") return undefined
          settle(tables, c, CANCELLED, now)
          return { key: c.key, path: c.path, data: c.data ?? null }
        }),
      heartbeat: (where) =>
        atomically((now) => {
          const matches = durable(where)
          const beating = matches.filter((c) => c.state === "started")
          for (const c of beating) c.heartbeatAt = now
          const c = beating[0] ?? matches[0]
          return c === undefined ? undefined : { runId: c.runId, key: c.key, state: c.state }
        }),
      expire: atomically((now) => {
        const runs = new Set<string>()
        const expired = inOrder(tables.calls.values()).filter((c) => expiring(c, now))
        for (const c of expired.slice(0, 100)) {
          const why =
            c.deadlineAt !== null && c.deadlineAt < now
              ? "its job did not complete within the tool's timeoutMs"
              : `its job sent no heartbeat for ${c.heartbeatMs} ms`
          settle(tables, c, { ok: false, error: { kind: "ToolFailure", message: why } }, now)
          wake(tables, c.runId)
          runs.add(c.runId)
        }
        return [...runs]
      }),
      outcome: (runId, key) =>
        Effect.sync(() => {
          const c = find(runId, key)
          return c === undefined ? undefined : { state: c.state, outcome: c.outcome ?? null }
        }),
      complete: (where, outcome) =>
        atomically((now) => {
          const matches = durable(where)
          const open = matches.filter((c) => c.state !== "settled")
          for (const c of open) {
            settle(tables, c, outcome, now)
            wake(tables, c.runId)
          }
          if (open[0] !== undefined) return { runId: open[0].runId, key: open[0].key, outcome, completed: true }
          const done = matches.find((c) => c.state === "settled")
          return done === undefined ? undefined : { runId: done.runId, key: done.key, outcome: done.outcome, completed: false }
        }),
    })
  }),
)
