/**
 * `RunStore`: the contract for runs — their rows, ownership (leases, claims, takeovers) and control requests.
 * The store decides every race (style guide, after DBOS): a run is created once, claimed once, and finished only
 * by the replica that still owns it, so two replicas can never both believe they won. Each state change writes
 * its event with it, so the history never disagrees with the row. Implemented by `postgres/runs.ts` and
 * `memory/runs.ts`.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as SqlError from "effect/sql/SqlError"
import { BlockingCall, type Limits, type Result, type RunStatus, type SourceLocation } from "../api.ts"
import type { NewCall, RecordedCalls, SettledCall } from "./calls.ts"
import type { Current, Registrations, ToolsChanged } from "./tools.ts"
import { type EventDraft, type LoggedLine, logEvents } from "./events.ts"

/** A suspend or cancel request for the replica executing a run, and that replica's answer. */
export const Control = Schema.Struct({
  id: Schema.String,
  action: Schema.Literals(["suspend", "cancel"]),
  reply: Schema.optionalKey(
    Schema.Union([
      Schema.Struct({ ok: Schema.Literal(true) }),
      Schema.Struct({
        ok: Schema.Literal(false),
        kind: Schema.String,
        message: Schema.String,
        calls: Schema.optionalKey(Schema.Array(BlockingCall)),
      }),
    ]),
  ),
})
export type Control = typeof Control.Type

export interface RunRow {
  readonly id: string
  readonly tenant: string
  readonly status: RunStatus
  readonly code: string
  readonly limits: Limits
  /** The `tools` filter of the request (paths or namespace prefixes); null = every registered tool. */
  readonly tools: ReadonlyArray<string> | null
  readonly result: Result | null
  readonly owner: string | null
  readonly leaseExpired: boolean
  readonly control: Control | null
  readonly version: number
  readonly seq: string
  /** The fingerprint of the request that created the run (`Runs.create`), null for runs made before it existed. */
  readonly requestHash: string | null
  /** The seed of the run's Math.random (null for runs made before it existed). */
  readonly seed: string | null
  /** The run and checkpoint a forked run started from (null for a run made from code). */
  readonly forkedFrom: ForkedFrom | null
  readonly createdAt: Date
  readonly updatedAt: Date
  /**
   * Where the program made each of its calls, by key (`calls.location`), when the row comes from `finish`: its
   * answer lists them, and the statement that ends the run reads them (no second round trip).
   */
  readonly locations?: ReadonlyMap<string, SourceLocation>
}

/** Where a forked run started: a kept checkpoint (its `seq`) of another run. */
export interface ForkedFrom {
  readonly run: string
  readonly checkpoint: number
}

/** What a claim of a suspended run hands to the replica that continues it. */
export interface Claimed {
  readonly row: RunRow
  readonly snapshot: Uint8Array
  /** The row's seal as stored (row-seal.ts): checked before the run executes. */
  readonly seal: string | null
  /** Its journal, read with the claim; undefined when it has more than `CLAIM_JOURNAL_KEYS` calls. */
  readonly journal: RecordedCalls | undefined
  /**
   * Its tenant's tools and namespaces (`ToolStore.current`), read with the claim: the run's `tools` filter selects
   * from them. Undefined when the claim was told the version the caller keeps (`known`) and they are still at it.
   */
  readonly registrations: Current | undefined
}

export interface NewRun {
  readonly id: string
  readonly tenant: string
  readonly code: string
  readonly limits: Limits
  readonly tools: ReadonlyArray<string> | null
  readonly owner: string
  readonly leaseMs: number
  readonly requestHash: string
  readonly seed: string
  /** A fork's origin: recorded with the run and in its `run.created` event. */
  readonly forkedFrom?: ForkedFrom | undefined
  /** The row's seal (row-seal.ts; null without a key), written with it and with each state it saves. */
  readonly seal: string | null
  /**
   * The version of its tenant's registrations (`ToolStore.current`) the run was started with: the row is written
   * only while they are still the tenant's, else the write fails with `ToolsChanged`. Undefined: not checked.
   */
  readonly toolsVersion?: number | undefined
  /**
   * The run's first call, begun as the run is recorded: written running in the same statement (CallStore.started),
   * its `call.started` event after `run.created`. A new run that must be recorded before its first call leaves
   * then costs one round trip, not two.
   */
  readonly call?: NewCall | undefined
}

/** A run that ended before its first host call and before any suspend, stored once with its history. */
export interface EndedRun extends Omit<NewRun, "leaseMs" | "call"> {
  readonly status: "succeeded" | "failed"
  readonly result: Result
  /** Its logged lines (at most the streamed number) and whether later lines are only in the Result. */
  readonly logs: ReadonlyArray<LoggedLine>
  readonly truncated: boolean
}

/** The data of a run's `run.created` event: who executes it, and where a fork came from. */
export const createdData = (run: Pick<NewRun, "owner" | "forkedFrom">): Record<string, unknown> => ({
  owner: run.owner,
  ...(run.forkedFrom === undefined ? {} : { forkedFrom: run.forkedFrom }),
})

