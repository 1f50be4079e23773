/**
 * The run loop, one for both engines: drives an engine slice by slice inside an Effect fiber. Between slices it
 * hands new host calls to fibers (calls.ts), keeps their outcomes in the run's inbox and delivers them when the
 * engine is idle, and enforces the time limit — the engine itself never reads a clock or touches I/O
 * (ARCHITECTURE principle 4). The loop ends when the program's promise settles, when the engine throws, or when
 * the engine's `suspension` (the VM's, vm-run.ts) stops the run at a save point. Calls still in flight are then
 * interrupted ("unfinished work is interrupted").
 *
 * Cleanup is bounded by the time limit: when the program returned a value but interrupting its background calls
 * does not finish before the deadline, the result stays successful with a `TimeoutExceeded` warning, and the calls
 * are left to stop in the background. Call fibers are detached for that reason (a child fiber would hold the run's
 * result until it stopped); the loop interrupts them itself on every way out, interruption of the run included.
 * A call that interrupts itself interrupts the run: interruption propagates without becoming a diagnostic.
 * `timeoutMs` counts active time across every resume: the deadline is what the saved runs left of it.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import { Termination } from "../runtime/completion.ts"
import { runMetered } from "../runtime/memory.ts"
import { runPolled } from "../runtime/interrupt.ts"
import type { EngineStatus } from "../runtime/engine.ts"
import type { PromiseObject } from "../runtime/promise.ts"
import { startCall, type CallHost } from "./calls.ts"
import { diagnostic, type Diagnostic, type SourceLocation } from "./diagnostic.ts"
import type { Result } from "./result.ts"
import { describeHostError, finish, terminationDiagnostic, timeoutDiagnostic, uncaughtDiagnostic, type Ending } from "./run-ending.ts"
import { newEntry, type LoopEvent, type RunState } from "./run-state.ts"
import { settleCall } from "./sandbox-extensions.ts"
import type { Mailbox } from "./mailbox.ts"

/** Steps per slice: small enough to notice a timeout or an interruption within a millisecond or so. */
export const SLICE_STEPS = 20_000

export type { EngineStatus }

/** How a run stops early to be resumed later (the VM's suspend), checked between two slices. */
export interface Suspension<S> {
  /** A suspend is waiting: the engine should reach a save point soon, and an idle run must not wait for a call. */
  readonly requested: () => boolean
  /**
   * A suspend is waiting, or a checkpoint asked for `now`. Other checkpoints wait until outcomes the idle program
   * was given have run: the program often ends, or reaches its next call, in that slice, and a state taken before
   * it would be saved for nothing (the service asks for one as each call's outcome is recorded).
   */
  readonly urgent: () => boolean
  /** A checkpoint asked for `now` is waiting: outcomes that arrived after it are left out of it. */
  readonly first: () => boolean
  /** Between two slices while `requested`: the run stops with `S`, or goes on (refused, or no save point yet). */
  readonly attempt: Effect.Effect<S | undefined>
}

/** What the loop needs of an engine. */
export interface LoopEngine<S> {
  /**
   * Runs one bounded slice. `saving`: a suspend waits for a save point. `interrupt` throws a Termination once the
   * time limit has passed (undefined without one): an engine that may not return within a slice (the tree-walker
   * runs ordinary code on the host stack) calls it every so many steps.
   */
  readonly slice: (saving: boolean, interrupt: (() => void) | undefined) => EngineStatus
  /** After a slice that yielded or went idle, before new calls start (round-trip mode); an Ending stops the run. */
  readonly afterSlice?: ((status: EngineStatus) => Ending | undefined) | undefined
  readonly suspension?: Suspension<S> | undefined
  /** What the memory meter (runtime/memory.ts) needs of the engine to measure the run's live heap. */
  readonly heap?: HeapAccess | undefined
  /** Every line the program logs, once, after the slice that logged it, with its index among the run's lines. */
  readonly onLog?: ((line: string, index: number) => void) | undefined
  /** Every new host call, before it starts. */
  readonly onCall?: ((call: { readonly key: string; readonly path: string; readonly location: SourceLocation | undefined }) => void) | undefined
}

export interface HeapAccess {
  /** True where no host function holds run values: everything the run holds is reachable from the roots. */
  readonly quiescent: () => boolean
  /** Where the run's values are reachable from, the realm included. */
  readonly roots: () => ReadonlyArray<unknown>
  /** The size of a fresh realm of this runtime: what the meter does not count. */
  readonly baseline: () => number
  /** Ends the current slice soon, so that the loop can measure. */
  readonly yieldSoon: () => void
}

type LoopEnd<S> = { readonly _tag: "ended"; readonly ending: Ending } | { readonly _tag: "stopped"; readonly stopped: S }

const ended = (error: string | Diagnostic): { readonly _tag: "ended"; readonly ending: Ending } => ({
  _tag: "ended",
  ending: { ok: false, error: typeof error === "string" ? diagnostic("ExecutionFailure", error) : error },
})

