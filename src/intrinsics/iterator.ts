/**
 * Iteration intrinsics (https://tc39.es/ecma262/#sec-iteration). %Iterator.prototype% comes first — it is also
 * registered as %IteratorPrototype% before anything else, because the generator, collection and array iterators
 * of later families hang from it. Then the abstract `Iterator` constructor, `Iterator.from` with
 * %WrapForValidIteratorPrototype%, and the iterator helpers on Iterator.prototype: the lazy ones (map, filter,
 * take, drop, flatMap) return helper objects of %IteratorHelperPrototype%, the eager ones (reduce, toArray,
 * forEach, some, every, find) consume their receiver.
 *
 * A helper object is the spec's generator-like closure written out as data: the underlying iterator record, the
 * callback, a counter, the take/drop budget, the inner iterator of flatMap and a generator-state enum all live in
 * fields, and each `next()`/`return()` is a Task native that runs one step of the closure. Nothing here holds a
 * host generator across calls, so a suspended run can be saved between any two `next()` calls.
 *
 * The built-in iterators over arrays and typed arrays (%ArrayIteratorPrototype%), strings (%StringIteratorPrototype%) and
 * `matchAll` results (%RegExpStringIteratorPrototype%) live here too; `CreateArrayIterator` and friends are what
 * the array, string and regexp families call.
 *
 * Iterator.prototype[Symbol.dispose] (explicit resource management) calls the iterator's `return`.
 */
