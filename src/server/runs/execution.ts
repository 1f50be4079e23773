/**
 * `Execution`: the runs executing on this replica, each a fiber in the run scope, found by run id. It launches a
 * program for a row this replica owns, checkpoints it at its call boundaries, streams its log lines, suspends it
 * once it only waits on started durable calls (`idleSuspendMs`), and writes how it ended — finished, suspended,
 * cancelled, or failed because it was stopped. A new run may be launched unrecorded: its row is written only
 * before its first call leaves the process, its first log flush or its suspend, and a run that ends before any of
 * them is stored in one statement with its whole history (`RunStore.insertEnded`). What each run needs for that
 * (its program, its calls in flight, why it is being stopped) stays here; the other run services act on a run by
 * its id.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Semaphore from "effect/Semaphore"
import * as PubSub from "effect/PubSub"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import type * as SqlError from "effect/sql/SqlError"
import type { RunCalls } from "../calls.ts"
import { ServerConfig } from "../config.ts"
import type { Checkpoint, Suspended, SuspendRefused } from "../executor.ts"
import { Metrics } from "../metrics.ts"
import { Notifications } from "../notifications.ts"
import { RowSeal } from "../row-seal.ts"
import { ToolRegistry } from "../registry.ts"
import { CallStore, type NewCall, type RecordedCalls } from "../store/calls.ts"
import { isTransient, sqlMessage } from "../store/errors.ts"
import { RunStore, type RunRow } from "../store/runs.ts"
import { Webhooks } from "../webhooks.ts"
import { tellCancelled } from "./cancelled.ts"
import { RunEvents } from "./events.ts"
import { failed } from "./views.ts"
import { checkpointed, checkpointer, idleSuspender, takeHeld } from "./background.ts"
import { makeDeadlines } from "./deadlines.ts"
import { failing, type Make, type Running, type Saved, type StopReason, takeLogs, type Unrecorded } from "./running.ts"

const LOG_FLUSH_MS = 100

const describe = (defect: unknown): string => (defect instanceof Error ? defect.message : String(defect))

export class Execution extends Context.Service<
  Execution,
  {
    /** Runs the program `make` builds for the row this replica now owns, in the background. */
    readonly launch: (row: RunRow, replay: boolean, make: Make, recorded?: RecordedCalls) => Effect.Effect<Saved>
    /**
     * Runs a new run whose row is not written yet (`row` is what it will be): the id is reserved on this replica,
     * and the row written once needed. Undefined when a run with this id executes here already.
     */
    readonly launchUnrecorded: (row: RunRow, unrecorded: Unrecorded, make: Make) => Effect.Effect<Saved | undefined>
    /** The run's `Saved`, when it executes here. */
    readonly saved: (id: string) => Effect.Effect<Saved | undefined>
    /** The row `saved` completes with, or undefined once `ms` have passed first (on this replica's Clock). */
    readonly within: (saved: Saved, ms: number) => Effect.Effect<RunRow | undefined>
    /** Asks a run executing here to suspend (`by` decides how it is saved); undefined when it is not here. */
    readonly suspend: (id: string, by: "manual" | "shutdown") => Effect.Effect<Saved | undefined, SuspendRefused>
    /** Stops a run executing here and waits until its outcome is written; undefined when it is not here. */
    readonly stop: (id: string, reason: StopReason) => Effect.Effect<RunRow | undefined | "absent">
    /**
     * Stops, without writing anything, the runs a lease renewal that began at `renewalStarted` did not return:
     * another replica took them.
     */
    readonly stopLost: (renewed: ReadonlySet<string>, renewalStarted: number) => Effect.Effect<void>
    /** The runs executing here that the store knows (their leases are renewed). */
    readonly ids: Effect.Effect<ReadonlyArray<string>>
    /**
     * Writes now the row of a run executing here unrecorded (its client is told of it while it runs): false when
     * its id was taken meanwhile, and the run is stopped unseen.
     */
    readonly record: (id: string) => Effect.Effect<boolean, SqlError.SqlError>
    /** How many runs execute here. */
    readonly count: Effect.Effect<number>
    /** Who asked for a run executing here (tenant, request fingerprint), and whether the store knows it yet. */
    readonly requestOf: (
      id: string,
    ) => Effect.Effect<{ readonly tenant: string; readonly requestHash: string | null; readonly recorded: boolean } | undefined>
    /** The tenant of a run executing here. */
    readonly tenantOf: (id: string) => Effect.Effect<string | undefined>
    /** Ids of runs that left this replica suspended (a completion may have come while they were saved). */
    readonly suspendedRuns: PubSub.PubSub<string>
    /** This replica takes no more runs. */
    readonly draining: Effect.Effect<boolean>
    /** Stops taking runs and suspends (or fails) those executing here: the first step of a shutdown. */
    readonly drain: Effect.Effect<void>
  }
