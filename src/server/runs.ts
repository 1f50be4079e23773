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
 * - A replica that shuts down suspends what it can and fails the rest with a clear diagnostic.
 *
 * Tool calls are webhooks (`Webhooks`); each call is recorded in `calls` (state running → settled; an idempotent
 * call interrupted by a suspend goes back to queued) so a suspended run lists its pending calls.
 */
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
import { createHash, randomBytes } from "node:crypto"
import type { CallCompletion, CallOutcome, CreateRun, PendingCall, Result, Run, RunEvent, RunPage, RunStatus } from "./api.ts"
import { ServerConfig } from "./config.ts"
import { Executor, type Program, type ToolBinding, SnapshotInvalid, SuspendRefused } from "./executor.ts"
import { Metrics } from "./metrics.ts"
import { Notifications } from "./notifications.ts"
import { hashKey } from "./keys.ts"
import { ToolRegistry, type Registrations, type ToolRow, type UnknownToolFilter } from "./registry.ts"
import { RunStore, type Control, type RunRow } from "./store.ts"
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

export interface ListOptions {
  readonly status?: RunStatus | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

/** A run executing on this replica. */
interface Active {
  readonly id: string
  readonly tenant: string
  readonly program: Program
  /** Completes once the run's outcome is saved, with the row as saved (undefined when nothing was written). */
  readonly done: Deferred.Deferred<RunRow | undefined>
  /** When this replica took the run (ms): lease checks ignore runs taken after a renewal began. */
  readonly since: number
  fiber: Fiber.Fiber<void> | undefined
  /** Why the run is being stopped from outside, if it is: decides what the interrupted run writes. */
  stop: "cancel" | "lease" | "shutdown" | undefined
  /** The program returned and its outcome is being written. */
  finishing: boolean
  /** Control requests already acted on. */
  readonly handled: Set<string>
}

const failed = (kind: string, message: string): Result => ({ ok: false, error: { kind, message }, toolCalls: [] })

const describe = (defect: unknown): string => (defect instanceof Error ? defect.message : String(defect))

/** A program that fails at once: what a run becomes when the engine cannot make its program. */
const failing = (message: string): Program => ({
  run: Effect.succeed(failed("ExecutionFailure", message)),
  suspend: Effect.fail(new SuspendRefused({ reason: "NotSuspendable", detail: message, calls: [] })),
})

/** JSON with object keys sorted, so equal values give equal text. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )

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
    readonly complete: (
      where: { readonly tenant: string; readonly key: string } | { readonly token: string },
      completion: CallCompletion,
    ) => Effect.Effect<CallOutcome, CallNotFound | SqlError.SqlError>
    /** Runs executing on this replica (for tests and metrics). */
    readonly activeCount: Effect.Effect<number>
    /** Stops taking runs and suspends (or fails) those executing here: the first step of a shutdown. */
    readonly drain: Effect.Effect<void>
  }
