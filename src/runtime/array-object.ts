/**
 * Array exotic objects (https://tc39.es/ecma262/#sec-array-exotic-objects). Elements are kept in a dense host array
 * while every element is a plain writable/enumerable/configurable data property; holes are `EMPTY`. Anything
 * else (an accessor or a read-only index, a non-writable length, a large gap) moves the elements into the ordinary
 * property map for good, where they behave as on any object. `length` is a field, not a stored property.
 */
import { chargeMemory, Cost } from "./memory.ts"
import { checkArrayStorage } from "./caps.ts"
import { throwRangeError } from "./completion.ts"
import { JSObject, orderKeys, ValidateAndApplyPropertyDescriptor } from "./object.ts"
import { arrayIndexOf, IsAccessorDescriptor, Property } from "./property.ts"
import type { PropertyDescriptor } from "./property.ts"
import { EMPTY } from "./value.ts"
import type { Empty, PropertyKey, Value } from "./value.ts"

/** A gap larger than this makes a dense array sparse instead of filling it with holes. */
const MAX_DENSE_GAP = 1024

export class ArrayObject extends JSObject {
  /** Dense storage, or null once the array is sparse. `elements.length <= length`; indices past it are holes. */
  elements: Array<Value | Empty> | null
  length: number
  lengthWritable = true

  constructor(proto: JSObject | null, elements: Array<Value | Empty> = []) {
    super(proto)
    this.kind = "Array"
    checkArrayStorage(elements.length)
    chargeMemory(Cost.element * elements.length)
    this.elements = elements
    this.length = elements.length
  }

  /** Fast read of an own element: the value, EMPTY for a hole, or undefined meaning "ask the slow path". */
  getOwnElement(i: number): Value | Empty | undefined {
    const els = this.elements
    if (els === null) return undefined
    return i < els.length ? els[i] : EMPTY
  }

  /** Fast write of an own element; false means "take the slow path". */
  setOwnElement(i: number, v: Value): boolean {
    const els = this.elements
    if (els === null) return false
    if (i < els.length) {
      // Extensible first: it almost always is, and comparing mixed values with EMPTY is a StrictEqual call (value.ts isMarker).
      if (!this.extensible && els[i] === EMPTY) return false
      els[i] = v
      return true
    }
    if (!this.extensible || i - els.length > MAX_DENSE_GAP) return false
    if (i >= this.length && !this.lengthWritable) return false
    checkArrayStorage(i + 1)
    chargeMemory(Cost.element * (i + 1 - els.length))
    while (els.length < i) els.push(EMPTY)
    els.push(v)
    if (i >= this.length) this.length = i + 1
    return true
  }

  /**
   * Storage for the first `n` elements at once, all holes (so nothing observable changes), for a built-in about to
   * fill them in order (map, Array.from): growing one element at a time would copy the storage ~20 times. The
   * storage is charged now, as filling it would.
   */
  reserve(n: number): void {
    const els = this.elements
    if (els === null || els.length !== 0 || n <= 0 || n > this.length) return
    checkArrayStorage(n)
    chargeMemory(Cost.element * n)
    this.elements = new Array<Value | Empty>(n).fill(EMPTY)
  }

  /** Moves dense elements into the property map; the array stays sparse from then on. */
  makeSparse(): void {
    const els = this.elements
    if (els === null) return
    chargeMemory(Cost.property * els.length)
    const rest = [...this.properties.entries()]
    this.properties.clear()
    for (let i = 0; i < els.length; i++) {
      const v = els[i]
      if (v !== EMPTY) this.properties.set(String(i), Property.data(v as Value))
    }
    for (const [k, p] of rest) this.properties.set(k, p)
    this.elements = null
  }

  override GetOwnProperty(P: PropertyKey): Property | undefined {
    if (P === "length") return Property.data(this.length, this.lengthWritable, false, false)
    const els = this.elements
    if (els !== null) {
      const i = arrayIndexOf(P)
      if (i >= 0) {
        if (i >= els.length) return undefined
        const v = els[i]
        return v === EMPTY ? undefined : Property.data(v as Value)
      }
    }
    return this.properties.get(P)
  }

