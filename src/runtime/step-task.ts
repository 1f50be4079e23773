/**
 * A Task written by hand as a state machine instead of as a generator, for the loops that call a program function
 * once per step (sort's comparator, map's callback): a generator costs a resume, an IteratorResult and, under each
 * `yield*` around it, one more resume per request, which was a third of sorting with a comparator.
 *
 * Engines drive it as any Task (`next`, `throw`; it is a host object, so a built-in may return it). `advance`
 * receives the answer to the previous request and returns the next request, or `FINISHED` after `finish`. A step
 * that needs a Task of its own (a `valueOf`, a setter) hands it to `delegate`: it is driven to completion first, as
 * `yield*` would, and its result is the next value `advance` receives. The IteratorResult is one object per Task,
 * reused: engines read a result before they step the Task again.
 */
import type { EngineRequest, Task } from "./task.ts"
import { isMarker, type Value } from "./value.ts"

export const FINISHED: unique symbol = Symbol("finished")
export type Finished = typeof FINISHED

/** What `advance` returns: a request to make, `FINISHED`, or `DELEGATED` after `delegate`. */
export const DELEGATED: unique symbol = Symbol("delegated")
export type Step = EngineRequest | Finished | typeof DELEGATED

export abstract class StepTask {
  private readonly step: { done: boolean; value: EngineRequest | Value } = { done: false, value: undefined }
  private sub: Task<Value> | undefined = undefined
  private result: Value = undefined

  /** Runs on from `v`, the answer to the last request (undefined at the start). */
  protected abstract advance(v: Value): Step

  /** Ends the Task with `v` (then `advance` returns FINISHED). */
  protected finish(v: Value): Finished {
    this.result = v
    return FINISHED
  }

  /** Runs `task` as a step: its value, or DELEGATED when it makes a request first (its result comes to `advance`). */
  protected delegate(task: Task<Value>): Value | typeof DELEGATED {
    const r = task.next()
    if (r.done === true) return r.value
    this.sub = task
    return this.yielding(r.value)
  }

  next(v?: Value): IteratorResult<EngineRequest, Value> {
    const sub = this.sub
    if (sub !== undefined) return this.afterSub(sub.next(v as Value))
    return this.run(v as Value)
  }

  /**
   * `next(v)` for an engine that runs the loop's callbacks itself: the request `advance` makes from `v`, without
   * the IteratorResult around it; undefined when there is none (the Task finished, or a delegated Task made the
   * request), and then `last` is what `next(v)` would have returned.
   */
  nextRequest(v: Value): EngineRequest | undefined {
    const sub = this.sub
    if (sub !== undefined) {
      this.afterSub(sub.next(v))
      return undefined
    }
    const s = this.advance(v)
    if (!isMarker(s)) return s
    if (s === FINISHED) this.done()
    return undefined
  }

  /** The IteratorResult of the last step (see nextRequest). */
  get last(): IteratorResult<EngineRequest, Value> {
    return this.step as IteratorResult<EngineRequest, Value>
  }

  throw(e: unknown): IteratorResult<EngineRequest, Value> {
    const sub = this.sub
    if (sub === undefined) throw e
    return this.afterSub(sub.throw(e))
  }

  return(v: Value): IteratorResult<EngineRequest, Value> {
    this.sub = undefined
    this.result = v
    return this.done()
  }

  [Symbol.iterator](): this {
    return this
  }

  /** This as the Task type engines drive: it has `next`, `throw` and `return`, as a generator does. */
  get task(): Task<Value> {
    return this as unknown as Task<Value>
  }

  private afterSub(r: IteratorResult<EngineRequest, Value>): IteratorResult<EngineRequest, Value> {
    if (r.done !== true) {
      this.yielding(r.value)
      return this.step as IteratorResult<EngineRequest, Value>
    }
    this.sub = undefined
    return this.run(r.value)
  }

  private run(v: Value): IteratorResult<EngineRequest, Value> {
    const s = this.advance(v)
    if (!isMarker(s)) this.yielding(s)
    else if (s === FINISHED) return this.done()
    return this.step as IteratorResult<EngineRequest, Value>
  }

  private yielding(req: EngineRequest): typeof DELEGATED {
    const step = this.step
    step.done = false
    // A loop's request is one object, reused (CallbackRequest); storing it again would cost a write barrier.
    if (step.value !== req) step.value = req
    return DELEGATED
  }

  private done(): IteratorResult<EngineRequest, Value> {
    const step = this.step
    step.done = true
    step.value = this.result
    return step as IteratorResult<EngineRequest, Value>
  }
}
