/**
 * The merge sort of SortList (array-sort.ts) as a state machine (runtime/step-task.ts) rather than a generator: a
 * sort makes n·log n comparisons, and a generator resume per comparison (one more for each `yield*` around it) was
 * a third of sorting with a comparator.
 *
 * Runs are found and extended exactly as V8's TimSort does (CountAndMakeRun, then V8's BinaryInsertionSort up to
 * the minimum run length), so for fewer than 64 elements — one run — the comparator sees the very calls V8 makes;
 * longer arrays then merge the runs pairwise (stable, no galloping).
 *
 * https://tc39.es/ecma262/#sec-comparearrayelements for x, y not undefined is each comparison: the comparator's
 * result as a number (NaN is 0; a non-number is converted by a delegated ToOrder, whose `valueOf` may run code),
 * or without a comparator the order of ToString(x) and ToString(y) by code units (a delegated Task when either is
 * an object). `at` says which step the answer being received belongs to; `advance` runs on from there to the next
 * comparison that needs the engine.
 */
import { ToNumber, ToString } from "../runtime/conversions.ts"
import { JSObject } from "../runtime/object.ts"
import type { Realm } from "../runtime/realm.ts"
import { DELEGATED, StepTask, type Step } from "../runtime/step-task.ts"
import { CallbackRequest, type Task } from "../runtime/task.ts"
import type { Value } from "../runtime/value.ts"

/** Where the sort is: the comparison being answered, none yet (Start), or the write-back's Task (WriteBack). */
const At = { Start: 0, RunFirst: 1, RunScan: 2, Insert: 3, Merge: 4, WriteBack: 5 } as const
type At = (typeof At)[keyof typeof At]

function* CompareStrings(realm: Realm, x: Value, y: Value): Task<Value> {
  const xs = typeof x === "string" ? x : yield* ToString(realm, x)
  const ys = typeof y === "string" ? y : yield* ToString(realm, y)
  return xs < ys ? -1 : xs > ys ? 1 : 0
}

/** A comparator's result that is not a number: ToNumber, NaN as 0. */
function* ToOrder(realm: Realm, v: Value): Task<Value> {
  const n = yield* ToNumber(realm, v)
  return n !== n ? 0 : n
}

/** V8's minimum run length for n elements (n itself below 64). */
export const ComputeMinRunLength = (n: number): number => {
  let r = 0
  while (n >= 64) {
    r |= n & 1
    n >>= 1
  }
  return n + r
}

export const reverse = (a: Value[], from: number, to: number): void => {
  for (let i = from, j = to - 1; i < j; i++, j--) {
    const t = a[i]
    a[i] = a[j]
    a[j] = t
  }
}

/** A comparison answered without the engine: its order is in `syncOrder`. */
const SYNC: unique symbol = Symbol("sync")

/**
 * Sorts `items` (no undefined among them) by `comparefn`, or by string order without one. Its result is the sorted
 * list, or what `onSorted(sorted)` makes of it: a result, or a Task whose result is (writing back through setters).
 */
export class SortSteps extends StepTask {
  private readonly realm: Realm
  private readonly items: Value[]
  private readonly n: number
  private readonly minRun: number
  private readonly call: CallbackRequest | undefined
  private readonly onSorted: ((sorted: Value[]) => JSObject | Task<Value>) | undefined
  private at: At = At.Start
  private syncOrder = 0
  /** The answer coming to `advance` is a converted order (ToOrder's result), not the comparator's. */
  private converting = false
  // Finding and extending a run.
  private low = 0
  private runLength = 0
  private descending = false
  private previous: Value = undefined
  private idx = 0
  // Binary insertion into the run.
  private high = 0
  private start = 0
  private left = 0
  private right = 0
  private mid = 0
  private pivot: Value = undefined
  private readonly runs: number[] = []
  // Merging: the pass's source and destination, its run bounds, the pair being merged.
  private src: Value[] = []
  private dst: Value[] = []
  private bounds: number[] = []
  private nextBounds: number[] = []
  private r = 0
  private i = 0
  private j = 0
  private k = 0
  private pairMid = 0
  private pairHi = 0