  // https://tc39.es/ecma262/#sec-array-exotic-objects-defineownproperty-p-desc
  override DefineOwnProperty(P: PropertyKey, Desc: PropertyDescriptor): boolean {
    if (P === "length") return this.ArraySetLength(Desc)
    const index = arrayIndexOf(P)
    if (index < 0) return super.DefineOwnProperty(P, Desc)
    if (index >= this.length && !this.lengthWritable) return false
    if (this.elements !== null) {
      const plain =
        !IsAccessorDescriptor(Desc) &&
        Desc.writable !== false &&
        Desc.enumerable !== false &&
        Desc.configurable !== false
      const current = this.GetOwnProperty(P)
      const complete = current !== undefined || (Desc.writable === true && Desc.enumerable === true && Desc.configurable === true)
      if (plain && complete && (current !== undefined || this.extensible)) {
        if (!("value" in Desc)) return true
        if (this.setOwnElement(index, Desc.value)) return true
      }
      this.makeSparse()
    }
    if (!ValidateAndApplyPropertyDescriptor(this, P, this.extensible, Desc, this.properties.get(P))) return false
    if (index >= this.length) this.length = index + 1
    return true
  }

  // https://tc39.es/ecma262/#sec-arraysetlength (value already converted: callers use ToUint32 checks in intrinsics)
  ArraySetLength(Desc: PropertyDescriptor): boolean {
    if (!("value" in Desc)) return ValidateLengthAttributes(this, Desc)
    // NON-SPEC: ToNumber of an object length (valueOf) is done by callers that can run user code; here only primitives.
    const v = Desc.value
    const numberLen = typeof v === "number" ? v : typeof v === "object" && v !== null ? NaN : Number(v as string)
    if (numberLen !== numberLen >>> 0) return throwRangeError("Invalid array length")
    // ToUint32: -0 passes the check and is stored as +0.
    const newLen = numberLen >>> 0
    if (Desc.configurable === true || Desc.enumerable === true || IsAccessorDescriptor(Desc)) return false
    if (newLen === this.length) {
      if (Desc.writable === false) this.lengthWritable = false
      return Desc.writable !== true || this.lengthWritable
    }
    if (!this.lengthWritable) return false
    if (newLen > this.length) {
      this.length = newLen
    } else if (this.elements !== null) {
      if (this.elements.length > newLen) this.elements.length = newLen
      this.length = newLen
    } else {
      // Delete from the top; a non-configurable element stops the truncation just above itself.
      const indices = [...this.properties.keys()].map(arrayIndexOf).filter((i) => i >= newLen).sort((a, b) => b - a)
      for (const i of indices) {
        const key = String(i)
        if (!this.properties.get(key)!.configurable) {
          this.length = i + 1
          if (Desc.writable === false) this.lengthWritable = false
          return false
        }
        this.properties.delete(key)
      }
      this.length = newLen
    }
    if (Desc.writable === false) this.lengthWritable = false
    return true
  }

  override Delete(P: PropertyKey): boolean {
    if (P === "length") return false
    const els = this.elements
    if (els !== null) {
      const i = arrayIndexOf(P)
      if (i >= 0) {
        if (i < els.length) {
          if (i === els.length - 1) els.pop()
          else els[i] = EMPTY
        }
        return true
      }
    }
    return super.Delete(P)
  }

  override OwnPropertyKeys(): PropertyKey[] {
    const els = this.elements
    if (els === null) {
      const keys = orderKeys(this.properties)
      const firstString = keys.findIndex((k) => typeof k !== "string" || arrayIndexOf(k) < 0)
      keys.splice(firstString < 0 ? keys.length : firstString, 0, "length")
      return keys
    }
    const out: PropertyKey[] = []
    for (let i = 0; i < els.length; i++) if (els[i] !== EMPTY) out.push(String(i))
    out.push("length")
    for (const k of orderKeys(this.properties)) out.push(k)
    return out
  }
}

const ValidateLengthAttributes = (A: ArrayObject, Desc: PropertyDescriptor): boolean => {
  if (Desc.configurable === true || Desc.enumerable === true || IsAccessorDescriptor(Desc)) return false
  if (Desc.writable === true && !A.lengthWritable) return false
  if (Desc.writable === false) A.lengthWritable = false
  return true
}
