/**
 * The slots of every built-in closure kind (runtime/builtin.ts `defineNativeClosure`): a promise's resolving
 * functions, await reactions, Promise.all element functions... A closure's behaviour comes back from its id, and
 * that behaviour reads its slots without checking them (they are internal), so a saved closure's slots are checked
 * here, per kind: an await reaction must point at a generator, a Promise.all element at a dense array and a
 * counter. test/snapshot/registry.test.ts fails when a closure kind has no entry here.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { JSObject } from "../runtime/object.ts"
import { inst, mismatch, opt, rec, refine, type Shape } from "./shape.ts"
import { bool, nat, obj, value } from "./value-shapes.ts"

/** Promise.all's remaining-elements counter: an object with a numeric `count`. */
const counter: Shape = refine(obj, (o: JSObject) => {
  const p = o.properties.get("count")
  return p !== undefined && !p.accessor && typeof p.value === "number" ? undefined : "not a counter"
})

/** A dense array (its elements kept in storage). */
const list: Shape = (v, w, c) => {
  inst("ArrayObject")(v, w, c)
  if ((v as ArrayObject).elements === null) mismatch(`${w}: not a dense array`)
}

const element = (extra: Record<string, Shape>): Shape =>
  refine(rec({ alreadyCalled: bool, index: nat, values: list, remaining: counter, ...extra }), (s: { index: number; values: ArrayObject }) =>
    s.index < s.values.elements!.length ? undefined : "index out of range",
  )

const activation = rec({ activation: inst("GeneratorObject") })
const generator = rec({ generator: inst("GeneratorObject") })
const resolving = rec({ promise: inst("PromiseObject"), alreadyResolved: bool, twin: inst("NativeFunction") })
const unwrap = rec({ done: bool })
const closeIterator = rec({ iterator: obj, nextMethod: value })
const finallyReaction = rec({ onFinally: value, C: obj })
const fromAsync = rec({ state: inst("FromAsyncState") })

export const closureSlots: ReadonlyMap<string, Shape> = new Map<string, Shape>([
  ["AwaitFulfilledFunction", activation],
  ["AwaitRejectedFunction", activation],
  ["AsyncGeneratorAwaitReturnFulfilled", generator],
  ["AsyncGeneratorAwaitReturnRejected", generator],
  ["PromiseResolveFunction", resolving],
  ["PromiseRejectFunction", resolving],
  ["GetCapabilitiesExecutor", rec({ resolve: value, reject: value })],
  ["AsyncFromSyncIteratorValueUnwrap", unwrap],
  ["AsyncFromSyncIteratorCloseIterator", closeIterator],
  ["PromiseFinallyValueThunk", rec({ value })],
  ["PromiseFinallyThrower", rec({ reason: value })],
  ["PromiseThenFinally", finallyReaction],
  ["PromiseCatchFinally", finallyReaction],
  ["PromiseAllResolveElement", element({ resolve: value })],
  ["PromiseAllSettledResolveElement", element({ resolve: value, twin: opt(inst("NativeFunction")) })],
  ["PromiseAllSettledRejectElement", element({ resolve: value, twin: opt(inst("NativeFunction")) })],
  ["PromiseAnyRejectElement", element({ reject: value })],
  ["Array.fromAsync:onFulfilled", fromAsync],
  ["Array.fromAsync:onRejected", fromAsync],
  ["Array.fromAsync:AsyncFromSyncIteratorValueUnwrap", unwrap],
  ["Array.fromAsync:AsyncFromSyncIteratorCloseIterator", closeIterator],
  ["AsyncFromSyncDispose", rec({ method: obj })],
  ["DisposableStackAdoptClosure", rec({ value, onDispose: obj })],
  ["AsyncDisposableStack:onFulfilled", rec({ stack: inst("DisposableStackObject") })],
  ["AsyncDisposableStack:onRejected", rec({ stack: inst("DisposableStackObject") })],
])
