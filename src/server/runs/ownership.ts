/**
 * `Ownership`: which replica executes which run (ARCHITECTURE "Ownership"). This replica renews the leases of
 * the runs it executes every `pollMs`, in one statement; a run the renewal no longer returns was taken from it
 * and is stopped here without writing anything. Its sweep fails durable calls that went silent, continues
 * auto-suspended runs that were woken, and takes over the runs of replicas that died (their leases expired):
 * each continues from its checkpoint (or its code), replaying recorded calls from the journal (calls.ts), or is
 * failed when a call that cannot be repeated was in flight. Each step is one atomic store operation, so replicas
 * sweeping together never act twice.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import * as Schedule from "effect/Schedule"
import type * as SqlError from "effect/sql/SqlError"
import { makeCalls } from "../calls.ts"
import { ServerConfig } from "../config.ts"
import { Executor, type Program, type ProgramSpec, type ResumeSpec, type SnapshotInvalid } from "../executor.ts"
import { Metrics } from "../metrics.ts"
import { Notifications } from "../notifications.ts"
import { selected, ToolRegistry, type UnknownToolFilter } from "../registry.ts"
import { type RowRefused, RowSeal } from "../row-seal.ts"
import { CallStore, type RecordedCalls } from "../store/calls.ts"
import { type Claimed, RunStore, type RunRow, type TakenOver } from "../store/runs.ts"
import type { Current, Registrations } from "../store/tools.ts"
import { Webhooks } from "../webhooks.ts"
import { RunControl } from "./control.ts"
import { Execution } from "./execution.ts"
import { failing, type Saved, type Unrecorded } from "./running.ts"
import { failed } from "./views.ts"

/** How often the sweep deletes the checkpoints past their retention, at most. */
const PRUNE_MS = 60_000

/**
 * The background loops (sweep, lease renewal) log whatever one round ends with, defects included, and go on: a
 * loop that stopped would leave this replica's runs unrenewed and other replicas' runs never taken over.
 */
/** A program's spec, less what the row decides (code and limits, or saved state). */
type Bound = Pick<ProgramSpec, "runId" | "tools" | "namespaces" | "onLog">

const survive =
  (what: string) =>
  <E>(round: Effect.Effect<void, E>): Effect.Effect<void> =>
    Effect.catchCause(round, (cause) => (Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logWarning(what, cause)))

export class Ownership extends Context.Service<
  Ownership,
  {
    /** Starts a new run this replica now owns from its code, with the tools it may call. */
    readonly start: (row: RunRow, registrations: Registrations) => Effect.Effect<Saved>
    /** The same for a run not recorded yet (Execution.launchUnrecorded); undefined when its id executes here. */
    readonly startUnrecorded: (row: RunRow, unrecorded: Unrecorded, registrations: Registrations) => Effect.Effect<Saved | undefined>
    /**
     * Starts a fork this replica now owns (its row has `forkedFrom`): `state`, a kept checkpoint of the run it
     * came from, continued as this run (executor `resume` with `fork`).
     */
    readonly fork: (row: RunRow, registrations: Registrations, state: Uint8Array, fork: NonNullable<ResumeSpec["fork"]>) => Effect.Effect<Saved>
    /** Claims a suspended run and continues it here; undefined when it is not suspended (any more). */
    readonly resume: (
      tenant: string,
      id: string,
    ) => Effect.Effect<{ readonly row: RunRow; readonly saved: Saved } | undefined, UnknownToolFilter | SqlError.SqlError>
    /** Continues an auto-suspended run that has been woken, when this replica wins the claim. */
    readonly wake: (id: string) => Effect.Effect<void>
  }
