/**
 * The %TypedArray% intrinsic and the concrete constructors (https://tc39.es/ecma262/#sec-typedarray-objects): the
 * constructor forms (length, typed array, ArrayBuffer + offset + length, iterable, array-like), %TypedArray%.from
 * and .of, species creation, and the buffer-aware `length`/`byteLength`/`byteOffset`/`buffer` getters. The
 * prototype methods are in bytes-typed-array-proto.ts; the objects themselves in bytes-objects.ts; bytes.ts installs.
 *
 * Element conversions (ToNumber/ToBigInt of a value being stored) may run user code, so every path that stores
 * sandbox values is a Task; primitives take a fast path.
 */
import { throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { notIterableValue } from "../runtime/not-iterable.ts"
import { ToIntegerOrInfinity } from "../runtime/conversions.ts"
import { IsCallable, IsConstructor } from "../runtime/function-object.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { GetIteratorFromMethod, IteratorToList } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import {
  Call,
  Construct,
  describeValue,
  GetMethod,
  GetPrototypeFromConstructor,
  LengthOfArrayLike,
  SpeciesConstructor,
} from "../runtime/operations.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { ToObject } from "../runtime/conversions.ts"
import { CreateArrayIterator } from "./iterator.ts"
import {
  ArrayBufferByteLength,
  ArrayBufferObject,
  CreateByteDataBlock,
  CreateTypedArray,
  type ElementInfo,
  ElementInfoOf,
  IsFixedLengthArrayBuffer,
  IsTypedArrayOutOfBounds,
  readElement,
  TypedArrayByteLength,
  TypedArrayLength,
  TypedArrayLengthOrZero,
  TypedArrayObject,
  TypedArraySetElement,
  typedArrayBytes,
  writeElement,
} from "./bytes-objects.ts"

// ---------------------------------------------------------------------------------------------------------------
// Shared checks

/** How V8 prints a value in its messages without running anything (NoSideEffectsToString, roughly). */
export const receiverText = (v: Value): string => {
  if (v instanceof ArrayObject) return "[object Array]"
  if (v instanceof TypedArrayObject) return `[object ${v.typedArrayName}]`
  if (v instanceof JSObject && v.kind === "RegExp") return "[object RegExp]"
  if (v instanceof JSObject || v instanceof SymbolValue) return describeValue(v)
  return String(v)
}

/** A callback argument: V8 words the error with the value's type (`number 5 is not a function`)... */
export const requireCallable = (f: Value): JSObject => (IsCallable(f) ? f : notCallableWithType(f))

/** ...except in %TypedArray%.prototype.map, which prints the value itself (`5 is not a function`). */
export const requireCallablePlain = (f: Value): JSObject => (IsCallable(f) ? f : throwTypeError(`${receiverText(f)} is not a function`))

/** V8's wording when a mapping function is not callable (`number 5 is not a function`, `object is not a function`). */
export const notCallableWithType = (v: Value): never => {
  let text: string
  if (v === undefined) text = "undefined"
  else if (v === null) text = "object null"
  else if (typeof v === "number" || typeof v === "boolean") text = `${typeof v} ${String(v)}`
  else if (typeof v === "string") text = `string "${v}"`
  else if (typeof v === "bigint") text = "bigint"
  else if (v instanceof SymbolValue) text = "symbol"
  else text = "object"
  return throwTypeError(`${text} is not a function`)
}

/** The methods V8 words as "Method %TypedArray%.prototype.x called on incompatible receiver ..." (the others: "this is not a typed array."). */
const INCOMPATIBLE_RECEIVER_WORDING = new Set(["at", "join", "slice", "sort", "subarray", "toReversed", "toSorted", "toLocaleString"])

/**
 * https://tc39.es/ecma262/#sec-validatetypedarray — `O` as an in-bounds typed array and its current length.
 * `method` names the operation in the messages, as V8 does.
 */
export const ValidateTypedArray = (O: Value, method: string): [TypedArrayObject, number] => {
  if (!(O instanceof TypedArrayObject)) {
    const short = method.slice(method.lastIndexOf(".") + 1)
    if (INCOMPATIBLE_RECEIVER_WORDING.has(short)) return throwTypeError(`Method ${method} called on incompatible receiver ${receiverText(O)}`)
    return throwTypeError("this is not a typed array.")
  }
  if (IsTypedArrayOutOfBounds(O)) return throwTypeError(`Cannot perform ${method} on a detached ArrayBuffer`)
  return [O, TypedArrayLength(O)]
}

