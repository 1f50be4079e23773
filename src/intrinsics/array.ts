/**
 * Array objects (https://tc39.es/ecma262/#sec-array-objects): the Array constructor, Array.isArray/of/from (and
 * fromAsync, in array-from-async.ts), every Array.prototype method of ES2023, ArraySpeciesCreate and
 * Array.prototype[@@unscopables].
 *
 * Every method is the spec's generic algorithm over an array-like `this`: elements are read with HasProperty/Get,
 * written with Set/CreateDataPropertyOrThrow and removed with DeletePropertyOrThrow, so holes, accessors,
 * array-likes (`Array.prototype.map.call({length: 2, 0: "a"}, f)`), frozen arrays and species constructors behave
 * exactly as in V8. Callbacks, comparators, getters and `toString`/`valueOf` run through `yield*` (Tasks), never
 * natively. Without Proxy, HasProperty cannot run user code, so "HasProperty then Get" is one lookup here.
 *
 * Fast paths, each observably identical to the generic algorithm: element reads and writes go straight to a dense
 * ArrayObject's storage when the element is there; bulk moves (shift, unshift, splice, reverse, sort's write-back)
 * use host array operations on dense, extensible arrays whose prototype chain has no indexed properties (then no
 * user code can run during the move); loops that skip holes jump over runs of missing indices instead of probing
 * each one (`new Array(1e9).forEach(f)` is cheap, as in V8).
 *
 * Element access and hole skipping are in array-elements.ts, sorting in array-sort.ts (a stable TimSort-shaped
 * sort written as a Task: every comparator call is an engine call), Array.fromAsync in array-from-async.ts.
 * Callbacks are called by yielding a `call` request directly (`callRequest`, or a loop's `CallbackRequest`), which is
 * what `yield* Call` does minus a generator per call.
 *
 * NON-SPEC: join/toString/toLocaleString return "" for an array that is already being joined further up the stack
 * (V8's cycle detection; the spec would recurse until the stack overflows). The set of arrays being joined is
 * per-realm host state, not part of a snapshot: a run suspended in the middle of a join forgets it on resume.
 */
