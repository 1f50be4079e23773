/**
 * Operations on objects (https://tc39.es/ecma262/#sec-operations-on-objects): Get/Set/Define/Delete with the
 * spec's throwing variants, Call/Construct through the engine, array-likes, integrity levels, species and
 * prototype-from-constructor. Error messages follow V8's wording where a program might print them.
 */
import { ArrayObject } from "./array-object.ts"
import { throwTypeError } from "./completion.ts"
import { checkArgumentCount, checkArrayStorage } from "./caps.ts"
import { PollInterrupt } from "./interrupt.ts"
import { chargeMemory, Cost } from "./memory.ts"
import { PrototypeForPrimitive, ToLength, ToPropertyKey } from "./conversions.ts"
import { BoundFunction, IsCallable, IsConstructor } from "./function-object.ts"
import { isOwnEnumerable, JSObject, readOwn } from "./object.ts"
import { arrayIndexOf, Property } from "./property.ts"
import { ABSENT } from "./property-store.ts"
import type { PropertyDescriptor } from "./property.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import { type Primitive, type PropertyKey, SymbolValue, type Value, WellKnownSymbols } from "./value.ts"

/** How a key reads in an error message: `foo`, `Symbol(bar)`. */
export const keyText = (P: PropertyKey): string => (P instanceof SymbolValue ? `Symbol(${P.description ?? ""})` : P)

// https://tc39.es/ecma262/#sec-get-o-p
export function* Get(O: JSObject, P: PropertyKey): Task<Value> {
  return yield* O.Get(P, O)
}

// https://tc39.es/ecma262/#sec-getv
export function* GetV(realm: Realm, V: Value, P: PropertyKey): Task<Value> {
  if (V instanceof JSObject) return yield* V.Get(P, V)
  if (V === undefined || V === null) return throwTypeError(`Cannot read properties of ${String(V)} (reading '${keyText(P)}')`)
  if (typeof V === "string") {
    if (P === "length") return V.length
    const own = StringIndexOf(V, P)
    if (own !== undefined) return own
  }
  return yield* PrototypeForPrimitive(realm, V).Get(P, V)
}

/** A string's own index property, or undefined. */
const StringIndexOf = (s: string, P: PropertyKey): string | undefined => {
  if (typeof P !== "string") return undefined
  const c = P.charCodeAt(0)
  if (!(c >= 48 && c <= 57)) return undefined
  const i = Number(P)
  return String(i) === P && i < s.length ? s[i] : undefined
}

// https://tc39.es/ecma262/#sec-set-o-p-v-throw
export function* Set(O: JSObject, P: PropertyKey, V: Value, Throw: boolean): Task<void> {
  const success = yield* O.Set(P, V, O)
  if (!success && Throw) throwTypeError(`Cannot assign to read only property '${keyText(P)}' of object`)
}

/** PutValue on a possibly primitive base (https://tc39.es/ecma262/#sec-putvalue, property reference case). */
export function* PutValueOnBase(realm: Realm, base: Value, P: PropertyKey, V: Value, strict: boolean): Task<void> {
  if (base instanceof JSObject) {
    const ok = yield* base.Set(P, V, base)
    if (!ok && strict) throwTypeError(`Cannot assign to read only property '${keyText(P)}' of object`)
    return
  }
  if (base === undefined || base === null) {
    throwTypeError(`Cannot set properties of ${String(base)} (setting '${keyText(P)}')`)
  }
  const ok = yield* PrototypeForPrimitive(realm, base as Primitive).Set(P, V, base)
  if (ok || !strict) return
  // A string's own properties, its indices and `length`, are read-only; any other key would be a new property.
  const own = typeof base === "string" && (P === "length" || (typeof P === "string" && arrayIndexOf(P) >= 0 && arrayIndexOf(P) < base.length))
  if (own) throwTypeError(`Cannot assign to read only property '${keyText(P)}' of string '${base}'`)
  throwTypeError(`Cannot create property '${keyText(P)}' on ${typeof base} '${String(base)}'`)
}

const ordinaryDefineOwnProperty = JSObject.prototype.DefineOwnProperty
const ordinaryGetOwnProperty = JSObject.prototype.GetOwnProperty

// https://tc39.es/ecma262/#sec-createdataproperty
export const CreateDataProperty = (O: JSObject, P: PropertyKey, V: Value): boolean => {
  // An ordinary object gaining a new key (every object literal's fields, most results built by built-ins): what
  // ValidateAndApplyPropertyDescriptor does for an absent key on an extensible object, without a descriptor object.
  if (O.extensible && O.DefineOwnProperty === ordinaryDefineOwnProperty && O.GetOwnProperty === ordinaryGetOwnProperty && !O.properties.has(P)) {
    chargeMemory(Cost.property)
    O.properties.add(P, V)
    return true
  }
  return O.DefineOwnProperty(P, { value: V, writable: true, enumerable: true, configurable: true })
}

