/**
 * The iteration steps both engines take for for-of, spread, destructuring, for await and yield*
 * (https://tc39.es/ecma262/#sec-operations-on-iterator-objects): a step of an iterator without a Task when its
 * `next` is a built-in that runs no user code, built-in array iteration without iterator objects (no program can
 * tell), closing on normal and abrupt completions, and V8's "x is not iterable" messages.
 */
import { ArrayObject } from "./array-object.ts"
import { SandboxError, ThrowCompletion, throwTypeError } from "./completion.ts"
import { ToBoolean } from "./conversions.ts"
import { NativeFunction } from "./function-object.ts"
import { CreateAsyncFromSyncIterator } from "./generator.ts"
import {
  DONE,
  GetIteratorFromMethod,
  IteratorClose,
  type IteratorRecord,
  IteratorResultValue,
  IteratorStepValue,
  NOT_PLAIN,
  plainResultValue,
} from "./iteration.ts"
import { notIterableMessage, type NotIterableSite } from "./not-iterable.ts"
import { JSObject } from "./object.ts"
import { Call, CreateDataPropertyOrThrow, describeValue, GetMethod, GetV } from "./operations.ts"
import type { Realm } from "./realm.ts"
import { checkArgumentCount, checkArrayStorage } from "./caps.ts"
import { PollInterrupt } from "./interrupt.ts"
import { getFast, getIndexFast, MISS } from "./references.ts"
import { type EngineRequest, isTask, type Task } from "./task.ts"
import { EMPTY, type Empty, type Value, WellKnownSymbols } from "./value.ts"

/**
 * Iterating an array whose iteration behaviour is the built-in one (its @@iterator is %Array.prototype.values% and
 * %ArrayIteratorPrototype%.next is the original): no iterator object and no result objects are created, which no
 * program can observe. Only for-of, destructuring and spread use it (yield* needs the real iterator).
 */
export class FastArrayRecord implements IteratorRecord {
  readonly iterator: ArrayObject
  readonly nextMethod: Value
  done = false
  index = 0
  constructor(array: ArrayObject, nextMethod: Value) {
    this.iterator = array
    this.nextMethod = nextMethod
  }
}

/** A FastArrayRecord for `v` if its iteration is the built-in array iteration, else undefined. */
export const fastArrayRecord = (realm: Realm, v: Value): FastArrayRecord | undefined => {
  if (!(v instanceof ArrayObject)) return undefined
  const values = realm.findIntrinsic("%Array.prototype.values%")
  if (values === undefined || getFast(realm, v, WellKnownSymbols.iterator) !== values) return undefined
  const next = realm.findIntrinsic("%ArrayIteratorPrototype.next%")
  const proto = realm.findIntrinsic("%ArrayIteratorPrototype%")
  if (next === undefined || proto === undefined || getFast(realm, proto, "next") !== next) return undefined
  return new FastArrayRecord(v, next)
}

/** Resumes a Task that already yielded `first` (it was started inline and needs the engine). */
export function* continueTask<T>(task: Task<T>, first: IteratorResult<EngineRequest, T>): Task<T> {
  let step = first
  while (step.done !== true) {
    let answer: Value
    try {
      answer = yield step.value
    } catch (e) {
      step = task.throw(e)
      continue
    }
    step = task.next(answer)
  }
  return step.value
}

/**
 * IteratorStepValue: the next value, or EMPTY when done. When `next` is a built-in that runs no user code and
 * its result is a plain data object, no Task is needed; otherwise returns the Task to run.
 */
