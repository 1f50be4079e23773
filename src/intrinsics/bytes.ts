/**
 * Binary data (https://tc39.es/ecma262/#sec-structured-data): ArrayBuffer (fixed-length and resizable, slice,
 * resize, transfer, detaching), the %TypedArray% intrinsic with its twelve concrete constructors (Int8Array ...
 * BigUint64Array, and Float16Array), DataView with every getter and setter, and the Uint8Array base64/hex methods
 * (ES2026). This file holds ArrayBuffer and DataView and installs the whole family; the objects and buffer
 * operations are in bytes-objects.ts, %TypedArray% in bytes-typed-array.ts (constructors, statics, accessors) and
 * bytes-typed-array-proto.ts (prototype methods), base64/hex in bytes-base64.ts.
 *
 * Every byte store is allocated through CreateByteDataBlock, which enforces Caps.maxArrayBufferBytes with V8's
 * "Array buffer allocation failed". SharedArrayBuffer and Atomics are not provided.
 */
import { defineAccessors, defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { ToBoolean, ToIntegerOrInfinity } from "../runtime/conversions.ts"
import { JSObject } from "../runtime/object.ts"
import { Construct, GetPrototypeFromConstructor, SpeciesConstructor } from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type Value, WellKnownSymbols } from "../runtime/value.ts"
import {
  ArrayBufferByteLength,
  ArrayBufferObject,
  copyBytes,
  CreateByteDataBlock,
  DataViewObject,
  DetachArrayBuffer,
  type ElementType,
  ElementSizeOf,
  GetValueFromBuffer,
  GetViewByteLength,
  IsBigIntElementType,
  IsFixedLengthArrayBuffer,
  IsViewOutOfBounds,
  SetValueInBuffer,
  ToElementValue,
  TYPED_ARRAYS,
  TypedArrayObject,
} from "./bytes-objects.ts"
import {
  makeIteratorMethod,
  makeTypedArrayConstructor,
  receiverText,
  TypedArray_,
  TypedArray_from,
  TypedArray_of,
  TypedArray_species,
  TypedArrayProto_buffer,
  TypedArrayProto_byteLength,
  TypedArrayProto_byteOffset,
  TypedArrayProto_length,
  TypedArrayProto_toStringTag,
} from "./bytes-typed-array.ts"
import * as proto from "./bytes-typed-array-proto.ts"
import * as base64 from "./bytes-base64.ts"

type Args = ReadonlyArray<Value>

// ---------------------------------------------------------------------------------------------------------------
// ArrayBuffer

const thisArrayBuffer = (v: Value, method: string): ArrayBufferObject =>
  v instanceof ArrayBufferObject ? v : throwTypeError(`Method ${method} called on incompatible receiver ${receiverText(v)}`)

const detachedError = (method: string): never => throwTypeError(`Cannot perform ${method} on a detached ArrayBuffer`)

/** ToIndex with the caller's RangeError message. */
function* ToIndexOr(realm: Realm, v: Value, message: string): Task<number> {
  const integer = yield* ToIntegerOrInfinity(realm, v)
  if (integer < 0 || integer > Number.MAX_SAFE_INTEGER) return throwRangeError(message)
  return integer
}

// https://tc39.es/ecma262/#sec-arraybuffer-length
function* ArrayBuffer_(realm: Realm, _this: Value, args: Args, newTarget: JSObject | undefined): Task<Value> {
  const [length, options] = args
  // 1. If NewTarget is undefined, throw a TypeError exception.
  if (newTarget === undefined) return throwTypeError("Constructor ArrayBuffer requires 'new'")
  // 2. Let byteLength be ? ToIndex(length).
  const byteLength = yield* ToIndexOr(realm, length, "Invalid array buffer length")
  // 3. Let requestedMaxByteLength be ? GetArrayBufferMaxByteLengthOption(options).
  let requestedMaxByteLength: number | undefined
  if (options instanceof JSObject) {
    const maxByteLength = yield* options.Get("maxByteLength", options)
    if (maxByteLength !== undefined) requestedMaxByteLength = yield* ToIndexOr(realm, maxByteLength, "Invalid array buffer max length")
  }
  // 4. Return ? AllocateArrayBuffer(NewTarget, byteLength, requestedMaxByteLength).
  if (requestedMaxByteLength !== undefined && byteLength > requestedMaxByteLength) {
    return throwRangeError("Invalid array buffer max length")
  }
  const prototype = yield* GetPrototypeFromConstructor(realm, newTarget, "%ArrayBuffer.prototype%")
  return new ArrayBufferObject(prototype, CreateByteDataBlock(byteLength), requestedMaxByteLength)
}

