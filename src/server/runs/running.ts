/** A run executing on this replica, as `Execution` holds it, and the types its callers name it by. */
import type * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"
import type * as Semaphore from "effect/Semaphore"
import type * as SqlError from "effect/sql/SqlError"
import type { RunCalls } from "../calls.ts"
import type { Checkpoint, OnLog, Program } from "../executor.ts"
import type { SettledCall } from "../store/calls.ts"
import type { LoggedLine } from "../store/events.ts"
import type { NewRun, RunRow } from "../store/runs.ts"
import { failed } from "./views.ts"

/** Why a run is stopped: decides what the interrupted run writes ("clash": nothing, its id was taken meanwhile). */
export type StopReason = "cancel" | "lease" | "shutdown" | "fault" | "clash"

/** Completes once the run's outcome is saved, with the row as saved (undefined when nothing was written). */
export type Saved = Deferred.Deferred<RunRow | undefined>

/**
 * A new run's row before it is written, without its seal: the seal is made when the row is written as a run that may
 * be taken and continued (`RunStore.insert`), not when it is stored whole at its end (`insertEnded`), as most are.
 */
export type Unrecorded = Omit<NewRun, "leaseMs" | "seal">

/** Builds a run's program, given what the run's tool calls report to and where its log lines go. */
export type Make = (calls: RunCalls, onLog: OnLog) => Effect.Effect<Program>

/** A run executing here, as only this service sees it. */
export interface Running {
  readonly id: string
  readonly tenant: string
  readonly requestHash: string | null
  /** The row's seal with a state it saves (row-seal.ts). */
  readonly seal: (state: Uint8Array) => string | null
  program: Program
  /** The fiber that runs the program and saves its end (undefined until it is forked). */
  fiber: Fiber.Fiber<void> | undefined
  readonly saved: Saved
  /** When this replica took (or recorded) the run (ms): lease checks ignore runs taken after a renewal began. */
  since: number
  /** The row of a run not in the store yet; undefined once it is (or when it always was). */
  unrecorded: Unrecorded | undefined
  /** Writes the unrecorded row, once however many ask: false when its id was taken meanwhile. */
  record: Effect.Effect<boolean, SqlError.SqlError>
  stop: StopReason | undefined
  /** Why the run cannot go on (stop "fault"). */
  fault: string | undefined
  /** The program returned and its outcome is being written. */
  finishing: boolean
  /** Who is suspending the run: a request (`manual`), the idle timer (`idle`) or a shutdown. */
  suspending: "manual" | "idle" | "shutdown"
  /** Calls in flight that block a suspend, and the keys of started durable calls waiting for their completion. */
  busy: number
  readonly waiting: Set<string>
  /**
   * The durable calls the run waited on when the service decided to suspend it. Stopping the run ends its waits
   * (emptying `waiting`) before the suspend is saved, and a completion that lands meanwhile must still wake it.
   */
  sleepingOn: ReadonlyArray<string>
  /** Bumped on every change of `busy` or `waiting`: an idle timer armed before the change does nothing. */
  generation: number
  /** Completes when the checkpoint being saved is written (undefined: none is). */
  checkpointing: Deferred.Deferred<void> | undefined
  /** A checkpoint was asked for while one was being saved (Program.checkpoint `now`, or not). */
  checkpointAgain: "now" | "later" | undefined
  /**
   * The state before an idempotent call, taken and not written yet (background.ts `checkpointer`): a run that
   * ends soon after writes it with its end.
   */
  held: Checkpoint | undefined
  /** Ends the wait of the state held (its run returned, or reached another boundary); undefined while none waits. */
  holding: Deferred.Deferred<void> | undefined
  /** Outcomes its program already has that are not written yet (RunCalls.settleLater), in the order they came. */
  readonly settles: Array<SettledCall>
  /** Lines logged and not yet written as events. */
  logs: Array<LoggedLine>
  readonly flushLock: Semaphore.Semaphore
  /** Held while the row is first written: by the insert of a run that goes on, or by the end of one never recorded. */
  readonly recordLock: Semaphore.Semaphore
}

/** A program that fails at once: what a run becomes when the engine cannot make its program. */
export const failing = (message: string): Program => ({
  run: Effect.succeed(failed("ExecutionFailure", message)),
  suspend: Effect.void,
  checkpoint: () => Effect.succeed(undefined),
})

/** Logged lines of one run streamed as events at most (the first ones); the rest are in its Result. */
const MAX_LOG_EVENTS = 1000

/**
 * The lines logged since the last take that are streamed, and whether some were not. Chosen by index, not by
 * count, so every incarnation of a run streams the same lines (the store writes each, and the truncation, once).
 */
export const takeLogs = (run: Running) => {
  const taken = run.logs.splice(0)
  const logs = taken.filter((l) => l.index < MAX_LOG_EVENTS)
  return { logs, truncated: logs.length < taken.length }
}
