/** `EventStore` in memory: each run's events are kept in order, numbered as they were appended. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { EventStore, logEvents } from "../events.ts"
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
          for (const e of logEvents(lines, truncated)) appendEvent(tables, runId, e.type, e.data, now, e.key)
        }),
      after: (runId, after, limit) =>
        Effect.sync(() =>
          (tables.events.get(runId) ?? [])
            .filter((e) => e.seq > Number(after))
            .slice(0, limit)
            .map((e) => ({ id: String(e.seq), type: e.type, data: e.data, at: new Date(e.at) })),
        ),
    })
  }),
)
