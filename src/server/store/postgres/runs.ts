/**
 * `RunStore` on Postgres. Postgres decides every race: a run is created once (primary key), claimed once
 * (`UPDATE … WHERE status = 'suspended'`), and finished only by the replica that still owns it
 * (`WHERE owner = $me AND status = 'running'`). Each state change writes its event in the same statement
 * (data-modifying CTEs), so the history never disagrees with the row.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { Limits, type Result, RunStatus, SourceLocation } from "../../api.ts"
import { storable } from "../../json-guard.ts"
import {
  type AutoSuspend,
  CANCELLED,
  type CancelWhere,
  type CheckpointAt,
  Control,
  createdData,
  type EndedRun,
  endedEvents,
  type ListQuery,
  type NewCheckpoint,
  type NewRun,
  type RunRow,
  RunStore,
} from "../runs.ts"
import { CLAIM_JOURNAL_KEYS, type NewCall, type SettledCall } from "../calls.ts"
import { logEvents } from "../events.ts"
import { ToolsChanged } from "../tools.ts"
import { batched, MAX_BATCH } from "./batch.ts"
import { expiringCalls, Journal, settling, starting } from "./calls.ts"
import { decodeRows, notifying, only as onlyIf, retrying, transactional } from "./shared.ts"
import { currentIn, Registered, registrationColumns, toolsVersion, versionOf } from "./tools.ts"

const RunColumns = {
  id: Schema.String,
  tenant: Schema.String,
  status: RunStatus,
  code: Schema.String,
  limits: Limits,
  tools: Schema.NullOr(Schema.Array(Schema.String)),
  // The Result is checked where it is made (the executor); decoding every value again on each read would cost.
  result: Schema.Unknown,
  owner: Schema.NullOr(Schema.String),
  control: Schema.NullOr(Control),
  version: Schema.Number,
  seq: Schema.String,
  request_hash: Schema.NullOr(Schema.String),
  seed: Schema.NullOr(Schema.String),
  forked_from: Schema.NullOr(Schema.Struct({ run: Schema.String, checkpoint: Schema.Number })),
  created_at: Schema.Date,
  updated_at: Schema.Date,
  lease_expired: Schema.Boolean,
}
const RunRaw = Schema.Struct(RunColumns)
const WithSnapshot = Schema.Struct({ ...RunColumns, snapshot: Schema.NullOr(Schema.Uint8Array), seal: Schema.NullOr(Schema.String) })
const ClaimedRaw = Schema.Struct({
  ...WithSnapshot.fields,
  ...Registered.fields,
  journal: Schema.NullOr(Schema.Record(Schema.String, Schema.NullOr(Journal))),
})
const Finished = Schema.Struct({ ...RunColumns, locations: Schema.NullOr(Schema.Record(Schema.String, SourceLocation)) })
const Recovered = Schema.Struct({
  ...RunColumns,
  snapshot: Schema.NullOr(Schema.Uint8Array),
  seal: Schema.NullOr(Schema.String),
  recovery_attempts: Schema.Number,
  previous_owner: Schema.NullOr(Schema.String),
})
const Cancelled = Schema.Struct({
  ...RunColumns,
  durable: Schema.NullOr(Schema.Array(Schema.Struct({ key: Schema.String, path: Schema.String, data: Schema.Unknown }))),
})
const Renewed = Schema.Struct({ id: Schema.String, control: Schema.NullOr(Control) })
const DueRaw = Schema.Struct({
  wakeable: Schema.Array(Schema.Struct({ id: Schema.String, tenant: Schema.String })),
  expiring: Schema.Boolean,
  orphaned: Schema.Boolean,
})
const StatusCount = Schema.Struct({ status: Schema.String, n: Schema.Number })
const Kept = Schema.Struct({
  seq: Schema.Number,
  calls: Schema.Number,
  size: Schema.Number,
  created_at: Schema.Date,
  key: Schema.NullOr(Schema.String),
  path: Schema.NullOr(Schema.String),
  input: Schema.Unknown,
  outcome: Schema.Unknown,
})
const Pruned = Schema.Struct({ n: Schema.Number })
const State = Schema.Struct({ seq: Schema.Number, snapshot: Schema.Uint8Array, seal: Schema.NullOr(Schema.String) })
/** What the database decides of a run stored whole: the rest of its row is what was written. */
const StoredEnded = Schema.Struct({ id: Schema.String, seq: Schema.String, created_at: Schema.Date, result: Schema.Unknown })
const storedEnded = decodeRows(StoredEnded)
/** The row schemas this store decodes (`decodeRows`): the row decoders' test holds each to the Schema decode. */
export const rowSchemas = { RunRaw, ClaimedRaw, Finished, Recovered, Cancelled, Renewed, DueRaw, StatusCount, Kept, Pruned, State, StoredEnded }

