/**
 * The loops of the Array built-ins that call a program function once per element — forEach, map, filter, some,
 * every, find/findIndex/findLast/findLastIndex, reduce/reduceRight, and Array.from's array-like walk with a mapper —
 * as one state machine (runtime/step-task.ts) instead of a generator each: the callback of a 20,000-row pipeline
 * runs 20,000 times per method, and a generator resume (one more for each `yield*` around it) and an IteratorResult
 * per call were a large part of each. Methods whose set-up runs no code return the loop itself as their Task.
 *
 * Each iteration is the spec's: element k read with HasProperty then Get (missing elements skipped, and runs of
 * them jumped over), or read through holes as undefined (find, Array.from); a read that could run code (a getter)
 * is a delegated Task. `reading` and `calling` say what the answer coming to `advance` is.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { Caps, checkArrayStorage } from "../runtime/caps.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { chargeMemory, Cost } from "../runtime/memory.ts"
import { ToBoolean } from "../runtime/conversions.ts"
import { PollInterrupt } from "../runtime/interrupt.ts"
import type { JSObject } from "../runtime/object.ts"
import { Set } from "../runtime/operations.ts"
import type { Realm } from "../runtime/realm.ts"
import { DELEGATED, StepTask, type Step } from "../runtime/step-task.ts"
import { CallbackRequest, type Task } from "../runtime/task.ts"
import { type Empty, isMarker, type Value } from "../runtime/value.ts"
import { CreateIdx, GetIdx, GetPresent, nextPresentIndex, peekIdx, prevPresentIndex, SLOW } from "./array-elements.ts"

/**
 * Array.from's result storage reserved up front, at most: the source of `Array.from({ length: n }, f)` stores
 * nothing, so n is all there is to go by, and a hostile n must not be charged before anything is written.
 */
const MAX_RESERVE = 1 << 16

/**
 * The most room filter reserves for what it keeps: an array of more elements is a large object to V8 (over 128 KB),
 * each one pages mapped for it, faulted in and unmapped again by the next scavenge, where a filter that keeps a few
 * of 20,000 elements needs none; one that keeps more grows past this as an array pushed to does.
 */
const FILTER_ROOM = 16_000

/** The elements O stores below len: what map's result will store (O's holes stay holes in it). */
const storedLength = (O: JSObject, len: number): number => (O instanceof ArrayObject && O.elements !== null ? Math.min(len, O.elements.length) : 0)

export type LoopKind = "forEach" | "map" | "filter" | "some" | "every" | "find" | "findIndex" | "reduce" | "from"

export class ElementLoop extends StepTask {
  private readonly realm: Realm
  private readonly kind: LoopKind
  private readonly O: JSObject
  /**
   * O when it is an Array (its class never changes), else undefined: each element is read from its storage without
   * an `instanceof` and a call per element; peekIdx answers for the rest.
   */
  private readonly array: ArrayObject | undefined
  private readonly len: number
  /**
   * Array.from without a mapper: none, each element is stored as it is. filter and find read element k back from its
   * first argument, which holds it until the next call, rather than keep it in a field of the loop as well: a store
   * per element, which V8 makes with a write barrier once the loop is in its old generation.
   */
  private readonly call: CallbackRequest | undefined
  /** map, filter and from: the array being built. */
  private readonly A: JSObject | undefined
  /**
   * map and from into an array no program code can reach before the loop returns it: its storage, reserved up
   * front, which element k is stored into directly (CreateIdx's checks cannot fail there).
   */
  private readonly out: Array<Value | Empty> | undefined
  private readonly descending: boolean
  /** find, findIndex and from read missing elements as undefined instead of skipping them. */
  private readonly throughHoles: boolean
  private k: number
  /** filter: the next index of A. */
  private to = 0
  /**
   * filter into an array no program code can reach before the loop returns it: the elements kept so far, A's
   * storage at the end. Room for every element O stores from the start (growing it one element at a time copied
   * it ~20 times), up to FILTER_ROOM: past it V8 grows the array as it goes.
   */
  private readonly kept: Value[] | undefined
  /** reduce: the accumulator, once there is one. */
  private accumulator: Value
  private haveAccumulator: boolean
  private reading = false
  private calling = false
  /** from: the answer is the end of Set(A, "length"). */
  private ending = false

  constructor(
    realm: Realm,
    kind: LoopKind,
    O: JSObject,
    len: number,
    call: CallbackRequest | undefined,
    options: {
      A?: JSObject | undefined
      /** A is a new array no program code can reach until the loop returns it. */
      unreachable?: boolean
      descending?: boolean
      initial?: { readonly value: Value } | undefined
    } = {},
  ) {
    super()
    this.realm = realm
    this.kind = kind
    this.O = O
    this.array = O instanceof ArrayObject ? O : undefined
    this.len = len
    this.call = call
    const A = options.A
    this.A = A
    if (A instanceof ArrayObject) A.reserve(kind === "map" ? storedLength(O, len) : kind === "from" ? Math.min(len, MAX_RESERVE) : 0)
    this.out = A instanceof ArrayObject && options.unreachable === true && (kind === "map" || kind === "from") ? (A.elements ?? undefined) : undefined
    this.kept = kind === "filter" && options.unreachable === true ? new Array<Value>(Math.min(storedLength(O, len), FILTER_ROOM)) : undefined
    this.descending = options.descending === true
    this.throughHoles = kind === "find" || kind === "findIndex" || kind === "from"
    this.k = this.descending ? len - 1 : 0
    this.accumulator = options.initial?.value
    this.haveAccumulator = options.initial !== undefined
  }