import { chargeMemory, chargeString, Cost } from "../runtime/memory.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { Caps, checkArrayStorage, checkStringLength } from "../runtime/caps.ts"
import { PollInterrupt } from "../runtime/interrupt.ts"
import { defineAccessors, defineConstructor, defineMethods } from "../runtime/builtin.ts"
import { throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { notIterableValue } from "../runtime/not-iterable.ts"
import { IsStrictlyEqual, SameValueZero } from "../runtime/comparison.ts"
import { LengthOfNumber, ToBoolean, ToIntegerOrInfinity, ToObject, ToString, ToStringPrimitive } from "../runtime/conversions.ts"
import { IsCallable, IsConstructor, NativeFunction } from "../runtime/function-object.ts"
import { DONE, GetIteratorFromMethod, IteratorStepValue } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import {
  Call,
  Construct,
  CreateDataPropertyOrThrow,
  GetMethod,
  GetPrototypeFromConstructor,
  Invoke,
  LengthOfArrayLike,
  Set,
} from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import { CallbackRequest, type Task } from "../runtime/task.ts"
import { EMPTY, type Empty, SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import {
  callRequest,
  CreateIdx,
  DeleteIdx,
  DeleteRange,
  DeleteRangeDescending,
  GetIdx,
  GetPresent,
  isPlainDense,
  nextPresentIndex,
  peekIdx,
  prevPresentIndex,
  protoChainHasElements,
  protoHasIndex,
  SetIdx,
  SLOW,
} from "./array-elements.ts"
import { Array_fromAsync } from "./array-from-async.ts"
import { comparatorOrThrow, IndexedItems, SortList, undefinedLast } from "./array-sort.ts"
import { SortSteps } from "./array-sort-steps.ts"
import { ElementLoop, type LoopKind } from "./array-loops.ts"
import { closingOnThrow, CreateArrayIterator, requireCallback } from "./iterator.ts"

const MAX_SAFE_INTEGER = 2 ** 53 - 1
const ordinaryGet = JSObject.prototype.Get
const MAX_ARRAY_LENGTH = 2 ** 32 - 1

// ---------------------------------------------------------------------------------------------------------------
// Helpers

/** ToObject(this) with V8's message for the Array.prototype methods. */
const toObject = (realm: Realm, thisArg: Value, method: string): JSObject => {
  if (thisArg === undefined || thisArg === null) return throwTypeError(`Array.prototype.${method} called on null or undefined`)
  return ToObject(realm, thisArg)
}

function* SetLength(O: JSObject, len: number): Task<void> {
  yield* Set(O, "length", len, true)
}

/** Relative index arguments (start/end of slice, fill, copyWithin...): clamped into [0, len]. */
function* RelativeIndex(realm: Realm, v: Value, len: number, ifUndefined: number): Task<number> {
  if (v === undefined) return ifUndefined
  const rel = typeof v === "number" && Number.isInteger(v) ? v : yield* ToIntegerOrInfinity(realm, v)
  if (rel === -Infinity) return 0
  if (rel < 0) return Math.max(len + rel, 0)
  return Math.min(rel, len)
}

// ---------------------------------------------------------------------------------------------------------------
// Abstract operations

// https://tc39.es/ecma262/#sec-isarray
export const IsArray = (v: Value): boolean => v instanceof ArrayObject

// https://tc39.es/ecma262/#sec-arraycreate
export const ArrayCreate = (realm: Realm, length: number, proto: JSObject = realm.ArrayPrototype): ArrayObject => {
  if (length > MAX_ARRAY_LENGTH) return throwRangeError("Invalid array length")
  const A = new ArrayObject(proto)
  A.length = length
  return A
}

// https://tc39.es/ecma262/#sec-arrayspeciescreate
export function* ArraySpeciesCreate(realm: Realm, originalArray: JSObject, length: number): Task<JSObject> {
  if (!IsArray(originalArray)) return ArrayCreate(realm, length)
  let C = yield* originalArray.Get("constructor", originalArray)
  if (C instanceof JSObject) {
    C = yield* C.Get(WellKnownSymbols.species, C)
    if (C === null) C = undefined
  }
  if (C === undefined) return ArrayCreate(realm, length)
  if (!IsConstructor(C)) return throwTypeError("object.constructor[Symbol.species] is not a constructor")
  return yield* Construct(C, [length])
}

// https://tc39.es/ecma262/#sec-isconcatspreadable
function* IsConcatSpreadable(O: Value): Task<boolean> {
  if (!(O instanceof JSObject)) return false
  const spreadable = yield* O.Get(WellKnownSymbols.isConcatSpreadable, O)
  if (spreadable !== undefined) return ToBoolean(spreadable)
  return IsArray(O)
}

// ---------------------------------------------------------------------------------------------------------------
// The constructor and statics

// https://tc39.es/ecma262/#sec-array
function* Array_(realm: Realm, _this: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined, self: NativeFunction): Task<Value> {
  // 1-2. If NewTarget is undefined, use the active function; proto from it.
  const proto = yield* GetPrototypeFromConstructor(realm, newTarget ?? self, "%Array.prototype%")
  if (args.length === 0) return ArrayCreate(realm, 0, proto)
  if (args.length === 1) {
    const len = args[0]
    const array = ArrayCreate(realm, 0, proto)
    if (typeof len !== "number") {
      CreateIdx(array, 0, len)
      return array
    }
    // ToUint32(len) must equal len.
    if (len >>> 0 !== len) return throwRangeError("Invalid array length")
    // ToUint32, not len: -0 passes the check above and the length is +0.
    array.length = len >>> 0
    return array
  }
  checkArrayStorage(args.length)
  return new ArrayObject(proto, args.slice())
}

// https://tc39.es/ecma262/#sec-array.isarray
const Array_isArray = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => IsArray(args[0])

// https://tc39.es/ecma262/#sec-array.of
function* Array_of(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const len = args.length
  const A = IsConstructor(thisArg) ? yield* Construct(thisArg, [len]) : ArrayCreate(realm, len)
  for (let k = 0; k < len; k++) {
    PollInterrupt(realm)
    if (!A.DefineOwnProperty(String(k), { value: args[k], writable: true, enumerable: true, configurable: true })) {
      throwTypeError(`Cannot define property ${k}, object is not extensible`)
    }
  }
  yield* SetLength(A, len)
  return A
}

// https://tc39.es/ecma262/#sec-array.from
const Array_from = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => {
  // An array-like plain object (\`Array.from({ length: n }, f)\`) into an Array: GetMethod, the length and the
  // new array run no code, so the walk is the whole Task.
  const items = args[0]
  const mapfn = args[1]
  if (thisArg === realm.intrinsic("%Array%") && items instanceof JSObject && items.Get === ordinaryGet && items.lookup(WellKnownSymbols.iterator) === undefined) {
    const length = items.lookup("length")
    if (length === undefined || (!length.accessor && typeof length.value === "number")) {
      const call = mapfn !== undefined ? new CallbackRequest(requireCallback(mapfn), args[2]) : undefined
      const len = length === undefined ? 0 : LengthOfNumber(length.value as number)
      const A = ArrayCreate(realm, len)
      if (len > Caps.maxArrayStorage) checkArrayStorage(len)
      return new ElementLoop(realm, "from", items, len, call, { A, unreachable: true }).task
    }
  }
  return ArrayFrom(realm, thisArg, args)
}

function* ArrayFrom(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const C = thisArg
  const items = args[0]
  const mapfn = args[1]
  const thisArgument = args[2]
  // 2-3. A mapfn other than undefined must be callable.
  const mapping = mapfn !== undefined
  const call = mapping ? new CallbackRequest(requireCallback(mapfn), thisArgument) : undefined
  // 4. Let usingIterator be ? GetMethod(items, %Symbol.iterator%), which fails on null and undefined (as V8 says).
  if (items === undefined || items === null) return throwTypeError(notIterableValue(items))
  const usingIterator = yield* GetMethod(realm, items, WellKnownSymbols.iterator)
  if (usingIterator !== undefined) {
    const A = IsConstructor(C) ? yield* Construct(C) : ArrayCreate(realm, 0)
    // Arrays and strings with their built-in iterators untouched: the iterator is never exposed, so reading the
    // elements (or code points) directly is the same walk without the iterator result objects.
    if (items instanceof ArrayObject && usingIterator === realm.intrinsic("%Array.prototype.values%") && builtinNext(realm, "%ArrayIteratorPrototype%")) {
      for (let k = 0; k < items.length; k++) {
        PollInterrupt(realm)
        let v = peekIdx(items, k)
        v = v === SLOW ? yield* GetIdx(items, k) : v === EMPTY ? undefined : v
        CreateIdx(A, k, call !== undefined ? yield call.with2(v, k) : v)
      }
      yield* SetLength(A, items.length)
      return A
    }
    if (typeof items === "string" && usingIterator === realm.intrinsic("%String.prototype.[Symbol.iterator]%") && builtinNext(realm, "%StringIteratorPrototype%")) {
      let k = 0
      for (const ch of items) {
        CreateIdx(A, k, call !== undefined ? yield call.with2(ch, k) : ch)
        k++
      }
      yield* SetLength(A, k)
      return A
    }
    const iteratorRecord = yield* GetIteratorFromMethod(realm, items, usingIterator)
    for (let k = 0; ; k++) {
      PollInterrupt(realm)
      if (k >= MAX_SAFE_INTEGER) {
        yield* closingOnThrow(realm, iteratorRecord, (function* (): Task<never> { return throwTypeError("Invalid array length") })())
      }
      const next = yield* IteratorStepValue(iteratorRecord)
      if (next === DONE) {
        yield* SetLength(A, k)
        return A
      }
      const mappedValue = mapping ? yield* closingOnThrow(realm, iteratorRecord, Call(mapfn, thisArgument, [next, k])) : next
      if (A instanceof ArrayObject && A.setOwnElement(k, mappedValue)) continue
      yield* closingOnThrow(realm, iteratorRecord, defineTask(A, k, mappedValue))
    }
  }
  // 6. NOTE: items is not an Iterable so assume it is an array-like object.
  const arrayLike = ToObject(realm, items)
  const len = yield* LengthOfArrayLike(realm, arrayLike)
  const A = IsConstructor(C) ? yield* Construct(C, [len]) : ArrayCreate(realm, len)
  if (A instanceof ArrayObject && len > Caps.maxArrayStorage) checkArrayStorage(len)
  return yield* new ElementLoop(realm, "from", arrayLike, len, call, { A }).task
}

/**
 * Is a built-in iterator prototype untouched for Array.from's purposes: its `next` the original, and no `return`
 * anywhere on its chain (which closing the iterator after an abrupt completion would call)?
 */
const builtinNext = (realm: Realm, protoName: string): boolean => {
  const proto = realm.intrinsic(protoName)
  return proto.properties.get("next")?.value === realm.findIntrinsic(`%${protoName.slice(1, -1)}.next%`) && proto.lookup("return") === undefined
}

/** CreateDataPropertyOrThrow as a Task, so that its failure can close an iterator. */
// eslint-disable-next-line require-yield
function* defineTask(A: JSObject, k: number, v: Value): Task<void> {
  CreateIdx(A, k, v)
}

// https://tc39.es/ecma262/#sec-get-array-%symbol.species%
const Array_species = (_realm: Realm, thisArg: Value): Value => thisArg

// ---------------------------------------------------------------------------------------------------------------
// Array.prototype: access and search

// https://tc39.es/ecma262/#sec-array.prototype.at
function* ArrayProto_at(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "at")
  const len = yield* LengthOfArrayLike(realm, O)
  const rel = yield* ToIntegerOrInfinity(realm, args[0])
  const k = rel >= 0 ? rel : len + rel
  if (k < 0 || k >= len) return undefined
  return yield* GetIdx(O, k)
}

// https://tc39.es/ecma262/#sec-array.prototype.includes
function* ArrayProto_includes(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "includes")
  const len = yield* LengthOfArrayLike(realm, O)
  if (len === 0) return false
  const n = yield* ToIntegerOrInfinity(realm, args[1])
  if (n === Infinity) return false
  let k = n === -Infinity ? 0 : n >= 0 ? n : Math.max(len + n, 0)
  const search = args[0]
  for (; k < len; k++) {
    PollInterrupt(realm)
    // Holes read as undefined (no HasProperty): jump over them only when undefined is not what is searched.
    if (search !== undefined) {
      const next = nextPresentIndex(O, k, len)
      if (next >= len) return false
      k = next
    }
    let v = peekIdx(O, k)
    v = v === SLOW ? yield* GetIdx(O, k) : v === EMPTY ? undefined : v
    if (SameValueZero(v, search)) return true
  }
  return false
}

