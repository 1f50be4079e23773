/**
 * `RunControl`: suspend and cancel, wherever the run executes (ARCHITECTURE "Cross-replica control"). On the
 * owner they act directly. Elsewhere the request is written to `runs.control` and announced with a notice; the
 * owner acts on the notice, or on its next lease renewal if the notice was lost (`handle`), and writes the
 * outcome to the row. The requester re-reads the row on every notice and on a short poll until the status
 * changes, a refusal arrives, or `controlTimeoutMs` passes.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import type * as SqlError from "effect/sql/SqlError"
import { ServerConfig } from "../config.ts"
import { SuspendRefused } from "../executor.ts"
import { Notifications } from "../notifications.ts"
import { ToolRegistry } from "../registry.ts"
import { type Control, RunStore, type RunRow } from "../store/runs.ts"
import { Webhooks } from "../webhooks.ts"
import { tellCancelled } from "./cancelled.ts"
import { ControlTimeout, RunConflict, RunNotFound } from "./errors.ts"
import { Execution } from "./execution.ts"

type ControlError = RunNotFound | RunConflict | ControlTimeout | SuspendRefused | SqlError.SqlError

/** Control request ids acted on, remembered this long (by count): a request is re-read on every renewal. */
const HANDLED_KEPT = 10_000

export class RunControl extends Context.Service<
  RunControl,
  {
    /** Suspends a running run (or pins one the service suspended); the row once suspended. */
    readonly suspend: (tenant: string, id: string) => Effect.Effect<RunRow, ControlError>
    /** Cancels a running or suspended run; the row once cancelled. */
    readonly cancel: (tenant: string, id: string) => Effect.Effect<RunRow, ControlError>
    /** Acts, on the owner, on a control request another replica wrote (at most once per request id), in the background. */
    readonly handle: (id: string, control: Control) => Effect.Effect<void>
  }