  protected advance(v: Value): Step {
    if (this.ending) return this.finish(v)
    let s: Step | undefined
    if (this.reading) {
      this.reading = false
      s = this.element(v as Value | Empty)
    } else if (this.calling) {
      this.calling = false
      s = this.answered(v)
    }
    while (s === undefined) s = this.nextElement()
    return s
  }

  /** Reads element k: the call for it, a delegated read, the end, or undefined to go on with the next index. */
  private nextElement(): Step | undefined {
    const k = this.k
    if (this.descending ? k < 0 : k >= this.len) return this.end()
    PollInterrupt(this.realm)
    const els = this.array?.elements
    if (els != null && k < els.length) {
      const e = els[k] as Value | Empty
      if (!isMarker(e)) return this.element(e)
    }
    let v = peekIdx(this.O, k)
    if (isMarker(v) && v === SLOW) {
      const r = this.delegate(this.throughHoles ? GetIdx(this.O, k) : (GetPresent(this.O, k) as Task<Value>))
      if (r === DELEGATED) {
        this.reading = true
        return DELEGATED
      }
      v = r
    }
    return this.element(v)
  }

  private element(v: Value | Empty): Step | undefined {
    const k = this.k
    if (isMarker(v)) {
      if (!this.throughHoles) {
        this.k = this.descending ? prevPresentIndex(this.O, k - 1) : nextPresentIndex(this.O, k + 1, this.len)
        return undefined
      }
      v = undefined
    }
    const call = this.call
    switch (this.kind) {
      case "reduce":
        if (!this.haveAccumulator) {
          // Without an initial value, the first present element is the accumulator.
          this.accumulator = v
          this.haveAccumulator = true
          this.k += this.descending ? -1 : 1
          return undefined
        }
        this.calling = true
        return (call as CallbackRequest).with4(this.accumulator, v, k, this.O)
      case "from":
        if (call === undefined) return this.answered(v)
        this.calling = true
        return call.with2(v, k)
      default:
        this.calling = true
        return (call as CallbackRequest).with3(v, k, this.O)
    }
  }

  /** The callback's answer for element k: the loop's result if it ends here, else undefined. */
  private answered(v: Value): Step | undefined {
    const k = this.k
    switch (this.kind) {
      case "map":
      case "from": {
        const out = this.out
        if (out !== undefined && k < out.length) out[k] = v
        else CreateIdx(this.A as JSObject, k, v)
        break
      }
      case "filter":
        if (ToBoolean(v)) this.keep((this.call as CallbackRequest).argv[0])
        break
      case "some":
        if (ToBoolean(v)) return this.finish(true)
        break
      case "every":
        if (!ToBoolean(v)) return this.finish(false)
        break
      case "find":
        if (ToBoolean(v)) return this.finish((this.call as CallbackRequest).argv[0])
        break
      case "findIndex":
        if (ToBoolean(v)) return this.finish(k)
        break
      case "reduce":
        this.accumulator = v
        break
    }
    this.k = this.descending ? k - 1 : k + 1
    return undefined
  }

  private keep(v: Value): void {
    const kept = this.kept
    if (kept === undefined) {
      CreateIdx(this.A as JSObject, this.to++, v)
      return
    }
    // What appending to A would charge and check.
    if (this.to >= Caps.maxArrayStorage) checkArrayStorage(this.to + 1)
    chargeMemory(Cost.element)
    kept[this.to++] = v
  }

  private end(): Step {
    switch (this.kind) {
      case "map":
        return this.finish(this.A as JSObject)
      case "filter": {
        const A = this.A as ArrayObject
        const kept = this.kept
        if (kept !== undefined) {
          kept.length = this.to
          A.elements = kept
          A.length = this.to
        }
        return this.finish(A)
      }
      case "from": {
        const r = this.delegate(SetLengthThen(this.A as JSObject, this.len))
        if (r !== DELEGATED) return this.finish(r)
        this.ending = true
        return DELEGATED
      }
      case "some":
        return this.finish(false)
      case "every":
        return this.finish(true)
      case "find":
        return this.finish(undefined)
      case "findIndex":
        return this.finish(-1)
      case "reduce":
        if (!this.haveAccumulator) return throwTypeError("Reduce of empty array with no initial value")
        return this.finish(this.accumulator)
      default:
        return this.finish(undefined)
    }
  }
}

/** Set(A, "length", len, true), which a setter on A's chain may see; then A. */
function* SetLengthThen(A: JSObject, len: number): Task<Value> {
  yield* Set(A, "length", len, true)
  return A
}
