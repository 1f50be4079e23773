/** `RunStore` in memory: the same decisions as `postgres/runs.ts`, each made in one synchronous step. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Result } from "../../api.ts"
import {
  type AutoSuspend,
  CANCELLED,
  type CancelledCall,
  type CancelWhere,
  type CheckpointAt,
  type Control,
  createdData,
  type EndedRun,
  endedEvents,
  type ListQuery,
  type NewRun,
  type RunRow,
  RunStore,
  withJournal,
} from "../runs.ts"
import { CLAIM_JOURNAL_KEYS, type JournalEntry, type RecordedCalls } from "../calls.ts"
import { appendEvent, callKey, journalEntry, jsonb, MemoryDatabase, ownedRun, type RunRecord, type Tables } from "./database.ts"
import { beginCall, expiring, recordSettled } from "./calls.ts"
import { ToolsChanged } from "../tools.ts"
import { currentOf, versionOf } from "./tools.ts"

/**
 * A running run whose lease expired, not one of `executing` (this replica's own): what takeOver takes, and cancel
 * "orphaned".
 */
const orphaned = (r: RunRecord, now: number, executing: ReadonlyArray<string>): boolean =>
  r.status === "running" && r.leaseExpiresAt !== null && r.leaseExpiresAt < now && !executing.includes(r.id)

const toRow = (r: RunRecord, now: number): RunRow => ({
  id: r.id,
  tenant: r.tenant,
  status: r.status,
  code: r.code,
  limits: r.limits,
  tools: r.tools,
  result: r.result as Result | null,
  owner: r.owner,
  leaseExpired: r.leaseExpiresAt !== null && r.leaseExpiresAt < now,
  control: r.control,
  version: r.version,
  seq: String(r.seq),
  requestHash: r.requestHash,
  seed: r.seed,
  forkedFrom: r.forkedFrom === null ? null : { ...r.forkedFrom },
  createdAt: new Date(r.createdAt),
  updatedAt: new Date(r.updatedAt),
})

/** The fields every change of a run's status resets. */
const release = (r: RunRecord, now: number): void => {
  r.owner = null
  r.leaseExpiresAt = null
  r.control = null
  r.version++
  r.updatedAt = now
}

const callsOf = (tables: Tables, runId: string) => [...tables.calls.values()].filter((c) => c.runId === runId)

