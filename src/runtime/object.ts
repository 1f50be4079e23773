/**
 * The sandbox object: ordinary objects and their internal methods (ECMA-262 §10.1), the base of every exotic kind.
 * Own properties live in the object, an insertion-ordered PropertyStore (property-store.ts); `OwnPropertyKeys` puts array indices first in ascending order,
 * then strings, then symbols, as JavaScript requires. Exotic objects (arrays, string wrappers, typed arrays)
 * override the internal methods. Without Proxy, only [[Get]] and [[Set]] can reach user code (accessors), so only
 * they are Tasks; engines use `lookup` for their fast paths.
 */
import { chargeMemory, Cost } from "./memory.ts"
import { checkArrayStorage } from "./caps.ts"
import { type Task } from "./task.ts"
import { arrayIndexOf, IsAccessorDescriptor, IsDataDescriptor, IsGenericDescriptor, Property } from "./property.ts"
import { ABSENT, type Absent, type OwnProperties, PropertyStore } from "./property-store.ts"
import type { PropertyDescriptor } from "./property.ts"
import type { PropertyKey, Value } from "./value.ts"

/** A private name (`#x`) of one evaluation of a class body. */
export class PrivateName {
  readonly description: string
  constructor(description: string) {
    this.description = description
  }
}

/** https://tc39.es/ecma262/#sec-privateelement-specification-type */
export interface PrivateElement {
  readonly kind: "field" | "method" | "accessor"
  value: Value
  readonly get: JSObject | undefined
  readonly set: JSObject | undefined
}

export class JSObject extends PropertyStore {
  declare proto: JSObject | null
  /** True unless PreventExtensions made it false: JSObject.prototype holds the default (see the end of the class). */
  declare extensible: boolean
  /**
   * Own properties: the object itself, except in a twin of a realm fork, which starts with a stand-in that swaps
   * in the object on first use (realm-fork.ts).
   */
  declare properties: OwnProperties
  /**
   * The spec's class-like tag ([[ErrorData]], [[BooleanData]]...) used by brand checks and Object.prototype.toString;
   * "Object" from JSObject.prototype unless the object has its own.
   */
  declare kind: string
  /** Undefined (from JSObject.prototype) until a class gives the object a private name. */
  declare privateElements: Map<PrivateName, PrivateElement> | undefined

  constructor(proto: JSObject | null) {
    // Stores at sites of their own for ordinary objects, as PropertyStore's (why there).
    const plain = new.target === JSObject
    super(plain)
    if (plain) {
      this.proto = proto
      this.properties = this
    } else {
      this.proto = proto
      this.properties = this
    }
    chargeMemory(Cost.object)
  }

  /** Callable objects override this; see function-object.ts. */
  isCallable(): boolean {
    return false
  }
  isConstructor(): boolean {
    return false
  }

  // https://tc39.es/ecma262/#sec-ordinary-object-internal-methods-and-internal-slots-getprototypeof
  GetPrototypeOf(): JSObject | null {
    return this.proto
  }

  // https://tc39.es/ecma262/#sec-ordinarysetprototypeof
  SetPrototypeOf(V: JSObject | null): boolean {
    if (V === this.proto) return true
    if (!this.extensible) return false
    for (let p = V; p !== null; p = p.proto) {
      if (p === this) return false
    }
    this.proto = V
    return true
  }

  IsExtensible(): boolean {
    return this.extensible
  }

  PreventExtensions(): boolean {
    this.extensible = false
    return true
  }

  /** The own property record, or undefined: live or a copy, so callers must not mutate it. */
  GetOwnProperty(P: PropertyKey): Property | undefined {
    return this.properties.peek(P)
  }

  // https://tc39.es/ecma262/#sec-ordinarydefineownproperty
  DefineOwnProperty(P: PropertyKey, Desc: PropertyDescriptor): boolean {
    return ValidateAndApplyPropertyDescriptor(this, P, this.IsExtensible(), Desc, this.GetOwnProperty(P))
  }

  // https://tc39.es/ecma262/#sec-ordinaryhasproperty
  HasProperty(P: PropertyKey): boolean {
    for (let o: JSObject | null = this; o !== null; o = o.GetPrototypeOf()) {
      if (readOwn(o, P) !== ABSENT) return true
    }
    return false
  }

