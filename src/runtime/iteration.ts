/**
 * The iterator protocol (https://tc39.es/ecma262/#sec-operations-on-iterator-objects) for synchronous iterators.
 * Built-ins iterate through these; the engines' for-of and spread use the same records. Async iteration
 * (CreateAsyncFromSyncIterator, AsyncIteratorClose) needs promises and awaits and lives with them.
 */
import { SandboxError, ThrowCompletion, throwTypeError } from "./completion.ts"
import { JSObject } from "./object.ts"
import { slotValue } from "./property-store.ts"
import { Property } from "./property.ts"
import { Call, CreateDataProperty, GetMethod, describeValue } from "./operations.ts"
import { notIterableValue } from "./not-iterable.ts"
import type { Realm } from "./realm.ts"
import { checkArrayStorage } from "./caps.ts"
import type { Task } from "./task.ts"
import { ToBoolean } from "./conversions.ts"
import { type Value, WellKnownSymbols } from "./value.ts"

/** https://tc39.es/ecma262/#sec-iterator-records */
export interface IteratorRecord {
  readonly iterator: JSObject
  readonly nextMethod: Value
  done: boolean
}

// https://tc39.es/ecma262/#sec-getiteratorfrommethod
export function* GetIteratorFromMethod(realm: Realm, obj: Value, method: Value): Task<IteratorRecord> {
  void realm
  const iterator = yield* Call(method, obj)
  if (!(iterator instanceof JSObject)) return throwTypeError("Result of the Symbol.iterator method is not an object")
  const nextMethod = yield* iterator.Get("next", iterator)
  return { iterator, nextMethod, done: false }
}

// https://tc39.es/ecma262/#sec-getiterator (kind sync)
export function* GetIterator(realm: Realm, obj: Value): Task<IteratorRecord> {
  // A built-in's iterable argument: V8 describes the value by its type, null and undefined too (before the lookup).
  if (obj === undefined || obj === null) return throwTypeError(notIterableValue(obj))
  const method = yield* GetMethod(realm, obj, WellKnownSymbols.iterator)
  if (method === undefined) return throwTypeError(notIterableValue(obj))
  return yield* GetIteratorFromMethod(realm, obj, method)
}

// https://tc39.es/ecma262/#sec-iteratornext
export function* IteratorNext(record: IteratorRecord, value?: Value): Task<JSObject> {
  const result = yield* Call(record.nextMethod, record.iterator, value === undefined ? [] : [value])
  if (!(result instanceof JSObject)) {
    record.done = true
    return throwTypeError(`Iterator result ${describeValue(result)} is not an object`)
  }
  return result
}

// https://tc39.es/ecma262/#sec-iteratorcomplete
export function* IteratorComplete(iterResult: JSObject): Task<boolean> {
  return ToBoolean(yield* iterResult.Get("done", iterResult))
}

// https://tc39.es/ecma262/#sec-iteratorvalue
export function* IteratorValue(iterResult: JSObject): Task<Value> {
  return yield* iterResult.Get("value", iterResult)
}

/** https://tc39.es/ecma262/#sec-iteratorstepvalue — the next value, or `DONE`. */
export const DONE: unique symbol = Symbol("done")
export function* IteratorStepValue(record: IteratorRecord): Task<Value | typeof DONE> {
  let result: JSObject
  try {
    result = yield* IteratorNext(record)
  } catch (e) {
    record.done = true
    throw e
  }
  return yield* IteratorResultValue(record, result)
}

/**
 * IteratorStepValue's steps after IteratorNext, on the result `next` returned: a TypeError unless it is an
 * object, then IteratorComplete and IteratorValue (each a [[Get]]). Anything abrupt marks the record done.
 */
export function* IteratorResultValue(record: IteratorRecord, result: Value): Task<Value | typeof DONE> {
  if (!(result instanceof JSObject)) {
    record.done = true
    return throwTypeError(`Iterator result ${describeValue(result)} is not an object`)
  }
  let done: boolean
  try {
    done = yield* IteratorComplete(result)
  } catch (e) {
    record.done = true
    throw e
  }
  if (done) {
    record.done = true
    return DONE
  }
  try {
    return yield* IteratorValue(result)
  } catch (e) {
    record.done = true
    throw e
  }
}

/** `plainResultValue` of a result with an accessor for `done` or `value`: its [[Get]]s may run program code. */
export const NOT_PLAIN: unique symbol = Symbol("not plain")

/**
 * IteratorResultValue of the common result, without Tasks: an object whose `done` and `value` are data properties
 * (or absent), whose reads no program can observe. NOT_PLAIN when either is an accessor (take the Task then).
 */
export const plainResultValue = (record: IteratorRecord, result: JSObject): Value | typeof DONE | typeof NOT_PLAIN => {
  const d = result.lookupSlot("done")
  const v = result.lookupSlot("value")
  if ((d instanceof Property && d.accessor) || (v instanceof Property && v.accessor)) return NOT_PLAIN
  if (ToBoolean(slotValue(d))) {
    record.done = true
    return DONE
  }
  return slotValue(v)
}

/**
 * https://tc39.es/ecma262/#sec-iteratorclose — for a normal completion. For a throw completion call
 * `IteratorCloseOnThrow`, which swallows errors from `return` and rethrows the original.
 */
export function* IteratorClose(realm: Realm, record: IteratorRecord): Task<void> {
  const iterator = record.iterator
  const ret = yield* GetMethod(realm, iterator, "return")
  if (ret === undefined) return
  const innerResult = yield* Call(ret, iterator)
  if (!(innerResult instanceof JSObject)) throwTypeError("Iterator result is not an object")
}

export function* IteratorCloseOnThrow(realm: Realm, record: IteratorRecord, error: unknown): Task<never> {
  try {
    const ret = yield* GetMethod(realm, record.iterator, "return")
    if (ret !== undefined) yield* Call(ret, record.iterator)
  } catch (inner) {
    if (!(inner instanceof ThrowCompletion) && !(inner instanceof SandboxError)) throw inner
  }
  throw error
}


// https://tc39.es/ecma262/#sec-createiterresultobject
export const CreateIterResultObject = (realm: Realm, value: Value, done: boolean): JSObject => {
  const obj = new JSObject(realm.ObjectPrototype)
  CreateDataProperty(obj, "value", value)
  CreateDataProperty(obj, "done", done)
  return obj
}

// https://tc39.es/ecma262/#sec-iteratortolist
export function* IteratorToList(record: IteratorRecord): Task<Value[]> {
  const values: Value[] = []
  for (;;) {
    const next = yield* IteratorStepValue(record)
    if (next === DONE) return values
    values.push(next)
    checkArrayStorage(values.length)
  }
}

/** Iterates an iterable into a list (https://tc39.es/ecma262/#sec-iterabletolist). */
export function* IterableToList(realm: Realm, items: Value, method?: Value): Task<Value[]> {
  const record = method === undefined ? yield* GetIterator(realm, items) : yield* GetIteratorFromMethod(realm, items, method)
  return yield* IteratorToList(record)
}

