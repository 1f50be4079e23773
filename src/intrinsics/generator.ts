/**
 * Generator, async function and async generator intrinsics (https://tc39.es/ecma262/#sec-generatorfunction-objects,
 * #sec-asyncfunction-objects, #sec-asyncgeneratorfunction-objects, #sec-asynciteratorprototype,
 * #sec-%asyncfromsynciteratorprototype%-object). The constructors (%GeneratorFunction%...) refuse to compile code,
 * as `Function` does. `next`/`return`/`throw` are Task natives: they check the generator's state and resume its
 * body with the `generatorResume` request, which the engine runs on its own stack (the engine creates the
 * iterator results of sync generators). Async generators follow the spec's request queue (runtime/generator.ts).
 * %IteratorPrototype% comes from the iterator family, installed before this one.
 */
import { defineMethods, defineValues, CreateBuiltinFunction } from "../runtime/builtin.ts"
import { SandboxError, ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import {
  AsyncFromSyncIterator,
  AsyncGeneratorAwaitReturn,
  AsyncGeneratorEnqueue,
  AsyncGeneratorResume,
  AwaitPromise,
  GeneratorObject,
  type ResumptionCompletion,
} from "../runtime/generator.ts"
import { CreateIterResultObject, IteratorClose, IteratorComplete, IteratorNext, IteratorValue } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, describeValue, GetMethod } from "../runtime/operations.ts"
import { defineNativeClosure } from "../runtime/builtin.ts"
import {
  NewIntrinsicPromiseCapability,
  PerformPromiseThen,
  type PromiseCapability,
  type PromiseObject,
  PromiseResolve,
} from "../runtime/promise.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type Value, WellKnownSymbols } from "../runtime/value.ts"

const refuseToCompile = (): never => {
  throw new SandboxError("EvalError", "Code generation from strings disallowed for this context")
}

// --- %GeneratorPrototype% -----------------------------------------------------------------------------------------

// https://tc39.es/ecma262/#sec-generatorvalidate
const GeneratorValidate = (generator: Value, method: string): GeneratorObject => {
  if (!(generator instanceof GeneratorObject) || generator.brand !== "Generator") {
    return throwTypeError(`${method} method called on incompatible receiver ${describeValue(generator)}`)
  }
  if (generator.state === "executing") return throwTypeError("Generator is already running")
  return generator
}

// https://tc39.es/ecma262/#sec-generator.prototype.next
function* GeneratorProto_next(_realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const g = GeneratorValidate(thisArg, "next")
  if (g.state === "completed") return CreateIterResultObject(_realm, undefined, true)
  return yield { kind: "generatorResume", generator: g, mode: "next", value: args[0] }
}

// https://tc39.es/ecma262/#sec-generator.prototype.return
function* GeneratorProto_return(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const g = GeneratorValidate(thisArg, "return")
  if (g.state === "suspendedStart") {
    g.state = "completed"
    g.engineState = undefined
  }
  if (g.state === "completed") return CreateIterResultObject(realm, args[0], true)
  return yield { kind: "generatorResume", generator: g, mode: "return", value: args[0] }
}

// https://tc39.es/ecma262/#sec-generator.prototype.throw
function* GeneratorProto_throw(_realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const g = GeneratorValidate(thisArg, "throw")
  if (g.state === "suspendedStart") {
    g.state = "completed"
    g.engineState = undefined
  }
  if (g.state === "completed") throw new ThrowCompletion(args[0])
  return yield { kind: "generatorResume", generator: g, mode: "throw", value: args[0] }
}

// --- %AsyncGeneratorPrototype% ------------------------------------------------------------------------------------

/** AsyncGeneratorValidate; on failure the request's promise is rejected instead (IfAbruptRejectPromise). */
const asyncGeneratorOf = (generator: Value): GeneratorObject | undefined =>
  generator instanceof GeneratorObject && generator.brand === "AsyncGenerator" ? generator : undefined

function* rejectIncompatible(realm: Realm, capability: PromiseCapability, method: string, thisArg: Value): Task<Value> {
  const error = toThrowCompletion(realm, new SandboxError("TypeError", `${method} method called on incompatible receiver ${describeValue(thisArg)}`))
  yield* Call(capability.reject, undefined, [error.value])
  return capability.promise
}

