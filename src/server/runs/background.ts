/**
 * What `Execution` keeps doing beside a run's program: the timer that suspends a run idling on durable calls, and
 * the checkpoints saved at its call boundaries. Both fork into the execution's scope, so they end with it.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import type { Checkpoint } from "../executor.ts"
import type { RunStore } from "../store/runs.ts"
import type { Running } from "./running.ts"

/** Forks an effect into the scope of the runs executing here. */
export type Fork = <A, E>(effect: Effect.Effect<A, E>) => Effect.Effect<void>

/** Suspends a run once it has only waited on started durable calls for `idleSuspendMs` (0: never). */
export const idleSuspender =
  (idleSuspendMs: number, fork: Fork) =>
  (run: Running): Effect.Effect<void> =>
    Effect.suspend(() => {
      const generation = ++run.generation
      if (idleSuspendMs === 0 || run.busy > 0 || run.waiting.size === 0 || run.stop !== undefined) return Effect.void
      return fork(
        Effect.sleep(idleSuspendMs).pipe(
          Effect.andThen(
            Effect.suspend(() => {
              if (run.generation !== generation || run.stop !== undefined || run.finishing) return Effect.void
              run.suspending = "idle"
              run.sleepingOn = [...run.waiting]
              return run.program.suspend.pipe(
                Effect.catch((e) =>
                  Effect.sync(() => void (run.suspending = "manual")).pipe(
                    Effect.andThen(Effect.logDebug(`run ${run.id} stays in memory: ${e.message}`)),
                  ),
                ),
              )
            }),
          ),
        ),
      )
    })

/**
 * How long the state before an idempotent call waits to be written on its own: a run that ends sooner (a webhook
 * that answers at once, then the program returns) writes it with its end, in the statement of its outcome, and the
 * end no longer waits for a write of its own. Until it is written, a replica taking the run over after a crash
 * continues from the checkpoint before it, and replays the call from the journal; nobody was told of it.
 */
const HOLD_MS = 50

/**
 * Saves a checkpoint of a run: one at a time, and one more when asked again meanwhile. `now`: the state at a call
 * boundary, taken before outcomes that arrive after the request (Program.checkpoint), held up to HOLD_MS for the
 * run's end (`takeHeld`) or its next boundary; otherwise a state after the outcome just recorded.
 */
export const checkpointer =
  (store: RunStore["Service"], me: string, keep: number, fork: Fork) =>
  (run: Running, now: boolean): Effect.Effect<void> =>
    Effect.suspend(() => {
      if (run.checkpointing !== undefined) {
        run.checkpointAgain = now || run.checkpointAgain === "now" ? "now" : "later"
        // The run went on to another boundary: the state held is written now, and the next one taken, as before.
        wake(run)
        return Effect.void
      }
      const done = Deferred.makeUnsafe<void>()
      run.checkpointing = done
      const once = (now: boolean) =>
        Effect.gen(function* () {
          for (let attempt = 0; attempt < 3; attempt++) {
            // A later state: the call's outcome reaches the program once the tool's effect has returned, let it get there.
            if (attempt > 0 || !now) yield* Effect.sleep(attempt === 0 ? 0 : 20)
            const taken = yield* Effect.exit(run.program.checkpoint(now))
            if (taken._tag === "Failure") continue
            let at = taken.value
            if (at !== undefined && now && !run.finishing) {
              run.held = at
              const woken = (run.holding = Deferred.makeUnsafe<void>())
              yield* Effect.raceFirst(Deferred.await(woken), Effect.sleep(HOLD_MS))
              run.holding = undefined
              // Taken by the run's end, which writes it.
              at = run.held
              run.held = undefined
            }
            if (at !== undefined) {
              // Asked for before its call is recorded (calls.ts), with the run itself when it is new: after that.
              if (now) yield* run.record
              yield* store.checkpoint(run.id, me, at.bytes, run.seal(at.bytes), { calls: at.calls, lastKey: at.lastKey, keep })
            }
            return
          }
        })
      const loop = (now: boolean): Effect.Effect<void> =>
        once(now).pipe(
          Effect.catch((e) => Effect.logWarning(`could not save a checkpoint of run ${run.id}`, e)),
          Effect.andThen(
            Effect.suspend(() => {
              const again = run.checkpointAgain
              if (again === undefined || run.finishing) return Effect.void
              run.checkpointAgain = undefined
              return loop(again === "now")
            }),
          ),
        )
      return fork(
        loop(now).pipe(
          Effect.ensuring(
            Effect.sync(() => {
              run.checkpointing = undefined
              Deferred.doneUnsafe(done, Effect.void)
            }),
          ),
        ),
      )
    })

/**
 * Waits until the checkpoint being saved (if any) is written or given up. A run's end waits for it: its outcome,
 * once answered, promises the checkpoint taken at each call boundary before it, and the store refuses a checkpoint
 * of a run that has ended.
 */
export const checkpointed = (run: Running): Effect.Effect<void> =>
  Effect.suspend(() => (run.checkpointing === undefined ? Effect.void : Deferred.await(run.checkpointing)))

/** Ends the wait of a state held (HOLD_MS), if one is. */
const wake = (run: Running): void => {
  if (run.holding !== undefined) Deferred.doneUnsafe(run.holding, Exit.void)
}

/**
 * The state the checkpointer holds, for the run's end (the program has returned), which then writes it; the
 * checkpointer writes none of it. A state taken after this is written before the end (`checkpointed`).
 */
export const takeHeld = (run: Running): Checkpoint | undefined => {
  const held = run.held
  run.held = undefined
  wake(run)
  return held
}