const toRow = (r: typeof RunRaw.Type): RunRow => ({
  id: r.id,
  tenant: r.tenant,
  status: r.status,
  code: r.code,
  limits: r.limits,
  tools: r.tools,
  result: r.result as Result | null,
  owner: r.owner,
  leaseExpired: r.lease_expired,
  control: r.control,
  version: r.version,
  seq: r.seq,
  requestHash: r.request_hash,
  seed: r.seed,
  forkedFrom: r.forked_from,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
})

/**
 * The row of a run stored whole (`insertEnded`), from what was written and what the database decided: its `seq`, its
 * time and its Result as stored (jsonb's order of keys, as every later read gives it). Reading the whole row back
 * cost more than writing it (each column sent, parsed and decoded again).
 */
const endedRow = (run: EndedRun, r: typeof StoredEnded.Type): RunRow => ({
  id: r.id,
  tenant: run.tenant,
  status: run.status,
  code: run.code,
  limits: run.limits,
  tools: run.tools,
  result: r.result as Result,
  owner: null,
  leaseExpired: false,
  control: null,
  version: 1,
  seq: r.seq,
  requestHash: run.requestHash,
  seed: run.seed,
  forkedFrom: run.forkedFrom ?? null,
  createdAt: r.created_at,
  updatedAt: r.created_at,
})

