/**
 * `RunEvents`: a run's history — appended as the run goes (log lines; state changes write their own events in
 * the store), replayed from a cursor, and followed live from whichever replica writes it. Replay reads by event
 * id (`EventStore.after`), the order the events were written in.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Stream from "effect/Stream"
import type * as SqlError from "effect/sql/SqlError"
import type { RunEvent } from "../api.ts"
import { ServerConfig } from "../config.ts"
import { Notifications } from "../notifications.ts"
import { CallStore } from "../store/calls.ts"
import { EventStore, type LoggedLine } from "../store/events.ts"
import { RunStore } from "../store/runs.ts"
import { RunNotFound } from "./errors.ts"
import { ended, listsCalls, located } from "./views.ts"

const PAGE = 500

export class RunEvents extends Context.Service<
  RunEvents,
  {
    /** Appends `log` events for lines a run logged (`truncated`: later lines are only in its Result). */
    readonly appendLogs: (runId: string, lines: ReadonlyArray<LoggedLine>, truncated: boolean) => Effect.Effect<void, SqlError.SqlError>
    /**
     * The run's history from the event after `after` (all when undefined), then its new events as they happen;
     * the stream ends once the run has ended and its last event is sent, or when this replica shuts down (the
     * client reconnects elsewhere with `Last-Event-ID`). A failure of the database ends the stream too.
     */
    readonly follow: (tenant: string, id: string, after: string | undefined) => Effect.Effect<Stream.Stream<RunEvent>, RunNotFound | SqlError.SqlError>
    /** Ends every stream at its next wait: the replica is shutting down. */
    readonly close: Effect.Effect<void>
  }
>()("codemode/server/RunEvents") {
  static readonly layer: Layer.Layer<RunEvents, never, ServerConfig | RunStore | CallStore | EventStore | Notifications> = Layer.effect(
    RunEvents,
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const runs = yield* RunStore
      const calls = yield* CallStore
      const events = yield* EventStore
      const notifications = yield* Notifications
      let closing = false

      const appendLogs = (runId: string, lines: ReadonlyArray<LoggedLine>, truncated: boolean) =>
        events.appendLogs(runId, lines, truncated).pipe(Effect.andThen(notifications.publish({ type: "events", runId })))

      const follow = Effect.fnUntraced(function* (tenant: string, id: string, after: string | undefined) {
        if ((yield* runs.get(tenant, id)) === undefined) return yield* new RunNotFound({ id })
        return Stream.callback<RunEvent>((queue) =>
          Effect.gen(function* () {
            const subscription = yield* notifications.subscribe
            const noticeFor = Effect.gen(function* () {
              for (;;) if ((yield* PubSub.take(subscription)).runId === id) return
            })
            let cursor = after ?? "0"
            for (;;) {
              // The row first: when it has ended, every event written with its final status is already committed.
              let row = yield* runs.get(tenant, id)
              const batch = yield* events.after(id, cursor, PAGE)
              for (const e of batch) {
                const data: Record<string, unknown> = { ...(e.data as Record<string, unknown>), at: e.at.toISOString() }
                // The final event carries the Result (value or error, logs, tool calls with their locations). It is
                // written by the statement that stores the Result, which may have committed between the two reads
                // above: then the row read first is older than the event, and is read again.
                if (e.type === "run.succeeded" || e.type === "run.failed") {
                  if (row?.result == null) row = yield* runs.get(tenant, id)
                  if (row?.result != null) data["result"] = listsCalls(row) ? located(row.result, (yield* calls.locations([id])).get(id)) : row.result
                }
                yield* Queue.offer(queue, { id: e.id, event: e.type, data: JSON.stringify(data) })
                cursor = e.id
              }
              if (batch.length === PAGE) continue
              if (row === undefined || ended(row.status) || closing) break
              yield* Effect.raceFirst(noticeFor, Effect.sleep(config.pollMs))
            }
          }).pipe(
            Effect.catch((e) => Effect.logWarning(`the event stream of run ${id} stopped`, e)),
            Effect.ensuring(Queue.end(queue)),
          ),
        )
      })

      return RunEvents.of({ appendLogs, follow, close: Effect.sync(() => void (closing = true)) })
    }),
  )
}