export const thisTypedArray = (O: Value, method: string): TypedArrayObject =>
  O instanceof TypedArrayObject ? O : throwTypeError(`Method ${method} called on incompatible receiver ${receiverText(O)}`)

const mixedContentTypes = (): never => throwTypeError("Cannot mix BigInt and other types, use explicit conversions")

/** The element value of a sandbox value being read from an array-like: fast for dense plain arrays. */
export function* GetIndex(O: JSObject, k: number): Task<Value> {
  if (O instanceof ArrayObject) {
    const el = O.getOwnElement(k)
    if (el !== undefined && el !== EMPTY) return el
  }
  return yield* O.Get(String(k), O)
}

// ---------------------------------------------------------------------------------------------------------------
// Creating typed arrays

/** An intrinsic constructor's element info, when `C` is one of the realm's concrete typed array constructors. */
const intrinsicInfo = (realm: Realm, C: JSObject): ElementInfo | undefined => {
  const name = realm.intrinsicNames.get(C)
  if (name === undefined) return undefined
  return ElementInfoOf.get(name.slice(1, -1) as never)
}

// https://tc39.es/ecma262/#sec-typedarraycreatefromconstructor
export function* TypedArrayCreateFromConstructor(realm: Realm, C: JSObject, args: ReadonlyArray<Value>, method: string): Task<TypedArrayObject> {
  // Fast path: the realm's own constructor with a length argument allocates exactly as Construct would.
  const own = intrinsicInfo(realm, C)
  if (own !== undefined && args.length === 1 && typeof args[0] === "number") {
    return AllocateTypedArrayOfLength(realm, own, realm.intrinsic(`%${own.name}.prototype%`), args[0])
  }
  // 1. Let newTypedArray be ? Construct(constructor, argumentList).
  const newTypedArray = yield* Construct(C, args)
  // 2. Let taRecord be ? ValidateTypedArray(newTypedArray, seq-cst).
  if (!(newTypedArray instanceof TypedArrayObject)) {
    return throwTypeError(`Method ${method} called on incompatible receiver ${receiverText(newTypedArray)}`)
  }
  if (IsTypedArrayOutOfBounds(newTypedArray)) return throwTypeError(`Cannot perform ${method} on a detached ArrayBuffer`)
  // 3. If the number of elements in argumentList is 1 and argumentList[0] is a Number, then
  if (args.length === 1 && typeof args[0] === "number") {
    if (TypedArrayLength(newTypedArray) < args[0]) {
      return throwTypeError("Derived TypedArray constructor created an array which was too small")
    }
  }
  return newTypedArray
}

// https://tc39.es/ecma262/#sec-typedarray-species-create
export function* TypedArraySpeciesCreate(realm: Realm, exemplar: TypedArrayObject, args: ReadonlyArray<Value>, method: string): Task<TypedArrayObject> {
  const defaultConstructor = realm.intrinsic(`%${exemplar.typedArrayName}%`)
  const constructor = yield* SpeciesConstructor(exemplar, defaultConstructor)
  const result = yield* TypedArrayCreateFromConstructor(realm, constructor, args, method)
  // If result.[[ContentType]] is not exemplar.[[ContentType]], throw a TypeError exception.
  if (result.info.bigint !== exemplar.info.bigint) return mixedContentTypes()
  return result
}

// https://tc39.es/ecma262/#sec-typedarray-create-same-type
export const TypedArrayCreateSameType = (realm: Realm, exemplar: TypedArrayObject, length: number): TypedArrayObject =>
  AllocateTypedArrayOfLength(realm, exemplar.info, realm.intrinsic(`%${exemplar.typedArrayName}.prototype%`), length)

const invalidLength = (n: number): never => throwRangeError(`Invalid typed array length: ${n}`)

/** AllocateTypedArray with a length (https://tc39.es/ecma262/#sec-allocatetypedarray, step 6). */
const AllocateTypedArrayOfLength = (realm: Realm, info: ElementInfo, proto: JSObject, length: number): TypedArrayObject => {
  if (length < 0 || length > Number.MAX_SAFE_INTEGER || !Number.isInteger(length)) return invalidLength(length)
  return CreateTypedArray(realm, info.name, length, proto)
}

/**
 * The concrete constructors' behaviour (https://tc39.es/ecma262/#sec-typedarray), shared by all twelve. `newTarget`
 * is the constructor being constructed (or a subclass).
 */