export const CreateDataPropertyOrThrow = (O: JSObject, P: PropertyKey, V: Value): void => {
  if (!CreateDataProperty(O, P, V)) throwTypeError(`Cannot add property ${keyText(P)}, object is not extensible`)
}

/** Defines a method-like property (writable, configurable, not enumerable). */
export const CreateNonEnumerableDataPropertyOrThrow = (O: JSObject, P: PropertyKey, V: Value): void => {
  DefinePropertyOrThrow(O, P, { value: V, writable: true, enumerable: false, configurable: true })
}

// https://tc39.es/ecma262/#sec-definepropertyorthrow
export const DefinePropertyOrThrow = (O: JSObject, P: PropertyKey, desc: PropertyDescriptor): void => {
  if (!O.DefineOwnProperty(P, desc)) throwTypeError(`Cannot redefine property: ${keyText(P)}`)
}

// https://tc39.es/ecma262/#sec-deletepropertyorthrow
export const DeletePropertyOrThrow = (O: JSObject, P: PropertyKey): void => {
  if (!O.Delete(P)) throwTypeError(`Cannot delete property '${keyText(P)}' of object`)
}

// https://tc39.es/ecma262/#sec-getmethod
export function* GetMethod(realm: Realm, V: Value, P: PropertyKey): Task<JSObject | undefined> {
  const func = yield* GetV(realm, V, P)
  if (func === undefined || func === null) return undefined
  if (!IsCallable(func)) return throwTypeError(`${describeValue(func)} is not a function`)
  return func
}

export const HasProperty = (O: JSObject, P: PropertyKey): boolean => O.HasProperty(P)
export const HasOwnProperty = (O: JSObject, P: PropertyKey): boolean => readOwn(O, P) !== ABSENT

// https://tc39.es/ecma262/#sec-call
export function* Call(F: Value, V: Value, args: ReadonlyArray<Value> = []): Task<Value> {
  if (!IsCallable(F)) return throwTypeError(`${describeValue(F)} is not a function`)
  return yield { kind: "call", f: F, thisArg: V, args }
}

// https://tc39.es/ecma262/#sec-construct
export function* Construct(F: JSObject, args: ReadonlyArray<Value> = [], newTarget: JSObject = F): Task<JSObject> {
  return (yield { kind: "construct", f: F, args, newTarget }) as JSObject
}

// https://tc39.es/ecma262/#sec-invoke
export function* Invoke(realm: Realm, V: Value, P: PropertyKey, args: ReadonlyArray<Value> = []): Task<Value> {
  const func = yield* GetV(realm, V, P)
  return yield* Call(func, V, args)
}

/** A short description of a value for error messages, like V8's (`undefined`, `5`, `"x"`, `#<Object>`). */
export const describeValue = (v: Value): string => {
  if (v instanceof JSObject) {
    if (v.isCallable()) {
      const name = v.properties.get("name")
      return `function ${name && typeof name.value === "string" ? name.value : ""}`.trim()
    }
    return v instanceof ArrayObject ? "object" : `#<${v.kind === "Object" ? "Object" : v.kind}>`
  }
  if (typeof v === "string") return `"${v}"`
  if (v instanceof SymbolValue) return `Symbol(${v.description ?? ""})`
  return String(v)
}

/** A primitive that is not an entry, as V8's "Iterator value X is not an entry object" shows it (unquoted). */
export const notAnEntryMessage = (v: Value): string =>
  `Iterator value ${typeof v === "string" || typeof v === "bigint" ? String(v) : describeValue(v)} is not an entry object`

// https://tc39.es/ecma262/#sec-setintegritylevel
export const SetIntegrityLevel = (O: JSObject, level: "sealed" | "frozen"): boolean => {
  if (!O.PreventExtensions()) return false
  const keys = O.OwnPropertyKeys()
  for (const k of keys) {
    if (level === "sealed") {
      DefinePropertyOrThrow(O, k, { configurable: false })
    } else {
      const current = O.GetOwnProperty(k)
      if (current === undefined) continue
      DefinePropertyOrThrow(O, k, current.accessor ? { configurable: false } : { configurable: false, writable: false })
    }
  }
  return true
}

