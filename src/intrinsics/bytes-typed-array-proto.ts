/**
 * The methods of %TypedArray%.prototype (https://tc39.es/ecma262/#sec-properties-of-the-%typedarray%-prototype-object).
 * Each validates its receiver (ValidateTypedArray) and takes the length once, as the spec does; element reads after
 * user code has run (callbacks, valueOf of an argument) go through IsValidIntegerIndex again, so a buffer detached
 * or shrunk meanwhile reads as undefined and writes are dropped. Methods that only move bytes work on the byte
 * store directly. Sorting is a stable merge sort written as a Task so a comparator runs as an ordinary call.
 */
import { Caps, checkStringLength } from "../runtime/caps.ts"
import { PollInterrupt, PollWork } from "../runtime/interrupt.ts"
import { throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { ToBoolean, ToIntegerOrInfinity, ToNumber, ToObject, ToString } from "../runtime/conversions.ts"
import { IsCallable } from "../runtime/function-object.ts"
import { SameValueZero } from "../runtime/comparison.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, Invoke, LengthOfArrayLike } from "../runtime/operations.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { Value } from "../runtime/value.ts"
import {
  ArrayBufferByteLength,
  copyBytes,
  IsTypedArrayOutOfBounds,
  readElement,
  ToElementValue,
  TypedArrayLength,
  TypedArrayObject,
  TypedArraySetElement,
  typedArrayBytes,
  writeElement,
} from "./bytes-objects.ts"
import {
  GetIndex,
  receiverText,
  requireCallable,
  requireCallablePlain,
  TypedArrayCreateSameType,
  TypedArraySpeciesCreate,
  ValidateTypedArray,
} from "./bytes-typed-array.ts"

type Args = ReadonlyArray<Value>
const P = "%TypedArray%.prototype."

/** A relative index argument clamped to [0, len] (the spec's "If relative < 0 ... else min(relative, len)"). */
const clampIndex = (relative: number, len: number): number =>
  relative === -Infinity ? 0 : relative < 0 ? Math.max(len + relative, 0) : Math.min(relative, len)

function* relativeEnd(realm: Realm, end: Value, len: number): Task<number> {
  return end === undefined ? len : clampIndex(yield* ToIntegerOrInfinity(realm, end), len)
}

/** Re-validates after user code ran: TypeError if now out of bounds, else the current length. */
const revalidate = (O: TypedArrayObject, method: string): number => {
  if (IsTypedArrayOutOfBounds(O)) return throwTypeError(`Cannot perform ${P}${method} on a detached ArrayBuffer`)
  return TypedArrayLength(O)
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.at
export function* TypedArrayProto_at(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}at`)
  const relativeIndex = yield* ToIntegerOrInfinity(realm, args[0])
  const k = relativeIndex >= 0 ? relativeIndex : len + relativeIndex
  if (k < 0 || k >= len) return undefined
  return O.getElement(k)
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.copywithin
export function* TypedArrayProto_copyWithin(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len0] = ValidateTypedArray(thisArg, `${P}copyWithin`)
  let len = len0
  const targetIndex = clampIndex(yield* ToIntegerOrInfinity(realm, args[0]), len)
  const startIndex = clampIndex(yield* ToIntegerOrInfinity(realm, args[1]), len)
  const endIndex = yield* relativeEnd(realm, args[2], len)
  const count = Math.min(endIndex - startIndex, len - targetIndex)
  if (count > 0) {
    // 17.b-c. The arguments may have run user code: re-validate and re-read the length.
    len = revalidate(O, "copyWithin")
    const elementSize = O.info.size
    const byteOffset = O.byteOffset
    const bufferByteLimit = len * elementSize + byteOffset
    const toByteIndex = targetIndex * elementSize + byteOffset
    const fromByteIndex = startIndex * elementSize + byteOffset
    // Bytes at or past the limit are skipped (the array shrank): copy only those below it, memmove-style.
    const countBytes = Math.min(count * elementSize, bufferByteLimit - Math.max(toByteIndex, fromByteIndex))
    const data = O.buffer.data!
    copyBytes(data, fromByteIndex, data, toByteIndex, countBytes)
  }
  return O
}

/** every / some / forEach / find* share this loop shape: call the predicate on each element in order. */
function* callbackLoop(
  thisArg: Value,
  args: Args,
  method: string,
  visit: (result: Value, kValue: Value, k: number) => Value | typeof CONTINUE,
  reverse = false,
): Task<Value | typeof CONTINUE> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}${method}`)
  const callback = requireCallable(args[0])
  const T = args[1]
  for (let i = 0; i < len; i++) {
    const k = reverse ? len - 1 - i : i
    const kValue = O.getElement(k)
    const result = yield* Call(callback, T, [kValue, k, O])
    const r = visit(result, kValue, k)
    if (r !== CONTINUE) return r
  }
  return CONTINUE
}
const CONTINUE: unique symbol = Symbol("continue")

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.every
export function* TypedArrayProto_every(_realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const r = yield* callbackLoop(thisArg, args, "every", (res) => (ToBoolean(res) ? CONTINUE : false))
  return r === CONTINUE ? true : r
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.some
export function* TypedArrayProto_some(_realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const r = yield* callbackLoop(thisArg, args, "some", (res) => (ToBoolean(res) ? true : CONTINUE))
  return r === CONTINUE ? false : r
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.foreach
export function* TypedArrayProto_forEach(_realm: Realm, thisArg: Value, args: Args): Task<Value> {
  yield* callbackLoop(thisArg, args, "forEach", () => CONTINUE)
  return undefined
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.find (and findIndex, findLast, findLastIndex: FindViaPredicate)
const makeFind = (method: string, reverse: boolean, wantIndex: boolean) =>
  function* TypedArrayProto_find(_realm: Realm, thisArg: Value, args: Args): Task<Value> {
    const r = yield* callbackLoop(thisArg, args, method, (res, kValue, k) => (ToBoolean(res) ? (wantIndex ? k : kValue) : CONTINUE), reverse)
    return r === CONTINUE ? (wantIndex ? -1 : undefined) : r
  }
export const TypedArrayProto_find = makeFind("find", false, false)
export const TypedArrayProto_findIndex = makeFind("findIndex", false, true)
export const TypedArrayProto_findLast = makeFind("findLast", true, false)
export const TypedArrayProto_findLastIndex = makeFind("findLastIndex", true, true)

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.fill
export function* TypedArrayProto_fill(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len0] = ValidateTypedArray(thisArg, `${P}fill`)
  // 4-5. Convert the value first (ToBigInt or ToNumber), then the indices.
  const value = yield* ToElementValue(realm, O.info.bigint, args[0])
  const startIndex = clampIndex(yield* ToIntegerOrInfinity(realm, args[1]), len0)
  let endIndex = yield* relativeEnd(realm, args[2], len0)
  // 15-17. Re-validate; the array may have shrunk.
  const len = revalidate(O, "fill")
  endIndex = Math.min(endIndex, len)
  for (let k = startIndex; k < endIndex; k++) {
    PollInterrupt(realm)
    writeElement(O, k, value)
  }
  return O
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.filter
export function* TypedArrayProto_filter(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}filter`)
  const callback = requireCallable(args[0])
  const T = args[1]
  const kept: Value[] = []
  for (let k = 0; k < len; k++) {
    const kValue = O.getElement(k)
    const selected = ToBoolean(yield* Call(callback, T, [kValue, k, O]))
    if (selected) kept.push(kValue)
  }
  const A = yield* TypedArraySpeciesCreate(realm, O, [kept.length], `${P}filter`)
  for (let n = 0; n < kept.length; n++) yield* TypedArraySetElement(realm, A, n, kept[n])
  return A
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.includes
export function* TypedArrayProto_includes(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}includes`)
  if (len === 0) return false
  const n = yield* ToIntegerOrInfinity(realm, args[1])
  if (n === Infinity) return false
  const searchElement = args[0]
  for (let k = n >= 0 ? n : Math.max(len + n, 0); k < len; k++) {
    PollInterrupt(realm)
    if (SameValueZero(searchElement, O.getElement(k))) return true
  }
  return false
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.indexof
export function* TypedArrayProto_indexOf(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}indexOf`)
  if (len === 0) return -1
  const n = yield* ToIntegerOrInfinity(realm, args[1])
  if (n === Infinity) return -1
  const searchElement = args[0]
  if (typeof searchElement !== "number" && typeof searchElement !== "bigint") return -1
  for (let k = n >= 0 ? n : Math.max(len + n, 0); k < len; k++) {
    PollInterrupt(realm)
    // kPresent is HasProperty: an element beyond a shrunk array is absent (getElement is undefined).
    const elementK = O.getElement(k)
    if (elementK !== undefined && elementK === searchElement) return k
  }
  return -1
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.lastindexof
export function* TypedArrayProto_lastIndexOf(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}lastIndexOf`)
  if (len === 0) return -1
  const n = args.length > 1 ? yield* ToIntegerOrInfinity(realm, args[1]) : len - 1
  if (n === -Infinity) return -1
  const searchElement = args[0]
  if (typeof searchElement !== "number" && typeof searchElement !== "bigint") return -1
  for (let k = n >= 0 ? Math.min(n, len - 1) : len + n; k >= 0; k--) {
    PollInterrupt(realm)
    const elementK = O.getElement(k)
    if (elementK !== undefined && elementK === searchElement) return k
  }
  return -1
}