export const iteratorStepFast = (realm: Realm, record: IteratorRecord): Value | Empty | Task<Value | Empty> => {
  if (record.done) return EMPTY
  if (record instanceof FastArrayRecord) {
    const array = record.iterator
    const i = record.index
    if (i >= array.length) {
      record.done = true
      return EMPTY
    }
    record.index = i + 1
    const v = getIndexFast(realm, array, i)
    return v !== MISS ? v : GetV(realm, array, String(i))
  }
  const next = record.nextMethod
  if (next instanceof NativeFunction) {
    let result: unknown
    try {
      result = next.impl(realm, record.iterator, [], undefined, next)
      if (isTask(result)) {
        // A built-in `next` that may run user code: run it inline until it needs the engine.
        const task = result as Task<Value>
        const first = task.next()
        if (first.done !== true) return finishTaskStep(record, continueTask(task, first))
        result = first.value
      }
    } catch (e) {
      record.done = true
      throw e
    }
    if (result instanceof JSObject) {
      const plain = plainResultValue(record, result)
      if (plain !== NOT_PLAIN) return plain === DONE ? EMPTY : plain
    }
    return resultTask(record, result as Value)
  }
  return stepTask(record)
}

function* finishTaskStep(record: IteratorRecord, task: Task<Value>): Task<Value | Empty> {
  let result: Value
  try {
    result = yield* task
  } catch (e) {
    record.done = true
    throw e
  }
  return yield* resultTask(record, result)
}

function* resultTask(record: IteratorRecord, result: Value): Task<Value | Empty> {
  const v = yield* IteratorResultValue(record, result)
  return v === DONE ? EMPTY : v
}

function* stepTask(record: IteratorRecord): Task<Value | Empty> {
  const v = yield* IteratorStepValue(record)
  return v === DONE ? EMPTY : v
}

/** IteratorClose for a normal completion, unless the iterator is done; marks it done first. */
export function* IteratorCloseIfNotDone(realm: Realm, record: IteratorRecord): Task<Value> {
  if (record.done) return undefined
  record.done = true
  if (record instanceof FastArrayRecord) return undefined
  yield* IteratorClose(realm, record)
  return undefined
}

/** IteratorClose for a throw completion: errors from `return` are ignored, the original is rethrown. */
export function* IteratorCloseForThrow(realm: Realm, record: IteratorRecord, error: Value): Task<Value> {
  if (!record.done && !(record instanceof FastArrayRecord)) {
    record.done = true
    try {
      const ret = yield* GetMethod(realm, record.iterator, "return")
      if (ret !== undefined) yield* Call(ret, record.iterator)
    } catch (inner) {
      if (!(inner instanceof ThrowCompletion) && !(inner instanceof SandboxError)) throw inner
    }
  }
  throw new ThrowCompletion(error)
}

/** Collects the rest of an iterator into an array (array destructuring rest). */
export function* IteratorRest(realm: Realm, record: IteratorRecord): Task<Value> {
  const values: Value[] = []
  for (;;) {
    const step = iteratorStepFast(realm, record)
    const v = isTask(step) ? yield* (step as Task<Value | Empty>) : (step as Value | Empty)
    if (v === EMPTY) break
    PollInterrupt(realm)
    values.push(v)
    checkArrayStorage(values.length)
  }
  return new ArrayObject(realm.ArrayPrototype, values)
}

/** Appends the values of an iterable to an array (spread in array literals and argument lists). */
export function* SpreadTask(
  realm: Realm,
  target: ArrayObject,
  iterable: Value,
  site: NotIterableSite | undefined,
  step: (r: IteratorRecord) => Value | Empty | Task<Value | Empty>,
): Task<Value> {
  const record = fastArrayRecord(realm, iterable) ?? (yield* GetIteratorWithMessage(realm, iterable, site))
  for (;;) {
    const s = step(record)
    const v = isTask(s) ? yield* (s as Task<Value | Empty>) : (s as Value | Empty)
    if (v === EMPTY) return target
    PollInterrupt(realm)
    CreateDataPropertyOrThrow(target, String(target.length), v)
  }
}

/**
 * GetIterator (sync), with V8's message for the site when the method is missing. V8 says the same of null and
 * undefined, before the lookup that would fail on them.
 */