>()("codemode/server/RunControl") {
  static readonly layer: Layer.Layer<RunControl, never, ServerConfig | RunStore | Execution | ToolRegistry | Webhooks | Notifications> =
    Layer.effect(
      RunControl,
      // One closure on purpose: the handled request ids and the notice listener stay private to this service;
      // the members are short and read top to bottom as the protocol goes (request, wait, answer).
      Effect.gen(function* () {
        const config = yield* ServerConfig
        const store = yield* RunStore
        const execution = yield* Execution
        const notifications = yield* Notifications
        const cancelled = tellCancelled(yield* ToolRegistry, yield* Webhooks)
        const me = config.replicaId
        const requesterPollMs = Math.min(250, config.pollMs)
        const handled = new Set<string>()
        const scope = yield* Effect.scope

        const load = Effect.fnUntraced(function* (tenant: string, id: string) {
          const row = yield* store.get(tenant, id)
          if (row === undefined) return yield* new RunNotFound({ id })
          return row
        })

        const finished = (row: RunRow, action: string) =>
          new RunConflict({ id: row.id, kind: "RunFinished", detail: `Run ${row.id} has already ${row.status}; it cannot be ${action}` })

        /** Writes a control request for the run's owner and waits for its effect on the row. */
        const remote = Effect.fnUntraced(function* (row: RunRow, action: "suspend" | "cancel") {
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

        const suspend = Effect.fnUntraced(function* (tenant: string, id: string) {
          for (let attempt = 0; ; attempt++) {
            const row = yield* load(tenant, id)
            if (row.status === "suspended") {
              // A run the service put to sleep stays suspended once someone asks for it: only a resume wakes it.
              yield* store.pin(tenant, id)
              return row
            }
            if (row.status !== "running") return yield* finished(row, "suspended")
            const saved = yield* execution.suspend(id, "manual")
            if (saved !== undefined) {
              const after = (yield* Deferred.await(saved)) ?? (yield* load(tenant, id))
              if (after.status === "suspended") return after
              // It ended first (returned, or a cancel won), as the remote path answers; or it moved to another replica.
              if (after.status !== "running") return yield* finished(after, "suspended")
              if (attempt > 3) return yield* new ControlTimeout({ id, action: "suspend" })
              continue
            }
            const after = yield* remote(row, "suspend")
            if (after === undefined) continue
            if (after.status === "running" && after.leaseExpired) {
              return yield* new RunConflict({
                id,
                kind: "OwnerLost",
                detail: `The replica executing run ${id} stopped renewing its lease; the run cannot be suspended`,
              })
            }
            if (after.status === "suspended") return after
            if (after.status !== "running") return yield* finished(after, "suspended")
            if (attempt > 3) return yield* new ControlTimeout({ id, action: "suspend" })
          }
        })

        /** Cancels a run nobody executes any more (its owner's lease expired). */
        const cancelOrphan = Effect.fnUntraced(function* (tenant: string, id: string) {
          const done = yield* store.cancel(tenant, id, "orphaned")
          if (done === undefined) return undefined
          yield* cancelled(tenant, done.durable)
          return done.row
        })

        const cancel = Effect.fnUntraced(function* (tenant: string, id: string) {
          for (let attempt = 0; ; attempt++) {
            const row = yield* load(tenant, id)
            if (row.status === "cancelled") return row
            if (row.status === "succeeded" || row.status === "failed") return yield* finished(row, "cancelled")
            if (row.status === "suspended") {
              const done = yield* store.cancel(tenant, id, "suspended")
              if (done !== undefined) {
                yield* notifications.publish({ type: "changed", runId: id })
                yield* cancelled(tenant, done.durable)
                return done.row
              }
            } else {
              const stopped = yield* execution.stop(id, "cancel")
              if (stopped !== "absent") {
                const after = stopped ?? (yield* load(tenant, id))
                if (after.status === "succeeded" || after.status === "failed") return yield* finished(after, "cancelled")
                if (after.status === "cancelled") return after
                // A suspend that was already saving won the race: the next attempt cancels the suspended run.
                if (attempt > 3) return yield* new ControlTimeout({ id, action: "cancel" })
                continue
              }
              const orphan = row.leaseExpired ? yield* cancelOrphan(tenant, id) : undefined
              if (orphan !== undefined) return orphan
              const after = yield* remote(row, "cancel")
              if (after !== undefined && after.status === "running" && after.leaseExpired) {
                const done = yield* cancelOrphan(tenant, id)
                if (done !== undefined) return done
              }
            }
            if (attempt > 3) return yield* new ControlTimeout({ id, action: "cancel" })
          }
        })

        const act = Effect.fnUntraced(function* (id: string, control: Control) {
          if (control.reply !== undefined || handled.has(control.id)) return
          handled.add(control.id)
          if (handled.size > HANDLED_KEPT) handled.delete(handled.values().next().value!)
          if (control.action === "cancel") return yield* execution.stop(id, "cancel")
          const refused = yield* Effect.flip(execution.suspend(id, "manual")).pipe(Effect.option)
          if (refused._tag === "Some") {
            const e = refused.value
            yield* store.replyControl(id, me, { ...control, reply: { ok: false, kind: e.reason, message: e.message, calls: e.calls } })
            yield* notifications.publish({ type: "changed", runId: id })
          }
        })

        const handle = (id: string, control: Control) =>
          act(id, control).pipe(
            Effect.catch((e) => Effect.logWarning(`could not act on control request for run ${id}`, e)),
            Effect.forkIn(scope),
            Effect.asVoid,
          )

        // Control notices from other replicas.
        yield* Effect.gen(function* () {
          const subscription = yield* notifications.subscribe
          for (;;) {
            const notice = yield* PubSub.take(subscription)
            if (notice.type !== "control") continue
            const tenant = yield* execution.tenantOf(notice.runId)
            if (tenant === undefined) continue
            const row = yield* store.get(tenant, notice.runId).pipe(Effect.orElseSucceed(() => undefined))
            if (row?.control != null && row.owner === me) yield* handle(row.id, row.control)
          }
        }).pipe(Effect.scoped, Effect.forkScoped)

        return RunControl.of({ suspend, cancel, handle })
      }),
    )
}
