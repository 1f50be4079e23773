/**
 * DisposableStack and AsyncDisposableStack (https://tc39.es/proposal-explicit-resource-management/#sec-disposablestack-objects),
 * with V8's messages. A stack is a DisposeCapability (runtime/dispose.ts) and a state, `pending` or `disposed`.
 *
 * AsyncDisposableStack.prototype.disposeAsync awaits between resources, so it is the spec's implicit async
 * closure written out as data (as Array.fromAsync is): the stack's capability carries DisposeResources' progress,
 * and two built-in closures whose only slot is the stack continue it when an awaited value settles.
 */
import { defineAccessors, defineConstructor, defineMethods, defineNativeClosure, defineValues } from "../runtime/builtin.ts"
import { SandboxError, throwReferenceError, throwTypeError } from "../runtime/completion.ts"
import {
  AddDisposableResource,
  checkOnDispose,
  DisposeBegin,
  DisposeCapability,
  type DisposeHint,
  DisposeNext,
  DisposeRecordError,
  DisposeResourcesSync,
  makeAdoptClosure,
  NewDisposeCapability,
} from "../runtime/dispose.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import type { NativeImpl } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, describeValue, GetPrototypeFromConstructor } from "../runtime/operations.ts"
import { NewIntrinsicPromiseCapability, PerformPromiseThen, type PromiseCapability, PromiseResolve, type PromiseObject } from "../runtime/promise.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type Value, WellKnownSymbols } from "../runtime/value.ts"

/** An object with [[DisposableState]] and [[DisposeCapability]] (`async`: an AsyncDisposableStack). */
export class DisposableStackObject extends JSObject {
  readonly async: boolean
  state: "pending" | "disposed" = "pending"
  capability: DisposeCapability = NewDisposeCapability()
  /** disposeAsync in progress: the promise it settles. */
  pending: PromiseCapability | undefined = undefined
  constructor(proto: JSObject | null, async: boolean) {
    super(proto)
    this.kind = async ? "AsyncDisposableStack" : "DisposableStack"
    this.async = async
  }
}

const nameOf = (async: boolean): string => (async ? "AsyncDisposableStack" : "DisposableStack")

const thisStack = (thisArg: Value, async: boolean, method: string): DisposableStackObject => {
  if (thisArg instanceof DisposableStackObject && thisArg.async === async) return thisArg
  return throwTypeError(`Method ${nameOf(async)}.prototype.${method} called on incompatible receiver ${describeValue(thisArg)}`)
}

const pendingStack = (thisArg: Value, async: boolean, method: string): DisposableStackObject => {
  const stack = thisStack(thisArg, async, method)
  if (stack.state === "disposed") throwReferenceError(`Cannot call ${nameOf(async)}.prototype.${method} on an already-disposed ${nameOf(async)}`)
  return stack
}

const hintOf = (async: boolean): DisposeHint => (async ? "async-dispose" : "sync-dispose")

const makeConstructor = (async: boolean): NativeImpl =>
  function* DisposableStack_constructor(realm, _this, _args, newTarget) {
    if (newTarget === undefined) return throwTypeError(`Constructor ${nameOf(async)} requires 'new'`)
    const proto = yield* GetPrototypeFromConstructor(realm, newTarget, `%${nameOf(async)}.prototype%`)
    return new DisposableStackObject(proto, async)
  }

const makeDisposed =
  (async: boolean): NativeImpl =>
  (_realm, thisArg) =>
    thisStack(thisArg, async, "disposed").state === "disposed"

const makeUse = (async: boolean): NativeImpl =>
  function* use(realm, thisArg, args) {
    const stack = pendingStack(thisArg, async, "use")
    yield* AddDisposableResource(realm, stack.capability, args[0], hintOf(async))
    return args[0]
  }

const makeAdopt = (async: boolean): NativeImpl =>
  function* adopt(realm, thisArg, args) {
    const stack = pendingStack(thisArg, async, "adopt")
    const value = args[0]
    const onDispose = checkOnDispose(args[1])
    yield* AddDisposableResource(realm, stack.capability, undefined, hintOf(async), makeAdoptClosure(realm, { value, onDispose }))
    return value
  }

const makeDefer = (async: boolean): NativeImpl =>
  function* defer(realm, thisArg, args) {
    const stack = pendingStack(thisArg, async, "defer")
    yield* AddDisposableResource(realm, stack.capability, undefined, hintOf(async), checkOnDispose(args[0]))
    return undefined
  }

