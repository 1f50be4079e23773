/**
 * Explicit resource management (https://tc39.es/proposal-explicit-resource-management/), shared by both engines
 * and by DisposableStack / AsyncDisposableStack: a DisposeCapability records the resources a scope's `using` and
 * `await using` declarations (or a stack's `use`/`adopt`/`defer`) added, and DisposeResources disposes them in
 * reverse order when the scope is left, folding errors into SuppressedErrors.
 *
 * DisposeResources awaits between resources of an `await using` scope, and only an engine can await. So it is cut
 * into steps around its Awaits: `DisposeBegin` records the completion the scope is left with, `DisposeNext` runs
 * resources until one gives a value to await (or none is left), `DisposeRecordError` folds in a rejected await and
 * `DisposeEnd` hands back the completion (throwing if disposal changed it). Without awaits, `DisposeNext` runs to
 * the end at once.
 */
import { defineNativeClosure } from "./builtin.ts"
import { ThrowCompletion, throwTypeError } from "./completion.ts"
import { CreateErrorObject, toThrowCompletion } from "./errors.ts"
import { IsCallable } from "./function-object.ts"
import { JSObject } from "./object.ts"
import { Call, CreateNonEnumerableDataPropertyOrThrow, describeValue, GetMethod } from "./operations.ts"
import { NewIntrinsicPromiseCapability } from "./promise.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import { EMPTY, type Empty, type Value, WellKnownSymbols } from "./value.ts"

export type DisposeHint = "sync-dispose" | "async-dispose"

/** https://tc39.es/proposal-explicit-resource-management/#sec-disposableresource-records */
export interface DisposableResource {
  readonly value: Value
  readonly hint: DisposeHint
  readonly method: JSObject | undefined
}

/**
 * https://tc39.es/proposal-explicit-resource-management/#sec-disposecapability-records, with the state of a
 * DisposeResources in progress. An internal record, never exposed to the program (an object so that it can live
 * in a VM register and be saved with it).
 */
export class DisposeCapability extends JSObject {
  resources: DisposableResource[] = []
  /** DisposeResources in progress: the completion so far (`thrown`: a throw completion of `value`). */
  thrown = false
  value: Value = undefined
  /** Disposal replaced the completion the scope was left with. */
  changed = false
  needsAwait = false
  hasAwaited = false
  constructor() {
    super(null)
    this.kind = "DisposeCapability"
  }
}

/** NewDisposeCapability() */
export const NewDisposeCapability = (): DisposeCapability => new DisposeCapability()

// https://tc39.es/proposal-explicit-resource-management/#sec-adddisposableresource
export function* AddDisposableResource(realm: Realm, capability: DisposeCapability, V: Value, hint: DisposeHint, method?: JSObject): Task<void> {
  if (method === undefined) {
    // A null or undefined `await using` is recorded: leaving its scope still awaits once.
    if ((V === null || V === undefined) && hint === "sync-dispose") return
    capability.resources.push(yield* CreateDisposableResource(realm, V, hint))
  } else {
    capability.resources.push({ value: undefined, hint, method })
  }
}

// https://tc39.es/proposal-explicit-resource-management/#sec-createdisposableresource
function* CreateDisposableResource(realm: Realm, V: Value, hint: DisposeHint): Task<DisposableResource> {
  if (V === null || V === undefined) return { value: undefined, hint, method: undefined }
  if (!(V instanceof JSObject)) return throwTypeError(`An object is expected with \`${hint === "sync-dispose" ? "using" : "await using"}\` declarations`)
  const method = yield* GetDisposeMethod(realm, V, hint)
  if (method === undefined) {
    return throwTypeError(`${hint === "sync-dispose" ? "Symbol(Symbol.dispose)" : "Symbol(Symbol.asyncDispose)"} is not a function`)
  }
  return { value: V, hint, method }
}

// https://tc39.es/proposal-explicit-resource-management/#sec-getdisposemethod
function* GetDisposeMethod(realm: Realm, V: JSObject, hint: DisposeHint): Task<JSObject | undefined> {
  if (hint === "async-dispose") {
    const method = yield* GetMethod(realm, V, WellKnownSymbols.asyncDispose)
    if (method !== undefined) return method
    const syncMethod = yield* GetMethod(realm, V, WellKnownSymbols.dispose)
    return syncMethod === undefined ? undefined : makeAsyncFromSyncDispose(realm, { method: syncMethod })
  }
  return yield* GetMethod(realm, V, WellKnownSymbols.dispose)
}

