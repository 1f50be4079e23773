/**
 * Cross-replica hints (ARCHITECTURE "Cross-replica control"): "a control request was written for run X", "run X
 * changed". A notice is only a hint — as DBOS explains beside its listener, the receiver re-reads the row, and a
 * slow poll stays as the backstop because Postgres may drop notifications (a listener that reconnects misses
 * what was sent meanwhile). Two layers: Postgres LISTEN/NOTIFY on one channel when the database is a server, an
 * in-process PubSub when it is embedded PGlite (one process, and PGlite delivers no NOTIFY: stack-notes §9.1).
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as PubSub from "effect/PubSub"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import { DatabaseKind } from "./store/postgres/database.ts"
import { CHANNEL } from "./store/postgres/shared.ts"

export type Notice =
  /** A suspend or cancel request was written to `runs.control` for this run: its owner should act on it. */
  | { readonly type: "control"; readonly runId: string }
  /** The run's row changed (status, or the owner's reply to a control request). */
  | { readonly type: "changed"; readonly runId: string }
  /** Events were appended to the run's history (a call started or settled): event streams read them. */
  | { readonly type: "events"; readonly runId: string }
  /** An API key was revoked: replicas stop trusting the keys they checked lately (auth.ts). About no run. */
  | { readonly type: "keys"; readonly runId?: undefined }


const decode = (payload: string): Notice | undefined => {
  try {
    const n = JSON.parse(payload) as Notice
    if (n.type === "keys") return { type: "keys" }
    return (n.type === "control" || n.type === "changed" || n.type === "events") && typeof n.runId === "string" ? n : undefined
  } catch {
    return undefined
  }
}

export class Notifications extends Context.Service<
  Notifications,
  {
    /** Sends a notice to every replica (this one included). Never fails: a lost notice is caught by polling. */
    readonly publish: (notice: Notice) => Effect.Effect<void>
    /**
     * A notice the store's own statement sent with the change it announces (store/postgres `notifying`): Postgres
     * delivers it to every replica, so only the in-process layer, which that statement does not reach, publishes it.
     */
    readonly sentWith: (notice: Notice) => Effect.Effect<void>
    /** Receives every notice published from now until the scope closes. */
    readonly subscribe: Effect.Effect<PubSub.Subscription<Notice>, never, Scope.Scope>
  }
>()("codemode/server/Notifications") {
  /** In-process only: for the embedded database, and for tests of a single replica. */
  static readonly layerMemory: Layer.Layer<Notifications> = Layer.effect(
    Notifications,
    Effect.gen(function* () {
      const hub = yield* PubSub.unbounded<Notice>()
      const publish = (notice: Notice) => PubSub.publish(hub, notice).pipe(Effect.asVoid)
      return Notifications.of({ publish, sentWith: publish, subscribe: PubSub.subscribe(hub) })
    }),
  )

  /** LISTEN/NOTIFY on `CHANNEL`; the listener reconnects (with a pause) whenever its connection fails. */
  static readonly layerPostgres: Layer.Layer<Notifications, never, PgClient.PgClient> = Layer.effect(
    Notifications,
    Effect.gen(function* () {
      const pg = yield* PgClient.PgClient
      const hub = yield* PubSub.unbounded<Notice>()
      const listenOnce = Effect.scoped(
        Effect.gen(function* () {
          const queue = yield* pg.listen(CHANNEL)
          for (;;) {
            const n = yield* Queue.take(queue)
            const notice = decode(n.payload)
            if (notice !== undefined) yield* PubSub.publish(hub, notice)
          }
        }),
      )
      yield* listenOnce.pipe(
        Effect.tapError((e) => Effect.logWarning("notifications listener lost; reconnecting", e)),
        Effect.retry(Schedule.spaced("1 second")),
        Effect.forkScoped,
      )
      // Publishing only queues the notice: one fiber sends whatever has queued meanwhile in one statement, so a run
      // does not wait a round trip per notice (resume, each call's events, its end), and notices published together
      // under load cost one NOTIFY (Postgres delivers a statement's notices in order, and each distinct one once).
      const outbox = yield* Queue.unbounded<string>()
      const send = (payloads: ReadonlyArray<string>) =>
        payloads.length === 0
          ? Effect.void
          : pg`SELECT pg_notify(${CHANNEL}, p) FROM json_array_elements_text(${JSON.stringify(payloads)}::json) AS p`.pipe(
              Effect.asVoid,
              Effect.catch((e) => Effect.logWarning("NOTIFY failed; replicas will see the change when they poll", e)),
            )
      yield* Effect.forever(Effect.flatMap(Queue.takeAll(outbox), send)).pipe(Effect.forkScoped)
      // What was queued when the layer closes is still sent (the client closes after this layer).
      yield* Effect.addFinalizer(() => Effect.flatMap(Queue.clear(outbox), send))
      return Notifications.of({
        publish: (notice) => Queue.offer(outbox, JSON.stringify(notice)).pipe(Effect.asVoid),
        sentWith: () => Effect.void,
        subscribe: PubSub.subscribe(hub),
      })
    }),
  )

  /** The right layer for the configured database. */
  static readonly layer: Layer.Layer<Notifications, never, PgClient.PgClient | DatabaseKind> = Layer.unwrap(
    Effect.gen(function* () {
      return (yield* DatabaseKind) === "server" ? Notifications.layerPostgres : Notifications.layerMemory
    }),
  )
}