>()("codemode/server/Execution") {
  static readonly layer: Layer.Layer<
    Execution,
    never,
    ServerConfig | RunStore | CallStore | RunEvents | ToolRegistry | Webhooks | Notifications | Metrics | RowSeal
  > = Layer.effect(
    Execution,
    // One closure on purpose: the run table and the run scope must not leak out of this service
    // (nothing else may hold a run's mutable state); each member below is short.
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const store = yield* RunStore
      const events = yield* RunEvents
      const calls = yield* CallStore
      const notifications = yield* Notifications
      const metrics = yield* Metrics
      const rowSeal = yield* RowSeal
      const cancelled = tellCancelled(yield* ToolRegistry, yield* Webhooks)
      const me = config.replicaId
      const running = new Map<string, Running>()
      const suspendedRuns = yield* PubSub.unbounded<string>()
      const runScope = yield* Scope.make()
      const fork = <A, E>(effect: Effect.Effect<A, E>) => Effect.asVoid(Effect.forkIn(effect, runScope))
      let draining = false
      const deadlines = makeDeadlines(yield* Clock.Clock)
      yield* fork(deadlines.loop)

      const armIdle = idleSuspender(config.idleSuspendMs, fork)
      const checkpoint = checkpointer(store, me, config.checkpointMaxPerRun, fork)

      /**
       * Records the outcomes its program already has (RunCalls.settleLater) and then each call's boundary (a
       * checkpoint, unless the run has ended). Like any call bookkeeping, a failure is logged, not the run's.
       */
      const writeSettled = (run: Running) =>
        Effect.suspend(() => {
          if (run.settles.length === 0) return Effect.void
          return calls.settled(run.id, run.settles.splice(0)).pipe(
            Effect.andThen(notifications.sentWith({ type: "events", runId: run.id })),
            Effect.andThen(run.finishing ? Effect.void : checkpoint(run, false)),
            Effect.catch((e) => Effect.logWarning("could not record a tool call", e)),
          )
        })

      /** Writes the lines logged since the last flush as `log` events. */
      const writeLogs = (run: Running) =>
        Effect.suspend(() => {
          if (run.logs.length === 0) return Effect.void
          const { logs, truncated } = takeLogs(run)
          return events
            .appendLogs(run.id, logs, truncated)
            .pipe(Effect.catch((e) => Effect.logWarning(`could not record the logs of run ${run.id}`, e)))
        })

      /** Writes the outcomes left to record, then the lines logged since the last flush (an unrecorded run keeps both for its end). */
      const writeFlush = (run: Running) =>
        Effect.suspend(() => (run.unrecorded !== undefined ? Effect.void : writeSettled(run).pipe(Effect.andThen(writeLogs(run)))))

      /**
       * `writeFlush`, one flush at a time, so the timer's and a call's flushes cannot write a run's lines out of order.
       * A flush is not interrupted once it has its permit: it takes what it writes out of the run first, so the run's
       * end or a cancel would otherwise lose lines and outcomes on their way to the database. Its statements are
       * bounded (the store's retries are), so an interrupt waits at most for them.
       */
      const flushLogs = (run: Running) => run.flushLock.withPermit(Effect.uninterruptible(writeFlush(run)))

      const interruptFiber = (run: Running) => Effect.suspend(() => (run.fiber === undefined ? Effect.void : Fiber.interrupt(run.fiber)))

      /** Stops the run from outside its fiber (a caller inside it would wait for itself). */
      const stopLater = (run: Running, reason: StopReason) =>
        Effect.suspend(() => {
          run.stop ??= reason
          return fork(interruptFiber(run))
        })

      /** `stopLater`, from a fiber the run's interruption ends: it waits to be interrupted. */
      const stopFromWithin = (run: Running, reason: StopReason) => stopLater(run, reason).pipe(Effect.andThen(Effect.never))

      const unrecordable = (run: Running, e: SqlError.SqlError) =>
        Effect.sync(() => void (run.fault ??= `The run could not be recorded: ${sqlMessage(e)}`))

      /**
       * Makes sure the store knows the run before something leaves the process or outlives it here: a run whose
       * id was taken meanwhile (by another replica) is stopped unseen, and one that cannot be written is failed.
       * `stop` is `stopFromWithin` from the run's own fiber, `stopLater` from another.
       */
      const recordFirst = (run: Running, stop: typeof stopLater = stopFromWithin): Effect.Effect<void> =>
        Effect.suspend(() =>
          run.unrecorded === undefined
            ? Effect.void
            : run.record.pipe(
                Effect.matchEffect({
                  onSuccess: (ok) => (ok ? Effect.void : stop(run, "clash")),
                  onFailure: (e) => unrecordable(run, e).pipe(Effect.andThen(stop(run, "fault"))),
                }),
              ),
        )

      /**
       * The timer's flush of a run at `now`: an unrecorded run that logged is recorded once it has run for
       * LOG_FLUSH_MS (a shorter one is still stored whole at its end), and a run that ends or is stopped writes what
       * is left itself. Under the flush permit throughout, so that end, which takes the permit before it writes,
       * comes after any of this.
       */
      const flushTimed = (run: Running, now: number) =>
        run.flushLock.withPermit(
          Effect.uninterruptible(
            Effect.suspend(() => {
              if (run.finishing || run.stop !== undefined) return Effect.void
              if (run.unrecorded !== undefined && (run.logs.length === 0 || now - run.since < LOG_FLUSH_MS)) return Effect.void
              // A run that could not be recorded stays unrecorded, and writeFlush then writes nothing.
              return recordFirst(run, stopLater).pipe(Effect.andThen(writeFlush(run)))
            }),
          ),
        )

      // Every LOG_FLUSH_MS, one fiber flushes the runs that logged lines or have outcomes to record: a fiber and a
      // timer of its own per run cost every run, most of which never log (about 5 µs of each POST /v1/runs).
      yield* fork(
        Effect.forever(
          Effect.sleep(LOG_FLUSH_MS).pipe(
            Effect.andThen(Clock.currentTimeMillis),
            Effect.flatMap((now) =>
              Effect.forEach(
                [...running.values()].filter((r) => (r.logs.length > 0 || r.settles.length > 0) && !r.finishing && r.stop === undefined),
                (run) => flushTimed(run, now).pipe(Effect.catchDefect((defect) => Effect.logWarning(`could not flush the logs of run ${run.id}`, defect))),
                { concurrency: "unbounded", discard: true },
              ),
            ),
          ),
        ),
      )

      /**
       * A call's start (CallStore.started), after the outcomes and lines left to write. A run not recorded yet is
       * recorded with it, in one statement, unless it logged lines the call's event must follow; a run whose id was
       * taken meanwhile is stopped unseen. When that statement fails, the two are written apart, so that a call the
       * database refuses fails alone, and a run it refuses is failed (`recordFirst`).
       */
      const started = (run: Running, call: NewCall): Effect.Effect<boolean, SqlError.SqlError> =>
        Effect.suspend(() =>
          run.unrecorded !== undefined && run.logs.length === 0
            ? Effect.uninterruptible(recordOnce(run, call)).pipe(
                Effect.matchEffect({
                  onSuccess: (ok) => (ok === undefined ? begin(run, call) : ok ? Effect.succeed(true) : stopFromWithin(run, "clash")),
                  onFailure: () => apart(run, call),
                }),
              )
            : apart(run, call),
        )
      const apart = (run: Running, call: NewCall) => recordFirst(run).pipe(Effect.andThen(begin(run, call)))
      const begin = (run: Running, call: NewCall) => flushLogs(run).pipe(Effect.andThen(calls.started(run.id, me, call)))

      const tracker = (run: Running, replay: boolean, recorded: RecordedCalls | undefined): RunCalls => ({
        runId: run.id,
        replay,
        recorded,
        busy: (delta) => Effect.suspend(() => ((run.busy += delta), armIdle(run))),
        started: (call) => started(run, call),
        waiting: (key, on) => Effect.suspend(() => (on ? run.waiting.add(key) : run.waiting.delete(key), armIdle(run))),
        flushLogs: flushLogs(run),
        settleLater: (call) => Effect.sync(() => void run.settles.push(call)),
        boundary: (now) => checkpoint(run, now),
        fault: (message) =>
          Effect.suspend(() => {
            run.fault ??= message
            return stopFromWithin(run, "fault")
          }),
        taken: Effect.logWarning(`run ${run.id} is no longer this replica's; stopping it here`).pipe(
          Effect.andThen(stopFromWithin(run, "lease")),
        ),
        lost: () => run.stop === "lease",
      })

      /**
       * How a run's end is being saved: the row as saved (undefined while nothing is), whether it was stored whole at
       * its end (`unseen`: nobody could wait on a notice for a run no store had, not found until now), and whether
       * `store.finish` announced it (its statement does).
       */
      interface Saving {
        readonly run: Running
        readonly row: RunRow
        saved: RunRow | undefined
        unseen: boolean
        announced: boolean
      }

      // An unrecorded run is stored whole, with the logs it kept, in one statement, unsealed: an ended run is never
      // continued (a seal is checked only when a row is taken to execute it), and one unsealed would be refused.
      // Under the record lock: a record racing the end (the client's wait, a first log) is either done before it
      // (then the row is finished) or finds the run stored whole (then it has nothing to do).
      // `held`: the state before an idempotent call, not written yet (background.ts `takeHeld`), kept with the end.
      const finish = (s: Saving, status: "succeeded" | "failed", result: Parameters<typeof store.finish>[3], held?: Checkpoint) =>
        s.run.recordLock.withPermit(
          Effect.suspend(() =>
            s.run.unrecorded === undefined
              ? store
                  .finish(s.row.id, me, status, result, s.run.settles.splice(0), held && {
                    snapshot: held.bytes,
                    seal: s.run.seal(held.bytes),
                    at: { calls: held.calls, lastKey: held.lastKey, keep: config.checkpointMaxPerRun },
                  })
                  .pipe(Effect.tap((ended) => Effect.sync(() => void (s.announced = ended !== undefined))))
              : store
                  .insertEnded({ ...s.run.unrecorded, seal: null, status, result, ...takeLogs(s.run) })
                  .pipe(
                    // Started with registrations changed since: stored nowhere, it is started again (Runs.create).
                    Effect.catchTag("ToolsChanged", () => Effect.succeed(undefined)),
                    Effect.tap((ended) => Effect.sync(() => void (ended !== undefined && ((s.run.unrecorded = undefined), (s.unseen = true))))),
                  ),
          ),
        )
      const suspendSaved = (s: Saving, saved: Suspended, auto: Parameters<typeof store.suspend>[5]) =>
        s.run.record.pipe(
          Effect.flatMap((ok) =>
            ok
              ? flushLogs(s.run).pipe(
                  Effect.andThen(
                    store.suspend(s.row.id, me, saved.state, s.run.seal(saved.state), { calls: saved.calls, lastKey: saved.lastKey, keep: config.checkpointMaxPerRun }, auto),
                  ),
                )
              : Effect.succeed(undefined),
          ),
        )

      /** A state held when its run suspends elsewhere in the journal: kept before the suspend's own, as a checkpoint. */
      const keepHeld = (run: Running, held: Checkpoint) =>
        store
          .checkpoint(run.id, me, held.bytes, run.seal(held.bytes), { calls: held.calls, lastKey: held.lastKey, keep: config.checkpointMaxPerRun })
          .pipe(Effect.catch((e) => Effect.logWarning(`could not save a checkpoint of run ${run.id}`, e)))

      // The generator functions below are made once, not per run (`Effect.fnUntraced` here, not an `Effect.gen` in
      // `save`): a generator function made per run gets a hidden class of its own in old space, which keeps the
      // run alive until a full GC.
      const runAndSave = Effect.fnUntraced(function* (s: Saving) {
        const { run, row } = s
        const outcome = yield* run.program.run.pipe(
          Effect.catchDefect((defect) => Effect.succeed(failed("ExecutionFailure", `Internal error: ${describe(defect)}`))),
        )
        run.finishing = true
        // A state held for the end is kept with it (RunStore.finish).
        const held = takeHeld(run)
        // Outcomes left to record go with the run's end (or its suspend), unless lines logged after them must be
        // written first; either way after the timer's flush under way, if one is.
        yield* run.logs.length > 0 ? flushLogs(run) : run.flushLock.withPermit(Effect.void)
        // A suspend keeps its own state as the latest checkpoint; an end must not overtake the ones it took.
        if (outcome.ok !== "suspended") yield* checkpointed(run)
        // A suspend's state at the same place in the journal (its call still in flight) makes one held redundant.
        else if (held !== undefined && (held.calls !== outcome.calls || held.lastKey !== outcome.lastKey)) yield* keepHeld(run, held)
        // Saving is not interrupted halfway: a cancel that arrives now finds the run already ended. An outcome
        // the database refuses (not a connection failure, which the store tries again) fails the run instead of
        // leaving it running with nobody executing it.
        const unstorable = (e: SqlError.SqlError) =>
          isTransient(e)
            ? Effect.fail(e)
            : Effect.logError(`the outcome of run ${row.id} cannot be stored`, e).pipe(
                Effect.andThen(finish(s, "failed", failed("ExecutionFailure", `The run ended, but its outcome could not be stored: ${sqlMessage(e)}`))),
              )
        const auto = run.suspending === "idle" ? { waiting: run.sleepingOn } : run.suspending === "shutdown" ? { waiting: [], wake: true } : undefined
        s.saved = yield* Effect.uninterruptible(
          (outcome.ok === "suspended" ? suspendSaved(s, outcome, auto) : finish(s, outcome.ok ? "succeeded" : "failed", outcome, held)).pipe(
            Effect.catch(unstorable),
          ),
        )
        if (s.saved === undefined) yield* Effect.logWarning(`run ${row.id} was taken from this replica before its outcome was saved`)
        else if (outcome.ok === "suspended") metrics.snapshot(outcome.state.length)
      })

      const saveStopped = Effect.fnUntraced(function* (s: Saving) {
        const { run, row } = s
        // A state held for the run's end is kept before the run is ended: the store keeps no checkpoint after that.
        const held = takeHeld(run)
        if (held !== undefined) yield* keepHeld(run, held)
        yield* flushLogs(run)
        if (run.stop === "cancel") {
          const done = yield* store.cancel(row.tenant, row.id, { owner: me })
          if (done !== undefined) yield* cancelled(row.tenant, done.durable)
          s.saved = done?.row ?? s.saved
        }
        if (run.stop === "shutdown" || run.stop === "fault") {
          const message = run.fault ?? "The replica executing this run shut down before the run finished"
          s.saved = (yield* finish(s, "failed", failed("ExecutionFailure", message))) ?? s.saved
        }
      })

      const ended = Effect.fnUntraced(function* (s: Saving) {
        running.delete(s.row.id)
        yield* Deferred.succeed(s.run.saved, s.saved)
        if (!s.unseen) yield* (s.announced ? notifications.sentWith : notifications.publish)({ type: "changed", runId: s.row.id })
        if (s.saved?.status === "suspended") yield* PubSub.publish(suspendedRuns, s.row.id)
      })

      /** Writes how the run ended: what its program returned, or what stopping it means. */
      const save = (run: Running, row: RunRow) => {
        const s: Saving = { run, row, saved: undefined, unseen: false, announced: false }
        return runAndSave(s).pipe(
          Effect.onInterrupt(() => saveStopped(s)),
          Effect.catch((e) => Effect.logError(`could not save the outcome of run ${row.id}`, e)),
          Effect.ensuring(ended(s)),
          Effect.annotateLogs({ runId: row.id }),
        )
      }

      /**
       * The one insert of an unrecorded run's row, from when its lease starts, with its first call when given
       * (NewRun.call): false when its id was taken meanwhile, undefined when the row was written already.
       */
      const recordOnce = (run: Running, call?: NewCall) =>
        run.recordLock.withPermit(
          Effect.suspend(() =>
            run.unrecorded === undefined
              ? Effect.succeed(undefined)
              : store.insert({ ...run.unrecorded, leaseMs: config.leaseMs, seal: rowSeal.seal(run.unrecorded), call }).pipe(
                  // Started with registrations changed since: stopped unseen, as for a taken id, and started again.
                  Effect.catchTag("ToolsChanged", () => Effect.succeed(undefined)),
                  Effect.flatMap((inserted) =>
                    Effect.map(Clock.currentTimeMillis, (now) => {
                      if (inserted === undefined) return false
                      run.unrecorded = undefined
                      run.since = now
                      return true
                    }),
                  ),
                ),
          ),
        )

      const start = Effect.fnUntraced(function* (
        row: RunRow,
        replay: boolean,
        make: Make,
        unrecorded: Unrecorded | undefined,
        recorded: RecordedCalls | undefined,
      ) {
        // Checked and reserved without yielding to another fiber in between: two requests for one id on this replica.
        if (unrecorded !== undefined && running.has(row.id)) return undefined
        const run: Running = {
          id: row.id,
          tenant: row.tenant,
          requestHash: row.requestHash,
          seal: (state) => rowSeal.seal(row, state),
          program: failing("The run has not started"),
          fiber: undefined,
          saved: Deferred.makeUnsafe<RunRow | undefined>(),
          since: 0,
          unrecorded,
          record: Effect.succeed(true),
          stop: undefined,
          fault: undefined,
          finishing: false,
          suspending: "manual",
          busy: 0,
          waiting: new Set(),
          sleepingOn: [],
          generation: 0,
          checkpointing: undefined,
          checkpointAgain: undefined,
          held: undefined,
          holding: undefined,
          settles: [],
          logs: [],
          flushLock: Semaphore.makeUnsafe(1),
          recordLock: Semaphore.makeUnsafe(1),
        }
        running.set(row.id, run)
        run.since = yield* Clock.currentTimeMillis
        // Not interrupted halfway (a call or the timer's flush may start it, and the run be stopped meanwhile): a row
        // written but not noted here would make the run's end clash with itself.
        if (unrecorded !== undefined) run.record = yield* Effect.cached(Effect.uninterruptible(Effect.map(recordOnce(run), (ok) => ok ?? true)))
        run.program = yield* make(tracker(run, replay, recorded), (line, index) => void run.logs.push({ line, index })).pipe(
          Effect.catchDefect((defect) => Effect.succeed(failing(`The program could not be started: ${describe(defect)}`))),
        )
        // In the run scope, not a FiberMap: the run table already finds a run by id (a FiberMap's keyed bookkeeping
        // was about 2.5 us of each POST /v1/runs).
        run.fiber = yield* Effect.forkIn(save(run, row), runScope, { startImmediately: true })
        // A new fork's state of its own, at once: a replica that takes it over continues from a state, and a fork
        // has no code to start again from (Ownership.continueSealed).
        if (row.forkedFrom !== null && !replay) yield* checkpoint(run, false)
        return run.saved
      })

      const stop = Effect.fnUntraced(function* (id: string, reason: StopReason) {
        const run = running.get(id)
        if (run === undefined) return "absent" as const
        run.stop ??= reason
        yield* interruptFiber(run)
        return yield* Deferred.await(run.saved)
      })

      const suspend = Effect.fnUntraced(function* (id: string, by: "manual" | "shutdown") {
        const run = running.get(id)
        if (run === undefined) return undefined
        run.suspending = by
        yield* run.program.suspend
        return run.saved
      })

      const stopLost = Effect.fnUntraced(function* (renewed: ReadonlySet<string>, renewalStarted: number) {
        for (const run of running.values()) {
          const leased = run.unrecorded === undefined
          if (leased && !renewed.has(run.id) && !run.finishing && run.since < renewalStarted && run.stop === undefined) {
            yield* Effect.logWarning(`lost the lease of run ${run.id}; stopping it here`)
            yield* stopLater(run, "lease")
          }
        }
      })

      // Shutdown: refuse new runs, suspend what can be suspended (saved woken: another replica continues them), fail
      // the rest. `drain` is called while the socket is still open (main.ts `serve`), so requests waiting on these
      // runs get their answer; the finalizer is the backstop when the layer closes without it.
      const drain = Effect.gen(function* () {
        draining = true
        yield* Effect.forEach(
          [...running.keys()],
          (id) =>
            Effect.gen(function* () {
              // A plain call in flight blocks the suspend: give it until the drain deadline to answer.
              const suspended = yield* Effect.exit(
                suspend(id, "shutdown").pipe(
                  Effect.retry({ schedule: Schedule.spaced("100 millis"), while: (e) => e.reason === "Blocked" }),
                  Effect.timeout(config.drainMs),
                ),
              )
              if (Exit.isSuccess(suspended) && suspended.value !== undefined) yield* Deferred.await(suspended.value)
              else yield* stop(id, "shutdown")
            }).pipe(Effect.timeout(config.drainMs + 10_000), Effect.ignore),
          { concurrency: "unbounded" },
        )
      })
      yield* Effect.addFinalizer(() => drain.pipe(Effect.andThen(Scope.close(runScope, Exit.void))))

      return Execution.of({
        // Only an unrecorded launch can find its id taken here.
        launch: (row, replay, make, recorded) => Effect.map(start(row, replay, make, undefined, recorded), (saved) => saved!),
        launchUnrecorded: (row, unrecorded, make) => start(row, false, make, unrecorded, undefined),
        saved: (id) => Effect.sync(() => running.get(id)?.saved),
        within: deadlines.within,
        suspend,
        stop,
        stopLost,
        ids: Effect.sync(() => [...running.values()].filter((r) => r.unrecorded === undefined).map((r) => r.id)),
        count: Effect.sync(() => running.size),
        record: (id) =>
          Effect.suspend(() => {
            const run = running.get(id)
            if (run === undefined || run.unrecorded === undefined) return Effect.succeed(true)
            return Effect.tap(run.record, (ok) => (ok ? Effect.void : fork(stop(id, "clash"))))
          }),
        tenantOf: (id) => Effect.sync(() => running.get(id)?.tenant),
        requestOf: (id) =>
          Effect.sync(() => {
            const run = running.get(id)
            return run && { tenant: run.tenant, requestHash: run.requestHash, recorded: run.unrecorded === undefined }
          }),
        suspendedRuns,
        draining: Effect.sync(() => draining),
        drain,
      })
    }),
  )
}
