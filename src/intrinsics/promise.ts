/**
 * The Promise constructor, its statics and Promise.prototype (https://tc39.es/ecma262/#sec-promise-objects), on
 * the abstract operations of src/runtime/promise.ts (NewPromiseCapability, PromiseResolve, PerformPromiseThen,
 * CreateResolvingFunctions). Everything that may run user code — executors, thenables' `then`, species
 * constructors, `resolve` lookups, iteration — is a Task, so microtask ordering is exactly the spec's (and V8's).
 *
 * The per-call closures (finally's thenFinally/catchFinally and their thunks, the element functions of
 * all/allSettled/any) are `defineNativeClosure` kinds whose state lives in slots: the values or errors list is a
 * sandbox array object, and the remaining-elements counter is a shared null-prototype record object with a
 * `count` data property, so a pending combinator is plain data like the rest of the heap.
 */
import { chargeMemory, Cost } from "../runtime/memory.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { defineAccessors, defineConstructor, defineMethods, defineNativeClosure, defineValues } from "../runtime/builtin.ts"
import { checkArrayStorage } from "../runtime/caps.ts"
import { ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { CreateErrorObject, toThrowCompletion } from "../runtime/errors.ts"
import { IsCallable, type NativeFunction } from "../runtime/function-object.ts"
import { DONE, GetIterator, IteratorCloseOnThrow, type IteratorRecord, IteratorStepValue } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import {
  Call,
  CreateArrayFromList,
  CreateDataPropertyOrThrow,
  CreateNonEnumerableDataPropertyOrThrow,
  describeValue,
  GetPrototypeFromConstructor,
  Invoke,
  SpeciesConstructor,
} from "../runtime/operations.ts"
import {
  CreateResolvingFunctions,
  IsPromise,
  NewPromiseCapability,
  NewPromiseObject,
  PerformPromiseThen,
  type PromiseCapability,
  PromiseResolve,
} from "../runtime/promise.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type Value, WellKnownSymbols } from "../runtime/value.ts"

/** IfAbruptRejectPromise (https://tc39.es/ecma262/#sec-ifabruptrejectpromise): the rejection, as a Task step. */
function* RejectWith(realm: Realm, capability: PromiseCapability, e: unknown): Task<JSObject> {
  const reason = toThrowCompletion(realm, e).value
  yield* Call(capability.reject, undefined, [reason])
  return capability.promise
}

/**
 * Steps 9.a-b of Promise.all and its siblings: on an abrupt completion, close the iterator unless it is done (a
 * throw from `return` loses to the original one), then reject.
 */
function* CloseAndReject(realm: Realm, iteratorRecord: IteratorRecord, capability: PromiseCapability, e: unknown): Task<JSObject> {
  let error = e
  if (!iteratorRecord.done) {
    try {
      yield* IteratorCloseOnThrow(realm, iteratorRecord, e)
    } catch (closeError) {
      error = closeError
    }
  }
  return yield* RejectWith(realm, capability, error)
}

// https://tc39.es/ecma262/#sec-promise-executor
function* Promise_constructor(realm: Realm, _this: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  if (newTarget === undefined) return throwTypeError("Promise constructor cannot be invoked without 'new'")
  const executor = args[0]
  if (!IsCallable(executor)) return throwTypeError(`Promise resolver ${describeValue(executor)} is not a function`)
  const proto = yield* GetPrototypeFromConstructor(realm, newTarget, "%Promise.prototype%")
  const promise = NewPromiseObject(realm, proto)
  const { resolve, reject } = CreateResolvingFunctions(realm, promise)
  try {
    yield* Call(executor, undefined, [resolve, reject])
  } catch (e) {
    yield* Call(reject, undefined, [toThrowCompletion(realm, e).value])
  }
  return promise
}

// https://tc39.es/ecma262/#sec-promise.prototype.then
function* PromiseProto_then(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const promise = thisArg
  if (!IsPromise(promise)) {
    return throwTypeError(`Method Promise.prototype.then called on incompatible receiver ${describeValue(promise)}`)
  }
  const C = yield* SpeciesConstructor(promise, realm.intrinsic("%Promise%"))
  const resultCapability = yield* NewPromiseCapability(realm, C)
  PerformPromiseThen(realm, promise, args[0], args[1], resultCapability)
  return resultCapability.promise
}

// https://tc39.es/ecma262/#sec-promise.prototype.catch
function* PromiseProto_catch(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  return yield* Invoke(realm, thisArg, "then", [undefined, args[0]])
}

/** The thunk `() => value` of thenFinally (step 3.a.iii of Promise.prototype.finally). */
const makeValueThunk = defineNativeClosure("PromiseFinallyValueThunk", (_realm, _this, _args, _nt, self) => self.slots!.value as Value, 0)

/** The thrower `() => throw reason` of catchFinally (step 3.b.iii). */
const makeThrower = defineNativeClosure(
  "PromiseFinallyThrower",
  (_realm, _this, _args, _nt, self): Value => {
    throw toThrowCompletionValue(self.slots!.reason as Value)
  },
  0,
)

/** A ThrowCompletion of an existing sandbox value. */
const toThrowCompletionValue = (v: Value): ThrowCompletion => new ThrowCompletion(v)

/** thenFinally (step 3.a): run onFinally, wait for its result, then pass the value through. */
const makeThenFinally = defineNativeClosure(
  "PromiseThenFinally",
  function* (realm, _this, args, _nt, self) {
    const { onFinally, C } = self.slots! as { onFinally: Value; C: JSObject }
    const result = yield* Call(onFinally, undefined, [])
    const p = yield* PromiseResolve(realm, C, result)
    const returnValue = makeValueThunk(realm, { value: args[0] })
    return yield* Invoke(realm, p, "then", [returnValue])
  },
  1,
)

/** catchFinally (step 3.b): run onFinally, wait for its result, then rethrow the reason. */
const makeCatchFinally = defineNativeClosure(
  "PromiseCatchFinally",
  function* (realm, _this, args, _nt, self) {
    const { onFinally, C } = self.slots! as { onFinally: Value; C: JSObject }
    const result = yield* Call(onFinally, undefined, [])
    const p = yield* PromiseResolve(realm, C, result)
    const thrower = makeThrower(realm, { reason: args[0] })
    return yield* Invoke(realm, p, "then", [thrower])
  },
  1,
)

// https://tc39.es/ecma262/#sec-promise.prototype.finally
function* PromiseProto_finally(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const promise = thisArg
  if (!(promise instanceof JSObject)) {
    return throwTypeError(`Method Promise.prototype.finally called on incompatible receiver ${describeValue(promise)}`)
  }
  const C = yield* SpeciesConstructor(promise, realm.intrinsic("%Promise%"))
  const onFinally = args[0]
  let thenFinally: Value
  let catchFinally: Value
  if (!IsCallable(onFinally)) {
    thenFinally = onFinally
    catchFinally = onFinally
  } else {
    thenFinally = makeThenFinally(realm, { onFinally, C })
    catchFinally = makeCatchFinally(realm, { onFinally, C })
  }
  return yield* Invoke(realm, promise, "then", [thenFinally, catchFinally])
}

/** `this` of a static, which must be an object (a constructor, checked by NewPromiseCapability). */
const requireConstructorThis = (C: Value, method: string): JSObject => {
  if (!(C instanceof JSObject)) return throwTypeError(`${method} called on non-object`)
  return C
}

// https://tc39.es/ecma262/#sec-promise.resolve
function* Promise_resolve(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  if (!(thisArg instanceof JSObject)) return throwTypeError("PromiseResolve called on non-object")
  return yield* PromiseResolve(realm, thisArg, args[0])
}

// https://tc39.es/ecma262/#sec-promise.reject
function* Promise_reject(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const C = requireConstructorThis(thisArg, "Promise.reject")
  const promiseCapability = yield* NewPromiseCapability(realm, C)
  yield* Call(promiseCapability.reject, undefined, [args[0]])
  return promiseCapability.promise
}

// https://tc39.es/ecma262/#sec-promise.withResolvers
function* Promise_withResolvers(realm: Realm, thisArg: Value): Task<Value> {
  const C = requireConstructorThis(thisArg, "Promise.withResolvers")
  const promiseCapability = yield* NewPromiseCapability(realm, C)
  const obj = new JSObject(realm.ObjectPrototype)
  CreateDataPropertyOrThrow(obj, "promise", promiseCapability.promise)
  CreateDataPropertyOrThrow(obj, "resolve", promiseCapability.resolve)
  CreateDataPropertyOrThrow(obj, "reject", promiseCapability.reject)
  return obj
}

// https://tc39.es/ecma262/#sec-promise.try
function* Promise_try(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const C = requireConstructorThis(thisArg, "Promise.try")
  const promiseCapability = yield* NewPromiseCapability(realm, C)
  let status: Value
  try {
    status = yield* Call(args[0], undefined, args.slice(1))
  } catch (e) {
    return yield* RejectWith(realm, promiseCapability, e)
  }
  yield* Call(promiseCapability.resolve, undefined, [status])
  return promiseCapability.promise
}

// https://tc39.es/ecma262/#sec-getpromiseresolve
function* GetPromiseResolve(promiseConstructor: JSObject): Task<JSObject> {
  const promiseResolve = yield* promiseConstructor.Get("resolve", promiseConstructor)
  if (!IsCallable(promiseResolve)) return throwTypeError("Promise resolve or reject function is not callable")
  return promiseResolve
}

// --- The element closures of all / allSettled / any --------------------------------------------------------------

/** The shared remaining-elements counter: a null-prototype record object holding `count`. */
const newCounter = (): JSObject => {
  const r = new JSObject(null)
  r.properties.set("count", Property.data(1))
  return r
}
/** Decrements the counter; true when it reached zero. */
const decrement = (counter: JSObject): boolean => {
  const p = counter.properties.get("count")!
  p.value = (p.value as number) - 1
  return p.value === 0
}
const increment = (counter: JSObject): void => {
  const p = counter.properties.get("count")!
  p.value = (p.value as number) + 1
}

/** Sets element `index` of a pending values/errors list (a sandbox array, dense). */
const setElement = (list: ArrayObject, index: number, v: Value): void => {
  list.elements![index] = v
}

/** Marks an element function (and its allSettled twin) as called; false when it already was. */
const claim = (self: NativeFunction): boolean => {
  const slots = self.slots!
  if (slots.alreadyCalled) return false
  slots.alreadyCalled = true
  const twin = slots.twin as NativeFunction | undefined
  if (twin !== undefined) twin.slots!.alreadyCalled = true
  return true
}

/** When the last element settles: resolve with a fresh array of the values (CreateArrayFromList). */
function* finishWithValues(realm: Realm, self: NativeFunction): Task<Value> {
  const { values, remaining, resolve } = self.slots! as { values: ArrayObject; remaining: JSObject; resolve: Value }
  if (!decrement(remaining)) return undefined
  return yield* Call(resolve, undefined, [CreateArrayFromList(realm, values.elements! as Value[])])
}

// https://tc39.es/ecma262/#sec-promise.all-resolve-element-functions
const makeAllResolveElement = defineNativeClosure(
  "PromiseAllResolveElement",
  function* (realm, _this, args, _nt, self) {
    if (!claim(self)) return undefined
    setElement(self.slots!.values as ArrayObject, self.slots!.index as number, args[0])
    return yield* finishWithValues(realm, self)
  },
  1,
)

/** The `{ status, value | reason }` record of allSettled. */
const settledRecord = (realm: Realm, status: "fulfilled" | "rejected", key: "value" | "reason", v: Value): JSObject => {
  const obj = new JSObject(realm.ObjectPrototype)
  CreateDataPropertyOrThrow(obj, "status", status)
  CreateDataPropertyOrThrow(obj, key, v)
  return obj
}

// https://tc39.es/ecma262/#sec-promise.allsettled-resolve-element-functions
const makeAllSettledResolveElement = defineNativeClosure(
  "PromiseAllSettledResolveElement",
  function* (realm, _this, args, _nt, self) {
    if (!claim(self)) return undefined
    setElement(self.slots!.values as ArrayObject, self.slots!.index as number, settledRecord(realm, "fulfilled", "value", args[0]))
    return yield* finishWithValues(realm, self)
  },
  1,
)

// https://tc39.es/ecma262/#sec-promise.allsettled-reject-element-functions
const makeAllSettledRejectElement = defineNativeClosure(
  "PromiseAllSettledRejectElement",
  function* (realm, _this, args, _nt, self) {
    if (!claim(self)) return undefined
    setElement(self.slots!.values as ArrayObject, self.slots!.index as number, settledRecord(realm, "rejected", "reason", args[0]))
    return yield* finishWithValues(realm, self)
  },
  1,
)

/** The AggregateError Promise.any rejects with. */
const allRejected = (realm: Realm, errors: ReadonlyArray<Value>): JSObject => {
  const error = CreateErrorObject(realm, "AggregateError", "All promises were rejected")
  CreateNonEnumerableDataPropertyOrThrow(error, "errors", CreateArrayFromList(realm, errors))
  return error
}

// https://tc39.es/ecma262/#sec-promise.any-reject-element-functions
const makeAnyRejectElement = defineNativeClosure(
  "PromiseAnyRejectElement",
  function* (realm, _this, args, _nt, self) {
    if (!claim(self)) return undefined
    const { values: errors, remaining, reject, index } = self.slots! as {
      values: ArrayObject
      remaining: JSObject
      reject: Value
      index: number
    }
    setElement(errors, index, args[0])
    if (!decrement(remaining)) return undefined
    return yield* Call(reject, undefined, [allRejected(realm, errors.elements! as Value[])])
  },
  1,
)

type Combinator = "all" | "allSettled" | "any"

/**
 * PerformPromiseAll / PerformPromiseAllSettled / PerformPromiseAny
 * (https://tc39.es/ecma262/#sec-performpromiseall and siblings): one loop, three ways to wire each element.
 */
function* PerformCombinator(
  realm: Realm,
  which: Combinator,
  iteratorRecord: IteratorRecord,
  constructor: JSObject,
  resultCapability: PromiseCapability,
  promiseResolve: JSObject,
): Task<JSObject> {
  // The values (all, allSettled) or errors (any) list, and the remaining-elements counter starting at 1.
  const list = new ArrayObject(realm.ArrayPrototype, [])
  const remaining = newCounter()
  let index = 0
  for (;;) {
    const next = yield* IteratorStepValue(iteratorRecord)
    if (next === DONE) {
      if (decrement(remaining)) {
        const items = list.elements! as Value[]
        if (which === "any") yield* Call(resultCapability.reject, undefined, [allRejected(realm, items)])
        else yield* Call(resultCapability.resolve, undefined, [CreateArrayFromList(realm, items)])
      }
      return resultCapability.promise
    }
    checkArrayStorage(list.elements!.length + 1)
    chargeMemory(Cost.element)
    list.elements!.push(undefined)
    list.length = list.elements!.length
    const nextPromise = yield* Call(promiseResolve, constructor, [next])
    const shared = { alreadyCalled: false, index, values: list, remaining }
    let onFulfilled: Value
    let onRejected: Value
    if (which === "all") {
      onFulfilled = makeAllResolveElement(realm, { ...shared, resolve: resultCapability.resolve })
      onRejected = resultCapability.reject
    } else if (which === "allSettled") {
      const f = makeAllSettledResolveElement(realm, { ...shared, resolve: resultCapability.resolve })
      const r = makeAllSettledRejectElement(realm, { ...shared, resolve: resultCapability.resolve, twin: f })
      f.slots!.twin = r
      onFulfilled = f
      onRejected = r
    } else {
      onFulfilled = resultCapability.resolve
      onRejected = makeAnyRejectElement(realm, { ...shared, reject: resultCapability.reject })
    }
    increment(remaining)
    yield* Invoke(realm, nextPromise, "then", [onFulfilled, onRejected])
    index++
  }
}

/** Promise.all / allSettled / any (https://tc39.es/ecma262/#sec-promise.all): steps 1-8 around the loop. */
const combinator = (which: Combinator) =>
  function* (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
    const C = requireConstructorThis(thisArg, `Promise.${which}`)
    const promiseCapability = yield* NewPromiseCapability(realm, C)
    let promiseResolve: JSObject
    let iteratorRecord: IteratorRecord
    try {
      promiseResolve = yield* GetPromiseResolve(C)
      iteratorRecord = yield* GetIterator(realm, args[0])
    } catch (e) {
      return yield* RejectWith(realm, promiseCapability, e)
    }
    try {
      return yield* PerformCombinator(realm, which, iteratorRecord, C, promiseCapability, promiseResolve)
    } catch (e) {
      return yield* CloseAndReject(realm, iteratorRecord, promiseCapability, e)
    }
  }

const Promise_all = combinator("all")
const Promise_allSettled = combinator("allSettled")
const Promise_any = combinator("any")

// https://tc39.es/ecma262/#sec-promise.race
function* Promise_race(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const C = requireConstructorThis(thisArg, "Promise.race")
  const promiseCapability = yield* NewPromiseCapability(realm, C)
  let promiseResolve: JSObject
  let iteratorRecord: IteratorRecord
  try {
    promiseResolve = yield* GetPromiseResolve(C)
    iteratorRecord = yield* GetIterator(realm, args[0])
  } catch (e) {
    return yield* RejectWith(realm, promiseCapability, e)
  }
  try {
    // https://tc39.es/ecma262/#sec-performpromiserace
    for (;;) {
      const next = yield* IteratorStepValue(iteratorRecord)
      if (next === DONE) return promiseCapability.promise
      const nextPromise = yield* Call(promiseResolve, C, [next])
      yield* Invoke(realm, nextPromise, "then", [promiseCapability.resolve, promiseCapability.reject])
    }
  } catch (e) {
    return yield* CloseAndReject(realm, iteratorRecord, promiseCapability, e)
  }
}

// https://tc39.es/ecma262/#sec-get-promise-%symbol.species%
const Promise_species = (_realm: Realm, thisArg: Value): Value => thisArg

export const install = (realm: Realm): void => {
  const proto = new JSObject(realm.ObjectPrototype)
  const PromiseCtor = defineConstructor(realm, "Promise", Promise_constructor, 1, proto)
  defineMethods(realm, PromiseCtor, "%Promise%", [
    ["all", Promise_all, 1],
    ["allSettled", Promise_allSettled, 1],
    ["any", Promise_any, 1],
    ["race", Promise_race, 1],
    ["resolve", Promise_resolve, 1],
    ["reject", Promise_reject, 1],
    ["withResolvers", Promise_withResolvers, 0],
    ["try", Promise_try, 1],
  ])
  defineAccessors(realm, PromiseCtor, "%Promise%", [[WellKnownSymbols.species, Promise_species, undefined]])
  defineMethods(realm, proto, "%Promise.prototype%", [
    ["then", PromiseProto_then, 2],
    ["catch", PromiseProto_catch, 1],
    ["finally", PromiseProto_finally, 1],
  ])
  defineValues(proto, [[WellKnownSymbols.toStringTag, "Promise"]], { writable: false, enumerable: false, configurable: true })
}
