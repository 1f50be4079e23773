/**
 * The run loop's mailbox (host/mailbox.ts): events taken in the order sent, and nothing lost by a take interrupted
 * as it was woken. When a taker wakes (after the fibers running as the event was sent) is pinned by the checkpoint
 * test that asks for one as an outcome arrives (test/snapshot/checkpoint.test.ts).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Fiber } from "effect"
import { Mailbox } from "../../src/host/mailbox.ts"

describe("Mailbox", () => {
  it.effect("takes events in the order sent, waiting for one when there is none", () =>
    Effect.gen(function* () {
      const box = new Mailbox<number>()
      box.offer(1)
      box.offer(2)
      assert.strictEqual(box.poll(), 1)
      const taker = yield* Effect.forkChild(Effect.all([box.take, box.take]))
      yield* Effect.yieldNow
      box.offer(3)
      assert.deepStrictEqual(yield* Fiber.join(taker), [2, 3])
      assert.strictEqual(box.poll(), undefined)
    }))

  it.effect("keeps the event of a take interrupted as it was woken", () =>
    Effect.gen(function* () {
      const box = new Mailbox<number>()
      const taker = yield* Effect.forkChild(box.take)
      yield* Effect.yieldNow
      box.offer(7)
      yield* Fiber.interrupt(taker)
      assert.strictEqual(yield* box.take, 7)
    }))
})
