/**
 * `RunStore`: every read and write of runs, their calls and their events. Postgres decides every race (style
 * guide, after DBOS): a run is created once (primary key), claimed once (`UPDATE … WHERE status = 'suspended'`),
 * and finished only by the replica that still owns it (`WHERE owner = $me AND status = 'running'`), so two
 * replicas can never both believe they won. Each state change writes its event in the same statement
 * (data-modifying CTEs), so the history never disagrees with the row.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import type { BlockingCall, Limits, PendingCall, Result, RunStatus } from "./api.ts"
import { storable } from "./json-guard.ts"

/** A suspend or cancel request for the replica executing a run, and that replica's answer. */
export interface Control {
  readonly id: string
  readonly action: "suspend" | "cancel"
  readonly reply?: { readonly ok: true } | { readonly ok: false; readonly kind: string; readonly message: string; readonly calls?: ReadonlyArray<BlockingCall> }
}

export interface RunRow {
  readonly id: string
  readonly tenant: string
  readonly status: RunStatus
  readonly code: string
  readonly limits: Limits
  /** The `tools` filter of the request (paths or namespace prefixes); null = every registered tool. */
  readonly tools: ReadonlyArray<string> | null
  readonly result: Result | null
  readonly owner: string | null
  readonly leaseExpired: boolean
  readonly control: Control | null
  readonly version: number
  readonly seq: string
  /** The fingerprint of the request that created the run (`Runs.create`), null for runs made before it existed. */
  readonly requestHash: string | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

/** What a claim of a suspended run hands to the replica that continues it. */
export interface Claimed {
  readonly row: RunRow
  readonly snapshot: Uint8Array
}

type CallWhere = { readonly tenant: string; readonly key: string } | { readonly callbackHash: string }

export interface NewRun {
  readonly id: string
  readonly tenant: string
  readonly code: string
  readonly limits: Limits
  readonly tools: ReadonlyArray<string> | null
  readonly owner: string
  readonly leaseMs: number
  readonly requestHash: string
}

export interface ListQuery {
  readonly status?: RunStatus | undefined
  readonly limit: number
  /** Only runs older than this `seq`. */
  readonly before?: string | undefined
}

export type CancelWhere = "suspended" | "orphaned" | { readonly owner: string }

/** A durable call settled by a cancel: its tool is told (`cancel` webhook) with its data. */
export interface CancelledCall {
  readonly key: string
  readonly path: string
  readonly data: unknown
}

/** A call as the journal holds it: what a run continuing after a crash replays instead of calling again. */
export interface JournalEntry {
  readonly path: string
  readonly mode: string
  readonly input: unknown
  readonly state: "queued" | "running" | "started" | "settled"
  readonly data: unknown
  readonly outcome: unknown
}

/** A running run whose owner stopped renewing its lease, now taken by this replica. */
export interface TakenOver extends Claimed {
  /** The checkpoint to continue from; undefined when the run never saved one (it starts again from its code). */
  readonly checkpoint: Uint8Array | undefined
  readonly attempts: number
  readonly previousOwner: string | null
}

/** A suspend made by the service: the run continues by itself once woken (`wake`: at once, by any replica). */
export interface AutoSuspend {
  readonly waiting: ReadonlyArray<string>
  readonly wake?: boolean
}

/** How a durable call may go silent before any replica fails it. */
export interface DurableTiming {
  readonly timeoutMs: number | undefined
  readonly heartbeatTimeoutMs: number | undefined
}

type E<A> = Effect.Effect<A, SqlError.SqlError>

/** The SQLSTATE Postgres answered with, when the error carries one. */
export const sqlState = (e: SqlError.SqlError): string | undefined => {
  let cause: unknown = e
  for (let i = 0; i < 4 && typeof cause === "object" && cause !== null; i++) {
    const code = (cause as { code?: unknown }).code
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code
    cause = (cause as { cause?: unknown }).cause
  }
  return undefined
}

/** What Postgres (or the driver) said, rather than the client's generic "Query failed". */
export const sqlMessage = (e: SqlError.SqlError): string => {
  const cause = e.cause.cause
  if (cause instanceof RangeError) return "the data is nested too deeply"
  return cause instanceof Error ? cause.message : e.message
}

/**
 * A failure that says nothing about the statement: the connection broke (a restart, a failover, a killed
 * backend: class 08 and 57P), a deadlock or a serialization failure. Trying again on a fresh connection may work.
 */
export const isTransient = (e: SqlError.SqlError): boolean => {
  if (e.isRetryable) return true
  const state = sqlState(e)
  return state !== undefined && (state.startsWith("08") || state.startsWith("57P"))
}

/**
 * Every statement is tried again on a transient failure (about 3 s in all), so a Postgres restart or a killed
 * connection does not fail the run bookkeeping that happened to use it. Each statement is safe to repeat: the
 * conditional ones (`WHERE owner = $me AND status = ...`) find nothing to do when the first try had committed,
 * which the callers already handle as "someone else did it", and the rest write the same values again.
 */
const retryTransient = <A>(effect: E<A>): E<A> =>
  Effect.retry(effect, { schedule: Schedule.exponential("100 millis", 2), times: 5, while: isTransient })

/**
 * `sql.withTransaction`, with a broken connection a failure: its rollback fails too, which the client raises as a
 * defect, but it is the same transient failure as any other broken connection (tried again like one).
 */
export const transactional =
  (sql: SqlClient.SqlClient) =>
  <A, X>(effect: Effect.Effect<A, X>): Effect.Effect<A, X | SqlError.SqlError> =>
    sql.withTransaction(effect).pipe(Effect.catchDefect((d) => (SqlError.isSqlError(d) ? Effect.fail(d) : Effect.die(d))))

export const retrying = <S extends object>(service: S): S =>
  Object.fromEntries(
    Object.entries(service).map(([name, member]) => [
      name,
      Effect.isEffect(member)
        ? retryTransient(member as E<unknown>)
        : typeof member === "function"
          ? (...args: Array<unknown>) => retryTransient((member as (...a: Array<unknown>) => E<unknown>)(...args))
          : member,
    ]),
  ) as S

/** The outcome of a call its run's cancel settled. */
const CANCELLED = { ok: false, error: { kind: "Cancelled", message: "The call ended when its run was cancelled" } }

export class RunStore extends Context.Service<
  RunStore,
  {
    /** Inserts a running run owned by `owner`; `undefined` when the id is taken. */
    readonly insert: (run: NewRun) => E<RunRow | undefined>
    readonly get: (tenant: string, id: string) => E<RunRow | undefined>
    readonly list: (tenant: string, query: ListQuery) => E<ReadonlyArray<RunRow>>
    /** Unsettled calls of the given runs, oldest first. */
    readonly pendingCalls: (runIds: ReadonlyArray<string>) => E<ReadonlyMap<string, ReadonlyArray<PendingCall>>>
    /** Settles a run its owner executed; the row after, or undefined when `owner` no longer owns it. */
    readonly finish: (id: string, owner: string, status: "succeeded" | "failed", result: Result) => E<RunRow | undefined>
    /**
     * Saves a suspended run and releases it; running calls (interrupted idempotent ones) become queued. `auto`: the
     * service suspended it while it waited on the durable calls `waiting`; it wakes (`wake`) as soon as one of
     * them settles — already now, when one settled while the run was being saved.
     */
    readonly suspend: (
      id: string,
      owner: string,
      snapshot: Uint8Array,
      auto?: AutoSuspend,
    ) => E<RunRow | undefined>
    /** A suspended run stays suspended until resumed: it no longer wakes by itself. */
    readonly pin: (tenant: string, id: string) => E<void>
    /** Saves the checkpoint of a run `owner` executes (what another replica resumes if `owner` dies). */
    readonly checkpoint: (id: string, owner: string, snapshot: Uint8Array) => E<void>
    /** Atomically takes a suspended run for `owner`. */
    readonly claim: (tenant: string, id: string, owner: string, leaseMs: number) => E<Claimed | undefined>
    /** Auto-suspended runs something they wait for has happened to (oldest first). */
    readonly wakeable: (limit: number) => E<ReadonlyArray<{ readonly id: string; readonly tenant: string }>>
    /** Atomically takes a woken auto-suspended run for `owner`. */
    readonly claimWoken: (id: string, owner: string, leaseMs: number) => E<Claimed | undefined>
    /**
     * Takes one running run whose lease expired (its replica died) for `owner`, counting the attempt; never one of
     * `executing` (runs `owner` still executes, whose renewal failed for a while).
     */
    readonly takeOver: (owner: string, leaseMs: number, executing: ReadonlyArray<string>) => E<TakenOver | undefined>
    /**
     * Cancels a run that is suspended, orphaned (lease expired) or owned by `where.owner`; the row after, and the
     * started durable calls the cancel settled (their tools are to be told).
     */
    readonly cancel: (
      tenant: string,
      id: string,
      where: CancelWhere,
    ) => E<{ readonly row: RunRow; readonly durable: ReadonlyArray<CancelledCall> } | undefined>
    /** Writes a control request for the owner of a running run; the row as it was, or undefined when not running. */
    readonly requestControl: (tenant: string, id: string, control: Control) => E<RunRow | undefined>
    /** The owner's answer to a control request. */
    readonly replyControl: (id: string, owner: string, control: Control) => E<void>
    /**
     * Extends the leases of the given runs where `owner` still executes them; answers those runs with their
     * control requests (a run missing from the answer was taken from `owner`, or ended).
     */
    readonly renewLeases: (
      owner: string,
      ids: ReadonlyArray<string>,
      leaseMs: number,
    ) => E<ReadonlyArray<{ readonly id: string; readonly control: Control | null }>>
    /** A call begins (or begins again, for a repeated idempotent call). */
    readonly callStarted: (
      runId: string,
      call: { key: string; path: string; mode: string; input: unknown; callbackHash?: string | undefined },
    ) => E<void>
    /** A durable call's `start` was accepted: its data is saved and it waits for its completion (or its timeouts). */
    readonly callAccepted: (runId: string, key: string, data: unknown, timing: DurableTiming) => E<void>
    /** The call as recorded, for a run replaying its calls after a crash or resume. */
    readonly journal: (runId: string, key: string) => E<JournalEntry | undefined>
    /** Calls of a run that were in flight and cannot be repeated safely (a plain call, a durable `start`). */
    readonly unsafeCalls: (runId: string) => E<ReadonlyArray<{ readonly key: string; readonly path: string }>>
    /** Settles an unsettled durable call as cancelled; its data when this did it (the tool is to be told once). */
    readonly callCancelled: (runId: string, key: string) => E<CancelledCall | undefined>
    /**
     * Records a heartbeat of a started durable call; its state, or undefined when there is no such durable call.
     */
    readonly heartbeat: (where: CallWhere) => E<{ readonly runId: string; readonly key: string; readonly state: string } | undefined>
    /** Fails the started durable calls whose deadline or heartbeat passed; the runs they belong to. */
    readonly expireCalls: E<ReadonlyArray<string>>
    /** A call's state and outcome (undefined when there is no such call). */
    readonly callOutcome: (runId: string, key: string) => E<{ readonly state: string; readonly outcome: unknown } | undefined>
    /**
     * Completes a durable call that has not settled — found by key within the tenant, or by the hash of its
     * callback token. The call as it is after: `completed` false when it had already settled (its stored outcome
     * is answered); undefined when there is no such durable call.
     */
    readonly completeCall: (
      where: CallWhere,
      outcome: unknown,
    ) => E<{ readonly runId: string; readonly key: string; readonly outcome: unknown; readonly completed: boolean } | undefined>
    readonly callSettled: (runId: string, key: string, outcome: unknown) => E<void>
    readonly appendEvent: (runId: string, type: string, data: unknown) => E<void>
    /** `log` events for lines a run logged, in order; `truncated` adds the event that says later lines are not streamed. */
    readonly appendLogs: (runId: string, lines: ReadonlyArray<string>, truncated: boolean) => E<void>
    /** The run's events after the event `after` (a decimal id; "0" for all), oldest first, at most `limit`. */
    readonly events: (
      runId: string,
      after: string,
      limit: number,
    ) => E<ReadonlyArray<{ readonly id: string; readonly type: string; readonly data: unknown; readonly at: Date }>>
  }
>()("codemode/server/RunStore") {
  static readonly layer: Layer.Layer<RunStore, never, PgClient.PgClient | SqlClient.SqlClient> = Layer.effect(
    RunStore,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const pg = yield* PgClient.PgClient
      const json = (v: unknown) => pg.json(storable(v))
      const transaction = transactional(sql)
      const lease = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'`
      const columns = sql.literal(`id, tenant, status, code, limits, tools, result, owner, control, version,
        seq::text AS seq, request_hash, created_at, updated_at, coalesce(lease_expires_at < now(), false) AS lease_expired`)

      interface Raw {
        readonly id: string
        readonly tenant: string
        readonly status: RunStatus
        readonly code: string
        readonly limits: Limits
        readonly tools: ReadonlyArray<string> | null
        readonly result: Result | null
        readonly owner: string | null
        readonly control: Control | null
        readonly version: number
        readonly seq: string
        readonly request_hash: string | null
        readonly created_at: Date
        readonly updated_at: Date
        readonly lease_expired: boolean
      }
      const toRow = (r: Raw): RunRow => ({
        id: r.id,
        tenant: r.tenant,
        status: r.status,
        code: r.code,
        limits: r.limits,
        tools: r.tools,
        result: r.result,
        owner: r.owner,
        leaseExpired: r.lease_expired,
        control: r.control,
        version: r.version,
        seq: r.seq,
        requestHash: r.request_hash,
        createdAt: r.created_at,
        updatedAt: r.updated_at,
      })

      const insert = Effect.fn("RunStore.insert")(function* (run: NewRun) {
        const rows = yield* sql<Raw>`
          WITH r AS (
            INSERT INTO runs (id, tenant, status, code, limits, tools, owner, lease_expires_at, request_hash)
            VALUES (${run.id}, ${run.tenant}, 'running', ${run.code}, ${json(run.limits)},
                    ${run.tools === null ? null : json(run.tools)}, ${run.owner}, ${lease(run.leaseMs)}, ${run.requestHash})
            ON CONFLICT (id) DO NOTHING
            RETURNING *
          ), e AS (INSERT INTO events (run_id, type, data) SELECT id, 'run.created', ${json({ owner: run.owner })} FROM r)
          SELECT ${columns} FROM r`
        return rows[0] === undefined ? undefined : toRow(rows[0])
      })

      const get = Effect.fn("RunStore.get")(function* (tenant: string, id: string) {
        const rows = yield* sql<Raw>`SELECT ${columns} FROM runs WHERE tenant = ${tenant} AND id = ${id}`
        return rows[0] === undefined ? undefined : toRow(rows[0])
      })

      const list = Effect.fn("RunStore.list")(function* (tenant: string, query: ListQuery) {
        const rows = yield* sql<Raw>`
          SELECT ${columns} FROM runs
          WHERE ${sql.and([
            sql`tenant = ${tenant}`,
            ...(query.status === undefined ? [] : [sql`status = ${query.status}`]),
            ...(query.before === undefined ? [] : [sql`seq < ${query.before}::bigint`]),
          ])}
          ORDER BY runs.seq DESC LIMIT ${query.limit}`
        return rows.map(toRow)
      })

      const pendingCalls = Effect.fn("RunStore.pendingCalls")(function* (runIds: ReadonlyArray<string>) {
        const out = new Map<string, Array<PendingCall>>()
        if (runIds.length === 0) return out
        const rows = yield* sql<{ run_id: string; key: string; path: string; state: PendingCall["state"] }>`
          SELECT run_id, key, path, state FROM calls
          WHERE run_id IN ${sql.in(runIds)} AND state <> 'settled'
          ORDER BY created_at, key`
        for (const r of rows) {
          const list = out.get(r.run_id) ?? []
          list.push({ key: r.key, path: r.path, state: r.state })
          out.set(r.run_id, list)
        }
        return out
      })

      const finish = Effect.fn("RunStore.finish")(function* (
        id: string,
        owner: string,
        status: "succeeded" | "failed",
        result: Result,
      ) {
        const rows = yield* sql<Raw>`
          WITH r AS (
            UPDATE runs SET status = ${status}, result = ${json(result)}, snapshot = NULL,
              owner = NULL, lease_expires_at = NULL, control = NULL, version = version + 1, updated_at = now()
            WHERE id = ${id} AND owner = ${owner} AND status = 'running'
            RETURNING *
          ), e AS (INSERT INTO events (run_id, type, data) SELECT id, ${`run.${status}`}, ${json({ owner })} FROM r)
          SELECT ${columns} FROM r`
        return rows[0] === undefined ? undefined : toRow(rows[0])
      })

      const suspend = Effect.fn("RunStore.suspend")(function* (
        id: string,
        owner: string,
        snapshot: Uint8Array,
        auto?: AutoSuspend,
      ) {
        const waiting = auto?.waiting ?? []
        const wake =
          auto?.wake === true
            ? sql`true`
            : auto === undefined || waiting.length === 0
            ? sql`false`
            : sql`EXISTS (SELECT 1 FROM calls WHERE run_id = ${id} AND key IN ${sql.in(waiting)} AND state = 'settled')`
        const write = sql<Raw>`
          WITH r AS (
            UPDATE runs SET status = 'suspended', snapshot = ${snapshot}, owner = NULL, lease_expires_at = NULL,
              control = NULL, auto_resume = ${auto !== undefined}, wake = ${wake}, version = version + 1, updated_at = now()
            WHERE id = ${id} AND owner = ${owner} AND status = 'running'
            RETURNING *
          ), c AS (
            UPDATE calls SET state = 'queued', updated_at = now()
            WHERE run_id IN (SELECT id FROM r) AND state = 'running'
          ), e AS (
            INSERT INTO events (run_id, type, data)
            SELECT id, 'run.suspended', ${json({ owner, bytes: snapshot.length, ...(auto === undefined ? {} : { auto: true }) })} FROM r
          )
          SELECT ${columns} FROM r`
        // An auto-suspend locks the row before its statement reads the calls (see completeCall).
        const rows = auto === undefined ? yield* write : yield* transaction(sql`SELECT 1 FROM runs WHERE id = ${id} FOR NO KEY UPDATE`.pipe(Effect.andThen(write)))
        return rows[0] === undefined ? undefined : toRow(rows[0])
      })

      const pin = Effect.fn("RunStore.pin")(function* (tenant: string, id: string) {
        yield* sql`UPDATE runs SET auto_resume = false, wake = false WHERE tenant = ${tenant} AND id = ${id} AND status = 'suspended'`
      })

      const checkpoint = Effect.fn("RunStore.checkpoint")(function* (id: string, owner: string, snapshot: Uint8Array) {
        yield* sql`UPDATE runs SET snapshot = ${snapshot} WHERE id = ${id} AND owner = ${owner} AND status = 'running'`
      })

      const claim = Effect.fn("RunStore.claim")(function* (tenant: string, id: string, owner: string, leaseMs: number) {
        return yield* claimWhere(sql`tenant = ${tenant} AND id = ${id} AND status = 'suspended'`, owner, leaseMs, {})
      })

      const claimWoken = Effect.fn("RunStore.claimWoken")(function* (id: string, owner: string, leaseMs: number) {
        return yield* claimWhere(sql`id = ${id} AND status = 'suspended' AND wake`, owner, leaseMs, { auto: true })
      })

      const claimWhere = (where: Statement.Fragment, owner: string, leaseMs: number, event: Record<string, unknown>) =>
        Effect.gen(function* () {
          const rows = yield* sql<Raw & { snapshot: Uint8Array | null }>`
            WITH r AS (
              UPDATE runs SET status = 'running', owner = ${owner}, lease_expires_at = ${lease(leaseMs)},
                control = NULL, auto_resume = false, wake = false, version = version + 1, updated_at = now()
              WHERE ${where}
              RETURNING *
            ), e AS (INSERT INTO events (run_id, type, data) SELECT id, 'run.resumed', ${json({ owner, ...event })} FROM r)
            SELECT ${columns}, snapshot FROM r`
          const r = rows[0]
          if (r === undefined) return undefined
          return { row: toRow(r), snapshot: r.snapshot ?? new Uint8Array() }
        })

      const wakeable = Effect.fn("RunStore.wakeable")(function* (limit: number) {
        return yield* sql<{ id: string; tenant: string }>`
          SELECT id, tenant FROM runs WHERE status = 'suspended' AND wake ORDER BY updated_at LIMIT ${limit}`
      })

      const takeOver = Effect.fn("RunStore.takeOver")(function* (owner: string, leaseMs: number, executing: ReadonlyArray<string>) {
        // SKIP LOCKED: replicas sweeping at the same time take different runs instead of queueing on one row.
        const rows = yield* sql<Raw & { snapshot: Uint8Array | null; recovery_attempts: number; previous_owner: string | null }>`
          WITH victim AS (
            SELECT id, owner FROM runs
            WHERE status = 'running' AND lease_expires_at < now()${executing.length === 0 ? sql`` : sql` AND id NOT IN ${sql.in(executing)}`}
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
          SELECT ${columns}, snapshot, recovery_attempts, previous_owner FROM r`
        const r = rows[0]
        if (r === undefined) return undefined
        const snapshot = r.snapshot ?? undefined
        return {
          row: toRow(r),
          snapshot: snapshot ?? new Uint8Array(),
          checkpoint: snapshot,
          attempts: r.recovery_attempts,
          previousOwner: r.previous_owner,
        }
      })

      const cancel = Effect.fn("RunStore.cancel")(function* (tenant: string, id: string, where: CancelWhere) {
        const condition =
          where === "suspended"
            ? sql`status = 'suspended'`
            : where === "orphaned"
              ? sql`status = 'running' AND lease_expires_at < now()`
              : sql`status = 'running' AND owner = ${where.owner}`
        const rows = yield* sql<Raw & { durable: ReadonlyArray<CancelledCall> | null }>`
          WITH r AS (
            UPDATE runs SET status = 'cancelled', snapshot = NULL, owner = NULL, lease_expires_at = NULL,
              control = NULL, auto_resume = false, wake = false, version = version + 1, updated_at = now()
            WHERE tenant = ${tenant} AND id = ${id} AND ${condition}
            RETURNING *
          ), c AS (
            UPDATE calls SET state = 'settled', outcome = ${json(CANCELLED)}, updated_at = now()
            WHERE run_id IN (SELECT id FROM r) AND state <> 'settled'
            RETURNING key, path, mode, state, data
          ), e AS (INSERT INTO events (run_id, type, data) SELECT id, 'run.cancelled', '{}' FROM r)
          SELECT ${columns},
            (SELECT jsonb_agg(jsonb_build_object('key', key, 'path', path, 'data', data)) FROM c WHERE mode = 'durable' AND data IS NOT NULL) AS durable
          FROM r`
        const r = rows[0]
        return r === undefined ? undefined : { row: toRow(r), durable: r.durable ?? [] }
      })

      const requestControl = Effect.fn("RunStore.requestControl")(function* (tenant: string, id: string, control: Control) {
        const rows = yield* sql<Raw>`
          UPDATE runs SET control = ${json(control)}
          WHERE tenant = ${tenant} AND id = ${id} AND status = 'running'
          RETURNING ${columns}`
        return rows[0] === undefined ? undefined : toRow(rows[0])
      })

      const replyControl = Effect.fn("RunStore.replyControl")(function* (id: string, owner: string, control: Control) {
        yield* sql`UPDATE runs SET control = ${json(control)} WHERE id = ${id} AND owner = ${owner}`
      })

      const renewLeases = Effect.fn("RunStore.renewLeases")(function* (owner: string, ids: ReadonlyArray<string>, leaseMs: number) {
        if (ids.length === 0) return []
        return yield* sql<{ id: string; control: Control | null }>`
          UPDATE runs SET lease_expires_at = ${lease(leaseMs)}
          WHERE id IN ${sql.in(ids)} AND owner = ${owner} AND status = 'running'
          RETURNING id, control`
      })

      const callStarted = Effect.fn("RunStore.callStarted")(function* (
        runId: string,
        call: { key: string; path: string; mode: string; input: unknown; callbackHash?: string | undefined },
      ) {
        yield* sql`
          WITH c AS (
            INSERT INTO calls (run_id, key, path, mode, input, state, attempts, callback_hash)
            VALUES (${runId}, ${call.key}, ${call.path}, ${call.mode}, ${json(call.input ?? null)}, 'running', 1,
                    ${call.callbackHash ?? null})
            ON CONFLICT (run_id, key) DO UPDATE SET state = 'running', attempts = calls.attempts + 1, updated_at = now(),
              callback_hash = coalesce(excluded.callback_hash, calls.callback_hash)
            RETURNING run_id, attempts
          )
          INSERT INTO events (run_id, type, data)
          SELECT run_id, 'call.started', ${json({ key: call.key, path: call.path })}::jsonb || jsonb_build_object('attempt', attempts) FROM c`
      })

      const callSettled = Effect.fn("RunStore.callSettled")(function* (runId: string, key: string, outcome: unknown) {
        yield* sql`
          WITH c AS (
            UPDATE calls SET state = 'settled', outcome = ${json(outcome)}, updated_at = now()
            WHERE run_id = ${runId} AND key = ${key}
            RETURNING run_id
          )
          INSERT INTO events (run_id, type, data) SELECT run_id, 'call.settled', ${json({ key, outcome })} FROM c`
      })

      const appendEvent = Effect.fn("RunStore.appendEvent")(function* (runId: string, type: string, data: unknown) {
        yield* sql`INSERT INTO events (run_id, type, data) VALUES (${runId}, ${type}, ${json(data)})`
      })

      const appendLogs = Effect.fn("RunStore.appendLogs")(function* (runId: string, lines: ReadonlyArray<string>, truncated: boolean) {
        yield* sql`
          INSERT INTO events (run_id, type, data)
          SELECT ${runId}, 'log', jsonb_build_object('line', line)
          FROM jsonb_array_elements_text(${json(lines)}) WITH ORDINALITY AS l(line, n) ORDER BY n`
        if (truncated) yield* appendEvent(runId, "log.truncated", { detail: "later lines are only in the run's result" })
      })

      const events = Effect.fn("RunStore.events")(function* (runId: string, after: string, limit: number) {
        const rows = yield* sql<{ id: string; type: string; data: unknown; created_at: Date }>`
          SELECT id::text AS id, type, data, created_at FROM events
          WHERE run_id = ${runId} AND id > ${after}::bigint ORDER BY id LIMIT ${limit}`
        return rows.map((r) => ({ id: r.id, type: r.type, data: r.data, at: r.created_at }))
      })

      const callAccepted = Effect.fn("RunStore.callAccepted")(function* (runId: string, key: string, data: unknown, timing: DurableTiming) {
        yield* sql`
          WITH c AS (
            UPDATE calls SET state = 'started', data = ${json(data ?? null)}, updated_at = now(),
              deadline_at = ${timing.timeoutMs === undefined ? null : lease(timing.timeoutMs)},
              heartbeat_ms = ${timing.heartbeatTimeoutMs ?? null}, heartbeat_at = now()
            WHERE run_id = ${runId} AND key = ${key} AND state <> 'settled'
            RETURNING run_id
          )
          INSERT INTO events (run_id, type, data) SELECT run_id, 'call.accepted', ${json({ key, data: data ?? null })} FROM c`
      })

      const journal = Effect.fn("RunStore.journal")(function* (runId: string, key: string) {
        const rows = yield* sql<JournalEntry>`SELECT path, mode, input, state, data, outcome FROM calls WHERE run_id = ${runId} AND key = ${key}`
        return rows[0]
      })

      const unsafeCalls = Effect.fn("RunStore.unsafeCalls")(function* (runId: string) {
        return yield* sql<{ key: string; path: string }>`
          SELECT key, path FROM calls WHERE run_id = ${runId} AND state = 'running' AND mode IN ('plain', 'durable')
          ORDER BY created_at, key`
      })

      const callCancelled = Effect.fn("RunStore.callCancelled")(function* (runId: string, key: string) {
        const rows = yield* sql<CancelledCall>`
          WITH c AS (
            UPDATE calls SET state = 'settled', outcome = ${json(CANCELLED)}, updated_at = now()
            WHERE run_id = ${runId} AND key = ${key} AND mode = 'durable' AND state <> 'settled'
            RETURNING run_id, key, path, data
          ), e AS (
            INSERT INTO events (run_id, type, data) SELECT run_id, 'call.settled', jsonb_build_object('key', key, 'outcome', ${json(CANCELLED)}::jsonb) FROM c
          )
          SELECT key, path, data FROM c`
        return rows[0]
      })

      const callMatch = (where: CallWhere) =>
        "callbackHash" in where
          ? sql`c.callback_hash = ${where.callbackHash}`
          : sql`c.key = ${where.key} AND c.run_id IN (SELECT id FROM runs WHERE tenant = ${where.tenant})`

      const heartbeat = Effect.fn("RunStore.heartbeat")(function* (where: CallWhere) {
        const rows = yield* sql<{ run_id: string; key: string; state: string }>`
          WITH h AS (
            UPDATE calls c SET heartbeat_at = now() WHERE ${callMatch(where)} AND c.mode = 'durable' AND c.state = 'started'
            RETURNING c.run_id, c.key, c.state
          )
          SELECT run_id, key, state FROM h
          UNION ALL
          SELECT c.run_id, c.key, c.state FROM calls c WHERE ${callMatch(where)} AND c.mode = 'durable' AND NOT EXISTS (SELECT 1 FROM h)`
        const r = rows[0]
        return r === undefined ? undefined : { runId: r.run_id, key: r.key, state: r.state }
      })

      const expiring = sql`state = 'started' AND (deadline_at < now() OR heartbeat_at + heartbeat_ms * interval '1 millisecond' < now())`
      const expireCalls = Effect.gen(function* () {
        // The runs are locked first, in id order, as completeCall and an auto-suspend lock theirs: a run suspending
        // while its call times out is woken all the same.
        yield* sql`SELECT 1 FROM runs WHERE id IN (SELECT run_id FROM calls WHERE ${expiring}) ORDER BY id FOR NO KEY UPDATE`
        const rows = yield* sql<{ run_id: string }>`
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
            INSERT INTO events (run_id, type, data) SELECT run_id, 'call.settled', jsonb_build_object('key', key, 'outcome', outcome) FROM c
          )
          SELECT DISTINCT run_id FROM c`
        return rows.map((r) => r.run_id)
      }).pipe(transaction, Effect.withSpan("RunStore.expireCalls"))

      const callOutcome = Effect.fn("RunStore.callOutcome")(function* (runId: string, key: string) {
        const rows = yield* sql<{ state: string; outcome: unknown }>`
          SELECT state, outcome FROM calls WHERE run_id = ${runId} AND key = ${key}`
        return rows[0]
      })

      const completeCall = Effect.fn("RunStore.completeCall")(function* (where: CallWhere, outcome: unknown) {
        const match = callMatch(where)
        // The run is woken in the same statement. Its row is locked first, as an auto-suspend locks it (`suspend`):
        // each statement reads with a snapshot taken after the other committed, so a suspend racing this
        // completion either sees the call settled (and saves the run already woken) or is seen here as suspended.
        const done = yield* transaction(
          sql`SELECT 1 FROM runs WHERE id IN (SELECT c.run_id FROM calls c WHERE ${match} AND c.mode = 'durable') FOR NO KEY UPDATE`.pipe(
            Effect.andThen(sql<{ run_id: string; key: string }>`
          WITH c AS (
            UPDATE calls c SET state = 'settled', outcome = ${json(outcome)}, updated_at = now()
            WHERE ${match} AND c.mode = 'durable' AND c.state <> 'settled'
            RETURNING c.run_id, c.key
          ), w AS (
            UPDATE runs SET wake = true WHERE id IN (SELECT run_id FROM c) AND status = 'suspended' AND auto_resume
          ), e AS (
            INSERT INTO events (run_id, type, data)
            SELECT run_id, 'call.settled', jsonb_build_object('key', key, 'outcome', ${json(outcome)}::jsonb) FROM c
          )
          SELECT run_id, key FROM c`),
          ),
        )
        if (done[0] !== undefined) return { runId: done[0].run_id, key: done[0].key, outcome, completed: true }
        const rows = yield* sql<{ run_id: string; key: string; outcome: unknown }>`
          SELECT c.run_id, c.key, c.outcome FROM calls c WHERE ${match} AND c.mode = 'durable' AND c.state = 'settled'`
        const r = rows[0]
        return r === undefined ? undefined : { runId: r.run_id, key: r.key, outcome: r.outcome, completed: false }
      })

      return RunStore.of(retrying({
        callAccepted,
        journal,
        unsafeCalls,
        callCancelled,
        heartbeat,
        expireCalls,
        checkpoint,
        pin,
        wakeable,
        claimWoken,
        takeOver,
        callOutcome,
        completeCall,
        events,
        insert,
        get,
        list,
        pendingCalls,
        finish,
        suspend,
        claim,
        cancel,
        requestControl,
        replyControl,
        renewLeases,
        callStarted,
        callSettled,
        appendEvent,
        appendLogs,
      }))
    }),
  )
}
