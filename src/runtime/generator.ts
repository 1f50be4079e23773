/**
 * Generator objects and the engine-independent parts of generators, async functions and async generators
 * (https://tc39.es/ecma262/#sec-generator-objects, #sec-asyncgenerator-objects, #sec-await). A
 * `GeneratorObject` is a generator, an async generator, or (never visible to programs) the activation of an
 * async function call; its suspended body is engine-owned state (`engineState`: a frame for the VM). Resuming a
 * body is the `generatorResume` EngineRequest, so the built-in `next`/`return`/`throw` and the await reactions
 * are plain native Tasks and every engine runs the body on its own stack.
 *
 * Await (https://tc39.es/ecma262/#await) is PromiseResolve + PerformPromiseThen with two built-in closures that
 * resume the activation; the async generator request queue (AsyncGeneratorEnqueue, ...CompleteStep,
 * ...AwaitReturn, ...DrainQueue) is implemented here on the same requests.
 */
import { defineNativeClosure } from "./builtin.ts"
import { toThrowCompletion } from "./errors.ts"
import { CreateIterResultObject, type IteratorRecord } from "./iteration.ts"
import { JSObject } from "./object.ts"
import { Call } from "./operations.ts"
import {
  FulfillPromise,
  NewPromiseObject,
  PerformPromiseThen,
  PromiseObject,
  type PromiseCapability,
  PromiseResolve,
} from "./promise.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import type { Value } from "./value.ts"

export type GeneratorState = "suspendedStart" | "suspendedYield" | "executing" | "awaiting-return" | "completed"
export type GeneratorBrand = "Generator" | "AsyncGenerator" | "AsyncFunction"

/** https://tc39.es/ecma262/#sec-completion-record-specification-type, as an async generator request carries it. */
export interface ResumptionCompletion {
  readonly kind: "next" | "throw" | "return"
  readonly value: Value
}

/** https://tc39.es/ecma262/#sec-asyncgeneratorrequest-records */
export interface AsyncGeneratorRequest {
  readonly completion: ResumptionCompletion
  readonly capability: PromiseCapability
}

export class GeneratorObject extends JSObject {
  readonly brand: GeneratorBrand
  state: GeneratorState = "suspendedStart"
  /** Engine-owned: the suspended body (a VM frame). Undefined while running or once completed. */
  engineState: unknown = undefined
  /** [[AsyncGeneratorQueue]]. */
  readonly queue: AsyncGeneratorRequest[] = []
  /** Async functions: the promise the call returned. */
  readonly promise: PromiseObject | undefined
  /** The two reactions that resume this body after an Await (created once: they are never visible to programs). */
  awaitHandlers: readonly [JSObject, JSObject] | undefined = undefined
  constructor(proto: JSObject | null, brand: GeneratorBrand, promise?: PromiseObject) {
    super(proto)
    this.brand = brand
    this.kind = brand
    this.promise = promise
  }
}

/** The activation of an async function call: its promise, resolved when the body completes. */
export const NewAsyncFunctionActivation = (realm: Realm): GeneratorObject => {
  const activation = new GeneratorObject(null, "AsyncFunction", NewPromiseObject(realm))
  activation.state = "executing"
  return activation
}

// --- Await ----------------------------------------------------------------------------------------------------

const makeAwaitFulfilled = defineNativeClosure(
  "AwaitFulfilledFunction",
  function* (_realm, _this, args, _nt, self) {
    yield { kind: "generatorResume", generator: self.slots!.activation as JSObject, mode: "next", value: args[0] }
    return undefined
  },
  1,
)

const makeAwaitRejected = defineNativeClosure(
  "AwaitRejectedFunction",
  function* (_realm, _this, args, _nt, self) {
    yield { kind: "generatorResume", generator: self.slots!.activation as JSObject, mode: "throw", value: args[0] }
    return undefined
  },
  1,
)

/** Step 1 of Await: PromiseResolve(%Promise%, value). Fast path for values that cannot run user code. */
export function* AwaitPromise(realm: Realm, value: Value): Task<PromiseObject> {
  const fast = awaitPromiseFast(realm, value)
  if (fast !== undefined) return fast
  return (yield* PromiseResolve(realm, realm.intrinsic("%Promise%"), value)) as PromiseObject
}

/** PromiseResolve without user code when possible: an intrinsic promise, or a primitive; else undefined. */
export const awaitPromiseFast = (realm: Realm, value: Value): PromiseObject | undefined => {
  if (value instanceof PromiseObject) {
    const c = value.lookup("constructor")
    if (c !== undefined && !c.accessor && c.value === realm.intrinsic("%Promise%")) return value
    return undefined
  }
  if (value instanceof JSObject) return undefined
  // Resolving with a primitive fulfills at once (no thenable job); nobody else holds this promise's resolvers.
  const promise = NewPromiseObject(realm)
  FulfillPromise(realm, promise, value)
  return promise
}

/** Steps 2-9 of Await: when `promise` settles, resume `activation` with its value or reason. */
export const AwaitThen = (realm: Realm, activation: GeneratorObject, promise: PromiseObject): void => {
  const handlers = (activation.awaitHandlers ??= [makeAwaitFulfilled(realm, { activation }), makeAwaitRejected(realm, { activation })])
  PerformPromiseThen(realm, promise, handlers[0], handlers[1], undefined)
}