// https://tc39.es/ecma262/#sec-asyncgenerator-prototype-next
function* AsyncGeneratorProto_next(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const capability = NewIntrinsicPromiseCapability(realm)
  const g = asyncGeneratorOf(thisArg)
  if (g === undefined) return yield* rejectIncompatible(realm, capability, "next", thisArg)
  const state = g.state
  if (state === "completed") {
    yield* Call(capability.resolve, undefined, [CreateIterResultObject(realm, undefined, true)])
    return capability.promise
  }
  const completion: ResumptionCompletion = { kind: "next", value: args[0] }
  AsyncGeneratorEnqueue(g, completion, capability)
  if (state === "suspendedStart" || state === "suspendedYield") yield* AsyncGeneratorResume(g, completion)
  return capability.promise
}

// https://tc39.es/ecma262/#sec-asyncgenerator-prototype-return
function* AsyncGeneratorProto_return(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const capability = NewIntrinsicPromiseCapability(realm)
  const g = asyncGeneratorOf(thisArg)
  if (g === undefined) return yield* rejectIncompatible(realm, capability, "return", thisArg)
  const completion: ResumptionCompletion = { kind: "return", value: args[0] }
  AsyncGeneratorEnqueue(g, completion, capability)
  const state = g.state
  if (state === "suspendedStart" || state === "completed") {
    g.state = "awaiting-return"
    g.engineState = undefined
    yield* AsyncGeneratorAwaitReturn(realm, g)
  } else if (state === "suspendedYield") {
    yield* AsyncGeneratorResume(g, completion)
  }
  return capability.promise
}

// https://tc39.es/ecma262/#sec-asyncgenerator-prototype-throw
function* AsyncGeneratorProto_throw(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const capability = NewIntrinsicPromiseCapability(realm)
  const g = asyncGeneratorOf(thisArg)
  if (g === undefined) return yield* rejectIncompatible(realm, capability, "throw", thisArg)
  let state = g.state
  if (state === "suspendedStart") {
    g.state = "completed"
    g.engineState = undefined
    state = "completed"
  }
  if (state === "completed") {
    yield* Call(capability.reject, undefined, [args[0]])
    return capability.promise
  }
  const completion: ResumptionCompletion = { kind: "throw", value: args[0] }
  AsyncGeneratorEnqueue(g, completion, capability)
  if (state === "suspendedYield") yield* AsyncGeneratorResume(g, completion)
  return capability.promise
}

// --- %AsyncFromSyncIteratorPrototype% -----------------------------------------------------------------------------

const makeUnwrap = defineNativeClosure(
  "AsyncFromSyncIteratorValueUnwrap",
  (realm, _this, args, _nt, self) => CreateIterResultObject(realm, args[0], self.slots!.done as boolean),
  1,
)

const makeCloseIterator = defineNativeClosure(
  "AsyncFromSyncIteratorCloseIterator",
  function* (realm, _this, args, _nt, self) {
    const iterator = self.slots!.iterator as JSObject
    const record = { iterator, nextMethod: self.slots!.nextMethod as Value, done: false }
    yield* IteratorClose(realm, record)
    throw new ThrowCompletion(args[0])
  },
  1,
)

/** https://tc39.es/ecma262/#sec-asyncfromsynciteratorcontinuation */
function* AsyncFromSyncIteratorContinuation(
  realm: Realm,
  result: Value,
  capability: PromiseCapability,
  iterator: AsyncFromSyncIterator,
  closeOnRejection: boolean,
): Task<Value> {
  try {
    if (!(result instanceof JSObject)) throwTypeError(`Iterator result ${describeValue(result)} is not an object`)
    const done = yield* IteratorComplete(result as JSObject)
    const value = yield* IteratorValue(result as JSObject)
    let valueWrapper: JSObject
    try {
      valueWrapper = yield* AwaitPromise(realm, value)
    } catch (e) {
      if (!done && closeOnRejection) yield* IteratorClose(realm, iterator.syncIteratorRecord)
      throw e
    }
    const onFulfilled = makeUnwrap(realm, { done })
    const onRejected =
      done || !closeOnRejection
        ? undefined
        : makeCloseIterator(realm, { iterator: iterator.syncIteratorRecord.iterator, nextMethod: iterator.syncIteratorRecord.nextMethod })
    PerformPromiseThen(realm, valueWrapper as never, onFulfilled, onRejected, capability)
  } catch (e) {
    yield* Call(capability.reject, undefined, [toThrowCompletion(realm, e).value])
  }
  return capability.promise
}

const asyncFromSyncOf = (v: Value): AsyncFromSyncIterator => {
  if (!(v instanceof AsyncFromSyncIterator)) return throwTypeError("not an async-from-sync iterator")
  return v
}

