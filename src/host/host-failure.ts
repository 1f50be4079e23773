/**
 * Host failures as the program and the host each see them (STYLE "Host boundary": normalize anything thrown by the
 * host into plain data before it crosses). A `HostFailure` is data: the diagnostic kind, the message the program
 * reads, the fuller message the run's diagnostics carry, and optional data. `toSandboxError` turns it into a fresh
 * sandbox `Error`/`TypeError` of the run's realm — no host object, stack or tag crosses — and marks it with
 * `hostDiagnostic`, so that if the program lets it escape, the Result's error has the failure's kind rather than
 * `ExecutionFailure`.
 *
 * What the program may read is decided here, once:
 * - a `ToolError` refusal: its message and data;
 * - invalid input, an unknown tool: the full message (it is about the program's own call);
 * - anything else the host did (a failure of another type, a defect, invalid output): only "<tool> failed" or
 *   "<tool> returned an invalid output"; the cause goes to the diagnostic alone.
 */
import * as Cause from "effect/Cause"
import { CreateErrorObject } from "../runtime/errors.ts"
import { Property } from "../runtime/property.ts"
import type { Realm, SourceLocation } from "../runtime/realm.ts"
import type { Value } from "../runtime/value.ts"
import { DataError, fromData, hostToData, type DataValue } from "./data.ts"
import type { Diagnostic, DiagnosticKind } from "./diagnostic.ts"
import { isToolError } from "./tool-error.ts"

export interface HostFailure {
  readonly kind: DiagnosticKind
  /** The caught error's `message`. */
  readonly message: string
  /** The run's diagnostic message: the program's message plus whatever cause the program must not see. */
  readonly detail: string
  /** The call's path as the program wrote it (`tools.orders.lookup`). */
  readonly path?: string
  readonly errorType: "Error" | "TypeError"
  /** A ToolError's data, copied; the caught error's `data`. */
  readonly data?: DataValue
}

export const failure = (
  kind: DiagnosticKind,
  message: string,
  options: { readonly detail?: string; readonly path?: string; readonly errorType?: "Error" | "TypeError"; readonly data?: DataValue } = {},
): HostFailure => ({
  kind,
  message,
  detail: options.detail ?? message,
  errorType: options.errorType ?? "Error",
  ...(options.path === undefined ? {} : { path: options.path }),
  ...(options.data === undefined ? {} : { data: options.data }),
})

/** The failure for a tool whose `execute` (or hook) failed with `cause`. */
export const toolFailure = (path: string, cause: Cause.Cause<unknown>, verb = "failed"): HostFailure => {
  const error = Cause.squash(cause)
  if (isToolError(error)) {
    let data: DataValue | undefined
    try {
      data = hostToData(error.data)
    } catch (e) {
      if (!(e instanceof DataError)) throw e
    }
    return failure("ToolFailure", error.message, { path, ...(data === undefined ? {} : { data }) })
  }
  const message = `${path} ${verb}`
  return failure("ToolFailure", message, { path, detail: `${message}: ${describeCause(error)}` })
}

/** "Name: message" of a host error and its `cause` chain, or the value itself, for diagnostics. */
export const describeCause = (error: unknown, depth = 0): string => {
  if (error instanceof Error) {
    const own = error.message === "" ? error.name : `${error.name}: ${error.message}`
    const tag = (error as { _tag?: unknown })._tag
    const head = typeof tag === "string" && tag !== error.name && error.message === "" ? tag : own
    return error.cause !== undefined && depth < 5 ? `${head} (cause: ${describeCause(error.cause, depth + 1)})` : head
  }
  if (typeof error === "object" && error !== null) {
    const tag = (error as { _tag?: unknown })._tag
    try {
      return typeof tag === "string" ? `${tag} ${JSON.stringify(error)}` : JSON.stringify(error) ?? String(error)
    } catch {
      return String(error)
    }
  }
  return String(error)
}

/** A fresh sandbox error for `f`, located where the failed call was made. */
export const toSandboxError = (realm: Realm, f: HostFailure, location: SourceLocation | undefined): Value => {
  const e = CreateErrorObject(realm, f.errorType, f.message)
  e.location = location
  e.hostDiagnostic = { kind: f.kind, message: f.detail, ...(f.path === undefined ? {} : { path: f.path }) }
  if (f.data !== undefined) e.properties.set("data", Property.data(fromData(realm, f.data), true, true, true))
  return e
}

/** The diagnostic a host-marked error reports when it escapes the program. */
export const hostDiagnosticOf = (d: { readonly kind: string; readonly message: string; readonly path?: string }, location: SourceLocation | undefined): Diagnostic => ({
  kind: d.kind as DiagnosticKind,
  message: d.message,
  ...(d.path === undefined ? {} : { path: d.path }),
  ...(location === undefined ? {} : { location }),
})
