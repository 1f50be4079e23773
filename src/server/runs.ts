/**
 * `Runs`: the facade the HTTP layer calls for runs (ARCHITECTURE "Ownership", "Cross-replica control"). Behind
 * it, small services with one reason to change each (runs/):
 *
 * - `Execution` (runs/execution.ts): the runs executing on this replica — launch, checkpoints, logs, idle
 *   suspend, writing how each ended.
 * - `Ownership` (runs/ownership.ts): leases, the sweep, takeover of dead replicas' runs, resume and wake.
 * - `RunControl` (runs/control.ts): suspend and cancel, on the owner or across replicas.
 * - `RunEvents` (runs/events.ts): a run's history, appended, replayed and followed.
 *
 * Storage is behind the contracts in store/ (Postgres in production, memory in the logic tests).
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import type * as Stream from "effect/Stream"
import type * as SqlError from "effect/sql/SqlError"
import { randomFillSync } from "node:crypto"
import type { CallCompletion, CallHeartbeat, CallOutcome, CreateRun, ForkRun, Limits, Run, RunCheckpoints, RunEvent, RunPage } from "./api.ts"
import { ServerConfig } from "./config.ts"
import type { Executor } from "./executor.ts"
import type { Metrics } from "./metrics.ts"
import { Notifications } from "./notifications.ts"
import { waitMs } from "./runs/wait.ts"
import { ToolRegistry } from "./registry.ts"
import { canonical } from "./canonical.ts"
import { storable } from "./json-guard.ts"
import { CallAlreadySettled, CallNotFound, CheckpointNotFound, InvalidCursor, RunConflict, RunNotFound, type RunsError, ShuttingDown } from "./runs/errors.ts"
import { RunControl } from "./runs/control.ts"
import { RunEvents } from "./runs/events.ts"
import { Execution } from "./runs/execution.ts"
import type { Saved, Unrecorded } from "./runs/running.ts"
import { Ownership } from "./runs/ownership.ts"
import { RowSeal } from "./row-seal.ts"
import {
  type CallWhere,
  callWhere,
  checkpointView,
  fingerprint,
  failed,
  forkFingerprint,
  isEventId,
  listsCalls,
  type ListOptions,
  outcomeView,
  toView,
} from "./runs/views.ts"
import { CallStore } from "./store/calls.ts"
import type { EventStore } from "./store/events.ts"
import { RunStore, type RunRow } from "./store/runs.ts"
import type { ToolsChanged } from "./store/tools.ts"
import type { Webhooks } from "./webhooks.ts"

export { CallNotFound, CheckpointNotFound, ControlTimeout, InvalidCursor, RunConflict, RunNotFound, type RunsError, ShuttingDown } from "./runs/errors.ts"
export { type CallWhere, fingerprint, isEventId, type ListOptions, toView } from "./runs/views.ts"

/** The row a new run will have once written, for the replica executing it meanwhile. */
const provisional = ({ toolsVersion: _, ...run }: Unrecorded, now: Date): RunRow => ({
  ...run,
  forkedFrom: run.forkedFrom ?? null,
  status: "running",
  result: null,
  leaseExpired: false,
  control: null,
  version: 0,
  seq: "0",
  createdAt: now,
  updatedAt: now,
})

/**
 * A new run's Math.random seed: 16 random bytes, base64url. Taken from a pool filled 256 seeds at a time, as
 * `crypto.randomUUID` does for ids: `randomBytes(16)` per run was one call into the random source per POST.
 */
const newSeed = (() => {
  const pool = Buffer.alloc(16 * 256)
  let at = pool.length
  return (): string => {
    if (at === pool.length) {
      randomFillSync(pool)
      at = 0
    }
    at += 16
    return pool.toString("base64url", at - 16, at)
  }
})()