/** A call's number within its run: the `<callId>` of its key `<runId>:<callId>`. */
const callNumber = (key: string): number => Number(key.slice(key.lastIndexOf(":") + 1))

/**
 * The Result with every call of the run's journal in `toolCalls`, in the order the run admitted them (by call
 * number). A call the Result lists stays as it is; the journal names a tool by its path, the Result as the program
 * wrote it (`tools.<path>`).
 */
export const withJournal = (result: Result, journal: ReadonlyArray<{ readonly key: string; readonly path: string }>): Result => {
  const listed = new Set(result.toolCalls.map((c) => c.key))
  const missing = journal.filter((c) => !listed.has(c.key)).map((c) => ({ path: `tools.${c.path}`, key: c.key }))
  if (missing.length === 0) return result
  const toolCalls = [...result.toolCalls, ...missing].sort((a, b) => callNumber(a.key) - callNumber(b.key))
  return { ...result, toolCalls }
}

/** The events of an ended run stored at once, in the order `insert`, `appendLogs` and `finish` would write them. */
export const endedEvents = (run: EndedRun): ReadonlyArray<EventDraft> => [
  { type: "run.created", data: createdData(run) },
  ...logEvents(run.logs, run.truncated),
  { type: `run.${run.status}`, data: { owner: run.owner } },
]

export interface ListQuery {
  readonly status?: RunStatus | undefined
  /** Only runs with a call to this tool path. */
  readonly tool?: string | undefined
  /** Only runs created at or after this time. */
  readonly since?: Date | undefined
  /** Only runs created before this time. */
  readonly until?: Date | undefined
  readonly limit: number
  /** Only runs older than this `seq`. */
  readonly before?: string | undefined
}

export type CancelWhere = "suspended" | "orphaned" | { readonly owner: string }

/** A durable call settled by a cancel: its tool is told (`cancel` webhook) with its data. */
export interface CancelledCall {
  readonly key: string
  readonly path: string
  readonly data: unknown
}

/**
 * A running run whose owner stopped renewing its lease, now taken by this replica. Its journal is read call by
 * call: from a checkpoint, settled calls are replayed too, and those are the entries a claim does not carry.
 */
export interface TakenOver extends Omit<Claimed, "journal" | "registrations"> {
  /** The checkpoint to continue from; undefined when the run never saved one (it starts again from its code). */
  readonly checkpoint: Uint8Array | undefined
  readonly attempts: number
  readonly previousOwner: string | null
}

/** Where a saved state sits in its run's call journal, and how many states to keep per run. */
export interface CheckpointAt {
  readonly calls: number
  readonly lastKey: string | undefined
  readonly keep: number
}

/** A state to keep as a run's next checkpoint (`checkpoint`), sealed, and where it sits. */
export interface NewCheckpoint {
  readonly snapshot: Uint8Array
  readonly seal: string | null
  readonly at: CheckpointAt
}

/** A kept state of a run with its bytes: what a fork starts from. */
export interface KeptState {
  readonly seq: number
  readonly snapshot: Uint8Array
  /** Sealed under its run's fields (row-seal.ts): check it against the run before executing the state. */
  readonly seal: string | null
}

/** A kept state of a run (without its bytes), with the call it follows when it follows one. */
export interface CheckpointRow {
  readonly seq: number
  readonly calls: number
  readonly size: number
  readonly createdAt: Date
  readonly after: { readonly key: string; readonly path: string; readonly input: unknown; readonly outcome: unknown } | undefined
}

/** A suspend made by the service: the run continues by itself once woken (`wake`: at once, by any replica). */
export interface AutoSuspend {
  readonly waiting: ReadonlyArray<string>
  readonly wake?: boolean
}

/** The outcome of a call its run's cancel settled. */
export const CANCELLED = { ok: false, error: { kind: "Cancelled", message: "The call ended when its run was cancelled" } } as const

type E<A, X = never> = Effect.Effect<A, SqlError.SqlError | X>

/** The sweep's work (RunStore.due). */
export interface Due {
  readonly wakeable: ReadonlyArray<{ readonly id: string; readonly tenant: string }>
  readonly expiring: boolean
  readonly orphaned: boolean
}