  /**
   * Finds P on this object or its prototype chain, without running anything: its plain value or its record (as
   * readOwn), or ABSENT. Exotic objects whose reads differ from that walk override this, not `lookup`.
   */
  lookupSlot(P: PropertyKey): Value | Property | Absent {
    for (let o: JSObject | null = this; o !== null; o = o.GetPrototypeOf()) {
      const s = readOwn(o, P)
      if (s !== ABSENT) return s
    }
    return ABSENT
  }

  /** `lookupSlot` as a record (a copy for a plain value: callers must not mutate it). */
  lookup(P: PropertyKey): Property | undefined {
    const s = this.lookupSlot(P)
    return s === ABSENT ? undefined : s instanceof Property ? s : Property.data(s)
  }

  // https://tc39.es/ecma262/#sec-ordinaryget
  *Get(P: PropertyKey, Receiver: Value): Task<Value> {
    const s = this.lookupSlot(P)
    if (s === ABSENT) return undefined
    if (!(s instanceof Property)) return s
    if (!s.accessor) return s.value
    if (s.get === undefined) return undefined
    return yield { kind: "call", f: s.get, thisArg: Receiver, args: [] }
  }

  // https://tc39.es/ecma262/#sec-ordinaryset
  *Set(P: PropertyKey, V: Value, Receiver: Value): Task<boolean> {
    return yield* OrdinarySetWithOwnDescriptor(this, P, V, Receiver, this.GetOwnProperty(P))
  }

  // https://tc39.es/ecma262/#sec-ordinarydelete
  Delete(P: PropertyKey): boolean {
    const desc = this.GetOwnProperty(P)
    if (desc === undefined) return true
    if (desc.configurable) {
      this.properties.delete(P)
      return true
    }
    return false
  }

  // https://tc39.es/ecma262/#sec-ordinaryownpropertykeys
  /** A new array, which the caller may keep or change (every override's is too). */
  OwnPropertyKeys(): PropertyKey[] {
    return orderKeys(this.properties)
  }
}

/**
 * The fields nearly every object has the same value in, as defaults on the prototype rather than fields of each
 * object: an ordinary object was 14 words, 3 of them these, and a program's small objects are most of what the
 * collector copies and promotes. An object that differs (an Error's kind, a frozen object) gets a field of its own.
 */
Object.assign(JSObject.prototype, { extensible: true, kind: "Object", privateElements: undefined })

const ordinaryGetOwnProperty = JSObject.prototype.GetOwnProperty

/**
 * O's own P as its plain value (a writable, enumerable, configurable data property) or its record, or ABSENT:
 * GetOwnProperty without the record an ordinary object would make for a plain value on every read.
 */
export const readOwn = (O: JSObject, P: PropertyKey): Value | Property | Absent =>
  O.GetOwnProperty === ordinaryGetOwnProperty ? O.properties.read(P) : (O.GetOwnProperty(P) ?? ABSENT)

/** Whether O has an own enumerable P (the test of EnumerableOwnProperties, Object.assign, spread). */
export const isOwnEnumerable = (O: JSObject, P: PropertyKey): boolean => {
  const s = readOwn(O, P)
  return s !== ABSENT && (!(s instanceof Property) || s.enumerable)
}

/**
 * Own keys in OwnPropertyKeys order: array indices ascending, then strings in creation order, then symbols in
 * creation order; after `leadingIndices` indices that are not in `properties` (a string's or typed array's).
 */
export const orderKeys = (properties: OwnProperties, leadingIndices?: number): PropertyKey[] => {
  if (leadingIndices === undefined) {
    const ordered = properties.orderedKeys()
    if (ordered !== undefined) return ordered
  }
  const keys = properties.keys()
  const indices: number[] = []
  const strings: string[] = []
  const symbols: PropertyKey[] = []
  for (const k of keys) {
    if (typeof k === "string") {
      const i = arrayIndexOf(k)
      if (i >= 0) indices.push(i)
      else strings.push(k)
    } else symbols.push(k)
  }
  const out: PropertyKey[] = []
  // A string's or a typed array's every index is a key: past the array storage cap no list of them is made
  // (`Object.keys("x".repeat(2 ** 27))` would be 2^27 host strings in one step).
  if (leadingIndices !== undefined) checkArrayStorage(leadingIndices)
  if (leadingIndices !== undefined) for (let i = 0; i < leadingIndices; i++) out.push(String(i))
  if (indices.length > 1) indices.sort((a, b) => a - b)
  for (const i of indices) out.push(String(i))
  for (const s of strings) out.push(s)
  for (const s of symbols) out.push(s)
  return out
}

