/**
 * `CodeMode.VmRuntime` and `CodeMode.Program` (spec "Bytecode VM and suspending/resuming a run"). A runtime made
 * with `engine: "vm"` can make a program from code (`program`) or from a saved state (`resume`); nothing runs until
 * `run()`, which runs in the caller's fiber until the run ends or is suspended.
 *
 * The rules of a program, each one a branch below:
 * - it runs once: a second `run()` is a defect;
 * - `run()` owns the run's host calls: interrupting it interrupts every call in progress (cancelling started
 *   durable work);
 * - `suspend()` before `run()` has started waits for it to start (for ever if it never does); during the run it is
 *   handled by the loop at its next boundary (vm-run.ts); after the run ended it gives the run's outcome. A run
 *   that ended without one (interrupted, or a state that could not be resumed) leaves a waiting suspend
 *   interrupted;
 * - `run()` of a resumed program fails with `SnapshotError` when its state is malformed, from another build, or
 *   needs extensions this runtime lacks.
 */
import * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { checkCached } from "./program-cache.ts"
import { SnapshotError } from "../snapshot/errors.ts"
import type { Snapshot } from "../snapshot/format.ts"
import { checkForkOutcomes, forkSavedRun, type ForkOptions } from "./fork.ts"
import { validateLimits } from "./limits.ts"
import { checkBindings, type Bindings } from "./bindings.ts"
import { checkSeed } from "./random-seed.ts"
import { diagnostic } from "./diagnostic.ts"
import { fail, type Result } from "./result.ts"
import type { SuspendError } from "./suspend-error.ts"
import type { LoopEvent } from "./run-state.ts"
import { type CheckpointOptions, runSession, type Outcome, type RunObserver, type SuspendOptions, type SuspendRequest } from "./vm-run.ts"
import { newSession, restoreSession, type Session, type VmContext } from "./vm-session.ts"
import { Mailbox } from "./mailbox.ts"

/**
 * A program of a VM runtime; `R` is what its tools and hooks require.
 *
 * @since 0.1.0
 * @category models
 */
export interface Program<R = never> {
  /** Runs the program (once) until it ends or is suspended. */
  readonly run: () => Effect.Effect<Outcome, SnapshotError, R>
  /** Saves the run's state and stops it at once; `run()` returns the same Suspended. */
  readonly suspend: (options?: SuspendOptions) => Effect.Effect<Outcome, SuspendError>
  /**
   * Non-spec: the state a suspend would save now (refused for the same reasons), while the run goes on — a
   * checkpoint a host keeps to resume the run elsewhere if this process dies. After the run ended, its outcome.
   */
  readonly checkpoint: (options?: CheckpointOptions) => Effect.Effect<Outcome, SuspendError>
}

const emptyParts = { logs: [], warnings: [], toolCalls: [], truncated: false }

/** How a program gets its session when it runs: a new one, a Result at once (the code does not parse), or a restored one. */
type Opener = (now: () => number) => Session | Result

class ProgramImpl implements Program<unknown> {
  private state: "new" | "running" | "ended" = "new"
  private readonly started = Deferred.makeUnsafe<void>()
  private outcome: Outcome | undefined = undefined
  private readonly requests: Array<SuspendRequest> = []
  private readonly events = new Mailbox<LoopEvent>()
  private readonly ctx: VmContext
  private readonly open: Opener
  private readonly observer: RunObserver | undefined

  constructor(ctx: VmContext, open: Opener, observer: RunObserver | undefined) {
    this.ctx = ctx
    this.open = open
    this.observer = observer
  }

  readonly run = (): Effect.Effect<Outcome, SnapshotError, unknown> =>
    Effect.suspend(() => {
      if (this.state !== "new") {
        return Effect.die(new Error("This CodeMode program has already run; make another with runtime.program or runtime.resume"))
      }
      this.state = "running"
      Deferred.doneUnsafe(this.started, Exit.void)
      return Clock.clockWith((clock) =>
        Effect.suspend(() => {
          let opened: Session | Result
          try {
            opened = this.open(() => clock.currentTimeMillisUnsafe())
          } catch (e) {
            if (e instanceof SnapshotError) return Effect.fail(e)
            // A compiler bug must end this run with a diagnostic, never escape as a defect of the caller's fiber.
            return Effect.succeed(fail(diagnostic("ExecutionFailure", `Internal error while compiling: ${e instanceof Error ? e.message : String(e)}`), emptyParts))
          }
          return "ok" in opened ? Effect.succeed<Outcome>(opened) : runSession(this.ctx, opened, this.events, this.requests, this.observer)
        }),
      ).pipe(Effect.onExit((exit) => Effect.sync(() => this.ended(exit))))
    })

