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
import { IsCallable } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { describeValue } from "../runtime/operations.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, SymbolValue, type Value } from "../runtime/value.ts"
import { SortSteps } from "./array-sort-steps.ts"
import { GetIdx, GetPresent, nextPresentIndex, peekIdx, SLOW } from "./array-elements.ts"

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

/**
 * Sorts a list in SortCompare order: undefined last, then the comparator's (or code-unit string) order, stably
 * (the merge sort is SortSteps, array-sort-steps.ts).
 */
export function* SortList(realm: Realm, list: Value[], comparefn: JSObject | undefined): Task<Value[]> {
  const items: Value[] = []
  let undefinedCount = 0
  for (const v of list) {
    if (v === undefined) undefinedCount++
    else items.push(v)
  }
  if (comparefn === undefined && items.every((v) => !(v instanceof JSObject))) {
    // Primitives: ToString runs no user code, so the host's default sort (the same order, stable) does it.
    if (items.length > 1 && items.some((v) => v instanceof SymbolValue)) return throwTypeError("Cannot convert a Symbol value to a string")
    return undefinedLast(items.sort(), undefinedCount)
  }
  const sorted = (yield* new SortSteps(realm, items, comparefn)) as unknown as Value[]
  return undefinedLast(sorted, undefinedCount)
}

export const undefinedLast = (sorted: Value[], undefinedCount: number): Value[] => {
  for (let i = 0; i < undefinedCount; i++) sorted.push(undefined)
  return sorted
}