/** The string form of an element (a Number or a BigInt; undefined when the array shrank). */
const elementString = (v: number | bigint | undefined): string => (v === undefined ? "" : String(v))

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.join
export function* TypedArrayProto_join(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}join`)
  const separator = args[0]
  const sep = separator === undefined ? "," : typeof separator === "string" ? separator : yield* ToString(realm, separator)
  // Every element writes at least one character: a result past the cap is refused before building it.
  if (len > 0 && len + (len - 1) * sep.length > Caps.maxStringLength) checkStringLength(len + (len - 1) * sep.length)
  const parts: string[] = []
  let size = 0
  for (let k = 0; k < len; k++) {
    PollInterrupt(realm)
    const s = elementString(O.getElement(k))
    size += s.length + (k > 0 ? sep.length : 0)
    checkStringLength(size)
    parts.push(s)
  }
  return parts.join(sep)
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.map
export function* TypedArrayProto_map(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}map`)
  const callback = requireCallablePlain(args[0])
  const T = args[1]
  const A = yield* TypedArraySpeciesCreate(realm, O, [len], `${P}map`)
  for (let k = 0; k < len; k++) {
    const kValue = O.getElement(k)
    const mappedValue = yield* Call(callback, T, [kValue, k, O])
    yield* TypedArraySetElement(realm, A, k, mappedValue)
  }
  return A
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.reduce (and reduceRight)
const makeReduce = (method: string, right: boolean) =>
  function* TypedArrayProto_reduce(_realm: Realm, thisArg: Value, args: Args): Task<Value> {
    const [O, len] = ValidateTypedArray(thisArg, `${P}${method}`)
    const callback = requireCallable(args[0])
    if (len === 0 && args.length < 2) return throwTypeError("Reduce of empty array with no initial value")
    let i = 0
    let accumulator: Value
    if (args.length >= 2) accumulator = args[1]
    else {
      accumulator = O.getElement(right ? len - 1 : 0)
      i = 1
    }
    for (; i < len; i++) {
      const k = right ? len - 1 - i : i
      accumulator = yield* Call(callback, undefined, [accumulator, O.getElement(k), k, O])
    }
    return accumulator
  }