>()("codemode/server/Ownership") {
  static readonly layer: Layer.Layer<
    Ownership,
    never,
    ServerConfig | RunStore | CallStore | Execution | RunControl | ToolRegistry | Executor | Webhooks | Notifications | Metrics | RowSeal
  > = Layer.effect(
    Ownership,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const store = yield* RunStore
      const callStore = yield* CallStore
      const execution = yield* Execution
      const control = yield* RunControl
      const registry = yield* ToolRegistry
      const executor = yield* Executor
      const notifications = yield* Notifications
      const metrics = yield* Metrics
      const rowSeal = yield* RowSeal
      const calls = makeCalls({ config, store: callStore, webhooks: yield* Webhooks, notifications, metrics })
      const me = config.replicaId
      const scope = yield* Effect.scope

      /** Launches on this replica the program `program` makes with the run's tools bound to their webhooks. */
      const launch = (
        row: RunRow,
        replay: boolean,
        registrations: Registrations,
        program: (spec: Bound) => Effect.Effect<Program>,
        recorded?: RecordedCalls,
      ) =>
        execution.launch(
          row,
          replay,
          (run, onLog) => program({ runId: row.id, tools: calls.bindings(run, registrations), namespaces: registrations.namespaces, onLog }),
          recorded,
        )

      const start = (row: RunRow, registrations: Registrations) =>
        launch(row, false, registrations, (spec) => executor.program({ ...spec, code: row.code, limits: row.limits, seed: row.seed ?? undefined }))

      const startUnrecorded = (row: RunRow, unrecorded: Unrecorded, registrations: Registrations) =>
        execution.launchUnrecorded(row, unrecorded, (run, onLog) =>
          executor.program({
            runId: row.id,
            tools: calls.bindings(run, registrations),
            namespaces: registrations.namespaces,
            onLog,
            code: row.code,
            limits: row.limits,
            seed: row.seed ?? undefined,
          }),
        )

      /** A state the engine refuses fails the run that would continue it, saying why. */
      const unusable =
        (what: string) =>
        (program: Effect.Effect<Program, SnapshotInvalid>): Effect.Effect<Program> =>
          Effect.catch(program, (e) => Effect.succeed(failing(`${what}: ${e.message}`)))

      const fork = (row: RunRow, registrations: Registrations, state: Uint8Array, spec: NonNullable<ResumeSpec["fork"]>) =>
        launch(row, false, registrations, (bound) =>
          executor.resume({ ...bound, state, fork: spec }).pipe(unusable("The fork could not be made from its checkpoint")),
        )

      /**
       * A run whose row was changed outside the service fails without executing anything: no tool is bound to
       * it, and nothing of its row (its tools filter included) is used.
       */
      const refuse = (row: RunRow, refused: RowRefused) =>
        Effect.logWarning(`run ${row.id}: ${refused.message}`).pipe(
          Effect.andThen(launch(row, true, { tools: [], namespaces: [] }, () => Effect.succeed(failing(refused.message)))),
        )

      /**
       * Continues a run from saved state (a suspend or a checkpoint), or from its code when it has none, once its
       * row's seal (`seal`, as stored) matches its fields and that state. `recorded`: its journal as its claim read it.
       */
      const continueRun = (row: RunRow, state: Uint8Array | undefined, seal: string | null, everything?: Registrations, recorded?: RecordedCalls) =>
        rowSeal.check(row, state, seal).pipe(
          Effect.matchEffect({ onFailure: (refused) => refuse(row, refused), onSuccess: () => continueSealed(row, state, everything, recorded) }),
        )

      /**
       * The program, running `untaken` once it ends however it ends (or once it could not be made): a finalizer on
       * the run's own fiber rather than a fiber of its own waiting for the run's end.
       */
      const ending =
        (untaken: Effect.Effect<void> | undefined) =>
        (program: Effect.Effect<Program>): Effect.Effect<Program> =>
          untaken === undefined
            ? program
            : program.pipe(
                Effect.map((made): Program => ({ ...made, run: Effect.ensuring(made.run, untaken) })),
                Effect.onError(() => untaken),
              )

      /**
       * A fork never starts from its code, which would make again the calls it was forked to skip: without a state of
       * its own it fails, and a state this build cannot read is not replayed. Made once, as every generator function
       * on a resume's path: one made per resume gets a hidden class of its own, and the runtime's calls into its
       * generators stop being monomorphic.
       */
      const continueSealed = Effect.fnUntraced(function* (
        row: RunRow,
        state: Uint8Array | undefined,
        everything: Registrations | undefined,
        recorded: RecordedCalls | undefined,
      ) {
        const registrations = selected(everything ?? (yield* registry.all(row.tenant)), row.tools)
        const replay = row.forkedFrom === null ? { code: row.code, limits: row.limits, seed: row.seed ?? undefined } : undefined
        const restored = executor.ahead?.prepared(row.id) ?? false
        const untaken = state === undefined ? undefined : yield* calls.resend(row.id, registrations, recorded, scope, restored)
        return yield* launch(
          row,
          true,
          registrations,
          (spec) =>
            state !== undefined
              ? executor.resume({ ...spec, state, replay }).pipe(unusable("The run's saved state cannot be resumed"), ending(untaken))
              : replay === undefined
                ? Effect.succeed(failing(`Fork ${row.id} stopped before it saved a state of its own; fork its checkpoint again`))
                : executor.program({ ...spec, ...replay }),
          recorded,
        )
      })

      /** The registrations a claim read (kept for the next), or, when it read none, those this replica keeps. */
      const registrationsOf = (tenant: string, claimed: Claimed, held: Current | undefined) =>
        claimed.registrations === undefined
          ? Effect.succeed(held?.registrations)
          : Effect.as(registry.read(tenant, claimed.registrations), claimed.registrations.registrations)

      const discard = (id: string) => (executor.ahead === undefined ? Effect.void : executor.ahead.discard(id))

      const resume = Effect.fnUntraced(function* (tenant: string, id: string) {
        // The claim reads the tenant's tools with the run unless those kept here are current; the claimed row's
        // `tools` filter is applied to them here.
        const held = yield* registry.held(tenant)
        // The state this replica saw the run suspend with is restored while the claim is under way (begun once the
        // claim's statement has left: a fiber starts on the scheduler's next turn); the claim's state, if the same,
        // continues it (isolation/pool.ts `prepare`), and nothing it asks for is done before.
        if (executor.ahead !== undefined) yield* Effect.forkChild(executor.ahead.prepare(id))
        const claimed = yield* store.claim(tenant, id, me, config.leaseMs, held?.version).pipe(Effect.onError(() => discard(id)))
        if (claimed === undefined) {
          yield* discard(id)
          return undefined
        }
        metrics.resumed()
        yield* notifications.sentWith({ type: "changed", runId: id })
        const registrations = yield* registrationsOf(tenant, claimed, held)
        return { row: claimed.row, saved: yield* continueRun(claimed.row, claimed.snapshot, claimed.seal, registrations, claimed.journal) }
      })

      const wake = (id: string): Effect.Effect<void> =>
        Effect.gen(function* () {
          if (yield* execution.draining) return
          const claimed = yield* store.claimWoken(id, me, config.leaseMs)
          if (claimed === undefined) return
          metrics.resumed()
          yield* notifications.sentWith({ type: "changed", runId: id })
          yield* continueRun(claimed.row, claimed.snapshot, claimed.seal, yield* registrationsOf(claimed.row.tenant, claimed, undefined), claimed.journal)
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
            return yield* fail(`The replica executing run ${row.id} stopped while calls that cannot be repeated safely were in progress: ${list}`)
          }
          yield* Effect.logInfo(`continuing run ${row.id} after its replica ${taken.previousOwner ?? "(unknown)"} stopped`)
          yield* continueRun(row, taken.checkpoint, taken.seal)
        }).pipe(Effect.catch((e) => Effect.logWarning(`could not recover run ${taken.row.id}`, e)))

      // The sweep, on every replica: one read says which of its steps have work, so an idle replica makes one
      // statement a round instead of a transaction for each step.
      // A run woken by a completion is continued by the replica that recorded it (Runs.complete), or by the one that
      // expired its call (here): the sweep continues only a run it found wakeable in its previous round too, one whose
      // wake was lost with its replica, rather than race that replica's claim for every completion.
      let pruned = -Infinity
      let wakeable = new Set<string>()
      yield* Effect.gen(function* () {
        if (yield* execution.draining) return
        const due = yield* store.due(10, yield* execution.ids)
        if (due.expiring) {
          for (const runId of new Set(yield* callStore.expire)) {
            yield* notifications.publish({ type: "events", runId })
            yield* wake(runId)
          }
        }
        const seen = wakeable
        wakeable = new Set(due.wakeable.map((r) => r.id))
        for (const r of due.wakeable) if (seen.has(r.id)) yield* wake(r.id)
        // Kept states past their retention go, checked once per PRUNE_MS (or per retention, when shorter): a week's
        // retention needs no statement every second. The index on created_at keeps this cheap when none has.
        const now = yield* Clock.currentTimeMillis
        if (now - pruned >= Math.min(PRUNE_MS, config.checkpointRetentionMs)) {
          pruned = now
          yield* store.pruneCheckpoints(config.checkpointRetentionMs)
        }
        for (let i = 0; due.orphaned && i < 10 && !(yield* execution.draining); i++) {
          const taken = yield* store.takeOver(me, config.leaseMs, yield* execution.ids)
          if (taken === undefined) break
          yield* recover(taken)
        }
      }).pipe(survive("the sweep failed"), Effect.repeat(Schedule.spaced(config.pollMs)), Effect.forkScoped)

      // Lease renewal, lease-loss detection and the control-request poll (the fallback for lost notices).
      yield* Effect.gen(function* () {
        const started = yield* Clock.currentTimeMillis
        const owned = yield* store.renewLeases(me, yield* execution.ids, config.leaseMs)
        for (const r of owned) if (r.control !== null) yield* control.handle(r.id, r.control)
        yield* execution.stopLost(new Set(owned.map((r) => r.id)), started)
      }).pipe(survive("lease renewal failed"), Effect.repeat(Schedule.spaced(config.pollMs)), Effect.forkScoped)

      // The completion a run auto-suspended for may have come while it was being saved.
      const suspended = yield* PubSub.subscribe(execution.suspendedRuns)
      yield* Effect.forever(Effect.flatMap(PubSub.take(suspended), wake)).pipe(Effect.forkScoped)

      return Ownership.of({ start, startUnrecorded, fork, resume, wake })
    }),
  )
}