import { defineAccessors, defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { SandboxError, ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { ToBoolean, ToIntegerOrInfinity, ToLength, ToNumber, ToString } from "../runtime/conversions.ts"
import { IsCallable } from "../runtime/function-object.ts"
import {
  CreateIterResultObject,
  DONE,
  IteratorClose,
  IteratorCloseOnThrow,
  IteratorComplete,
  IteratorNext,
  IteratorResultValue,
  IteratorStepValue,
  NOT_PLAIN,
  plainResultValue,
  type IteratorRecord,
} from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import {
  Call,
  CreateArrayFromList,
  CreateDataPropertyOrThrow,
  describeValue,
  GetMethod,
  LengthOfArrayLike,
  OrdinaryCreateFromConstructor,
  OrdinaryHasInstance,
  Set,
} from "../runtime/operations.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type PropertyKey, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { IsTypedArrayOutOfBounds, TypedArrayLength, TypedArrayObject } from "./bytes-objects.ts"
import { callRequest } from "./array-elements.ts"
import { AdvanceStringIndex, RegExpExec } from "./regexp.ts"

// ---------------------------------------------------------------------------------------------------------------
// Shared helpers

/** Is `e` a throw the sandbox can see (and so a reason to close iterators)? Terminations and engine bugs are not. */
export const isSandboxThrow = (e: unknown): boolean =>
  e instanceof ThrowCompletion || e instanceof SandboxError || (e instanceof RangeError && /call stack/i.test(e.message))

/** https://tc39.es/ecma262/#sec-ifabruptcloseiterator — for a caught throw: close `record`, then rethrow. */
export function* IfAbruptCloseIterator(realm: Realm, record: IteratorRecord, e: unknown): Task<never> {
  if (!isSandboxThrow(e)) throw e
  return yield* IteratorCloseOnThrow(realm, record, e)
}

// https://tc39.es/proposal-explicit-resource-management/#sec-%iteratorprototype%-@@dispose
function* IteratorProto_dispose(realm: Realm, thisArg: Value): Task<Value> {
  const ret = yield* GetMethod(realm, thisArg, "return")
  if (ret !== undefined) yield* Call(ret, thisArg)
  return undefined
}

/** A call of a function known to be callable, as a Task (what `Call` does, minus its callability check). */
function* callTask(f: JSObject, args: ReadonlyArray<Value>): Task<Value> {
  return yield callRequest(f, undefined, args)
}

/** Runs `task`; if it throws, closes `record` first (IfAbruptCloseIterator around one step). */
export function* closingOnThrow<T>(realm: Realm, record: IteratorRecord, task: Task<T>): Task<T> {
  try {
    return yield* task
  } catch (e) {
    return yield* IfAbruptCloseIterator(realm, record, e)
  }
}

/** V8's text for a value that should have been a callback: `number 1`, `string "x"`, `undefined`, `object`. */
export const callbackText = (v: Value): string => {
  if (v === undefined) return "undefined"
  if (v === null) return "object null"
  switch (typeof v) {
    case "number":
    case "boolean":
      return `${typeof v} ${String(v)}`
    case "string":
      return `string "${v}"`
    case "bigint":
      return "bigint"
  }
  return v instanceof JSObject ? describeValue(v) : "symbol"
}

export const requireCallback = (v: Value): JSObject => (IsCallable(v) ? v : throwTypeError(`${callbackText(v)} is not a function`))

const incompatible = (method: string, receiver: Value): never =>
  throwTypeError(`Method ${method} called on incompatible receiver ${describeValue(receiver)}`)

// https://tc39.es/ecma262/#sec-getiteratordirect
export function* GetIteratorDirect(obj: JSObject): Task<IteratorRecord> {
  const nextMethod = yield* obj.Get("next", obj)
  return { iterator: obj, nextMethod, done: false }
}

// https://tc39.es/ecma262/#sec-getiteratorflattenable
export function* GetIteratorFlattenable(
  realm: Realm,
  obj: Value,
  primitiveHandling: "iterate-string-primitives" | "reject-primitives",
): Task<IteratorRecord> {
  if (!(obj instanceof JSObject)) {
    if (primitiveHandling === "reject-primitives" || typeof obj !== "string") {
      return throwTypeError(`${describeValue(obj)} is not an object`)
    }
  }
  const method = yield* GetMethod(realm, obj, WellKnownSymbols.iterator)
  const iterator = method === undefined ? obj : yield* Call(method, obj)
  if (!(iterator instanceof JSObject)) return throwTypeError(`${describeValue(iterator)} is not an object`)
  return yield* GetIteratorDirect(iterator)
}

/**
 * IteratorStepValue with the common case inlined: `next` is called by yielding the call request directly, and a
 * result whose `done` and `value` are data properties is read without running [[Get]] Tasks. Anything else (a
 * non-callable `next`, a non-object result, accessors) takes the spec's path, with the same errors.
 */
export function* StepValue(record: IteratorRecord): Task<Value | typeof DONE> {
  const next = record.nextMethod
  if (!IsCallable(next)) return yield* IteratorStepValue(record)
  let result: Value
  try {
    result = yield callRequest(next, record.iterator, [])
  } catch (e) {
    record.done = true
    throw e
  }
  if (result instanceof JSObject) {
    const plain = plainResultValue(record, result)
    if (plain !== NOT_PLAIN) return plain
  }
  // Uncommon shapes: the spec's steps on this very result (done, then value, each a [[Get]]).
  return yield* IteratorResultValue(record, result)
}

/** https://tc39.es/ecma262/#sec-iteratorstep — like IteratorStepValue, but never reads `value`. */
function* IteratorStep(record: IteratorRecord): Task<boolean> {
  let done: boolean
  try {
    done = yield* IteratorComplete(yield* IteratorNext(record))
  } catch (e) {
    record.done = true
    throw e
  }
  if (done) record.done = true
  return !done
}

/** The receiver of an Iterator.prototype method (step 2 of each: "If O is not an Object, throw a TypeError"). */
const thisIteratorObject = (thisArg: Value, method: string): JSObject =>
  thisArg instanceof JSObject ? thisArg : throwTypeError(`Iterator.prototype.${method} called on non-object`)

/** A record for a receiver whose `next` has not been read yet (argument validation closes through it). */
const undirected = (O: JSObject): IteratorRecord => ({ iterator: O, nextMethod: undefined, done: false })

/** Throws `error` after closing `O` (steps "Let error be ThrowCompletion(...). Return ? IteratorClose(iterated, error)"). */
function* closeWithError(realm: Realm, O: JSObject, error: SandboxError): Task<never> {
  return yield* IteratorCloseOnThrow(realm, undirected(O), error)
}

/** Validates a callback argument of an Iterator.prototype method, closing the receiver when it is not callable. */
function* callbackOrClose(realm: Realm, O: JSObject, fn: Value): Task<JSObject> {
  if (IsCallable(fn)) return fn
  return yield* closeWithError(realm, O, new SandboxError("TypeError", `${callbackText(fn)} is not a function`))
}

// ---------------------------------------------------------------------------------------------------------------
// Iterator and %Iterator.prototype%

// https://tc39.es/ecma262/#sec-iterator-constructor
function* Iterator_(realm: Realm, _this: Value, _args: ReadonlyArray<Value>, newTarget: JSObject | undefined, self: JSObject): Task<Value> {
  // 1. If NewTarget is either undefined or the active function object, throw a TypeError exception.
  if (newTarget === undefined) return throwTypeError("Constructor Iterator requires 'new'")
  if (newTarget === self) return throwTypeError("Abstract class Iterator not directly constructable")
  // 2. Return ? OrdinaryCreateFromConstructor(NewTarget, "%Iterator.prototype%").
  return yield* OrdinaryCreateFromConstructor(realm, newTarget, "%Iterator.prototype%")
}

/** An object with [[Iterated]]: what Iterator.from wraps a non-Iterator iterator in. */
export class WrapForValidIteratorObject extends JSObject {
  readonly iterator: JSObject
  readonly nextMethod: Value
  constructor(proto: JSObject | null, record: IteratorRecord) {
    super(proto)
    this.kind = "WrapForValidIterator"
    this.iterator = record.iterator
    this.nextMethod = record.nextMethod
  }
}

// https://tc39.es/ecma262/#sec-iterator.from
function* Iterator_from(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = args[0]
  if (!(O instanceof JSObject) && typeof O !== "string") return throwTypeError("Iterator.from called on non-object")
  // 1. Let iteratorRecord be ? GetIteratorFlattenable(O, iterate-string-primitives).
  const record = yield* GetIteratorFlattenable(realm, O, "iterate-string-primitives")
  // 2-3. If ? OrdinaryHasInstance(%Iterator%, iteratorRecord.[[Iterator]]) is true, return it.
  if (yield* OrdinaryHasInstance(realm.intrinsic("%Iterator%"), record.iterator)) return record.iterator
  // 4-6. Wrap it.
  return new WrapForValidIteratorObject(realm.intrinsic("%WrapForValidIteratorPrototype%"), record)
}

const thisWrapper = (thisArg: Value, method: string): WrapForValidIteratorObject =>
  thisArg instanceof WrapForValidIteratorObject ? thisArg : incompatible(`%WrapForValidIteratorPrototype%.${method}`, thisArg)

// https://tc39.es/ecma262/#sec-%wrapforvaliditeratorprototype%.next
function* WrapForValidIteratorProto_next(_realm: Realm, thisArg: Value): Task<Value> {
  const O = thisWrapper(thisArg, "next")
  return yield* Call(O.nextMethod, O.iterator)
}

// https://tc39.es/ecma262/#sec-%wrapforvaliditeratorprototype%.return
function* WrapForValidIteratorProto_return(realm: Realm, thisArg: Value): Task<Value> {
  const O = thisWrapper(thisArg, "return")
  const returnMethod = yield* GetMethod(realm, O.iterator, "return")
  if (returnMethod === undefined) return CreateIterResultObject(realm, undefined, true)
  return yield* Call(returnMethod, O.iterator)
}

// https://tc39.es/ecma262/#sec-%iterator.prototype%-%symbol.iterator%
const IteratorProto_iterator = (_realm: Realm, thisArg: Value): Value => thisArg

// https://tc39.es/ecma262/#sec-SetterThatIgnoresPrototypeProperties
function* SetterThatIgnoresPrototypeProperties(realm: Realm, thisValue: Value, home: JSObject, p: PropertyKey, v: Value): Task<void> {
  if (!(thisValue instanceof JSObject)) return throwTypeError(`set Iterator.prototype.${typeof p === "string" ? p : "[Symbol.toStringTag]"} called on non-object`)
  if (thisValue === home) {
    const name = typeof p === "string" ? p : "Symbol(Symbol.toStringTag)"
    return throwTypeError(`Cannot assign to read only property '${name}' of object '[object Object]'`)
  }
  if (thisValue.GetOwnProperty(p) === undefined) CreateDataPropertyOrThrow(thisValue, p, v)
  else yield* Set(thisValue, p, v, true)
  void realm
}

// https://tc39.es/ecma262/#sec-get-iterator.prototype-%symbol.tostringtag%
const IteratorProto_get_toStringTag = (): Value => "Iterator"
function* IteratorProto_set_toStringTag(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  yield* SetterThatIgnoresPrototypeProperties(realm, thisArg, realm.intrinsic("%Iterator.prototype%"), WellKnownSymbols.toStringTag, args[0])
  return undefined
}

// https://tc39.es/ecma262/#sec-get-iterator.prototype.constructor
const IteratorProto_get_constructor = (realm: Realm): Value => realm.intrinsic("%Iterator%")
function* IteratorProto_set_constructor(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  yield* SetterThatIgnoresPrototypeProperties(realm, thisArg, realm.intrinsic("%Iterator.prototype%"), "constructor", args[0])
  return undefined
}

// ---------------------------------------------------------------------------------------------------------------
// Iterator helper objects (%IteratorHelperPrototype%)

type HelperKind = "map" | "filter" | "take" | "drop" | "flatMap"

/** The spec's [[GeneratorState]] of the helper's closure. */
type HelperState = "suspended-start" | "suspended-yield" | "executing" | "completed"

/** An Iterator Helper object: the closure of map/filter/take/drop/flatMap as data. */
export class IteratorHelperObject extends JSObject {
  readonly helperKind: HelperKind
  /** [[UnderlyingIterator]]: the iterator and its `next` method, read once. */
  readonly iterator: JSObject
  readonly nextMethod: Value
  /** The mapper or predicate (undefined for take/drop). */
  readonly fn: Value
  /** take/drop: how many values are still to take or drop (may be Infinity). */
  remaining: number
  counter = 0
  /** flatMap: the inner iterator being flattened, if any. */
  inner: JSObject | undefined = undefined
  innerNext: Value = undefined
  state: HelperState = "suspended-start"
  constructor(proto: JSObject | null, helperKind: HelperKind, record: IteratorRecord, fn: Value, remaining: number) {
    super(proto)
    this.kind = "Iterator Helper"
    this.helperKind = helperKind
    this.iterator = record.iterator
    this.nextMethod = record.nextMethod
    this.fn = fn
    this.remaining = remaining
  }
  underlying(): IteratorRecord {
    return { iterator: this.iterator, nextMethod: this.nextMethod, done: false }
  }
}

/** Runs the helper's closure up to its next Yield: the yielded value, or DONE when the closure returns. */
function* IteratorHelperStep(realm: Realm, O: IteratorHelperObject): Task<Value | typeof DONE> {
  const iterated = O.underlying()
  switch (O.helperKind) {
    // https://tc39.es/ecma262/#sec-iterator.prototype.map (closure, step 6)
    case "map": {
      const value = yield* StepValue(iterated)
      if (value === DONE) return DONE
      const mapped = yield* closingOnThrow(realm, iterated, callTask(O.fn as JSObject, [value, O.counter]))
      O.counter++
      return mapped
    }
    // https://tc39.es/ecma262/#sec-iterator.prototype.filter
    case "filter":
      for (;;) {
        const value = yield* StepValue(iterated)
        if (value === DONE) return DONE
        const selected = yield* closingOnThrow(realm, iterated, callTask(O.fn as JSObject, [value, O.counter]))
        O.counter++
        if (ToBoolean(selected)) return value
      }
    // https://tc39.es/ecma262/#sec-iterator.prototype.take
    case "take": {
      // i. If remaining = 0, return ? IteratorClose(iterated, ReturnCompletion(undefined)).
      if (O.remaining === 0) {
        yield* IteratorClose(realm, iterated)
        return DONE
      }
      if (O.remaining !== Infinity) O.remaining--
      return yield* StepValue(iterated)
    }
    // https://tc39.es/ecma262/#sec-iterator.prototype.drop
    case "drop": {
      // b. Repeat, while remaining > 0: drop a value without reading it (IteratorStep).
      while (O.remaining > 0) {
        if (O.remaining !== Infinity) O.remaining--
        if (!(yield* IteratorStep(iterated))) return DONE
      }
      return yield* StepValue(iterated)
    }
    // https://tc39.es/ecma262/#sec-iterator.prototype.flatmap
    case "flatMap":
      for (;;) {
        if (O.inner !== undefined) {
          // viii. Step the inner iterator; an abrupt completion closes the outer one.
          const inner: IteratorRecord = { iterator: O.inner, nextMethod: O.innerNext, done: false }
          const innerValue = yield* closingOnThrow(realm, iterated, StepValue(inner))
          if (innerValue !== DONE) return innerValue
          O.inner = undefined
          O.innerNext = undefined
          // ix. Set counter to counter + 1.
          O.counter++
        }
        const value = yield* StepValue(iterated)
        if (value === DONE) return DONE
        const mapped = yield* closingOnThrow(realm, iterated, callTask(O.fn as JSObject, [value, O.counter]))
        const inner = yield* closingOnThrow(realm, iterated, GetIteratorFlattenable(realm, mapped, "reject-primitives"))
        O.inner = inner.iterator
        O.innerNext = inner.nextMethod
      }
  }
}

const thisHelper = (thisArg: Value, method: string): IteratorHelperObject =>
  thisArg instanceof IteratorHelperObject ? thisArg : incompatible(`Iterator Helper.prototype.${method}`, thisArg)

// https://tc39.es/ecma262/#sec-%iteratorhelperprototype%.next (GeneratorResume with brand "Iterator Helper")
function* IteratorHelperProto_next(realm: Realm, thisArg: Value): Task<Value> {
  const O = thisHelper(thisArg, "next")
  if (O.state === "executing") return throwTypeError("Generator is already running")
  if (O.state === "completed") return CreateIterResultObject(realm, undefined, true)
  O.state = "executing"
  let result: Value | typeof DONE
  try {
    result = yield* IteratorHelperStep(realm, O)
  } catch (e) {
    O.state = "completed"
    throw e
  }
  if (result === DONE) {
    O.state = "completed"
    O.inner = undefined
    return CreateIterResultObject(realm, undefined, true)
  }
  O.state = "suspended-yield"
  return CreateIterResultObject(realm, result, false)
}

// https://tc39.es/ecma262/#sec-%iteratorhelperprototype%.return
function* IteratorHelperProto_return(realm: Realm, thisArg: Value): Task<Value> {
  const O = thisHelper(thisArg, "return")
  if (O.state === "executing") return throwTypeError("Generator is already running")
  if (O.state === "completed") return CreateIterResultObject(realm, undefined, true)
  const iterated = O.underlying()
  if (O.state === "suspended-start") {
    // 4. Set the state to completed first, then close the underlying iterator.
    O.state = "completed"
    yield* IteratorClose(realm, iterated)
    return CreateIterResultObject(realm, undefined, true)
  }
  // 5. GeneratorResumeAbrupt with a return completion: the pending Yield closes what the closure holds.
  O.state = "executing"
  try {
    if (O.inner !== undefined) {
      // flatMap: close the inner iterator, then the outer one (IfAbruptCloseIterator on the inner failure).
      const inner: IteratorRecord = { iterator: O.inner, nextMethod: O.innerNext, done: false }
      O.inner = undefined
      O.innerNext = undefined
      yield* closingOnThrow(realm, iterated, IteratorClose(realm, inner))
    }
    yield* IteratorClose(realm, iterated)
  } finally {
    O.state = "completed"
  }
  return CreateIterResultObject(realm, undefined, true)
}

// ---------------------------------------------------------------------------------------------------------------
// Iterator.prototype methods

/** Shared prologue of map/filter/flatMap: validate the callback (closing O if it is not callable), read `next`. */
function* lazyHelper(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>, kind: "map" | "filter" | "flatMap"): Task<Value> {
  const O = thisIteratorObject(thisArg, kind)
  const fn = yield* callbackOrClose(realm, O, args[0])
  const iterated = yield* GetIteratorDirect(O)
  return new IteratorHelperObject(realm.intrinsic("%IteratorHelperPrototype%"), kind, iterated, fn, 0)
}

// https://tc39.es/ecma262/#sec-iterator.prototype.map
const IteratorProto_map = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => lazyHelper(realm, thisArg, args, "map")
// https://tc39.es/ecma262/#sec-iterator.prototype.filter
const IteratorProto_filter = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => lazyHelper(realm, thisArg, args, "filter")
// https://tc39.es/ecma262/#sec-iterator.prototype.flatmap
const IteratorProto_flatMap = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => lazyHelper(realm, thisArg, args, "flatMap")

/** Shared prologue of take/drop (steps 4-9): the integer limit, closing O on a bad one. */
function* limitHelper(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>, kind: "take" | "drop"): Task<Value> {
  const O = thisIteratorObject(thisArg, kind)
  const limit = args[0]
  // 4-5. Let numLimit be Completion(ToNumber(limit)). IfAbruptCloseIterator(numLimit, iterated).
  const numLimit = typeof limit === "number" ? limit : yield* closingOnThrow(realm, undirected(O), ToNumber(realm, limit))
  // 6. If numLimit is NaN, throw a RangeError (after closing).
  if (numLimit !== numLimit) {
    return yield* closeWithError(realm, O, new SandboxError("RangeError", `${typeof limit === "string" ? limit : String(numLimit)} must be positive`))
  }
  // 7-8. Let integerLimit be ! ToIntegerOrInfinity(numLimit); a negative one is a RangeError.
  const integerLimit = yield* ToIntegerOrInfinity(realm, numLimit)
  if (integerLimit < 0) return yield* closeWithError(realm, O, new SandboxError("RangeError", `${String(numLimit)} must be positive`))
  const iterated = yield* GetIteratorDirect(O)
  return new IteratorHelperObject(realm.intrinsic("%IteratorHelperPrototype%"), kind, iterated, undefined, integerLimit)
}

// https://tc39.es/ecma262/#sec-iterator.prototype.take
const IteratorProto_take = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => limitHelper(realm, thisArg, args, "take")
// https://tc39.es/ecma262/#sec-iterator.prototype.drop
const IteratorProto_drop = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => limitHelper(realm, thisArg, args, "drop")

// https://tc39.es/ecma262/#sec-iterator.prototype.reduce
function* IteratorProto_reduce(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisIteratorObject(thisArg, "reduce")
  const reducer = yield* callbackOrClose(realm, O, args[0])
  const iterated = yield* GetIteratorDirect(O)
  let accumulator: Value
  let counter: number
  if (args.length < 2) {
    // 6. If initialValue is not present: the first value is the accumulator.
    const first = yield* StepValue(iterated)
    if (first === DONE) return throwTypeError("Reduce of a done iterator with no initial value")
    accumulator = first
    counter = 1
  } else {
    accumulator = args[1]
    counter = 0
  }
  for (;;) {
    const value = yield* StepValue(iterated)
    if (value === DONE) return accumulator
    accumulator = yield* closingOnThrow(realm, iterated, Call(reducer, undefined, [accumulator, value, counter]))
    counter++
  }
}

// https://tc39.es/ecma262/#sec-iterator.prototype.toarray
function* IteratorProto_toArray(realm: Realm, thisArg: Value): Task<Value> {
  const O = thisIteratorObject(thisArg, "toArray")
  const iterated = yield* GetIteratorDirect(O)
  const items: Value[] = []
  for (;;) {
    const value = yield* StepValue(iterated)
    if (value === DONE) return CreateArrayFromList(realm, items)
    items.push(value)
  }
}

// https://tc39.es/ecma262/#sec-iterator.prototype.foreach
function* IteratorProto_forEach(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisIteratorObject(thisArg, "forEach")
  const procedure = yield* callbackOrClose(realm, O, args[0])
  const iterated = yield* GetIteratorDirect(O)
  for (let counter = 0; ; counter++) {
    const value = yield* StepValue(iterated)
    if (value === DONE) return undefined
    yield* closingOnThrow(realm, iterated, Call(procedure, undefined, [value, counter]))
  }
}

/** some/every/find: run the predicate until `stop(result)`, then close the iterator and answer. */
function* searchIterator(
  realm: Realm,
  thisArg: Value,
  args: ReadonlyArray<Value>,
  method: "some" | "every" | "find",
): Task<Value> {
  const O = thisIteratorObject(thisArg, method)
  const predicate = yield* callbackOrClose(realm, O, args[0])
  const iterated = yield* GetIteratorDirect(O)
  for (let counter = 0; ; counter++) {
    const value = yield* StepValue(iterated)
    if (value === DONE) return method === "some" ? false : method === "every" ? true : undefined
    const result = ToBoolean(yield* closingOnThrow(realm, iterated, Call(predicate, undefined, [value, counter])))
    if (result !== (method === "every")) {
      // Return ? IteratorClose(iterated, NormalCompletion(...)).
      yield* IteratorClose(realm, iterated)
      return method === "some" ? true : method === "every" ? false : value
    }
  }
}

// https://tc39.es/ecma262/#sec-iterator.prototype.some
const IteratorProto_some = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => searchIterator(realm, thisArg, args, "some")
// https://tc39.es/ecma262/#sec-iterator.prototype.every
const IteratorProto_every = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => searchIterator(realm, thisArg, args, "every")
// https://tc39.es/ecma262/#sec-iterator.prototype.find
const IteratorProto_find = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => searchIterator(realm, thisArg, args, "find")

// ---------------------------------------------------------------------------------------------------------------
// Array iterators (https://tc39.es/ecma262/#sec-array-iterator-objects)

export type ArrayIterationKind = "key" | "value" | "key+value"

export class ArrayIteratorObject extends JSObject {
  /** The array-like iterated; undefined once the iteration has finished (it never resumes). */
  iterated: JSObject | undefined
  nextIndex = 0
  readonly iterationKind: ArrayIterationKind
  constructor(proto: JSObject | null, iterated: JSObject, iterationKind: ArrayIterationKind) {
    super(proto)
    this.kind = "Array Iterator"
    this.iterated = iterated
    this.iterationKind = iterationKind
  }
}

// https://tc39.es/ecma262/#sec-createarrayiterator
export const CreateArrayIterator = (realm: Realm, array: JSObject, kind: ArrayIterationKind): ArrayIteratorObject =>
  new ArrayIteratorObject(realm.intrinsic("%ArrayIteratorPrototype%"), array, kind)

// https://tc39.es/ecma262/#sec-%arrayiteratorprototype%.next
function* ArrayIteratorProto_next(realm: Realm, thisArg: Value): Task<Value> {
  if (!(thisArg instanceof ArrayIteratorObject)) return incompatible("Array Iterator.prototype.next", thisArg)
  const a = thisArg.iterated
  if (a === undefined) return CreateIterResultObject(realm, undefined, true)
  const index = thisArg.nextIndex
  let len: number
  if (a instanceof ArrayObject) len = a.length
  else if (a instanceof TypedArrayObject) {
    // A typed array's length comes from its buffer, which must still be attached and in bounds.
    if (IsTypedArrayOutOfBounds(a)) return throwTypeError("Cannot perform Array Iterator.prototype.next on a detached ArrayBuffer")
    len = TypedArrayLength(a)
  } else len = yield* LengthOfArrayLike(realm, a)
  if (index >= len) {
    thisArg.iterated = undefined
    return CreateIterResultObject(realm, undefined, true)
  }
  thisArg.nextIndex = index + 1
  if (thisArg.iterationKind === "key") return CreateIterResultObject(realm, index, false)
  let element: Value
  const fast = a instanceof ArrayObject ? a.getOwnElement(index) : undefined
  if (fast !== undefined && fast !== EMPTY) element = fast
  else element = yield* a.Get(String(index), a)
  if (thisArg.iterationKind === "value") return CreateIterResultObject(realm, element, false)
  return CreateIterResultObject(realm, CreateArrayFromList(realm, [index, element]), false)
}

// ---------------------------------------------------------------------------------------------------------------
// String iterators (https://tc39.es/ecma262/#sec-string-iterator-objects)

export class StringIteratorObject extends JSObject {
  /** The string iterated; undefined once finished. */
  iterated: string | undefined
  position = 0
  constructor(proto: JSObject | null, iterated: string) {
    super(proto)
    this.kind = "String Iterator"
    this.iterated = iterated
  }
}

// https://tc39.es/ecma262/#sec-createstringiterator (the closure of String.prototype[@@iterator])
export const CreateStringIterator = (realm: Realm, s: string): StringIteratorObject =>
  new StringIteratorObject(realm.intrinsic("%StringIteratorPrototype%"), s)

// https://tc39.es/ecma262/#sec-%stringiteratorprototype%.next
const StringIteratorProto_next = (realm: Realm, thisArg: Value): Value => {
  if (!(thisArg instanceof StringIteratorObject)) return incompatible("String Iterator.prototype.next", thisArg)
  const s = thisArg.iterated
  if (s === undefined) return CreateIterResultObject(realm, undefined, true)
  const position = thisArg.position
  if (position >= s.length) {
    thisArg.iterated = undefined
    return CreateIterResultObject(realm, undefined, true)
  }
  // CodePointAt: a lead surrogate followed by a trail surrogate is one code point of two code units.
  const cp = s.codePointAt(position)!
  const size = cp > 0xffff ? 2 : 1
  thisArg.position = position + size
  return CreateIterResultObject(realm, s.slice(position, position + size), false)
}

// ---------------------------------------------------------------------------------------------------------------
// RegExp string iterators (https://tc39.es/ecma262/#sec-regexp-string-iterator-objects)

export class RegExpStringIteratorObject extends JSObject {
  readonly iteratingRegExp: JSObject
  readonly iteratedString: string
  readonly global: boolean
  readonly fullUnicode: boolean
  done = false
  constructor(proto: JSObject | null, R: JSObject, S: string, global: boolean, fullUnicode: boolean) {
    super(proto)
    this.kind = "RegExp String Iterator"
    this.iteratingRegExp = R
    this.iteratedString = S
    this.global = global
    this.fullUnicode = fullUnicode
  }
}

// https://tc39.es/ecma262/#sec-createregexpstringiterator
export const CreateRegExpStringIterator = (realm: Realm, R: JSObject, S: string, global: boolean, fullUnicode: boolean): JSObject =>
  new RegExpStringIteratorObject(realm.intrinsic("%RegExpStringIteratorPrototype%"), R, S, global, fullUnicode)

// https://tc39.es/ecma262/#sec-%regexpstringiteratorprototype%.next
function* RegExpStringIteratorProto_next(realm: Realm, thisArg: Value): Task<Value> {
  if (!(thisArg instanceof RegExpStringIteratorObject)) return incompatible("%RegExpStringIterator%.prototype.next", thisArg)
  if (thisArg.done) return CreateIterResultObject(realm, undefined, true)
  const R = thisArg.iteratingRegExp
  const S = thisArg.iteratedString
  const match = yield* RegExpExec(realm, R, S)
  if (match === null) {
    thisArg.done = true
    return CreateIterResultObject(realm, undefined, true)
  }
  if (!thisArg.global) {
    thisArg.done = true
    return CreateIterResultObject(realm, match, false)
  }
  // An empty match advances lastIndex by one (code point), so the iteration always progresses.
  const matchStr = yield* ToString(realm, yield* match.Get("0", match))
  if (matchStr === "") {
    const thisIndex = yield* ToLength(realm, yield* R.Get("lastIndex", R))
    yield* Set(R, "lastIndex", AdvanceStringIndex(S, thisIndex, thisArg.fullUnicode), true)
  }
  return CreateIterResultObject(realm, match, false)
}

// ---------------------------------------------------------------------------------------------------------------

const tag = (target: JSObject, value: string): void =>
  defineValues(target, [[WellKnownSymbols.toStringTag, value]], { writable: false, enumerable: false, configurable: true })

export const install = (realm: Realm): void => {
  // %Iterator.prototype% first: every other iterator prototype (generators, collections...) inherits from it.
  const IteratorPrototype = new JSObject(realm.ObjectPrototype)
  realm.register("%IteratorPrototype%", IteratorPrototype)
  const IteratorCtor = defineConstructor(realm, "Iterator", Iterator_, 0, IteratorPrototype)
  defineMethods(realm, IteratorCtor, "%Iterator%", [["from", Iterator_from, 1]])
  // V8's property order (a program can list them): reduce, toArray, forEach, some, every, find, then the lazy ones.
  defineMethods(realm, IteratorPrototype, "%Iterator.prototype%", [
    ["reduce", IteratorProto_reduce, 1],
    ["toArray", IteratorProto_toArray, 0],
    ["forEach", IteratorProto_forEach, 1],
    ["some", IteratorProto_some, 1],
    ["every", IteratorProto_every, 1],
    ["find", IteratorProto_find, 1],
    ["map", IteratorProto_map, 1],
    ["filter", IteratorProto_filter, 1],
    ["take", IteratorProto_take, 1],
    ["drop", IteratorProto_drop, 1],
    ["flatMap", IteratorProto_flatMap, 1],
    [WellKnownSymbols.iterator, IteratorProto_iterator, 0],
  ])
  // Iterator.prototype.constructor and [@@toStringTag] are accessors (web compatibility), not data properties.
  defineAccessors(realm, IteratorPrototype, "%Iterator.prototype%", [
    ["constructor", IteratorProto_get_constructor, IteratorProto_set_constructor],
    [WellKnownSymbols.toStringTag, IteratorProto_get_toStringTag, IteratorProto_set_toStringTag],
  ])
  defineMethods(realm, IteratorPrototype, "%Iterator.prototype%", [[WellKnownSymbols.dispose, IteratorProto_dispose, 0]])

  // https://tc39.es/ecma262/#sec-%wrapforvaliditeratorprototype%-object
  const WrapForValidIteratorPrototype = new JSObject(IteratorPrototype)
  realm.register("%WrapForValidIteratorPrototype%", WrapForValidIteratorPrototype)
  defineMethods(realm, WrapForValidIteratorPrototype, "%WrapForValidIteratorPrototype%", [
    ["next", WrapForValidIteratorProto_next, 0],
    ["return", WrapForValidIteratorProto_return, 0],
  ])

  // https://tc39.es/ecma262/#sec-%iteratorhelperprototype%-object
  const IteratorHelperPrototype = new JSObject(IteratorPrototype)
  realm.register("%IteratorHelperPrototype%", IteratorHelperPrototype)
  defineMethods(realm, IteratorHelperPrototype, "%IteratorHelperPrototype%", [
    ["next", IteratorHelperProto_next, 0],
    ["return", IteratorHelperProto_return, 0],
  ])
  tag(IteratorHelperPrototype, "Iterator Helper")

  // https://tc39.es/ecma262/#sec-%arrayiteratorprototype%-object
  const ArrayIteratorPrototype = new JSObject(IteratorPrototype)
  realm.register("%ArrayIteratorPrototype%", ArrayIteratorPrototype)
  defineMethods(realm, ArrayIteratorPrototype, "%ArrayIteratorPrototype%", [["next", ArrayIteratorProto_next, 0]])
  tag(ArrayIteratorPrototype, "Array Iterator")

  // https://tc39.es/ecma262/#sec-%stringiteratorprototype%-object
  const StringIteratorPrototype = new JSObject(IteratorPrototype)
  realm.register("%StringIteratorPrototype%", StringIteratorPrototype)
  defineMethods(realm, StringIteratorPrototype, "%StringIteratorPrototype%", [["next", StringIteratorProto_next, 0]])
  tag(StringIteratorPrototype, "String Iterator")

  // https://tc39.es/ecma262/#sec-%regexpstringiteratorprototype%-object
  const RegExpStringIteratorPrototype = new JSObject(IteratorPrototype)
  realm.register("%RegExpStringIteratorPrototype%", RegExpStringIteratorPrototype)
  defineMethods(realm, RegExpStringIteratorPrototype, "%RegExpStringIteratorPrototype%", [
    ["next", RegExpStringIteratorProto_next, 0],
  ])
  tag(RegExpStringIteratorPrototype, "RegExp String Iterator")
}

