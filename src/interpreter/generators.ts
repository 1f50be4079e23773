/**
 * Suspension: `await` (https://tc39.es/ecma262/#await), `yield` and `yield*`
 * (https://tc39.es/ecma262/#sec-generator-function-definitions-runtime-semantics-evaluation) in generators, async
 * functions and async generators. A body suspends by yielding a `suspend` request: the machine takes its frame off
 * the stack into its generator object, and the `generatorResume` request puts it back with a `Resumption`. The
 * await reactions, the async generator request queue and the iterator results are the runtime's
 * (src/runtime/generator.ts), as for the VM.
 *
 * A generator resumed with `return` completes like a `return` statement at the `yield`: a `GeneratorReturn`
 * signal unwinds the expression evaluation to the nearest statement that handles completions (try/finally,
 * for-of closing its iterator, the function body).
 */
import type { ESTree } from "meriyah"
import { ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import { AsyncGeneratorCompleteStep, AwaitPromise, AwaitThen, awaitPromiseFast } from "../runtime/generator.ts"
import { CreateIterResultObject, type IteratorRecord } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import { describeValue } from "../runtime/operations.ts"
import { ToBoolean } from "../runtime/conversions.ts"
import { EMPTY, type Value } from "../runtime/value.ts"
import { AsyncIterReturnTask, GetAsyncIteratorTask, GetIteratorTask, NO_THROW_METHOD, YieldStarCallTask } from "../runtime/iterator-steps.ts"
import { yieldStarSite } from "../language/call-printer.ts"
const ResumeMode = { Next: 0, Throw: 1, Return: 2 } as const
import { type Activation, type Eval, FrameKind, type Resumption } from "./machine.ts"
import { slow } from "./machine.ts"
import { GetField } from "./references.ts"

/** A generator resumed with `return(value)`: completes the body like `return value` at the yield. */
export class GeneratorReturn {
  readonly value: Value
  constructor(value: Value) {
    this.value = value
  }
}

/**
 * Await(value): suspends until the promise for `value` settles; its value, or its reason thrown. `holdsNothing`:
 * the suspended body holds no value outside its activation (program.ts `holdsNothingAt`); `v` itself stays
 * reachable through the promise, or the job that resumes the body.
 */
export function* Await(a: Activation, v: Value, holdsNothing = false): Eval<Value> {
  const realm = a.realm
  const promise = awaitPromiseFast(realm, v) ?? (yield* slow(AwaitPromise(realm, v)))
  const activation = a.generator
  AwaitThen(realm, activation, promise)
  const r = (yield { kind: "suspend", deliver: a.frame.kind === FrameKind.Async ? activation.promise : undefined, holdsNothing }) as unknown as Resumption
  if (r.mode === "throw") throw new ThrowCompletion(r.value)
  return r.value
}

/**
 * Yields `v` and returns how the body was resumed. Sync generators hand the caller an iterator result (or `v`
 * itself when `raw`: yield* forwards the inner result); async generators resolve the pending request and
 * continue at once with the next queued one, if any.
 */
function* YieldValue(a: Activation, v: Value, raw: boolean): Eval<Resumption> {
  const gen = a.generator
  if (a.frame.kind === FrameKind.AsyncGenerator) {
    if (!raw) v = yield* Await(a, v)
    yield* slow(AsyncGeneratorCompleteStep(a.realm, gen, { kind: "next", value: v }, false))
    const next = gen.queue[0]
    if (next !== undefined) return { mode: next.completion.kind, value: next.completion.value }
    gen.state = "suspendedYield"
    return (yield { kind: "suspend", deliver: undefined }) as unknown as Resumption
  }
  gen.state = "suspendedYield"
  return (yield { kind: "suspend", deliver: raw ? v : CreateIterResultObject(a.realm, v, false) }) as unknown as Resumption
}

/** `yield v`: the value sent by `next`, the exception sent by `throw`, or a return for `return`. */
export function* Yield(a: Activation, v: Value): Eval<Value> {
  const r = yield* YieldValue(a, v, false)
  return yield* resume(a, r)
}

function* resume(a: Activation, r: Resumption): Eval<Value> {
  if (r.mode === "next") return r.value
  if (r.mode === "throw") throw new ThrowCompletion(r.value)
  return yield* returnFromYield(a, r.value)
}

/** A return resumption: async generators await the value first. */
function* returnFromYield(a: Activation, value: Value): Eval<never> {
  if (a.frame.kind === FrameKind.AsyncGenerator) value = yield* Await(a, value)
  throw new GeneratorReturn(value)
}

/** AsyncIteratorClose for a normal completion: call `return`, await it, check it is an object. */
export function* AsyncIteratorClose(a: Activation, record: IteratorRecord): Eval<void> {
  const result = yield* slow(AsyncIterReturnTask(a.realm, record))
  if (result === EMPTY) return
  const awaited = yield* Await(a, result)
  if (!(awaited instanceof JSObject)) throwTypeError(`Iterator result ${describeValue(awaited)} is not an object`)
}

/** `yield* argument`, given its value (https://tc39.es/ecma262/#sec-generator-function-definitions-runtime-semantics-evaluation). */
export function* YieldStar(a: Activation, iterable: Value, argument: ESTree.Expression): Eval<Value> {
  const realm = a.realm
  const isAsync = a.frame.kind === FrameKind.AsyncGenerator
  const site = yieldStarSite(argument, isAsync)
  const record = (isAsync ? yield* slow(GetAsyncIteratorTask(realm, iterable, site)) : yield* slow(GetIteratorTask(realm, iterable, site))) as unknown as IteratorRecord
  let received: Value = undefined
  let mode: number = ResumeMode.Next
  for (;;) {
    let result: Value | typeof EMPTY = yield* slow(YieldStarCallTask(realm, record, received, mode, isAsync))
    if (result === EMPTY) {
      if (mode === ResumeMode.Throw) {
        // An async generator's throw resumption and the inner iterator has no `throw`: close it, then fail.
        yield* AsyncIteratorClose(a, record)
        return throwTypeError(NO_THROW_METHOD)
      }
      // A return resumption and the inner iterator has no `return`: return the received value.
      return yield* returnFromYield(a, received)
    }
    if (isAsync) result = yield* Await(a, result)
    if (!(result instanceof JSObject)) return throwTypeError(`Iterator result ${describeValue(result)} is not an object`)
    if (ToBoolean(yield* GetField(a, result, "done"))) {
      const value = yield* GetField(a, result, "value")
      if (mode !== ResumeMode.Return) return value
      throw new GeneratorReturn(value)
    }
    const r: Resumption = yield* YieldValue(a, isAsync ? yield* GetField(a, result, "value") : result, true)
    mode = r.mode === "next" ? ResumeMode.Next : r.mode === "throw" ? ResumeMode.Throw : ResumeMode.Return
    received = r.value
    if (isAsync && mode === ResumeMode.Return) {
      // AsyncGeneratorUnwrapYieldResumption: the value is awaited; if that throws, the inner iterator receives
      // the exception as a `throw`.
      try {
        received = yield* Await(a, received)
      } catch (e) {
        mode = ResumeMode.Throw
        received = toThrowCompletion(a.realm, e).value
      }
    }
  }
}
