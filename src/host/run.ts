/**
 * The run loop: drives an engine slice by slice inside an Effect fiber. Between slices it hands new host calls to
 * fibers, feeds their outcomes back into the run as settled promises, and enforces the time limit — the engine
 * itself never reads a clock or touches I/O (ARCHITECTURE principle 4). The loop ends when the program's promise
 * settles; calls still in flight are then interrupted ("unfinished work is interrupted").
 *
 * Cleanup is bounded by the time limit: when the program returned a value but interrupting its background calls
 * does not finish before the deadline, the result stays successful with a `TimeoutExceeded` warning, and the calls
 * are left to stop in the background. Call fibers are detached for that reason (a child fiber would hold the run's
 * result until it stopped); the loop interrupts them itself on every way out, interruption of the run included.
 * A call that interrupts itself interrupts the run: interruption propagates without becoming a diagnostic.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import { Termination } from "../runtime/completion.ts"
import type { EngineStatus } from "../runtime/engine.ts"
import { NativeFunction } from "../runtime/function-object.ts"
import { ErrorObject } from "../runtime/errors.ts"
import { JSObject } from "../runtime/object.ts"
import type { PromiseObject } from "../runtime/promise.ts"
import type { HostCallRequest, Realm } from "../runtime/realm.ts"
import { SymbolValue, type Value } from "../runtime/value.ts"
import { DataError, toData } from "./data.ts"
import { diagnostic, type Diagnostic } from "./diagnostic.ts"
import type { CallOutcome } from "./dispatch.ts"
import { hostDiagnosticOf } from "./host-failure.ts"
import type { CallLedger } from "./ledger.ts"
import type { Limits } from "./limits.ts"
import { retainOutput, retainWarnings } from "./output-budget.ts"
import { fail, succeed, type Result } from "./result.ts"
import { settleCall, type ExtensionRun } from "./sandbox-extensions.ts"

/** Steps per slice: small enough to notice a timeout or an interruption within a millisecond or so. */
export const SLICE_STEPS = 20_000

export type { EngineStatus }

/** What the loop needs of an engine: run a bounded slice. */
export interface Engine {
  run(stepBudget: number): EngineStatus
  /**
   * Set by the loop on an engine that may not return within a slice (the tree-walker runs ordinary code on the host
   * stack): the engine calls it every so many steps, and it throws a Termination once the time limit has passed.
   */
  interruptCheck?: (() => void) | undefined
}

export interface RunContext<R> {
  readonly realm: Realm
  readonly engine: Engine
  readonly limits: Limits
  /** The run's admitted calls (tools and search), filled in by the sandbox functions as the program calls them. */
  readonly ledger: CallLedger
  /** The run's extensions: their synchronous calls run with this fiber's services. */
  readonly extensions: ExtensionRun
  /** Runs one host call; the Effect never fails (failures are outcomes). */
  readonly dispatch: (call: HostCallRequest, key: string) => Effect.Effect<CallOutcome, never, R>
}

interface Delivery {
  readonly call: HostCallRequest
  readonly outcome: CallOutcome
}

/** How the loop stopped, before the output budget and cleanup. */
export type Ending =
  | { readonly ok: true; readonly value: Value }
  | { readonly ok: false; readonly error: Diagnostic }
  | { readonly ok: "interrupted" }

export const runLoop = <R>(ctx: RunContext<R>): Effect.Effect<Result, never, R> =>
  Effect.gen(function* () {
    const { realm, engine, limits } = ctx
    const inflight = new Map<number, Fiber.Fiber<void>>()
    const deliveries = yield* Queue.unbounded<Delivery>()
    const started = yield* Clock.currentTimeMillis
    const deadline = limits.timeoutMs === undefined ? undefined : started + limits.timeoutMs
    ctx.extensions.services = (yield* Effect.context<never>()) as Context.Context<unknown>
    if (deadline !== undefined) {
      const clock = yield* Clock.clockWith(Effect.succeed)
      const interrupt = () => {
        if (clock.currentTimeMillisUnsafe() >= deadline) throw new Termination({ kind: "TimeoutExceeded" })
      }
      realm.host.interrupt = interrupt
      if ("interruptCheck" in engine) engine.interruptCheck = interrupt
    }

    const deliver = (d: Delivery): Ending | undefined => {
      inflight.delete(d.call.callId)
      const promise = d.call.capability.promise as PromiseObject
      const { outcome } = d
      if (outcome.ok === "interrupted") return { ok: "interrupted" }
      settleCall(realm, ctx.extensions, promise, outcome, ctx.ledger.locations.get(d.call.callId))
      return undefined
    }

    const loop: Effect.Effect<Ending, never, R> = Effect.gen(function* () {
      for (;;) {
        let status: EngineStatus
        try {
          status = engine.run(SLICE_STEPS)
        } catch (e) {
          if (e instanceof Termination) return { ok: false, error: e.reason.kind === "TimeoutExceeded" ? timeoutDiagnostic(limits) : terminationDiagnostic(e) }
          return { ok: false, error: diagnostic("ExecutionFailure", `Internal error: ${describeHostError(e)}`) }
        }
        // Hand every new host call to its own fiber: tool-call concurrency is unrestricted.
        while (realm.hostCalls.length > 0) {
          const call = realm.hostCalls.shift()!
          const key = `${ctx.ledger.runId}:${call.callId}`
          const fiber = yield* Effect.forkDetach(
            ctx.dispatch(call, key).pipe(Effect.flatMap((outcome) => Queue.offer(deliveries, { call, outcome }))),
            { startImmediately: true },
          )
          inflight.set(call.callId, fiber as Fiber.Fiber<void>)
        }
        if (status.kind === "completed") return { ok: true, value: status.value }
        if (status.kind === "threw") return { ok: false, error: uncaughtDiagnostic(realm, status.value) }
        const now = yield* Clock.currentTimeMillis
        if (deadline !== undefined && now >= deadline) return { ok: false, error: timeoutDiagnostic(limits) }
        if (status.kind === "yielded") {
          yield* Effect.yieldNow
          continue
        }
        // idle: the program waits on host calls. Take one outcome (or time out), then everything else ready.
        if (inflight.size === 0) {
          return { ok: false, error: diagnostic("ExecutionFailure", "The program is waiting on a promise that can never settle") }
        }
        const next =
          deadline === undefined
            ? Option.some(yield* Queue.take(deliveries))
            : yield* Queue.take(deliveries).pipe(Effect.timeoutOption(Math.max(0, deadline - now)))
        if (Option.isNone(next)) return { ok: false, error: timeoutDiagnostic(limits) }
        let ending = deliver(next.value)
        for (;;) {
          if (ending !== undefined) return ending
          const more = yield* Queue.poll(deliveries)
          if (Option.isNone(more)) break
          ending = deliver(more.value)
        }
      }
    })

    /** Interrupts every call still in flight, waiting at most until the deadline; true if they all stopped. */
    const cleanup = Effect.gen(function* () {
      const fibers = [...inflight.values()]
      inflight.clear()
      if (fibers.length === 0) return true
      if (deadline === undefined) {
        yield* Fiber.interruptAll(fibers)
        return true
      }
      const now = yield* Clock.currentTimeMillis
      const done = yield* Fiber.interruptAll(fibers).pipe(Effect.timeoutOption(Math.max(0, deadline - now)))
      return Option.isSome(done)
    })

    const ending = yield* loop.pipe(Effect.onInterrupt(() => cleanup))
    const stoppedInTime = yield* cleanup
    if (ending.ok === "interrupted") return yield* Effect.interrupt
    return finish(ctx, ending, stoppedInTime)
  })

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
