/**
 * Host code — a tool's `execute`, durable `start`/`wait`/`cancel`, hooks — may return an Effect, a Promise or a
 * plain value (spec "Tool.make"). `fromReturned` turns any of them into an Effect, so the rest of the host deals with
 * one shape: a rejected Promise becomes a failure with the rejection reason (so a `ToolError` thrown in an async
 * function is still a refusal), and so does a synchronous throw inside `callHost`. Defects stay defects.
 */
import * as Effect from "effect/Effect"

export const fromReturned = (x: unknown): Effect.Effect<unknown, unknown, unknown> => {
  if (Effect.isEffect(x)) return x
  if (isPromiseLike(x)) return Effect.tryPromise({ try: () => x, catch: (e) => e })
  return Effect.succeed(x)
}

/** Calls host code and lifts what it returns; a throw becomes a failure with the thrown value. */
export const callHost = (call: () => unknown): Effect.Effect<unknown, unknown, unknown> =>
  Effect.suspend(() => {
    let x: unknown
    try {
      x = call()
    } catch (e) {
      return Effect.fail(e)
    }
    return fromReturned(x)
  })

const isPromiseLike = (x: unknown): x is PromiseLike<unknown> =>
  (typeof x === "object" || typeof x === "function") && x !== null && typeof (x as { then?: unknown }).then === "function"