// --- Async generators -----------------------------------------------------------------------------------------

// https://tc39.es/ecma262/#sec-asyncgeneratorenqueue
export const AsyncGeneratorEnqueue = (generator: GeneratorObject, completion: ResumptionCompletion, capability: PromiseCapability): void => {
  generator.queue.push({ completion, capability })
}

// https://tc39.es/ecma262/#sec-asyncgeneratorcompletestep
export function* AsyncGeneratorCompleteStep(realm: Realm, generator: GeneratorObject, completion: ResumptionCompletion, done: boolean): Task<void> {
  const next = generator.queue.shift()
  if (next === undefined) throw new Error("codemode bug: async generator queue is empty")
  const { capability } = next
  if (completion.kind === "throw") {
    yield* Call(capability.reject, undefined, [completion.value])
    return
  }
  const iteratorResult = CreateIterResultObject(realm, completion.value, done)
  yield* Call(capability.resolve, undefined, [iteratorResult])
}

// https://tc39.es/ecma262/#sec-asyncgeneratorresume
export function* AsyncGeneratorResume(generator: GeneratorObject, completion: ResumptionCompletion): Task<void> {
  generator.state = "executing"
  yield { kind: "generatorResume", generator, mode: completion.kind, value: completion.value }
}

const makeAwaitReturnFulfilled = defineNativeClosure(
  "AsyncGeneratorAwaitReturnFulfilled",
  function* (realm, _this, args, _nt, self) {
    const generator = self.slots!.generator as GeneratorObject
    generator.state = "completed"
    yield* AsyncGeneratorCompleteStep(realm, generator, { kind: "return", value: args[0] }, true)
    yield* AsyncGeneratorDrainQueue(realm, generator)
    return undefined
  },
  1,
)

const makeAwaitReturnRejected = defineNativeClosure(
  "AsyncGeneratorAwaitReturnRejected",
  function* (realm, _this, args, _nt, self) {
    const generator = self.slots!.generator as GeneratorObject
    generator.state = "completed"
    yield* AsyncGeneratorCompleteStep(realm, generator, { kind: "throw", value: args[0] }, true)
    yield* AsyncGeneratorDrainQueue(realm, generator)
    return undefined
  },
  1,
)

// https://tc39.es/ecma262/#sec-asyncgeneratorawaitreturn
export function* AsyncGeneratorAwaitReturn(realm: Realm, generator: GeneratorObject): Task<void> {
  const next = generator.queue[0]
  if (next === undefined) throw new Error("codemode bug: async generator queue is empty")
  let promise: PromiseObject
  try {
    promise = yield* AwaitPromise(realm, next.completion.value)
  } catch (e) {
    const error = toThrowCompletion(realm, e).value
    generator.state = "completed"
    yield* AsyncGeneratorCompleteStep(realm, generator, { kind: "throw", value: error }, true)
    yield* AsyncGeneratorDrainQueue(realm, generator)
    return
  }
  const onFulfilled = makeAwaitReturnFulfilled(realm, { generator })
  const onRejected = makeAwaitReturnRejected(realm, { generator })
  PerformPromiseThen(realm, promise, onFulfilled, onRejected, undefined)
}

// https://tc39.es/ecma262/#sec-asyncgeneratordrainqueue
export function* AsyncGeneratorDrainQueue(realm: Realm, generator: GeneratorObject): Task<void> {
  for (;;) {
    const next = generator.queue[0]
    if (next === undefined) return
    const completion = next.completion
    if (completion.kind === "return") {
      generator.state = "awaiting-return"
      yield* AsyncGeneratorAwaitReturn(realm, generator)
      return
    }
    yield* AsyncGeneratorCompleteStep(realm, generator, completion.kind === "throw" ? completion : { kind: "next", value: undefined }, true)
  }
}

/** The body of an async generator finished (https://tc39.es/ecma262/#sec-asyncgeneratorstart steps 4.e-k). */
export function* AsyncGeneratorBodyCompleted(realm: Realm, generator: GeneratorObject, completion: ResumptionCompletion): Task<void> {
  generator.state = "completed"
  yield* AsyncGeneratorCompleteStep(realm, generator, completion, true)
  yield* AsyncGeneratorDrainQueue(realm, generator)
}

// --- Async-from-sync iterators --------------------------------------------------------------------------------

/** An %AsyncFromSyncIteratorPrototype% object ([[SyncIteratorRecord]]). */
export class AsyncFromSyncIterator extends JSObject {
  readonly syncIteratorRecord: IteratorRecord
  constructor(proto: JSObject | null, syncIteratorRecord: IteratorRecord) {
    super(proto)
    this.syncIteratorRecord = syncIteratorRecord
  }
}

// https://tc39.es/ecma262/#sec-createasyncfromsynciterator
export const CreateAsyncFromSyncIterator = (realm: Realm, syncIteratorRecord: IteratorRecord): IteratorRecord => {
  const asyncIterator = new AsyncFromSyncIterator(realm.intrinsic("%AsyncFromSyncIteratorPrototype%"), syncIteratorRecord)
  const next = asyncIterator.lookup("next")
  return { iterator: asyncIterator, nextMethod: next === undefined || next.accessor ? undefined : next.value, done: false }
}
