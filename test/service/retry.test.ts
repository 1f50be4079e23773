import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Schedule from "effect/Schedule"
import { describe, expect, it } from "vitest"
import { retryFailures } from "../../src/server/retry.ts"

/** An effect failing with `failures` in turn, then succeeding; `attempts` counts its runs. */
const scripted = (failures: ReadonlyArray<string>) => {
  const counter = { attempts: 0 }
  const effect = Effect.suspend(() => {
    const failure = failures[counter.attempts++]
    return failure === undefined ? Effect.succeed(counter.attempts) : Effect.fail(failure)
  })
  return { counter, effect }
}

const options = (times: number) => ({ schedule: Schedule.exponential("1 millis", 2), times, while: (e: string) => e.startsWith("transient") })

describe("retryFailures", () => {
  const cases: ReadonlyArray<readonly [string, ReadonlyArray<string>, number]> = [
    ["succeeds at once", [], 3],
    ["succeeds after transient failures", ["transient 1", "transient 2"], 3],
    ["stops at a failure it may not retry", ["transient 1", "fatal"], 3],
    ["fails at once on a failure it may not retry", ["fatal"], 3],
    ["gives up after `times` retries with the last failure", ["transient 1", "transient 2", "transient 3", "transient 4"], 3],
    ["never retries when `times` is 0", ["transient 1"], 0],
  ]
  for (const [name, failures, times] of cases) {
    it(`${name}, as Effect.retry does`, async () => {
      const ours = scripted(failures)
      const theirs = scripted(failures)
      const got = await Effect.runPromiseExit(retryFailures(ours.effect, options(times)))
      const expected = await Effect.runPromiseExit(Effect.retry(theirs.effect, options(times)))
      expect(got).toStrictEqual(expected)
      expect(ours.counter.attempts).toBe(theirs.counter.attempts)
    })
  }

  it("retries each run of the effect afresh", async () => {
    const { counter, effect } = scripted(["transient 1", "transient 2"])
    const retried = retryFailures(effect, options(1))
    expect(Exit.isFailure(await Effect.runPromiseExit(retried))).toBe(true)
    expect(counter.attempts).toBe(2)
    expect(await Effect.runPromise(retried)).toBe(3)
  })
})
