/**
 * The run loop of a VM program: run.ts's loop (slices, host calls in detached fibers, outcomes delivered when the
 * engine is idle, the time limit, bounded cleanup) plus what suspending needs:
 *
 * - Call states (vm-calls.ts), kept per call, and outcomes kept in an inbox until delivered — both part of a
 *   saved state.
 * - Suspend requests from `program.suspend`, handled between two slices at a point where no native frame is on
 *   the VM stack (a native frame drives a built-in's Task, a host generator that cannot be saved): while a request
 *   waits for such a point the loop runs small slices that stop between jobs. Then, in this order and before
 *   anything changes: the blocking calls are checked, the state is saved, its size is checked against `maxBytes`;
 *   only then are idempotent and durable calls detached and interrupted, and the loop ends with `Suspended`.
 * - A resumed run starts the calls its state holds: queued ones from the start, started durable ones at `wait`.
 * - `timeoutMs` counts active time across every resume: the deadline is what the saved runs left of it.
 * - Round-trip mode (CODEMODE_ROUNDTRIP=1): at every new host call and every few steps, the session is saved to
 *   bytes and restored into a fresh realm, and the run continues there, its calls' fibers living on.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import { Termination } from "../runtime/completion.ts"
import type { PromiseObject } from "../runtime/promise.ts"
import { SnapshotError } from "../snapshot/errors.ts"
import { fromBytes, toBytes, type Snapshot } from "../snapshot/format.ts"
import { liveNativeFrame } from "../vm/state.ts"
import { diagnostic } from "./diagnostic.ts"
import { settleCall } from "./sandbox-extensions.ts"
import type { Result } from "./result.ts"
import {
  describeHostError,
  finish,
  terminationDiagnostic,
  timeoutDiagnostic,
  uncaughtDiagnostic,
  type Ending,
  type EngineStatus,
} from "./run.ts"
import { SuspendError } from "./suspend-error.ts"
import { blockingCalls, startCall, type LoopEvent } from "./vm-calls.ts"
import { captureSession, newEntry, restoreSession, type Session, type VmContext } from "./vm-session.ts"

/**
 * A suspended run: what `run()` and `suspend()` return when the run stopped to be resumed later.
 *
 * @since 0.1.0
 * @category models
 */
export interface Suspended {
  readonly ok: "suspended"
  /** JSON; `CodeMode.toBytes` / `CodeMode.fromBytes` convert it. */
  readonly state: Snapshot
}

/**
 * How `program.run()` ends: the run's Result, or Suspended.
 *
 * @since 0.1.0
 * @category models
 */
export type Outcome = Result | Suspended

/**
 * Options of `program.suspend`.
 *
 * @since 0.1.0
 * @category models
 */
export interface SuspendOptions {
  /** Refuse (SuspendError "TooLarge") a state whose binary form is larger than this many bytes. */
  readonly maxBytes?: number
}

export interface SuspendRequest {
  readonly options: SuspendOptions | undefined
  /** A checkpoint (`program.checkpoint`): the state is saved as a suspend would save it, and the run goes on. */
  readonly checkpoint: boolean
  readonly reply: Deferred.Deferred<Outcome, SuspendError>
}

/** What a host watching a run learns as it happens (non-spec, for services that stream a run's progress). */
export interface RunObserver {
  /** Every line the program logs, as soon as the slice that logged it ends (they are also in the Result). */
  readonly onLog?: (line: string) => void
}

/** Steps per slice while a suspend waits for a point without native frames. */
const SUSPEND_SLICE_STEPS = 64
/**
 * Round-trip mode: steps per slice, and the most slices between two round trips made for steps (the gap doubles
 * up to it). Those are also skipped while round trips have taken longer than running the program, so a program
 * with a large state still ends in bounded time; a new host call always makes one.
 */
const ROUNDTRIP_SLICE_STEPS = 32
const ROUNDTRIP_MAX_GAP = 64

type LoopEnd = { readonly _tag: "ended"; readonly ending: Ending } | { readonly _tag: "suspended"; readonly suspended: Suspended }

