/** `CallStore` on Postgres: each change of a call writes its event in the same statement. */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as SqlClient from "effect/sql/SqlClient"
import { CallState, type PendingCall, SourceLocation } from "../../api.ts"
import { storable } from "../../json-guard.ts"
import type * as Statement from "effect/sql/Statement"
import { type CallWhere, CallStore, type DurableTiming, type NewCall, type SettledCall } from "../calls.ts"
import { CANCELLED } from "../runs.ts"
import { callEventKey } from "../events.ts"
import { decodeRows, notifying, only, retrying, transactional } from "./shared.ts"

const Pending = Schema.Struct({ run_id: Schema.String, key: Schema.String, path: Schema.String, state: CallState, location: Schema.NullOr(SourceLocation) })
const Located = Schema.Struct({ run_id: Schema.String, key: Schema.String, location: SourceLocation })
export const Journal = Schema.Struct({
  path: Schema.String,
  mode: Schema.String,
  input: Schema.Unknown,
  state: Schema.Literals(["queued", "running", "started", "settled"]),
  data: Schema.Unknown,
  outcome: Schema.Unknown,
})
const KeyPath = Schema.Struct({ key: Schema.String, path: Schema.String })
const CancelledRow = Schema.Struct({ key: Schema.String, path: Schema.String, data: Schema.Unknown })
const Beat = Schema.Struct({ run_id: Schema.String, key: Schema.String, state: Schema.String })
const RunId = Schema.Struct({ run_id: Schema.String })
const Outcome = Schema.Struct({ state: Schema.String, outcome: Schema.Unknown })
const Completed = Schema.Struct({ run_id: Schema.String, key: Schema.String })
const Settled = Schema.Struct({ run_id: Schema.String, key: Schema.String, outcome: Schema.Unknown })
/** The row schemas this store decodes (`decodeRows`): the row decoders' test holds each to the Schema decode. */
export const rowSchemas = { Pending, Located, Journal, KeyPath, CancelledRow, Beat, RunId, Outcome, Completed, Settled }

type Json = (value: unknown) => Statement.Fragment

/**
 * CTE `sg`: calls of a statement, each `c` (`key`, `outcome`, `attempt`: a `NewCall` beginning) numbered `n` in
 * their order, from one JSON parameter; none unless `when` holds. CTE `cb`: the calls of `sg` with an `attempt`
 * beginning (again) in `state`: each row inserted, or its attempts counted up, with `c->'outcome'` when given.
 */
const beginning = (sql: SqlClient.SqlClient, json: Json, runId: string, calls: ReadonlyArray<SettledCall>, state: "running" | "settled", when: Statement.Fragment) => sql`
  ${given(sql, json, calls, when)}, cb AS (
    INSERT INTO calls AS k (run_id, key, path, mode, input, state, attempts, callback_hash, location, outcome)
    SELECT ${runId}, c->>'key', c->'attempt'->>'path', c->'attempt'->>'mode', c->'attempt'->'input', ${state}, 1,
           c->'attempt'->>'callbackHash', c->'attempt'->'location', c->'outcome'
    FROM sg WHERE c->'attempt' IS NOT NULL
    ON CONFLICT (run_id, key) DO UPDATE SET state = excluded.state, attempts = k.attempts + 1, updated_at = now(),
      outcome = coalesce(excluded.outcome, k.outcome),
      callback_hash = coalesce(excluded.callback_hash, k.callback_hash),
      location = coalesce(excluded.location, k.location)
    RETURNING k.run_id, k.key, k.attempts, k.location
  )`

/** CTE `sg` alone (see `beginning`). */
const given = (sql: SqlClient.SqlClient, json: Json, calls: ReadonlyArray<SettledCall>, when: Statement.Fragment) => sql`
  sg AS (
    SELECT g.c, g.n FROM jsonb_array_elements(${json(calls.map((c) => ({ ...c, attempt: c.attempt && { ...c.attempt, input: c.attempt.input ?? null } })))}) WITH ORDINALITY AS g(c, n)
    WHERE ${when}
  )`

/** The data of the `call.started` event of the call in the rows of `cb` and `sg` at hand (its attempt, its location). */
const startedData = (sql: SqlClient.SqlClient) => sql`
  jsonb_build_object('key', cb.key, 'path', sg.c->'attempt'->'path', 'input', sg.c->'attempt'->'input', 'attempt', cb.attempts)
    || CASE WHEN cb.location IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('location', cb.location) END`

/** The key of that event. */
const startedKey = (sql: SqlClient.SqlClient) => sql`${callEventKey("call.started", "")}::text || cb.key || ':' || cb.attempts`

