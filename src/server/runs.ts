/**
 * `Runs`: runs on this replica and across replicas (ARCHITECTURE "Ownership", "Cross-replica control").
 *
 * - A run executes on the replica that created or resumed it. That replica owns the row (`runs.owner`) and holds
 *   a lease it renews every `pollMs` for all its runs in one statement; a run whose renewal no longer returns it
 *   was taken from this replica (lease lost) and is stopped here without writing anything.
 * - Suspend and cancel work wherever the run executes. On the owner they act directly. Elsewhere the request is
 *   written to `runs.control` and announced with a notice (LISTEN/NOTIFY); the owner acts on the notice, or on
 *   its next renewal if the notice was lost, and writes the outcome to the row. The requester re-reads the row on
 *   every notice and on a short poll until the status changes, a refusal arrives, or `controlTimeoutMs` passes.
 * - Resume is one atomic claim of a suspended row (`RunStore.claim`): of two replicas resuming at once, one wins
 *   and the other answers 409.
 * - A run that only waits on started durable calls for `idleSuspendMs` is suspended by the service and leaves
 *   memory; the completion that wakes it resumes it on the replica that received it (or on any replica's sweep).
 * - The owner checkpoints a run at its call boundaries. When a replica dies, another takes its runs over once
 *   their leases expire: it continues each from its checkpoint (or its code), replaying recorded calls from the
 *   journal (calls.ts), or fails it when a call that cannot be repeated was in flight.
 * - A replica that shuts down suspends what it can — other replicas continue those runs — and fails the rest
 *   with a clear diagnostic.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import type * as SqlError from "effect/sql/SqlError"
import { createHash } from "node:crypto"
import type { CallCompletion, CallHeartbeat, CallOutcome, CreateRun, PendingCall, Result, Run, RunEvent, RunPage, RunStatus } from "./api.ts"
import { ServerConfig } from "./config.ts"
import { makeCalls, type RunCalls } from "./calls.ts"
import { canonical } from "./canonical.ts"
import { Executor, type Program, SnapshotInvalid, SuspendRefused } from "./executor.ts"
import { Metrics } from "./metrics.ts"
import { Notifications } from "./notifications.ts"
import { hashKey } from "./keys.ts"
import { ToolRegistry, type UnknownToolFilter } from "./registry.ts"
import { CallStore } from "./store/calls.ts"
import { isTransient, sqlMessage } from "./store/errors.ts"
import { EventStore } from "./store/events.ts"
import { RunStore, type CancelledCall, type Control, type RunRow, type TakenOver } from "./store/runs.ts"
import { Webhooks } from "./webhooks.ts"

// ---------------------------------------------------------------------------------------------------------------
// Errors

export class RunNotFound extends Data.TaggedError("RunNotFound")<{ readonly id: string }> {
  override get message(): string {
    return `No run with id ${this.id}`
  }
}

/** The run is not in a state that allows the request (`kind` says which conflict). */
export class RunConflict extends Data.TaggedError("RunConflict")<{
  readonly id: string
  readonly kind: "RunExists" | "RunNotSuspended" | "RunFinished" | "OwnerLost"
  readonly detail: string
}> {
  override get message(): string {
    return this.detail
  }
}

/** The replica executing the run did not answer a suspend or cancel request in time. */
export class ControlTimeout extends Data.TaggedError("ControlTimeout")<{ readonly id: string; readonly action: string }> {
  override get message(): string {
    return `The replica executing run ${this.id} did not answer the ${this.action} request in time; try again`
  }
}

/** This replica is shutting down and takes no new runs (another replica will). */
export class ShuttingDown extends Data.TaggedError("ShuttingDown")<{}> {
  override get message(): string {
    return "This replica is shutting down; send the request to another replica"
  }
}

export class CallNotFound extends Data.TaggedError("CallNotFound")<{ readonly key: string }> {
  override get message(): string {
    return `No durable call ${this.key} is waiting for a completion`
  }
}

export class InvalidCursor extends Data.TaggedError("InvalidCursor")<{ readonly cursor: string }> {
  override get message(): string {
    return `Invalid cursor ${JSON.stringify(this.cursor)}: pass back the nextCursor of a previous page`
  }
}

export type RunsError =
  | RunNotFound
  | RunConflict
  | ControlTimeout
  | InvalidCursor
  | ShuttingDown
  | SuspendRefused
  | UnknownToolFilter
  | SqlError.SqlError

// ---------------------------------------------------------------------------------------------------------------

/** A durable call: by key within a tenant, or by the token of its one-time callback URL. */
export type CallWhere = { readonly tenant: string; readonly key: string } | { readonly token: string }

const callWhere = (where: CallWhere) => ("token" in where ? { callbackHash: hashKey(where.token) } : where)