export const runSession = (
  ctx: VmContext,
  s: Session,
  events: Queue.Queue<LoopEvent>,
  requests: Array<SuspendRequest>,
  observer: RunObserver | undefined,
): Effect.Effect<Outcome, never, unknown> =>
  Effect.gen(function* () {
    const clock = yield* Clock.clockWith(Effect.succeed)
    s.extensions.services = (yield* Effect.context<never>()) as Context.Context<unknown>
    const now = () => clock.currentTimeMillisUnsafe()
    const startedAt = now()
    const limits = s.limits
    const deadline = limits.timeoutMs === undefined ? undefined : startedAt + Math.max(0, limits.timeoutMs - s.activeMs)
    const activeMs = (): number => s.activeMs + (now() - startedAt)
    const interrupt = (): void => {
      if (deadline !== undefined && now() >= deadline) throw new Termination({ kind: "TimeoutExceeded" })
    }
    let slicesSinceTrip = 0
    let tripGap = 1
    let tripMs = 0
    let sliceMs = 0
    // Lines logged before this incarnation of the run were reported by the one that logged them.
    let logsSeen = s.realm.logs.length
    const onLog = observer?.onLog
    const reportLogs = (): void => {
      if (onLog === undefined) return
      const logs = s.realm.logs
      while (logsSeen < logs.length) {
        try {
          onLog(logs[logsSeen++]!)
        } catch {
          // An observer that fails must not end the run it watches; the line is still in the Result.
        }
      }
    }

    /** Moves every outcome that arrived into the inbox (a settled call no longer blocks a suspend). */
    const absorb = (event: LoopEvent | undefined): void => {
      for (let e = event; e !== undefined; e = takeNow(events)) {
        if (e._tag !== "outcome") continue
        const entry = s.calls.get(e.callId)
        if (entry === undefined || entry.state === "settled" || entry.detached) continue
        entry.state = "settled"
        entry.fiber = undefined
        s.inbox.push({ callId: e.callId, outcome: e.outcome })
      }
    }

    /** Settles the promises of every outcome in the inbox. */
    const deliverInbox = (): Ending | undefined => {
      for (const { callId, outcome } of s.inbox.splice(0)) {
        const entry = s.calls.get(callId)
        s.calls.delete(callId)
        if (entry === undefined) continue
        if (outcome.ok === "interrupted") return { ok: "interrupted" }
        settleCall(s.realm, s.extensions, entry.request.capability.promise as PromiseObject, outcome, s.ledger.locations.get(callId))
      }
      return undefined
    }

    const dispatchNew = Effect.gen(function* () {
      while (s.realm.hostCalls.length > 0) {
        const entry = newEntry(s.realm.hostCalls.shift()!, s.runId, "queued")
        s.calls.set(entry.callId, entry)
        yield* startCall(ctx, entry, events, s.extensions.take(entry.callId))
      }
    })

    /** Round-trip mode: the run continues in a realm restored from its own saved bytes. */
    const roundtrip = (): void => {
      const saved = captureSession(ctx, s, activeMs(), false)
      const { session: next } = restoreSession(ctx, fromBytes(toBytes(saved)), now, true, s.extensions)
      for (const [id, entry] of s.calls) entry.request = next.calls.get(id)!.request
      s.realm = next.realm
      s.vm = next.vm
      s.ledger = next.ledger
    }

    /** The suspend itself, at a point without native frames. Undefined when refused (the run goes on). */
    const trySuspend = (taken: ReadonlyArray<SuspendRequest>) =>
      Effect.gen(function* () {
        const refuse = (r: SuspendRequest, e: SuspendError) => Deferred.doneUnsafe(r.reply, Exit.fail(e))
        const blocking = blockingCalls(s.calls.values())
        if (blocking.length > 0) {
          for (const r of taken) refuse(r, SuspendError.blocked(blocking))
          return undefined
        }
        let state: Snapshot
        try {
          state = captureSession(ctx, s, activeMs(), true)
        } catch (e) {
          const message = e instanceof SnapshotError ? e.message : `internal error: ${describeHostError(e)}`
          for (const r of taken) refuse(r, new SuspendError("Unserializable", `The run's state cannot be saved: ${message}`))
          return undefined
        }
        let size: number | undefined
        const accepted = taken.filter((r) => {
          const max = r.options?.maxBytes
          if (max === undefined) return true
          size ??= toBytes(state).length
          if (size <= max) return true
          refuse(r, new SuspendError("TooLarge", `The run's state is ${size} bytes, more than maxBytes (${max})`))
          return false
        })
        const checkpoints = accepted.filter((r) => r.checkpoint)
        for (const r of checkpoints) Deferred.doneUnsafe(r.reply, Exit.succeed({ ok: "suspended", state }))
        if (checkpoints.length === accepted.length) return undefined
        // Committed: detach what may outlive the run and interrupt it, without `tool.after` and without `cancel`.
        const fibers: Array<Fiber.Fiber<void>> = []
        for (const entry of s.calls.values()) {
          if (entry.fiber === undefined) continue
          entry.detached = true
          fibers.push(entry.fiber)
        }
        yield* Fiber.interruptAll(fibers)
        const suspended: Suspended = { ok: "suspended", state }
        for (const r of accepted) if (!r.checkpoint) Deferred.doneUnsafe(r.reply, Exit.succeed(suspended))
        return suspended
      })

    const loop: Effect.Effect<LoopEnd, never, unknown> = Effect.gen(function* () {
      // A resumed run: queued calls start from the beginning, started durable calls reconnect through `wait`.
      for (const entry of s.calls.values()) {
        if (entry.state === "queued" || entry.state === "started") yield* startCall(ctx, entry, events)
      }
      for (;;) {
        if (requests.length > 0 && !liveNativeFrame(s.vm)) {
          const suspended = yield* trySuspend(requests.splice(0))
          if (suspended !== undefined) return { _tag: "suspended", suspended }
        }
        const suspending = requests.length > 0
        const sliceStart = ctx.roundtrip ? performance.now() : 0
        let status: EngineStatus
        // Set before every slice: a round trip gives the session a new realm.
        s.realm.host.interrupt = interrupt
        try {
          status = s.vm.run(suspending ? SUSPEND_SLICE_STEPS : ctx.roundtrip ? ROUNDTRIP_SLICE_STEPS : ctx.sliceSteps, suspending || ctx.roundtrip)
        } catch (e) {
          if (e instanceof Termination) return end(e.reason.kind === "TimeoutExceeded" ? timeoutDiagnostic(limits) : terminationDiagnostic(e))
          return end(`Internal error: ${describeHostError(e)}`)
        }
        reportLogs()
        if (ctx.roundtrip && (status.kind === "yielded" || status.kind === "idle") && !liveNativeFrame(s.vm)) {
          const t = performance.now()
          sliceMs += t - sliceStart
          if (s.realm.hostCalls.length > 0 || (++slicesSinceTrip >= tripGap && tripMs <= sliceMs)) {
            try {
              roundtrip()
            } catch (e) {
              return end(`Round trip failed: ${e instanceof Error ? e.message : String(e)}`)
            }
            tripMs += performance.now() - t
            slicesSinceTrip = 0
            tripGap = Math.min(tripGap * 2, ROUNDTRIP_MAX_GAP)
          }
        }
        // Hand every new host call to its own fiber: tool-call concurrency is unrestricted.
        yield* dispatchNew
        if (status.kind === "completed") return { _tag: "ended", ending: { ok: true, value: status.value } }
        if (status.kind === "threw") return end(uncaughtDiagnostic(s.realm, status.value))
        const t = now()
        if (deadline !== undefined && t >= deadline) return end(timeoutDiagnostic(limits))
        absorb(takeNow(events))
        if (status.kind === "yielded") {
          yield* Effect.yieldNow
          continue
        }
        // idle: deliver what arrived, or wait for the next outcome (or a suspend request, or the deadline).
        if (s.inbox.length > 0) {
          const ending = deliverInbox()
          if (ending !== undefined) return { _tag: "ended", ending }
          continue
        }
        if (requests.length > 0) continue
        if (s.calls.size === 0) return end("The program is waiting on a promise that can never settle")
        const next =
          deadline === undefined
            ? Option.some(yield* Queue.take(events))
            : yield* Queue.take(events).pipe(Effect.timeoutOption(Math.max(0, deadline - t)))
        if (Option.isNone(next)) return end(timeoutDiagnostic(limits))
        absorb(next.value)
      }
    })

    /** Interrupts every call still in flight (durable ones are cancelled), waiting at most until the deadline. */
    const cleanup = Effect.gen(function* () {
      const fibers: Array<Fiber.Fiber<void>> = []
      for (const entry of s.calls.values()) if (entry.fiber !== undefined && !entry.detached) fibers.push(entry.fiber)
      s.calls.clear()
      if (fibers.length === 0) return true
      if (deadline === undefined) {
        yield* Fiber.interruptAll(fibers)
        return true
      }
      const done = yield* Fiber.interruptAll(fibers).pipe(Effect.timeoutOption(Math.max(0, deadline - now())))
      return Option.isSome(done)
    })

    const result = yield* loop.pipe(Effect.onInterrupt(() => cleanup))
    if (result._tag === "suspended") return result.suspended
    const stoppedInTime = yield* cleanup
    if (result.ending.ok === "interrupted") return yield* Effect.interrupt
    return finish({ realm: s.realm, limits, ledger: s.ledger }, result.ending, stoppedInTime)
  })

const end = (error: string | ReturnType<typeof diagnostic>): { readonly _tag: "ended"; readonly ending: Ending } => ({
  _tag: "ended",
  ending: { ok: false, error: typeof error === "string" ? diagnostic("ExecutionFailure", error) : error },
})

const takeNow = (events: Queue.Queue<LoopEvent>): LoopEvent | undefined => {
  const exit = Queue.takeUnsafe(events)
  return exit !== undefined && Exit.isSuccess(exit) ? exit.value : undefined
}
