/**
 * Element access for the Array built-ins (array.ts, array-sort.ts): the spec's Get / HasProperty / Set /
 * CreateDataPropertyOrThrow / DeletePropertyOrThrow on integer keys, with fast paths that are observably identical
 * to them, and the hole-skipping helpers.
 *
 * `peekIdx` is the hot path: a plain synchronous read that answers for data properties (own or inherited, on any
 * object with the ordinary [[Get]]) and says `SLOW` when reading could run code (an accessor, an exotic [[Get]]);
 * only then do callers pay for the Task (`GetPresent`). Loops therefore allocate nothing per element unless an
 * accessor is involved. Without Proxy, HasProperty cannot run user code, so "HasProperty then Get" is one lookup.
 *
 * `nextPresentIndex` / `prevPresentIndex` let loops that skip missing elements jump over runs of them (a dense
 * array's tail past its storage, the gaps of a sparse array) instead of probing each index, which is what makes
 * `new Array(1e9).forEach(f)` cheap, as it is in V8. They are exact at the moment they are called; loops call
 * them again after running user code.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { JSObject } from "../runtime/object.ts"
import { describeValue, Set } from "../runtime/operations.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import { arrayIndexOf } from "../runtime/property.ts"
import type { EngineRequest, Task } from "../runtime/task.ts"
import { EMPTY, type Empty, isMarker, type Value } from "../runtime/value.ts"

/** `peekIdx` could not answer without running code: use the Task (`GetPresent`). */
export const SLOW: unique symbol = Symbol("slow")
export type Slow = typeof SLOW

const ordinaryGet = JSObject.prototype.Get

/** Element k of O without running code: its value, EMPTY when O has no such property, or SLOW. */
export const peekIdx = (O: JSObject, k: number): Value | Empty | Slow => {
  if (O instanceof ArrayObject) {
    const v = O.getOwnElement(k)
    if (v !== undefined && !isMarker(v)) return v
  }
  if (O.Get !== ordinaryGet) return SLOW
  if (!mayHaveIndexKeys(O)) return EMPTY
  const desc = O.lookup(String(k))
  if (desc === undefined) return EMPTY
  return desc.accessor ? SLOW : desc.value
}

/**
 * Whether O or an object on its chain may have an indexed property. False only for a chain of ordinary objects
 * without one (`Array.from({ length: n }, f)` reads every index of such an object): telling so costs a flag per
 * object, where a lookup made a key string and searched each object's keys for it.
 */
const mayHaveIndexKeys = (O: JSObject): boolean => {
  for (let o: JSObject | null = O; o !== null; o = o.proto) if (o.constructor !== JSObject || o.properties.mayHaveIndexKey()) return true
  return false
}

/**
 * HasProperty(O, k), then Get(O, k) when present: EMPTY for a missing element. A getter found on the chain runs
 * with O as the receiver, exactly as [[Get]] would.
 */
export function* GetPresent(O: JSObject, k: number): Task<Value | Empty> {
  const v = peekIdx(O, k)
  if (v !== SLOW) return v
  if (O.Get !== ordinaryGet) return O.HasProperty(String(k)) ? yield* O.Get(String(k), O) : EMPTY
  const desc = O.lookup(String(k))!
  if (desc.get === undefined) return undefined
  return yield callRequest(desc.get, O, [])
}

/** Get(O, ! ToString(𝔽(k))). */
export function* GetIdx(O: JSObject, k: number): Task<Value> {
  const v = peekIdx(O, k)
  if (v === EMPTY) return undefined
  if (v !== SLOW) return v
  return yield* O.Get(String(k), O)
}

/** A `call` request for a target known to be callable (what `Call` yields, without its extra generator). */
export const callRequest = (f: JSObject, thisArg: Value, args: ReadonlyArray<Value>): EngineRequest => ({ kind: "call", f, thisArg, args })

/** Set(O, ! ToString(𝔽(k)), v, true) with a fast path for a dense array's existing element. */
export function* SetIdx(O: JSObject, k: number, v: Value): Task<void> {
  if (O instanceof ArrayObject) {
    const els = O.elements
    if (els !== null && k < els.length && els[k] !== EMPTY) {
      els[k] = v
      return
    }
  }
  yield* Set(O, String(k), v, true)
}

/** CreateDataPropertyOrThrow(A, ! ToString(𝔽(k)), v). */
export const CreateIdx = (A: JSObject, k: number, v: Value): void => {
  if (A instanceof ArrayObject && A.setOwnElement(k, v)) return
  if (!A.DefineOwnProperty(String(k), { value: v, writable: true, enumerable: true, configurable: true })) {
    throwTypeError(`Cannot add property ${k}, object is not extensible`)
  }
}

