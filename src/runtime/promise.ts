/**
 * Promise abstract operations and jobs (https://tc39.es/ecma262/#sec-promise-objects). A promise's reactions and
 * the realm's job queue are plain data, so a run's pending asynchronous work is part of its state. Jobs are run by
 * the engine through `RunJob`, a Task, so reaction handlers are ordinary calls on the engine's own stack. The
 * constructor and statics are in src/intrinsics/promise.ts.
 */
import { Caps } from "./caps.ts"
import { throwRangeError, throwTypeError } from "./completion.ts"
import { defineNativeClosure } from "./builtin.ts"
import { CreateErrorObject, toThrowCompletion } from "./errors.ts"
import { IsCallable, IsConstructor, type NativeFunction } from "./function-object.ts"
import { JSObject } from "./object.ts"
import { Call, Construct } from "./operations.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import type { Value } from "./value.ts"

export interface PromiseCapability {
  readonly promise: JSObject
  readonly resolve: Value
  readonly reject: Value
}

export interface PromiseReaction {
  readonly capability: PromiseCapability | undefined
  readonly type: "Fulfill" | "Reject"
  readonly handler: JSObject | undefined
}

/** A pending job (https://tc39.es/ecma262/#sec-jobs). */
export type Job =
  | { readonly kind: "PromiseReactionJob"; readonly reaction: PromiseReaction; readonly argument: Value }
  | {
      readonly kind: "PromiseResolveThenableJob"
      readonly promise: PromiseObject
      readonly thenable: JSObject
      readonly then: JSObject
    }

export class PromiseObject extends JSObject {
  state: "pending" | "fulfilled" | "rejected" = "pending"
  result: Value = undefined
  fulfillReactions: PromiseReaction[] = []
  rejectReactions: PromiseReaction[] = []
  isHandled = false
  constructor(proto: JSObject | null) {
    super(proto)
    this.kind = "Promise"
  }
}

/** Counts pending promises against the cap; called whenever a PromiseObject is created. */
export const NewPromiseObject = (realm: Realm, proto: JSObject = realm.intrinsic("%Promise.prototype%")): PromiseObject => {
  if (realm.pendingPromises >= Caps.maxPendingPromises) throwRangeError("Too many pending promises")
  realm.pendingPromises++
  return new PromiseObject(proto)
}

const settle = (realm: Realm, promise: PromiseObject): void => {
  realm.pendingPromises--
  promise.fulfillReactions = []
  promise.rejectReactions = []
}

// https://tc39.es/ecma262/#sec-fulfillpromise
export const FulfillPromise = (realm: Realm, promise: PromiseObject, value: Value): void => {
  const reactions = promise.fulfillReactions
  promise.result = value
  promise.state = "fulfilled"
  settle(realm, promise)
  TriggerPromiseReactions(realm, reactions, value)
}

// https://tc39.es/ecma262/#sec-rejectpromise
export const RejectPromise = (realm: Realm, promise: PromiseObject, reason: Value): void => {
  const reactions = promise.rejectReactions
  promise.result = reason
  promise.state = "rejected"
  settle(realm, promise)
  if (!promise.isHandled) HostPromiseRejectionTracker(realm, promise, "reject")
  TriggerPromiseReactions(realm, reactions, reason)
}

// https://tc39.es/ecma262/#sec-triggerpromisereactions
const TriggerPromiseReactions = (realm: Realm, reactions: ReadonlyArray<PromiseReaction>, argument: Value): void => {
  for (const reaction of reactions) realm.jobs.push({ kind: "PromiseReactionJob", reaction, argument })
}

// https://tc39.es/ecma262/#sec-host-promise-rejection-tracker
export const HostPromiseRejectionTracker = (realm: Realm, promise: PromiseObject, operation: "reject" | "handle"): void => {
  if (operation === "reject") realm.unhandledRejections.add(promise)
  else realm.unhandledRejections.delete(promise)
}

const makeResolve = defineNativeClosure("PromiseResolveFunction", function* (realm, _this, args, _nt, self) {
  const slots = self.slots!
  if (slots.alreadyResolved) return undefined
  markResolved(self)
  const promise = slots.promise as PromiseObject
  yield* ResolvePromise(realm, promise, args[0])
  return undefined
}, 1)

const makeReject = defineNativeClosure("PromiseRejectFunction", (realm, _this, args, _nt, self) => {
  const slots = self.slots!
  if (slots.alreadyResolved) return undefined
  markResolved(self)
  RejectPromise(realm, slots.promise as PromiseObject, args[0])
  return undefined
}, 1)

/** [[AlreadyResolved]] is shared by the pair: each function points at its twin. */
const markResolved = (f: NativeFunction): void => {
  f.slots!.alreadyResolved = true
  ;(f.slots!.twin as NativeFunction).slots!.alreadyResolved = true
}

/** Steps 7-16 of the promise resolve function (https://tc39.es/ecma262/#sec-promise-resolve-functions). */
export function* ResolvePromise(realm: Realm, promise: PromiseObject, resolution: Value): Task<void> {
  if (resolution === promise) {
    RejectPromise(realm, promise, CreateErrorObject(realm, "TypeError", "Chaining cycle detected for promise #<Promise>"))
    return
  }
  if (!(resolution instanceof JSObject)) {
    FulfillPromise(realm, promise, resolution)
    return
  }
  let then: Value
  try {
    then = yield* resolution.Get("then", resolution)
  } catch (e) {
    RejectPromise(realm, promise, toThrowCompletion(realm, e).value)
    return
  }
  if (!IsCallable(then)) {
    FulfillPromise(realm, promise, resolution)
    return
  }
  realm.jobs.push({ kind: "PromiseResolveThenableJob", promise, thenable: resolution, then })
}