// https://tc39.es/ecma262/#sec-array.prototype.indexof
function* ArrayProto_indexOf(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "indexOf")
  const len = yield* LengthOfArrayLike(realm, O)
  if (len === 0) return -1
  const n = yield* ToIntegerOrInfinity(realm, args[1])
  if (n === Infinity) return -1
  let k = n === -Infinity ? 0 : n >= 0 ? n : Math.max(len + n, 0)
  const search = args[0]
  for (; k < len; k++) {
    PollInterrupt(realm)
    let v = peekIdx(O, k)
    if (v === SLOW) v = yield* GetPresent(O, k)
    if (v === EMPTY) {
      k = nextPresentIndex(O, k + 1, len) - 1
      continue
    }
    if (IsStrictlyEqual(v, search)) return k
  }
  return -1
}

// https://tc39.es/ecma262/#sec-array.prototype.lastindexof
function* ArrayProto_lastIndexOf(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "lastIndexOf")
  const len = yield* LengthOfArrayLike(realm, O)
  if (len === 0) return -1
  const n = args.length > 1 ? yield* ToIntegerOrInfinity(realm, args[1]) : len - 1
  if (n === -Infinity) return -1
  let k = n >= 0 ? Math.min(n, len - 1) : len + n
  const search = args[0]
  for (; k >= 0; k--) {
    PollInterrupt(realm)
    let v = peekIdx(O, k)
    if (v === SLOW) v = yield* GetPresent(O, k)
    if (v === EMPTY) {
      k = prevPresentIndex(O, k - 1) + 1
      continue
    }
    if (IsStrictlyEqual(v, search)) return k
  }
  return -1
}

// https://tc39.es/ecma262/#sec-array.prototype.find
const ArrayProto_find = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "find", "find")
// https://tc39.es/ecma262/#sec-array.prototype.findindex
const ArrayProto_findIndex = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "findIndex", "findIndex")
// https://tc39.es/ecma262/#sec-array.prototype.findlast
const ArrayProto_findLast = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "findLast", "find", true)
// https://tc39.es/ecma262/#sec-array.prototype.findlastindex
const ArrayProto_findLastIndex = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "findLastIndex", "findIndex", true)

// ---------------------------------------------------------------------------------------------------------------
// Array.prototype: iteration with callbacks

/**
 * A callback loop's Task (the loop is ElementLoop, array-loops.ts). On an array whose species is the built-in
 * one, its set-up — the length, the callback check, the result array of map and filter — runs no code, and the
 * loop itself is the Task; otherwise a generator does the set-up first.
 */
const callbackLoop = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>, method: string, kind: LoopKind, descending = false): Task<Value> => {
  const O = toObject(realm, thisArg, method)
  if (O instanceof ArrayObject) {
    const len = O.length
    const call = loopCallback(args, kind)
    const A = kind === "map" ? arraySpeciesCreateFast(realm, O, len) : kind === "filter" ? arraySpeciesCreateFast(realm, O, 0) : undefined
    if (A !== null) return new ElementLoop(realm, kind, O, len, call, { A, unreachable: true, descending, initial: reduceInitial(args, len, kind) }).task
  }
  return CallbackLoopTask(realm, O, args, kind, descending)
}

function* CallbackLoopTask(realm: Realm, O: JSObject, args: ReadonlyArray<Value>, kind: LoopKind, descending: boolean): Task<Value> {
  const len = yield* LengthOfArrayLike(realm, O)
  const call = loopCallback(args, kind)
  const A = kind === "map" ? yield* ArraySpeciesCreate(realm, O, len) : kind === "filter" ? yield* ArraySpeciesCreate(realm, O, 0) : undefined
  return yield* new ElementLoop(realm, kind, O, len, call, { A, descending, initial: reduceInitial(args, len, kind) }).task
}

/** The callback (which must be callable) and its `this` (reduce has none). */
const loopCallback = (args: ReadonlyArray<Value>, kind: LoopKind): CallbackRequest =>
  new CallbackRequest(requireCallback(args[0]), kind === "reduce" ? undefined : args[1])

