/**
 * References to properties (https://tc39.es/ecma262/#sec-reference-record-specification-type) as both engines
 * evaluate them: reads and writes of plain data properties and dense array elements without a Task (the fast
 * paths), and the Tasks they fall back to when an accessor, a coercion or an exotic object may run user code;
 * `delete` and `super.x`. A fast path answers MISS when it cannot answer without running anything.
 */
import { PollCompare } from "./interrupt.ts"
import { chargeMemory, Cost } from "./memory.ts"
import { ArrayObject } from "./array-object.ts"
import { throwReferenceError, throwTypeError } from "./completion.ts"
import { PrototypeForPrimitive, ToPropertyKey } from "./conversions.ts"
import type { ScriptFunction } from "./function-object.ts"
import { JSObject, readOwn } from "./object.ts"
import { describeValue, GetV, keyText, PutValueOnBase } from "./operations.ts"
import { arrayIndexOf, Property } from "./property.ts"
import { ABSENT } from "./property-store.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import { EMPTY, type Empty, type PropertyKey, SymbolValue, type Value } from "./value.ts"

export const MISS: unique symbol = Symbol("miss")

export type Miss = typeof MISS

const ordinaryGet = JSObject.prototype.Get

const ordinarySet = JSObject.prototype.Set

const ordinaryGetOwnProperty = JSObject.prototype.GetOwnProperty

/** OrdinaryGet up the chain without running anything; MISS at an accessor or an object with its own [[Get]]. */
const lookupValue = (o: JSObject | null, key: PropertyKey): Value | Miss => {
  for (; o !== null; o = o.GetPrototypeOf()) {
    if (o.Get !== ordinaryGet) return MISS
    const s = readOwn(o, key)
    if (s === ABSENT) continue
    if (!(s instanceof Property)) return s
    return s.accessor ? MISS : s.value
  }
  return undefined
}

/** [[Get]] without running anything: the value, or MISS (accessor, exotic, primitive base without a prototype). */
export const getFast = (realm: Realm, base: Value, key: PropertyKey): Value | Miss => {
  if (base instanceof JSObject) {
    if (base instanceof ArrayObject && key === "length") return base.length
    return lookupValue(base, key)
  }
  if (typeof base === "string") {
    if (key === "length") return base.length
    if (typeof key === "string") {
      const i = arrayIndexOf(key)
      if (i >= 0) return i < base.length ? (base[i] as string) : MISS
    }
  }
  if (base === undefined || base === null) return MISS
  return lookupValue(PrototypeForPrimitive(realm, base), key)
}

/** [[Set]] of a plain writable data property (existing, or new on an extensible object); false: take the Task. */
export const setFast = (base: Value, key: PropertyKey, v: Value): boolean => {
  if (!(base instanceof JSObject) || base.Set !== ordinarySet) return false
  const own = base.properties.read(key)
  if (own !== ABSENT) {
    if (own instanceof Property && (own.accessor || !own.writable)) return false
    if (base instanceof ArrayObject && arrayIndexOf(key) >= 0) return false
    base.properties.write(key, v)
    return true
  }
  // An exotic object may have own keys its store does not hold (a string wrapper's indices, say).
  if (!base.extensible || key === "length" || (base.GetOwnProperty !== ordinaryGetOwnProperty && base.GetOwnProperty(key) !== undefined)) return false
  if ((base instanceof ArrayObject || base.kind === "String") && arrayIndexOf(key) >= 0) return false
  if (!inheritedLetsAdd(base, key)) return false
  chargeMemory(Cost.property)
  base.properties.add(key, v)
  return true
}

/**
 * Whether a [[Set]] of `key`, absent from `base`, adds it to `base` without running anything: no object on the
 * prototype chain intercepts it (a setter, a read-only property, an exotic [[Set]]).
 */
export const inheritedLetsAdd = (base: JSObject, key: PropertyKey): boolean => {
  for (let o = base.GetPrototypeOf(); o !== null; o = o.GetPrototypeOf()) {
    if (o.Set !== ordinarySet) return false
    const p = readOwn(o, key)
    if (p !== ABSENT) return !(p instanceof Property && (p.accessor || !p.writable))
  }
  return true
}