export const layer: Layer.Layer<RunStore, never, PgClient.PgClient | SqlClient.SqlClient> = Layer.effect(
  RunStore,
  // Long because it is the whole contract over one client: one short member per operation, sharing the
  // connection, the JSON encoder and the row decoders.
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const json = (v: unknown) => pg.json(storable(v))
    const transaction = transactional(sql)
    const lease = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`
    const columns = sql.literal(`id, tenant, status, code, limits, tools, result, owner, control, version,
      seq::text AS seq, request_hash, seed, forked_from, created_at, updated_at, coalesce(lease_expires_at < now(), false) AS lease_expired`)
    const rows = decodeRows(RunRaw)
    const forkedFrom = (run: Pick<NewRun, "forkedFrom">) => (run.forkedFrom === undefined ? null : json(run.forkedFrom))
    const only = (condition: Statement.Fragment) => onlyIf(sql, condition)
    /** Still running, and owned by `owner` (the row itself found by its key: `only`). */
    const owned = (owner: string) => only(sql`owner = ${owner} AND status = 'running'`)
    const first = (raw: ReadonlyArray<unknown>) => Effect.map(rows(raw), (r) => (r[0] === undefined ? undefined : toRow(r[0])))

    /** Whether the run's tenant's registrations are still at the version it started with (true when it names none). */
    const toolsCurrent = (run: NewRun | EndedRun) =>
      run.toolsVersion === undefined
        ? sql`true`
        : sql`${versionOf(sql, sql`${run.tenant}::text`)} = ${run.toolsVersion}::bigint`
    /**
     * Why a new run's write stored nothing: "stale" when its tenant's registrations have changed since the version
     * it started with (versions only rise, so a later read tells), else (undefined) its id was taken.
     */
    const notStored = (run: NewRun | EndedRun): Effect.Effect<"stale" | undefined, SqlError.SqlError> =>
      run.toolsVersion === undefined
        ? Effect.succeed(undefined)
        : Effect.map(sql<{ current: boolean }>`SELECT ${toolsCurrent(run)} AS current`, (rows) => (rows[0]?.current === false ? "stale" : undefined))
    const unlessStale = (run: NewRun | EndedRun) => (row: RunRow | undefined | "stale") =>
      row === "stale" ? Effect.fail(new ToolsChanged({ tenant: run.tenant })) : Effect.succeed(row)

    /**
     * CTEs of `insert` for a run recorded with its first call (NewRun.call): the call as `CallStore.started` begins it,
     * and the run's first two events, numbered here. Nothing is announced: no client can have asked for the events of
     * a run no statement has stored yet.
     */
    const firstCall = (run: NewRun, call: NewCall) => {
      const { ctes, events } = starting(sql, json, run.id, call, sql`EXISTS (SELECT 1 FROM r)`)
      return sql`, ${ctes}, e AS (
            INSERT INTO events (run_id, seq, type, data, key)
            SELECT id, 1, 'run.created', ${json(createdData(run))}::jsonb, NULL::text FROM r
            UNION ALL SELECT s.run_id, 2, s.type, s.data, s.key FROM (${events}) s
          )`
    }

    const insertOrStale = Effect.fnUntraced(function* (run: NewRun) {
      const row = yield* first(
        yield* sql`
          WITH r AS (
            INSERT INTO runs (id, tenant, status, code, limits, tools, owner, lease_expires_at, request_hash, seed, forked_from, seal)
            SELECT ${run.id}::text, ${run.tenant}::text, 'running', ${run.code}::text, ${json(run.limits)}::jsonb,
                   ${run.tools === null ? null : json(run.tools)}::jsonb, ${run.owner}::text, ${lease(run.leaseMs)}, ${run.requestHash}::text,
                   ${run.seed}::text, ${forkedFrom(run)}::jsonb, ${run.seal}::text
            WHERE ${toolsCurrent(run)}
            ON CONFLICT (id) DO NOTHING
            RETURNING *
          )${run.call === undefined ? sql`, e AS (INSERT INTO events (run_id, seq, type, data) SELECT id, 1, 'run.created', ${json(createdData(run))} FROM r)` : firstCall(run, run.call)}
          SELECT ${columns} FROM r`,
      )
      return row ?? (yield* notStored(run))
    })
    const insert = (run: NewRun) => Effect.flatMap(insertOrStale(run), unlessStale(run))

    // version 1: the row as `insert` then `finish` leave it. A run created here has no events yet, so its events are
    // numbered here, in their order, not by the trigger (migrations/0014), as `insert` numbers its first.
    // Only what the database decides comes back (`endedRow`): the rest of the row is what was written.
    const insertEndedOne = Effect.fnUntraced(function* (run: EndedRun) {
      const raw = yield* sql`
        WITH r AS (
          INSERT INTO runs (id, tenant, status, code, limits, tools, result, version, request_hash, seed, forked_from, seal)
          SELECT ${run.id}::text, ${run.tenant}::text, ${run.status}::text, ${run.code}::text, ${json(run.limits)}::jsonb,
                 ${run.tools === null ? null : json(run.tools)}::jsonb, ${json(run.result)}::jsonb, 1, ${run.requestHash}::text,
                 ${run.seed}::text, ${forkedFrom(run)}::jsonb, ${run.seal}::text
          WHERE ${toolsCurrent(run)}
          ON CONFLICT (id) DO NOTHING
          RETURNING id, seq, created_at, result
        ), e AS (
          INSERT INTO events (run_id, seq, type, data, key)
          SELECT r.id, l.n, l.e->>'type', l.e->'data', l.e->>'key'
          FROM r, jsonb_array_elements(${json(endedEvents(run))}) WITH ORDINALITY AS l(e, n)
        )
        SELECT id, seq::text AS seq, created_at, result FROM r`
      const r = (yield* storedEnded(raw))[0]
      return r === undefined ? yield* notStored(run) : endedRow(run, r)
    })

    // The same for several runs, each row from one element of a JSON document. A taken id fails the statement, and
    // batch.ts then stores each run alone, where a taken id is skipped (undefined): a clash is rare, and a plain
    // insert is cheaper than ON CONFLICT's speculative one (its index probes and a confirm record per row).
    // The events every ended run has (`endedEvents`: run.created, then its logs, then its end) are made here from
    // the row's own fields; only the logs travel as events. They come from `given`, not from the rows inserted: the
    // statement stores every run or none, so joining the inserted rows back (a hash join per kind of event) only cost.
    const insertEndedMany = Effect.fnUntraced(function* (runs: ReadonlyArray<EndedRun>) {
      // Only what `json` makes storable alone is made storable here: text the database refuses in the code fails
      // the batch, and that run alone, as it would have failed alone.
      const given = runs.map((run, i) => {
        const logs = logEvents(run.logs, run.truncated)
        return {
          i,
          id: run.id,
          tenant: run.tenant,
          status: run.status,
          code: run.code,
          limits: storable(run.limits),
          tools: storable(run.tools),
          result: storable(run.result),
          request_hash: run.requestHash,
          seed: run.seed,
          forked_from: run.forkedFrom ?? null,
          seal: run.seal,
          owner: storable(run.owner),
          logs: logs.length === 0 ? null : storable(logs),
          tools_version: run.toolsVersion ?? null,
        }
      })
      const raw = yield* sql`
        WITH given AS (
          SELECT * FROM jsonb_to_recordset(${pg.json(given)}) AS g(i int, id text, tenant text, status text, code text,
            limits jsonb, tools jsonb, result jsonb, request_hash text, seed text, forked_from jsonb, seal text, owner text, logs jsonb,
            tools_version bigint)
        ), fresh AS (
          SELECT * FROM given g
          WHERE g.tools_version IS NULL OR g.tools_version = ${versionOf(sql, sql.literal("g.tenant"))}
        ), r AS (
          INSERT INTO runs (id, tenant, status, code, limits, tools, result, version, request_hash, seed, forked_from, seal)
          SELECT id, tenant, status, code, limits, nullif(tools, 'null'), result, 1, request_hash, seed,
                 nullif(forked_from, 'null'), seal
          FROM fresh ORDER BY i
          RETURNING id, seq, created_at, result
        ), e AS (
          INSERT INTO events (run_id, seq, type, data, key)
          SELECT g.id, 1, 'run.created', CASE WHEN nullif(g.forked_from, 'null') IS NULL THEN jsonb_build_object('owner', g.owner)
              ELSE jsonb_build_object('owner', g.owner, 'forkedFrom', g.forked_from) END, NULL
            FROM fresh g
          UNION ALL
          SELECT g.id, 1 + l.n, l.e->>'type', l.e->'data', l.e->>'key'
            FROM fresh g, jsonb_array_elements(g.logs) WITH ORDINALITY AS l(e, n)
          UNION ALL
          SELECT g.id, 2 + coalesce(jsonb_array_length(g.logs), 0), 'run.' || g.status, jsonb_build_object('owner', g.owner), NULL
            FROM fresh g
        )
        SELECT id, seq::text AS seq, created_at, result FROM r`
      // The statement stores every run or fails (a taken id): one it did not store started with stale registrations.
      const inserted = new Map((yield* storedEnded(raw)).map((r) => [r.id, r]))
      return runs.map((run) => {
        const r = inserted.get(run.id)
        return r === undefined ? ("stale" as const) : endedRow(run, r)
      })
    })
    const insertEndedOrStale = batched(yield* Scope.Scope, MAX_BATCH, insertEndedOne, insertEndedMany)
    const insertEnded = (run: EndedRun) => Effect.flatMap(insertEndedOrStale(run), unlessStale(run))

    const get = Effect.fnUntraced(function* (tenant: string, id: string) {
      return yield* first(yield* sql`SELECT ${columns} FROM runs WHERE id = ${id} AND ${only(sql`tenant = ${tenant}`)}`)
    })

    const list = Effect.fnUntraced(function* (tenant: string, query: ListQuery) {
      const raw = yield* sql`
        SELECT ${columns} FROM runs
        WHERE ${sql.and([
          sql`tenant = ${tenant}`,
          ...(query.status === undefined ? [] : [sql`status = ${query.status}`]),
          ...(query.tool === undefined ? [] : [sql`EXISTS (SELECT 1 FROM calls WHERE calls.run_id = runs.id AND calls.path = ${query.tool})`]),
          ...(query.since === undefined ? [] : [sql`created_at >= ${query.since}`]),
          ...(query.until === undefined ? [] : [sql`created_at < ${query.until}`]),
          ...(query.before === undefined ? [] : [sql`seq < ${query.before}::bigint`]),
        ])}
        ORDER BY runs.seq DESC LIMIT ${query.limit}`
      return (yield* rows(raw)).map(toRow)
    })

    const countByStatus = Effect.gen(function* () {
      const raw = yield* sql`SELECT status, count(*)::int AS n FROM runs GROUP BY status`
      return new Map((yield* decodeRows(StatusCount)(raw)).map((r) => [r.status, r.n]))
    }).pipe(Effect.withSpan("RunStore.countByStatus"))

    // One statement: the Result gains the journal's calls it lacks (`withJournal`, in SQL: sorted by call number,
    // the listed ones first among equals), and the answer's call locations come back with the row. The outcomes
    // to record go in with it (calls.ts `settling`), their events before the run's.
    const callNumber = (key: string) => sql.literal(`(CASE WHEN substring(${key} from '[^:]*$') ~ '^[0-9]+$' THEN substring(${key} from '[^:]*$')::numeric END)`)
    const finish = Effect.fnUntraced(function* (
      id: string,
      owner: string,
      status: "succeeded" | "failed",
      result: Result,
      settled: ReadonlyArray<SettledCall> = [],
      checkpoint?: NewCheckpoint,
    ) {
      const settles = settled.length === 0 ? undefined : settling(sql, json, id, settled, sql`EXISTS (SELECT 1 FROM r)`)
      // The journal's calls the Result lacks: `listed` holds the keys of those it has.
      const missing = sql`c.run_id = ${id} AND NOT (given.listed ? c.key)`
      const raw = yield* sql`
        WITH given AS (SELECT ${json(result)}::jsonb AS result, ${json(result.toolCalls.map((c) => c.key))}::jsonb AS listed),
        r AS (
          UPDATE runs SET status = ${status}, result = CASE WHEN NOT EXISTS (SELECT 1 FROM calls c WHERE ${missing}) THEN given.result
              ELSE jsonb_set(given.result, '{toolCalls}', (
                SELECT jsonb_agg(a.t ORDER BY ${callNumber("a.t->>'key'")}, a.o, a.n) FROM (
                  SELECT l.t, l.n, 0 AS o FROM jsonb_array_elements(given.result->'toolCalls') WITH ORDINALITY AS l(t, n)
                  UNION ALL SELECT jsonb_build_object('path', 'tools.' || c.path, 'key', c.key), 0, 1 FROM calls c WHERE ${missing}
                ) a)) END,
            snapshot = NULL, owner = NULL, lease_expires_at = NULL, control = NULL, version = version + 1, updated_at = now()${
              checkpoint === undefined ? sql`` : sql`, checkpoint_seq = checkpoint_seq + 1`}
          FROM given
          WHERE id = ${id} AND ${owned(owner)}
          RETURNING runs.*
        )${checkpoint === undefined ? sql`` : sql`, ${keep(id, checkpoint.snapshot, checkpoint.seal, checkpoint.at)}`}${settles === undefined ? sql`` : sql`, ${settles.ctes}`}, e AS (
          INSERT INTO events (run_id, type, data, key)
          SELECT x.run_id, x.type, x.data, x.key FROM (
            ${settles === undefined ? sql`` : sql`${settles.events} UNION ALL`}
            SELECT id AS run_id, NULL::bigint AS n, 0 AS o, ${`run.${status}`}::text AS type, ${json({ owner })}::jsonb AS data, NULL::text AS key FROM r
          ) x ORDER BY x.n NULLS LAST, x.o
          ON CONFLICT (run_id, key) WHERE key IS NOT NULL DO NOTHING
        )
        SELECT ${columns}, (SELECT jsonb_object_agg(c.key, c.location) FROM calls c WHERE c.run_id = r.id AND c.location IS NOT NULL) AS locations
        FROM r, ${notifying(sql, "changed", "r.id")}`
      const r = (yield* decodeRows(Finished)(raw))[0]
      return r === undefined ? undefined : { ...toRow(r), locations: new Map(Object.entries(r.locations ?? {})) }
    })

    /** Keeps `snapshot` (sealed `seal`) as checkpoint `seq` of the runs `r` returns, and drops the run's oldest past `at.keep`. */
    const keep = (id: string, snapshot: Uint8Array, seal: string | null, at: CheckpointAt) => sql`
      k AS (
        INSERT INTO checkpoints (run_id, seq, calls, after_key, snapshot, size, seal)
        SELECT id, checkpoint_seq, ${at.calls}, ${at.lastKey ?? null}, ${snapshot}, ${snapshot.length}, ${seal} FROM r
        RETURNING seq
      ), d AS (DELETE FROM checkpoints WHERE run_id = ${id} AND seq <= (SELECT seq FROM k) - ${at.keep})`

    const suspend = Effect.fnUntraced(function* (
      id: string,
      owner: string,
      snapshot: Uint8Array,
      seal: string | null,
      at: CheckpointAt,
      auto?: AutoSuspend,
    ) {
      const waiting = auto?.waiting ?? []
      const wake =
        auto?.wake === true
          ? sql`true`
          : auto === undefined || waiting.length === 0
            ? sql`false`
            : sql`EXISTS (SELECT 1 FROM calls WHERE run_id = ${id} AND key IN ${sql.in(waiting)} AND state = 'settled')`
      const write = sql`
        WITH r AS (
          UPDATE runs SET status = 'suspended', snapshot = ${snapshot}, seal = ${seal}, owner = NULL, lease_expires_at = NULL,
            control = NULL, auto_resume = ${auto !== undefined}, wake = ${wake}, version = version + 1, updated_at = now(),
            checkpoint_seq = checkpoint_seq + 1
          WHERE id = ${id} AND ${owned(owner)}
          RETURNING *
        ), ${keep(id, snapshot, seal, at)}, c AS (
          UPDATE calls SET state = 'queued', updated_at = now()
          WHERE run_id IN (SELECT id FROM r) AND state = 'running'
        ), e AS (
          INSERT INTO events (run_id, type, data)
          SELECT id, 'run.suspended', ${json({ owner, bytes: snapshot.length, ...(auto === undefined ? {} : { auto: true }) })} FROM r
        )
        SELECT ${columns} FROM r`
      // An auto-suspend locks the row before its statement reads the calls (see calls.ts `complete`).
      const raw =
        auto === undefined ? yield* write : yield* transaction(sql`SELECT 1 FROM runs WHERE id = ${id} FOR NO KEY UPDATE`.pipe(Effect.andThen(write)))
      return yield* first(raw)
    })

    const pin = Effect.fnUntraced(function* (tenant: string, id: string) {
      yield* sql`UPDATE runs SET auto_resume = false, wake = false WHERE id = ${id} AND ${only(sql`tenant = ${tenant} AND status = 'suspended'`)}`
    })

    // One statement: the state the run resumes from and the one kept for forks are the same, or neither is saved.
    // The number comes from the row the statement updates (migrations/0009), so a suspend racing it gets another.
    const checkpoint = Effect.fnUntraced(function* (id: string, owner: string, snapshot: Uint8Array, seal: string | null, at: CheckpointAt) {
      yield* sql`
        WITH r AS (
          UPDATE runs SET snapshot = ${snapshot}, seal = ${seal}, checkpoint_seq = checkpoint_seq + 1
          WHERE id = ${id} AND ${owned(owner)}
          RETURNING id, checkpoint_seq
        ), ${keep(id, snapshot, seal, at)}
        SELECT 1`
    })

    const checkpointState = Effect.fnUntraced(function* (tenant: string, id: string, seq: number | undefined) {
      const run = yield* get(tenant, id)
      if (run === undefined) return undefined
      const raw = yield* sql`
        SELECT seq, snapshot, seal FROM checkpoints
        WHERE run_id = ${id}${seq === undefined ? sql`` : sql` AND seq = ${seq}`}
        ORDER BY seq DESC LIMIT 1`
      return { run, state: (yield* decodeRows(State)(raw))[0] }
    })

    const checkpoints = Effect.fnUntraced(function* (tenant: string, id: string) {
      if ((yield* get(tenant, id)) === undefined) return undefined
      const kept = yield* decodeRows(Kept)(
        yield* sql`
          SELECT k.seq, k.calls, k.size, k.created_at, c.key, c.path, c.input, c.outcome
          FROM checkpoints k LEFT JOIN calls c ON c.run_id = k.run_id AND c.key = k.after_key
          WHERE k.run_id = ${id}
          ORDER BY k.seq`,
      )
      return kept.map((k) => ({
        seq: k.seq,
        calls: k.calls,
        size: k.size,
        createdAt: k.created_at,
        after: k.key === null || k.path === null ? undefined : { key: k.key, path: k.path, input: k.input, outcome: k.outcome },
      }))
    })

    const pruneCheckpoints = Effect.fnUntraced(function* (ms: number) {
      const raw = yield* sql`
        WITH d AS (DELETE FROM checkpoints WHERE created_at < now() - ${ms} * interval '1 millisecond' RETURNING 1)
        SELECT count(*)::int AS n FROM d`
      return (yield* decodeRows(Pruned)(raw))[0]?.n ?? 0
    })

    /**
     * What makes the claim's transaction commit without waiting for its WAL flush (the wait was most of a
     * resume's claim, ~3 ms of 3.3). Safe because WAL is flushed in order: whatever the run does next that must
     * survive — a call's `started` before a plain or durable call leaves, its suspend, checkpoint or `finish` — is a
     * synchronous commit that flushes the claim first; a crash before that only makes the run suspended again
     * (docs/internals.md, Ownership). Evaluated with the claim's notice, for the claimed row: whenever the statement claims one.
     */
    const asyncCommit = sql`set_config('synchronous_commit', 'off', true)`

    // `known`: the version of the tenant's registrations the caller keeps; they are read only when they changed since.
    const claimWhere = (where: Statement.Fragment, owner: string, leaseMs: number, event: Record<string, unknown>, known?: number) =>
      Effect.gen(function* () {
        const raw = yield* sql`
          WITH r AS (
            UPDATE runs SET status = 'running', owner = ${owner}, lease_expires_at = ${lease(leaseMs)},
              control = NULL, auto_resume = false, wake = false, version = version + 1, updated_at = now()
            WHERE ${where}
            RETURNING *
          ), e AS (INSERT INTO events (run_id, type, data) SELECT id, 'run.resumed', ${json({ owner, ...event })} FROM r)
          SELECT ${columns}, snapshot, seal, ${registrationColumns(sql, "r.tenant", known === undefined ? undefined : sql`tools_version = ${known}`)}, tools_version,
            (SELECT CASE WHEN count(*) <= ${CLAIM_JOURNAL_KEYS} THEN coalesce(jsonb_object_agg(j.key, CASE WHEN j.state = 'settled' THEN NULL
                ELSE jsonb_build_object('path', j.path, 'mode', j.mode, 'input', j.input, 'state', j.state, 'data', j.data, 'outcome', j.outcome) END), '{}') END
              FROM (SELECT key, path, mode, input, state, data, outcome FROM calls WHERE run_id = r.id LIMIT ${CLAIM_JOURNAL_KEYS + 1}) j) AS journal
          FROM r, ${toolsVersion(sql, "r.tenant")}, ${notifying(sql, "changed", "r.id", asyncCommit)}`
        const r = (yield* decodeRows(ClaimedRaw)(raw))[0]
        if (r === undefined) return undefined
        const journal = r.journal === null ? undefined : new Map(Object.entries(r.journal))
        return { row: toRow(r), snapshot: r.snapshot ?? new Uint8Array(), seal: r.seal, journal, registrations: currentIn(r) }
      })

    const claim = Effect.fnUntraced(function* (tenant: string, id: string, owner: string, leaseMs: number, known?: number) {
      return yield* claimWhere(sql`id = ${id} AND ${only(sql`status = 'suspended' AND tenant = ${tenant}`)}`, owner, leaseMs, {}, known)
    })

    const claimWoken = Effect.fnUntraced(function* (id: string, owner: string, leaseMs: number) {
      return yield* claimWhere(sql`id = ${id} AND ${only(sql`status = 'suspended' AND wake`)}`, owner, leaseMs, { auto: true })
    })

    /**
     * Running runs whose lease expired, other than `executing` (this replica's own): what takeOver takes, and cancel
     * "orphaned".
     */
    const orphaned = (executing: ReadonlyArray<string>) =>
      sql`status = 'running' AND lease_expires_at < now()${executing.length === 0 ? sql`` : sql` AND id NOT IN ${sql.in(executing)}`}`

    const due = Effect.fnUntraced(function* (limit: number, executing: ReadonlyArray<string>) {
      const raw = yield* sql`
        SELECT
          (SELECT coalesce(jsonb_agg(jsonb_build_object('id', w.id, 'tenant', w.tenant) ORDER BY w.updated_at), '[]')
            FROM (SELECT id, tenant, updated_at FROM runs WHERE status = 'suspended' AND wake ORDER BY updated_at LIMIT ${limit}) w) AS wakeable,
          EXISTS (SELECT 1 FROM calls WHERE ${expiringCalls(sql)}) AS expiring,
          EXISTS (SELECT 1 FROM runs WHERE ${orphaned(executing)}) AS orphaned`
      return (yield* decodeRows(DueRaw)(raw))[0]!
    })

    const takeOver = Effect.fnUntraced(function* (owner: string, leaseMs: number, executing: ReadonlyArray<string>) {
      // SKIP LOCKED: replicas sweeping at the same time take different runs instead of queueing on one row.
      const raw = yield* sql`
        WITH victim AS (
          SELECT id, owner FROM runs
          WHERE ${orphaned(executing)}
          ORDER BY lease_expires_at LIMIT 1 FOR UPDATE SKIP LOCKED
        ), r AS (
          UPDATE runs SET owner = ${owner}, lease_expires_at = ${lease(leaseMs)}, control = NULL,
            recovery_attempts = recovery_attempts + 1, version = version + 1, updated_at = now()
          FROM victim WHERE runs.id = victim.id
          RETURNING runs.*, victim.owner AS previous_owner
        ), e AS (
          INSERT INTO events (run_id, type, data)
          SELECT id, 'run.recovered', jsonb_build_object('owner', ${owner}::text, 'from', previous_owner, 'attempt', recovery_attempts) FROM r
        )
        SELECT ${columns}, snapshot, seal, recovery_attempts, previous_owner FROM r`
      const r = (yield* decodeRows(Recovered)(raw))[0]
      if (r === undefined) return undefined
      const snapshot = r.snapshot ?? undefined
      return { row: toRow(r), snapshot: snapshot ?? new Uint8Array(), seal: r.seal, checkpoint: snapshot, attempts: r.recovery_attempts, previousOwner: r.previous_owner }
    })

    const cancel = Effect.fnUntraced(function* (tenant: string, id: string, where: CancelWhere) {
      const condition =
        where === "suspended"
          ? sql`status = 'suspended'`
          : where === "orphaned"
            ? orphaned([])
            : sql`status = 'running' AND owner = ${where.owner}`
      const raw = yield* sql`
        WITH r AS (
          UPDATE runs SET status = 'cancelled', snapshot = NULL, owner = NULL, lease_expires_at = NULL,
            control = NULL, auto_resume = false, wake = false, version = version + 1, updated_at = now()
          WHERE id = ${id} AND ${only(sql`tenant = ${tenant} AND ${condition}`)}
          RETURNING *
        ), c AS (
          UPDATE calls SET state = 'settled', outcome = ${json(CANCELLED)}, updated_at = now()
          WHERE run_id IN (SELECT id FROM r) AND state <> 'settled'
          RETURNING key, path, mode, state, data
        ), e AS (INSERT INTO events (run_id, type, data) SELECT id, 'run.cancelled', '{}' FROM r)
        SELECT ${columns},
          (SELECT jsonb_agg(jsonb_build_object('key', key, 'path', path, 'data', data)) FROM c WHERE mode = 'durable' AND data IS NOT NULL) AS durable
        FROM r`
      const r = (yield* decodeRows(Cancelled)(raw))[0]
      return r === undefined ? undefined : { row: toRow(r), durable: r.durable ?? [] }
    })

    const requestControl = Effect.fnUntraced(function* (tenant: string, id: string, control: Control) {
      return yield* first(
        yield* sql`
          UPDATE runs SET control = ${json(control)}
          WHERE id = ${id} AND ${only(sql`tenant = ${tenant} AND status = 'running'`)}
          RETURNING ${columns}`,
      )
    })

    const replyControl = Effect.fnUntraced(function* (id: string, owner: string, control: Control) {
      yield* sql`UPDATE runs SET control = ${json(control)} WHERE id = ${id} AND owner = ${owner}`
    })

    const renewLeases = Effect.fnUntraced(function* (owner: string, ids: ReadonlyArray<string>, leaseMs: number) {
      if (ids.length === 0) return []
      return yield* decodeRows(Renewed)(
        yield* sql`
          UPDATE runs SET lease_expires_at = ${lease(leaseMs)}
          WHERE id IN ${sql.in(ids)} AND ${owned(owner)}
          RETURNING id, control`,
      )
    })

    return RunStore.of(
      retrying({
        insert,
        insertEnded,
        get,
        list,
        countByStatus,
        finish,
        suspend,
        pin,
        checkpoint,
        checkpoints,
        checkpointState,
        pruneCheckpoints,
        claim,
        due,
        claimWoken,
        takeOver,
        cancel,
        requestControl,
        replyControl,
        renewLeases,
      }),
    )
  }),
)