/** The `call.started` events of `cb`'s calls: `run_id, n, o, type, data, key`. */
const startedEvents = (sql: SqlClient.SqlClient) => sql`
  SELECT cb.run_id, sg.n, 0 AS o, 'call.started' AS type, ${startedData(sql)} AS data, ${startedKey(sql)} AS key
  FROM sg JOIN cb ON cb.key = sg.c->>'key'`

/**
 * A call beginning, as `CallStore.started` writes it, as CTEs of a statement (`sg`, `cb`; none unless `when`
 * holds), and the SELECT of its `call.started` event (`run_id, n, o, type, data, key`).
 */
export const starting = (sql: SqlClient.SqlClient, json: Json, runId: string, call: NewCall, when: Statement.Fragment) => ({
  ctes: beginning(sql, json, runId, [{ key: call.key, outcome: undefined, attempt: call }], "running", when),
  events: startedEvents(sql),
})

/**
 * `CallStore.settled` as CTEs of a statement (`sg`; `cb` when a call began again, `cs` when one did not), decided by
 * `when`, and the SELECT of the events to insert (`run_id, n, o, type, data, key`, in order by `n, o`): each call's
 * `call.started` when it began again, then its `call.settled`. `RunStore.finish` writes them with the run's end.
 * Only the parts the calls need are in the statement: each CTE and join costs its executor set-up on every execution,
 * run or not, and a run's calls usually all begin again (a resumed idempotent call) or none does.
 */
export const settling = (sql: SqlClient.SqlClient, json: Json, runId: string, calls: ReadonlyArray<SettledCall>, when: Statement.Fragment) => {
  const again = calls.some((c) => c.attempt !== undefined)
  const plain = calls.some((c) => c.attempt === undefined)
  const settledData = sql`jsonb_build_object('key', sg.c->>'key', 'outcome', sg.c->'outcome')`
  const settledKey = sql`${callEventKey("call.settled", "")}::text || (sg.c->>'key')`
  // A call begun again gives both of its events from one row of `cb` (its `started`, then its `settled`).
  const begun = sql`
    SELECT cb.run_id, sg.n, v.o, v.type, v.data, v.key
    FROM sg JOIN cb ON cb.key = sg.c->>'key', LATERAL (VALUES (0, 'call.started', ${startedData(sql)}, ${startedKey(sql)}), (1, 'call.settled', ${settledData}, ${settledKey})) AS v(o, type, data, key)`
  const ended = sql`
    SELECT ${runId}::text AS run_id, sg.n, 1 AS o, 'call.settled' AS type, ${settledData} AS data, ${settledKey} AS key
    FROM sg JOIN cs ON cs.key = sg.c->>'key'`
  return {
    ctes: sql`
      ${again ? beginning(sql, json, runId, calls, "settled", when) : given(sql, json, calls, when)}${plain ? sql`, cs AS (
        UPDATE calls SET state = 'settled', outcome = sg.c->'outcome', updated_at = now()
        FROM sg WHERE sg.c->'attempt' IS NULL AND calls.run_id = ${runId} AND calls.key = sg.c->>'key'
        RETURNING calls.key
      )` : sql``}`,
    events: again && plain ? sql`${begun} UNION ALL ${ended}` : again ? begun : ended,
  }
}

/** The started durable calls past their deadline or heartbeat (`expire`; RunStore.due asks whether there are any). */
export const expiringCalls = (sql: SqlClient.SqlClient) =>
  sql`state = 'started' AND (deadline_at < now() OR heartbeat_at + heartbeat_ms * interval '1 millisecond' < now())`

