/**
 * Sorting for Array.prototype.sort / toSorted (and anything else that needs the spec's SortCompare order):
 * SortIndexedProperties (IndexedItems, then SortList) and a stable merge sort written as a Task, so that every
 * comparator call — and every `toString` the default order makes on an object — is an engine call (`yield`), never
 * a native one.
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
import { CallbackRequest, GetIdx, GetPresent, nextPresentIndex, peekIdx, SLOW } from "./array-elements.ts"

/** Step 1 of sort/toSorted: the comparator must be undefined or callable. */
export const comparatorOrThrow = (comparefn: Value): JSObject | undefined => {
  if (comparefn === undefined) return undefined
  if (IsCallable(comparefn)) return comparefn
  const text = comparefn instanceof JSObject || comparefn instanceof SymbolValue ? describeValue(comparefn) : String(comparefn)
  return throwTypeError(`The comparison function must be either a function or undefined: ${text}`)
}

/**
 * https://tc39.es/ecma262/#sec-sortindexedproperties, steps 1-3: the elements to sort, holes skipped or read as
 * undefined. The sort itself is SortList, called by the method, so that the sort's Task is one `yield*` below the
 * method's: every comparator call passes through each Task between the engine and the comparison.
 */
export function* IndexedItems(realm: Realm, obj: JSObject, len: number, holes: "skip-holes" | "read-through-holes"): Task<Value[]> {
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
  return items
}

/*
 * https://tc39.es/ecma262/#sec-comparearrayelements for x, y not undefined is, at each comparison below,
 *   const c = compare !== undefined ? yield compare.with([x, y]) : yield* CompareStrings(realm, x, y)
 *   const order = typeof c === "number" && c === c ? c : yield* ToOrder(realm, c)
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
 * Sorts a list in SortCompare order: undefined last, then the comparator's (or code-unit string) order, stably.
 *
 * A TimSort-shaped merge sort whose comparisons are engine calls, in one Task (no `yield*` per run or comparison).
 * Runs are found and extended exactly as V8's TimSort does (CountAndMakeRun, then V8's BinaryInsertionSort up to the
 * minimum run length), so for fewer than 64 elements — one run — the comparator sees the very calls V8 makes; longer
 * arrays then merge the runs pairwise (stable, no galloping).
 */
export function* SortList(realm: Realm, list: Value[], comparefn: JSObject | undefined): Task<Value[]> {
  const items: Value[] = []
  let undefinedCount = 0
  for (const v of list) {
    if (v === undefined) undefinedCount++
    else items.push(v)
  }
  const n = items.length
  const compare = comparefn === undefined ? undefined : new CallbackRequest(comparefn, undefined)
  if (comparefn === undefined && items.every((v) => !(v instanceof JSObject))) {
    // Primitives: ToString runs no user code, so the host's default sort (the same order, stable) does it.
    if (n > 1 && items.some((v) => v instanceof SymbolValue)) return throwTypeError("Cannot convert a Symbol value to a string")
    return undefinedLast(items.sort(), undefinedCount)
  }
  const minRun = ComputeMinRunLength(n)
  const runs: number[] = [] // run start indices
  for (let low = 0; low < n; ) {
    const remaining = n - low
    // CountAndMakeRun: the longest ascending (or strictly descending, then reversed) prefix.
    let runLength = 1
    if (low + 1 < n) {
      runLength = 2
      const c = compare !== undefined ? yield compare.with([items[low + 1], items[low]]) : yield* CompareStrings(realm, items[low + 1], items[low])
      const descending = (typeof c === "number" && c === c ? c : yield* ToOrder(realm, c)) < 0
      let previous = items[low + 1]
      for (let idx = low + 2; idx < n; idx++) {
        const current = items[idx]
        const c = compare !== undefined ? yield compare.with([current, previous]) : yield* CompareStrings(realm, current, previous)
        const order = typeof c === "number" && c === c ? c : yield* ToOrder(realm, c)
        if (descending ? order >= 0 : order < 0) break
        previous = current
        runLength++
      }
      if (descending) reverse(items, low, low + runLength)
    }
    if (runLength < minRun) {
      // V8's BinaryInsertionSort: items[low, low + runLength) are sorted; insert the rest of the forced run, stably.
      const high = low + Math.min(minRun, remaining)
      for (let start = low + runLength; start < high; start++) {
        const pivot = items[start]
        let left = low
        let right = start
        while (left < right) {
          const mid = left + ((right - left) >> 1)
          const c = compare !== undefined ? yield compare.with([pivot, items[mid]]) : yield* CompareStrings(realm, pivot, items[mid])
          if ((typeof c === "number" && c === c ? c : yield* ToOrder(realm, c)) < 0) right = mid
          else left = mid + 1
        }
        for (let p = start; p > left; p--) items[p] = items[p - 1]
        items[left] = pivot
      }
      runLength = high - low
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
        const c = compare !== undefined ? yield compare.with([src[j], src[i]]) : yield* CompareStrings(realm, src[j], src[i])
        if ((typeof c === "number" && c === c ? c : yield* ToOrder(realm, c)) < 0) dst[k++] = src[j++]
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
  return undefinedLast(src, undefinedCount)
}

const undefinedLast = (sorted: Value[], undefinedCount: number): Value[] => {
  for (let i = 0; i < undefinedCount; i++) sorted.push(undefined)
  return sorted
}

const reverse = (a: Value[], from: number, to: number): void => {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const t = a[i]
    a[i] = a[j]
    a[j] = t
  }
}
