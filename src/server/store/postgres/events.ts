/** `EventStore` on Postgres. The history is read by `events.id` (a sequence), the order it was written in. */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import { storable } from "../../json-guard.ts"
import { EventStore } from "../events.ts"
import { decodeRows, retrying } from "./shared.ts"

const EventRow = Schema.Struct({ id: Schema.String, type: Schema.String, data: Schema.Unknown, created_at: Schema.Date })

export const layer: Layer.Layer<EventStore, never, PgClient.PgClient | SqlClient.SqlClient> = Layer.effect(
  EventStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const json = (v: unknown) => pg.json(storable(v))

    const append = Effect.fn("EventStore.append")(function* (runId: string, type: string, data: unknown) {
      yield* sql`INSERT INTO events (run_id, type, data) VALUES (${runId}, ${type}, ${json(data)})`
    })

    const appendLogs = Effect.fn("EventStore.appendLogs")(function* (runId: string, lines: ReadonlyArray<string>, truncated: boolean) {
      yield* sql`
        INSERT INTO events (run_id, type, data)
        SELECT ${runId}, 'log', jsonb_build_object('line', line)
        FROM jsonb_array_elements_text(${json(lines)}) WITH ORDINALITY AS l(line, n) ORDER BY n`
      if (truncated) yield* append(runId, "log.truncated", { detail: "later lines are only in the run's result" })
    })

    const after = Effect.fn("EventStore.after")(function* (runId: string, after: string, limit: number) {
      const rows = yield* decodeRows(EventRow)(
        yield* sql`
          SELECT id::text AS id, type, data, created_at FROM events
          WHERE run_id = ${runId} AND id > ${after}::bigint ORDER BY events.id LIMIT ${limit}`,
      )
      return rows.map((r) => ({ id: r.id, type: r.type, data: r.data, at: r.created_at }))
    })

    return EventStore.of(retrying({ append, appendLogs, after }))
  }),
)
