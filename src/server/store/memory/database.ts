/**
 * The tables of the in-memory store: what the Postgres schema (`migrations/`) holds, as maps in this process.
 * Every store operation reads the clock once and then changes the tables without yielding, so each is atomic as
 * the Postgres statement it stands for is. Time is Effect's `Clock`: tests move leases and timeouts with
 * `TestClock`.
 */
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import type { Limits, RunStatus, SourceLocation } from "../../api.ts"
import { storable } from "../../json-guard.ts"
import type { JournalEntry } from "../calls.ts"
import type { Control, ForkedFrom } from "../runs.ts"
import type { ToolRow } from "../tools.ts"

export interface RunRecord {
  readonly id: string
  readonly tenant: string
  status: RunStatus
  readonly code: string
  readonly limits: Limits
  readonly tools: ReadonlyArray<string> | null
  result: unknown
  owner: string | null
  leaseExpiresAt: number | null
  control: Control | null
  version: number
  readonly seq: number
  readonly requestHash: string | null
  readonly seed: string | null
  readonly forkedFrom: ForkedFrom | null
  /** The row's seal (row-seal.ts), renewed with each saved state. */
  seal: string | null
  readonly createdAt: number
  updatedAt: number
  snapshot: Uint8Array | null
  autoResume: boolean
  wake: boolean
  recoveryAttempts: number
  /** The `seq` of the run's last checkpoint. */
  checkpointSeq: number
}

export interface CallRecord {
  readonly runId: string
  readonly key: string
  readonly path: string
  readonly mode: string
  readonly input: unknown
  state: "queued" | "running" | "started" | "settled"
  attempts: number
  callbackHash: string | null
  location: SourceLocation | null
  data: unknown
  outcome: unknown
  deadlineAt: number | null
  heartbeatMs: number | null
  heartbeatAt: number | null
  readonly createdAt: number
  /** Insertion order: calls made at the same millisecond are listed as Postgres lists them (by key). */
  readonly order: number
}

/** A call as the journal answers it (`CallStore.journal`). */
export const journalEntry = (c: CallRecord): JournalEntry => ({
  path: c.path,
  mode: c.mode,
  input: c.input,
  state: c.state,
  data: c.data ?? null,
  outcome: c.outcome ?? null,
})

export interface EventRecord {
  /** The event's number within its run (1, 2, 3 …). */
  readonly seq: number
  readonly runId: string
  readonly type: string
  readonly data: unknown
  readonly at: number
  readonly key: string | undefined
}

export interface KeyRecord {
  readonly hash: string
  readonly id: string
  readonly tenant: string
  readonly name: string | null
  readonly createdAt: number
  revokedAt: number | null
}

export interface IdempotencyRecord {
  fingerprint: string
  status: number | null
  contentType: string | null
  body: string | null
  createdAt: number
  updatedAt: number
}

/** A state kept for forks (migrations/0008_checkpoints.ts). */
export interface CheckpointRecord {
  readonly seq: number
  readonly calls: number
  readonly afterKey: string | undefined
  readonly snapshot: Uint8Array
  readonly size: number
  readonly seal: string | null
  readonly createdAt: number
}

export interface Tables {
  readonly runs: Map<string, RunRecord>
  /** By run id, oldest first. */
  readonly checkpoints: Map<string, Array<CheckpointRecord>>
  /** By `callKey(runId, key)`. */
  readonly calls: Map<string, CallRecord>
  /** By run id, in order. */
  readonly events: Map<string, Array<EventRecord>>
  /** By `tenantKey(tenant, path)`. */
  /** `previousUntil`: when the rotated-out `previousSecret` stops signing. */
  readonly tools: Map<string, ToolRow & { readonly tenant: string; readonly previousUntil?: number }>
  readonly namespaces: Map<string, { readonly tenant: string; readonly path: string; readonly description: string }>
  /** Each tenant's version of its tools and namespaces (migrations/0017): raised by every change of either; 0 when absent. */
  readonly toolVersions: Map<string, number>
  readonly keys: Map<string, KeyRecord>
  readonly idempotency: Map<string, IdempotencyRecord>
  /** The last value of each sequence (`runs.seq`, the calls' insertion order). */
  readonly sequences: { run: number; call: number }
}

export const callKey = (runId: string, key: string): string => `${runId}\u0000${key}`
export const tenantKey = (tenant: string, name: string): string => `${tenant}\u0000${name}`

/** The run, while it is running under `owner`: what every write of an owner is conditional on. */
export const ownedRun = (tables: Tables, id: string, owner: string): RunRecord | undefined => {
  const r = tables.runs.get(id)
  return r !== undefined && r.owner === owner && r.status === "running" ? r : undefined
}

/** A value as a `jsonb` column gives it back: JSON only, text Postgres can store, a copy. */
export const jsonb = (value: unknown): unknown => (value === undefined ? null : JSON.parse(JSON.stringify(storable(value))))

/** Appends the run's next event; one whose key the run has an event for already is skipped. */
export const appendEvent = (tables: Tables, runId: string, type: string, data: unknown, at: number, key?: string): void => {
  const events = tables.events.get(runId) ?? []
  if (key !== undefined && events.some((e) => e.key === key)) return
  events.push({ seq: events.length + 1, runId, type, data: jsonb(data), at, key })
  tables.events.set(runId, events)
}

export class MemoryDatabase extends Context.Service<MemoryDatabase, Tables>()("codemode/server/MemoryDatabase") {
  /** Empty tables: each layer built is a database of its own. */
  static readonly layer: Layer.Layer<MemoryDatabase> = Layer.sync(MemoryDatabase, () => ({
    runs: new Map(),
    checkpoints: new Map(),
    calls: new Map(),
    events: new Map(),
    tools: new Map(),
    namespaces: new Map(),
    toolVersions: new Map(),
    keys: new Map(),
    idempotency: new Map(),
    sequences: { run: 0, call: 0 },
  }))
}