/** GetDisposeMethod step 1.b.ii: a sync @@dispose used by `await using`; its result is not awaited, its throw rejects. */
const makeAsyncFromSyncDispose = defineNativeClosure(
  "AsyncFromSyncDispose",
  function* (realm, thisArg, _args, _newTarget, self) {
    const { promise, resolve, reject } = NewIntrinsicPromiseCapability(realm)
    try {
      yield* Call((self.slots as { method: Value }).method, thisArg)
    } catch (e) {
      yield* Call(reject, undefined, [toThrowCompletion(realm, e).value])
      return promise
    }
    yield* Call(resolve, undefined, [undefined])
    return promise
  },
  0,
)

/** The adopt() closure of DisposableStack / AsyncDisposableStack: calls onDispose with the adopted value. */
export const makeAdoptClosure = defineNativeClosure(
  "DisposableStackAdoptClosure",
  function* (_realm, _thisArg, _args, _newTarget, self) {
    const { value, onDispose } = self.slots as { value: Value; onDispose: Value }
    return yield* Call(onDispose, undefined, [value])
  },
  0,
)

/**
 * DisposeResources: the completion the scope is left with (`thrown`: a throw of `value`). Only a throw's value is
 * kept: a VM finally block's value register is stale after a normal exit, and the capability may be saved.
 */
export const DisposeBegin = (capability: DisposeCapability, thrown: boolean, value: Value): void => {
  capability.thrown = thrown
  capability.value = thrown ? value : undefined
  capability.changed = false
  capability.needsAwait = false
  capability.hasAwaited = false
}

/**
 * https://tc39.es/proposal-explicit-resource-management/#sec-disposeresources steps 3-4, up to the next Await:
 * the value to await, or EMPTY when every resource is disposed.
 */
export function* DisposeNext(realm: Realm, capability: DisposeCapability): Task<Value | Empty> {
  const resources = capability.resources
  for (let resource = resources.pop(); resource !== undefined; resource = resources.pop()) {
    if (resource.hint === "sync-dispose" && capability.needsAwait && !capability.hasAwaited) {
      resources.push(resource)
      capability.needsAwait = false
      return undefined
    }
    if (resource.method === undefined) {
      capability.needsAwait = true
      continue
    }
    let result: Value
    try {
      result = yield* Call(resource.method, resource.value)
    } catch (e) {
      DisposeRecordError(realm, capability, toThrowCompletion(realm, e).value)
      continue
    }
    if (resource.hint === "async-dispose") {
      capability.hasAwaited = true
      return result
    }
  }
  if (capability.needsAwait && !capability.hasAwaited) {
    capability.needsAwait = false
    capability.hasAwaited = true
    return undefined
  }
  return EMPTY
}

/** DisposeResources step 3.e.iii: an error of a disposal joins the completion, suppressing an earlier throw. */
export const DisposeRecordError = (realm: Realm, capability: DisposeCapability, error: Value): void => {
  if (capability.thrown) {
    const e = CreateErrorObject(realm, "SuppressedError", "An error was suppressed during disposal")
    CreateNonEnumerableDataPropertyOrThrow(e, "error", error)
    CreateNonEnumerableDataPropertyOrThrow(e, "suppressed", capability.value)
    capability.value = e
  } else {
    capability.value = error
  }
  capability.thrown = true
  capability.changed = true
}

/** DisposeResources step 7: throws the completion if disposal made it a new throw; otherwise the scope's stands. */
export const DisposeEnd = (capability: DisposeCapability): void => {
  const { changed, value } = capability
  capability.value = undefined
  capability.changed = false
  if (changed) throw new ThrowCompletion(value)
}

/** The whole of DisposeResources for a scope without awaits (sync hints only). */
export function* DisposeResourcesSync(realm: Realm, capability: DisposeCapability, thrown: boolean, value: Value): Task<void> {
  DisposeBegin(capability, thrown, value)
  const next = yield* DisposeNext(realm, capability)
  if (next !== EMPTY) throw new Error("codemode bug: a sync dispose capability has something to await")
  DisposeEnd(capability)
}

/** A DisposableStack's `adopt`/`defer` callback, checked as AddDisposableResource does. */
export const checkOnDispose = (onDispose: Value): JSObject => {
  if (!IsCallable(onDispose)) return throwTypeError(`${describeValue(onDispose)} is not a function`)
  return onDispose
}
