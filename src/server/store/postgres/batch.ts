/**
 * Statements batched: what is asked for while a statement is in flight (short runs to store, tenants' tools to
 * read) goes to the database together, in one statement, as soon as it is done: one round trip, and for writes one
 * transaction and one WAL flush (group commit). What finds nothing in flight goes at once, so a lone request waits
 * no longer than it would alone; under load, the statements per request fall. Each item is sent after it was asked
 * for, so a read sees every write that ended before it.
 *
 * A batch is all-or-nothing: when its statement fails (one item Postgres refuses, or a broken connection), each of
 * its items is tried again on its own, so each caller gets its own outcome, as if it had never been batched.
 */
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"

/** The most items one statement carries: a batch stays a statement of ordinary size. */
export const MAX_BATCH = 64

interface Waiting<A, B, E> {
  readonly item: A
  readonly done: Deferred.Deferred<B, E>
}

/**
 * `one` as callers see it, writing what queued meanwhile with `many` (its results in the order of its items), at
 * most `max` items a statement. The batches run in `scope`.
 */
export const batched = <A, B, E>(
  scope: Scope.Scope,
  max: number,
  one: (item: A) => Effect.Effect<B, E>,
  many: (items: ReadonlyArray<A>) => Effect.Effect<ReadonlyArray<B>, E>,
): ((item: A) => Effect.Effect<B, E>) => {
  const queue: Array<Waiting<A, B, E>> = []
  let flushing = false

  const alone = (w: Waiting<A, B, E>) => Effect.flatMap(Effect.exit(one(w.item)), (exit) => Deferred.done(w.done, exit))

  const write = (batch: ReadonlyArray<Waiting<A, B, E>>): Effect.Effect<unknown> =>
    batch.length === 1
      ? alone(batch[0]!)
      : Effect.flatMap(Effect.exit(many(batch.map((w) => w.item))), (exit) =>
          Exit.isSuccess(exit)
            ? Effect.forEach(batch, (w, i) => Deferred.succeed(w.done, exit.value[i]!), { discard: true })
            : Effect.forEach(batch, alone, { concurrency: "unbounded", discard: true }),
        )

  const flush: Effect.Effect<void> = Effect.suspend(() => {
    if (queue.length === 0) {
      flushing = false
      return Effect.void
    }
    return Effect.andThen(write(queue.splice(0, max)), flush)
  })

  return (item) =>
    Effect.suspend(() => {
      const done = Deferred.makeUnsafe<B, E>()
      queue.push({ item, done })
      if (flushing) return Deferred.await(done)
      flushing = true
      // Started now, not on the scheduler's next turn (a fork's default: a setImmediate, after every I/O callback
      // the event loop has ready), so a statement that finds none in flight is written before this call returns.
      return Effect.andThen(Effect.forkIn(flush, scope, { startImmediately: true }), Deferred.await(done))
    })
}