/** reduce's initial value, if it is given; without one, an empty array is a TypeError. */
const reduceInitial = (args: ReadonlyArray<Value>, len: number, kind: LoopKind): { readonly value: Value } | undefined => {
  if (kind !== "reduce" || args.length >= 2) return kind === "reduce" ? { value: args[1] } : undefined
  if (len === 0) throwTypeError("Reduce of empty array with no initial value")
  return undefined
}

/**
 * ArraySpeciesCreate when it runs no code, else null: an array whose `constructor` is this realm's %Array% with its
 * own @@species getter makes a plain array, as ArrayCreate.
 */
const arraySpeciesCreateFast = (realm: Realm, O: ArrayObject, length: number): JSObject | null => {
  const ArrayCtor = realm.intrinsic("%Array%")
  const C = O.lookup("constructor")
  if (C === undefined || C.accessor || C.value !== ArrayCtor) return null
  const species = ArrayCtor.lookup(WellKnownSymbols.species)
  return species !== undefined && species.get instanceof NativeFunction && species.get.impl === Array_species ? ArrayCreate(realm, length) : null
}

// https://tc39.es/ecma262/#sec-array.prototype.foreach
const ArrayProto_forEach = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "forEach", "forEach")
// https://tc39.es/ecma262/#sec-array.prototype.some
const ArrayProto_some = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "some", "some")
// https://tc39.es/ecma262/#sec-array.prototype.every
const ArrayProto_every = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "every", "every")
// https://tc39.es/ecma262/#sec-array.prototype.map
const ArrayProto_map = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "map", "map")
// https://tc39.es/ecma262/#sec-array.prototype.filter
const ArrayProto_filter = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "filter", "filter")
// https://tc39.es/ecma262/#sec-array.prototype.reduce
const ArrayProto_reduce = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "reduce", "reduce")
// https://tc39.es/ecma262/#sec-array.prototype.reduceright
const ArrayProto_reduceRight = (realm: Realm, t: Value, a: ReadonlyArray<Value>): Task<Value> => callbackLoop(realm, t, a, "reduceRight", "reduce", true)

// https://tc39.es/ecma262/#sec-flattenintoarray
function* FlattenIntoArray(
  realm: Realm,
  target: JSObject,
  source: JSObject,
  sourceLen: number,
  start: number,
  depth: number,
  mapper?: JSObject,
  thisArg?: Value,
): Task<number> {
  let targetIndex = start
  for (let sourceIndex = 0; sourceIndex < sourceLen; sourceIndex++) {
    PollInterrupt(realm)
    let element = peekIdx(source, sourceIndex)
    if (element === SLOW) element = yield* GetPresent(source, sourceIndex)
    if (element === EMPTY) {
      sourceIndex = nextPresentIndex(source, sourceIndex + 1, sourceLen) - 1
      continue
    }
    if (mapper !== undefined) element = yield callRequest(mapper, thisArg, [element, sourceIndex, source])
    // A nested array is flattened while depth remains (IsArray, not Symbol.isConcatSpreadable).
    if (depth > 0 && IsArray(element)) {
      const elementLen = yield* LengthOfArrayLike(realm, element as JSObject)
      targetIndex = yield* FlattenIntoArray(realm, target, element as JSObject, elementLen, targetIndex, depth === Infinity ? Infinity : depth - 1)
    } else {
      if (targetIndex >= MAX_SAFE_INTEGER) return throwTypeError("Invalid array length")
      CreateIdx(target, targetIndex, element)
      targetIndex++
    }
  }
  return targetIndex
}

// https://tc39.es/ecma262/#sec-array.prototype.flat
function* ArrayProto_flat(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "flat")
  const sourceLen = yield* LengthOfArrayLike(realm, O)
  let depthNum = 1
  if (args[0] !== undefined) {
    depthNum = yield* ToIntegerOrInfinity(realm, args[0])
    if (depthNum < 0) depthNum = 0
  }
  const A = yield* ArraySpeciesCreate(realm, O, 0)
  yield* FlattenIntoArray(realm, A, O, sourceLen, 0, depthNum)
  return A
}

// https://tc39.es/ecma262/#sec-array.prototype.flatmap
function* ArrayProto_flatMap(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "flatMap")
  const sourceLen = yield* LengthOfArrayLike(realm, O)
  const mapper = requireCallback(args[0])
  const A = yield* ArraySpeciesCreate(realm, O, 0)
  yield* FlattenIntoArray(realm, A, O, sourceLen, 0, 1, mapper, args[1])
  return A
}

// ---------------------------------------------------------------------------------------------------------------
// Array.prototype: building new arrays

// https://tc39.es/ecma262/#sec-array.prototype.concat
function* ArrayProto_concat(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "concat")
  const A = yield* ArraySpeciesCreate(realm, O, 0)
  let n = 0
  for (const E of [O, ...args]) {
    if (yield* IsConcatSpreadable(E)) {
      const obj = E as JSObject
      const len = yield* LengthOfArrayLike(realm, obj)
      if (n + len > MAX_SAFE_INTEGER) return throwTypeError("Invalid array length")
      for (let k = 0; k < len; k++) {
        PollInterrupt(realm)
        let v = peekIdx(obj, k)
        if (v === SLOW) v = yield* GetPresent(obj, k)
        if (v === EMPTY) {
          const next = nextPresentIndex(obj, k + 1, len)
          n += next - k
          k = next - 1
          continue
        }
        CreateIdx(A, n, v)
        n++
      }
    } else {
      if (n >= MAX_SAFE_INTEGER) return throwTypeError("Invalid array length")
      CreateIdx(A, n, E)
      n++
    }
  }
  yield* SetLength(A, n)
  return A
}

// https://tc39.es/ecma262/#sec-array.prototype.slice
function* ArrayProto_slice(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "slice")
  const len = yield* LengthOfArrayLike(realm, O)
  const k0 = yield* RelativeIndex(realm, args[0], len, 0)
  const final = yield* RelativeIndex(realm, args[1], len, len)
  const count = Math.max(final - k0, 0)
  const A = yield* ArraySpeciesCreate(realm, O, count)
  let n = 0
  for (let k = k0; k < final; k++, n++) {
    PollInterrupt(realm)
    let v = peekIdx(O, k)
    if (v === SLOW) v = yield* GetPresent(O, k)
    if (v === EMPTY) {
      const next = nextPresentIndex(O, k + 1, final)
      n += next - k - 1
      k = next - 1
      continue
    }
    CreateIdx(A, n, v)
  }
  yield* SetLength(A, n)
  return A
}