export class RunStore extends Context.Service<
  RunStore,
  {
    /** Inserts a running run owned by `owner`; `undefined` when the id is taken. */
    readonly insert: (run: NewRun) => E<RunRow | undefined, ToolsChanged>
    /**
     * Stores a run that already ended, with its events, in one statement: the row it would have after `insert`
     * and `finish`; `undefined` when the id is taken (the clash is caught here, at the end).
     */
    readonly insertEnded: (run: EndedRun) => E<RunRow | undefined, ToolsChanged>
    readonly get: (tenant: string, id: string) => E<RunRow | undefined>
    readonly list: (tenant: string, query: ListQuery) => E<ReadonlyArray<RunRow>>
    /** How many runs are in each status, all tenants (the metrics). */
    readonly countByStatus: E<ReadonlyMap<string, number>>
    /**
     * Settles a run its owner executed; the row after, or undefined when `owner` no longer owns it. The Result's
     * `toolCalls` gain every call of the run's journal it lacks (`withJournal`): a run failed after a takeover, or
     * stopped, has admitted calls the program's own Result no longer knows of. The row has its calls' `locations`.
     * Announces the change itself (a `changed` notice: Notifications.sentWith), as `claim` and `claimWoken` do.
     * `settled`: outcomes of the run's calls not recorded yet, recorded with its end as `CallStore.settled` records
     * them, their events before the run's own (none of it when `owner` no longer owns the run). `checkpoint`: a
     * state taken before the end and not kept yet, kept with it as `checkpoint` would have.
     */
    readonly finish: (
      id: string,
      owner: string,
      status: "succeeded" | "failed",
      result: Result,
      settled?: ReadonlyArray<SettledCall>,
      checkpoint?: NewCheckpoint,
    ) => E<RunRow | undefined>
    /**
     * Saves a suspended run and releases it; running calls (interrupted idempotent ones) become queued. The state is
     * also kept as the run's latest checkpoint (at `at`), so a suspended run can be forked from where it stopped.
     * `auto`: the service suspended it while it waited on the durable calls `waiting`; it wakes (`wake`) as soon as
     * one of them settles — already now, when one settled while the run was being saved.
     */
    readonly suspend: (
      id: string,
      owner: string,
      snapshot: Uint8Array,
      seal: string | null,
      at: CheckpointAt,
      auto?: AutoSuspend,
    ) => E<RunRow | undefined>
    /** A suspended run stays suspended until resumed: it no longer wakes by itself. */
    readonly pin: (tenant: string, id: string) => E<void>
    /**
     * Saves the checkpoint of a run `owner` executes (what another replica resumes if `owner` dies), and keeps it
     * among the run's checkpoints (at most `at.keep`: the oldest go). `seal`: the row's seal with this state, which
     * the kept checkpoint gets too.
     */
    readonly checkpoint: (id: string, owner: string, snapshot: Uint8Array, seal: string | null, at: CheckpointAt) => E<void>
    /** The kept checkpoints of a run, oldest first; undefined when the tenant has no such run. */
    readonly checkpoints: (tenant: string, id: string) => E<ReadonlyArray<CheckpointRow> | undefined>
    /**
     * A kept checkpoint of the tenant's run with its bytes: the one numbered `seq`, or the latest when `seq` is
     * undefined. `run` undefined: the tenant has no such run; `state` undefined: no such checkpoint is kept.
     */
    readonly checkpointState: (
      tenant: string,
      id: string,
      seq: number | undefined,
    ) => E<{ readonly run: RunRow; readonly state: KeptState | undefined } | undefined>
    /** Deletes the checkpoints older than `ms`; answers how many went. */
    readonly pruneCheckpoints: (ms: number) => E<number>
    /**
     * Atomically takes a suspended run for `owner`. `known`: the version of the tenant's registrations the caller
     * keeps, which the claim then does not read again unless they changed.
     */
    readonly claim: (tenant: string, id: string, owner: string, leaseMs: number, known?: number) => E<Claimed | undefined>
    /**
     * What the sweep has to do, read in one statement: the auto-suspended runs something they wait for has happened
     * to (oldest first, at most `limit`), whether a started durable call is past its deadline or heartbeat
     * (CallStore.expire has work), and whether a running run other than `executing` has an expired lease (takeOver
     * has work). An idle sweep is then this one read, not a statement for each step.
     */
    readonly due: (limit: number, executing: ReadonlyArray<string>) => E<Due>
    /** Atomically takes a woken auto-suspended run for `owner`. */
    readonly claimWoken: (id: string, owner: string, leaseMs: number) => E<Claimed | undefined>
    /**
     * Takes one running run whose lease expired (its replica died) for `owner`, counting the attempt; never one of
     * `executing` (runs `owner` still executes, whose renewal failed for a while).
     */
    readonly takeOver: (owner: string, leaseMs: number, executing: ReadonlyArray<string>) => E<TakenOver | undefined>
    /**
     * Cancels a run that is suspended, orphaned (lease expired) or owned by `where.owner`, settling its unsettled
     * calls; the row after, and the started durable calls the cancel settled (their tools are to be told).
     */
    readonly cancel: (
      tenant: string,
      id: string,
      where: CancelWhere,
    ) => E<{ readonly row: RunRow; readonly durable: ReadonlyArray<CancelledCall> } | undefined>
    /** Writes a control request for the owner of a running run; the row as it was, or undefined when not running. */
    readonly requestControl: (tenant: string, id: string, control: Control) => E<RunRow | undefined>
    /** The owner's answer to a control request. */
    readonly replyControl: (id: string, owner: string, control: Control) => E<void>
    /**
     * Extends the leases of the given runs where `owner` still executes them; answers those runs with their
     * control requests (a run missing from the answer was taken from `owner`, or ended).
     */
    readonly renewLeases: (
      owner: string,
      ids: ReadonlyArray<string>,
      leaseMs: number,
    ) => E<ReadonlyArray<{ readonly id: string; readonly control: Control | null }>>
  }
>()("codemode/server/RunStore") {}