// https://tc39.es/ecma262/#sec-arraybuffer.isview
const ArrayBuffer_isView = (_realm: Realm, _this: Value, args: Args): Value =>
  args[0] instanceof TypedArrayObject || args[0] instanceof DataViewObject

// https://tc39.es/ecma262/#sec-get-arraybuffer.prototype.bytelength
const ArrayBufferProto_byteLength = (_realm: Realm, thisArg: Value): Value =>
  ArrayBufferByteLength(thisArrayBuffer(thisArg, "get ArrayBuffer.prototype.byteLength"))

// https://tc39.es/ecma262/#sec-get-arraybuffer.prototype.maxbytelength
const ArrayBufferProto_maxByteLength = (_realm: Realm, thisArg: Value): Value => {
  const O = thisArrayBuffer(thisArg, "get ArrayBuffer.prototype.maxByteLength")
  if (O.data === null) return 0
  return O.maxByteLength ?? O.data.length
}

// https://tc39.es/ecma262/#sec-get-arraybuffer.prototype.resizable
const ArrayBufferProto_resizable = (_realm: Realm, thisArg: Value): Value =>
  !IsFixedLengthArrayBuffer(thisArrayBuffer(thisArg, "get ArrayBuffer.prototype.resizable"))

// https://tc39.es/ecma262/#sec-get-arraybuffer.prototype.detached
const ArrayBufferProto_detached = (_realm: Realm, thisArg: Value): Value =>
  thisArrayBuffer(thisArg, "get ArrayBuffer.prototype.detached").data === null

// https://tc39.es/ecma262/#sec-arraybuffer.prototype.resize
function* ArrayBufferProto_resize(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  // 1-2. RequireInternalSlot(O, [[ArrayBufferMaxByteLength]]): only resizable buffers.
  const O = thisArrayBuffer(thisArg, "ArrayBuffer.prototype.resize")
  if (O.maxByteLength === undefined) return throwTypeError(`Method ArrayBuffer.prototype.resize called on incompatible receiver ${receiverText(O)}`)
  const message = "ArrayBuffer.prototype.resize: Invalid length parameter"
  const newByteLength = yield* ToIndexOr(realm, args[0], message)
  if (O.data === null) return detachedError("ArrayBuffer.prototype.resize")
  if (newByteLength > O.maxByteLength) return throwRangeError(message)
  // HostResizeArrayBuffer: a new store keeps the common prefix; new bytes are zero.
  const block = CreateByteDataBlock(newByteLength)
  copyBytes(O.data, 0, block, 0, Math.min(newByteLength, O.data.length))
  O.data = block
  return undefined
}