const makeMove =
  (async: boolean): NativeImpl =>
  (realm, thisArg) => {
    const stack = pendingStack(thisArg, async, "move")
    const moved = new DisposableStackObject(realm.intrinsic(`%${nameOf(async)}.prototype%`), async)
    moved.capability = stack.capability
    stack.capability = NewDisposeCapability()
    stack.state = "disposed"
    return moved
  }

// https://tc39.es/proposal-explicit-resource-management/#sec-disposablestack.prototype.dispose
function* DisposableStack_dispose(realm: Realm, thisArg: Value): Task<Value> {
  const stack = thisStack(thisArg, false, "dispose")
  if (stack.state === "disposed") return undefined
  stack.state = "disposed"
  yield* DisposeResourcesSync(realm, stack.capability, false, undefined)
  return undefined
}

// https://tc39.es/proposal-explicit-resource-management/#sec-asyncdisposablestack.prototype.disposeAsync
function* AsyncDisposableStack_disposeAsync(realm: Realm, thisArg: Value): Task<Value> {
  const capability = NewIntrinsicPromiseCapability(realm)
  if (!(thisArg instanceof DisposableStackObject) || !thisArg.async) {
    yield* Call(capability.reject, undefined, [toThrowCompletion(realm, new SandboxError("TypeError", "Receiver is not an AsyncDisposableStack")).value])
    return capability.promise
  }
  if (thisArg.state === "disposed") {
    yield* Call(capability.resolve, undefined, [undefined])
    return capability.promise
  }
  thisArg.state = "disposed"
  thisArg.pending = capability
  DisposeBegin(thisArg.capability, false, undefined)
  yield* continueDisposeAsync(realm, thisArg)
  return capability.promise
}

/** Runs DisposeResources of a disposeAsync up to its next Await, or settles its promise. */
function* continueDisposeAsync(realm: Realm, stack: DisposableStackObject): Task<void> {
  const capability = stack.capability
  const next = yield* DisposeNext(realm, capability)
  if (next === EMPTY) {
    const { resolve, reject } = stack.pending!
    stack.pending = undefined
    if (capability.changed) yield* Call(reject, undefined, [capability.value])
    else yield* Call(resolve, undefined, [undefined])
    return
  }
  let promise: JSObject
  try {
    promise = yield* PromiseResolve(realm, realm.intrinsic("%Promise%"), next)
  } catch (e) {
    DisposeRecordError(realm, capability, toThrowCompletion(realm, e).value)
    return yield* continueDisposeAsync(realm, stack)
  }
  PerformPromiseThen(realm, promise as PromiseObject, onFulfilled(realm, { stack }), onRejected(realm, { stack }), undefined)
}

const onFulfilled = defineNativeClosure(
  "AsyncDisposableStack:onFulfilled",
  function* (realm, _this, _args, _newTarget, self) {
    yield* continueDisposeAsync(realm, (self.slots as { stack: DisposableStackObject }).stack)
    return undefined
  },
  1,
)

const onRejected = defineNativeClosure(
  "AsyncDisposableStack:onRejected",
  function* (realm, _this, args, _newTarget, self) {
    const stack = (self.slots as { stack: DisposableStackObject }).stack
    DisposeRecordError(realm, stack.capability, args[0])
    yield* continueDisposeAsync(realm, stack)
    return undefined
  },
  1,
)

export const install = (realm: Realm): void => {
  for (const async of [false, true]) {
    const name = nameOf(async)
    const proto = new JSObject(realm.ObjectPrototype)
    defineConstructor(realm, name, makeConstructor(async), 0, proto)
    defineMethods(realm, proto, `%${name}.prototype%`, [
      ["use", makeUse(async), 1],
      async ? ["disposeAsync", AsyncDisposableStack_disposeAsync, 0] : ["dispose", DisposableStack_dispose, 0],
      ["adopt", makeAdopt(async), 2],
      ["defer", makeDefer(async), 1],
      ["move", makeMove(async), 0],
    ])
    defineAccessors(realm, proto, `%${name}.prototype%`, [["disposed", makeDisposed(async), undefined]])
    // [@@dispose] / [@@asyncDispose] is the same function object as dispose / disposeAsync.
    const dispose = proto.properties.get(async ? "disposeAsync" : "dispose")!.value
    defineValues(proto, [[async ? WellKnownSymbols.asyncDispose : WellKnownSymbols.dispose, dispose]], { writable: true, enumerable: false, configurable: true })
    defineValues(proto, [[WellKnownSymbols.toStringTag, name]], { writable: false, enumerable: false, configurable: true })
  }
}