function* GetIteratorWithMessage(realm: Realm, obj: Value, site: NotIterableSite | undefined): Task<IteratorRecord> {
  if (obj === undefined || obj === null) return throwTypeError(notIterableMessage(site, obj))
  const method = yield* GetMethod(realm, obj, WellKnownSymbols.iterator)
  if (method === undefined) return throwTypeError(notIterableMessage(site, obj))
  return yield* GetIteratorFromMethod(realm, obj, method)
}

export function* GetIteratorTask(realm: Realm, obj: Value, site: NotIterableSite | undefined): Task<Value> {
  return (yield* GetIteratorWithMessage(realm, obj, site)) as unknown as Value
}

/**
 * https://tc39.es/ecma262/#sec-getiterator (kind async). Null and undefined fail on the lookup, as in V8; where V8
 * finds no expression to name, it goes on to call the missing method.
 */
export function* GetAsyncIteratorTask(realm: Realm, obj: Value, site: NotIterableSite | undefined): Task<Value> {
  const method = yield* GetMethod(realm, obj, WellKnownSymbols.asyncIterator)
  if (method === undefined) {
    const syncMethod = yield* GetMethod(realm, obj, WellKnownSymbols.iterator)
    if (syncMethod === undefined) return throwTypeError(site === undefined ? "undefined is not a function" : notIterableMessage(site, obj))
    const syncRecord = yield* GetIteratorFromMethod(realm, obj, syncMethod)
    return CreateAsyncFromSyncIterator(realm, syncRecord) as unknown as Value
  }
  return (yield* GetIteratorFromMethod(realm, obj, method)) as unknown as Value
}

/** For-await: the awaited result of `next()` to a value, or EMPTY when done. */
export function* IterResultValueTask(result: Value): Task<Value | Empty> {
  if (!(result instanceof JSObject)) return throwTypeError(`Iterator result ${describeValue(result)} is not an object`)
  if (ToBoolean(yield* result.Get("done", result))) return EMPTY
  return yield* result.Get("value", result)
}

/** Calls the iterator's `return` for an async close: its result, or EMPTY if it has none. */
export function* AsyncIterReturnTask(realm: Realm, record: IteratorRecord): Task<Value | Empty> {
  const ret = yield* GetMethod(realm, record.iterator, "return")
  if (ret === undefined) return EMPTY
  return yield* Call(ret, record.iterator)
}

/**
 * One step of yield* (https://tc39.es/ecma262/#sec-generator-function-definitions-runtime-semantics-evaluation):
 * forward the received value to the inner iterator as next/throw/return. EMPTY: a return with no `return`
 * method, so the generator returns the received value; or, in an async generator, a throw with no `throw`
 * method, so the engine closes the inner iterator (AsyncIteratorClose awaits) and throws the TypeError.
 */
export function* YieldStarCallTask(realm: Realm, record: IteratorRecord, received: Value, mode: number, isAsync: boolean): Task<Value | Empty> {
  const iterator = record.iterator
  if (mode === 0) return yield* Call(record.nextMethod, iterator, [received])
  if (mode === 1) {
    const method = yield* GetMethod(realm, iterator, "throw")
    if (method !== undefined) return yield* Call(method, iterator, [received])
    if (isAsync) return EMPTY
    yield* IteratorClose(realm, record)
    return throwTypeError(NO_THROW_METHOD)
  }
  const method = yield* GetMethod(realm, iterator, "return")
  if (method === undefined) return EMPTY
  return yield* Call(method, iterator, [received])
}

export const NO_THROW_METHOD = "The iterator does not provide a 'throw' method."

/** The arguments of a spread call, from the array the spread built. */
export const arrayValues = (arr: Value): Value[] => {
  if (arr instanceof ArrayObject && arr.elements !== null) {
    checkArgumentCount(arr.length)
    const out: Value[] = []
    for (let i = 0; i < arr.length; i++) {
      const v = i < arr.elements.length ? arr.elements[i] : EMPTY
      out.push(v === EMPTY ? undefined : (v as Value))
    }
    return out
  }
  throw new Error("codemode bug: argument list is not a dense array")
}