// https://tc39.es/ecma262/#sec-ordinarysetwithowndescriptor
export function* OrdinarySetWithOwnDescriptor(
  O: JSObject,
  P: PropertyKey,
  V: Value,
  Receiver: Value,
  ownDesc: Property | undefined,
): Task<boolean> {
  if (ownDesc === undefined) {
    const parent = O.GetPrototypeOf()
    if (parent !== null) return yield* parent.Set(P, V, Receiver)
    return SetOnReceiver(P, V, Receiver)
  }
  if (!ownDesc.accessor) {
    if (!ownDesc.writable) return false
    return SetOnReceiver(P, V, Receiver)
  }
  const setter = ownDesc.set
  if (setter === undefined) return false
  yield { kind: "call", f: setter, thisArg: Receiver, args: [V] }
  return true
}

/** Steps 2.c-e of OrdinarySetWithOwnDescriptor: the writable-data-property case, on the receiver. */
const SetOnReceiver = (P: PropertyKey, V: Value, Receiver: Value): boolean => {
  if (!(Receiver instanceof JSObject)) return false
  const existing = Receiver.GetOwnProperty(P)
  if (existing !== undefined) {
    if (existing.accessor || !existing.writable) return false
    return Receiver.DefineOwnProperty(P, { value: V })
  }
  return Receiver.DefineOwnProperty(P, { value: V, writable: true, enumerable: true, configurable: true })
}

// https://tc39.es/ecma262/#sec-validateandapplypropertydescriptor
export const ValidateAndApplyPropertyDescriptor = (
  O: JSObject | undefined,
  P: PropertyKey,
  extensible: boolean,
  Desc: PropertyDescriptor,
  current: Property | undefined,
): boolean => {
  if (current === undefined) {
    if (!extensible) return false
    if (O === undefined) return true
    chargeMemory(Cost.property)
    if (!IsAccessorDescriptor(Desc) && Desc.writable === true && Desc.enumerable === true && Desc.configurable === true) {
      O.properties.add(P, Desc.value)
      return true
    }
    const prop = IsAccessorDescriptor(Desc)
      ? Property.accessorOf(Desc.get, Desc.set, Desc.enumerable ?? false, Desc.configurable ?? false)
      : Property.data(Desc.value, Desc.writable ?? false, Desc.enumerable ?? false, Desc.configurable ?? false)
    O.properties.set(P, prop)
    return true
  }
  if (!current.configurable) {
    if (Desc.configurable === true) return false
    if ("enumerable" in Desc && Desc.enumerable !== current.enumerable) return false
    if (!IsGenericDescriptor(Desc) && IsAccessorDescriptor(Desc) !== current.accessor) return false
    if (current.accessor) {
      if ("get" in Desc && Desc.get !== current.get) return false
      if ("set" in Desc && Desc.set !== current.set) return false
    } else if (!current.writable) {
      if (Desc.writable === true) return false
      if ("value" in Desc && !Object.is(Desc.value, current.value)) return false
    }
  }
  if (O === undefined) return true
  if (IsDataDescriptor(Desc) && current.accessor) {
    O.properties.set(
      P,
      Property.data(Desc.value, Desc.writable ?? false, Desc.enumerable ?? current.enumerable, Desc.configurable ?? current.configurable),
    )
    return true
  }
  if (IsAccessorDescriptor(Desc) && !current.accessor) {
    O.properties.set(
      P,
      Property.accessorOf(Desc.get, Desc.set, Desc.enumerable ?? current.enumerable, Desc.configurable ?? current.configurable),
    )
    return true
  }
  // Same kind: update the stored record in place (it may be a synthesized record for exotic storage; see ArrayObject).
  const own = O.properties.read(P)
  if (own !== ABSENT && !(own instanceof Property) && Desc.writable !== false && Desc.enumerable !== false && Desc.configurable !== false) {
    // A plain slot stays plain while the property keeps its default attributes.
    if ("value" in Desc) O.properties.write(P, Desc.value)
    return true
  }
  const target = O.properties.get(P) ?? current
  if ("value" in Desc) target.value = Desc.value
  if ("writable" in Desc) target.writable = Desc.writable!
  if ("get" in Desc) target.get = Desc.get
  if ("set" in Desc) target.set = Desc.set
  if ("enumerable" in Desc) target.enumerable = Desc.enumerable!
  if ("configurable" in Desc) target.configurable = Desc.configurable!
  return true
}
