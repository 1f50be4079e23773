/**
 * The run loop's events (run.ts): calls' outcomes and wake-ups, sent from any fiber and taken in order by the
 * loop, which waits when there is none. It stands in for `effect/Queue`, which with the MutableList it brings was
 * the one `effect` module the library loaded that `effect/Effect` does not (load + first run of the package entry:
 * 472.3M -> 468.0M instructions under callgrind), and it wakes its taker as that queue does.
 */
import * as Effect from "effect/Effect"
import type * as Fiber from "effect/Fiber"

interface Waiter {
  readonly wake: () => void
  readonly dispatcher: Fiber.Fiber<unknown, unknown>["currentDispatcher"]
}

export class Mailbox<A> {
  private readonly items: A[] = []
  private waiters: Waiter[] = []
  private wakeScheduled = false

  /**
   * Adds an event. Waiters are woken in a later task of their scheduler, not at once: the fibers running now (the
   * call that sent an outcome, a checkpoint asked for as it returns) go on first, and what they send meanwhile is
   * taken with this event.
   */
  offer(item: A): void {
    this.items.push(item)
    if (this.wakeScheduled || this.waiters.length === 0) return
    this.wakeScheduled = true
    this.waiters[0]!.dispatcher.scheduleTask(() => {
      this.wakeScheduled = false
      const waiters = this.waiters
      this.waiters = []
      for (const w of waiters) w.wake()
    }, 0)
  }

  /** The oldest event, if any, without waiting. */
  poll(): A | undefined {
    return this.items.shift()
  }

  /**
   * The oldest event, waiting for one. A waiter is only woken: the event stays here until taken, so a take
   * interrupted as it is woken (by the loop's deadline) loses nothing.
   */
  readonly take: Effect.Effect<A> = Effect.suspend(() =>
    this.items.length > 0 ? Effect.succeed(this.items.shift()!) : Effect.andThen(this.wait, this.take),
  )

  private readonly wait = Effect.withFiber((fiber) =>
    Effect.callback<void>((resume) => {
      if (this.items.length > 0) return resume(Effect.void)
      const waiter: Waiter = { wake: () => resume(Effect.void), dispatcher: fiber.currentDispatcher }
      this.waiters.push(waiter)
      return Effect.sync(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter)
      })
    }),
  )
}
