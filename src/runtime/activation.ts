/**
 * Function activations as both engines' frame stacks run them: how [[Call]] and [[Construct]] reach a callee
 * (bound functions unwrapped, callability checked with V8's messages, a built-in run at once), which kind of
 * activation a call of a script function is, and what an activation's end hands to its caller — the return value,
 * the constructed object, an iterator result, the async function's promise — or which Task must run first (an
 * async function returning a thenable, an async generator settling its request queue). Pushing frames, resuming
 * them and delivering results stay with each engine (src/vm/machine.ts, src/interpreter/machine.ts).
 */
import { ThrowCompletion, throwTypeError } from "./completion.ts"
import { BoundFunction, NativeFunction, ScriptFunction } from "./function-object.ts"
import { AsyncGeneratorBodyCompleted, type GeneratorObject } from "./generator.ts"
import { CreateIterResultObject } from "./iteration.ts"
import { JSObject } from "./object.ts"
import { describeValue } from "./operations.ts"
import { FulfillPromise, RejectPromise, ResolvePromise, type PromiseObject } from "./promise.ts"
import type { Realm } from "./realm.ts"
import { PollStringWork } from "./interrupt.ts"
import type { Task } from "./task.ts"
import { SymbolValue, type Value } from "./value.ts"

/** How an activation ends (engines number their frame kinds the same way and add their own). */
export const ActivationKind = {
  /** Ordinary call; also derived constructors, whose body computes their own result. */
  Normal: 0,
  /** [[Construct]] of a base constructor: a non-object result is replaced by `this`. */
  Construct: 1,
  Generator: 2,
  Async: 3,
  AsyncGenerator: 4,
} as const
export type ActivationKind = (typeof ActivationKind)[keyof typeof ActivationKind]

/** The kind of the activation a call of `f` creates (`newTarget` undefined for [[Call]]). */
export const ActivationKindOf = (f: ScriptFunction, newTarget: JSObject | undefined): ActivationKind => {
  switch (f.functionKind) {
    case "generator":
      return ActivationKind.Generator
    case "async":
      return ActivationKind.Async
    case "asyncGenerator":
      return ActivationKind.AsyncGenerator
    default:
      return newTarget !== undefined && f.constructorKind === "base" ? ActivationKind.Construct : ActivationKind.Normal
  }
}

/**
 * The activation returned `v`: what its caller receives, or a Task to run on the caller's behalf whose result it
 * receives. `activation` is the generator or async activation; `constructThis` the object a base [[Construct]]
 * allocated.
 */
export const ActivationReturn = (realm: Realm, kind: number, activation: GeneratorObject | undefined, v: Value, constructThis: Value): Value | Task<Value> => {
  switch (kind) {
    case ActivationKind.Construct:
      return v instanceof JSObject ? v : constructThis
    case ActivationKind.Generator:
      activation!.state = "completed"
      return CreateIterResultObject(realm, v, true)
    case ActivationKind.Async: {
      const promise = activation!.promise!
      if (v instanceof JSObject) return resolveAndReturn(realm, promise, v)
      FulfillPromise(realm, promise, v)
      return promise
    }
    case ActivationKind.AsyncGenerator:
      return AsyncGeneratorBodyCompleted(realm, activation!, { kind: "next", value: v }) as Task<Value>
    default:
      return v
  }
}

/**
 * The activation threw `tc`: the throw goes on to the caller (`tc` itself), or the caller receives a value (an
 * async function's rejected promise) or the result of a Task (an async generator settling its queue).
 */
export const ActivationThrow = (realm: Realm, kind: number, activation: GeneratorObject | undefined, tc: ThrowCompletion): ThrowCompletion | Value | Task<Value> => {
  // A generator's parameters are bound before its generator object exists: a throw there is the call's own.
  if (activation === undefined && (kind === ActivationKind.Generator || kind === ActivationKind.AsyncGenerator)) return tc
  switch (kind) {
    case ActivationKind.Generator:
      activation!.state = "completed"
      return tc
    case ActivationKind.Async:
      RejectPromise(realm, activation!.promise!, tc.value)
      return activation!.promise!
    case ActivationKind.AsyncGenerator:
      return AsyncGeneratorBodyCompleted(realm, activation!, { kind: "throw", value: tc.value }) as Task<Value>
    default:
      return tc
  }
}

/**
 * The generatorResume request: takes `gen`'s suspended body (engine-owned) out of it to run again; `beforeResume`
 * may still refuse (the call-depth cap) while the generator is untouched.
 */
export const TakeSuspendedBody = (gen: GeneratorObject, beforeResume: () => void): unknown => {
  const body = gen.engineState
  if (body === undefined) throw new Error("codemode bug: resuming a generator that is not suspended")
  beforeResume()
  gen.engineState = undefined
  gen.state = "executing"
  return body
}

function* resolveAndReturn(realm: Realm, promise: PromiseObject, v: Value): Task<Value> {
  yield* ResolvePromise(realm, promise, v)
  return promise
}

/**
 * A native's result that is not a sandbox value: a Task returned by a built-in written as a plain function that
 * returns a generator (NativeFunction.isTaskImpl only recognizes generator functions).
 */
export const isHostObject = (v: unknown): boolean => typeof v === "object" && v !== null && !(v instanceof JSObject) && !(v instanceof SymbolValue)

/** What an engine does with a callee once `Invoke` has resolved it. */
export interface Invoker<R> {
  /** Runs a script function (the engine creates its activation). `newTarget` is undefined for [[Call]]. */
  script(f: ScriptFunction, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): R
  /** A built-in ran: its result, or the Task it returned to be driven. */
  native(result: Value | Task<Value>, isTask: boolean): R
}

/**
 * [[Call]] (https://tc39.es/ecma262/#sec-call) or, with `newTarget`, [[Construct]] of any function value. Bound
 * functions are unwrapped; what cannot be called or constructed is a TypeError naming `calleeText` (the callee's
 * source text) or the value.
 */
export const Invoke = <R>(
  realm: Realm,
  f: Value,
  thisArg: Value,
  args: ReadonlyArray<Value>,
  newTarget: JSObject | undefined,
  calleeText: string | undefined,
  invoker: Invoker<R>,
): R => {
  for (;;) {
    if (f instanceof ScriptFunction) {
      if (newTarget !== undefined && !f.constructable) return throwTypeError(`${calleeText ?? describeValue(f)} is not a constructor`)
      return invoker.script(f, thisArg, args, newTarget)
    }
    if (f instanceof NativeFunction) {
      if (newTarget !== undefined && !f.constructable) return throwTypeError(`${calleeText ?? describeValue(f)} is not a constructor`)
      const result = f.impl(realm, newTarget === undefined ? thisArg : undefined, args, newTarget, f)
      PollStringWork(realm, thisArg, args[0], result)
      return invoker.native(result, f.isTaskImpl || isHostObject(result))
    }
    if (f instanceof BoundFunction) {
      args = f.boundArgs.length === 0 ? args : [...f.boundArgs, ...args]
      if (newTarget === undefined) thisArg = f.boundThis
      else if (newTarget === f) newTarget = f.target
      f = f.target
      continue
    }
    return throwTypeError(`${calleeText ?? describeValue(f)} is not a ${newTarget === undefined ? "function" : "constructor"}`)
  }
}

