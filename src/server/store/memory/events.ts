/** `EventStore` in memory: events are kept in id order, as they were appended. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { EventStore } from "../events.ts"
import { appendEvent, MemoryDatabase } from "./database.ts"

export const layer: Layer.Layer<EventStore, never, MemoryDatabase> = Layer.effect(
  EventStore,
  Effect.gen(function* () {
    const tables = yield* MemoryDatabase
    const atomically = <A>(f: (now: number) => A) => Effect.map(Clock.currentTimeMillis, f)
    return EventStore.of({
      append: (runId, type, data) => atomically((now) => appendEvent(tables, runId, type, data, now)),
      appendLogs: (runId, lines, truncated) =>
        atomically((now) => {
          for (const line of lines) appendEvent(tables, runId, "log", { line }, now)
          if (truncated) appendEvent(tables, runId, "log.truncated", { detail: "later lines are only in the run's result" }, now)
        }),
      after: (runId, after, limit) =>
        Effect.sync(() => {
          const from = Number(after)
          const out = []
          for (const e of tables.events) {
            if (out.length === limit) break
            if (e.runId === runId && e.id > from) out.push({ id: String(e.id), type: e.type, data: e.data, at: new Date(e.at) })
          }
          return out
        }),
    })
  }),
)