// https://tc39.es/ecma262/#sec-array.prototype.toreversed
function* ArrayProto_toReversed(realm: Realm, thisArg: Value): Task<Value> {
  const O = toObject(realm, thisArg, "toReversed")
  const len = yield* LengthOfArrayLike(realm, O)
  const A = ArrayCreate(realm, len)
  checkArrayStorage(len)
  for (let k = 0; k < len; k++) {
    PollInterrupt(realm)
    const v = peekIdx(O, len - k - 1)
    CreateIdx(A, k, v === SLOW ? yield* GetIdx(O, len - k - 1) : v === EMPTY ? undefined : v)
  }
  return A
}

// https://tc39.es/ecma262/#sec-array.prototype.with
function* ArrayProto_with(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "with")
  const len = yield* LengthOfArrayLike(realm, O)
  const relativeIndex = yield* ToIntegerOrInfinity(realm, args[0])
  const actualIndex = relativeIndex >= 0 ? relativeIndex : len + relativeIndex
  if (actualIndex >= len || actualIndex < 0) return throwRangeError(`Invalid index : ${String(relativeIndex)}`)
  const A = ArrayCreate(realm, len)
  checkArrayStorage(len)
  for (let k = 0; k < len; k++) {
    PollInterrupt(realm)
    const v = k === actualIndex ? args[1] : peekIdx(O, k)
    CreateIdx(A, k, v === SLOW ? yield* GetIdx(O, k) : v === EMPTY ? undefined : v)
  }
  return A
}

// https://tc39.es/ecma262/#sec-array.prototype.tospliced
function* ArrayProto_toSpliced(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "toSpliced")
  const len = yield* LengthOfArrayLike(realm, O)
  const actualStart = yield* RelativeIndex(realm, args[0], len, 0)
  const items = args.slice(2)
  const insertCount = items.length
  let actualSkipCount: number
  if (args.length === 0) actualSkipCount = 0
  else if (args.length === 1) actualSkipCount = len - actualStart
  else {
    const sc = yield* ToIntegerOrInfinity(realm, args[1])
    actualSkipCount = Math.min(Math.max(sc, 0), len - actualStart)
  }
  const newLen = len + insertCount - actualSkipCount
  if (newLen > MAX_SAFE_INTEGER) return throwTypeError("Invalid array length")
  const A = ArrayCreate(realm, newLen)
  checkArrayStorage(newLen)
  let i = 0
  let r = actualStart + actualSkipCount
  for (; i < actualStart; i++) {
    PollInterrupt(realm)
    const v = peekIdx(O, i)
    CreateIdx(A, i, v === SLOW ? yield* GetIdx(O, i) : v === EMPTY ? undefined : v)
  }
  for (const E of items) CreateIdx(A, i++, E)
  for (; i < newLen; i++, r++) {
    PollInterrupt(realm)
    const v = peekIdx(O, r)
    CreateIdx(A, i, v === SLOW ? yield* GetIdx(O, r) : v === EMPTY ? undefined : v)
  }
  return A
}

// ---------------------------------------------------------------------------------------------------------------
// Array.prototype: mutation

// https://tc39.es/ecma262/#sec-array.prototype.copywithin
function* ArrayProto_copyWithin(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "copyWithin")
  const len = yield* LengthOfArrayLike(realm, O)
  const to0 = yield* RelativeIndex(realm, args[0], len, 0)
  const from0 = yield* RelativeIndex(realm, args[1], len, 0)
  const final = yield* RelativeIndex(realm, args[2], len, len)
  let count = Math.min(final - from0, len - to0)
  let from = from0
  let to = to0
  let direction = 1
  if (from < to && to < from + count) {
    direction = -1
    from = from + count - 1
    to = to + count - 1
  }
  for (; count > 0; count--, from += direction, to += direction) {
    PollInterrupt(realm)
    const v = yield* GetPresent(O, from)
    if (v === EMPTY) DeleteIdx(O, to)
    else yield* SetIdx(O, to, v)
  }
  return O
}

// https://tc39.es/ecma262/#sec-array.prototype.entries
const ArrayProto_entries = (realm: Realm, thisArg: Value): Value => CreateArrayIterator(realm, toObject(realm, thisArg, "entries"), "key+value")
// https://tc39.es/ecma262/#sec-array.prototype.keys
const ArrayProto_keys = (realm: Realm, thisArg: Value): Value => CreateArrayIterator(realm, toObject(realm, thisArg, "keys"), "key")
// https://tc39.es/ecma262/#sec-array.prototype.values
const ArrayProto_values = (realm: Realm, thisArg: Value): Value => CreateArrayIterator(realm, toObject(realm, thisArg, "values"), "value")

// https://tc39.es/ecma262/#sec-array.prototype.fill
function* ArrayProto_fill(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "fill")
  const len = yield* LengthOfArrayLike(realm, O)
  const value = args[0]
  const k0 = yield* RelativeIndex(realm, args[1], len, 0)
  const final = yield* RelativeIndex(realm, args[2], len, len)
  // Filling creates one element per index: past the storage cap it is a RangeError up front.
  if (O instanceof ArrayObject && final - k0 > Caps.maxArrayStorage) checkArrayStorage(final - k0)
  for (let k = k0; k < final; k++) {
    PollInterrupt(realm)
    yield* SetIdx(O, k, value)
  }
  return O
}

// https://tc39.es/ecma262/#sec-array.prototype.pop
const ArrayProto_pop = (realm: Realm, thisArg: Value): Value | Task<Value> => {
  // Fast path (no code can run): the last element of a dense array with a writable length is an own data property.
  if (thisArg instanceof ArrayObject && thisArg.lengthWritable) {
    const els = thisArg.elements
    if (els !== null && els.length === thisArg.length && els.length > 0 && els[els.length - 1] !== EMPTY) {
      thisArg.length--
      return els.pop() as Value
    }
  }
  return ArrayPop(realm, thisArg)
}

function* ArrayPop(realm: Realm, thisArg: Value): Task<Value> {
  const O = toObject(realm, thisArg, "pop")
  const len = yield* LengthOfArrayLike(realm, O)
  if (len === 0) {
    yield* SetLength(O, 0)
    return undefined
  }
  const newLen = len - 1
  const element = yield* GetIdx(O, newLen)
  DeleteIdx(O, newLen)
  yield* SetLength(O, newLen)
  return element
}