/**
 * The loop of one run. A class whose generator methods exist once: a generator function made per run (an
 * `Effect.gen(function* ...)` inside a closure) gets a prototype object and hidden class of its own, which V8 keeps
 * in old space, and through them the closure kept the run's whole heap alive through every young-generation GC
 * until a full one (a `1 + 1` run spent a third of its CPU in scavenges promoting ~20 MB each).
 */
class Loop<S> {
  private readonly host: CallHost
  private readonly run: RunState
  private readonly engine: LoopEngine<S>
  private readonly events: Mailbox<LoopEvent>
  private readonly clock: Clock.Clock
  private deadline: number | undefined = undefined
  // Lines logged before this incarnation of the run were reported by the one that logged them.
  private logsSeen: number
  /**
   * The engine went idle and outcomes arrived that it has not run yet (delivered, or in the inbox to be delivered
   * at once): a checkpoint waits for them. A busy engine's outcomes wait for it to go idle, and a checkpoint does not.
   */
  private unrun = false
  private idle = false

  constructor(host: CallHost, run: RunState, engine: LoopEngine<S>, events: Mailbox<LoopEvent>, clock: Clock.Clock) {
    this.clock = clock
    this.host = host
    this.run = run
    this.engine = engine
    this.events = events
    this.logsSeen = run.realm.logs.length
  }

  /**
   * A method over the clock, not a closure: `this.now = () => ...` in `main` made each run's closure in old space
   * (docs/internals.md, "A run's garbage dies young"), which held `main`'s context, and so the run, through every
   * scavenge until a full GC.
   */
  private now(): number {
    return this.clock.currentTimeMillisUnsafe()
  }

  private readonly interrupt = (): void => {
    if (this.deadline !== undefined && this.now() >= this.deadline) throw new Termination({ kind: "TimeoutExceeded" })
  }

  private reportLogs(): void {
    const onLog = this.engine.onLog
    if (onLog === undefined) return
    const logs = this.run.realm.logs
    while (this.logsSeen < logs.length) {
      try {
        onLog(logs[this.logsSeen]!, this.logsSeen++)
      } catch {
        // An observer that fails must not end the run it watches; the line is still in the Result.
      }
    }
  }

  /**
   * Moves every outcome that arrived into the inbox (a settled call no longer blocks a suspend), in order: at the
   * wake-up of a checkpoint asked for `now` it stops, and the loop takes that checkpoint before the outcomes
   * that arrived after it.
   */
  private absorb(event: LoopEvent | undefined): void {
    for (let e = event; e !== undefined; e = this.events.poll()) {
      if (e._tag !== "outcome") {
        if (this.engine.suspension?.first()) return
        continue
      }
      const entry = this.run.calls.get(e.callId)
      if (entry === undefined || entry.state === "settled" || entry.detached) continue
      entry.state = "settled"
      entry.fiber = undefined
      this.run.inbox.push({ callId: e.callId, outcome: e.outcome })
    }
  }

  private checkpointWaits(): boolean {
    return this.unrun || (this.idle && this.run.inbox.length > 0)
  }

  /** Settles the promises of every outcome in the inbox. */
  private deliverInbox(): Ending | undefined {
    const run = this.run
    this.unrun ||= run.inbox.length > 0
    for (const { callId, outcome } of run.inbox.splice(0)) {
      const entry = run.calls.get(callId)
      run.calls.delete(callId)
      if (entry === undefined) continue
      if (outcome.ok === "interrupted") return { ok: "interrupted" }
      settleCall(run.realm, run.extensions, entry.request.capability.promise as PromiseObject, outcome, run.ledger.locations.get(callId))
    }
    return undefined
  }

  /** Hands every new host call to its own fiber: tool-call concurrency is unrestricted. */
  private *dispatchNew(): Generator<Effect.Effect<void, never, unknown>, void> {
    const run = this.run
    while (run.realm.hostCalls.length > 0) {
      const entry = newEntry(run.realm.hostCalls.shift()!, run.runId, "queued")
      run.calls.set(entry.callId, entry)
      if (this.engine.onCall !== undefined) {
        try {
          this.engine.onCall({ key: entry.key, path: entry.request.path, location: run.ledger.locations.get(entry.callId) })
        } catch {
          // As with onLog: an observer that fails must not end the run it watches.
        }
      }
      yield* startCall(this.host, entry, this.events, run.extensions.take(entry.callId))
    }
  }