export function* TypedArrayConstruct(realm: Realm, info: ElementInfo, args: ReadonlyArray<Value>, newTarget: JSObject): Task<TypedArrayObject> {
  const defaultProto = `%${info.name}.prototype%`
  const firstArgument = args[0]
  // 4. If firstArgument is an Object, then
  if (firstArgument instanceof JSObject) {
    // a. Let O be ? AllocateTypedArray(constructorName, NewTarget, proto).
    const proto = yield* GetPrototypeFromConstructor(realm, newTarget, defaultProto)
    if (firstArgument instanceof TypedArrayObject) return InitializeTypedArrayFromTypedArray(realm, info, proto, firstArgument)
    if (firstArgument instanceof ArrayBufferObject) {
      return yield* InitializeTypedArrayFromArrayBuffer(realm, info, proto, firstArgument, args[1], args[2])
    }
    // iii. Let usingIterator be ? GetMethod(firstArgument, %Symbol.iterator%).
    const usingIterator = yield* GetMethod(realm, firstArgument, WellKnownSymbols.iterator)
    if (usingIterator !== undefined) {
      const values = ArrayValuesUnobservably(realm, firstArgument, usingIterator) ??
        (yield* IteratorToList(yield* GetIteratorFromMethod(realm, firstArgument, usingIterator)))
      return yield* InitializeTypedArrayFromList(realm, info, proto, values)
    }
    return yield* InitializeTypedArrayFromArrayLike(realm, info, proto, firstArgument)
  }
  // 5. Else: Let elementLength be ? ToIndex(firstArgument).
  const elementLength = yield* ToIntegerOrInfinity(realm, firstArgument)
  if (elementLength < 0 || elementLength > Number.MAX_SAFE_INTEGER) return invalidLength(elementLength)
  const proto = yield* GetPrototypeFromConstructor(realm, newTarget, defaultProto)
  return AllocateTypedArrayOfLength(realm, info, proto, elementLength)
}

/**
 * The elements of a dense plain array whose iteration nobody has changed, read directly: iterating it through the
 * protocol would observe nothing else. Undefined when the protocol could be observed (a hole, a patched iterator).
 */
export const ArrayValuesUnobservably = (realm: Realm, obj: JSObject, method: Value): Value[] | undefined => {
  if (!(obj instanceof ArrayObject) || obj.elements === null) return undefined
  if (method !== realm.findIntrinsic("%Array.prototype.values%")) return undefined
  const iterProto = realm.findIntrinsic("%ArrayIteratorPrototype%")
  const next = realm.findIntrinsic("%ArrayIteratorPrototype.next%")
  if (iterProto === undefined || next === undefined) return undefined
  const own = iterProto.properties.get("next")
  if (own === undefined || own.accessor || own.value !== next) return undefined
  const els = obj.elements
  if (els.length !== obj.length) return undefined
  for (const v of els) if (v === EMPTY) return undefined
  return els as Value[]
}

// https://tc39.es/ecma262/#sec-initializetypedarrayfromtypedarray
const InitializeTypedArrayFromTypedArray = (realm: Realm, info: ElementInfo, proto: JSObject, srcArray: TypedArrayObject): TypedArrayObject => {
  if (IsTypedArrayOutOfBounds(srcArray)) return throwTypeError("Cannot perform Construct on a detached ArrayBuffer")
  const elementLength = TypedArrayLength(srcArray)
  if (info.bigint !== srcArray.info.bigint) return mixedContentTypes()
  const O = CreateTypedArray(realm, info.name, elementLength, proto)
  if (srcArray.info.type === info.type) {
    O.buffer.data!.set(typedArrayBytes(srcArray))
  } else {
    for (let k = 0; k < elementLength; k++) writeElement(O, k, readElement(srcArray, k))
  }
  return O
}

