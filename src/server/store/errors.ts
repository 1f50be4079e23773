/**
 * What a storage failure says. The contracts fail with `SqlError` (the memory store never fails); these read the
 * Postgres answer inside one, so the service can tell a refused statement from a broken connection.
 */
import * as SqlError from "effect/sql/SqlError"

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
