/**
 * How a run ends, for both engines: the Result of the loop's ending (the value copied out, the output budget
 * applied, unhandled rejections as warnings), and the diagnostics of the ways a run stops — a timeout, a
 * termination, an uncaught throw.
 */
import { Termination } from "../runtime/completion.ts"
import { NativeFunction } from "../runtime/function-object.ts"
import { ErrorObject } from "../runtime/errors.ts"
import { JSObject } from "../runtime/object.ts"
import type { PromiseObject } from "../runtime/promise.ts"
import type { Realm } from "../runtime/realm.ts"
import { SymbolValue, type Value } from "../runtime/value.ts"
import { DataError, toData } from "./data.ts"
import { diagnostic, type Diagnostic } from "./diagnostic.ts"
import { hostDiagnosticOf } from "./host-failure.ts"
import type { CallLedger } from "./ledger.ts"
import type { Limits } from "./limits.ts"
import { retainOutput, retainWarnings } from "./output-budget.ts"
import { fail, succeed, type Result } from "./result.ts"

/** How the loop stopped, before the output budget and cleanup. */
export type Ending =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly error: Diagnostic }
  | { readonly ok: "interrupted" }

/** The Result of an ending: the value copied out, the output budget applied, warnings gathered. */
export const finish = (
  ctx: { readonly realm: Realm; readonly limits: Limits; readonly ledger: CallLedger },
  ending: Exclude<Ending, { ok: "interrupted" }>,
  stoppedInTime: boolean,
): Result => {
  const { realm, limits } = ctx
  const toolCalls = ctx.ledger.toolCalls
  if (!ending.ok) {
    const retained = retainOutput(limits.maxOutputBytes, undefined, realm.logs)
    return fail(ending.error, { logs: retained.logs, warnings: [], toolCalls, truncated: retained.truncated })
  }
  let value
  try {
    value = toData(ending.value) ?? null
  } catch (e) {
    if (!(e instanceof DataError)) throw e
    const retained = retainOutput(limits.maxOutputBytes, undefined, realm.logs)
    return fail(diagnostic("InvalidDataValue", `The result is not plain data: ${e.message}`), {
      logs: retained.logs,
      warnings: [],
      toolCalls,
      truncated: retained.truncated,
    })
  }
  const warnings = rejectionWarnings(realm)
  if (!stoppedInTime) {
    warnings.push(diagnostic("TimeoutExceeded", `Background work was interrupted after the program returned but did not stop within the ${limits.timeoutMs} ms time limit`))
  }
  const retained = retainOutput(limits.maxOutputBytes, value, realm.logs)
  return succeed(retained.value ?? null, {
    logs: retained.logs,
    warnings: retainWarnings(limits.maxOutputBytes, warnings),
    toolCalls,
    truncated: retained.truncated,
  })
}

export const timeoutDiagnostic = (limits: Limits): Diagnostic =>
  diagnostic("TimeoutExceeded", `Execution exceeded the ${limits.timeoutMs} ms time limit`)

export const terminationDiagnostic = (t: Termination): Diagnostic => {
  const r = t.reason
  switch (r.kind) {
    case "TimeoutExceeded":
      return diagnostic("TimeoutExceeded", "Execution exceeded its time limit")
    case "Interrupted":
    case "Suspended":
      return diagnostic("ExecutionFailure", `Run ${r.kind.toLowerCase()}`)
    default:
      return diagnostic(r.kind, r.message)
  }
}

/**
 * What an uncaught throw reports: the host diagnostic of a failed host call (`ToolFailure`, `UnknownTool`...) when
 * the thrown error is one, otherwise `ExecutionFailure` with `TypeError: x is not a function` for errors and
 * `Uncaught <value>` for anything else thrown.
 */
export const uncaughtDiagnostic = (realm: Realm, thrown: Value): Diagnostic => {
  if (thrown instanceof ErrorObject && thrown.hostDiagnostic !== undefined) return hostDiagnosticOf(thrown.hostDiagnostic, thrown.location)
  if (thrown instanceof JSObject && (thrown instanceof ErrorObject || thrown.lookup("message") !== undefined)) {
    const name = dataString(realm, thrown, "name") ?? "Error"
    const message = dataString(realm, thrown, "message") ?? ""
    const text = message === "" ? name : name === "" ? message : `${name}: ${message}`
    const location = thrown instanceof ErrorObject ? thrown.location : undefined
    return diagnostic("ExecutionFailure", text, location === undefined ? undefined : { location })
  }
  return diagnostic("ExecutionFailure", `Uncaught ${describePrimitive(thrown)}`)
}

/**
 * A string-valued property read without running program code: a data property, or an accessor whose getter is a
 * plain (non-Task) built-in such as DOMException's `name`. A program-defined getter is not called here.
 */
const dataString = (realm: Realm, o: JSObject, key: string): string | undefined => {
  const p = o.lookup(key)
  if (p === undefined) return undefined
  if (!p.accessor) return typeof p.value === "string" ? p.value : undefined
  const getter = p.get
  if (!(getter instanceof NativeFunction) || getter.isTaskImpl) return undefined
  try {
    const v = getter.impl(realm, o, [], undefined, getter)
    return typeof v === "string" ? v : undefined
  } catch {
    return undefined // a brand check failed: report the error without that part
  }
}

const describePrimitive = (v: Value): string => {
  if (v instanceof SymbolValue) return `Symbol(${v.description ?? ""})`
  if (v instanceof JSObject) return v.isCallable() ? "[Function]" : "[object Object]"
  if (typeof v === "bigint") return `${v}n`
  return String(v)
}

/** One warning per promise rejected and never handled, with the kind of the host failure when it is one. */
const rejectionWarnings = (realm: Realm): Diagnostic[] =>
  [...realm.unhandledRejections].map((p) => {
    const d = uncaughtDiagnostic(realm, (p as PromiseObject).result)
    return { ...d, message: `Unhandled promise rejection: ${d.message.replace(/^Uncaught /, "")}` }
  })

export const describeHostError = (e: unknown): string => (e instanceof Error ? e.message : String(e))