// https://tc39.es/ecma262/#sec-arraybuffer.prototype.slice
function* ArrayBufferProto_slice(realm: Realm, thisArg: Value, args: Args): Task<Value> {
  const method = "ArrayBuffer.prototype.slice"
  const O = thisArrayBuffer(thisArg, method)
  if (O.data === null) return detachedError(method)
  const len = ArrayBufferByteLength(O)
  const first = clampIndex(yield* ToIntegerOrInfinity(realm, args[0]), len)
  const final = args[1] === undefined ? len : clampIndex(yield* ToIntegerOrInfinity(realm, args[1]), len)
  const newLen = Math.max(final - first, 0)
  // 15-16. Let ctor be ? SpeciesConstructor(O, %ArrayBuffer%); let new be ? Construct(ctor, « 𝔽(newLen) »).
  const defaultCtor = realm.intrinsic("%ArrayBuffer%")
  const ctor = yield* SpeciesConstructor(O, defaultCtor)
  const created: JSObject =
    ctor === defaultCtor
      ? new ArrayBufferObject(realm.intrinsic("%ArrayBuffer.prototype%"), CreateByteDataBlock(newLen), undefined)
      : yield* Construct(ctor, [newLen])
  // 17-22. The new object must be a distinct, attached ArrayBuffer that is large enough.
  if (!(created instanceof ArrayBufferObject)) return throwTypeError(`Method ${method} called on incompatible receiver ${receiverText(created)}`)
  if (created.data === null) return detachedError(method)
  if (created === O) return throwTypeError("ArrayBuffer subclass returned this from species constructor")
  if (created.data.length < newLen) return throwTypeError("Derived ArrayBuffer constructor created a buffer which was too small")
  // 23-24. The species constructor may have detached or shrunk O.
  if (O.data === null) return detachedError(method)
  const currentLen = O.data.length
  if (first < currentLen) copyBytes(O.data, first, created.data, 0, Math.min(newLen, currentLen - first))
  return created
}

const clampIndex = (relative: number, len: number): number =>
  relative === -Infinity ? 0 : relative < 0 ? Math.max(len + relative, 0) : Math.min(relative, len)

// https://tc39.es/ecma262/#sec-arraybuffercopyanddetach
const makeTransfer = (method: string, preserveResizability: boolean) =>
  function* ArrayBufferProto_transfer(realm: Realm, thisArg: Value, args: Args): Task<Value> {
    const O = thisArrayBuffer(thisArg, method)
    const newLength = args[0]
    const newByteLength =
      newLength === undefined ? ArrayBufferByteLength(O) : yield* ToIndexOr(realm, newLength, "Invalid array buffer length")
    if (O.data === null) return detachedError(method)
    const newMaxByteLength = preserveResizability && O.maxByteLength !== undefined ? O.maxByteLength : undefined
    if (newMaxByteLength !== undefined && newByteLength > newMaxByteLength) return throwRangeError("Invalid array buffer length")
    const block = CreateByteDataBlock(newByteLength)
    copyBytes(O.data, 0, block, 0, Math.min(newByteLength, O.data.length))
    DetachArrayBuffer(O)
    return new ArrayBufferObject(realm.intrinsic("%ArrayBuffer.prototype%"), block, newMaxByteLength)
  }

const get_species = (_realm: Realm, thisArg: Value): Value => thisArg

// ---------------------------------------------------------------------------------------------------------------
// DataView

const thisDataView = (v: Value, method: string): DataViewObject =>
  v instanceof DataViewObject ? v : throwTypeError(`Method ${method} called on incompatible receiver ${receiverText(v)}`)