  *loop(): Generator<Effect.Effect<unknown, never, unknown>, LoopEnd<S>> {
    const { run, engine, events } = this
    const { suspension } = engine
    const limits = run.limits
    const deadline = this.deadline
    // A resumed run: queued calls start from the beginning, started durable calls reconnect through `wait`.
    for (const entry of run.calls.values()) {
      if (entry.state === "queued" || entry.state === "started") yield* startCall(this.host, entry, events)
    }
    for (;;) {
      if (suspension?.requested() && (suspension.urgent() || !this.checkpointWaits())) {
        const stopped = yield* suspension.attempt
        if (stopped !== undefined) return { _tag: "stopped", stopped }
      }
      let status: EngineStatus
      // Set before every slice: a round trip gives the run a new realm.
      run.realm.host.interrupt = this.interrupt
      const meter = run.realm.memory
      const heap = engine.heap
      if (meter !== undefined && heap !== undefined) meter.onPressure = heap.yieldSoon
      try {
        status = runMetered(meter, () => runPolled(run.realm, () => engine.slice(suspension?.requested() ?? false, deadline === undefined ? undefined : this.interrupt)))
        this.unrun = false
        this.idle = status.kind === "idle"
        if (meter?.pressure && heap !== undefined && heap.quiescent()) {
          meter.measure(heap.roots(), heap.baseline())
          meter.charge(0)
        }
      } catch (e) {
        if (e instanceof Termination) return ended(e.reason.kind === "TimeoutExceeded" ? timeoutDiagnostic(limits) : terminationDiagnostic(e))
        return ended(`Internal error: ${describeHostError(e)}`)
      }
      this.reportLogs()
      if (engine.afterSlice !== undefined && (status.kind === "yielded" || status.kind === "idle")) {
        const ending = engine.afterSlice(status)
        if (ending !== undefined) return { _tag: "ended", ending }
      }
      yield* this.dispatchNew()
      if (status.kind === "completed") return { _tag: "ended", ending: { ok: true, value: status.value } }
      if (status.kind === "threw") return ended(uncaughtDiagnostic(run.realm, status.value))
      const t = this.now()
      if (deadline !== undefined && t >= deadline) return ended(timeoutDiagnostic(limits))
      this.absorb(events.poll())
      if (status.kind === "yielded") {
        yield* Effect.yieldNow
        continue
      }
      // idle: deliver what arrived, or wait for the next outcome (or a suspend request, or the deadline).
      if (run.inbox.length > 0) {
        const ending = this.deliverInbox()
        if (ending !== undefined) return { _tag: "ended", ending }
        continue
      }
      if (suspension?.requested()) continue
      if (run.calls.size === 0) return ended("The program is waiting on a promise that can never settle")
      const next: Option.Option<LoopEvent> =
        deadline === undefined
          ? Option.some(yield* events.take)
          : yield* events.take.pipe(Effect.timeoutOption(Math.max(0, deadline - t)))
      if (Option.isNone(next)) return ended(timeoutDiagnostic(limits))
      this.absorb(next.value)
    }
  }

  /** Interrupts every call still in flight (durable ones are cancelled), waiting at most until the deadline. */
  *cleanup(): Generator<Effect.Effect<unknown>, boolean> {
    const fibers: Array<Fiber.Fiber<void>> = []
    for (const entry of this.run.calls.values()) if (entry.fiber !== undefined && !entry.detached) fibers.push(entry.fiber)
    this.run.calls.clear()
    if (fibers.length === 0) return true
    if (this.deadline === undefined) {
      yield* Fiber.interruptAll(fibers)
      return true
    }
    const done = yield* Fiber.interruptAll(fibers).pipe(Effect.timeoutOption(Math.max(0, this.deadline - this.now())))
    return Option.isSome(done)
  }

  *main(): Generator<Effect.Effect<unknown, never, unknown>, Result | S> {
    const run = this.run
    run.extensions.services = (yield* Effect.context<never>()) as Context.Context<unknown>
    const startedAt = this.now()
    const limits = run.limits
    this.deadline = limits.timeoutMs === undefined ? undefined : startedAt + Math.max(0, limits.timeoutMs - run.activeMs)
    const cleanup = Effect.gen({ self: this }, Loop.prototype.cleanup) as Effect.Effect<boolean>
    const end = yield* (Effect.gen({ self: this }, Loop.prototype.loop) as Effect.Effect<LoopEnd<S>, never, unknown>).pipe(Effect.onInterrupt(() => cleanup))
    if (end._tag === "stopped") return end.stopped
    const stoppedInTime = yield* cleanup
    if (end.ending.ok === "interrupted") return yield* Effect.interrupt
    return finish({ realm: run.realm, limits, ledger: run.ledger }, end.ending, stoppedInTime)
  }
}

export const runLoop = <S = never>(
  host: CallHost,
  run: RunState,
  engine: LoopEngine<S>,
  events: Mailbox<LoopEvent>,
): Effect.Effect<Result | S, never, unknown> =>
  Clock.clockWith(
    (clock) => Effect.gen({ self: new Loop(host, run, engine, events, clock) }, Loop.prototype.main) as Effect.Effect<Result | S, never, unknown>,
  )