// https://tc39.es/ecma262/#sec-%asyncfromsynciteratorprototype%.next
function* AsyncFromSyncIteratorProto_next(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = asyncFromSyncOf(thisArg)
  const capability = NewIntrinsicPromiseCapability(realm)
  let result: Value
  try {
    result = yield* IteratorNext(O.syncIteratorRecord, ...(args.length > 0 ? [args[0]] : []))
  } catch (e) {
    yield* Call(capability.reject, undefined, [toThrowCompletion(realm, e).value])
    return capability.promise
  }
  return yield* AsyncFromSyncIteratorContinuation(realm, result, capability, O, true)
}

// https://tc39.es/ecma262/#sec-%asyncfromsynciteratorprototype%.return
function* AsyncFromSyncIteratorProto_return(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = asyncFromSyncOf(thisArg)
  const capability = NewIntrinsicPromiseCapability(realm)
  const syncIterator = O.syncIteratorRecord.iterator
  let result: Value
  try {
    const ret = yield* GetMethod(realm, syncIterator, "return")
    if (ret === undefined) {
      yield* Call(capability.resolve, undefined, [CreateIterResultObject(realm, args[0], true)])
      return capability.promise
    }
    result = yield* Call(ret, syncIterator, args.length > 0 ? [args[0]] : [])
    if (!(result instanceof JSObject)) throwTypeError(`Iterator result ${describeValue(result)} is not an object`)
  } catch (e) {
    yield* Call(capability.reject, undefined, [toThrowCompletion(realm, e).value])
    return capability.promise
  }
  return yield* AsyncFromSyncIteratorContinuation(realm, result, capability, O, false)
}

// https://tc39.es/ecma262/#sec-%asyncfromsynciteratorprototype%.throw
function* AsyncFromSyncIteratorProto_throw(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = asyncFromSyncOf(thisArg)
  const capability = NewIntrinsicPromiseCapability(realm)
  const record = O.syncIteratorRecord
  let result: Value
  try {
    const thr = yield* GetMethod(realm, record.iterator, "throw")
    if (thr === undefined) {
      record.done = true
      yield* IteratorClose(realm, record)
      throwTypeError("The iterator does not provide a 'throw' method.")
    }
    result = yield* Call(thr, record.iterator, args.length > 0 ? [args[0]] : [])
    if (!(result instanceof JSObject)) throwTypeError(`Iterator result ${describeValue(result)} is not an object`)
  } catch (e) {
    yield* Call(capability.reject, undefined, [toThrowCompletion(realm, e).value])
    return capability.promise
  }
  return yield* AsyncFromSyncIteratorContinuation(realm, result, capability, O, true)
}

// --- Installation -------------------------------------------------------------------------------------------------

/** A constructor-like built-in that refuses to compile, with its prototype linked both ways. */
const defineFunctionConstructor = (realm: Realm, name: string, prototype: JSObject): void => {
  const C = CreateBuiltinFunction(realm, name, refuseToCompile, 1, name, {
    isConstructor: true,
    proto: realm.intrinsic("%Function%"),
  })
  C.properties.set("prototype", Property.data(prototype, false, false, false))
  prototype.properties.set("constructor", Property.data(C, false, false, true))
  realm.register(`%${name}%`, C)
  realm.register(`%${name}.prototype%`, prototype)
}

// https://tc39.es/proposal-explicit-resource-management/#sec-%asynciteratorprototype%-@@asyncDispose
function* AsyncIteratorProto_asyncDispose(realm: Realm, O: Value): Task<Value> {
  const capability = NewIntrinsicPromiseCapability(realm)
  try {
    const ret = yield* GetMethod(realm, O, "return")
    if (ret === undefined) {
      yield* Call(capability.resolve, undefined, [undefined])
      return capability.promise
    }
    const result = yield* Call(ret, O, [undefined])
    const wrapper = (yield* PromiseResolve(realm, realm.intrinsic("%Promise%"), result)) as PromiseObject
    // Fulfils with undefined, whatever `return` resolved to.
    PerformPromiseThen(realm, wrapper, realm.intrinsic("%AsyncIteratorPrototype[@@asyncDispose].unwrap%"), undefined, capability)
  } catch (e) {
    yield* Call(capability.reject, undefined, [toThrowCompletion(realm, e).value])
  }
  return capability.promise
}