// https://tc39.es/ecma262/#sec-initializetypedarrayfromarraybuffer
function* InitializeTypedArrayFromArrayBuffer(
  realm: Realm,
  info: ElementInfo,
  proto: JSObject,
  buffer: ArrayBufferObject,
  byteOffset: Value,
  length: Value,
): Task<TypedArrayObject> {
  const elementSize = info.size
  // 2. Let offset be ? ToIndex(byteOffset).
  const offset = yield* ToIntegerOrInfinity(realm, byteOffset)
  if (offset < 0 || offset > Number.MAX_SAFE_INTEGER) return throwRangeError(`Start offset ${offset} is outside the bounds of the buffer`)
  // 3. If offset modulo elementSize ≠ 0, throw a RangeError exception.
  if (offset % elementSize !== 0) return throwRangeError(`start offset of ${info.name} should be a multiple of ${elementSize}`)
  const bufferIsFixedLength = IsFixedLengthArrayBuffer(buffer)
  // 5. If length is not undefined, then let newLength be ? ToIndex(length).
  let newLength = 0
  if (length !== undefined) {
    newLength = yield* ToIntegerOrInfinity(realm, length)
    if (newLength < 0 || newLength > Number.MAX_SAFE_INTEGER) return invalidLength(newLength)
  }
  // 6. If IsDetachedBuffer(buffer) is true, throw a TypeError exception.
  if (buffer.data === null) return throwTypeError("Cannot perform Construct on a detached ArrayBuffer")
  const bufferByteLength = ArrayBufferByteLength(buffer)
  // 8. If length is undefined and bufferIsFixedLength is false, then (length-tracking)
  if (length === undefined && !bufferIsFixedLength) {
    if (offset > bufferByteLength) return throwRangeError(`Start offset ${offset} is outside the bounds of the buffer`)
    return new TypedArrayObject(proto, info.name, buffer, offset, undefined)
  }
  let newByteLength: number
  if (length === undefined) {
    if (bufferByteLength % elementSize !== 0) return throwRangeError(`byte length of ${info.name} should be a multiple of ${elementSize}`)
    newByteLength = bufferByteLength - offset
    if (newByteLength < 0) return throwRangeError(`Start offset ${offset} is outside the bounds of the buffer`)
  } else {
    newByteLength = newLength * elementSize
    if (offset + newByteLength > bufferByteLength) return invalidLength(newLength)
  }
  return new TypedArrayObject(proto, info.name, buffer, offset, newByteLength / elementSize)
}

// https://tc39.es/ecma262/#sec-initializetypedarrayfromlist
function* InitializeTypedArrayFromList(realm: Realm, info: ElementInfo, proto: JSObject, values: ReadonlyArray<Value>): Task<TypedArrayObject> {
  const len = values.length
  const O = CreateTypedArray(realm, info.name, len, proto)
  for (let k = 0; k < len; k++) {
    const v = values[k]
    yield* TypedArraySetElement(realm, O, k, v)
  }
  return O
}

// https://tc39.es/ecma262/#sec-initializetypedarrayfromarraylike
function* InitializeTypedArrayFromArrayLike(realm: Realm, info: ElementInfo, proto: JSObject, arrayLike: JSObject): Task<TypedArrayObject> {
  const len = yield* LengthOfArrayLike(realm, arrayLike)
  if (len * info.size > Number.MAX_SAFE_INTEGER) return throwRangeError("Array buffer allocation failed")
  CreateByteDataBlock(len * info.size) // checks the cap before any element is read
  const O = CreateTypedArray(realm, info.name, len, proto)
  for (let k = 0; k < len; k++) {
    const kValue = yield* GetIndex(arrayLike, k)
    yield* TypedArraySetElement(realm, O, k, kValue)
  }
  return O
}

// ---------------------------------------------------------------------------------------------------------------
// %TypedArray% and the concrete constructors

// https://tc39.es/ecma262/#sec-%typedarray%
export const TypedArray_ = (): Value => throwTypeError("Abstract class TypedArray not directly constructable")

/** The [[Call]]/[[Construct]] behaviour of one concrete constructor. */
export const makeTypedArrayConstructor = (info: ElementInfo) =>
  function* TypedArrayConstructor(realm: Realm, _this: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
    // 1. If NewTarget is undefined, throw a TypeError exception.
    if (newTarget === undefined) return throwTypeError(`Constructor ${info.name} requires 'new'`)
    return yield* TypedArrayConstruct(realm, info, args, newTarget)
  }