export const TypedArrayProto_reduce = makeReduce("reduce", false)
export const TypedArrayProto_reduceRight = makeReduce("reduceRight", true)

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.reverse
export const TypedArrayProto_reverse = (realm: Realm, thisArg: Value): Value => {
  const [O, len] = ValidateTypedArray(thisArg, `${P}reverse`)
  for (let lower = 0, upper = len - 1; lower < upper; lower++, upper--) {
    PollInterrupt(realm)
    const lowerValue = readElement(O, lower)
    writeElement(O, lower, readElement(O, upper))
    writeElement(O, upper, lowerValue)
  }
  return O
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.set
export function* TypedArrayProto_set(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [source, offset] = args
  // 1-3. RequireInternalSlot(target, [[TypedArrayName]]).
  if (!(thisArg instanceof TypedArrayObject)) return throwTypeError("this is not a typed array.")
  const target = thisArg
  // 4-5. Let targetOffset be ? ToIntegerOrInfinity(offset); if targetOffset < 0, throw a RangeError exception.
  const targetOffset = yield* ToIntegerOrInfinity(realm, offset)
  if (targetOffset < 0) return throwRangeError("offset is out of bounds")
  if (source instanceof TypedArrayObject) SetTypedArrayFromTypedArray(target, targetOffset, source)
  else yield* SetTypedArrayFromArrayLike(realm, target, targetOffset, source)
  return undefined
}

// https://tc39.es/ecma262/#sec-settypedarrayfromtypedarray
const SetTypedArrayFromTypedArray = (target: TypedArrayObject, targetOffset: number, source: TypedArrayObject): void => {
  const targetLength = revalidate(target, "set")
  if (IsTypedArrayOutOfBounds(source)) return void throwTypeError(`Cannot perform ${P}set on a detached ArrayBuffer`)
  const srcLength = TypedArrayLength(source)
  // 13. If target.[[ContentType]] is not source.[[ContentType]], throw a TypeError exception.
  if (target.info.bigint !== source.info.bigint) return void throwTypeError("Cannot mix BigInt and other types, use explicit conversions")
  // 14-15. If targetOffset = +∞ or srcLength + targetOffset > targetLength, throw a RangeError exception.
  if (targetOffset === Infinity || srcLength + targetOffset > targetLength) return void throwRangeError("offset is out of bounds")
  if (source.info.type === target.info.type) {
    // 22-23. Same type: the bytes move as they are (as if cloned first when both share a buffer).
    const size = source.info.size
    copyBytes(source.buffer.data!, source.byteOffset, target.buffer.data!, target.byteOffset + targetOffset * size, srcLength * size)
    return
  }
  // 24. Element by element, reading every source element before writing (the buffers may overlap).
  const values: Array<number | bigint> = []
  for (let k = 0; k < srcLength; k++) {
    PollWork(1)
    values.push(readElement(source, k))
  }
  for (let k = 0; k < srcLength; k++) {
    PollWork(1)
    writeElement(target, targetOffset + k, values[k]!)
  }
}

// https://tc39.es/ecma262/#sec-settypedarrayfromarraylike
function* SetTypedArrayFromArrayLike(realm: Realm, target: TypedArrayObject, targetOffset: number, source: Value): Task<void> {
  const targetLength = revalidate(target, "set")
  const src = ToObject(realm, source)
  const srcLength = yield* LengthOfArrayLike(realm, src)
  if (targetOffset === Infinity || srcLength + targetOffset > targetLength) return throwRangeError("offset is out of bounds")
  for (let k = 0; k < srcLength; k++) {
    PollInterrupt(realm)
    const value = yield* GetIndex(src, k)
    yield* TypedArraySetElement(realm, target, targetOffset + k, value)
  }
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.slice
export function* TypedArrayProto_slice(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, srcArrayLength] = ValidateTypedArray(thisArg, `${P}slice`)
  const startIndex = clampIndex(yield* ToIntegerOrInfinity(realm, args[0]), srcArrayLength)
  let endIndex = yield* relativeEnd(realm, args[1], srcArrayLength)
  let countBytes = Math.max(endIndex - startIndex, 0)
  const A = yield* TypedArraySpeciesCreate(realm, O, [countBytes], `${P}slice`)
  if (countBytes > 0) {
    // 14.a-c. Re-validate and clamp to the current length.
    endIndex = Math.min(endIndex, revalidate(O, "slice"))
    countBytes = Math.max(endIndex - startIndex, 0)
    if (O.info.type === A.info.type) {
      // 14.g. Same type: copy the bytes, in order.
      const elementSize = O.info.size
      const srcData = O.buffer.data!
      const targetData = A.buffer.data!
      let srcByteIndex = startIndex * elementSize + O.byteOffset
      let targetByteIndex = A.byteOffset
      const endByteIndex = Math.min(targetByteIndex + countBytes * elementSize, ArrayBufferByteLength(A.buffer))
      if (srcData !== targetData) copyBytes(srcData, srcByteIndex, targetData, targetByteIndex, endByteIndex - targetByteIndex)
      else while (targetByteIndex < endByteIndex) targetData[targetByteIndex++] = srcData[srcByteIndex++]!
    } else {
      for (let k = startIndex, n = 0; k < endIndex; k++, n++) {
        PollInterrupt(realm)
        yield* TypedArraySetElement(realm, A, n, O.getElement(k))
      }
    }
  }
  return A
}

/** https://tc39.es/ecma262/#sec-comparetypedarrayelements with the default order (no comparator). */
const compareNumeric = (x: number | bigint, y: number | bigint): number => {
  if (typeof x === "number" && typeof y === "number") {
    if (x !== x) return y !== y ? 0 : 1
    if (y !== y) return -1
  }
  if (x < y) return -1
  if (x > y) return 1
  if (x === 0 && y === 0) {
    const nx = Object.is(x, -0)
    const ny = Object.is(y, -0)
    return nx && !ny ? -1 : !nx && ny ? 1 : 0
  }
  return 0
}

/**
 * A stable merge sort whose comparisons are Tasks (a comparator is user code). It is V8's TypedArrayMergeSort
 * (top-down, the two work arrays swapping roles at each level, `compare(left, right) <= 0` takes the left), so
 * even an inconsistent comparator sees the same calls and gives the same order as in V8.
 */
export function* MergeSort<T>(list: T[], compare: (x: T, y: T) => Task<number>): Task<T[]> {
  if (list.length < 2) return list.slice()
  const work1 = list.slice()
  const work2 = list.slice()
  function* sort(source: T[], from: number, to: number, target: T[]): Task<void> {
    const middle = from + ((to - from) >>> 1)
    if (middle - from > 1) yield* sort(target, from, middle, source)
    if (to - middle > 1) yield* sort(target, middle, to, source)
    let left = from
    let right = middle
    for (let targetIndex = from; targetIndex < to; targetIndex++) {
      if (left < middle && right >= to) target[targetIndex] = source[left++]!
      else if (left < middle) {
        const leftElement = source[left]!
        const rightElement = source[right]!
        if ((yield* compare(leftElement, rightElement)) <= 0) {
          target[targetIndex] = leftElement
          left++
        } else {
          target[targetIndex] = rightElement
          right++
        }
      } else target[targetIndex] = source[right++]!
    }
  }
  yield* sort(work2, 0, list.length, work1)
  return work1
}

/** SortIndexedProperties over a typed array's current elements, with CompareTypedArrayElements. */
function* sortedElements(realm: Realm, O: TypedArrayObject, len: number, comparefn: Value): Task<ArrayLike<number | bigint>> {
  if (comparefn === undefined) {
    // The host's own typed array sorts in this order (numerically, -0 before +0, NaN last) natively: 2^28 bytes take
    // seconds there, and minutes through a comparator here.
    const Host = (globalThis as unknown as Record<string, (new (b: ArrayBuffer) => ArrayLike<number | bigint> & { sort(): unknown }) | undefined>)[O.typedArrayName]
    if (Host !== undefined) {
      const copy = new Host(typedArrayBytes(O).slice().buffer)
      copy.sort()
      return copy
    }
  }
  const items: Array<number | bigint> = []
  for (let k = 0; k < len; k++) items.push(readElement(O, k))
  if (comparefn === undefined) return items.sort(compareNumeric)
  return yield* MergeSort(items, function* (x, y) {
    const v = yield* Call(comparefn, undefined, [x, y])
    const n = typeof v === "number" ? v : yield* ToNumber(realm, v)
    return n !== n ? 0 : n
  })
}

const checkComparator = (comparefn: Value): void => {
  if (comparefn !== undefined && !IsCallable(comparefn)) {
    throwTypeError(`The comparison function must be either a function or undefined: ${receiverText(comparefn)}`)
  }
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.sort
export function* TypedArrayProto_sort(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const comparefn = args[0]
  checkComparator(comparefn)
  const [O, len] = ValidateTypedArray(thisArg, `${P}sort`)
  const sortedList = yield* sortedElements(realm, O, len, comparefn)
  // Write back through IsValidIntegerIndex: a comparator may have shrunk or detached the buffer.
  for (let j = 0; j < len; j++) {
    PollInterrupt(realm)
    if (O.getElement(j) !== undefined) writeElement(O, j, sortedList[j]!)
  }
  return O
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.tosorted
export function* TypedArrayProto_toSorted(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const comparefn = args[0]
  checkComparator(comparefn)
  const [O, len] = ValidateTypedArray(thisArg, `${P}toSorted`)
  const A = TypedArrayCreateSameType(realm, O, len)
  const sortedList = yield* sortedElements(realm, O, len, comparefn)
  for (let j = 0; j < len; j++) {
    PollInterrupt(realm)
    writeElement(A, j, sortedList[j]!)
  }
  return A
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.subarray
export function* TypedArrayProto_subarray(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  if (!(thisArg instanceof TypedArrayObject)) return throwTypeError("this is not a typed array.")
  const O = thisArg
  const buffer = O.buffer
  const srcLength = IsTypedArrayOutOfBounds(O) ? 0 : TypedArrayLength(O)
  const startIndex = clampIndex(yield* ToIntegerOrInfinity(realm, args[0]), srcLength)
  const elementSize = O.info.size
  const beginByteOffset = O.byteOffset + startIndex * elementSize
  const end = args[1]
  let argumentsList: Value[]
  if (O.arrayLength === undefined && end === undefined) argumentsList = [buffer, beginByteOffset]
  else {
    const endIndex = yield* relativeEnd(realm, end, srcLength)
    argumentsList = [buffer, beginByteOffset, Math.max(endIndex - startIndex, 0)]
  }
  return yield* TypedArraySpeciesCreate(realm, O, argumentsList, `${P}subarray`)
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.tolocalestring (ECMA-402: locales and options are passed on)
export function* TypedArrayProto_toLocaleString(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}toLocaleString`)
  let R = ""
  for (let k = 0; k < len; k++) {
    if (k > 0) R += ","
    const nextElement = O.getElement(k)
    if (nextElement !== undefined) {
      const S = yield* Invoke(realm, nextElement, "toLocaleString", args.slice(0, 2))
      R += typeof S === "string" ? S : yield* ToString(realm, S)
      checkStringLength(R.length)
    }
  }
  return R
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.toreversed
export const TypedArrayProto_toReversed = (realm: Realm, thisArg: Value): Value => {
  const [O, len] = ValidateTypedArray(thisArg, `${P}toReversed`)
  const A = TypedArrayCreateSameType(realm, O, len)
  for (let k = 0; k < len; k++) {
    PollInterrupt(realm)
    writeElement(A, k, readElement(O, len - k - 1))
  }
  return A
}

// https://tc39.es/ecma262/#sec-%typedarray%.prototype.with
export function* TypedArrayProto_with(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const [O, len] = ValidateTypedArray(thisArg, `${P}with`)
  const relativeIndex = yield* ToIntegerOrInfinity(realm, args[0])
  const actualIndex = relativeIndex >= 0 ? relativeIndex : len + relativeIndex
  // 7-8. Convert the value before checking the index (the conversion may shrink the array).
  const numericValue = yield* ToElementValue(realm, O.info.bigint, args[1])
  if (O.getElement(actualIndex) === undefined) return throwRangeError("Invalid typed array index")
  const A = TypedArrayCreateSameType(realm, O, len)
  for (let k = 0; k < len; k++) {
    const fromValue = k === actualIndex ? numericValue : O.getElement(k)
    if (fromValue !== undefined) writeElement(A, k, fromValue)
  }
  return A
}

/** A fallback %TypedArray%.prototype.toString for a realm without the array family (normally Array.prototype's). */
export function* TypedArrayProto_toString(realm: Realm, thisArg: Value): Task<Value> {
  if (!(thisArg instanceof JSObject)) return yield* Invoke(realm, ToObject(realm, thisArg), "join")
  return yield* Invoke(realm, thisArg, "join")
}
