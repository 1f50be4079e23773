/**
 * Waits for a run's end with a time limit, without a fiber per wait (issue 20). `Effect.raceFirst(saved, sleep)`
 * forked two fibers and set a timer for every POST /v1/runs that waited, though nearly every such wait ends with the
 * run. Here one fiber on the replica's Clock (TestClock in the logic tests) fires the waits whose time is up: it
 * sleeps until the earliest one, and most waits end with their run before then. Waits mostly arrive in order of
 * their deadlines (one configured wait), so the fiber rarely has to wake before the time it sleeps to.
 */
import type * as Clock from "effect/Clock"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"

const timedOut = Effect.succeed(undefined)

/**
 * One wait: a class with methods rather than an object holding closures made per wait, which V8 may pretenure (as
 * Effect's own `callback` notes) so that they keep the waiting fiber alive until a full GC.
 */
class Deadline {
  readonly at: number
  readonly deferred: Deferred.Deferred<any>
  readonly resume: (effect: Effect.Effect<any>) => void
  constructor(at: number, deferred: Deferred.Deferred<any>, resume: (effect: Effect.Effect<any>) => void) {
    this.at = at
    this.deferred = deferred
    this.resume = resume
  }
  // The waiter registered in the deferred's own list (see `within`), removed when the time is up first.
  onDone: ((effect: Effect.Effect<any>) => void) | undefined = undefined
  unwatch(): void {
    const resumes = this.deferred.resumes
    const index = resumes === undefined || this.onDone === undefined ? -1 : resumes.indexOf(this.onDone)
    if (index >= 0) resumes!.splice(index, 1)
  }
  fire(): void {
    this.unwatch()
    this.resume(timedOut)
  }
}

export interface Deadlines {
  /** The deferred's value once it is done, or undefined when `ms` pass first. */
  readonly within: <A>(deferred: Deferred.Deferred<A>, ms: number) => Effect.Effect<A | undefined>
  /** The fiber that fires the waits: forked once by the owner, it runs until interrupted. */
  readonly loop: Effect.Effect<never>
}

export const makeDeadlines = (clock: Clock.Clock): Deadlines => {
  const deadlines = new Set<Deadline>()
  // When the loop next wakes (Infinity: only when kicked), and how to wake it sooner.
  let wakeAt = Infinity
  let kick = Deferred.makeUnsafe<void>()

  const add = (deadline: Deadline) => {
    deadlines.add(deadline)
    if (deadline.at < wakeAt) {
      wakeAt = deadline.at
      Deferred.doneUnsafe(kick, Effect.void)
    }
  }

  const loop = Effect.gen(function* () {
    for (;;) {
      const now = clock.currentTimeMillisUnsafe()
      let next = Infinity
      for (const deadline of deadlines) {
        if (deadline.at <= now) {
          deadlines.delete(deadline)
          deadline.fire()
        } else if (deadline.at < next) next = deadline.at
      }
      wakeAt = next
      kick = Deferred.makeUnsafe<void>()
      yield* next === Infinity ? Deferred.await(kick) : Effect.raceFirst(clock.sleep(Duration.millis(next - now)), Deferred.await(kick))
    }
  })

  const within = <A>(deferred: Deferred.Deferred<A>, ms: number): Effect.Effect<A | undefined> =>
    Effect.callback<A | undefined>((resume) => {
      if (deferred.effect !== undefined) return resume(deferred.effect)
      const deadline = new Deadline(clock.currentTimeMillisUnsafe() + ms, deferred, resume)
      // Deferred.await's own way to hear its completion: its waiters are resumed with its effect.
      const onDone = (effect: Effect.Effect<A>) => {
        deadlines.delete(deadline)
        resume(effect)
      }
      deadline.onDone = onDone
      ;(deferred.resumes ??= []).push(onDone)
      add(deadline)
      return Effect.sync(() => {
        deadlines.delete(deadline)
        deadline.unwatch()
      })
    })

  return { within, loop }
}