  constructor(
    realm: Realm,
    items: Value[],
    comparefn: JSObject | undefined,
    onSorted?: (sorted: Value[]) => JSObject | Task<Value>,
  ) {
    super()
    this.realm = realm
    this.items = items
    this.n = items.length
    this.minRun = ComputeMinRunLength(items.length)
    this.call = comparefn === undefined ? undefined : new CallbackRequest(comparefn, undefined)
    this.onSorted = onSorted
  }

  protected advance(v: Value): Step {
    if (typeof v === "number" && !this.converting) {
      // Most answers are a comparator's number for a merge or a binary insertion that goes on (two thirds and a
      // third of a long sort's comparisons): that step alone, without the dispatch. (NaN is 0 here, as 0 < 0 and
      // NaN < 0 are both false.)
      const at = this.at
      if (at === At.Merge) {
        const src = this.src
        let i = this.i
        let j = this.j
        this.dst[this.k++] = v < 0 ? src[j++] : src[i++]
        this.i = i
        this.j = j
        if (i < this.pairMid && j < this.pairHi) return (this.call as CallbackRequest).with2(src[j], src[i])
        return this.loop(this.mergeStep())
      }
      if (at === At.Insert) {
        let left = this.left
        let right = this.right
        if (v < 0) right = this.mid
        else left = this.mid + 1
        this.left = left
        this.right = right
        if (left < right) {
          const mid = left + ((right - left) >> 1)
          this.mid = mid
          return (this.call as CallbackRequest).with2(this.pivot, this.items[mid])
        }
        return this.loop(this.insertStep())
      }
    }
    return this.advanceOther(v)
  }

  /**
   * advance for the rest, out of line: what is left of advance (bytecode 403 -> 331) fits V8's inlining budget more
   * often where the engine asks for the next request (the Machine's return to the loop).
   */
  private advanceOther(v: Value): Step {
    if (this.at === At.WriteBack) return this.finish(v)
    return this.loop(this.at === At.Start ? this.startRun() : this.answered(v))
  }

  /** Comparisons of two strings without a comparator need no engine: runs on from each. */
  private loop(s: Step | typeof SYNC): Step {
    while (s === SYNC) s = this.resume(this.syncOrder)
    return s
  }

  /** The order the answer `v` gives, and the sort run on from it. */
  private answered(v: Value): Step | typeof SYNC {
    let order: number
    if (this.converting) {
      this.converting = false
      order = v as number
    } else if (typeof v === "number") {
      order = v === v ? v : 0
    } else {
      const o = this.delegate(ToOrder(this.realm, v))
      if (o === DELEGATED) {
        this.converting = true
        return DELEGATED
      }
      order = o as number
    }
    return this.resume(order)
  }

  private resume(order: number): Step | typeof SYNC {
    switch (this.at) {
      case At.RunFirst:
        this.descending = order < 0
        this.previous = this.items[this.low + 1]
        this.runLength = 2
        this.idx = this.low + 2
        return this.scanRun()
      case At.RunScan:
        if (this.descending ? order >= 0 : order < 0) return this.endRun()
        this.previous = this.items[this.idx]
        this.runLength++
        this.idx++
        return this.scanRun()
      case At.Insert:
        if (order < 0) this.right = this.mid
        else this.left = this.mid + 1
        return this.insertStep()
      default: {
        const src = this.src
        this.dst[this.k++] = order < 0 ? src[this.j++] : src[this.i++]
        return this.mergeStep()
      }
    }
  }

  private compare(at: At, x: Value, y: Value): Step | typeof SYNC {
    this.at = at
    if (this.call !== undefined) return this.call.with2(x, y)
    const o = this.delegate(CompareStrings(this.realm, x, y))
    if (o === DELEGATED) {
      this.converting = true
      return DELEGATED
    }
    this.syncOrder = o as number
    return SYNC
  }

  /** CountAndMakeRun at `low`: the longest ascending (or strictly descending, then reversed) prefix. */
  private startRun(): Step | typeof SYNC {
    const low = this.low
    if (low >= this.n) return this.startMerge()
    this.descending = false
    if (low + 1 < this.n) return this.compare(At.RunFirst, this.items[low + 1], this.items[low])
    this.runLength = 1
    return this.endRun()
  }

  private scanRun(): Step | typeof SYNC {
    if (this.idx < this.n) return this.compare(At.RunScan, this.items[this.idx], this.previous)
    return this.endRun()
  }