// https://tc39.es/ecma262/#sec-dataview-buffer-byteoffset-bytelength
function* DataView_(realm: Realm, _this: Value, args: Args, newTarget: JSObject | undefined): Task<Value> {
  const [buffer, byteOffset, byteLength] = args
  if (newTarget === undefined) return throwTypeError("Constructor DataView requires 'new'")
  // 2. Perform ? RequireInternalSlot(buffer, [[ArrayBufferData]]).
  if (!(buffer instanceof ArrayBufferObject)) return throwTypeError("First argument to DataView constructor must be an ArrayBuffer")
  // 3. Let offset be ? ToIndex(byteOffset).
  const offsetInteger = yield* ToIntegerOrInfinity(realm, byteOffset)
  const outside = (): never => throwRangeError(`Start offset ${offsetInteger} is outside the bounds of the buffer`)
  if (offsetInteger < 0 || offsetInteger > Number.MAX_SAFE_INTEGER) return outside()
  const offset = offsetInteger
  if (buffer.data === null) return detachedError("DataView constructor")
  let bufferByteLength = ArrayBufferByteLength(buffer)
  if (offset > bufferByteLength) return outside()
  const bufferIsFixedLength = IsFixedLengthArrayBuffer(buffer)
  // 8-9. The view's length: given, the rest of a fixed buffer, or ~auto~ (length-tracking).
  let viewByteLength: number | undefined
  if (byteLength === undefined) viewByteLength = bufferIsFixedLength ? bufferByteLength - offset : undefined
  else {
    const n = yield* ToIntegerOrInfinity(realm, byteLength)
    if (n < 0 || n > Number.MAX_SAFE_INTEGER || offset + n > bufferByteLength) return throwRangeError(`Invalid DataView length ${n}`)
    viewByteLength = n
  }
  // 10. Let O be ? OrdinaryCreateFromConstructor(NewTarget, "%DataView.prototype%", ...): may run user code.
  const prototype = yield* GetPrototypeFromConstructor(realm, newTarget, "%DataView.prototype%")
  // 11-14. Check the buffer again.
  if (buffer.data === null) return detachedError("DataView constructor")
  bufferByteLength = ArrayBufferByteLength(buffer)
  if (offset > bufferByteLength) return outside()
  if (viewByteLength !== undefined && offset + viewByteLength > bufferByteLength) {
    return throwRangeError(`Invalid DataView length ${viewByteLength}`)
  }
  return new DataViewObject(prototype, buffer, offset, viewByteLength)
}

// https://tc39.es/ecma262/#sec-get-dataview.prototype.buffer
const DataViewProto_buffer = (_realm: Realm, thisArg: Value): Value => thisDataView(thisArg, "get DataView.prototype.buffer").buffer

// https://tc39.es/ecma262/#sec-get-dataview.prototype.bytelength
const DataViewProto_byteLength = (_realm: Realm, thisArg: Value): Value => {
  const method = "get DataView.prototype.byteLength"
  const O = thisDataView(thisArg, method)
  if (IsViewOutOfBounds(O)) return detachedError(method)
  return GetViewByteLength(O)
}

// https://tc39.es/ecma262/#sec-get-dataview.prototype.byteoffset
const DataViewProto_byteOffset = (_realm: Realm, thisArg: Value): Value => {
  const method = "get DataView.prototype.byteOffset"
  const O = thisDataView(thisArg, method)
  if (IsViewOutOfBounds(O)) return detachedError(method)
  return O.byteOffset
}

const OUTSIDE_VIEW = "Offset is outside the bounds of the DataView"

/** The checks GetViewValue and SetViewValue share after their conversions: the byte index into the store. */
const viewByteIndex = (view: DataViewObject, getIndex: number, type: ElementType, method: string): number => {
  if (IsViewOutOfBounds(view)) return detachedError(method)
  const viewSize = GetViewByteLength(view)
  if (getIndex + ElementSizeOf(type) > viewSize) return throwRangeError(OUTSIDE_VIEW)
  return getIndex + view.byteOffset
}

// https://tc39.es/ecma262/#sec-getviewvalue
const makeGetter = (type: ElementType) => {
  const method = `DataView.prototype.get${typeName(type)}`
  return function* DataViewProto_get(realm: Realm, thisArg: Value, args: Args): Task<Value> {
    const view = thisDataView(thisArg, method)
    const getIndex = yield* ToIndexOr(realm, args[0], OUTSIDE_VIEW)
    const isLittleEndian = ToBoolean(args[1])
    const byteIndex = viewByteIndex(view, getIndex, type, method)
    return GetValueFromBuffer(view.buffer.data!, byteIndex, type, isLittleEndian)
  }
}

// https://tc39.es/ecma262/#sec-setviewvalue
const makeSetter = (type: ElementType) => {
  const method = `DataView.prototype.set${typeName(type)}`
  const bigint = IsBigIntElementType(type)
  return function* DataViewProto_set(realm: Realm, thisArg: Value, args: Args): Task<Value> {
    const view = thisDataView(thisArg, method)
    const getIndex = yield* ToIndexOr(realm, args[0], OUTSIDE_VIEW)
    const numberValue = yield* ToElementValue(realm, bigint, args[1])
    const isLittleEndian = ToBoolean(args[2])
    const byteIndex = viewByteIndex(view, getIndex, type, method)
    SetValueInBuffer(view.buffer.data!, byteIndex, type, numberValue, isLittleEndian)
    return undefined
  }
}

