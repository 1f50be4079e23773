/**
 * Sorting for Array.prototype.sort / toSorted (and anything else that needs the spec's SortCompare order):
 * SortIndexedProperties and a stable merge sort written as a Task, so that every comparator call — and every
 * `toString` the default order makes on an object — is an engine call (`yield`), never a native one.
 *
 * Undefined elements are set aside first (SortCompare puts them last and never passes them to the comparator, as
 * V8 does). Primitives under the default order are sorted by the host's own default sort, which is the same
 * algorithm (ToString, code-unit order, stable) and runs no user code for them.
 *
 * Runs are found and extended exactly as V8's TimSort does, so arrays of fewer than 64 elements get V8's very
 * sequence of comparator calls (and V8's result even for an inconsistent comparator); longer arrays merge their
 * runs without TimSort's galloping, which changes the call sequence but not the result of a consistent order.
 */
import { Caps, checkArrayStorage } from "../runtime/caps.ts"
import { PollInterrupt } from "../runtime/interrupt.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { ToNumber, ToString } from "../runtime/conversions.ts"
import { IsCallable } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { describeValue } from "../runtime/operations.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, SymbolValue, type Value } from "../runtime/value.ts"
import { callRequest, GetIdx, GetPresent, nextPresentIndex, peekIdx, SLOW } from "./array-elements.ts"

/** Step 1 of sort/toSorted: the comparator must be undefined or callable. */
export const comparatorOrThrow = (comparefn: Value): JSObject | undefined => {
  if (comparefn === undefined) return undefined
  if (IsCallable(comparefn)) return comparefn
  const text = comparefn instanceof JSObject || comparefn instanceof SymbolValue ? describeValue(comparefn) : String(comparefn)
  return throwTypeError(`The comparison function must be either a function or undefined: ${text}`)
}

// https://tc39.es/ecma262/#sec-sortindexedproperties
export function* SortIndexedProperties(
  realm: Realm,
  obj: JSObject,
  len: number,
  comparefn: JSObject | undefined,
  holes: "skip-holes" | "read-through-holes",
): Task<Value[]> {
  const items: Value[] = []
  for (let k = 0; k < len; k++) {
    PollInterrupt(realm)
    let v = peekIdx(obj, k)
    if (v === SLOW) v = holes === "skip-holes" ? yield* GetPresent(obj, k) : yield* GetIdx(obj, k)
    if (v === EMPTY) {
      if (holes === "read-through-holes") {
        items.push(undefined)
      } else {
        k = nextPresentIndex(obj, k + 1, len) - 1
        continue
      }
    } else {
      items.push(v)
    }
    if (items.length > Caps.maxArrayStorage) checkArrayStorage(items.length)
  }
  return yield* SortList(realm, items, comparefn)
}

/** Sorts a list in SortCompare order: undefined last, then the comparator's (or code-unit string) order, stably. */
export function* SortList(realm: Realm, items: Value[], comparefn: JSObject | undefined): Task<Value[]> {
  const defined: Value[] = []
  let undefinedCount = 0
  for (const v of items) {
    if (v === undefined) undefinedCount++
    else defined.push(v)
  }
  let sorted: Value[]
  if (comparefn !== undefined) {
    sorted = yield* MergeSort(realm, defined, comparefn)
  } else if (defined.every((v) => !(v instanceof JSObject))) {
    // Primitives: ToString runs no user code, so the host's default sort (the same order, stable) does it.
    if (defined.length > 1 && defined.some((v) => v instanceof SymbolValue)) {
      return throwTypeError("Cannot convert a Symbol value to a string")
    }
    sorted = defined.sort()
  } else {
    sorted = yield* MergeSort(realm, defined, undefined)
  }
  for (let i = 0; i < undefinedCount; i++) sorted.push(undefined)
  return sorted
}

/*
 * https://tc39.es/ecma262/#sec-comparearrayelements for x, y not undefined is, at each comparison below,
 *   const r = comparefn !== undefined ? yield callRequest(comparefn, undefined, [x, y]) : yield* CompareStrings(realm, x, y)
 *   const order = typeof r === "number" && r === r ? r : yield* ToOrder(realm, r)
 * written out rather than as a Task of its own: a sort makes n·log n comparisons, and a generator for each was most
 * of the cost of sorting with a comparator. The order is the comparator's number (NaN is 0), or the order of
 * ToString(x) and ToString(y) by code units.
 */
function* CompareStrings(realm: Realm, x: Value, y: Value): Task<number> {
  const xs = typeof x === "string" ? x : yield* ToString(realm, x)
  const ys = typeof y === "string" ? y : yield* ToString(realm, y)
  return xs < ys ? -1 : xs > ys ? 1 : 0
}

