/**
 * The objects of the bytes family and the abstract operations over them: ArrayBuffer objects
 * (https://tc39.es/ecma262/#sec-arraybuffer-objects), TypedArray exotic objects
 * (https://tc39.es/ecma262/#sec-typedarray-exotic-objects) and DataView objects, with the buffer-witness operations
 * (IsTypedArrayOutOfBounds, TypedArrayLength, IsValidIntegerIndex...) and the raw element reads and writes
 * (GetValueFromBuffer / SetValueInBuffer). The methods that programs call live in bytes.ts and bytes-typed-array.ts;
 * encoding.ts and structured-clone.ts build on the helpers here.
 *
 * Storage: an ArrayBuffer's [[ArrayBufferData]] is a host `Uint8Array` holding exactly its bytes (a resize copies
 * into a new one; detaching sets it to null). It is plain data a snapshot encodes as base64, and it is never a
 * sandbox value. Elements are read and written through host views over it (a host typed array per element type for
 * typed arrays, in the platform's byte order as the spec allows and V8 does; a host DataView for DataView, with an
 * explicit byte order). The views are a cache keyed by the byte store (a WeakMap), not state of any object, so they
 * never reach a snapshot; host typed arrays also do the spec's numeric conversions (ToInt8, ToUint8Clamp, the
 * float roundings, BigInt wrapping) exactly.
 */