  /** The run is over: every suspend still waiting gets its outcome (or is interrupted when there is none). */
  private ended(exit: Exit.Exit<Outcome, unknown>): void {
    this.state = "ended"
    if (Exit.isSuccess(exit)) this.outcome = exit.value
    for (const r of this.requests.splice(0)) Deferred.doneUnsafe(r.reply, this.outcome === undefined ? Exit.interrupt() : Exit.succeed(this.outcome))
  }

  readonly suspend = (options?: SuspendOptions): Effect.Effect<Outcome, SuspendError> => this.request(options, false, false)

  readonly checkpoint = (options?: CheckpointOptions): Effect.Effect<Outcome, SuspendError> => this.request(undefined, true, options?.now === true)

  private request(options: SuspendOptions | undefined, checkpoint: boolean, now: boolean): Effect.Effect<Outcome, SuspendError> {
    return Deferred.await(this.started).pipe(
      Effect.flatMap(() =>
        Effect.suspend(() => {
          if (this.state === "ended") return this.outcome === undefined ? Effect.interrupt : Effect.succeed(this.outcome)
          const reply = Deferred.makeUnsafe<Outcome, SuspendError>()
          this.requests.push({ options, checkpoint, now, reply })
          this.events.offer({ _tag: "wake" })
          return Deferred.await(reply)
        }),
      ),
    )
  }
}

/**
 * The VM runtime's own entry points.
 *
 * @since 0.1.0
 * @category models
 */
export interface VmEntryPoints<R = never> {
  /**
   * A program of `code`, with `bindings` as globals; keys are `<runId>:<callId>` (a UUID when `runId` is omitted).
   * `onLog` (non-spec) observes the run as it goes (`RunObserver`).
   */
  readonly program: (code: string, bindings?: Bindings, options?: { readonly runId?: string; readonly seed?: string } & RunObserver) => Program<R>
  /** A program continuing a saved state (a Snapshot, or its bytes); checked when it runs. */
  readonly resume: (state: Uint8Array | import("../snapshot/format.ts").Snapshot, options?: RunObserver) => Program<R>
  /**
   * A program continuing a saved state as a new run (`runId`, a UUID when omitted), whose calls in flight in that
   * state named in `outcomes` (by their key there) end as given; the others are made again under the new run's keys.
   * Outcomes are checked at once (TypeError); the state when it runs, as for `resume`.
   */
  readonly fork: (state: Uint8Array | import("../snapshot/format.ts").Snapshot, options?: ForkOptions & RunObserver) => Program<R>
}

export const makeVmEntryPoints = (ctx: VmContext): VmEntryPoints<unknown> => ({
  program: (code, bindings, options) => {
    const values = checkBindings(bindings)
    const runId = options?.runId ?? crypto.randomUUID()
    if (typeof runId !== "string" || runId === "") throw new TypeError("runId must be a non-empty string")
    const seed = checkSeed(options?.seed) ?? ctx.seed
    return new ProgramImpl(ctx, (now) => {
      const checked = checkCached(code)
      if (!checked.ok) {
        const d = checked.diagnostic
        return fail(diagnostic(d.kind, d.message, d.location ? { location: d.location } : undefined), emptyParts)
      }
      return newSession(ctx, checked.program, runId, values, now, seed)
    }, options)
  },
  resume: (state, options) => new ProgramImpl(ctx, (now) => restore(ctx, state, now, undefined), options),
  fork: (state, options) => {
    const runId = options?.runId ?? crypto.randomUUID()
    if (typeof runId !== "string" || runId === "") throw new TypeError("runId must be a non-empty string")
    const outcomes = checkForkOutcomes(options?.outcomes)
    const limits = validateLimits(options?.limits)
    return new ProgramImpl(ctx, (now) => restore(ctx, state, now, (saved) => forkSavedRun(saved, runId, outcomes, limits)), options)
  },
})

const restore = (ctx: VmContext, state: Uint8Array | Snapshot, now: () => number, fork: Parameters<typeof restoreSession>[5]): Session => {
  try {
    return restoreSession(ctx, state, now, false, undefined, fork).session
  } catch (e) {
    // Whatever the input, a state that cannot be restored is a SnapshotError, never a defect.
    if (e instanceof SnapshotError) throw e
    throw new SnapshotError(`the snapshot cannot be restored: ${e instanceof Error ? e.message : String(e)}`)
  }
}