>()("codemode/server/Runs") {
  static readonly layer: Layer.Layer<
    Runs,
    never,
    ServerConfig | RunStore | ToolRegistry | Executor | Webhooks | Notifications | Metrics
  > = Layer.effect(
    Runs,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const store = yield* RunStore
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
        const pending = yield* store.pendingCalls([row.id])
        return toView(row, pending.get(row.id))
      })

      const load = Effect.fnUntraced(function* (tenant: string, id: string) {
        const row = yield* store.get(tenant, id)
        if (row === undefined) return yield* new RunNotFound({ id })
        return row
      })

      // -- executing -------------------------------------------------------------------------------------------

      /** Call bookkeeping never fails a call: the webhook's answer matters more than its record. */
      const record = (runId: string, write: Effect.Effect<void, SqlError.SqlError>) =>
        write.pipe(
          // Event streams of the run (on any replica) read the new events.
          Effect.andThen(notifications.publish({ type: "events", runId })),
          Effect.catch((e) => Effect.logWarning("could not record a tool call", e)),
        )

      /** Waits until the call has settled (completed on any replica): re-read on every notice, and on a poll. */
      const awaitOutcome = (runId: string, key: string) =>
        Effect.scoped(
          Effect.gen(function* () {
            const subscription = yield* notifications.subscribe
            const noticeFor = Effect.gen(function* () {
              for (;;) if ((yield* PubSub.take(subscription)).runId === runId) return
            })
            for (;;) {
              const call = yield* store.callOutcome(runId, key).pipe(
                Effect.catch((e) => Effect.logWarning("could not read a durable call", e).pipe(Effect.as(undefined))),
              )
              if (call?.state === "settled") return call.outcome as { ok: boolean; output?: unknown; error?: { message?: string } }
              yield* Effect.raceFirst(noticeFor, Effect.sleep(config.pollMs))
            }
          }),
        )

      /**
       * A durable webhook call: `start` (with a one-time callback URL), save the reply's `data`, then wait for the
       * completion — `POST /v1/calls/{key}/complete` or the callback, on any replica. Until runs can be suspended
       * while they wait, the run waits here, in memory. When the run is cancelled (not on any other interruption),
       * the tool gets `{ type: "cancel", key, data }`.
       */
      const durableCall = (runId: string, tool: ToolRow, key: string, input: unknown) => {
        let accepted: { readonly data: unknown } | undefined
        return Effect.gen(function* () {
          const token = randomBytes(32).toString("base64url")
          yield* record(runId, store.callStarted(runId, { key, path: tool.path, mode: tool.mode, input, callbackHash: hashKey(token) }))
          const callbackUrl = `${config.publicUrl}/v1/callbacks/${token}`
          const data = yield* webhooks.start(tool, { key, runId, input, callbackUrl }).pipe(
            Effect.tapError((e) =>
              Effect.sync(() => metrics.call(tool.mode, false)).pipe(
                Effect.andThen(record(runId, store.callSettled(runId, key, { ok: false, error: { kind: "ToolFailure", message: e.message } }))),
              ),
            ),
          )
          accepted = { data }
          yield* record(runId, store.callAccepted(runId, key, data))
          const outcome = yield* awaitOutcome(runId, key)
          metrics.call(tool.mode, outcome.ok)
          if (outcome.ok) return outcome.output
          return yield* Effect.fail(new Error(`Durable tool ${tool.path} failed: ${outcome.error?.message ?? "no message"}`))
        }).pipe(
          Effect.onInterrupt(() =>
            accepted !== undefined && actives.get(runId)?.stop === "cancel"
              ? webhooks.cancel(tool, { key, data: accepted.data }).pipe(
                  Effect.catch((e) => Effect.logWarning(`could not tell ${tool.path} that call ${key} was cancelled`, e)),
                )
              : Effect.void,
          ),
        )
      }

      const bindings = (runId: string, registrations: Registrations): ReadonlyArray<ToolBinding> =>
        registrations.tools.map((tool) => ({
          path: tool.path,
          description: tool.description,
          input: tool.input,
          output: tool.output,
          mode: tool.mode === "idempotent" ? "idempotent" : "plain",
          call: (input, { key }) =>
            tool.mode === "durable" ? durableCall(runId, tool, key, input) : record(runId, store.callStarted(runId, { key, path: tool.path, mode: tool.mode, input })).pipe(
              Effect.andThen(webhooks.call(tool, { key, runId, input })),
              // An interrupted call (suspend, cancel) records nothing: it stays running, becomes queued on suspend.
              Effect.tap((output) =>
                Effect.sync(() => metrics.call(tool.mode, true)).pipe(
                  Effect.andThen(record(runId, store.callSettled(runId, key, { ok: true, output: output ?? null }))),
                ),
              ),
              Effect.tapError((e) =>
                Effect.sync(() => metrics.call(tool.mode, false)).pipe(
                  Effect.andThen(record(runId, store.callSettled(runId, key, { ok: false, error: { kind: "ToolFailure", message: e.message } }))),
                ),
              ),
            ),
        }))

      const runScope = yield* Scope.make()

      /** Runs `program` for the row this replica now owns, in the background; `done` completes once it is saved. */
      const launch = Effect.fnUntraced(function* (row: RunRow, program: Program) {
        const active: Active = {
          id: row.id,
          tenant: row.tenant,
          program,
          done: yield* Deferred.make<RunRow | undefined>(),
          since: yield* Clock.currentTimeMillis,
          fiber: undefined,
          stop: undefined,
          finishing: false,
          handled: new Set(),
        }
        actives.set(row.id, active)
        let saved: RunRow | undefined
        const execute = Effect.gen(function* () {
          const outcome = yield* program.run.pipe(
            Effect.catchDefect((defect) =>
              Effect.succeed(failed("ExecutionFailure", `Internal error: ${describe(defect)}`)),
            ),
          )
          active.finishing = true
          // Saving is not interrupted halfway: a cancel that arrives now finds the run already ended.
          saved = yield* Effect.uninterruptible(
            outcome.ok === "suspended"
              ? store.suspend(row.id, me, outcome.state)
              : store.finish(row.id, me, outcome.ok ? "succeeded" : "failed", outcome),
          )
          if (saved === undefined) yield* Effect.logWarning(`run ${row.id} was taken from this replica before its outcome was saved`)
          else if (outcome.ok === "suspended") metrics.snapshot(outcome.state.length)
        }).pipe(
          Effect.onInterrupt(() =>
            Effect.gen(function* () {
              if (active.stop === "cancel") saved = (yield* store.cancel(row.tenant, row.id, { owner: me })) ?? saved
              if (active.stop === "shutdown") {
                const message = "The replica executing this run shut down before the run finished"
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
        Effect.catch((e) => Effect.logWarning("lease renewal failed", e)),
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

      // Shutdown: refuse new runs, suspend what can be suspended, fail the rest. `drain` is called while the
      // socket is still open (main.ts `serve`), so requests waiting on these runs get their answer; the finalizer
      // is the backstop when the layer closes without it.
      let draining = false
      const drain = Effect.gen(function* () {
        draining = true
        yield* Effect.forEach(
          [...actives.values()],
          (active) =>
            Effect.gen(function* () {
              const suspended = yield* Effect.exit(active.program.suspend)
              if (Exit.isSuccess(suspended)) yield* Deferred.await(active.done)
              else yield* interrupt(active, "shutdown")
            }).pipe(Effect.timeout("10 seconds"), Effect.ignore),
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
          if (row.status === "suspended") return yield* view(row)
          if (row.status !== "running") return yield* finished(row, "suspended")
          const active = actives.get(id)
          if (active !== undefined) {
            yield* active.program.suspend
            return yield* view((yield* Deferred.await(active.done)) ?? (yield* load(tenant, id)))
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
              return yield* view(cancelled)
            }
          } else {
            const active = actives.get(id)
            if (active !== undefined) {
              const after = (yield* interrupt(active, "cancel")) ?? (yield* load(tenant, id))
              if (after.status === "succeeded" || after.status === "failed") return yield* finished(after, "cancelled")
              return yield* view(after)
            }
            const orphan = row.leaseExpired ? yield* store.cancel(tenant, id, "orphaned") : undefined
            if (orphan !== undefined) return yield* view(orphan)
            const after = yield* remoteControl(row, "cancel")
            if (after !== undefined && after.status === "running" && after.leaseExpired) {
              const cancelled = yield* store.cancel(tenant, id, "orphaned")
              if (cancelled !== undefined) return yield* view(cancelled)
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
        const program = yield* executor
          .program({ runId: id, code: request.code, tools: bindings(id, registrations), namespaces: registrations.namespaces, limits })
          .pipe(Effect.catchDefect((defect) => Effect.succeed(failing(`The program could not be started: ${describe(defect)}`))))
        const active = yield* launch(row, program)
        return yield* answer(active, row, request.wait ?? true)
      })

      const resume = Effect.fn("Runs.resume")(function* (tenant: string, id: string, wait: boolean) {
        yield* refuseWhileDraining
        const claimed = yield* store.claim(tenant, id, me, config.leaseMs)
        if (claimed === undefined) {
          const row = yield* load(tenant, id)
          return yield* new RunConflict({ id, kind: "RunNotSuspended", detail: `Run ${id} is ${row.status}, not suspended` })
        }
        const { row } = claimed
        metrics.resumed()
        yield* notifications.publish({ type: "changed", runId: id })
        const registrations = yield* registry.resolve(tenant, row.tools, false)
        const program = yield* executor
          .resume({ runId: id, state: claimed.snapshot, tools: bindings(id, registrations), namespaces: registrations.namespaces })
          .pipe(
            Effect.catchTag("SnapshotInvalid", (e: SnapshotInvalid) =>
              Effect.succeed(failing(`The run's saved state cannot be resumed: ${e.message}`)),
            ),
            Effect.catchDefect((defect) => Effect.succeed(failing(`The run could not be resumed: ${describe(defect)}`))),
          )
        const active = yield* launch(row, program)
        return yield* answer(active, row, wait)
      })

      const get = Effect.fn("Runs.get")(function* (tenant: string, id: string) {
        return yield* view(yield* load(tenant, id))
      })

      const list = Effect.fn("Runs.list")(function* (tenant: string, options: ListOptions) {
        const limit = options.limit ?? 20
        if (options.cursor !== undefined && !/^\d{1,19}$/.test(options.cursor)) {
          return yield* new InvalidCursor({ cursor: options.cursor })
        }
        const rows = yield* store.list(tenant, { status: options.status, limit: limit + 1, before: options.cursor })
        const page = rows.slice(0, limit)
        const pending = yield* store.pendingCalls(page.filter((r) => r.status === "suspended" || r.status === "running").map((r) => r.id))
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
              const batch = yield* store.events(id, cursor, PAGE)
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

      const complete = Effect.fn("Runs.complete")(function* (
        where: { readonly tenant: string; readonly key: string } | { readonly token: string },
        completion: CallCompletion,
      ) {
        const outcome = completion.ok
          ? { ok: true, output: completion.output ?? null }
          : { ok: false, error: { kind: "ToolFailure", message: completion.error.message } }
        const done = yield* store.completeCall("token" in where ? { callbackHash: hashKey(where.token) } : where, outcome)
        if (done === undefined) return yield* new CallNotFound({ key: "token" in where ? "(callback)" : where.key })
        if (done.completed) yield* notifications.publish({ type: "events", runId: done.runId })
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

      return Runs.of({
        complete,
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