export const layer: Layer.Layer<CallStore, never, PgClient.PgClient | SqlClient.SqlClient> = Layer.effect(
  CallStore,
  // Long because it is the whole contract over one client: one short member per operation, sharing the
  // connection, the JSON encoder and the row decoders.
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const json = (v: unknown) => pg.json(storable(v))
    const transaction = transactional(sql)
    const after = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`
    /** The event key of settling the call in the row at hand (`callEventKey`). */
    const settledKey = sql`${callEventKey("call.settled", "")}::text || key`

    const pending = Effect.fnUntraced(function* (runIds: ReadonlyArray<string>) {
      const out = new Map<string, Array<PendingCall>>()
      if (runIds.length === 0) return out
      const rows = yield* decodeRows(Pending)(
        yield* sql`
          SELECT run_id, key, path, state, location FROM calls
          WHERE run_id IN ${sql.in(runIds)} AND state <> 'settled'
          ORDER BY created_at, key`,
      )
      for (const r of rows) {
        const list = out.get(r.run_id) ?? []
        list.push({ key: r.key, path: r.path, state: r.state, ...(r.location === null ? {} : { location: r.location }) })
        out.set(r.run_id, list)
      }
      return out
    })

    const locations = Effect.fnUntraced(function* (runIds: ReadonlyArray<string>) {
      const out = new Map<string, Map<string, SourceLocation>>()
      if (runIds.length === 0) return out
      const rows = yield* decodeRows(Located)(
        yield* sql`SELECT run_id, key, location FROM calls WHERE run_id IN ${sql.in(runIds)} AND location IS NOT NULL`,
      )
      for (const r of rows) {
        const byKey = out.get(r.run_id) ?? new Map<string, SourceLocation>()
        byKey.set(r.key, r.location)
        out.set(r.run_id, byKey)
      }
      return out
    })

    // The run's row is share-locked: a claim of it under way (its row locked) is waited for and then seen, and a
    // claim waits for this statement to commit.
    const started = Effect.fnUntraced(function* (runId: string, owner: string, call: NewCall) {
      const owned = sql`EXISTS (SELECT 1 FROM runs WHERE id = ${runId} AND ${only(sql, sql`owner = ${owner} AND status = 'running'`)} FOR SHARE)`
      const { ctes, events } = starting(sql, json, runId, call, owned)
      const rows = yield* sql`
        WITH ${ctes}, e AS (
          INSERT INTO events (run_id, type, data, key)
          SELECT e.run_id, e.type, e.data, e.key FROM (${events}) e, ${notifying(sql, "events", "e.run_id")}
          ON CONFLICT (run_id, key) WHERE key IS NOT NULL DO NOTHING
        )
        SELECT 1 FROM cb`
      return rows.length > 0
    })

    const accepted = Effect.fnUntraced(function* (runId: string, key: string, data: unknown, timing: DurableTiming) {
      yield* sql`
        WITH c AS (
          UPDATE calls SET state = 'started', data = ${json(data ?? null)}, updated_at = now(),
            deadline_at = ${timing.timeoutMs === undefined ? null : after(timing.timeoutMs)},
            heartbeat_ms = ${timing.heartbeatTimeoutMs ?? null}, heartbeat_at = now()
          WHERE run_id = ${runId} AND key = ${key} AND state <> 'settled'
          RETURNING run_id
        )
        INSERT INTO events (run_id, type, data, key)
        SELECT run_id, 'call.accepted', ${json({ key, data: data ?? null })}, ${callEventKey("call.accepted", key)} FROM c
        ON CONFLICT (run_id, key) WHERE key IS NOT NULL DO NOTHING`
    })

    const settled = Effect.fnUntraced(function* (runId: string, calls: ReadonlyArray<SettledCall>) {
      if (calls.length === 0) return
      const { ctes, events } = settling(sql, json, runId, calls, sql`true`)
      yield* sql`
        WITH ${ctes}
        INSERT INTO events (run_id, type, data, key)
        SELECT e.run_id, e.type, e.data, e.key FROM (${events}) e, ${notifying(sql, "events", "e.run_id")}
        ORDER BY e.n, e.o
        ON CONFLICT (run_id, key) WHERE key IS NOT NULL DO NOTHING`
    })

    const journal = Effect.fnUntraced(function* (runId: string, key: string) {
      const rows = yield* decodeRows(Journal)(
        yield* sql`SELECT path, mode, input, state, data, outcome FROM calls WHERE run_id = ${runId} AND key = ${key}`,
      )
      return rows[0]
    })

    const unsafe = Effect.fnUntraced(function* (runId: string) {
      return yield* decodeRows(KeyPath)(
        yield* sql`
          SELECT key, path FROM calls WHERE run_id = ${runId} AND state = 'running' AND mode IN ('plain', 'durable')
          ORDER BY created_at, key`,
      )
    })

    const cancelled = Effect.fnUntraced(function* (runId: string, key: string) {
      const rows = yield* decodeRows(CancelledRow)(
        yield* sql`
          WITH c AS (
            UPDATE calls SET state = 'settled', outcome = ${json(CANCELLED)}, updated_at = now()
            WHERE run_id = ${runId} AND key = ${key} AND mode = 'durable' AND state <> 'settled'
            RETURNING run_id, key, path, data
          ), e AS (
            INSERT INTO events (run_id, type, data, key)
            SELECT run_id, 'call.settled', jsonb_build_object('key', key, 'outcome', ${json(CANCELLED)}::jsonb), ${settledKey} FROM c
            ON CONFLICT (run_id, key) WHERE key IS NOT NULL DO NOTHING
          )
          SELECT key, path, data FROM c`,
      )
      return rows[0]
    })

    const callMatch = (where: CallWhere) =>
      "callbackHash" in where
        ? sql`c.callback_hash = ${where.callbackHash}`
        : sql`c.key = ${where.key} AND c.run_id IN (SELECT id FROM runs WHERE tenant = ${where.tenant})`

    const heartbeat = Effect.fnUntraced(function* (where: CallWhere) {
      const rows = yield* decodeRows(Beat)(
        yield* sql`
          WITH h AS (
            UPDATE calls c SET heartbeat_at = now() WHERE ${callMatch(where)} AND c.mode = 'durable' AND c.state = 'started'
            RETURNING c.run_id, c.key, c.state
          )
          SELECT run_id, key, state FROM h
          UNION ALL
          SELECT c.run_id, c.key, c.state FROM calls c WHERE ${callMatch(where)} AND c.mode = 'durable' AND NOT EXISTS (SELECT 1 FROM h)`,
      )
      const r = rows[0]
      return r === undefined ? undefined : { runId: r.run_id, key: r.key, state: r.state }
    })

    const expiring = expiringCalls(sql)
    const expire = Effect.gen(function* () {
      // The runs are locked first, in id order, as `complete` and an auto-suspend lock theirs: a run suspending
      // while its call times out is woken all the same.
      yield* sql`SELECT 1 FROM runs WHERE id IN (SELECT run_id FROM calls WHERE ${expiring}) ORDER BY id FOR NO KEY UPDATE`
      const rows = yield* decodeRows(RunId)(
        yield* sql`
          WITH x AS (
            SELECT run_id, key, path,
              CASE WHEN deadline_at < now() THEN 'its job did not complete within the tool''s timeoutMs'
                   ELSE 'its job sent no heartbeat for ' || heartbeat_ms || ' ms' END AS why
            FROM calls
            WHERE ${expiring}
            LIMIT 100 FOR UPDATE SKIP LOCKED
          ), c AS (
            UPDATE calls SET state = 'settled', updated_at = now(),
              outcome = jsonb_build_object('ok', false, 'error', jsonb_build_object('kind', 'ToolFailure',
                'message', x.why))
            FROM x WHERE calls.run_id = x.run_id AND calls.key = x.key
            RETURNING calls.run_id, calls.key, calls.outcome
          ), w AS (
            UPDATE runs SET wake = true WHERE id IN (SELECT run_id FROM c) AND status = 'suspended' AND auto_resume
          ), e AS (
            INSERT INTO events (run_id, type, data, key)
            SELECT run_id, 'call.settled', jsonb_build_object('key', key, 'outcome', outcome), ${settledKey} FROM c
            ON CONFLICT (run_id, key) WHERE key IS NOT NULL DO NOTHING
          )
          SELECT DISTINCT run_id FROM c`,
      )
      return rows.map((r) => r.run_id)
    }).pipe(transaction, Effect.withSpan("CallStore.expire"))

    const outcome = Effect.fnUntraced(function* (runId: string, key: string) {
      const rows = yield* decodeRows(Outcome)(yield* sql`SELECT state, outcome FROM calls WHERE run_id = ${runId} AND key = ${key}`)
      return rows[0]
    })

    const complete = Effect.fnUntraced(function* (where: CallWhere, outcome: unknown) {
      const match = callMatch(where)
      // The run is woken in the same statement. Its row is locked first, as an auto-suspend locks it (runs.ts
      // `suspend`): each statement reads with a snapshot taken after the other committed, so a suspend racing this
      // completion either sees the call settled (and saves the run already woken) or is seen here as suspended.
      const done = yield* transaction(
        sql`SELECT 1 FROM runs WHERE id IN (SELECT c.run_id FROM calls c WHERE ${match} AND c.mode = 'durable') FOR NO KEY UPDATE`.pipe(
          Effect.andThen(sql`
            WITH c AS (
              UPDATE calls c SET state = 'settled', outcome = ${json(outcome)}, updated_at = now()
              WHERE ${match} AND c.mode = 'durable' AND c.state <> 'settled'
              RETURNING c.run_id, c.key
            ), w AS (
              UPDATE runs SET wake = true WHERE id IN (SELECT run_id FROM c) AND status = 'suspended' AND auto_resume
            ), e AS (
              INSERT INTO events (run_id, type, data, key)
              SELECT run_id, 'call.settled', jsonb_build_object('key', key, 'outcome', ${json(outcome)}::jsonb), ${settledKey} FROM c
              ON CONFLICT (run_id, key) WHERE key IS NOT NULL DO NOTHING
            )
            SELECT run_id, key FROM c`),
          Effect.flatMap(decodeRows(Completed)),
        ),
      )
      if (done[0] !== undefined) return { runId: done[0].run_id, key: done[0].key, outcome, completed: true }
      const rows = yield* decodeRows(Settled)(
        yield* sql`SELECT c.run_id, c.key, c.outcome FROM calls c WHERE ${match} AND c.mode = 'durable' AND c.state = 'settled'`,
      )
      const r = rows[0]
      return r === undefined ? undefined : { runId: r.run_id, key: r.key, outcome: r.outcome, completed: false }
    })

    return CallStore.of(retrying({ pending, locations, started, accepted, settled, journal, unsafe, cancelled, heartbeat, expire, outcome, complete }))
  }),
)