// https://tc39.es/ecma262/#sec-createresolvingfunctions
export const CreateResolvingFunctions = (realm: Realm, promise: PromiseObject): { resolve: NativeFunction; reject: NativeFunction } => {
  const resolve = makeResolve(realm, { promise, alreadyResolved: false })
  const reject = makeReject(realm, { promise, alreadyResolved: false, twin: resolve })
  resolve.slots!.twin = reject
  return { resolve, reject }
}

const makeCapabilityExecutor = defineNativeClosure("GetCapabilitiesExecutor", (_realm, _this, args, _nt, self) => {
  const slots = self.slots!
  if (slots.resolve !== undefined) return throwTypeError("Promise executor has already been invoked with non-undefined arguments")
  if (slots.reject !== undefined) return throwTypeError("Promise executor has already been invoked with non-undefined arguments")
  slots.resolve = args[0]
  slots.reject = args[1]
  return undefined
}, 2)

// https://tc39.es/ecma262/#sec-newpromisecapability
export function* NewPromiseCapability(realm: Realm, C: Value): Task<PromiseCapability> {
  if (C === realm.findIntrinsic("%Promise%")) {
    // Fast path with the same observable behaviour: the intrinsic constructor runs no user code.
    const promise = NewPromiseObject(realm)
    const { resolve, reject } = CreateResolvingFunctions(realm, promise)
    return { promise, resolve, reject }
  }
  if (!IsConstructor(C)) return throwTypeError("Promise resolve or reject function is not callable")
  const executor = makeCapabilityExecutor(realm, { resolve: undefined, reject: undefined })
  const promise = yield* Construct(C, [executor])
  const { resolve, reject } = executor.slots as { resolve: Value; reject: Value }
  if (!IsCallable(resolve)) return throwTypeError("Promise resolve or reject function is not callable")
  if (!IsCallable(reject)) return throwTypeError("Promise resolve or reject function is not callable")
  return { promise, resolve, reject }
}

/** A capability for a new intrinsic promise (no user code can run). */
export const NewIntrinsicPromiseCapability = (realm: Realm): PromiseCapability & { promise: PromiseObject } => {
  const promise = NewPromiseObject(realm)
  const { resolve, reject } = CreateResolvingFunctions(realm, promise)
  return { promise, resolve, reject }
}

export const IsPromise = (v: Value): v is PromiseObject => v instanceof PromiseObject

// https://tc39.es/ecma262/#sec-promise-resolve
export function* PromiseResolve(realm: Realm, C: JSObject, x: Value): Task<JSObject> {
  if (IsPromise(x)) {
    const xConstructor = yield* x.Get("constructor", x)
    if (xConstructor === C) return x
  }
  const capability = yield* NewPromiseCapability(realm, C)
  yield* Call(capability.resolve, undefined, [x])
  return capability.promise
}

// https://tc39.es/ecma262/#sec-performpromisethen
export const PerformPromiseThen = (
  realm: Realm,
  promise: PromiseObject,
  onFulfilled: Value,
  onRejected: Value,
  resultCapability: PromiseCapability | undefined,
): void => {
  const fulfillReaction: PromiseReaction = {
    capability: resultCapability,
    type: "Fulfill",
    handler: IsCallable(onFulfilled) ? onFulfilled : undefined,
  }
  const rejectReaction: PromiseReaction = {
    capability: resultCapability,
    type: "Reject",
    handler: IsCallable(onRejected) ? onRejected : undefined,
  }
  if (promise.state === "pending") {
    promise.fulfillReactions.push(fulfillReaction)
    promise.rejectReactions.push(rejectReaction)
  } else if (promise.state === "fulfilled") {
    realm.jobs.push({ kind: "PromiseReactionJob", reaction: fulfillReaction, argument: promise.result })
  } else {
    if (!promise.isHandled) HostPromiseRejectionTracker(realm, promise, "handle")
    realm.jobs.push({ kind: "PromiseReactionJob", reaction: rejectReaction, argument: promise.result })
  }
  promise.isHandled = true
}

/** Runs one job (https://tc39.es/ecma262/#sec-newpromisereactionjob, #sec-newpromiseresolvethenablejob). */
export function* RunJob(realm: Realm, job: Job): Task<void> {
  if (job.kind === "PromiseReactionJob") {
    const { capability, type, handler } = job.reaction
    let value: Value
    let ok = true
    if (handler === undefined) {
      value = job.argument
      ok = type === "Fulfill"
    } else {
      try {
        value = yield* Call(handler, undefined, [job.argument])
      } catch (e) {
        value = toThrowCompletion(realm, e).value
        ok = false
      }
    }
    if (capability === undefined) {
      if (!ok && handler !== undefined) {
        // Await and internal reactions have no capability: a throw from their handler is an engine bug.
        throw new Error("codemode bug: capability-less promise reaction threw")
      }
      return
    }
    yield* Call(ok ? capability.resolve : capability.reject, undefined, [value])
    return
  }
  const { resolve, reject } = CreateResolvingFunctions(realm, job.promise)
  try {
    yield* Call(job.then, job.thenable, [resolve, reject])
  } catch (e) {
    yield* Call(reject, undefined, [toThrowCompletion(realm, e).value])
  }
}

