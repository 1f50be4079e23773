/**
 * Array.fromAsync (https://tc39.es/proposal-array-from-async/#sec-array.fromAsync), installed by array.ts.
 *
 * The spec writes it as an async closure started with AsyncFunctionStart. Here that closure is a state machine
 * kept as data in a `FromAsyncState` object: each `Await` resolves the awaited value to an intrinsic promise and
 * registers two built-in closures (declared with `defineNativeClosure`, their only slot is the state object) as
 * its reactions; when one fires, the machine continues from the recorded phase until its next Await or until it
 * settles the result promise. Every step that can run user code is a Task, so callbacks, getters and iterator
 * methods are ordinary engine calls, and a suspended run holds nothing but heap data.
 *
 * Sync iterables are read through the steps of CreateAsyncFromSyncIterator (%AsyncFromSyncIteratorPrototype%.next
 * and AsyncFromSyncIteratorContinuation, including closing the sync iterator when a yielded promise rejects), so
 * promise ticks line up with V8's. NON-SPEC: when closing a sync iterable after an abrupt completion, the number of
 * ticks before the rejection is approximated (the wrapper's `return` promise is not materialised).
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { defineNativeClosure } from "../runtime/builtin.ts"
import { ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { ToObject } from "../runtime/conversions.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import { IsCallable, IsConstructor } from "../runtime/function-object.ts"
import {
  CreateIterResultObject,
  GetIteratorFromMethod,
  IteratorClose,
  IteratorComplete,
  IteratorNext,
  IteratorValue,
  type IteratorRecord,
} from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, Construct, GetMethod, LengthOfArrayLike, Set } from "../runtime/operations.ts"
import {
  NewIntrinsicPromiseCapability,
  PerformPromiseThen,
  PromiseResolve,
  type PromiseCapability,
  type PromiseObject,
} from "../runtime/promise.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { isSandboxThrow } from "./iterator.ts"

const MAX_SAFE_INTEGER = 2 ** 53 - 1

type Phase =
  | "start"
  /** Awaiting the result of the iterator's next(). */
  | "iter-next"
  /** Awaiting the mapper's result for an iterated value. */
  | "iter-mapped"
  /** AsyncIteratorClose after an abrupt completion: awaiting return()'s result, then rejecting with `closeReason`. */
  | "iter-closing"
  | "iter-closing-sync"
  /** Array-like source: awaiting element k, then the mapper's result. */
  | "al-value"
  | "al-mapped"
  | "settled"

/** The fromAsync closure's variables and its position, as data. Never exposed to the program. */
export class FromAsyncState extends JSObject {
  readonly promise: JSObject
  readonly resolve: Value
  readonly reject: Value
  readonly C: Value
  readonly mapfn: Value
  readonly thisArg: Value
  iterator: JSObject | undefined = undefined
  nextMethod: Value = undefined
  /** The iterator is a sync iterator read through the async-from-sync steps. */
  syncIterator = false
  arrayLike: JSObject | undefined = undefined
  len = 0
  A: JSObject | undefined = undefined
  k = 0
  phase: Phase = "start"
  closeReason: Value = undefined
  constructor(capability: PromiseCapability, C: Value, mapfn: Value, thisArg: Value) {
    super(null)
    this.kind = "Array.fromAsync"
    this.promise = capability.promise
    this.resolve = capability.resolve
    this.reject = capability.reject
    this.C = C
    this.mapfn = mapfn
    this.thisArg = thisArg
  }
  record(): IteratorRecord {
    return { iterator: this.iterator!, nextMethod: this.nextMethod, done: false }
  }
}

// https://tc39.es/proposal-array-from-async/#sec-array.fromAsync
export function* Array_fromAsync(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  // 1-2. The result promise; 3-4. the closure, started at once (AsyncFunctionStart).
  const capability = NewIntrinsicPromiseCapability(realm)
  const S = new FromAsyncState(capability, thisArg, args[1], args[2])
  yield* guarded(realm, S, start(realm, S, args[0]))
  return capability.promise
}

