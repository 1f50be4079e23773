/**
 * `CallStore`: the contract for the calls journal (table `calls`): every tool call of a run under its key, what a
 * run continuing after a crash or resume replays instead of calling again, and the durable calls that outlive a
 * suspended run (completions, heartbeats, timeouts). A settled call wakes the auto-suspended run waiting on it
 * in the same step. Implemented by `postgres/calls.ts` and `memory/calls.ts`.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as SqlError from "effect/sql/SqlError"
import type { PendingCall, SourceLocation } from "../api.ts"
import type { CancelledCall } from "./runs.ts"

/** A durable call: by key within a tenant, or by the hash of its callback token. */
export type CallWhere = { readonly tenant: string; readonly key: string } | { readonly callbackHash: string }

/** A call as the journal holds it: what a run continuing after a crash replays instead of calling again. */
export interface JournalEntry {
  readonly path: string
  readonly mode: string
  readonly input: unknown
  readonly state: "queued" | "running" | "started" | "settled"
  readonly data: unknown
  readonly outcome: unknown
}

/**
 * A run's journal as its claim read it, in the same round trip: every recorded key, with its entry while the call
 * has not settled, null once it has (its outcome, which may be large, is read if the run asks for that key).
 * While the run is claimed only its own replica changes these entries, but for a durable call's completion, which
 * a replayed `start` treats as it treats a started call.
 */
export type RecordedCalls = ReadonlyMap<string, JournalEntry | null>

/** A claim reads the journal of a run with at most this many calls; a run with more reads its calls one by one. */
export const CLAIM_JOURNAL_KEYS = 256

/** How a durable call may go silent before any replica fails it. */
export interface DurableTiming {
  readonly timeoutMs: number | undefined
  readonly heartbeatTimeoutMs: number | undefined
}

export interface NewCall {
  readonly key: string
  readonly path: string
  readonly mode: string
  readonly input: unknown
  readonly callbackHash?: string | undefined
  /** Where the program made the call; a call begun again without one keeps the one recorded. */
  readonly location?: SourceLocation | undefined
}

/**
 * A call's outcome to record. `attempt`: the call, a repeated idempotent one, began again and its attempt was not
 * recorded yet: it is, in the same step, before its outcome (the `started` of it, then the outcome).
 */
export interface SettledCall {
  readonly key: string
  readonly outcome: unknown
  readonly attempt?: NewCall | undefined
}

type E<A> = Effect.Effect<A, SqlError.SqlError>

export class CallStore extends Context.Service<
  CallStore,
  {
    /** Unsettled calls of the given runs, oldest first. */
    readonly pending: (runIds: ReadonlyArray<string>) => E<ReadonlyMap<string, ReadonlyArray<PendingCall>>>
    /** Where each call of the given runs was made, by run and key (calls without a location are left out). */
    readonly locations: (runIds: ReadonlyArray<string>) => E<ReadonlyMap<string, ReadonlyMap<string, SourceLocation>>>
    /**
     * A call begins (or begins again, for a repeated idempotent call), recorded only while `owner` owns the run
     * and it is running: false when it does not (another replica took it, or its claim was undone), and nothing
     * was written. Announces its event itself (an `events` notice: Notifications.sentWith), as `settled` does.
     */
    readonly started: (runId: string, owner: string, call: NewCall) => E<boolean>
    /** A durable call's `start` was accepted: its data is saved and it waits for its completion (or its timeouts). */
    readonly accepted: (runId: string, key: string, data: unknown, timing: DurableTiming) => E<void>
    /** Calls of a run ended, each with its outcome: recorded in one step, their events in this order. */
    readonly settled: (runId: string, calls: ReadonlyArray<SettledCall>) => E<void>
    /** The call as recorded, for a run replaying its calls after a crash or resume. */
    readonly journal: (runId: string, key: string) => E<JournalEntry | undefined>
    /** Calls of a run that were in flight and cannot be repeated safely (a plain call, a durable `start`). */
    readonly unsafe: (runId: string) => E<ReadonlyArray<{ readonly key: string; readonly path: string }>>
    /** Settles an unsettled durable call as cancelled; its data when this did it (the tool is to be told once). */
    readonly cancelled: (runId: string, key: string) => E<CancelledCall | undefined>
    /** Records a heartbeat of a started durable call; its state, or undefined when there is no such durable call. */
    readonly heartbeat: (where: CallWhere) => E<{ readonly runId: string; readonly key: string; readonly state: string } | undefined>
    /** Fails the started durable calls whose deadline or heartbeat passed; the runs they belong to. */
    readonly expire: E<ReadonlyArray<string>>
    /** A call's state and outcome (undefined when there is no such call). */
    readonly outcome: (runId: string, key: string) => E<{ readonly state: string; readonly outcome: unknown } | undefined>
    /**
     * Completes a durable call that has not settled, and wakes its run when it sleeps on it. The call as it is
     * after: `completed` false when it had already settled (its stored outcome is answered); undefined when there
     * is no such durable call.
     */
    readonly complete: (
      where: CallWhere,
      outcome: unknown,
    ) => E<{ readonly runId: string; readonly key: string; readonly outcome: unknown; readonly completed: boolean } | undefined>
  }
>()("codemode/server/CallStore") {}