/** Element read with a number key on a dense array. */
export const getIndexFast = (realm: Realm, base: Value, key: number): Value | Miss => {
  if (base instanceof ArrayObject) {
    const els = base.elements
    if (els !== null && key >= 0 && key < els.length && (key | 0) === key) {
      const v = els[key] as Value | Empty
      if (v !== EMPTY) return v
    }
  } else if (typeof base === "string" && key >= 0 && key < base.length && (key | 0) === key) {
    return base[key] as string
  }
  return getFast(realm, base, String(key))
}

/** Element write with a number key on a dense extensible array. */
export const setIndexFast = (realm: Realm, base: Value, key: number, v: Value): boolean => {
  if (!(base instanceof ArrayObject) || (key | 0) !== key || key < 0) return false
  const els = base.elements
  if (els === null) return false
  if (key < els.length && els[key] !== EMPTY) {
    els[key] = v
    return true
  }
  // A new element: no prototype may intercept the index (setters or read-only indices on Array.prototype).
  const proto = base.GetPrototypeOf()
  if (proto !== null && proto.lookup(String(key)) !== undefined) return false
  void realm
  return base.setOwnElement(key, v)
}

export function* GetValueTask(realm: Realm, base: Value, key: Value): Task<Value> {
  nullishBaseFirst(base, key, "read")
  const P = yield* ToPropertyKey(realm, key)
  return yield* GetV(realm, base, P)
}

export function* PutValueTask(realm: Realm, base: Value, key: Value, v: Value, strict: boolean): Task<Value> {
  nullishBaseFirst(base, key, "set")
  const P = yield* ToPropertyKey(realm, key)
  yield* PutValueOnBase(realm, base, P, v, strict)
  return v
}

/**
 * GetValue and PutValue convert the base (ToObject) before the key (ToPropertyKey): `null[key]` throws before
 * `key.toString` runs. An object key is left unconverted, so the message names no key (as V8's does).
 */
const nullishBaseFirst = (base: Value, key: Value, access: "read" | "set"): void => {
  if ((base === undefined || base === null) && key instanceof JSObject) {
    throwTypeError(`Cannot ${access} properties of ${String(base)}`)
  }
}

/** A primitive property key without user code, or MISS for an object key. */
export const propertyKeyFast = (key: Value): PropertyKey | Miss => {
  // A long key is hashed and compared whole by the host's property map: weighed by its length.
  PollCompare(key)
  if (typeof key === "string" || key instanceof SymbolValue) return key
  if (key instanceof JSObject) return MISS
  return String(key)
}

// --- delete and super ---------------------------------------------------------------------------------------------

export function* DeleteTask(realm: Realm, obj: JSObject, key: Value, strict: boolean): Task<Value> {
  const P = yield* ToPropertyKey(realm, key)
  return deleteProperty(obj, P, strict)
}

export const deleteProperty = (obj: JSObject, P: PropertyKey, strict: boolean): boolean => {
  const ok = obj.Delete(P)
  if (!ok && strict) throwTypeError(`Cannot delete property '${keyText(P)}' of ${describeValue(obj)}`)
  return ok
}

/** The home object's prototype, where `super.x` looks (https://tc39.es/ecma262/#sec-getsuperbase). */
export const superBaseOf = (func: Value): JSObject => {
  const home = func instanceof JSObject ? (func as ScriptFunction).homeObject : undefined
  if (home === undefined) return throwTypeError("'super' keyword unexpected here")
  const base = home.GetPrototypeOf()
  if (base === null) return throwTypeError("Cannot read properties of null (reading a super property)")
  return base
}

export function* SuperGetTask(realm: Realm, func: Value, thisValue: Value, key: Value): Task<Value> {
  const P = yield* ToPropertyKey(realm, key)
  return yield* superBaseOf(func).Get(P, thisValue)
}

export function* SuperSetTask(realm: Realm, func: Value, thisValue: Value, key: Value, v: Value): Task<Value> {
  const P = yield* ToPropertyKey(realm, key)
  const ok = yield* superBaseOf(func).Set(P, v, thisValue)
  if (!ok) throwTypeError(`Cannot assign to read only property '${keyText(P)}' of object`)
  return v
}

/** A binding read or written in its TDZ (V8's messages; `this` in a derived constructor before `super()`). */
export const tdzError = (name: string): never =>
  name === "this"
    ? throwReferenceError("Must call super constructor in derived class before accessing 'this' or returning from derived constructor")
    : throwReferenceError(`Cannot access '${name}' before initialization`)