/** Runs one stretch of the closure; a throw that escapes it rejects the result promise. */
function* guarded(realm: Realm, S: FromAsyncState, body: Task<void>): Task<void> {
  try {
    yield* body
  } catch (e) {
    if (!isSandboxThrow(e)) throw e
    yield* settle(realm, S, false, toThrowCompletion(realm, e).value)
  }
}

function* settle(realm: Realm, S: FromAsyncState, fulfilled: boolean, value: Value): Task<void> {
  S.phase = "settled"
  yield* Call(fulfilled ? S.resolve : S.reject, undefined, [value])
}

const onFulfilled = defineNativeClosure(
  "Array.fromAsync:onFulfilled",
  function* (realm, _this, args, _nt, self) {
    const S = self.slots!.state as FromAsyncState
    yield* guarded(realm, S, resume(realm, S, false, args[0]))
    return undefined
  },
  1,
)

const onRejected = defineNativeClosure(
  "Array.fromAsync:onRejected",
  function* (realm, _this, args, _nt, self) {
    const S = self.slots!.state as FromAsyncState
    yield* guarded(realm, S, resume(realm, S, true, args[0]))
    return undefined
  },
  1,
)

/** https://tc39.es/ecma262/#await — the closure continues in `resume` when the promise settles. */
function* Await(realm: Realm, S: FromAsyncState, phase: Phase, v: Value): Task<void> {
  const promise = (yield* PromiseResolve(realm, realm.intrinsic("%Promise%"), v)) as PromiseObject
  S.phase = phase
  PerformPromiseThen(realm, promise, onFulfilled(realm, { state: S }), onRejected(realm, { state: S }), undefined)
}

/** Steps 3.a-3.e (and the array-like 3.k set-up): pick the source, make A, take the first step. */
function* start(realm: Realm, S: FromAsyncState, asyncItems: Value): Task<void> {
  // a. If mapfn is undefined, mapping is false; else it must be callable.
  if (S.mapfn !== undefined && !IsCallable(S.mapfn)) return throwTypeError(`${describeCallback(S.mapfn)} is not a function`)
  const usingAsyncIterator = yield* GetMethod(realm, asyncItems, WellKnownSymbols.asyncIterator)
  const usingSyncIterator = usingAsyncIterator === undefined ? yield* GetMethod(realm, asyncItems, WellKnownSymbols.iterator) : undefined
  if (usingAsyncIterator !== undefined || usingSyncIterator !== undefined) {
    const record = yield* GetIteratorFromMethod(realm, asyncItems, (usingAsyncIterator ?? usingSyncIterator)!)
    S.iterator = record.iterator
    S.nextMethod = record.nextMethod
    S.syncIterator = usingAsyncIterator === undefined
    S.A = IsConstructor(S.C) ? yield* Construct(S.C) : new ArrayObject(realm.ArrayPrototype)
    return yield* iteratorStep(realm, S)
  }
  // k. NOTE: asyncItems is neither an AsyncIterable nor an Iterable so assume it is an array-like object.
  const arrayLike = ToObject(realm, asyncItems)
  S.arrayLike = arrayLike
  S.len = yield* LengthOfArrayLike(realm, arrayLike)
  if (IsConstructor(S.C)) S.A = yield* Construct(S.C, [S.len])
  else {
    if (S.len > 2 ** 32 - 1) return throwTypeError("Invalid array length")
    const A = new ArrayObject(realm.ArrayPrototype)
    A.length = S.len
    S.A = A
  }
  return yield* arrayLikeStep(realm, S)
}

const describeCallback = (v: Value): string =>
  v === undefined ? "undefined" : typeof v === "string" ? `"${v}"` : v instanceof JSObject ? "object" : String(v)

