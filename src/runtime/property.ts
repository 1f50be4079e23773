/**
 * Property records and property keys. `Property` is the stored form of an own property (data or accessor);
 * `PropertyDescriptor` is the spec's partial descriptor, where an absent field is absent (`"value" in desc`),
 * not undefined. Array-index recognition lives here because property order depends on it.
 */
import type { JSObject } from "./object.ts"
import type { PropertyKey, Value } from "./value.ts"

export class Property {
  value: Value
  get: JSObject | undefined
  set: JSObject | undefined
  writable: boolean
  enumerable: boolean
  configurable: boolean
  readonly accessor: boolean
  constructor(
    accessor: boolean,
    value: Value,
    get: JSObject | undefined,
    set: JSObject | undefined,
    writable: boolean,
    enumerable: boolean,
    configurable: boolean,
  ) {
    this.accessor = accessor
    this.value = value
    this.get = get
    this.set = set
    this.writable = writable
    this.enumerable = enumerable
    this.configurable = configurable
  }
  static data(value: Value, writable = true, enumerable = true, configurable = true): Property {
    return new Property(false, value, undefined, undefined, writable, enumerable, configurable)
  }
  static accessorOf(
    get: JSObject | undefined,
    set: JSObject | undefined,
    enumerable: boolean,
    configurable: boolean,
  ): Property {
    return new Property(true, undefined, get, set, false, enumerable, configurable)
  }
}

/** https://tc39.es/ecma262/#sec-property-descriptor-specification-type */
export interface PropertyDescriptor {
  value?: Value
  writable?: boolean
  get?: JSObject | undefined
  set?: JSObject | undefined
  enumerable?: boolean
  configurable?: boolean
}

export const IsAccessorDescriptor = (d: PropertyDescriptor): boolean => "get" in d || "set" in d
export const IsDataDescriptor = (d: PropertyDescriptor): boolean => "value" in d || "writable" in d
export const IsGenericDescriptor = (d: PropertyDescriptor): boolean => !IsAccessorDescriptor(d) && !IsDataDescriptor(d)

/** https://tc39.es/ecma262/#sec-frompropertydescriptor — as a record (the object form is built by callers). */
export const descriptorOf = (p: Property): PropertyDescriptor =>
  p.accessor
    ? { get: p.get, set: p.set, enumerable: p.enumerable, configurable: p.configurable }
    : { value: p.value, writable: p.writable, enumerable: p.enumerable, configurable: p.configurable }

const MAX_ARRAY_INDEX = 4294967294 // 2^32 - 2

/** The array index a key denotes, or -1. https://tc39.es/ecma262/#array-index */
export const arrayIndexOf = (key: PropertyKey): number => {
  if (typeof key !== "string") return -1
  const len = key.length
  if (len === 0 || len > 10) return -1
  const c0 = key.charCodeAt(0)
  if (c0 < 48 || c0 > 57 || (c0 === 48 && len > 1)) return -1
  let n = 0
  for (let i = 0; i < len; i++) {
    const c = key.charCodeAt(i)
    if (c < 48 || c > 57) return -1
    n = n * 10 + (c - 48)
  }
  return n <= MAX_ARRAY_INDEX ? n : -1
}