export const layer: Layer.Layer<RunStore, never, MemoryDatabase> = Layer.effect(
  RunStore,
  // Long because it is the whole contract over one set of tables: one short member per operation, each
  // one synchronous step (one "statement").
  Effect.gen(function* () {
    const tables = yield* MemoryDatabase
    /** `f` at one instant, without yielding: one statement. */
    const atomically = <A>(f: (now: number) => A) => Effect.map(Clock.currentTimeMillis, f)
    /** `atomically`, for a new run only while its tenant's registrations are at the version it started with. */
    const current = <A>(run: NewRun | EndedRun, f: (now: number) => A) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        run.toolsVersion !== undefined && run.toolsVersion !== versionOf(tables, run.tenant)
          ? Effect.fail(new ToolsChanged({ tenant: run.tenant }))
          : Effect.succeed(f(now)),
      )
    const madeCallTo = (runId: string, path: string) => {
      for (const c of tables.calls.values()) if (c.runId === runId && c.path === path) return true
      return false
    }

    /** The run's journal as a claim reads it (`Claimed.journal`). */
    const journalOf = (runId: string): RecordedCalls | undefined => {
      const journal = new Map<string, JournalEntry | null>()
      for (const c of tables.calls.values()) {
        if (c.runId !== runId) continue
        if (journal.size === CLAIM_JOURNAL_KEYS) return undefined
        journal.set(c.key, c.state === "settled" ? null : journalEntry(c))
      }
      return journal
    }

    const claimIf = (r: RunRecord | undefined, owner: string, leaseMs: number, event: Record<string, unknown>, known?: number) =>
      atomically((now) => {
        if (r === undefined || r.status !== "suspended") return undefined
        r.status = "running"
        release(r, now)
        r.owner = owner
        r.leaseExpiresAt = now + leaseMs
        r.autoResume = false
        r.wake = false
        appendEvent(tables, r.id, "run.resumed", { owner, ...event }, now)
        return {
          row: toRow(r, now),
          snapshot: r.snapshot ?? new Uint8Array(),
          seal: r.seal,
          journal: journalOf(r.id),
          registrations: known !== undefined && versionOf(tables, r.tenant) === known ? undefined : currentOf(tables, r.tenant, now),
        }
      })

    const newRecord = (run: Omit<NewRun, "leaseMs">, now: number): RunRecord => ({
      id: run.id,
      tenant: run.tenant,
      status: "running",
      code: run.code,
      limits: jsonb(run.limits) as RunRecord["limits"],
      tools: run.tools === null ? null : [...run.tools],
      result: null,
      owner: run.owner,
      leaseExpiresAt: null,
      control: null,
      version: 0,
      seq: ++tables.sequences.run,
      requestHash: run.requestHash,
      seed: run.seed,
      forkedFrom: run.forkedFrom === undefined ? null : { ...run.forkedFrom },
      seal: run.seal,
      createdAt: now,
      updatedAt: now,
      snapshot: null,
      autoResume: false,
      wake: false,
      recoveryAttempts: 0,
      checkpointSeq: 0,
    })

    /** Keeps `snapshot` as the run's next checkpoint, dropping its oldest past `at.keep`. */
    const keep = (r: RunRecord, snapshot: Uint8Array, seal: string | null, at: CheckpointAt, now: number) => {
      const seq = ++r.checkpointSeq
      const kept = tables.checkpoints.get(r.id) ?? []
      kept.push({ seq, calls: at.calls, afterKey: at.lastKey, snapshot: snapshot.slice(), size: snapshot.length, seal, createdAt: now })
      tables.checkpoints.set(r.id, kept.filter((k) => k.seq > seq - at.keep))
    }

    return RunStore.of({
      insert: (run: NewRun) =>
        current(run, (now) => {
          if (tables.runs.has(run.id)) return undefined
          const r = newRecord(run, now)
          r.leaseExpiresAt = now + run.leaseMs
          tables.runs.set(run.id, r)
          appendEvent(tables, run.id, "run.created", createdData(run), now)
          if (run.call !== undefined) beginCall(tables, run.id, run.call, now)
          return toRow(r, now)
        }),
      insertEnded: (run: EndedRun) =>
        current(run, (now) => {
          if (tables.runs.has(run.id)) return undefined
          const r = newRecord(run, now)
          r.status = run.status
          r.result = jsonb(run.result)
          release(r, now)
          tables.runs.set(run.id, r)
          for (const e of endedEvents(run)) appendEvent(tables, run.id, e.type, e.data, now, e.key)
          return toRow(r, now)
        }),
      get: (tenant, id) =>
        atomically((now) => {
          const r = tables.runs.get(id)
          return r !== undefined && r.tenant === tenant ? toRow(r, now) : undefined
        }),
      list: (tenant, query: ListQuery) =>
        atomically((now) =>
          [...tables.runs.values()]
            .filter(
              (r) =>
                r.tenant === tenant &&
                (query.status === undefined || r.status === query.status) &&
                (query.tool === undefined || madeCallTo(r.id, query.tool)) &&
                (query.since === undefined || r.createdAt >= query.since.getTime()) &&
                (query.until === undefined || r.createdAt < query.until.getTime()) &&
                (query.before === undefined || r.seq < Number(query.before)),
            )
            .sort((a, b) => b.seq - a.seq)
            .slice(0, query.limit)
            .map((r) => toRow(r, now)),
        ),
      countByStatus: Effect.sync(() => {
        const counts = new Map<string, number>()
        for (const r of tables.runs.values()) counts.set(r.status, (counts.get(r.status) ?? 0) + 1)
        return counts
      }),
      finish: (id, owner, status, result, settled = [], checkpoint) =>
        atomically((now) => {
          const r = ownedRun(tables, id, owner)
          if (r === undefined) return undefined
          recordSettled(tables, id, settled, now)
          if (checkpoint !== undefined) keep(r, checkpoint.snapshot, checkpoint.seal, checkpoint.at, now)
          const journal = [...tables.calls.values()].filter((c) => c.runId === id)
          r.status = status
          r.result = jsonb(withJournal(result, journal))
          r.snapshot = null
          release(r, now)
          appendEvent(tables, id, `run.${status}`, { owner }, now)
          const locations = new Map(journal.flatMap((c) => (c.location === null ? [] : [[c.key, c.location] as const])))
          return { ...toRow(r, now), locations }
        }),
      suspend: (id, owner, snapshot, seal, at, auto?: AutoSuspend) =>
        atomically((now) => {
          const r = ownedRun(tables, id, owner)
          if (r === undefined) return undefined
          const waiting = auto?.waiting ?? []
          r.wake =
            auto?.wake === true ||
            (auto !== undefined && waiting.some((key) => tables.calls.get(callKey(id, key))?.state === "settled"))
          r.status = "suspended"
          r.snapshot = snapshot.slice()
          r.seal = seal
          keep(r, snapshot, seal, at, now)
          r.autoResume = auto !== undefined
          release(r, now)
          for (const c of callsOf(tables, id)) if (c.state === "running") c.state = "queued"
          appendEvent(tables, id, "run.suspended", { owner, bytes: snapshot.length, ...(auto === undefined ? {} : { auto: true }) }, now)
          return toRow(r, now)
        }),
      pin: (tenant, id) =>
        Effect.sync(() => {
          const r = tables.runs.get(id)
          if (r === undefined || r.tenant !== tenant || r.status !== "suspended") return
          r.autoResume = false
          r.wake = false
        }),
      checkpoint: (id, owner, snapshot, seal, at) =>
        atomically((now) => {
          const r = ownedRun(tables, id, owner)
          if (r === undefined) return
          r.snapshot = snapshot.slice()
          r.seal = seal
          keep(r, snapshot, seal, at, now)
        }),
      checkpoints: (tenant, id) =>
        Effect.sync(() => {
          const r = tables.runs.get(id)
          if (r === undefined || r.tenant !== tenant) return undefined
          return (tables.checkpoints.get(id) ?? []).map((k) => {
            const c = k.afterKey === undefined ? undefined : tables.calls.get(callKey(id, k.afterKey))
            return {
              seq: k.seq,
              calls: k.calls,
              size: k.size,
              createdAt: new Date(k.createdAt),
              after: c === undefined ? undefined : { key: c.key, path: c.path, input: c.input, outcome: c.outcome },
            }
          })
        }),
      checkpointState: (tenant, id, seq) =>
        atomically((now) => {
          const r = tables.runs.get(id)
          if (r === undefined || r.tenant !== tenant) return undefined
          const kept = tables.checkpoints.get(id) ?? []
          const k = seq === undefined ? kept[kept.length - 1] : kept.find((k) => k.seq === seq)
          return { run: toRow(r, now), state: k === undefined ? undefined : { seq: k.seq, snapshot: k.snapshot.slice(), seal: k.seal } }
        }),
      pruneCheckpoints: (ms) =>
        atomically((now) => {
          let pruned = 0
          for (const [id, kept] of tables.checkpoints) {
            const young = kept.filter((k) => k.createdAt >= now - ms)
            pruned += kept.length - young.length
            tables.checkpoints.set(id, young)
          }
          return pruned
        }),
      claim: (tenant, id, owner, leaseMs, known) =>
        Effect.suspend(() => {
          const r = tables.runs.get(id)
          return claimIf(r?.tenant === tenant ? r : undefined, owner, leaseMs, {}, known)
        }),
      due: (limit, executing) =>
        atomically((now) => {
          const runs = [...tables.runs.values()]
          return {
            wakeable: runs
              .filter((r) => r.status === "suspended" && r.wake)
              .sort((a, b) => a.updatedAt - b.updatedAt)
              .slice(0, limit)
              .map((r) => ({ id: r.id, tenant: r.tenant })),
            expiring: [...tables.calls.values()].some((c) => expiring(c, now)),
            orphaned: runs.some((r) => orphaned(r, now, executing)),
          }
        }),
      claimWoken: (id, owner, leaseMs) =>
        Effect.suspend(() => {
          const r = tables.runs.get(id)
          return claimIf(r?.wake === true ? r : undefined, owner, leaseMs, { auto: true })
        }),
      takeOver: (owner, leaseMs, executing) =>
        atomically((now) => {
          const r = [...tables.runs.values()]
            .filter((r) => orphaned(r, now, executing))
            .sort((a, b) => a.leaseExpiresAt! - b.leaseExpiresAt!)[0]
          if (r === undefined) return undefined
          const previousOwner = r.owner
          r.owner = owner
          r.leaseExpiresAt = now + leaseMs
          r.control = null
          r.recoveryAttempts++
          r.version++
          r.updatedAt = now
          appendEvent(tables, r.id, "run.recovered", { owner, from: previousOwner, attempt: r.recoveryAttempts }, now)
          const checkpoint = r.snapshot ?? undefined
          return { row: toRow(r, now), snapshot: checkpoint ?? new Uint8Array(), seal: r.seal, checkpoint, attempts: r.recoveryAttempts, previousOwner }
        }),
      cancel: (tenant, id, where: CancelWhere) =>
        atomically((now) => {
          const r = tables.runs.get(id)
          if (r === undefined || r.tenant !== tenant) return undefined
          const applies =
            where === "suspended"
              ? r.status === "suspended"
              : where === "orphaned"
                ? orphaned(r, now, [])
                : r.status === "running" && r.owner === where.owner
          if (!applies) return undefined
          r.status = "cancelled"
          r.snapshot = null
          r.autoResume = false
          r.wake = false
          release(r, now)
          const durable: Array<CancelledCall> = []
          for (const c of callsOf(tables, id)) {
            if (c.state === "settled") continue
            c.state = "settled"
            c.outcome = jsonb(CANCELLED)
            if (c.mode === "durable" && c.data !== undefined) durable.push({ key: c.key, path: c.path, data: c.data })
          }
          appendEvent(tables, id, "run.cancelled", {}, now)
          return { row: toRow(r, now), durable }
        }),
      requestControl: (tenant, id, control: Control) =>
        atomically((now) => {
          const r = tables.runs.get(id)
          if (r === undefined || r.tenant !== tenant || r.status !== "running") return undefined
          r.control = jsonb(control) as Control
          return toRow(r, now)
        }),
      replyControl: (id, owner, control) =>
        Effect.sync(() => {
          const r = tables.runs.get(id)
          if (r !== undefined && r.owner === owner) r.control = jsonb(control) as Control
        }),
      renewLeases: (owner, ids, leaseMs) =>
        atomically((now) =>
          ids.flatMap((id) => {
            const r = ownedRun(tables, id, owner)
            if (r === undefined) return []
            r.leaseExpiresAt = now + leaseMs
            return [{ id, control: r.control }]
          }),
        ),
    })
  }),
)