const typeName = (type: ElementType): string => (type === "Uint8C" ? "Uint8" : type)

const DATA_VIEW_TYPES: ReadonlyArray<ElementType> = [
  "Int8",
  "Uint8",
  "Int16",
  "Uint16",
  "Int32",
  "Uint32",
  "Float16",
  "Float32",
  "Float64",
  "BigInt64",
  "BigUint64",
]

// ---------------------------------------------------------------------------------------------------------------

export const install = (realm: Realm): void => {
  // ArrayBuffer (https://tc39.es/ecma262/#sec-properties-of-the-arraybuffer-constructor)
  const ArrayBufferPrototype = new JSObject(realm.ObjectPrototype)
  const ArrayBufferCtor = defineConstructor(realm, "ArrayBuffer", ArrayBuffer_, 1, ArrayBufferPrototype)
  defineMethods(realm, ArrayBufferCtor, "%ArrayBuffer%", [["isView", ArrayBuffer_isView, 1]])
  defineAccessors(realm, ArrayBufferCtor, "%ArrayBuffer%", [[WellKnownSymbols.species, get_species, undefined]])
  defineAccessors(realm, ArrayBufferPrototype, "%ArrayBuffer.prototype%", [
    ["byteLength", ArrayBufferProto_byteLength, undefined],
    ["maxByteLength", ArrayBufferProto_maxByteLength, undefined],
    ["resizable", ArrayBufferProto_resizable, undefined],
    ["detached", ArrayBufferProto_detached, undefined],
  ])
  defineMethods(realm, ArrayBufferPrototype, "%ArrayBuffer.prototype%", [
    ["resize", ArrayBufferProto_resize, 1],
    ["slice", ArrayBufferProto_slice, 2],
    ["transfer", makeTransfer("ArrayBuffer.prototype.transfer", true), 0],
    ["transferToFixedLength", makeTransfer("ArrayBuffer.prototype.transferToFixedLength", false), 0],
  ])
  defineValues(ArrayBufferPrototype, [[WellKnownSymbols.toStringTag, "ArrayBuffer"]], { writable: false, enumerable: false, configurable: true })

  // %TypedArray% (https://tc39.es/ecma262/#sec-properties-of-the-%typedarray%-intrinsic-object)
  const TypedArrayPrototype = new JSObject(realm.ObjectPrototype)
  const TypedArrayCtor = defineConstructor(realm, "TypedArray", TypedArray_, 0, TypedArrayPrototype, { global: false })
  defineMethods(realm, TypedArrayCtor, "%TypedArray%", [
    ["from", TypedArray_from, 1],
    ["of", TypedArray_of, 0],
  ])
  defineAccessors(realm, TypedArrayCtor, "%TypedArray%", [[WellKnownSymbols.species, TypedArray_species, undefined]])
  defineAccessors(realm, TypedArrayPrototype, "%TypedArray.prototype%", [
    ["buffer", TypedArrayProto_buffer, undefined],
    ["byteLength", TypedArrayProto_byteLength, undefined],
    ["byteOffset", TypedArrayProto_byteOffset, undefined],
    ["length", TypedArrayProto_length, undefined],
    [WellKnownSymbols.toStringTag, TypedArrayProto_toStringTag, undefined],
  ])
  defineMethods(realm, TypedArrayPrototype, "%TypedArray.prototype%", [
    ["at", proto.TypedArrayProto_at, 1],
    ["copyWithin", proto.TypedArrayProto_copyWithin, 2],
    ["entries", makeIteratorMethod("entries"), 0],
    ["every", proto.TypedArrayProto_every, 1],
    ["fill", proto.TypedArrayProto_fill, 1],
    ["filter", proto.TypedArrayProto_filter, 1],
    ["find", proto.TypedArrayProto_find, 1],
    ["findIndex", proto.TypedArrayProto_findIndex, 1],
    ["findLast", proto.TypedArrayProto_findLast, 1],
    ["findLastIndex", proto.TypedArrayProto_findLastIndex, 1],
    ["forEach", proto.TypedArrayProto_forEach, 1],
    ["includes", proto.TypedArrayProto_includes, 1],
    ["indexOf", proto.TypedArrayProto_indexOf, 1],
    ["join", proto.TypedArrayProto_join, 1],
    ["keys", makeIteratorMethod("keys"), 0],
    ["lastIndexOf", proto.TypedArrayProto_lastIndexOf, 1],
    ["map", proto.TypedArrayProto_map, 1],
    ["reduce", proto.TypedArrayProto_reduce, 1],
    ["reduceRight", proto.TypedArrayProto_reduceRight, 1],
    ["reverse", proto.TypedArrayProto_reverse, 0],
    ["set", proto.TypedArrayProto_set, 1],
    ["slice", proto.TypedArrayProto_slice, 2],
    ["some", proto.TypedArrayProto_some, 1],
    ["sort", proto.TypedArrayProto_sort, 1],
    ["subarray", proto.TypedArrayProto_subarray, 2],
    ["toLocaleString", proto.TypedArrayProto_toLocaleString, 0],
    ["toReversed", proto.TypedArrayProto_toReversed, 0],
    ["toSorted", proto.TypedArrayProto_toSorted, 1],
    ["values", makeIteratorMethod("values"), 0],
    ["with", proto.TypedArrayProto_with, 2],
  ])
  // %TypedArray%.prototype.toString is the same function object as Array.prototype.toString (23.2.3.32).
  const arrayToString = realm.findIntrinsic("%Array.prototype.toString%")
  if (arrayToString !== undefined) TypedArrayPrototype.properties.set("toString", Property.data(arrayToString, true, false, true))
  else defineMethods(realm, TypedArrayPrototype, "%TypedArray.prototype%", [["toString", proto.TypedArrayProto_toString, 0]])
  // %TypedArray%.prototype[%Symbol.iterator%] is the same function object as %TypedArray%.prototype.values.
  TypedArrayPrototype.properties.set(WellKnownSymbols.iterator, Property.data(TypedArrayPrototype.properties.get("values")!.value, true, false, true))

  // The concrete constructors (https://tc39.es/ecma262/#sec-typedarray-constructors)
  for (const info of TYPED_ARRAYS) {
    const prototype = new JSObject(TypedArrayPrototype)
    const C = defineConstructor(realm, info.name, makeTypedArrayConstructor(info), 3, prototype, { proto: TypedArrayCtor })
    defineValues(C, [["BYTES_PER_ELEMENT", info.size]])
    defineValues(prototype, [["BYTES_PER_ELEMENT", info.size]])
  }
  base64.install(realm)

  // DataView (https://tc39.es/ecma262/#sec-properties-of-the-dataview-prototype-object)
  const DataViewPrototype = new JSObject(realm.ObjectPrototype)
  defineConstructor(realm, "DataView", DataView_, 1, DataViewPrototype)
  defineAccessors(realm, DataViewPrototype, "%DataView.prototype%", [
    ["buffer", DataViewProto_buffer, undefined],
    ["byteLength", DataViewProto_byteLength, undefined],
    ["byteOffset", DataViewProto_byteOffset, undefined],
  ])
  defineMethods(
    realm,
    DataViewPrototype,
    "%DataView.prototype%",
    DATA_VIEW_TYPES.flatMap((type) => [
      [`get${typeName(type)}`, makeGetter(type), 1] as const,
      [`set${typeName(type)}`, makeSetter(type), 2] as const,
    ]),
  )
  defineValues(DataViewPrototype, [[WellKnownSymbols.toStringTag, "DataView"]], { writable: false, enumerable: false, configurable: true })
}