export const install = (realm: Realm): void => {
  let IteratorPrototype = realm.findIntrinsic("%IteratorPrototype%")
  if (IteratorPrototype === undefined) {
    IteratorPrototype = new JSObject(realm.ObjectPrototype)
    defineMethods(realm, IteratorPrototype, "%IteratorPrototype%", [[WellKnownSymbols.iterator, (_r, thisArg) => thisArg, 0]])
    realm.register("%IteratorPrototype%", IteratorPrototype)
  }
  const tag = (o: JSObject, value: string): void => defineValues(o, [[WellKnownSymbols.toStringTag, value]], { writable: false, enumerable: false, configurable: true })

  // Generators
  const GeneratorPrototype = new JSObject(IteratorPrototype)
  realm.register("%GeneratorPrototype%", GeneratorPrototype)
  realm.register("%GeneratorFunction.prototype.prototype%", GeneratorPrototype)
  defineMethods(realm, GeneratorPrototype, "%GeneratorPrototype%", [
    ["next", GeneratorProto_next, 1],
    ["return", GeneratorProto_return, 1],
    ["throw", GeneratorProto_throw, 1],
  ])
  tag(GeneratorPrototype, "Generator")
  const GeneratorFunctionPrototype = new JSObject(realm.FunctionPrototype)
  defineFunctionConstructor(realm, "GeneratorFunction", GeneratorFunctionPrototype)
  GeneratorFunctionPrototype.properties.set("prototype", Property.data(GeneratorPrototype, false, false, true))
  GeneratorPrototype.properties.set("constructor", Property.data(GeneratorFunctionPrototype, false, false, true))
  tag(GeneratorFunctionPrototype, "GeneratorFunction")

  // Async functions
  const AsyncFunctionPrototype = new JSObject(realm.FunctionPrototype)
  defineFunctionConstructor(realm, "AsyncFunction", AsyncFunctionPrototype)
  tag(AsyncFunctionPrototype, "AsyncFunction")

  // Async iteration
  const AsyncIteratorPrototype = new JSObject(realm.ObjectPrototype)
  realm.register("%AsyncIteratorPrototype%", AsyncIteratorPrototype)
  defineMethods(realm, AsyncIteratorPrototype, "%AsyncIteratorPrototype%", [
    [WellKnownSymbols.asyncIterator, (_r, thisArg) => thisArg, 0],
    [WellKnownSymbols.asyncDispose, AsyncIteratorProto_asyncDispose, 0],
  ])
  realm.register("%AsyncIteratorPrototype[@@asyncDispose].unwrap%", CreateBuiltinFunction(realm, "AsyncIteratorDisposeUnwrap", () => undefined, 1, ""))

  const AsyncGeneratorPrototype = new JSObject(AsyncIteratorPrototype)
  realm.register("%AsyncGeneratorPrototype%", AsyncGeneratorPrototype)
  realm.register("%AsyncGeneratorFunction.prototype.prototype%", AsyncGeneratorPrototype)
  defineMethods(realm, AsyncGeneratorPrototype, "%AsyncGeneratorPrototype%", [
    ["next", AsyncGeneratorProto_next, 1],
    ["return", AsyncGeneratorProto_return, 1],
    ["throw", AsyncGeneratorProto_throw, 1],
  ])
  tag(AsyncGeneratorPrototype, "AsyncGenerator")
  const AsyncGeneratorFunctionPrototype = new JSObject(realm.FunctionPrototype)
  defineFunctionConstructor(realm, "AsyncGeneratorFunction", AsyncGeneratorFunctionPrototype)
  AsyncGeneratorFunctionPrototype.properties.set("prototype", Property.data(AsyncGeneratorPrototype, false, false, true))
  AsyncGeneratorPrototype.properties.set("constructor", Property.data(AsyncGeneratorFunctionPrototype, false, false, true))
  tag(AsyncGeneratorFunctionPrototype, "AsyncGeneratorFunction")

  const AsyncFromSyncIteratorPrototype = new JSObject(AsyncIteratorPrototype)
  realm.register("%AsyncFromSyncIteratorPrototype%", AsyncFromSyncIteratorPrototype)
  defineMethods(realm, AsyncFromSyncIteratorPrototype, "%AsyncFromSyncIteratorPrototype%", [
    ["next", AsyncFromSyncIteratorProto_next, 1],
    ["return", AsyncFromSyncIteratorProto_return, 1],
    ["throw", AsyncFromSyncIteratorProto_throw, 1],
  ])
}