// https://tc39.es/ecma262/#sec-testintegritylevel
export const TestIntegrityLevel = (O: JSObject, level: "sealed" | "frozen"): boolean => {
  if (O.IsExtensible()) return false
  for (const k of O.OwnPropertyKeys()) {
    const current = O.GetOwnProperty(k)
    if (current === undefined) continue
    if (current.configurable) return false
    if (level === "frozen" && !current.accessor && current.writable) return false
  }
  return true
}

// https://tc39.es/ecma262/#sec-createarrayfromlist
export const CreateArrayFromList = (realm: Realm, list: ReadonlyArray<Value>): ArrayObject =>
  new ArrayObject(realm.ArrayPrototype, list.slice())

// https://tc39.es/ecma262/#sec-lengthofarraylike
export function* LengthOfArrayLike(realm: Realm, obj: JSObject): Task<number> {
  if (obj instanceof ArrayObject) return obj.length
  return yield* ToLength(realm, yield* obj.Get("length", obj))
}

// https://tc39.es/ecma262/#sec-createlistfromarraylike
export function* CreateListFromArrayLike(realm: Realm, obj: Value): Task<Value[]> {
  if (!(obj instanceof JSObject)) return throwTypeError("CreateListFromArrayLike called on non-object")
  const len = yield* LengthOfArrayLike(realm, obj)
  // NON-SPEC: a list longer than any call takes is refused before it is built, as V8 refuses it.
  checkArgumentCount(len)
  const list: Value[] = []
  for (let i = 0; i < len; i++) list.push(yield* obj.Get(String(i), obj))
  return list
}

// https://tc39.es/ecma262/#sec-ordinaryhasinstance
export function* OrdinaryHasInstance(C: Value, O: Value): Task<boolean> {
  if (!IsCallable(C)) return false
  if (C instanceof BoundFunction) return yield* InstanceofOperator(O, C.target)
  if (!(O instanceof JSObject)) return false
  const P = yield* C.Get("prototype", C)
  if (!(P instanceof JSObject)) return throwTypeError("Function has non-object prototype in instanceof check")
  for (let o = O.GetPrototypeOf(); o !== null; o = o.GetPrototypeOf()) {
    if (o === P) return true
  }
  return false
}

// https://tc39.es/ecma262/#sec-instanceofoperator
export function* InstanceofOperator(V: Value, target: Value): Task<boolean> {
  if (!(target instanceof JSObject)) return throwTypeError("Right-hand side of 'instanceof' is not an object")
  const instOfHandler = yield* target.Get(WellKnownSymbols.hasInstance, target)
  if (instOfHandler !== undefined && instOfHandler !== null) {
    const r = yield* Call(instOfHandler, target, [V])
    return r instanceof JSObject || Boolean(r)
  }
  if (!IsCallable(target)) return throwTypeError("Right-hand side of 'instanceof' is not callable")
  return yield* OrdinaryHasInstance(target, V)
}

// https://tc39.es/ecma262/#sec-speciesconstructor
export function* SpeciesConstructor(O: JSObject, defaultConstructor: JSObject): Task<JSObject> {
  const C = yield* O.Get("constructor", O)
  if (C === undefined) return defaultConstructor
  if (!(C instanceof JSObject)) return throwTypeError("object.constructor is not an object")
  const S = yield* C.Get(WellKnownSymbols.species, C)
  if (S === undefined || S === null) return defaultConstructor
  if (IsConstructor(S)) return S
  return throwTypeError("object.constructor[Symbol.species] is not a constructor")
}

// https://tc39.es/ecma262/#sec-getprototypefromconstructor
export function* GetPrototypeFromConstructor(realm: Realm, constructor: JSObject, intrinsicDefaultProto: string): Task<JSObject> {
  const proto = yield* constructor.Get("prototype", constructor)
  if (proto instanceof JSObject) return proto
  return realm.intrinsic(intrinsicDefaultProto)
}

// https://tc39.es/ecma262/#sec-ordinarycreatefromconstructor
export function* OrdinaryCreateFromConstructor(realm: Realm, constructor: JSObject | undefined, intrinsicDefaultProto: string): Task<JSObject> {
  const proto = constructor === undefined ? realm.intrinsic(intrinsicDefaultProto) : yield* GetPrototypeFromConstructor(realm, constructor, intrinsicDefaultProto)
  return new JSObject(proto)
}

