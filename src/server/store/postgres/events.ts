/**
 * `EventStore` on Postgres. Each run's events are numbered by `events.seq` (migrations/0011_event_seq.ts) in the
 * order they commit, and read back by it. An event with a key is written once: a second write is skipped.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import { storable } from "../../json-guard.ts"
import { EventStore, type LoggedLine, logEvents } from "../events.ts"
import { decodeRows, retrying } from "./shared.ts"

const EventRow = Schema.Struct({ seq: Schema.String, type: Schema.String, data: Schema.Unknown, created_at: Schema.Date })
/** The row schemas this store decodes (`decodeRows`): the row decoders' test holds each to the Schema decode. */
export const rowSchemas = { EventRow }

export const layer: Layer.Layer<EventStore, never, PgClient.PgClient | SqlClient.SqlClient> = Layer.effect(
  EventStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const json = (v: unknown) => pg.json(storable(v))

    const append = Effect.fnUntraced(function* (runId: string, type: string, data: unknown) {
      yield* sql`INSERT INTO events (run_id, type, data) VALUES (${runId}, ${type}, ${json(data)})`
    })

    const appendLogs = Effect.fnUntraced(function* (runId: string, lines: ReadonlyArray<LoggedLine>, truncated: boolean) {
      const rows = logEvents(lines, truncated)
      if (rows.length === 0) return
      yield* sql`
        INSERT INTO events (run_id, type, data, key)
        SELECT ${runId}, r->>'type', r->'data', r->>'key'
        FROM jsonb_array_elements(${json(rows)}) WITH ORDINALITY AS l(r, n) ORDER BY n
        ON CONFLICT (run_id, key) WHERE key IS NOT NULL DO NOTHING`
    })

    const after = Effect.fnUntraced(function* (runId: string, after: string, limit: number) {
      // `events.seq`: a bare `seq` would be the text column of the select list, and sort "10" before "2".
      const rows = yield* decodeRows(EventRow)(
        yield* sql`
          SELECT seq::text AS seq, type, data, created_at FROM events
          WHERE run_id = ${runId} AND events.seq > ${after}::bigint ORDER BY events.seq LIMIT ${limit}`,
      )
      return rows.map((r) => ({ id: r.seq, type: r.type, data: r.data, at: r.created_at }))
    })

    return EventStore.of(retrying({ append, appendLogs, after }))
  }),
)