// https://tc39.es/ecma262/#sec-array.prototype.push
const ArrayProto_push = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value | Task<Value> => {
  // Fast path: appending to a dense extensible array with a writable length, when no prototype has a property at
  // the new indices (then Set defines plain own elements and no setter can run).
  if (thisArg instanceof ArrayObject && thisArg.extensible && thisArg.lengthWritable) {
    const els = thisArg.elements
    const len = thisArg.length
    // Asking the chain for any element is cheap (shapes know whether they have index keys); index len is asked
    // only when it has one.
    if (els !== null && els.length === len && !(protoChainHasElements(thisArg) && (args.length !== 1 || protoHasIndex(thisArg, len)))) {
      checkArrayStorage(len + args.length)
      chargeMemory(Cost.element * args.length)
      for (const E of args) els.push(E)
      return (thisArg.length = len + args.length)
    }
  }
  return ArrayPush(realm, thisArg, args)
}

function* ArrayPush(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "push")
  const len = yield* LengthOfArrayLike(realm, O)
  const argCount = args.length
  if (len + argCount > MAX_SAFE_INTEGER) {
    return throwTypeError(`Pushing ${argCount} elements on an array-like of length ${len} is disallowed, as the total surpasses 2**53-1`)
  }
  let k = len
  for (const E of args) {
    yield* SetIdx(O, k, E)
    k++
  }
  yield* SetLength(O, k)
  return k
}

// https://tc39.es/ecma262/#sec-array.prototype.reverse
function* ArrayProto_reverse(realm: Realm, thisArg: Value): Task<Value> {
  const O = toObject(realm, thisArg, "reverse")
  const len = yield* LengthOfArrayLike(realm, O)
  if (isPlainDense(O) && O.elements.length === len) {
    O.elements.reverse()
    return O
  }
  const middle = Math.floor(len / 2)
  for (let lower = 0; lower !== middle; lower++) {
    PollInterrupt(realm)
    const upper = len - lower - 1
    const lowerValue = yield* GetPresent(O, lower)
    const upperValue = yield* GetPresent(O, upper)
    if (lowerValue !== EMPTY && upperValue !== EMPTY) {
      yield* SetIdx(O, lower, upperValue)
      yield* SetIdx(O, upper, lowerValue)
    } else if (upperValue !== EMPTY) {
      yield* SetIdx(O, lower, upperValue)
      DeleteIdx(O, upper)
    } else if (lowerValue !== EMPTY) {
      DeleteIdx(O, lower)
      yield* SetIdx(O, upper, lowerValue)
    }
  }
  return O
}

// https://tc39.es/ecma262/#sec-array.prototype.shift
function* ArrayProto_shift(realm: Realm, thisArg: Value): Task<Value> {
  const O = toObject(realm, thisArg, "shift")
  const len = yield* LengthOfArrayLike(realm, O)
  if (len === 0) {
    yield* SetLength(O, 0)
    return undefined
  }
  if (isPlainDense(O) && O.elements.length === len && O.elements[0] !== EMPTY) {
    const first = O.elements.shift() as Value
    O.length = len - 1
    return first
  }
  const first = yield* GetIdx(O, 0)
  for (let k = 1; k < len; k++) {
    PollInterrupt(realm)
    const fromValue = yield* GetPresent(O, k)
    if (fromValue === EMPTY) DeleteIdx(O, k - 1)
    else yield* SetIdx(O, k - 1, fromValue)
  }
  DeleteIdx(O, len - 1)
  yield* SetLength(O, len - 1)
  return first
}

// https://tc39.es/ecma262/#sec-array.prototype.unshift
function* ArrayProto_unshift(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "unshift")
  const len = yield* LengthOfArrayLike(realm, O)
  const argCount = args.length
  if (argCount > 0) {
    if (len + argCount > MAX_SAFE_INTEGER) return throwTypeError("Invalid array length")
    if (isPlainDense(O) && O.elements.length === len) {
      checkArrayStorage(len + argCount)
      chargeMemory(Cost.element * argCount)
      O.elements.unshift(...args)
      O.length = len + argCount
      return O.length
    }
    for (let k = len; k > 0; k--) {
      PollInterrupt(realm)
      const fromValue = yield* GetPresent(O, k - 1)
      if (fromValue === EMPTY) DeleteIdx(O, k + argCount - 1)
      else yield* SetIdx(O, k + argCount - 1, fromValue)
    }
    for (let j = 0; j < argCount; j++) yield* SetIdx(O, j, args[j])
  }
  yield* SetLength(O, len + argCount)
  return len + argCount
}

// https://tc39.es/ecma262/#sec-array.prototype.splice
function* ArrayProto_splice(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "splice")
  const len = yield* LengthOfArrayLike(realm, O)
  const actualStart = yield* RelativeIndex(realm, args[0], len, 0)
  const items = args.slice(2)
  const itemCount = items.length
  let actualDeleteCount: number
  if (args.length === 0) actualDeleteCount = 0
  else if (args.length === 1) actualDeleteCount = len - actualStart
  else {
    const dc = yield* ToIntegerOrInfinity(realm, args[1])
    actualDeleteCount = Math.min(Math.max(dc, 0), len - actualStart)
  }
  if (len + itemCount - actualDeleteCount > MAX_SAFE_INTEGER) return throwTypeError("Invalid array length")
  const A = yield* ArraySpeciesCreate(realm, O, actualDeleteCount)
  // 11. Copy the deleted elements into A.
  for (let k = 0; k < actualDeleteCount; k++) {
    PollInterrupt(realm)
    const v = yield* GetPresent(O, actualStart + k)
    if (v !== EMPTY) CreateIdx(A, k, v)
  }
  yield* SetLength(A, actualDeleteCount)
  const newLen = len - actualDeleteCount + itemCount
  if (isPlainDense(O) && O.elements.length === len) {
    checkArrayStorage(newLen)
    chargeMemory(Cost.element * itemCount)
    O.elements.splice(actualStart, actualDeleteCount, ...items)
    O.length = newLen
    return A
  }
  // 15-16. Move the tail (up or down), then write the items and the length.
  if (itemCount < actualDeleteCount) {
    for (let k = actualStart; k < len - actualDeleteCount; k++) {
      PollInterrupt(realm)
      const fromValue = yield* GetPresent(O, k + actualDeleteCount)
      if (fromValue === EMPTY) DeleteIdx(O, k + itemCount)
      else yield* SetIdx(O, k + itemCount, fromValue)
    }
    DeleteRangeDescending(O, newLen, len)
  } else if (itemCount > actualDeleteCount) {
    for (let k = len - actualDeleteCount; k > actualStart; k--) {
      PollInterrupt(realm)
      const fromValue = yield* GetPresent(O, k + actualDeleteCount - 1)
      if (fromValue === EMPTY) DeleteIdx(O, k + itemCount - 1)
      else yield* SetIdx(O, k + itemCount - 1, fromValue)
    }
  }
  for (let k = 0; k < itemCount; k++) yield* SetIdx(O, actualStart + k, items[k])
  yield* SetLength(O, newLen)
  return A
}