import { PollWork } from "../runtime/interrupt.ts"
import { chargeMemory, Cost } from "../runtime/memory.ts"
import { Caps } from "../runtime/caps.ts"
import { throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { CanonicalNumericIndexString, ToBigInt, ToNumber, ToNumberPrimitive, PrimitiveToBigInt } from "../runtime/conversions.ts"
import { JSObject, OrdinarySetWithOwnDescriptor, orderKeys } from "../runtime/object.ts"
import { ABSENT, type Absent } from "../runtime/property-store.ts"
import { IsAccessorDescriptor, Property } from "../runtime/property.ts"
import type { PropertyDescriptor } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { PropertyKey, Value } from "../runtime/value.ts"

// ---------------------------------------------------------------------------------------------------------------
// Element types (https://tc39.es/ecma262/#table-the-typedarray-constructors)

export type TypedArrayName =
  | "Int8Array"
  | "Uint8Array"
  | "Uint8ClampedArray"
  | "Int16Array"
  | "Uint16Array"
  | "Int32Array"
  | "Uint32Array"
  | "Float16Array"
  | "Float32Array"
  | "Float64Array"
  | "BigInt64Array"
  | "BigUint64Array"

export type ElementType =
  | "Int8"
  | "Uint8"
  | "Uint8C"
  | "Int16"
  | "Uint16"
  | "Int32"
  | "Uint32"
  | "Float16"
  | "Float32"
  | "Float64"
  | "BigInt64"
  | "BigUint64"

export interface ElementInfo {
  readonly name: TypedArrayName
  readonly type: ElementType
  /** The Element Size in bytes. */
  readonly size: number
  /** [[ContentType]] is BigInt. */
  readonly bigint: boolean
}

const info = (name: TypedArrayName, type: ElementType, size: number): ElementInfo => ({
  name,
  type,
  size,
  bigint: type === "BigInt64" || type === "BigUint64",
})

/** The concrete typed array constructors, in the spec's table order (Float16Array after Uint32Array). */
export const TYPED_ARRAYS: ReadonlyArray<ElementInfo> = [
  info("Int8Array", "Int8", 1),
  info("Uint8Array", "Uint8", 1),
  info("Uint8ClampedArray", "Uint8C", 1),
  info("Int16Array", "Int16", 2),
  info("Uint16Array", "Uint16", 2),
  info("Int32Array", "Int32", 4),
  info("Uint32Array", "Uint32", 4),
  info("Float16Array", "Float16", 2),
  info("Float32Array", "Float32", 4),
  info("Float64Array", "Float64", 8),
  info("BigInt64Array", "BigInt64", 8),
  info("BigUint64Array", "BigUint64", 8),
]

export const ElementInfoOf: ReadonlyMap<TypedArrayName, ElementInfo> = new Map(TYPED_ARRAYS.map((i) => [i.name, i]))

// ---------------------------------------------------------------------------------------------------------------
// Host views over byte stores (a cache, see the header)

type HostTypedArray = { [index: number]: number | bigint; readonly length: number }
type HostTypedArrayConstructor = new (buffer: ArrayBufferLike) => HostTypedArray

const g = globalThis as unknown as Record<string, HostTypedArrayConstructor | undefined>
const HOST_CONSTRUCTORS: Record<ElementType, HostTypedArrayConstructor> = {
  Int8: Int8Array,
  Uint8: Uint8Array,
  Uint8C: Uint8ClampedArray,
  Int16: Int16Array,
  Uint16: Uint16Array,
  Int32: Int32Array,
  Uint32: Uint32Array,
  // Node >= 24 (the package's floor) has Float16Array; the guard keeps the module loadable elsewhere.
  Float16: g["Float16Array"] ?? (Uint16Array as unknown as HostTypedArrayConstructor),
  Float32: Float32Array,
  Float64: Float64Array,
  BigInt64: BigInt64Array as unknown as HostTypedArrayConstructor,
  BigUint64: BigUint64Array as unknown as HostTypedArrayConstructor,
}

type ViewSet = Partial<Record<ElementType, HostTypedArray>> & { dv?: DataView }
const viewCache = new WeakMap<Uint8Array, ViewSet>()

const viewsOf = (data: Uint8Array): ViewSet => {
  let v = viewCache.get(data)
  if (v === undefined) {
    v = {}
    viewCache.set(data, v)
  }
  return v
}

/** A host typed array of `type` over the whole store (stores always start at byte 0 of their host buffer). */
const hostView = (data: Uint8Array, type: ElementType): HostTypedArray => {
  if (type === "Uint8") return data as unknown as HostTypedArray
  const views = viewsOf(data)
  let view = views[type]
  if (view === undefined) {
    const C = HOST_CONSTRUCTORS[type]
    // Only whole elements: a store whose size is not a multiple of the element size is viewed over a prefix.
    const usable = data.byteLength - (data.byteLength % ElementSizeOf(type))
    view = usable === data.buffer.byteLength ? new C(data.buffer) : (new (C as unknown as new (b: ArrayBufferLike, o: number, l: number) => HostTypedArray)(data.buffer, 0, usable / ElementSizeOf(type)))
    views[type] = view
  }
  return view
}

const hostDataView = (data: Uint8Array): DataView => {
  const views = viewsOf(data)
  let dv = views.dv
  if (dv === undefined) {
    dv = new DataView(data.buffer, data.byteOffset, data.byteLength)
    views.dv = dv
  }
  return dv
}

const SIZES: Record<ElementType, number> = {
  Int8: 1,
  Uint8: 1,
  Uint8C: 1,
  Int16: 2,
  Uint16: 2,
  Int32: 4,
  Uint32: 4,
  Float16: 2,
  Float32: 4,
  Float64: 8,
  BigInt64: 8,
  BigUint64: 8,
}
export const ElementSizeOf = (type: ElementType): number => SIZES[type]
export const IsBigIntElementType = (type: ElementType): boolean => type === "BigInt64" || type === "BigUint64"

// ---------------------------------------------------------------------------------------------------------------
// ArrayBuffer objects

/** An object with [[ArrayBufferData]]; `data` is null once detached. `maxByteLength` is set for resizable buffers. */
export class ArrayBufferObject extends JSObject {
  data: Uint8Array | null
  readonly maxByteLength: number | undefined
  constructor(proto: JSObject | null, data: Uint8Array, maxByteLength: number | undefined) {
    super(proto)
    this.kind = "ArrayBuffer"
    this.data = data
    this.maxByteLength = maxByteLength
  }
}

// https://tc39.es/ecma262/#sec-isdetachedbuffer
export const IsDetachedBuffer = (b: ArrayBufferObject): boolean => b.data === null

// https://tc39.es/ecma262/#sec-isfixedlengtharraybuffer
export const IsFixedLengthArrayBuffer = (b: ArrayBufferObject): boolean => b.maxByteLength === undefined

// https://tc39.es/ecma262/#sec-arraybufferbytelength
export const ArrayBufferByteLength = (b: ArrayBufferObject): number => (b.data === null ? 0 : b.data.length)

/** A fresh byte store of `byteLength` zero bytes, within the run's cap (V8's message when allocation fails). */
export const CreateByteDataBlock = (byteLength: number): Uint8Array => {
  if (byteLength > Caps.maxArrayBufferBytes) return throwRangeError("Array buffer allocation failed")
  chargeMemory(Cost.object + byteLength)
  PollWork(byteLength >>> 8)
  return new Uint8Array(byteLength)
}

// https://tc39.es/ecma262/#sec-allocatearraybuffer (the prototype already resolved from the constructor)
export const AllocateArrayBuffer = (proto: JSObject, byteLength: number, maxByteLength?: number): ArrayBufferObject => {
  if (maxByteLength !== undefined && byteLength > maxByteLength) return throwRangeError("Invalid array buffer max length")
  return new ArrayBufferObject(proto, CreateByteDataBlock(byteLength), maxByteLength)
}

/** A new %ArrayBuffer% holding a copy of `bytes` (for natives that produce bytes, e.g. TextEncoder). */
export const CreateArrayBufferFromBytes = (realm: Realm, bytes: Uint8Array): ArrayBufferObject => {
  const block = CreateByteDataBlock(bytes.length)
  block.set(bytes)
  return new ArrayBufferObject(realm.intrinsic("%ArrayBuffer.prototype%"), block, undefined)
}

// https://tc39.es/ecma262/#sec-detacharraybuffer
export const DetachArrayBuffer = (b: ArrayBufferObject): void => {
  b.data = null
}

// ---------------------------------------------------------------------------------------------------------------
// TypedArray exotic objects

/**
 * An object with [[TypedArrayName]], [[ViewedArrayBuffer]], [[ByteOffset]] and [[ArrayLength]]. `arrayLength` is
 * undefined for a length-tracking view (the spec's ~auto~) of a resizable buffer. [[ByteLength]] and
 * [[ContentType]] follow from these and the element type.
 */
export class TypedArrayObject extends JSObject {
  readonly typedArrayName: TypedArrayName
  readonly buffer: ArrayBufferObject
  readonly byteOffset: number
  readonly arrayLength: number | undefined
  constructor(proto: JSObject | null, name: TypedArrayName, buffer: ArrayBufferObject, byteOffset: number, arrayLength: number | undefined) {
    super(proto)
    this.kind = name
    this.typedArrayName = name
    this.buffer = buffer
    this.byteOffset = byteOffset
    this.arrayLength = arrayLength
  }

  get info(): ElementInfo {
    return ElementInfoOf.get(this.typedArrayName)!
  }

  /** The element at integer index i, or undefined when i is not a valid integer index (TypedArrayGetElement). */
  getElement(i: number): number | bigint | undefined {
    if (!IsValidIntegerIndex(this, i)) return undefined
    return readElement(this, i)
  }

  // https://tc39.es/ecma262/#sec-typedarray-getownproperty
  override GetOwnProperty(P: PropertyKey): Property | undefined {
    if (typeof P === "string") {
      const numericIndex = CanonicalNumericIndexString(P)
      if (numericIndex !== undefined) {
        const value = this.getElement(numericIndex)
        if (value === undefined) return undefined
        return Property.data(value, true, true, true)
      }
    }
    return this.properties.get(P)
  }

  /** The engines' read fast path: a canonical numeric key is answered here and never reaches the prototypes. */
  override lookupSlot(P: PropertyKey): Value | Property | Absent {
    if (typeof P === "string" && CanonicalNumericIndexString(P) !== undefined) return this.GetOwnProperty(P) ?? ABSENT
    return super.lookupSlot(P)
  }

  // https://tc39.es/ecma262/#sec-typedarray-hasproperty
  override HasProperty(P: PropertyKey): boolean {
    if (typeof P === "string") {
      const numericIndex = CanonicalNumericIndexString(P)
      if (numericIndex !== undefined) return IsValidIntegerIndex(this, numericIndex)
    }
    return super.HasProperty(P)
  }

  // https://tc39.es/ecma262/#sec-typedarray-defineownproperty
  override DefineOwnProperty(P: PropertyKey, Desc: PropertyDescriptor): boolean {
    if (typeof P === "string") {
      const numericIndex = CanonicalNumericIndexString(P)
      if (numericIndex !== undefined) {
        // i. If IsValidIntegerIndex(O, numericIndex) is false, return false.
        if (!IsValidIntegerIndex(this, numericIndex)) return false
        // ii-v. Only a writable, enumerable, configurable data property can be described.
        if (Desc.configurable === false || Desc.enumerable === false || IsAccessorDescriptor(Desc) || Desc.writable === false) {
          return false
        }
        // vi. If Desc has a [[Value]] field, perform ? TypedArraySetElement(O, numericIndex, Desc.[[Value]]).
        if ("value" in Desc) {
          // NON-SPEC: DefineOwnProperty cannot run user code here, so an object value (whose valueOf would have to
          // run) is refused with a TypeError; primitives convert exactly as the spec says.
          const v = Desc.value
          if (v instanceof JSObject) return throwTypeError("Cannot convert object to primitive value")
          const numeric = this.info.bigint ? PrimitiveToBigInt(v as Exclude<Value, JSObject>) : ToNumberPrimitive(v as Exclude<Value, JSObject>)
          if (IsValidIntegerIndex(this, numericIndex)) writeElement(this, numericIndex, numeric)
        }
        return true
      }
    }
    return super.DefineOwnProperty(P, Desc)
  }

  // https://tc39.es/ecma262/#sec-typedarray-get
  override *Get(P: PropertyKey, Receiver: Value): Task<Value> {
    if (typeof P === "string") {
      const numericIndex = CanonicalNumericIndexString(P)
      if (numericIndex !== undefined) return this.getElement(numericIndex)
    }
    return yield* super.Get(P, Receiver)
  }

  // https://tc39.es/ecma262/#sec-typedarray-set
  override *Set(P: PropertyKey, V: Value, Receiver: Value): Task<boolean> {
    if (typeof P === "string") {
      const numericIndex = CanonicalNumericIndexString(P)
      if (numericIndex !== undefined) {
        if (Receiver === this) {
          yield* TypedArraySetElement(NO_REALM, this, numericIndex, V)
          return true
        }
        if (!IsValidIntegerIndex(this, numericIndex)) return true
      }
    }
    return yield* OrdinarySetWithOwnDescriptor(this, P, V, Receiver, this.GetOwnProperty(P))
  }

  // https://tc39.es/ecma262/#sec-typedarray-delete
  override Delete(P: PropertyKey): boolean {
    if (typeof P === "string") {
      const numericIndex = CanonicalNumericIndexString(P)
      if (numericIndex !== undefined) return !IsValidIntegerIndex(this, numericIndex)
    }
    return super.Delete(P)
  }

  // https://tc39.es/ecma262/#sec-typedarray-ownpropertykeys
  override OwnPropertyKeys(): PropertyKey[] {
    return orderKeys(this.properties, TypedArrayLengthOrZero(this))
  }
}

// https://tc39.es/ecma262/#sec-istypedarrayoutofbounds (the buffer witness is the current byte length)
export const IsTypedArrayOutOfBounds = (O: TypedArrayObject): boolean => {
  const data = O.buffer.data
  if (data === null) return true
  const bufferByteLength = data.length
  const byteOffsetStart = O.byteOffset
  const byteOffsetEnd = O.arrayLength === undefined ? bufferByteLength : byteOffsetStart + O.arrayLength * O.info.size
  return byteOffsetStart > bufferByteLength || byteOffsetEnd > bufferByteLength
}

// https://tc39.es/ecma262/#sec-typedarraylength (O must be in bounds)
export const TypedArrayLength = (O: TypedArrayObject): number => {
  if (O.arrayLength !== undefined) return O.arrayLength
  const size = O.info.size
  return Math.floor((ArrayBufferByteLength(O.buffer) - O.byteOffset) / size)
}

/** TypedArrayLength, or 0 when out of bounds (the `length` getter's and OwnPropertyKeys' view). */
export const TypedArrayLengthOrZero = (O: TypedArrayObject): number => (IsTypedArrayOutOfBounds(O) ? 0 : TypedArrayLength(O))

// https://tc39.es/ecma262/#sec-typedarraybytelength
export const TypedArrayByteLength = (O: TypedArrayObject): number => {
  if (IsTypedArrayOutOfBounds(O)) return 0
  return TypedArrayLength(O) * O.info.size
}

// https://tc39.es/ecma262/#sec-isvalidintegerindex
export const IsValidIntegerIndex = (O: TypedArrayObject, index: number): boolean => {
  if (O.buffer.data === null) return false
  if (!Number.isInteger(index)) return false
  if (Object.is(index, -0)) return false
  if (index < 0) return false
  if (IsTypedArrayOutOfBounds(O)) return false
  return index < TypedArrayLength(O)
}

/** Reads element i of an in-bounds typed array (no checks). */
export const readElement = (O: TypedArrayObject, i: number): number | bigint => {
  const size = O.info.size
  return hostView(O.buffer.data!, O.info.type)[O.byteOffset / size + i]!
}

/** Writes an already converted numeric value into element i of an in-bounds typed array (no checks). */
export const writeElement = (O: TypedArrayObject, i: number, value: number | bigint): void => {
  const size = O.info.size
  hostView(O.buffer.data!, O.info.type)[O.byteOffset / size + i] = value
}

/** ToBigInt or ToNumber, as the content type (BigInt or Number) asks: the first step of TypedArraySetElement. */
export function* ToElementValue(realm: Realm, bigint: boolean, value: Value): Task<number | bigint> {
  if (bigint) return typeof value === "bigint" ? value : yield* ToBigInt(realm, value)
  return typeof value === "number" ? value : yield* ToNumber(realm, value)
}

// https://tc39.es/ecma262/#sec-typedarraysetelement
export function* TypedArraySetElement(realm: Realm, O: TypedArrayObject, index: number, value: Value): Task<void> {
  // 1-2. Convert first (this may run user code, and may detach or shrink the buffer), then check the index.
  const numValue = yield* ToElementValue(realm, O.info.bigint, value)
  if (IsValidIntegerIndex(O, index)) writeElement(O, index, numValue)
}

/**
 * The exotic [[Set]] has no realm at hand. ToNumber/ToBigInt only pass their realm along to ToPrimitive, which
 * never uses it (it allocates nothing and throws realm-less SandboxErrors), so converting without one is the same
 * operation.
 */
const NO_REALM = undefined as unknown as Realm

/**
 * Fast paths for engines: element `index` (a number key) of a typed array, or MISS-like `undefined` when the
 * caller must take the general path. `typedArrayGetIndex` never runs user code; `typedArraySetIndex` stores a
 * primitive Number (or BigInt) value and returns false when a conversion could run user code.
 */
export const typedArrayGetIndex = (O: TypedArrayObject, index: number): number | bigint | undefined => O.getElement(index)

export const typedArraySetIndex = (O: TypedArrayObject, index: number, value: Value): boolean => {
  if (O.info.bigint ? typeof value !== "bigint" : typeof value !== "number") return false
  if (IsValidIntegerIndex(O, index)) writeElement(O, index, value as number | bigint)
  return true
}

/** Copies `count` bytes within or across stores, as if through a temporary copy (memmove). */
export const copyBytes = (from: Uint8Array, fromIndex: number, to: Uint8Array, toIndex: number, count: number): void => {
  if (count <= 0) return
  PollWork(count >>> 8)
  if (from === to) to.copyWithin(toIndex, fromIndex, fromIndex + count)
  else to.set(from.subarray(fromIndex, fromIndex + count), toIndex)
}

/** The bytes of an in-bounds typed array (a live subarray of its store). */
export const typedArrayBytes = (O: TypedArrayObject): Uint8Array => {
  const len = TypedArrayLength(O)
  return O.buffer.data!.subarray(O.byteOffset, O.byteOffset + len * O.info.size)
}

/** A new typed array of `name` over a fresh %ArrayBuffer% of `length` elements, with the intrinsic prototype. */
export const CreateTypedArray = (realm: Realm, name: TypedArrayName, length: number, proto?: JSObject): TypedArrayObject => {
  const size = ElementInfoOf.get(name)!.size
  const buffer = new ArrayBufferObject(realm.intrinsic("%ArrayBuffer.prototype%"), CreateByteDataBlock(length * size), undefined)
  return new TypedArrayObject(proto ?? realm.intrinsic(`%${name}.prototype%`), name, buffer, 0, length)
}

/** A new Uint8Array holding a copy of `bytes`. */
export const CreateUint8ArrayFromBytes = (realm: Realm, bytes: Uint8Array): TypedArrayObject => {
  const O = CreateTypedArray(realm, "Uint8Array", bytes.length)
  O.buffer.data!.set(bytes)
  return O
}

// ---------------------------------------------------------------------------------------------------------------
// DataView objects

/** An object with [[DataView]]; `byteLength` undefined means length-tracking (~auto~). */
export class DataViewObject extends JSObject {
  readonly buffer: ArrayBufferObject
  readonly byteOffset: number
  readonly byteLength: number | undefined
  constructor(proto: JSObject | null, buffer: ArrayBufferObject, byteOffset: number, byteLength: number | undefined) {
    super(proto)
    this.kind = "DataView"
    this.buffer = buffer
    this.byteOffset = byteOffset
    this.byteLength = byteLength
  }
}

// https://tc39.es/ecma262/#sec-isviewoutofbounds
export const IsViewOutOfBounds = (view: DataViewObject): boolean => {
  const data = view.buffer.data
  if (data === null) return true
  const bufferByteLength = data.length
  const byteOffsetStart = view.byteOffset
  const byteOffsetEnd = view.byteLength === undefined ? bufferByteLength : byteOffsetStart + view.byteLength
  return byteOffsetStart > bufferByteLength || byteOffsetEnd > bufferByteLength
}

// https://tc39.es/ecma262/#sec-getviewbytelength (view must be in bounds)
export const GetViewByteLength = (view: DataViewObject): number =>
  view.byteLength !== undefined ? view.byteLength : ArrayBufferByteLength(view.buffer) - view.byteOffset

// https://tc39.es/ecma262/#sec-getvaluefrombuffer (byteIndex already checked)
export const GetValueFromBuffer = (data: Uint8Array, byteIndex: number, type: ElementType, isLittleEndian: boolean): number | bigint => {
  const dv = hostDataView(data)
  switch (type) {
    case "Int8":
      return dv.getInt8(byteIndex)
    case "Uint8":
    case "Uint8C":
      return dv.getUint8(byteIndex)
    case "Int16":
      return dv.getInt16(byteIndex, isLittleEndian)
    case "Uint16":
      return dv.getUint16(byteIndex, isLittleEndian)
    case "Int32":
      return dv.getInt32(byteIndex, isLittleEndian)
    case "Uint32":
      return dv.getUint32(byteIndex, isLittleEndian)
    case "Float16":
      return (dv as unknown as { getFloat16(i: number, le: boolean): number }).getFloat16(byteIndex, isLittleEndian)
    case "Float32":
      return dv.getFloat32(byteIndex, isLittleEndian)
    case "Float64":
      return dv.getFloat64(byteIndex, isLittleEndian)
    case "BigInt64":
      return dv.getBigInt64(byteIndex, isLittleEndian)
    case "BigUint64":
      return dv.getBigUint64(byteIndex, isLittleEndian)
  }
}

// https://tc39.es/ecma262/#sec-setvalueinbuffer (value already converted, byteIndex already checked)
export const SetValueInBuffer = (
  data: Uint8Array,
  byteIndex: number,
  type: ElementType,
  value: number | bigint,
  isLittleEndian: boolean,
): void => {
  const dv = hostDataView(data)
  switch (type) {
    case "Int8":
      return dv.setInt8(byteIndex, value as number)
    case "Uint8":
      return dv.setUint8(byteIndex, value as number)
    case "Uint8C":
      hostView(data, "Uint8C")[byteIndex] = value
      return
    case "Int16":
      return dv.setInt16(byteIndex, value as number, isLittleEndian)
    case "Uint16":
      return dv.setUint16(byteIndex, value as number, isLittleEndian)
    case "Int32":
      return dv.setInt32(byteIndex, value as number, isLittleEndian)
    case "Uint32":
      return dv.setUint32(byteIndex, value as number, isLittleEndian)
    case "Float16":
      return (dv as unknown as { setFloat16(i: number, v: number, le: boolean): void }).setFloat16(byteIndex, value as number, isLittleEndian)
    case "Float32":
      return dv.setFloat32(byteIndex, value as number, isLittleEndian)
    case "Float64":
      return dv.setFloat64(byteIndex, value as number, isLittleEndian)
    case "BigInt64":
      return dv.setBigInt64(byteIndex, value as bigint, isLittleEndian)
    case "BigUint64":
      return dv.setBigUint64(byteIndex, value as bigint, isLittleEndian)
  }
}