/** DeletePropertyOrThrow(O, ! ToString(𝔽(k))), with V8's message. */
export const DeleteIdx = (O: JSObject, k: number): void => {
  if (!O.Delete(String(k))) throwTypeError(`Cannot delete property '${k}' of ${O instanceof ArrayObject ? "[object Array]" : describeValue(O)}`)
}

/** Whether one of o's own keys is an array index: the keys are searched only if its shape may have one. */
export const hasIndexKey = (o: JSObject): boolean => {
  if (!o.properties.mayHaveIndexKey()) return false
  for (const k of o.properties.keys()) if (typeof k === "string" && arrayIndexOf(k) >= 0) return true
  return false
}

/** Does some object on O's prototype chain have an indexed property (or an exotic kind that might)? */
export const protoChainHasElements = (O: JSObject): boolean => {
  for (let p = O.GetPrototypeOf(); p !== null; p = p.GetPrototypeOf()) {
    if (p instanceof ArrayObject) {
      if ((p.elements !== null && p.elements.length > 0) || hasIndexKey(p)) return true
    } else if (p instanceof PrimitiveWrapper) {
      if (p.kind === "String" && (p.primitive as string).length > 0) return true
      if (hasIndexKey(p)) return true
    } else if (p.constructor !== JSObject || hasIndexKey(p)) {
      return true
    }
  }
  return false
}

/** Does an object on O's prototype chain have an own property at index k (which a Set of k would meet)? */
export const protoHasIndex = (O: JSObject, k: number): boolean => {
  const P = String(k)
  for (let p = O.GetPrototypeOf(); p !== null; p = p.GetPrototypeOf()) if (p.GetOwnProperty(P) !== undefined) return true
  return false
}

/** The first index ≥ k below `len` at which O may have an element (own or inherited), or `len`. */
export const nextPresentIndex = (O: JSObject, k: number, len: number): number => {
  if (!(O instanceof ArrayObject)) return k
  const els = O.elements
  if (els !== null) {
    if (k < els.length) return k
    return hasIndexKey(O) || protoChainHasElements(O) ? k : len
  }
  // Sparse: scanning the keys pays off only when the range is much larger than the property map.
  if (len - k <= 4 * O.properties.size + 64 || protoChainHasElements(O)) return k
  let next = len
  for (const key of O.properties.keys()) {
    const i = typeof key === "string" ? arrayIndexOf(key) : -1
    if (i >= k && i < next) next = i
  }
  return next
}

/** The last index ≤ k at which O may have an element, or -1 (the backward twin of nextPresentIndex). */
export const prevPresentIndex = (O: JSObject, k: number): number => {
  if (!(O instanceof ArrayObject)) return k
  const els = O.elements
  if (els !== null) {
    if (k < els.length || hasIndexKey(O) || protoChainHasElements(O)) return k
    return els.length - 1
  }
  if (k <= 4 * O.properties.size + 64 || protoChainHasElements(O)) return k
  let prev = -1
  for (const key of O.properties.keys()) {
    const i = typeof key === "string" ? arrayIndexOf(key) : -1
    if (i <= k && i > prev) prev = i
  }
  return prev
}

/** A dense, extensible array with a writable length and no inherited elements: host moves are unobservable. */
export const isPlainDense = (O: JSObject): O is ArrayObject & { elements: Array<Value | Empty> } =>
  O instanceof ArrayObject && O.elements !== null && O.extensible && O.lengthWritable && !hasIndexKey(O) && !protoChainHasElements(O)

/** Deletes O's own indexed properties in [from, to), ascending — the spec's delete loop without probing holes. */
export const DeleteRange = (O: JSObject, from: number, to: number): void => {
  if (from >= to) return
  if (O instanceof ArrayObject && O.elements !== null && !hasIndexKey(O)) {
    const els = O.elements
    if (to >= els.length) {
      if (els.length > from) els.length = from
    } else {
      for (let i = from; i < to; i++) els[i] = EMPTY
    }
    return
  }
  const indices: number[] = []
  for (const key of O.OwnPropertyKeys()) {
    const i = typeof key === "string" ? arrayIndexOf(key) : -1
    if (i >= from && i < to) indices.push(i)
  }
  indices.sort((a, b) => a - b)
  for (const i of indices) DeleteIdx(O, i)
}

/** Deletes indices len-1 down to newLen, descending (splice's step 15.d), without probing holes. */
export const DeleteRangeDescending = (O: JSObject, newLen: number, len: number): void => {
  if (len - newLen > 1024) {
    const indices: number[] = []
    for (const key of O.OwnPropertyKeys()) {
      const i = typeof key === "string" ? arrayIndexOf(key) : -1
      if (i >= newLen && i < len) indices.push(i)
    }
    indices.sort((a, b) => b - a)
    for (const i of indices) DeleteIdx(O, i)
    return
  }
  for (let k = len; k > newLen; k--) DeleteIdx(O, k - 1)
}