// https://tc39.es/ecma262/#sec-enumerableownproperties
export function* EnumerableOwnProperties(realm: Realm, O: JSObject, kind: "key" | "value" | "key+value"): Task<Value[]> {
  const results: Value[] = []
  for (const key of O.OwnPropertyKeys()) {
    if (typeof key !== "string" || !isOwnEnumerable(O, key)) continue
    if (kind === "key") {
      results.push(key)
      continue
    }
    const value = yield* O.Get(key, O)
    results.push(kind === "value" ? value : CreateArrayFromList(realm, [key, value]))
  }
  return results
}

// https://tc39.es/ecma262/#sec-copydataproperties
export function* CopyDataProperties(realm: Realm, target: JSObject, source: Value, excluded: ReadonlyArray<PropertyKey>): Task<void> {
  if (source === undefined || source === null) return
  if (typeof source === "string") {
    // One property per code unit, as many as a string wrapper's keys may be (orderKeys).
    checkArrayStorage(source.length)
    for (let i = 0; i < source.length; i++) {
      PollInterrupt(realm)
      if (!excluded.includes(String(i))) CreateDataProperty(target, String(i), source[i])
    }
    return
  }
  if (!(source instanceof JSObject)) return
  for (const key of source.OwnPropertyKeys()) {
    PollInterrupt(realm)
    if (excluded.includes(key) || !isOwnEnumerable(source, key)) continue
    CreateDataProperty(target, key, yield* source.Get(key, source))
  }
}

/** FromPropertyDescriptor (https://tc39.es/ecma262/#sec-frompropertydescriptor). */
export const FromPropertyDescriptor = (realm: Realm, p: Property | undefined): Value => {
  if (p === undefined) return undefined
  const obj = new JSObject(realm.ObjectPrototype)
  if (p.accessor) {
    CreateDataProperty(obj, "get", p.get)
    CreateDataProperty(obj, "set", p.set)
  } else {
    CreateDataProperty(obj, "value", p.value)
    CreateDataProperty(obj, "writable", p.writable)
  }
  CreateDataProperty(obj, "enumerable", p.enumerable)
  CreateDataProperty(obj, "configurable", p.configurable)
  return obj
}

// https://tc39.es/ecma262/#sec-topropertydescriptor
export function* ToPropertyDescriptor(realm: Realm, Obj: Value): Task<PropertyDescriptor> {
  void realm
  if (!(Obj instanceof JSObject)) return throwTypeError(`Property description must be an object: ${describeValue(Obj)}`)
  const desc: PropertyDescriptor = {}
  if (Obj.HasProperty("enumerable")) desc.enumerable = truthy(yield* Obj.Get("enumerable", Obj))
  if (Obj.HasProperty("configurable")) desc.configurable = truthy(yield* Obj.Get("configurable", Obj))
  if (Obj.HasProperty("value")) desc.value = yield* Obj.Get("value", Obj)
  if (Obj.HasProperty("writable")) desc.writable = truthy(yield* Obj.Get("writable", Obj))
  if (Obj.HasProperty("get")) {
    const getter = yield* Obj.Get("get", Obj)
    if (getter !== undefined && !IsCallable(getter)) return throwTypeError(`Getter must be a function: ${describeValue(getter)}`)
    desc.get = getter as JSObject | undefined
  }
  if (Obj.HasProperty("set")) {
    const setter = yield* Obj.Get("set", Obj)
    if (setter !== undefined && !IsCallable(setter)) return throwTypeError(`Setter must be a function: ${describeValue(setter)}`)
    desc.set = setter as JSObject | undefined
  }
  if (("get" in desc || "set" in desc) && ("value" in desc || "writable" in desc)) {
    return throwTypeError("Invalid property descriptor. Cannot both specify accessors and a value or writable attribute")
  }
  return desc
}

const truthy = (v: Value): boolean => v instanceof JSObject || v instanceof SymbolValue || Boolean(v)

/**
 * V8's TypeError for `key in v` where `v` is not an object. Both sides are printed as V8 prints values without
 * running code: strings and bigints bare, objects by their class.
 */
export const throwNotInOperand = (key: Value, obj: Value): never => throwTypeError(`Cannot use 'in' operator to search for '${bareText(key)}' in ${bareText(obj)}`)

const bareText = (v: Value): string => {
  if (typeof v === "string" || typeof v === "bigint") return String(v)
  if (v instanceof ArrayObject) return "[object Array]"
  return describeValue(v)
}

/** `key in obj` (https://tc39.es/ecma262/#sec-relational-operators-runtime-semantics-evaluation). */
export function* InOperator(realm: Realm, key: Value, obj: Value): Task<boolean> {
  if (!(obj instanceof JSObject)) return throwNotInOperand(key, obj)
  const P = yield* ToPropertyKey(realm, key)
  return obj.HasProperty(P)
}