export interface ListOptions {
  readonly status?: RunStatus | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/** A run executing on this replica. */
interface Active {
  readonly id: string
  readonly tenant: string
  program: Program
  /** Completes once the run's outcome is saved, with the row as saved (undefined when nothing was written). */
  readonly done: Deferred.Deferred<RunRow | undefined>
  /** When this replica took the run (ms): lease checks ignore runs taken after a renewal began. */
  readonly since: number
  fiber: Fiber.Fiber<void> | undefined
  /** Why the run is being stopped from outside, if it is: decides what the interrupted run writes. */
  stop: "cancel" | "lease" | "shutdown" | "fault" | undefined
  /** Why the run cannot go on (stop "fault"). */
  fault: string | undefined
  /** The program returned and its outcome is being written. */
  finishing: boolean
  /** Control requests already acted on. */
  readonly handled: Set<string>
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
  /** A checkpoint is being taken, and another was asked for meanwhile. */
  checkpointing: boolean
  checkpointAgain: boolean
  /** Lines logged and not yet written as events, and how many were written. */
  logs: Array<string>
  logged: number
}

/** Logged lines of one run streamed as events at most; the rest are in its Result. */
const MAX_LOG_EVENTS = 1000
const LOG_FLUSH_MS = 100

const failed = (kind: string, message: string): Result => ({ ok: false, error: { kind, message }, toolCalls: [] })

/**
 * The background loops (sweep, lease renewal) log whatever one round ends with, defects included, and go on: a
 * loop that stopped would leave this replica's runs unrenewed and other replicas' runs never taken over.
 */
const survive =
  (what: string) =>
  <E>(round: Effect.Effect<void, E>): Effect.Effect<void> =>
    Effect.catchCause(round, (cause) => (Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logWarning(what, cause)))

const describe = (defect: unknown): string => (defect instanceof Error ? defect.message : String(defect))

/** A program that fails at once: what a run becomes when the engine cannot make its program. */
const failing = (message: string): Program => ({
  run: Effect.succeed(failed("ExecutionFailure", message)),
  suspend: Effect.void,
  checkpoint: Effect.succeed(undefined),
})

/** An event id or list cursor as the service hands them out: a positive Postgres bigint, in decimal. */
export const isEventId = (s: string): boolean => /^\d{1,19}$/.test(s) && BigInt(s) <= 9_223_372_036_854_775_807n

/** What makes two `POST /v1/runs` the same request (`wait` only changes how it is answered). */
export const fingerprint = (request: CreateRun): string =>
  createHash("sha256")
    .update(canonical({ code: request.code, tools: request.tools ?? null, limits: request.limits ?? null }))
    .digest("hex")

export const toView = (row: RunRow, pending: ReadonlyArray<PendingCall> = []): Run => ({
  id: row.id,
  status: row.status,
  ...(row.result === null ? {} : { result: row.result }),
  ...(pending.length === 0 ? {} : { pendingCalls: pending }),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
})

export class Runs extends Context.Service<
  Runs,
  {
    /** Creates and starts a run; with `wait` (default) answers once it has settled or suspended. */
    readonly create: (tenant: string, request: CreateRun) => Effect.Effect<Run, RunsError>
    readonly get: (tenant: string, id: string) => Effect.Effect<Run, RunNotFound | SqlError.SqlError>
    readonly list: (tenant: string, options: ListOptions) => Effect.Effect<RunPage, InvalidCursor | SqlError.SqlError>
    readonly suspend: (tenant: string, id: string) => Effect.Effect<Run, RunsError>
    readonly resume: (tenant: string, id: string, wait: boolean) => Effect.Effect<Run, RunsError>
    readonly cancel: (tenant: string, id: string) => Effect.Effect<Run, RunsError>
    /**
     * The run's history from the event after `after` (an event id; all when undefined), then its new events as
     * they happen, from whichever replica writes them; the stream ends once the run has ended and its last event
     * is sent. A failure of the database ends the stream (the client reconnects with `Last-Event-ID`).
     */
    readonly events: (
      tenant: string,
      id: string,
      after: string | undefined,
    ) => Effect.Effect<Stream.Stream<RunEvent>, RunNotFound | SqlError.SqlError>
    /**
     * Completes a started durable call — by key within the tenant, or by its one-time callback token — and wakes
     * the run waiting for it wherever it executes. Completing again answers the stored outcome.
     */
    readonly complete: (where: CallWhere, completion: CallCompletion) => Effect.Effect<CallOutcome, CallNotFound | SqlError.SqlError>
    /** Records that a started durable call's job is alive (its `heartbeatTimeoutMs` starts again). */
    readonly heartbeat: (where: CallWhere) => Effect.Effect<CallHeartbeat, CallNotFound | SqlError.SqlError>
    /** Runs executing on this replica (for tests and metrics). */
    readonly activeCount: Effect.Effect<number>
    /** Stops taking runs and suspends (or fails) those executing here: the first step of a shutdown. */
    readonly drain: Effect.Effect<void>
  }
>()("codemode/server/Runs") {
  static readonly layer: Layer.Layer<
    Runs,
    never,
    ServerConfig | RunStore | CallStore | EventStore | ToolRegistry | Executor | Webhooks | Notifications | Metrics
  > = Layer.effect(
    Runs,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const store = yield* RunStore
      const callStore = yield* CallStore
      const eventStore = yield* EventStore
      const registry = yield* ToolRegistry
      const executor = yield* Executor
      const webhooks = yield* Webhooks
      const notifications = yield* Notifications
      const metrics = yield* Metrics
      const me = config.replicaId
      const actives = new Map<string, Active>()
      const requesterPollMs = Math.min(250, config.pollMs)

      const view = Effect.fnUntraced(function* (row: RunRow) {
        if (row.status !== "suspended" && row.status !== "running") return toView(row)
        const pending = yield* callStore.pending([row.id])
        return toView(row, pending.get(row.id))
      })

      const load = Effect.fnUntraced(function* (tenant: string, id: string) {
        const row = yield* store.get(tenant, id)
        if (row === undefined) return yield* new RunNotFound({ id })
        return row
      })

      // -- executing -------------------------------------------------------------------------------------------

      const calls = makeCalls({ config, store: callStore, webhooks, notifications, metrics })
      const runScope = yield* Scope.make()
      let draining = false
      const fork = <A, E>(effect: Effect.Effect<A, E>) => Effect.asVoid(Effect.forkIn(effect, runScope))

      /** Suspends the run once it has only waited on started durable calls for `idleSuspendMs`. */
      const armIdle = (active: Active) =>
        Effect.suspend(() => {
          const generation = ++active.generation
          if (config.idleSuspendMs === 0 || active.busy > 0 || active.waiting.size === 0 || active.stop !== undefined) return Effect.void
          return fork(
            Effect.sleep(config.idleSuspendMs).pipe(
              Effect.andThen(
                Effect.suspend(() => {
                  if (active.generation !== generation || active.stop !== undefined || active.finishing) return Effect.void
                  active.suspending = "idle"
                  active.sleepingOn = [...active.waiting]
                  return active.program.suspend.pipe(
                    Effect.catch((e) =>
                      Effect.sync(() => void (active.suspending = "manual")).pipe(
                        Effect.andThen(Effect.logDebug(`run ${active.id} stays in memory: ${e.message}`)),
                      ),
                    ),
                  )
                }),
              ),
            ),
          )
        })

      /** Saves a checkpoint of the run: one at a time, and one more when asked again meanwhile. */
      const checkpoint = (active: Active): Effect.Effect<void> =>
        Effect.suspend(() => {
          if (active.checkpointing) {
            active.checkpointAgain = true
            return Effect.void
          }
          active.checkpointing = true
          const once = Effect.gen(function* () {
            // The call's outcome reaches the program once the tool's effect has returned: let it get there.
            for (let attempt = 0; attempt < 3; attempt++) {
              yield* Effect.sleep(attempt === 0 ? 0 : 20)
              const taken = yield* Effect.exit(active.program.checkpoint)
              if (taken._tag === "Failure") continue
              if (taken.value !== undefined) yield* store.checkpoint(active.id, me, taken.value)
              return
            }
          })
          const loop: Effect.Effect<void> = once.pipe(
            Effect.catch((e) => Effect.logWarning(`could not save a checkpoint of run ${active.id}`, e)),
            Effect.andThen(
              Effect.suspend(() => {
                if (!active.checkpointAgain || active.finishing) return Effect.void
                active.checkpointAgain = false
                return loop
              }),
            ),
          )
          return fork(loop.pipe(Effect.ensuring(Effect.sync(() => void (active.checkpointing = false)))))
        })

      /** Writes the lines logged since the last flush as `log` events (at most MAX_LOG_EVENTS per run). */
      const flushLogs = (active: Active) =>
        Effect.suspend(() => {
          if (active.logs.length === 0) return Effect.void
          const lines = active.logs.splice(0, Math.max(0, MAX_LOG_EVENTS - active.logged))
          const dropped = active.logs.splice(0).length
          const first = active.logged === 0
          active.logged += lines.length
          return eventStore.appendLogs(active.id, lines, dropped > 0 && active.logged === MAX_LOG_EVENTS && (first || lines.length > 0)).pipe(
            Effect.andThen(notifications.publish({ type: "events", runId: active.id })),
            Effect.catch((e) => Effect.logWarning(`could not record the logs of run ${active.id}`, e)),
          )
        })

      const tracker = (active: Active, replay: boolean): RunCalls => ({
        runId: active.id,
        replay,
        busy: (delta) => Effect.suspend(() => ((active.busy += delta), armIdle(active))),
        waiting: (key, on) => Effect.suspend(() => (on ? active.waiting.add(key) : active.waiting.delete(key), armIdle(active))),
        boundary: checkpoint(active),
        fault: (message) =>
          Effect.suspend(() => {
            active.fault ??= message
            active.stop ??= "fault"
            // Interrupting the run waits for this call's fiber, which is the caller: interrupt from outside it.
            return fork(active.fiber === undefined ? Effect.void : Fiber.interrupt(active.fiber)).pipe(Effect.andThen(Effect.never))
          }),
        lost: () => active.stop === "lease",
      })

      /**
       * Runs the program `make` builds for the row this replica now owns, in the background; `done` completes once
       * its outcome is saved. `replay`: the run continues an earlier incarnation (its calls are in the journal).
       */
      const launch = Effect.fnUntraced(function* (
        row: RunRow,
        replay: boolean,
        make: (calls: RunCalls, onLog: (line: string) => void) => Effect.Effect<Program>,
      ) {
        const active: Active = {
          id: row.id,
          tenant: row.tenant,
          program: failing("The run has not started"),
          done: yield* Deferred.make<RunRow | undefined>(),
          since: yield* Clock.currentTimeMillis,
          fiber: undefined,
          stop: undefined,
          fault: undefined,
          finishing: false,
          handled: new Set(),
          suspending: "manual",
          busy: 0,
          waiting: new Set(),
          sleepingOn: [],
          generation: 0,
          checkpointing: false,
          checkpointAgain: false,
          logs: [],
          logged: 0,
        }
        actives.set(row.id, active)
        active.program = yield* make(tracker(active, replay), (line) => void active.logs.push(line)).pipe(
          Effect.catchDefect((defect) => Effect.succeed(failing(`The program could not be started: ${describe(defect)}`))),
        )
        let saved: RunRow | undefined
        const logger = yield* Effect.forkIn(Effect.forever(Effect.sleep(LOG_FLUSH_MS).pipe(Effect.andThen(flushLogs(active)))), runScope)
        const execute = Effect.gen(function* () {
          const outcome = yield* active.program.run.pipe(
            Effect.catchDefect((defect) =>
              Effect.succeed(failed("ExecutionFailure", `Internal error: ${describe(defect)}`)),
            ),
          )
          active.finishing = true
          yield* Fiber.interrupt(logger)
          yield* flushLogs(active)
          // Saving is not interrupted halfway: a cancel that arrives now finds the run already ended. An outcome
          // the database refuses (not a connection failure, which the store tries again) fails the run instead of
          // leaving it running with nobody executing it.
          const unstorable = (e: SqlError.SqlError) =>
            isTransient(e)
              ? Effect.fail(e)
              : Effect.logError(`the outcome of run ${row.id} cannot be stored`, e).pipe(
                  Effect.andThen(store.finish(row.id, me, "failed", failed("ExecutionFailure", `The run ended, but its outcome could not be stored: ${sqlMessage(e)}`))),
                )
          saved = yield* Effect.uninterruptible(
            (outcome.ok === "suspended"
              ? store.suspend(
                  row.id,
                  me,
                  outcome.state,
                  active.suspending === "idle"
                    ? { waiting: active.sleepingOn }
                    : active.suspending === "shutdown"
                      ? { waiting: [], wake: true }
                      : undefined,
                )
              : store.finish(row.id, me, outcome.ok ? "succeeded" : "failed", outcome)
            ).pipe(Effect.catch(unstorable)),
          )
          if (saved === undefined) yield* Effect.logWarning(`run ${row.id} was taken from this replica before its outcome was saved`)
          else if (outcome.ok === "suspended") metrics.snapshot(outcome.state.length)
        }).pipe(
          Effect.onInterrupt(() =>
            Effect.gen(function* () {
              yield* Fiber.interrupt(logger)
              yield* flushLogs(active)
              if (active.stop === "cancel") {
                const cancelled = yield* store.cancel(row.tenant, row.id, { owner: me })
                if (cancelled !== undefined) yield* tellCancelled(row.tenant, cancelled.durable)
                saved = cancelled?.row ?? saved
              }
              if (active.stop === "shutdown" || active.stop === "fault") {
                const message = active.fault ?? "The replica executing this run shut down before the run finished"
                saved = (yield* store.finish(row.id, me, "failed", failed("ExecutionFailure", message))) ?? saved
              }
            }),
          ),
          Effect.catch((e) => Effect.logError(`could not save the outcome of run ${row.id}`, e)),
          Effect.ensuring(
            Effect.gen(function* () {
              actives.delete(row.id)
              yield* Deferred.succeed(active.done, saved)
              yield* notifications.publish({ type: "changed", runId: row.id })
              // The completion a run auto-suspended for may have come while it was being saved.
              if (saved?.status === "suspended") yield* wakeIfDue(row.id)
            }),
          ),
          Effect.annotateLogs({ runId: row.id }),
        )
        active.fiber = yield* Effect.forkIn(execute, runScope, { startImmediately: true })
        return active
      })

      /** Answers a created or resumed run: at once (202) or once it settles or suspends. */
      const answer = Effect.fnUntraced(function* (active: Active, row: RunRow, wait: boolean) {
        if (!wait) return yield* view(row)
        return yield* view((yield* Deferred.await(active.done)) ?? (yield* load(row.tenant, row.id)))
      })

      /** Tells the tools of durable calls a cancel settled that their work is no longer wanted. */
      const tellCancelled = (tenant: string, cancelled: ReadonlyArray<CancelledCall>) =>
        cancelled.length === 0
          ? Effect.void
          : registry.resolve(tenant, null, false).pipe(
              Effect.flatMap((registrations) =>
                Effect.forEach(
                  cancelled,
                  (c) => {
                    const tool = registrations.tools.find((t) => t.path === c.path)
                    return tool === undefined
                      ? Effect.logWarning(`call ${c.key} was cancelled, but its tool ${c.path} is no longer registered`)
                      : webhooks.cancel(tool, { key: c.key, data: c.data })
                  },
                  { concurrency: "unbounded", discard: true },
                ),
              ),
              Effect.catch((e) => Effect.logWarning("could not tell durable tools that their calls were cancelled", e)),
            )

      /** Continues a run from saved state (a suspend or a checkpoint), or from its code when it has none. */
      const continueRun = (row: RunRow, state: Uint8Array | undefined) =>
        Effect.gen(function* () {
          const registrations = yield* registry.resolve(row.tenant, row.tools, false)
          return yield* launch(row, true, (run, onLog) => {
            const spec = { runId: row.id, tools: calls.bindings(run, registrations), namespaces: registrations.namespaces, onLog }
            return state === undefined
              ? executor.program({ ...spec, code: row.code, limits: row.limits })
              : executor.resume({ ...spec, state, replay: { code: row.code, limits: row.limits } }).pipe(
                  Effect.catchTag("SnapshotInvalid", (e: SnapshotInvalid) =>
                    Effect.succeed(failing(`The run's saved state cannot be resumed: ${e.message}`)),
                  ),
                )
          })
        })

      /** Resumes an auto-suspended run that has been woken, when this replica wins the claim. */
      const wakeIfDue = (id: string): Effect.Effect<void> =>
        Effect.gen(function* () {
          if (draining) return
          const claimed = yield* store.claimWoken(id, me, config.leaseMs)
          if (claimed === undefined) return
          metrics.resumed()
          yield* notifications.publish({ type: "changed", runId: id })
          yield* continueRun(claimed.row, claimed.snapshot)
        }).pipe(Effect.catch((e) => Effect.logWarning(`could not resume run ${id}`, e)))

      /** A run whose replica died: continued here, or failed when that is not safe. */
      const recover = (taken: TakenOver) =>
        Effect.gen(function* () {
          const { row } = taken
          metrics.recovered()
          yield* notifications.publish({ type: "changed", runId: row.id })
          const fail = (message: string) =>
            store.finish(row.id, me, "failed", failed("ExecutionFailure", message)).pipe(
              Effect.andThen(notifications.publish({ type: "changed", runId: row.id })),
            )
          if (taken.attempts > config.maxRecoveries) {
            return yield* fail(`Run ${row.id} was taken over ${taken.attempts} times after its replica stopped; it is not continued again`)
          }
          const unsafe = yield* callStore.unsafe(row.id)
          if (unsafe.length > 0) {
            const list = unsafe.map((c) => `tools.${c.path} (${c.key})`).join(", ")
            return yield* fail(
              `The replica executing run ${row.id} stopped while calls that cannot be repeated safely were in progress: ${list}`,
            )
          }
          yield* Effect.logInfo(`continuing run ${row.id} after its replica ${taken.previousOwner ?? "(unknown)"} stopped`)
          yield* continueRun(row, taken.checkpoint)
        }).pipe(Effect.catch((e) => Effect.logWarning(`could not recover run ${taken.row.id}`, e)))

      // The sweep, on every replica: durable calls that went silent fail, woken runs resume, runs of dead replicas
      // are taken over. Each step is one atomic statement, so replicas sweeping together never act twice.
      yield* Effect.gen(function* () {
        if (draining) return
        for (const runId of yield* callStore.expire) yield* notifications.publish({ type: "events", runId })
        for (const r of yield* store.wakeable(10)) yield* wakeIfDue(r.id)
        for (let i = 0; i < 10 && !draining; i++) {
          const taken = yield* store.takeOver(me, config.leaseMs, [...actives.keys()])
          if (taken === undefined) break
          yield* recover(taken)
        }
      }).pipe(
        survive("the sweep failed"),
        Effect.repeat(Schedule.spaced(config.pollMs)),
        Effect.forkScoped,
      )

      // -- control on the owner --------------------------------------------------------------------------------

      /** Stops a run executing here; the row as the stop left it. */
      const interrupt = Effect.fnUntraced(function* (active: Active, reason: NonNullable<Active["stop"]>) {
        active.stop ??= reason
        if (active.fiber !== undefined) yield* Fiber.interrupt(active.fiber)
        return yield* Deferred.await(active.done)
      })

      /** Acts on a control request written by another replica (at most once per request id). */
      const handleControl = Effect.fnUntraced(function* (active: Active, control: Control) {
        if (control.reply !== undefined || active.handled.has(control.id)) return
        active.handled.add(control.id)
        if (control.action === "cancel") return yield* interrupt(active, "cancel")
        active.suspending = "manual"
        const refused = yield* Effect.flip(active.program.suspend).pipe(Effect.option)
        if (refused._tag === "Some") {
          const e = refused.value
          yield* store.replyControl(active.id, me, {
            ...control,
            reply: { ok: false, kind: e.reason, message: e.message, calls: e.calls },
          })
          yield* notifications.publish({ type: "changed", runId: active.id })
        }
      })

      const handleControlSafely = (active: Active, control: Control) =>
        handleControl(active, control).pipe(
          Effect.catch((e) => Effect.logWarning(`could not act on control request for run ${active.id}`, e)),
          Effect.forkIn(runScope),
          Effect.asVoid,
        )

      // Lease renewal, lease-loss detection and the control-request poll (the fallback for lost notices).
      yield* Effect.gen(function* () {
        const started = yield* Clock.currentTimeMillis
        const owned = yield* store.renewLeases(me, [...actives.keys()], config.leaseMs)
        const ids = new Set(owned.map((r) => r.id))
        for (const r of owned) {
          const active = actives.get(r.id)
          if (active !== undefined && r.control !== null) yield* handleControlSafely(active, r.control)
        }
        for (const active of actives.values()) {
          if (!ids.has(active.id) && !active.finishing && active.since < started && active.stop === undefined) {
            yield* Effect.logWarning(`lost the lease of run ${active.id}; stopping it here`)
            active.stop = "lease"
            if (active.fiber !== undefined) yield* Fiber.interrupt(active.fiber).pipe(Effect.forkIn(runScope))
          }
        }
      }).pipe(
        survive("lease renewal failed"),
        Effect.repeat(Schedule.spaced(config.pollMs)),
        Effect.forkScoped,
      )

      // Control notices from other replicas.
      yield* Effect.gen(function* () {
        const subscription = yield* notifications.subscribe
        for (;;) {
          const notice = yield* PubSub.take(subscription)
          if (notice.type !== "control") continue
          const active = actives.get(notice.runId)
          if (active === undefined) continue
          const row = yield* store.get(active.tenant, active.id).pipe(Effect.orElseSucceed(() => undefined))
          if (row?.control != null && row.owner === me) yield* handleControlSafely(active, row.control)
        }
      }).pipe(Effect.scoped, Effect.forkScoped)

      // Shutdown: refuse new runs, suspend what can be suspended (saved woken: another replica continues them), fail
      // the rest. `drain` is called while the socket is still open (main.ts `serve`), so requests waiting on these
      // runs get their answer; the finalizer is the backstop when the layer closes without it.
      const drain = Effect.gen(function* () {
        draining = true
        yield* Effect.forEach(
          [...actives.values()],
          (active) =>
            Effect.gen(function* () {
              active.suspending = "shutdown"
              // A plain call in flight blocks the suspend: give it until the drain deadline to answer.
              const suspended = yield* Effect.exit(
                active.program.suspend.pipe(
                  Effect.retry({ schedule: Schedule.spaced("100 millis"), while: (e) => e.reason === "Blocked" }),
                  Effect.timeout(config.drainMs),
                ),
              )
              if (Exit.isSuccess(suspended)) yield* Deferred.await(active.done)
              else yield* interrupt(active, "shutdown")
            }).pipe(Effect.timeout(config.drainMs + 10_000), Effect.ignore),
          { concurrency: "unbounded" },
        )
      })
      yield* Effect.addFinalizer(() => drain.pipe(Effect.andThen(Scope.close(runScope, Exit.void))))
      const refuseWhileDraining = Effect.suspend(() =>
        draining ? Effect.fail(new ShuttingDown()) : Effect.void,
      )

      // -- requests from anywhere ------------------------------------------------------------------------------

      /** Writes a control request for the run's owner and waits for its effect on the row. */
      const remoteControl = Effect.fnUntraced(function* (row: RunRow, action: "suspend" | "cancel") {
        const control: Control = { id: crypto.randomUUID(), action }
        return yield* Effect.scoped(
          Effect.gen(function* () {
            const subscription = yield* notifications.subscribe
            const before = yield* store.requestControl(row.tenant, row.id, control)
            if (before === undefined) return undefined // no longer running: the caller looks again
            if (before.leaseExpired) return before
            yield* notifications.publish({ type: "control", runId: row.id })
            const deadline = (yield* Clock.currentTimeMillis) + config.controlTimeoutMs
            const noticeFor = Effect.gen(function* () {
              for (;;) if ((yield* PubSub.take(subscription)).runId === row.id) return
            })
            for (;;) {
              const now = yield* load(row.tenant, row.id)
              if (now.status !== "running") return now
              const reply = now.control?.id === control.id ? now.control.reply : undefined
              if (reply !== undefined && !reply.ok) {
                return yield* new SuspendRefused({
                  reason: reply.kind === "NotSuspendable" ? "NotSuspendable" : "Blocked",
                  detail: reply.message,
                  calls: reply.calls ?? [],
                })
              }
              if ((yield* Clock.currentTimeMillis) >= deadline) return yield* new ControlTimeout({ id: row.id, action })
              yield* Effect.raceFirst(noticeFor, Effect.sleep(requesterPollMs))
            }
          }),
        )
      })

      const finished = (row: RunRow, action: string) =>
        new RunConflict({ id: row.id, kind: "RunFinished", detail: `Run ${row.id} has already ${row.status}; it cannot be ${action}` })

      const suspend = Effect.fn("Runs.suspend")(function* (tenant: string, id: string) {
        for (let attempt = 0; ; attempt++) {
          const row = yield* load(tenant, id)
          if (row.status === "suspended") {
            // A run the service put to sleep stays suspended once someone asks for it: only a resume wakes it.
            yield* store.pin(tenant, id)
            return yield* view(row)
          }
          if (row.status !== "running") return yield* finished(row, "suspended")
          const active = actives.get(id)
          if (active !== undefined) {
            active.suspending = "manual"
            yield* active.program.suspend
            const after = (yield* Deferred.await(active.done)) ?? (yield* load(tenant, id))
            if (after.status === "suspended") return yield* view(after)
            // It ended first (returned, or a cancel won), as the remote path answers; or it moved to another replica.
            if (after.status !== "running") return yield* finished(after, "suspended")
            if (attempt > 3) return yield* new ControlTimeout({ id, action: "suspend" })
            continue
          }
          const after = yield* remoteControl(row, "suspend")
          if (after === undefined) continue
          if (after.status === "running" && after.leaseExpired) {
            return yield* new RunConflict({
              id,
              kind: "OwnerLost",
              detail: `The replica executing run ${id} stopped renewing its lease; the run cannot be suspended`,
            })
          }
          if (after.status === "suspended") return yield* view(after)
          if (after.status !== "running") return yield* finished(after, "suspended")
          if (attempt > 3) return yield* new ControlTimeout({ id, action: "suspend" })
        }
      })

      const cancel = Effect.fn("Runs.cancel")(function* (tenant: string, id: string) {
        for (let attempt = 0; ; attempt++) {
          const row = yield* load(tenant, id)
          if (row.status === "cancelled") return yield* view(row)
          if (row.status === "succeeded" || row.status === "failed") return yield* finished(row, "cancelled")
          if (row.status === "suspended") {
            const cancelled = yield* store.cancel(tenant, id, "suspended")
            if (cancelled !== undefined) {
              yield* notifications.publish({ type: "changed", runId: id })
              yield* tellCancelled(tenant, cancelled.durable)
              return yield* view(cancelled.row)
            }
          } else {
            const active = actives.get(id)
            if (active !== undefined) {
              const after = (yield* interrupt(active, "cancel")) ?? (yield* load(tenant, id))
              if (after.status === "succeeded" || after.status === "failed") return yield* finished(after, "cancelled")
              if (after.status === "cancelled") return yield* view(after)
              // A suspend that was already saving won the race: the next attempt cancels the suspended run.
              if (attempt > 3) return yield* new ControlTimeout({ id, action: "cancel" })
              continue
            }
            const orphaned = Effect.gen(function* () {
              const cancelled = yield* store.cancel(tenant, id, "orphaned")
              if (cancelled === undefined) return undefined
              yield* tellCancelled(tenant, cancelled.durable)
              return yield* view(cancelled.row)
            })
            const orphan = row.leaseExpired ? yield* orphaned : undefined
            if (orphan !== undefined) return orphan
            const after = yield* remoteControl(row, "cancel")
            if (after !== undefined && after.status === "running" && after.leaseExpired) {
              const cancelled = yield* orphaned
              if (cancelled !== undefined) return cancelled
            }
          }
          if (attempt > 3) return yield* new ControlTimeout({ id, action: "cancel" })
        }
      })

      const create = Effect.fn("Runs.create")(function* (tenant: string, request: CreateRun) {
        yield* refuseWhileDraining
        const id = request.id ?? crypto.randomUUID()
        const filter = request.tools ?? null
        const registrations = yield* registry.resolve(tenant, filter, true)
        const limits = { timeoutMs: config.defaultTimeoutMs, ...request.limits }
        const requestHash = fingerprint(request)
        const row = yield* store.insert({ id, tenant, code: request.code, limits, tools: filter, owner: me, leaseMs: config.leaseMs, requestHash })
        if (row === undefined) {
          // The same request again (a client retrying with its own id) answers the run it made; anything else —
          // another request, or another tenant's run — is a conflict.
          const existing = yield* store.get(tenant, id)
          if (existing === undefined || existing.requestHash !== requestHash) {
            return yield* new RunConflict({ id, kind: "RunExists", detail: `A run with id ${id} already exists (made by a different request)` })
          }
          const active = actives.get(id)
          return yield* active === undefined ? view(existing) : answer(active, existing, request.wait ?? true)
        }
        const active = yield* launch(row, false, (run, onLog) =>
          executor.program({ runId: id, code: request.code, tools: calls.bindings(run, registrations), namespaces: registrations.namespaces, limits, onLog }),
        )
        return yield* answer(active, row, request.wait ?? true)
      })

      const resume = Effect.fn("Runs.resume")(function* (tenant: string, id: string, wait: boolean) {
        yield* refuseWhileDraining
        const claimed = yield* store.claim(tenant, id, me, config.leaseMs)
        if (claimed === undefined) {
          const row = yield* load(tenant, id)
          return yield* new RunConflict({ id, kind: "RunNotSuspended", detail: `Run ${id} is ${row.status}, not suspended` })
        }
        metrics.resumed()
        yield* notifications.publish({ type: "changed", runId: id })
        const active = yield* continueRun(claimed.row, claimed.snapshot)
        return yield* answer(active, claimed.row, wait)
      })

      const get = Effect.fn("Runs.get")(function* (tenant: string, id: string) {
        return yield* view(yield* load(tenant, id))
      })

      const list = Effect.fn("Runs.list")(function* (tenant: string, options: ListOptions) {
        const limit = options.limit ?? 20
        if (options.cursor !== undefined && !isEventId(options.cursor)) {
          return yield* new InvalidCursor({ cursor: options.cursor })
        }
        const rows = yield* store.list(tenant, { status: options.status, limit: limit + 1, before: options.cursor })
        const page = rows.slice(0, limit)
        const pending = yield* callStore.pending(page.filter((r) => r.status === "suspended" || r.status === "running").map((r) => r.id))
        return {
          runs: page.map((r) => toView(r, pending.get(r.id))),
          ...(rows.length > limit ? { nextCursor: page.at(-1)!.seq } : {}),
        }
      })

      const ended = (status: RunStatus) => status === "succeeded" || status === "failed" || status === "cancelled"
      const PAGE = 500

      const events = Effect.fn("Runs.events")(function* (tenant: string, id: string, after: string | undefined) {
        yield* load(tenant, id)
        return Stream.callback<RunEvent>((queue) =>
          Effect.gen(function* () {
            const subscription = yield* notifications.subscribe
            const noticeFor = Effect.gen(function* () {
              for (;;) if ((yield* PubSub.take(subscription)).runId === id) return
            })
            let cursor = after ?? "0"
            for (;;) {
              // The row first: when it has ended, every event written with its final status is already committed.
              const row = yield* store.get(tenant, id)
              const batch = yield* eventStore.after(id, cursor, PAGE)
              for (const e of batch) {
                const data: Record<string, unknown> = { ...(e.data as Record<string, unknown>), at: e.at.toISOString() }
                // The final event carries the Result (value or error, logs, tool calls).
                if ((e.type === "run.succeeded" || e.type === "run.failed") && row?.result != null) data["result"] = row.result
                yield* Queue.offer(queue, { id: e.id, event: e.type, data: JSON.stringify(data) })
                cursor = e.id
              }
              if (batch.length === PAGE) continue
              if (row === undefined || ended(row.status)) break
              // A replica shutting down ends its streams; clients reconnect elsewhere with Last-Event-ID.
              if (draining) break
              yield* Effect.raceFirst(noticeFor, Effect.sleep(config.pollMs))
            }
          }).pipe(
            Effect.catch((e) => Effect.logWarning(`the event stream of run ${id} stopped`, e)),
            Effect.ensuring(Queue.end(queue)),
          ),
        )
      })

      const complete = Effect.fn("Runs.complete")(function* (where: CallWhere, completion: CallCompletion) {
        const outcome = completion.ok
          ? { ok: true, output: completion.output ?? null }
          : { ok: false, error: { kind: "ToolFailure", message: completion.error.message } }
        const done = yield* callStore.complete(callWhere(where), outcome)
        if (done === undefined) return yield* new CallNotFound({ key: "token" in where ? "(callback)" : where.key })
        if (done.completed) {
          yield* notifications.publish({ type: "events", runId: done.runId })
          // A run that sleeps until this completion continues here (when no other replica got to it first).
          yield* wakeIfDue(done.runId)
        }
        // A call settled otherwise (the run was cancelled) has an outcome without a message: give it one.
        const stored = done.outcome as { ok?: unknown; output?: unknown; error?: { kind?: unknown; message?: unknown } } | null
        const answer: CallOutcome["outcome"] =
          stored?.ok === true
            ? { ok: true, output: (stored.output ?? null) as Extract<CallOutcome["outcome"], { ok: true }>["output"] }
            : {
                ok: false,
                error: {
                  kind: typeof stored?.error?.kind === "string" ? stored.error.kind : "ToolFailure",
                  message: typeof stored?.error?.message === "string" ? stored.error.message : "The call ended when its run was cancelled",
                },
              }
        return { key: done.key, runId: done.runId, outcome: answer }
      })

      const heartbeat = Effect.fn("Runs.heartbeat")(function* (where: CallWhere) {
        const beat = yield* callStore.heartbeat(callWhere(where))
        if (beat === undefined) return yield* new CallNotFound({ key: "token" in where ? "(callback)" : where.key })
        return { key: beat.key, runId: beat.runId, state: beat.state as CallHeartbeat["state"] }
      })

      return Runs.of({
        complete,
        heartbeat,
        events,
        create,
        get,
        list,
        suspend,
        resume,
        cancel,
        activeCount: Effect.sync(() => actives.size),
        drain,
      })
    }),
  )
}