// https://tc39.es/ecma262/#sec-%typedarray%.from
export function* TypedArray_from(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const [source, mapfn, thisArgForMap] = args
  // 1-2. Let C be the this value. If IsConstructor(C) is false, throw a TypeError exception.
  const C = thisArg
  if (!IsConstructor(C)) return throwTypeError(`${describeValue(C)} is not a constructor`)
  // 3-4. If mapfn is undefined, let mapping be false; else it must be callable.
  const mapping = mapfn !== undefined
  if (mapping && !IsCallable(mapfn)) return notCallableWithType(mapfn)
  // 5. Let usingIterator be ? GetMethod(source, %Symbol.iterator%).
  if (source === undefined || source === null) return throwTypeError(notIterableValue(source))
  const usingIterator = yield* GetMethod(realm, source, WellKnownSymbols.iterator)
  let values: ReadonlyArray<Value> | undefined
  if (usingIterator !== undefined) {
    values =
      (source instanceof JSObject ? ArrayValuesUnobservably(realm, source, usingIterator) : undefined) ??
      (yield* IteratorToList(yield* GetIteratorFromMethod(realm, source, usingIterator)))
  }
  // 7. NOTE: source is not an Iterable, so assume it is already an array-like object.
  const arrayLike = values === undefined ? ToObject(realm, source) : undefined
  const len = values !== undefined ? values.length : yield* LengthOfArrayLike(realm, arrayLike!)
  const targetObj = yield* TypedArrayCreateFromConstructor(realm, C, [len], "%TypedArray%.from")
  for (let k = 0; k < len; k++) {
    const kValue = values !== undefined ? values[k] : yield* GetIndex(arrayLike!, k)
    const mappedValue = mapping ? yield* Call(mapfn, thisArgForMap, [kValue, k]) : kValue
    // ? Set(targetObj, Pk, mappedValue, true): a typed array's own [[Set]] always reports success.
    yield* TypedArraySetElement(realm, targetObj, k, mappedValue)
  }
  return targetObj
}

// https://tc39.es/ecma262/#sec-%typedarray%.of
export function* TypedArray_of(realm: Realm, thisArg: Value, items: ReadonlyArray<Value>): Task<Value> {
  const len = items.length
  const C = thisArg
  if (!IsConstructor(C)) return throwTypeError(`${describeValue(C)} is not a constructor`)
  const newObj = yield* TypedArrayCreateFromConstructor(realm, C, [len], "%TypedArray%.of")
  for (let k = 0; k < len; k++) yield* TypedArraySetElement(realm, newObj, k, items[k])
  return newObj
}

// https://tc39.es/ecma262/#sec-get-%typedarray%-%symbol.species%
export const TypedArray_species = (_realm: Realm, thisArg: Value): Value => thisArg

// ---------------------------------------------------------------------------------------------------------------
// Accessors of %TypedArray%.prototype

// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype.buffer
export const TypedArrayProto_buffer = (_realm: Realm, thisArg: Value): Value =>
  thisTypedArray(thisArg, "get %TypedArray%.prototype.buffer").buffer

// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype.bytelength
export const TypedArrayProto_byteLength = (_realm: Realm, thisArg: Value): Value =>
  TypedArrayByteLength(thisTypedArray(thisArg, "get TypedArray.prototype.byteLength"))

// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype.byteoffset
export const TypedArrayProto_byteOffset = (_realm: Realm, thisArg: Value): Value => {
  const O = thisTypedArray(thisArg, "get TypedArray.prototype.byteOffset")
  return IsTypedArrayOutOfBounds(O) ? 0 : O.byteOffset
}

// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype.length
export const TypedArrayProto_length = (_realm: Realm, thisArg: Value): Value =>
  TypedArrayLengthOrZero(thisTypedArray(thisArg, "get TypedArray.prototype.length"))

// https://tc39.es/ecma262/#sec-get-%typedarray%.prototype-%symbol.tostringtag%
export const TypedArrayProto_toStringTag = (_realm: Realm, thisArg: Value): Value =>
  thisArg instanceof TypedArrayObject ? thisArg.typedArrayName : undefined

/** %TypedArray%.prototype.entries/keys/values: array iterators over the typed array. */
export const makeIteratorMethod = (kind: "entries" | "keys" | "values") => {
  const iterationKind = kind === "entries" ? "key+value" : kind === "keys" ? "key" : "value"
  // https://tc39.es/ecma262/#sec-%typedarray%.prototype.values (and keys, entries)
  return function TypedArrayProto_iterator(realm: Realm, thisArg: Value): Value {
    // 1-2. Let O be the this value. Perform ? ValidateTypedArray(O, seq-cst).
    const [O] = ValidateTypedArray(thisArg, `%TypedArray%.prototype.${kind}`)
    // 3. Return CreateArrayIterator(O, kind).
    return CreateArrayIterator(realm, O, iterationKind)
  }
}