// ---------------------------------------------------------------------------------------------------------------
// Sorting (the algorithm is in array-sort.ts)

// https://tc39.es/ecma262/#sec-array.prototype.sort
const ArrayProto_sort = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => {
  const comparefn = comparatorOrThrow(args[0])
  const obj = toObject(realm, thisArg, "sort")
  // A plain dense array with a comparator: its length and elements are read without running code, and the sort's
  // state machine is the Task itself, with no generator around it for each comparison to pass through.
  if (comparefn !== undefined && isPlainDense(obj)) {
    const len = obj.length
    const { items, undefinedCount } = presentElements(obj.elements, len, "skip-holes")
    return new SortSteps(realm, items, comparefn, (sorted) => writeBack(realm, obj, len, undefinedLast(sorted, undefinedCount))).task
  }
  return SortIndexed(realm, obj, comparefn)
}

function* SortIndexed(realm: Realm, obj: JSObject, comparefn: JSObject | undefined): Task<Value> {
  const len = yield* LengthOfArrayLike(realm, obj)
  const sortedList = yield* SortList(realm, yield* IndexedItems(realm, obj, len, "skip-holes"), comparefn)
  const end = writeBack(realm, obj, len, sortedList)
  return end instanceof JSObject ? end : yield* end
}

/**
 * Writes the sorted items back, then deletes the rest to preserve the number of holes that were excluded. On a
 * plain dense array no setter can be reached, so the writes go straight to storage, without a Task; and while its
 * length is still len, every index below it is written or deleted, so `sorted` (the caller gives it up) becomes
 * the storage.
 */
const writeBack = (realm: Realm, obj: JSObject, len: number, sorted: Value[]): JSObject | Task<Value> => {
  if (!isPlainDense(obj)) return WriteBackTask(realm, obj, len, sorted, 0)
  if (obj.length === len) {
    // The comparator may have deleted elements from the storage: it grows back as the writes would grow it.
    if (sorted.length > obj.elements.length) chargeMemory(Cost.element * (sorted.length - obj.elements.length))
    obj.elements = sorted
    return obj
  }
  for (let j = 0; j < sorted.length; j++) {
    PollInterrupt(realm)
    if (!obj.setOwnElement(j, sorted[j])) return WriteBackTask(realm, obj, len, sorted, j)
  }
  DeleteRange(obj, sorted.length, len)
  return obj
}

function* WriteBackTask(realm: Realm, obj: JSObject, len: number, sorted: Value[], from: number): Task<Value> {
  for (let j = from; j < sorted.length; j++) {
    PollInterrupt(realm)
    yield* SetIdx(obj, j, sorted[j])
  }
  DeleteRange(obj, sorted.length, len)
  return obj
}

/**
 * IndexedItems of a plain dense array (nothing inherited at an index, so a hole is missing), undefined set aside
 * as SortList does.
 */
const presentElements = (els: ReadonlyArray<Value | Empty>, len: number, holes: "skip-holes" | "read-through-holes"): { items: Value[]; undefinedCount: number } => {
  // A copy at once, compacted in place: pushing one by one would copy the list ~20 times as it grows.
  const items = els.slice()
  let n = 0
  let undefinedCount = 0
  for (let i = 0; i < items.length; i++) {
    const v = items[i]
    if (v === undefined) undefinedCount++
    else if (v !== EMPTY) items[n++] = v
  }
  items.length = n
  // Read through, a hole (stored or past the storage) is undefined too.
  return { items: items as Value[], undefinedCount: holes === "skip-holes" ? undefinedCount : len - n }
}

// https://tc39.es/ecma262/#sec-array.prototype.tosorted
const ArrayProto_toSorted = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> => {
  const comparefn = comparatorOrThrow(args[0])
  const O = toObject(realm, thisArg, "toSorted")
  if (comparefn !== undefined && isPlainDense(O)) {
    const A = ArrayCreate(realm, O.length)
    checkArrayStorage(O.length)
    const { items, undefinedCount } = presentElements(O.elements, O.length, "read-through-holes")
    return new SortSteps(realm, items, comparefn, (sorted) => {
      A.elements = undefinedLast(sorted, undefinedCount)
      return A
    }).task
  }
  return ToSorted(realm, O, comparefn)
}

function* ToSorted(realm: Realm, O: JSObject, comparefn: JSObject | undefined): Task<Value> {
  const len = yield* LengthOfArrayLike(realm, O)
  const A = ArrayCreate(realm, len)
  checkArrayStorage(len)
  const sortedList = yield* SortList(realm, yield* IndexedItems(realm, O, len, "read-through-holes"), comparefn)
  A.elements = sortedList
  return A
}

// ---------------------------------------------------------------------------------------------------------------
// Array.prototype: strings

/** Arrays being joined, per realm (V8's cycle detection; see the header). */
const joinStacks = new WeakMap<Realm, JSObject[]>()

/** Runs `body` with O on the join stack; a re-entrant join of O yields "". */
function* withJoinCycleCheck(realm: Realm, O: JSObject, body: () => Task<string>): Task<string> {
  let stack = joinStacks.get(realm)
  if (stack === undefined) joinStacks.set(realm, (stack = []))
  if (stack.includes(O)) return ""
  stack.push(O)
  try {
    return yield* body()
  } finally {
    stack.splice(stack.lastIndexOf(O), 1)
  }
}