/** The continuation after an Await settled with `value` (rejected: the Await threw it). */
function* resume(realm: Realm, S: FromAsyncState, rejected: boolean, value: Value): Task<void> {
  switch (S.phase) {
    case "iter-next": {
      // nextResult = ? Await(nextResult): a rejection rejects the result without closing.
      if (rejected) return yield* settle(realm, S, false, value)
      if (!(value instanceof JSObject)) return throwTypeError(`Iterator result ${String(value)} is not an object`)
      if (yield* IteratorComplete(value)) {
        yield* Set(S.A!, "length", S.k, true)
        return yield* settle(realm, S, true, S.A)
      }
      const nextValue = yield* IteratorValue(value)
      if (S.mapfn === undefined) return yield* defineAndContinue(realm, S, nextValue)
      let mapped: Value
      try {
        mapped = yield* Call(S.mapfn, S.thisArg, [nextValue, S.k])
        return yield* Await(realm, S, "iter-mapped", mapped)
      } catch (e) {
        if (!isSandboxThrow(e)) throw e
        return yield* AsyncIteratorClose(realm, S, toThrowCompletion(realm, e).value)
      }
    }
    case "iter-mapped":
      // IfAbruptCloseAsyncIterator(mappedValue, iteratorRecord).
      if (rejected) return yield* AsyncIteratorClose(realm, S, value)
      return yield* defineAndContinue(realm, S, value)
    case "iter-closing-sync":
      return yield* Await(realm, S, "iter-closing", undefined)
    case "iter-closing":
      return yield* settle(realm, S, false, S.closeReason)
    case "al-value":
      if (rejected) return yield* settle(realm, S, false, value)
      if (S.mapfn === undefined) return yield* arrayLikeDefine(realm, S, value)
      return yield* Await(realm, S, "al-mapped", yield* Call(S.mapfn, S.thisArg, [value, S.k]))
    case "al-mapped":
      if (rejected) return yield* settle(realm, S, false, value)
      return yield* arrayLikeDefine(realm, S, value)
    case "start":
    case "settled":
      throw new Error(`codemode bug: Array.fromAsync resumed in phase ${S.phase}`)
  }
}

/** Requests the next value (steps 3.g.iv-vi): next() through the async-from-sync steps for a sync iterator. */
function* iteratorStep(realm: Realm, S: FromAsyncState): Task<void> {
  if (S.k >= MAX_SAFE_INTEGER) return yield* AsyncIteratorClose(realm, S, undefined, "Invalid array length")
  const nextResult = S.syncIterator ? yield* AsyncFromSyncIteratorNext(realm, S.record()) : yield* Call(S.nextMethod, S.iterator)
  yield* Await(realm, S, "iter-next", nextResult)
}

/** CreateDataPropertyOrThrow(A, Pk, mappedValue) — an abrupt completion closes the iterator — then the next step. */
function* defineAndContinue(realm: Realm, S: FromAsyncState, v: Value): Task<void> {
  const A = S.A!
  const k = S.k
  if (!(A instanceof ArrayObject && A.setOwnElement(k, v))) {
    if (!A.DefineOwnProperty(String(k), { value: v, writable: true, enumerable: true, configurable: true })) {
      return yield* AsyncIteratorClose(realm, S, undefined, `Cannot add property ${k}, object is not extensible`)
    }
  }
  S.k = k + 1
  yield* iteratorStep(realm, S)
}

/**
 * https://tc39.es/ecma262/#sec-asynciteratorclose for a throw completion: call return(), await its result, then
 * reject with the original reason (errors from return() itself are ignored). `typeError` makes the reason a new
 * TypeError.
 */
function* AsyncIteratorClose(realm: Realm, S: FromAsyncState, reason: Value, typeError?: string): Task<void> {
  if (typeError !== undefined) {
    try {
      throwTypeError(typeError)
    } catch (e) {
      reason = toThrowCompletion(realm, e).value
    }
  }
  S.closeReason = reason
  const iterator = S.iterator!
  let returnResult: Value
  try {
    const ret = yield* GetMethod(realm, iterator, "return")
    if (ret === undefined) {
      // A sync iterator without return(): the wrapper's return() still answers with a promise (one tick).
      if (S.syncIterator) return yield* Await(realm, S, "iter-closing", undefined)
      return yield* settle(realm, S, false, reason)
    }
    returnResult = yield* Call(ret, iterator)
  } catch (e) {
    if (!isSandboxThrow(e)) throw e
    if (S.syncIterator) return yield* Await(realm, S, "iter-closing", undefined)
    return yield* settle(realm, S, false, reason)
  }
  try {
    yield* Await(realm, S, S.syncIterator ? "iter-closing-sync" : "iter-closing", S.syncIterator ? undefined : returnResult)
  } catch (e) {
    if (!isSandboxThrow(e)) throw e
    yield* settle(realm, S, false, reason)
  }
}

