/**
 * The memory budget of a run (`limits.maxMemoryBytes`). A run's values live in the host's heap, which no engine
 * can measure per run, so the runtime keeps its own count: every allocation is charged where it happens —
 * objects, properties, array and typed-array storage, ArrayBuffers, strings a run makes, BigInts, Map/Set
 * entries, environments — at an upper estimate of V8's size (64-bit, no pointer compression), and the run ends,
 * uncatchably, as soon as the count passes the budget.
 *
 * Charges only add up, so garbage would count for ever; to budget live memory instead, the count is replaced by a
 * measure of what is still reachable (heap-size.ts) whenever it has used half the room left: the meter asks the
 * engine to end its slice (`onPressure`), and the host measures at the slice boundary, where no host function
 * holds run values. Where the engine cannot stop there (a built-in that runs program callbacks is on the stack),
 * the count goes on adding up until it can: the budget errs towards ending a run, never towards the host.
 *
 * Objects do not know their realm, so the meter of the run executing now is module state, installed by the host
 * around each slice (`runMetered`): runs interleave only between slices, and a nested run restores its caller's.
 * Decoding a snapshot runs outside any slice and charges nothing; the saved count is restored instead.
 */
import { Termination } from "./completion.ts"
import { measureHeap } from "./heap-size.ts"

export class MemoryMeter {
  /** Bytes counted: the live size at the last measure, plus what was charged since (saved in snapshots). */
  used: number
  readonly limit: number
  /**
   * The count at which to measure again: halfway between the last live size and the limit, and at least an eighth
   * of the limit later, so that measuring (which walks the live heap) costs at most a few times what was allocated.
   */
  private trigger: number
  /** Set once the count passes the trigger, until the next measure. */
  pressure = false
  /** Asks the engine to end its slice soon, so the host can measure. */
  onPressure: (() => void) | undefined = undefined

  constructor(limit: number, used = 0) {
    this.limit = limit
    this.used = used
    this.trigger = nextTrigger(used, limit)
  }

  charge(bytes: number): void {
    this.used += bytes
    if (this.used <= this.trigger) return
    if (this.used > this.limit) {
      throw new Termination({
        kind: "ExecutionFailure",
        message: `Memory limit exceeded: the run needs more than its ${this.limit} bytes (limits.maxMemoryBytes)`,
      })
    }
    if (!this.pressure) {
      this.pressure = true
      this.onPressure?.()
    }
  }

  /**
   * Replaces the count by the live size of what `roots` reach, less `baseline` (what a fresh realm holds before
   * the program runs). Call only where no host function holds run values. The next charge ends the run when even
   * the live size is over the budget.
   */
  measure(roots: ReadonlyArray<unknown>, baseline: number): void {
    const live = Math.max(0, measureHeap(roots, this.limit + baseline + 1) - baseline)
    this.used = live
    this.trigger = nextTrigger(live, this.limit)
    this.pressure = false
  }
}

const nextTrigger = (live: number, limit: number): number => live + Math.max((limit - live) / 2, limit / 8)

/** Upper estimates, in bytes, of what the host pays for each kind of allocation. */
export const Cost = {
  /** A JSObject: the object (64), its property Map (32) and that Map's initial table (136). */
  object: 240,
  /** A property added to the Map: the entry and its Property record. */
  property: 96,
  /** One element of an array's dense storage (a tagged pointer plus growth slack). */
  element: 16,
  /** A Map or Set entry: the host entry, its key and value slots. */
  entry: 64,
  /** An environment record or frame; its binding slots are charged as elements. */
  environment: 64,
  /** A string's header; its characters cost 2 bytes each (two-byte strings). */
  string: 32,
} as const

let current: MemoryMeter | undefined

/** Charges `bytes` to the run executing now; past its budget the run ends (a Termination: no program can catch it). */
export const chargeMemory = (bytes: number): void => {
  if (current !== undefined) current.charge(bytes)
}

/** A string of `length` code units made by the run (a concatenation, a built-in's result). */
export const chargeString = (length: number): void => {
  if (current !== undefined) current.charge(Cost.string + 2 * length)
}

/** A BigInt the run made: its magnitude in 64-bit limbs. */
export const chargeBigInt = (n: bigint): void => {
  if (current === undefined) return
  const a = n < 0n ? -n : n
  // Small values (most of them) cost a header; a long one is measured by its bit length, cheaply bounded by hex.
  current.charge(a < 1n << 64n ? Cost.string : Cost.string + Math.ceil(a.toString(16).length / 16) * 8)
}

/** Runs `f` (one slice of a run) with `meter` charged for what it allocates. */
export const runMetered = <A>(meter: MemoryMeter | undefined, f: () => A): A => {
  const outer = current
  current = meter
  try {
    return f()
  } finally {
    current = outer
  }
}