/** A comparator's result that is not a number, or NaN: ToNumber, NaN as 0. */
function* ToOrder(realm: Realm, v: Value): Task<number> {
  const n = yield* ToNumber(realm, v)
  return n !== n ? 0 : n
}

/** V8's minimum run length for n elements (n itself below 64). */
const ComputeMinRunLength = (n: number): number => {
  let r = 0
  while (n >= 64) {
    r |= n & 1
    n >>= 1
  }
  return n + r
}

/**
 * A stable TimSort-shaped sort whose comparisons are Tasks. Runs are found and extended exactly as V8's TimSort does
 * (CountAndMakeRun, then binary insertion up to the minimum run length), so for fewer than 64 elements — one run —
 * the comparator sees the very calls V8 makes; longer arrays then merge the runs pairwise (stable, no galloping).
 */
function* MergeSort(realm: Realm, items: Value[], comparefn: JSObject | undefined): Task<Value[]> {
  const n = items.length
  if (n < 2) return items
  const minRun = ComputeMinRunLength(n)
  const runs: number[] = [] // run start indices
  for (let low = 0; low < n; ) {
    const remaining = n - low
    // CountAndMakeRun: the longest ascending (or strictly descending, then reversed) prefix.
    let runLength = 1
    if (low + 1 < n) {
      runLength = 2
      const r = comparefn !== undefined ? yield callRequest(comparefn, undefined, [items[low + 1], items[low]]) : yield* CompareStrings(realm, items[low + 1], items[low])
      const descending = (typeof r === "number" && r === r ? r : yield* ToOrder(realm, r)) < 0
      let previous = items[low + 1]
      for (let idx = low + 2; idx < n; idx++) {
        const current = items[idx]
        const r = comparefn !== undefined ? yield callRequest(comparefn, undefined, [current, previous]) : yield* CompareStrings(realm, current, previous)
        const order = typeof r === "number" && r === r ? r : yield* ToOrder(realm, r)
        if (descending ? order >= 0 : order < 0) break
        previous = current
        runLength++
      }
      if (descending) reverse(items, low, low + runLength)
    }
    if (runLength < minRun) {
      const forced = Math.min(minRun, remaining)
      yield* BinaryInsertionSort(realm, comparefn, items, low, low + runLength, low + forced)
      runLength = forced
    }
    runs.push(low)
    low += runLength
  }
  runs.push(n)
  // Merge neighbouring runs until one is left.
  let src = items
  let dst: Value[] = new Array<Value>(n)
  let bounds = runs
  while (bounds.length > 2) {
    const next: number[] = []
    for (let r = 0; r + 1 < bounds.length; r += 2) {
      const lo = bounds[r]!
      const mid = bounds[r + 1]!
      const hi = r + 2 < bounds.length ? bounds[r + 2]! : mid
      let i = lo
      let j = mid
      let k = lo
      while (i < mid && j < hi) {
        const r = comparefn !== undefined ? yield callRequest(comparefn, undefined, [src[j], src[i]]) : yield* CompareStrings(realm, src[j], src[i])
        if ((typeof r === "number" && r === r ? r : yield* ToOrder(realm, r)) < 0) dst[k++] = src[j++]
        else dst[k++] = src[i++]
      }
      while (i < mid) dst[k++] = src[i++]
      while (j < hi) dst[k++] = src[j++]
      next.push(lo)
    }
    next.push(n)
    const t = src
    src = dst
    dst = t
    bounds = next
  }
  return src
}

const reverse = (a: Value[], from: number, to: number): void => {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const t = a[i]
    a[i] = a[j]
    a[j] = t
  }
}

/** V8's BinaryInsertionSort: items[low, start) are sorted; insert the rest up to `high`, stably. */
function* BinaryInsertionSort(realm: Realm, comparefn: JSObject | undefined, items: Value[], low: number, startArg: number, high: number): Task<void> {
  for (let start = low === startArg ? startArg + 1 : startArg; start < high; start++) {
    const pivot = items[start]
    let left = low
    let right = start
    while (left < right) {
      const mid = left + ((right - left) >> 1)
      const r = comparefn !== undefined ? yield callRequest(comparefn, undefined, [pivot, items[mid]]) : yield* CompareStrings(realm, pivot, items[mid])
      if ((typeof r === "number" && r === r ? r : yield* ToOrder(realm, r)) < 0) right = mid
      else left = mid + 1
    }
    for (let p = start; p > left; p--) items[p] = items[p - 1]
    items[left] = pivot
  }
}