/** Array-like source, steps 3.k.v: read element k and await it (or finish). */
function* arrayLikeStep(realm: Realm, S: FromAsyncState): Task<void> {
  if (S.k >= S.len) {
    yield* Set(S.A!, "length", S.len, true)
    return yield* settle(realm, S, true, S.A)
  }
  const O = S.arrayLike!
  const fast = O instanceof ArrayObject ? O.getOwnElement(S.k) : undefined
  const kValue = fast !== undefined && fast !== EMPTY ? fast : yield* O.Get(String(S.k), O)
  yield* Await(realm, S, "al-value", kValue)
}

function* arrayLikeDefine(realm: Realm, S: FromAsyncState, v: Value): Task<void> {
  const A = S.A!
  const k = S.k
  if (!(A instanceof ArrayObject && A.setOwnElement(k, v))) {
    if (!A.DefineOwnProperty(String(k), { value: v, writable: true, enumerable: true, configurable: true })) {
      return throwTypeError(`Cannot add property ${k}, object is not extensible`)
    }
  }
  S.k = k + 1
  yield* arrayLikeStep(realm, S)
}

// ---------------------------------------------------------------------------------------------------------------
// The async-from-sync iterator steps fromAsync needs (https://tc39.es/ecma262/#sec-async-from-sync-iterator-objects)

const unwrap = defineNativeClosure(
  "Array.fromAsync:AsyncFromSyncIteratorValueUnwrap",
  (realm, _this, args, _nt, self) => CreateIterResultObject(realm, args[0], self.slots!.done as boolean),
  1,
)

const closeIterator = defineNativeClosure(
  "Array.fromAsync:AsyncFromSyncIteratorCloseIterator",
  function* (realm, _this, args, _nt, self) {
    // IteratorClose(syncIteratorRecord, ThrowCompletion(error)): call return(), ignore its failure, rethrow.
    const iterator = self.slots!.iterator as JSObject
    try {
      const ret = yield* GetMethod(realm, iterator, "return")
      if (ret !== undefined) yield* Call(ret, iterator)
    } catch (e) {
      if (!isSandboxThrow(e)) throw e
    }
    throw new ThrowCompletion(args[0])
  },
  1,
)

// https://tc39.es/ecma262/#sec-%asyncfromsynciteratorprototype%.next
function* AsyncFromSyncIteratorNext(realm: Realm, syncIteratorRecord: IteratorRecord): Task<Value> {
  const capability = NewIntrinsicPromiseCapability(realm)
  try {
    const result = yield* IteratorNext(syncIteratorRecord)
    yield* AsyncFromSyncIteratorContinuation(realm, result, capability, syncIteratorRecord, true)
  } catch (e) {
    if (!isSandboxThrow(e)) throw e
    // IfAbruptRejectPromise.
    yield* Call(capability.reject, undefined, [toThrowCompletion(realm, e).value])
  }
  return capability.promise
}

// https://tc39.es/ecma262/#sec-asyncfromsynciteratorcontinuation
function* AsyncFromSyncIteratorContinuation(
  realm: Realm,
  result: JSObject,
  capability: PromiseCapability,
  syncIteratorRecord: IteratorRecord,
  closeOnRejection: boolean,
): Task<void> {
  const done = yield* IteratorComplete(result)
  const value = yield* IteratorValue(result)
  let valueWrapper: JSObject
  try {
    valueWrapper = yield* PromiseResolve(realm, realm.intrinsic("%Promise%"), value)
  } catch (e) {
    // 6. If valueWrapper is abrupt, done is false and closeOnRejection is true, close the sync iterator.
    if (!done && closeOnRejection && isSandboxThrow(e)) {
      try {
        yield* IteratorClose(realm, syncIteratorRecord)
      } catch (inner) {
        // The original throw completion wins.
        if (!isSandboxThrow(inner)) throw inner
      }
    }
    throw e
  }
  const fulfilled = unwrap(realm, { done })
  const rejected = done || !closeOnRejection ? undefined : closeIterator(realm, { iterator: syncIteratorRecord.iterator })
  PerformPromiseThen(realm, valueWrapper as PromiseObject, fulfilled, rejected, capability)
}