export class Runs extends Context.Service<
  Runs,
  {
    /** Creates and starts a run; with `wait` (default) answers once it has settled or suspended. */
    readonly create: (tenant: string, request: CreateRun) => Effect.Effect<Run, RunsError>
    /** The run; with `waitMs`, once it has settled or suspended (wherever it executes) or the wait has passed. */
    readonly get: (tenant: string, id: string, waitMs?: number) => Effect.Effect<Run, RunNotFound | SqlError.SqlError>
    readonly list: (tenant: string, options: ListOptions) => Effect.Effect<RunPage, InvalidCursor | SqlError.SqlError>
    readonly suspend: (tenant: string, id: string) => Effect.Effect<Run, RunsError>
    readonly resume: (tenant: string, id: string, waitMs: number) => Effect.Effect<Run, RunsError>
    readonly cancel: (tenant: string, id: string) => Effect.Effect<Run, RunsError>
    /**
     * Starts here a new run from a kept checkpoint of run `id` (any status): calls before it are not made again, the
     * calls in flight there end as `outcomes` say, and the new run records `forkedFrom`. Ids and repeats as `create`.
     */
    readonly fork: (tenant: string, id: string, request: ForkRun) => Effect.Effect<Run, RunsError>
    /** The run's kept checkpoints, oldest first (`RunStore.checkpoints`). */
    readonly checkpoints: (tenant: string, id: string) => Effect.Effect<RunCheckpoints, RunNotFound | SqlError.SqlError>
    /** The run's history from the event after `after`, then its new events as they happen (`RunEvents.follow`). */
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
      where: CallWhere,
      completion: CallCompletion,
    ) => Effect.Effect<CallOutcome, CallNotFound | CallAlreadySettled | SqlError.SqlError>
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
    ServerConfig | RunStore | CallStore | EventStore | ToolRegistry | Executor | Webhooks | Notifications | Metrics | RowSeal
  > = Layer.effect(
    Runs,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const store = yield* RunStore
      const calls = yield* CallStore
      const registry = yield* ToolRegistry
      const execution = yield* Execution
      const ownership = yield* Ownership
      const control = yield* RunControl
      const events = yield* RunEvents
      const notifications = yield* Notifications
      const rowSeal = yield* RowSeal
      const me = config.replicaId

      /** One run as its own answers show it: with its program (lists leave that out: it may be large). */
      const view = Effect.fnUntraced(function* (row: RunRow) {
        const locations = listsCalls(row) ? (row.locations ?? (yield* calls.locations([row.id])).get(row.id)) : undefined
        if (row.status !== "suspended" && row.status !== "running") return { ...toView(row, [], locations), code: row.code }
        const pending = yield* calls.pending([row.id])
        return { ...toView(row, pending.get(row.id), locations), code: row.code }
      })

      const load = Effect.fnUntraced(function* (tenant: string, id: string) {
        const row = yield* store.get(tenant, id)
        if (row === undefined) return yield* new RunNotFound({ id })
        return row
      })

      /** Answers a created or resumed run: once it settles or suspends, or (202, still running) after `waitMs`. */
      const answer = Effect.fnUntraced(function* (saved: Saved, row: RunRow, waitMs: number) {
        if (waitMs <= 0) return yield* view(row)
        const done = yield* execution.within(saved, waitMs)
        return yield* view(done ?? (yield* load(row.tenant, row.id)))
      })

      /** Long-polls a run that may execute on any replica: on every notice about it, and on a poll. */
      const getRun = Effect.fnUntraced(function* (tenant: string, id: string, waitMs = 0) {
        // Most reads do not wait: they need no subscription to the notices.
        if (waitMs <= 0) return yield* view(yield* load(tenant, id))
        const deadline = (yield* Clock.currentTimeMillis) + waitMs
        return yield* Effect.scoped(
          Effect.gen(function* () {
            const subscription = yield* notifications.subscribe
            const noticeFor = Effect.gen(function* () {
              for (;;) if ((yield* PubSub.take(subscription)).runId === id) return
            })
            for (;;) {
              const row = yield* load(tenant, id)
              const left = deadline - (yield* Clock.currentTimeMillis)
              if (row.status !== "running" || left <= 0) return yield* view(row)
              yield* Effect.raceFirst(noticeFor, Effect.sleep(Math.min(left, config.pollMs)))
            }
          }),
        )
      })

      const conflict = (id: string) =>
        new RunConflict({ id, kind: "RunExists", detail: `A run with id ${id} already exists (made by a different request)` })

      /**
       * A create whose id is taken. The same request again (a client retrying with its own id) answers the run it
       * made; anything else — another request, or another tenant's run — is a conflict. A run this replica
       * executes may not be in the store yet: the same request then gets its answer when it is saved.
       */
      const existing = Effect.fnUntraced(function* (tenant: string, id: string, requestHash: string, wait: number) {
        const here = yield* execution.requestOf(id)
        if (here !== undefined && !here.recorded) {
          if (here.tenant !== tenant || here.requestHash !== requestHash) return yield* conflict(id)
          const saved = yield* execution.saved(id)
          const row = saved === undefined ? undefined : yield* Deferred.await(saved)
          if (row !== undefined) return yield* view(row)
        }
        const row = yield* store.get(tenant, id)
        if (row === undefined || row.requestHash !== requestHash) return yield* conflict(id)
        const saved = yield* execution.saved(id)
        return yield* saved === undefined ? view(row) : answer(saved, row, wait)
      })

      /**
       * An unrecorded run that was not stored: its id was taken, or the store refused the row itself (text
       * Postgres cannot hold, say). A plain insert tells which, with the store's own error for the second.
       */
      const unstored = Effect.fnUntraced(function* (run: Unrecorded, wait: number) {
        const row = yield* store.insert({ ...run, leaseMs: config.leaseMs, seal: rowSeal.seal(run) })
        if (row === undefined) return yield* existing(run.tenant, run.id, run.requestHash, wait)
        const ended = yield* store.finish(run.id, me, "failed", failed("ExecutionFailure", "The run ended, but its outcome could not be stored"))
        return yield* view(ended ?? row)
      })

      const refuseWhileDraining = Effect.flatMap(execution.draining, (draining) => (draining ? Effect.fail(new ShuttingDown()) : Effect.void))

      /** A request's limits over `base`; the memory budget never above the service's. */
      const limitsOver = (base: Limits, requested: Limits | undefined): Limits => ({
        ...base,
        ...requested,
        maxMemoryBytes: Math.min(requested?.maxMemoryBytes ?? base.maxMemoryBytes ?? config.maxMemoryBytes, config.maxMemoryBytes),
      })

      /**
       * Starts a new run with its tenant's registrations as kept here (`fresh`: read anew). Its first write fails
       * with `ToolsChanged` when they changed before it (ToolRegistry): nothing of it was stored nor sent, and
       * `create` starts it again, then recorded before it executes (`fresh`): its first write comes right after the
       * read, not after however long the program computes first, so a tenant whose tools change more often than that
       * cannot keep a run executing again and again.
       */
      const launch = Effect.fnUntraced(function* (fields: Omit<Unrecorded, "owner" | "requestHash" | "toolsVersion">, requestHash: string, wait: number, fresh: boolean) {
        const { id, tenant } = fields
        // Checked on every attempt: a replica that began draining since the last one starts no run.
        yield* refuseWhileDraining
        const { registrations, version } = yield* registry.forRun(tenant, fields.tools, fresh)
        const run: Unrecorded = { ...fields, owner: me, requestHash, toolsVersion: version }
        if ((yield* execution.requestOf(id)) !== undefined) return yield* existing(tenant, id, requestHash, wait)
        if (wait > 0 && !fresh) {
          // Until the run ends, suspends or the wait passes, the client hears nothing: the row is written when it
          // must be, often once, at the end (Execution.launchUnrecorded). Undefined: a request for this id got
          // here first.
          const saved = yield* ownership.startUnrecorded(provisional(run, new Date(yield* Clock.currentTimeMillis)), run, registrations)
          if (saved === undefined) return yield* existing(tenant, id, requestHash, wait)
          // A run still going after `recordAfterMs` is written then, not at the wait's end: other clients can see
          // it, and it holds a lease like any other, while this client waits on.
          const unrecordedMs = Math.min(wait, config.recordAfterMs)
          const early = yield* execution.within(saved, unrecordedMs)
          // Undefined is both the wait passing and a run whose end was not stored: only the second is done.
          if (early !== undefined || Deferred.isDoneUnsafe(saved)) {
            const row = early ?? (yield* Deferred.await(saved))
            return yield* row === undefined ? unstored(run, wait) : view(row)
          }
          // Not recorded: its id was taken meanwhile, or its registrations changed; either way it was stopped unseen.
          if (!(yield* execution.record(id))) {
            const row = yield* Deferred.await(saved)
            return yield* row === undefined ? unstored(run, wait) : view(row)
          }
          const done = yield* execution.within(saved, wait - unrecordedMs)
          return yield* view(done ?? (yield* load(tenant, id)))
        }
        const row = yield* store.insert({ ...run, leaseMs: config.leaseMs, seal: rowSeal.seal(fields) })
        if (row === undefined) return yield* existing(tenant, id, requestHash, wait)
        return yield* answer(yield* ownership.start(row, registrations), row, wait)
      })

      const create = (tenant: string, request: CreateRun) =>
        Effect.suspend(() => {
          const fields = {
            id: request.id ?? crypto.randomUUID(),
            tenant,
            code: request.code,
            limits: limitsOver({ timeoutMs: config.defaultTimeoutMs }, request.limits),
            tools: request.tools ?? null,
            seed: newSeed(),
          }
          const requestHash = fingerprint(request)
          const wait = waitMs(request.wait, config, true)
          type Launched = ReturnType<typeof launch>
          const attempt = (fresh: boolean): Effect.Effect<Effect.Success<Launched>, Exclude<Effect.Error<Launched>, ToolsChanged>> =>
            Effect.catchTag(launch(fields, requestHash, wait, fresh), "ToolsChanged", () => attempt(true))
          return attempt(false)
        })

      // Always recorded before it starts (not the one-write path of `create`): the row says where the fork came from,
      // and a replica that takes it over must find that before anything else.
      const fork = Effect.fnUntraced(function* (tenant: string, sourceId: string, request: ForkRun) {
        yield* refuseWhileDraining
        const id = request.id ?? crypto.randomUUID()
        const requestHash = forkFingerprint(sourceId, request)
        const wait = waitMs(request.wait, config, true)
        // A repeat is answered from the run it made, even once the checkpoint it started from has been pruned.
        if ((yield* execution.requestOf(id)) !== undefined || (yield* store.get(tenant, id)) !== undefined) {
          return yield* existing(tenant, id, requestHash, wait)
        }
        const kept = yield* store.checkpointState(tenant, sourceId, request.at)
        if (kept === undefined) return yield* new RunNotFound({ id: sourceId })
        if (kept.state === undefined) return yield* new CheckpointNotFound({ id: sourceId, seq: request.at })
        const source = kept.run
        // The kept state is executed under the fork's own row: it must be one the service kept for this run.
        const sealed = yield* Effect.exit(rowSeal.check(source, kept.state.snapshot, kept.state.seal))
        if (sealed._tag === "Failure") {
          return yield* new RunConflict({ id: sourceId, kind: "CheckpointRefused", detail: `Checkpoint ${kept.state.seq} of run ${sourceId} was refused: it was changed outside the service` })
        }
        const filter = request.tools ?? source.tools
        const registrations = yield* registry.resolve(tenant, filter, true)
        const seed = source.seed ?? newSeed()
        const forkedFrom = { run: source.id, checkpoint: kept.state.seq }
        const fields = { id, tenant, code: source.code, limits: limitsOver(source.limits, request.limits), tools: filter, seed, forkedFrom }
        // No registrations version: a fork reads them anew (`resolve`), and its insert is not refused for them.
        const row = yield* store
          .insert({ ...fields, owner: me, leaseMs: config.leaseMs, requestHash, seal: rowSeal.seal(fields) })
          .pipe(Effect.catchTag("ToolsChanged", (e) => Effect.die(e)))
        if (row === undefined) return yield* existing(tenant, id, requestHash, wait)
        const saved = yield* ownership.fork(row, registrations, kept.state.snapshot, {
          outcomes: request.outcomes ?? {},
          ...(request.limits === undefined ? {} : { limits: fields.limits }),
        })
        return yield* answer(saved, row, wait)
      })

      const resume = Effect.fnUntraced(function* (tenant: string, id: string, waitMs: number) {
        yield* refuseWhileDraining
        const resumed = yield* ownership.resume(tenant, id)
        if (resumed === undefined) {
          const row = yield* load(tenant, id)
          return yield* new RunConflict({ id, kind: "RunNotSuspended", detail: `Run ${id} is ${row.status}, not suspended` })
        }
        return yield* answer(resumed.saved, resumed.row, waitMs)
      })

      const list = Effect.fnUntraced(function* (tenant: string, options: ListOptions) {
        const limit = options.limit ?? 20
        if (options.cursor !== undefined && !isEventId(options.cursor)) return yield* new InvalidCursor({ cursor: options.cursor })
        const time = (iso: string | undefined) => (iso === undefined ? undefined : new Date(iso))
        const rows = yield* store.list(tenant, {
          status: options.status,
          tool: options.tool,
          since: time(options.since),
          until: time(options.until),
          limit: limit + 1,
          before: options.cursor,
        })
        const page = rows.slice(0, limit)
        const pending = yield* calls.pending(page.filter((r) => r.status === "suspended" || r.status === "running").map((r) => r.id))
        const locations = yield* calls.locations(page.filter(listsCalls).map((r) => r.id))
        return {
          runs: page.map((r) => toView(r, pending.get(r.id), locations.get(r.id))),
          ...(rows.length > limit ? { nextCursor: page.at(-1)!.seq } : {}),
        }
      })

      const complete = Effect.fnUntraced(function* (where: CallWhere, completion: CallCompletion) {
        const outcome = completion.ok
          ? { ok: true, output: completion.output ?? null }
          : { ok: false, error: { kind: "ToolFailure", message: completion.error.message } }
        const done = yield* calls.complete(callWhere(where), outcome)
        if (done === undefined) return yield* new CallNotFound({ key: "token" in where ? "(callback)" : where.key })
        if (done.completed) {
          yield* notifications.publish({ type: "events", runId: done.runId })
          // A run that sleeps until this completion continues here (when no other replica got to it first).
          yield* ownership.wake(done.runId)
        }
        const stored = outcomeView(done.outcome)
        // The same outcome again is a retry and answers as the first did; another one would be silently dropped.
        if (!done.completed && canonical(outcomeView(storable(outcome))) !== canonical(stored)) {
          return yield* new CallAlreadySettled({ key: done.key, outcome: stored })
        }
        return { key: done.key, runId: done.runId, outcome: stored }
      })

      const heartbeat = Effect.fnUntraced(function* (where: CallWhere) {
        const beat = yield* calls.heartbeat(callWhere(where))
        if (beat === undefined) return yield* new CallNotFound({ key: "token" in where ? "(callback)" : where.key })
        return { key: beat.key, runId: beat.runId, state: beat.state as CallHeartbeat["state"] }
      })

      const checkpoints = Effect.fnUntraced(function* (tenant: string, id: string) {
        const kept = yield* store.checkpoints(tenant, id)
        if (kept === undefined) return yield* new RunNotFound({ id })
        return { runId: id, checkpoints: kept.map(checkpointView) }
      })

      const drain = execution.drain.pipe(Effect.andThen(events.close))
      // Drained before the services behind this one close (the sweep and lease renewal still run meanwhile).
      yield* Effect.addFinalizer(() => drain)

      return Runs.of({
        create,
        get: getRun,
        list,
        suspend: (tenant, id) => Effect.flatMap(control.suspend(tenant, id), view),
        resume,
        cancel: (tenant, id) => Effect.flatMap(control.cancel(tenant, id), view),
        fork,
        checkpoints,
        events: events.follow,
        complete,
        heartbeat,
        activeCount: execution.count,
        drain,
      })
    }),
  ).pipe(
    Layer.provide(
      Ownership.layer.pipe(
        Layer.provideMerge(RunControl.layer),
        Layer.provideMerge(Execution.layer),
        Layer.provideMerge(RunEvents.layer),
      ),
    ),
  )
}
