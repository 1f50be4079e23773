/** What every Postgres store shares: trying statements again, transactions, JSON parameters and row decoding. */
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import type * as SqlClient from "effect/sql/SqlClient"
import * as SqlError from "effect/sql/SqlError"
import type * as Statement from "effect/sql/Statement"
import { retryFailures } from "../../retry.ts"
import { isTransient } from "../errors.ts"
import { INVALID, rowDecoder } from "./row-decoder.ts"

type E<A> = Effect.Effect<A, SqlError.SqlError>

/**
 * Every statement is tried again on a transient failure (about 3 s in all), so a Postgres restart or a killed
 * connection does not fail the run bookkeeping that happened to use it. Each statement is safe to repeat: the
 * conditional ones (`WHERE owner = $me AND status = ...`) find nothing to do when the first try had committed,
 * which the callers already handle as "someone else did it", and the rest write the same values again.
 */
const retryTransient = <A>(effect: E<A>): E<A> => retryFailures(effect, TRANSIENT)

const TRANSIENT = { schedule: Schedule.exponential("100 millis", 2), times: 5, while: isTransient }

/** The service with every member (effect or effect-returning function) tried again on transient failures. */
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

/**
 * `sql.withTransaction`, with a broken connection a failure: its rollback fails too, which the client raises as a
 * defect, but it is the same transient failure as any other broken connection (tried again like one).
 */
export const transactional =
  (sql: SqlClient.SqlClient) =>
  <A, X>(effect: Effect.Effect<A, X>): Effect.Effect<A, X | SqlError.SqlError> =>
    sql.withTransaction(effect).pipe(Effect.catchDefect((d) => (SqlError.isSqlError(d) ? Effect.fail(d) : Effect.die(d))))

/**
 * Rows as the schema says they are. A row that does not match is a defect (the schema and the migrations
 * disagree), not a failure a caller could handle.
 *
 * The rows are checked and copied by the schema's plain-code decoder (row-decoder.ts) when it has one: the Schema
 * decode builds an Effect per field, and the claim and finish rows of every resume went through it. A row that
 * decoder does not accept, and a schema it does not know, take the Schema decode, whose defect says why.
 */
export const decodeRows = <T>(schema: Schema.Decoder<T>): ((rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<T>>) => {
  let decode = decoders.get(schema)
  if (decode === undefined) {
    const array = Schema.Array(schema)
    const rows = Schema.decodeUnknownEffect(array)
    const slow = (raw: ReadonlyArray<unknown>) => rows(raw).pipe(Effect.orDie)
    const fast = rowDecoder(array)
    decode = fast === undefined ? slow : (raw) => {
      let out: unknown
      try {
        out = fast(raw)
      } catch {
        out = INVALID // a throwing getter or check: the Schema decode makes it the defect it makes of it
      }
      return out === INVALID ? slow(raw) : Effect.succeed(out as ReadonlyArray<unknown>)
    }
    decoders.set(schema, decode)
  }
  return decode as (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<T>>
}

/**
 * Each row schema's decoder, made once: the stores ask for one per statement, and a new array schema is a new
 * parser to build.
 */
const decoders = new WeakMap<Schema.Decoder<unknown>, (rows: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<unknown>>>()

/**
 * `condition`, checked on a row a statement finds by its primary key, kept out of the planner's choice of index: no
 * index nor partial-index predicate matches `(…) IS TRUE`, which a WHERE clause reads as the condition itself. A
 * connection's generic plan of a statement is made once, from the statistics of that moment, and on a young table
 * (every path estimated at one row) it took an index of the condition as readily as the key: the claim scanned the
 * tenant's runs (runs_tenant_seq), `finish` every running run (runs_lease), to find one row.
 */
export const only = (sql: SqlClient.SqlClient, condition: Statement.Fragment): Statement.Fragment => sql`(${condition}) IS TRUE`

/** The notices' channel. https://www.postgresql.org/docs/current/sql-notify.html: payloads stay under 8000 bytes. */
export const CHANNEL = "codemode_runs"

/**
 * A FROM item that sends, when the statement commits, the notice of a change to the run `runIdColumn` names (a column
 * of the rows it joins, written into the SQL as it is: a constant, never data): the change and its notice in one transaction, instead of a NOTIFY of its own after it
 * (`Notifications.sentWith`). Only rows the statement changed are joined, so nothing is announced that did not happen.
 * `also`: more of the same kind (calls of volatile functions, evaluated for each row joined), in the same FROM item
 * rather than one more join of their own to set up on every execution.
 */
export const notifying = (sql: SqlClient.SqlClient, type: "changed" | "events", runIdColumn: string, also?: Statement.Fragment): Statement.Fragment =>
  sql`LATERAL (SELECT pg_notify(${CHANNEL}, json_build_object('type', ${type}::text, 'runId', ${sql.literal(runIdColumn)})::text)${also === undefined ? sql`` : sql`, ${also}`}) AS notified`