// https://tc39.es/ecma262/#sec-array.prototype.join
function* ArrayProto_join(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = toObject(realm, thisArg, "join")
  const len = yield* LengthOfArrayLike(realm, O)
  const separator = args[0]
  const sep = separator === undefined ? "," : typeof separator === "string" ? separator : yield* ToString(realm, separator)
  return yield* withJoinCycleCheck(realm, O, function* () {
    if (len > 1 && (len - 1) * sep.length > Caps.maxStringLength) checkStringLength((len - 1) * sep.length)
    let R = ""
    for (let k = 0; k < len; k++) {
      PollInterrupt(realm)
      // Missing elements read as undefined and join as "": a run of them adds only its separators.
      const next = nextPresentIndex(O, k, len)
      if (next > k) {
        R += sep.repeat(next - k - (k === 0 ? 1 : 0))
        k = next
        if (k >= len) break
      }
      if (k > 0) R += sep
      let element = peekIdx(O, k)
      element = element === SLOW ? yield* GetIdx(O, k) : element === EMPTY ? undefined : element
      if (element !== undefined && element !== null) {
        R += typeof element === "string" ? element : element instanceof JSObject ? yield* ToString(realm, element) : ToStringPrimitive(element)
      }
      if (R.length > Caps.maxStringLength) checkStringLength(R.length)
    }
    chargeString(R.length)
    return R
  })
}

// https://tc39.es/ecma262/#sec-array.prototype.tostring
function* ArrayProto_toString(realm: Realm, thisArg: Value): Task<Value> {
  const array = ToObject(realm, thisArg)
  const func = yield* array.Get("join", array)
  if (IsCallable(func)) return yield* Call(func, array)
  const ObjectToString = realm.findIntrinsic("%Object.prototype.toString%")
  if (ObjectToString !== undefined) return yield* Call(ObjectToString, array)
  return `[object ${array instanceof ArrayObject ? "Array" : "Object"}]`
}

// https://tc39.es/ecma402/#sup-array.prototype.tolocalestring
function* ArrayProto_toLocaleString(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const array = toObject(realm, thisArg, "toLocaleString")
  const len = yield* LengthOfArrayLike(realm, array)
  return yield* withJoinCycleCheck(realm, array, function* () {
    let R = ""
    for (let k = 0; k < len; k++) {
      PollInterrupt(realm)
      if (k > 0) R += ","
      const nextElement = yield* GetIdx(array, k)
      if (nextElement !== undefined && nextElement !== null) {
        const S = yield* ToString(realm, yield* Invoke(realm, nextElement, "toLocaleString", args.slice(0, 2)))
        R += S
        if (R.length > Caps.maxStringLength) checkStringLength(R.length)
      }
    }
    chargeString(R.length)
    return R
  })
}

// ---------------------------------------------------------------------------------------------------------------

/** Installs `aliasKey` as another key for the very function object at `key`. */
const alias = (target: JSObject, aliasKey: string | SymbolValue, key: string): void => {
  const p = target.properties.get(key)!
  target.properties.set(aliasKey, Property.data(p.value, true, false, true))
}

export const install = (realm: Realm): void => {
  // https://tc39.es/ecma262/#sec-properties-of-the-array-prototype-object — itself an Array exotic object.
  const ArrayPrototype = new ArrayObject(realm.ObjectPrototype)
  realm.ArrayPrototype = ArrayPrototype
  const ArrayCtor = defineConstructor(realm, "Array", Array_, 1, ArrayPrototype)
  defineMethods(realm, ArrayCtor, "%Array%", [
    ["isArray", Array_isArray, 1],
    ["from", Array_from, 1],
    ["fromAsync", Array_fromAsync, 1],
    ["of", Array_of, 0],
  ])
  defineAccessors(realm, ArrayCtor, "%Array%", [[WellKnownSymbols.species, Array_species, undefined]])
  // V8's property order, so that listing Array.prototype matches.
  defineMethods(realm, ArrayPrototype, "%Array.prototype%", [
    ["at", ArrayProto_at, 1],
    ["concat", ArrayProto_concat, 1],
    ["copyWithin", ArrayProto_copyWithin, 2],
    ["fill", ArrayProto_fill, 1],
    ["find", ArrayProto_find, 1],
    ["findIndex", ArrayProto_findIndex, 1],
    ["findLast", ArrayProto_findLast, 1],
    ["findLastIndex", ArrayProto_findLastIndex, 1],
    ["lastIndexOf", ArrayProto_lastIndexOf, 1],
    ["pop", ArrayProto_pop, 0],
    ["push", ArrayProto_push, 1],
    ["reverse", ArrayProto_reverse, 0],
    ["shift", ArrayProto_shift, 0],
    ["unshift", ArrayProto_unshift, 1],
    ["slice", ArrayProto_slice, 2],
    ["sort", ArrayProto_sort, 1],
    ["splice", ArrayProto_splice, 2],
    ["includes", ArrayProto_includes, 1],
    ["indexOf", ArrayProto_indexOf, 1],
    ["join", ArrayProto_join, 1],
    ["keys", ArrayProto_keys, 0],
    ["entries", ArrayProto_entries, 0],
    ["values", ArrayProto_values, 0],
    ["forEach", ArrayProto_forEach, 1],
    ["filter", ArrayProto_filter, 1],
    ["flat", ArrayProto_flat, 0],
    ["flatMap", ArrayProto_flatMap, 1],
    ["map", ArrayProto_map, 1],
    ["every", ArrayProto_every, 1],
    ["some", ArrayProto_some, 1],
    ["reduce", ArrayProto_reduce, 1],
    ["reduceRight", ArrayProto_reduceRight, 1],
    ["toReversed", ArrayProto_toReversed, 0],
    ["toSorted", ArrayProto_toSorted, 1],
    ["toSpliced", ArrayProto_toSpliced, 2],
    ["with", ArrayProto_with, 2],
    ["toLocaleString", ArrayProto_toLocaleString, 0],
    ["toString", ArrayProto_toString, 0],
  ])
  // https://tc39.es/ecma262/#sec-array.prototype-%symbol.iterator% — the same function object as values.
  alias(ArrayPrototype, WellKnownSymbols.iterator, "values")
  // https://tc39.es/ecma262/#sec-array.prototype-%symbol.unscopables%
  const unscopableList = new JSObject(null)
  for (const name of [
    "at", "copyWithin", "entries", "fill", "find", "findIndex", "findLast", "findLastIndex", "flat", "flatMap",
    "includes", "keys", "toReversed", "toSorted", "toSpliced", "values",
  ]) {
    CreateDataPropertyOrThrow(unscopableList, name, true)
  }
  ArrayPrototype.properties.set(WellKnownSymbols.unscopables, Property.data(unscopableList, false, false, true))
}