  /** V8's BinaryInsertionSort extends a run shorter than the minimum: items[low, low + runLength) are sorted. */
  private endRun(): Step | typeof SYNC {
    const low = this.low
    if (this.descending) reverse(this.items, low, low + this.runLength)
    if (this.runLength >= this.minRun) return this.nextRun()
    this.high = low + Math.min(this.minRun, this.n - low)
    this.start = low + this.runLength
    return this.insertNext()
  }

  private insertNext(): Step | typeof SYNC {
    if (this.start >= this.high) {
      this.runLength = this.high - this.low
      return this.nextRun()
    }
    this.pivot = this.items[this.start]
    this.left = this.low
    this.right = this.start
    return this.insertStep()
  }

  private insertStep(): Step | typeof SYNC {
    // Each pivot makes at least one comparison (right = start > left), so this never loops without a request.
    for (;;) {
      if (this.left < this.right) {
        this.mid = this.left + ((this.right - this.left) >> 1)
        return this.compare(At.Insert, this.pivot, this.items[this.mid])
      }
      const items = this.items
      const left = this.left
      for (let p = this.start; p > left; p--) items[p] = items[p - 1]
      items[left] = this.pivot
      this.start++
      if (this.start >= this.high) break
      this.pivot = items[this.start]
      this.left = this.low
      this.right = this.start
    }
    this.runLength = this.high - this.low
    return this.nextRun()
  }

  private nextRun(): Step | typeof SYNC {
    this.runs.push(this.low)
    this.low += this.runLength
    return this.startRun()
  }

  private startMerge(): Step | typeof SYNC {
    this.runs.push(this.n)
    this.src = this.items
    // A copy rather than `new Array(n)`: the two lists a merge reads and writes in turn keep one elements kind, so
    // each element access in a merge is monomorphic (a new array is holey, and takes on the kind of what it gets).
    this.dst = this.items.slice()
    this.bounds = this.runs
    return this.mergePass()
  }

  /** Merges neighbouring runs pairwise, pass after pass, until one is left. */
  private mergePass(): Step | typeof SYNC {
    for (;;) {
      if (this.bounds.length <= 2) return this.sorted(this.src)
      this.nextBounds = []
      this.r = 0
      const s = this.mergePair()
      if (s !== undefined) return s
    }
  }

  /** Starts the next pair of the pass; undefined when the pass is over (without a comparison). */
  private mergePair(): Step | typeof SYNC | undefined {
    const bounds = this.bounds
    for (;;) {
      const r = this.r
      if (r + 1 >= bounds.length) {
        this.nextBounds.push(this.n)
        const t = this.src
        this.src = this.dst
        this.dst = t
        this.bounds = this.nextBounds
        return undefined
      }
      const lo = bounds[r]!
      const mid = bounds[r + 1]!
      this.pairMid = mid
      this.pairHi = r + 2 < bounds.length ? bounds[r + 2]! : mid
      this.i = lo
      this.j = mid
      this.k = lo
      if (lo < mid && mid < this.pairHi) return this.compare(At.Merge, this.src[mid], this.src[lo])
      this.endPair()
    }
  }

  private mergeStep(): Step | typeof SYNC {
    if (this.i < this.pairMid && this.j < this.pairHi) return this.compare(At.Merge, this.src[this.j], this.src[this.i])
    this.endPair()
    const s = this.mergePair()
    return s !== undefined ? s : this.mergePass()
  }

  /** Copies what is left of the pair's two runs and records the merged run. */
  private endPair(): void {
    const src = this.src
    const dst = this.dst
    let k = this.k
    for (let i = this.i; i < this.pairMid; i++) dst[k++] = src[i]
    for (let j = this.j; j < this.pairHi; j++) dst[k++] = src[j]
    this.nextBounds.push(this.bounds[this.r]!)
    this.r += 2
  }

  private sorted(list: Value[]): Step {
    if (this.onSorted === undefined) return this.finish(list as unknown as Value)
    const end = this.onSorted(list)
    if (end instanceof JSObject) return this.finish(end)
    this.at = At.WriteBack
    const v = this.delegate(end)
    return v === DELEGATED ? DELEGATED : this.finish(v)
  }
}
