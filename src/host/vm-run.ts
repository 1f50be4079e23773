/**
 * A VM program's part of the run loop (run.ts): what suspending needs.
 *
 * - Suspend requests from `program.suspend`, handled between two slices at a point where no native frame is on
 *   the VM stack (a native frame drives a built-in's Task, a host generator that cannot be saved): while a request
 *   waits for such a point the loop runs small slices that stop between jobs. Then, in this order and before
 *   anything changes: the blocking calls are checked, the state is saved, its size is checked against `maxBytes`;
 *   only then are idempotent and durable calls detached and interrupted, and the loop ends with `Suspended`.
 * - The calls' states (calls.ts) and the inbox are part of the saved state; a resumed run starts the calls its
 *   state holds (the loop does: queued ones from the start, started durable ones at `wait`).
 * - Round-trip mode (CODEMODE_ROUNDTRIP=1): at every new host call and every few steps, the session is saved to
 *   bytes and restored into a fresh realm, and the run continues there, its calls' fibers living on.
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import { SnapshotError } from "../snapshot/errors.ts"
import { toBytes, type Snapshot } from "../snapshot/format.ts"
import { liveNativeFrame } from "../vm/state.ts"
import { blockingCalls } from "./calls.ts"
import { diagnostic, type SourceLocation } from "./diagnostic.ts"
import type { Result } from "./result.ts"
import { runLoop, type LoopEngine } from "./run.ts"
import { describeHostError, type Ending } from "./run-ending.ts"
import type { LoopEvent } from "./run-state.ts"
import { SuspendError } from "./suspend-error.ts"
import { captureSession, restoreSession, type Session, type VmContext } from "./vm-session.ts"
import type { Mailbox } from "./mailbox.ts"

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

/**
 * Non-spec options of `program.checkpoint`.
 *
 * @since 0.1.0
 * @category models
 */
export interface CheckpointOptions {
  /**
   * Taken at the next save point, before any outcome that arrives after this request: the state with the calls
   * in flight now still in flight (a host keeps it at a call boundary, to answer the call otherwise later). By
   * default a checkpoint waits until outcomes the idle program was given have run.
   */
  readonly now?: boolean
}

export interface SuspendRequest {
  readonly options: SuspendOptions | undefined
  /** A checkpoint (`program.checkpoint`): the state is saved as a suspend would save it, and the run goes on. */
  readonly checkpoint: boolean
  /** A checkpoint asked for `now` (CheckpointOptions). */
  readonly now: boolean
  readonly reply: Deferred.Deferred<Outcome, SuspendError>
}

/** What a host watching a run learns as it happens (non-spec, for services that stream a run's progress). */
export interface RunObserver {
  /**
   * Every line the program logs, as soon as the slice that logged it ends (they are also in the Result), with its
   * index among all the lines of the run (from 0; a resumed run goes on counting): a host that writes them
   * somewhere can recognise a line it was given before a crash when a run continues from an earlier state.
   */
  readonly onLog?: (line: string, index: number) => void
  /**
   * Every host call the run admits, just before it starts (before the tool sees it): its key, its path
   * (`tools.orders.lookup`) and where the program made it, so a host can show the call at its line.
   */
  readonly onCall?: (call: AdmittedCall) => void
}

/**
 * A host call as `RunObserver.onCall` reports it (non-spec).
 *
 * @since 0.1.0
 * @category models
 */
export interface AdmittedCall {
  readonly key: string
  readonly path: string
  readonly location: SourceLocation | undefined
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

export const runSession = (
  ctx: VmContext,
  s: Session,
  events: Mailbox<LoopEvent>,
  requests: Array<SuspendRequest>,
  observer: RunObserver | undefined,
): Effect.Effect<Outcome, never, unknown> =>
  // Not an Effect.gen: a generator function made per run keeps the run's heap alive until a full GC (run.ts `Loop`).
  Clock.clockWith((clock) => Effect.suspend(() => {
    const now = () => clock.currentTimeMillisUnsafe()
    const startedAt = now()
    const activeMs = (): number => s.activeMs + (now() - startedAt)
    let sliceStart = 0
    let slicesSinceTrip = 0
    let tripGap = 1
    let tripMs = 0
    let sliceMs = 0

    /** Round-trip mode: the run continues in a realm restored from its own saved bytes. */
    const roundtrip = (): void => {
      const saved = captureSession(ctx, s, activeMs(), false)
      const { session: next } = restoreSession(ctx, toBytes(saved), now, true, s.extensions)
      for (const [id, entry] of s.calls) entry.request = next.calls.get(id)!.request
      s.realm = next.realm
      s.vm = next.vm
      s.ledger = next.ledger
    }

    /** After a slice, in round-trip mode: at a new host call, or every few slices while it costs less than running. */
    const afterSlice = (): Ending | undefined => {
      if (liveNativeFrame(s.vm)) return undefined
      const t = performance.now()
      sliceMs += t - sliceStart
      if (s.realm.hostCalls.length === 0 && (++slicesSinceTrip < tripGap || tripMs > sliceMs)) return undefined
      try {
        roundtrip()
      } catch (e) {
        return { ok: false, error: diagnostic("ExecutionFailure", `Round trip failed: ${e instanceof Error ? e.message : String(e)}`) }
      }
      tripMs += performance.now() - t
      slicesSinceTrip = 0
      tripGap = Math.min(tripGap * 2, ROUNDTRIP_MAX_GAP)
      return undefined
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

    const engine: LoopEngine<Suspended> = {
      slice: (saving) => {
        if (ctx.roundtrip) sliceStart = performance.now()
        return s.vm.run(saving ? SUSPEND_SLICE_STEPS : ctx.roundtrip ? ROUNDTRIP_SLICE_STEPS : ctx.sliceSteps, saving || ctx.roundtrip)
      },
      afterSlice: ctx.roundtrip ? afterSlice : undefined,
      // A round trip gives the session a new realm and Vm: read them when asked.
      heap: {
        quiescent: () => !liveNativeFrame(s.vm),
        roots: () => [s.realm, s.vm],
        baseline: ctx.memoryBaseline,
        yieldSoon: () => s.vm.yieldSoon(),
      },
      suspension: {
        requested: () => requests.length > 0,
        urgent: () => requests.some((r) => !r.checkpoint || r.now),
        first: () => requests.some((r) => r.now),
        attempt: Effect.suspend(() => (liveNativeFrame(s.vm) ? Effect.succeed(undefined) : trySuspend(requests.splice(0)))),
      },
      onLog: observer?.onLog,
      onCall: observer?.onCall,
    }
    return runLoop(ctx, s, engine, events)
  }))
