/**
 * The Object constructor and Object.prototype (https://tc39.es/ecma262/#sec-object-objects). Statics that read
 * property values (assign, entries, values, fromEntries, groupBy, defineProperties, create with properties) or
 * convert keys are Tasks: getters, `toString` of keys and iterators run as engine calls. The rest work on the
 * object model directly. Object.prototype.toString builds V8's `[object Tag]` from the brand (`kind`) and
 * Symbol.toStringTag. The legacy accessors (`__proto__`, `__defineGetter__` & co.) are here too, as V8 has them.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { defineAccessors, defineConstructor, defineMethods } from "../runtime/builtin.ts"
import { checkArrayStorage } from "../runtime/caps.ts"
import { throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { ToNumber, ToObject, ToPropertyKey, ToUint32 } from "../runtime/conversions.ts"
import { IsCallable } from "../runtime/function-object.ts"
import { GetIterator, IteratorCloseOnThrow, IteratorStepValue, DONE } from "../runtime/iteration.ts"
import { isOwnEnumerable, JSObject } from "../runtime/object.ts"
import {
  Call,
  CreateArrayFromList,
  CreateDataPropertyOrThrow,
  DefinePropertyOrThrow,
  describeValue,
  notAnEntryMessage,
  EnumerableOwnProperties,
  FromPropertyDescriptor,
  Invoke,
  OrdinaryCreateFromConstructor,
  SetIntegrityLevel,
  Set as SetProperty,
  TestIntegrityLevel,
  ToPropertyDescriptor,
} from "../runtime/operations.ts"
import type { PropertyDescriptor } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type PropertyKey, SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import type { NativeFunction } from "../runtime/function-object.ts"

const requireObjectCoercible = (v: Value): void => {
  if (v === undefined || v === null) throwTypeError("Cannot convert undefined or null to object")
}

const badProto = (proto: Value): never => throwTypeError(`Object prototype may only be an Object or null: ${describeValue(proto)}`)

/** Why [[SetPrototypeOf]] said no, in V8's words. */
const setPrototypeFailure = (O: JSObject): never =>
  O.IsExtensible() ? throwTypeError("Cyclic __proto__ value") : throwTypeError(`${describeValue(O)} is not extensible`)

/**
 * A descriptor for `length` of an array carries a converted value (ArraySetLength steps 3-5 run ToUint32 and
 * ToNumber, which may call user code; ArrayObject expects them done).
 */
function* PrepareDescriptor(realm: Realm, O: JSObject, key: PropertyKey, desc: PropertyDescriptor): Task<PropertyDescriptor> {
  if (key !== "length" || !(O instanceof ArrayObject) || !("value" in desc) || typeof desc.value === "number") return desc
  const newLen = yield* ToUint32(realm, desc.value)
  const numberLen = yield* ToNumber(realm, desc.value)
  if (newLen !== numberLen) throwRangeError("Invalid array length")
  return { ...desc, value: newLen }
}

// https://tc39.es/ecma262/#sec-object-value
function* Object_constructor(realm: Realm, _this: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined, self: NativeFunction): Task<Value> {
  if (newTarget !== undefined && newTarget !== self) {
    return yield* OrdinaryCreateFromConstructor(realm, newTarget, "%Object.prototype%")
  }
  const value = args[0]
  if (value === undefined || value === null) return new JSObject(realm.ObjectPrototype)
  return ToObject(realm, value)
}

// https://tc39.es/ecma262/#sec-object.assign
function* Object_assign(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const to = ToObject(realm, args[0])
  for (let i = 1; i < args.length; i++) {
    const nextSource = args[i]
    if (nextSource === undefined || nextSource === null) continue
    const from = ToObject(realm, nextSource)
    for (const nextKey of from.OwnPropertyKeys()) {
      if (!isOwnEnumerable(from, nextKey)) continue
      const propValue = yield* from.Get(nextKey, from)
      yield* SetProperty(to, nextKey, propValue, true)
    }
  }
  return to
}

// https://tc39.es/ecma262/#sec-object.create
function* Object_create(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = args[0]
  if (!(O instanceof JSObject) && O !== null) return badProto(O)
  const obj = new JSObject(O)
  if (args[1] !== undefined) yield* ObjectDefineProperties(realm, obj, args[1])
  return obj
}

// https://tc39.es/ecma262/#sec-objectdefineproperties
function* ObjectDefineProperties(realm: Realm, O: JSObject, Properties: Value): Task<JSObject> {
  const props = ToObject(realm, Properties)
  const descriptors: Array<[PropertyKey, PropertyDescriptor]> = []
  for (const nextKey of props.OwnPropertyKeys()) {
    const propDesc = props.GetOwnProperty(nextKey)
    if (propDesc === undefined || !propDesc.enumerable) continue
    const descObj = yield* props.Get(nextKey, props)
    descriptors.push([nextKey, yield* ToPropertyDescriptor(realm, descObj)])
  }
  for (const [P, desc] of descriptors) DefinePropertyOrThrow(O, P, yield* PrepareDescriptor(realm, O, P, desc))
  return O
}

// https://tc39.es/ecma262/#sec-object.defineproperties
function* Object_defineProperties(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = args[0]
  if (!(O instanceof JSObject)) return throwTypeError("Object.defineProperties called on non-object")
  return yield* ObjectDefineProperties(realm, O, args[1])
}

// https://tc39.es/ecma262/#sec-object.defineproperty
function* Object_defineProperty(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = args[0]
  if (!(O instanceof JSObject)) return throwTypeError("Object.defineProperty called on non-object")
  const key = yield* ToPropertyKey(realm, args[1])
  const desc = yield* ToPropertyDescriptor(realm, args[2])
  DefinePropertyOrThrow(O, key, yield* PrepareDescriptor(realm, O, key, desc))
  return O
}

const enumerableOwn = (kind: "key" | "value" | "key+value") =>
  function* (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
    const obj = ToObject(realm, args[0])
    return CreateArrayFromList(realm, yield* EnumerableOwnProperties(realm, obj, kind))
  }

// https://tc39.es/ecma262/#sec-object.entries / #sec-object.keys / #sec-object.values
const Object_entries = enumerableOwn("key+value")
const Object_values = enumerableOwn("value")
const Object_keys = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const obj = ToObject(realm, args[0])
  const keys: Value[] = []
  for (const key of obj.OwnPropertyKeys()) {
    if (typeof key === "string" && isOwnEnumerable(obj, key)) keys.push(key)
  }
  return CreateArrayFromList(realm, keys)
}

// https://tc39.es/ecma262/#sec-object.freeze
const Object_freeze = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const O = args[0]
  if (!(O instanceof JSObject)) return O
  if (!SetIntegrityLevel(O, "frozen")) throwTypeError("Cannot freeze")
  return O
}

// https://tc39.es/ecma262/#sec-object.seal
const Object_seal = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const O = args[0]
  if (!(O instanceof JSObject)) return O
  if (!SetIntegrityLevel(O, "sealed")) throwTypeError("Cannot seal")
  return O
}

// https://tc39.es/ecma262/#sec-object.preventextensions
const Object_preventExtensions = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const O = args[0]
  if (!(O instanceof JSObject)) return O
  if (!O.PreventExtensions()) throwTypeError("Cannot prevent extensions")
  return O
}

// https://tc39.es/ecma262/#sec-object.isextensible, #sec-object.isfrozen, #sec-object.issealed
const Object_isExtensible = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  args[0] instanceof JSObject ? args[0].IsExtensible() : false
const Object_isFrozen = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  args[0] instanceof JSObject ? TestIntegrityLevel(args[0], "frozen") : true
const Object_isSealed = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  args[0] instanceof JSObject ? TestIntegrityLevel(args[0], "sealed") : true

// https://tc39.es/ecma262/#sec-object.fromentries
function* Object_fromEntries(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const iterable = args[0]
  // RequireObjectCoercible, in V8's words (which say "undefined" of null too).
  if (iterable === undefined || iterable === null) return throwTypeError("undefined is not iterable")
  const obj = new JSObject(realm.ObjectPrototype)
  // https://tc39.es/ecma262/#sec-add-entries-from-iterable
  const iteratorRecord = yield* GetIterator(realm, iterable)
  for (;;) {
    const nextItem = yield* IteratorStepValue(iteratorRecord)
    if (nextItem === DONE) return obj
    try {
      if (!(nextItem instanceof JSObject)) throwTypeError(notAnEntryMessage(nextItem))
      const item = nextItem as JSObject
      const k = yield* item.Get("0", item)
      const v = yield* item.Get("1", item)
      const propertyKey = yield* ToPropertyKey(realm, k)
      CreateDataPropertyOrThrow(obj, propertyKey, v)
    } catch (e) {
      return yield* IteratorCloseOnThrow(realm, iteratorRecord, e)
    }
  }
}

// https://tc39.es/ecma262/#sec-object.getownpropertydescriptor
function* Object_getOwnPropertyDescriptor(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const obj = ToObject(realm, args[0])
  const key = yield* ToPropertyKey(realm, args[1])
  return FromPropertyDescriptor(realm, obj.GetOwnProperty(key))
}

// https://tc39.es/ecma262/#sec-object.getownpropertydescriptors
const Object_getOwnPropertyDescriptors = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const obj = ToObject(realm, args[0])
  const descriptors = new JSObject(realm.ObjectPrototype)
  for (const key of obj.OwnPropertyKeys()) {
    const desc = FromPropertyDescriptor(realm, obj.GetOwnProperty(key))
    if (desc !== undefined) CreateDataPropertyOrThrow(descriptors, key, desc)
  }
  return descriptors
}

// https://tc39.es/ecma262/#sec-getownpropertykeys
const GetOwnPropertyKeys = (realm: Realm, O: Value, type: "string" | "symbol"): Value => {
  const obj = ToObject(realm, O)
  const keys = obj.OwnPropertyKeys().filter((k) => (type === "string" ? typeof k === "string" : k instanceof SymbolValue))
  return CreateArrayFromList(realm, keys)
}
const Object_getOwnPropertyNames = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  GetOwnPropertyKeys(realm, args[0], "string")
const Object_getOwnPropertySymbols = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  GetOwnPropertyKeys(realm, args[0], "symbol")

// https://tc39.es/ecma262/#sec-object.getprototypeof
const Object_getPrototypeOf = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  ToObject(realm, args[0]).GetPrototypeOf()

// https://tc39.es/ecma262/#sec-object.setprototypeof
const Object_setPrototypeOf = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const [O, proto] = args
  requireObjectCoercible(O)
  if (!(proto instanceof JSObject) && proto !== null) return badProto(proto)
  if (!(O instanceof JSObject)) return O
  if (!O.SetPrototypeOf(proto as JSObject | null)) setPrototypeFailure(O)
  return O
}

// https://tc39.es/ecma262/#sec-groupby (property keys)
function* Object_groupBy(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const [items, callback] = args
  if (items === undefined || items === null) return throwTypeError("Object.groupBy called on null or undefined")
  if (!IsCallable(callback)) return throwTypeError(`${describeValue(callback)} is not a function`)
  const groups: Array<{ key: PropertyKey; elements: Value[] }> = []
  const byKey = new Map<PropertyKey, Value[]>()
  const iteratorRecord = yield* GetIterator(realm, items)
  let k = 0
  for (;;) {
    const value = yield* IteratorStepValue(iteratorRecord)
    if (value === DONE) break
    let key: PropertyKey
    try {
      const result = yield* Call(callback, undefined, [value, k])
      key = yield* ToPropertyKey(realm, result)
    } catch (e) {
      return yield* IteratorCloseOnThrow(realm, iteratorRecord, e)
    }
    let list = byKey.get(key)
    if (list === undefined) {
      list = []
      byKey.set(key, list)
      groups.push({ key, elements: list })
    }
    checkArrayStorage(k + 1)
    list.push(value)
    k++
  }
  const obj = new JSObject(null)
  for (const g of groups) CreateDataPropertyOrThrow(obj, g.key, CreateArrayFromList(realm, g.elements))
  return obj
}

// https://tc39.es/ecma262/#sec-object.hasown
function* Object_hasOwn(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const obj = ToObject(realm, args[0])
  const key = yield* ToPropertyKey(realm, args[1])
  return obj.GetOwnProperty(key) !== undefined
}

// https://tc39.es/ecma262/#sec-object.is
const Object_is = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => Object.is(args[0], args[1])

// https://tc39.es/ecma262/#sec-object.prototype.hasownproperty
function* ObjectProto_hasOwnProperty(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const P = yield* ToPropertyKey(realm, args[0])
  const O = ToObject(realm, thisArg)
  return O.GetOwnProperty(P) !== undefined
}

// https://tc39.es/ecma262/#sec-object.prototype.isprototypeof
const ObjectProto_isPrototypeOf = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const V = args[0]
  if (!(V instanceof JSObject)) return false
  const O = ToObject(realm, thisArg)
  for (let p = V.GetPrototypeOf(); p !== null; p = p.GetPrototypeOf()) {
    if (p === O) return true
  }
  return false
}

// https://tc39.es/ecma262/#sec-object.prototype.propertyisenumerable
function* ObjectProto_propertyIsEnumerable(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const P = yield* ToPropertyKey(realm, args[0])
  const O = ToObject(realm, thisArg)
  return O.GetOwnProperty(P)?.enumerable === true
}

// https://tc39.es/ecma262/#sec-object.prototype.tolocalestring
function* ObjectProto_toLocaleString(realm: Realm, thisArg: Value): Task<Value> {
  return yield* Invoke(realm, thisArg, "toString")
}

/** The builtinTag of Object.prototype.toString (steps 4-14): the object's brand. */
const builtinTag = (O: JSObject): string => {
  if (O instanceof ArrayObject) return "Array"
  switch (O.kind) {
    case "Arguments":
    case "Error":
    case "Boolean":
    case "Number":
    case "String":
    case "Date":
    case "RegExp":
      return O.kind
  }
  return O.isCallable() ? "Function" : "Object"
}

// https://tc39.es/ecma262/#sec-object.prototype.tostring
function* ObjectProto_toString(realm: Realm, thisArg: Value): Task<Value> {
  if (thisArg === undefined) return "[object Undefined]"
  if (thisArg === null) return "[object Null]"
  const O = ToObject(realm, thisArg)
  const tag = yield* O.Get(WellKnownSymbols.toStringTag, O)
  return `[object ${typeof tag === "string" ? tag : builtinTag(O)}]`
}

// https://tc39.es/ecma262/#sec-object.prototype.valueof
const ObjectProto_valueOf = (realm: Realm, thisArg: Value): Value => ToObject(realm, thisArg)

// https://tc39.es/ecma262/#sec-get-object.prototype.__proto__
const ObjectProto_getProto = (realm: Realm, thisArg: Value): Value => ToObject(realm, thisArg).GetPrototypeOf()

// https://tc39.es/ecma262/#sec-set-object.prototype.__proto__
const ObjectProto_setProto = (_realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  requireObjectCoercible(thisArg)
  const proto = args[0]
  if (!(proto instanceof JSObject) && proto !== null) return undefined
  if (!(thisArg instanceof JSObject)) return undefined
  if (!thisArg.SetPrototypeOf(proto as JSObject | null)) setPrototypeFailure(thisArg)
  return undefined
}

// https://tc39.es/ecma262/#sec-object.prototype.__defineGetter__ (and __defineSetter__)
const defineAccessorLegacy = (which: "get" | "set") =>
  function* (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
    const O = ToObject(realm, thisArg)
    const getter = args[1]
    if (!IsCallable(getter)) {
      return throwTypeError(`Object.prototype.__define${which === "get" ? "Getter" : "Setter"}__: Expecting function`)
    }
    const key = yield* ToPropertyKey(realm, args[0])
    const desc: PropertyDescriptor = { [which]: getter, enumerable: true, configurable: true }
    DefinePropertyOrThrow(O, key, desc)
    return undefined
  }

// https://tc39.es/ecma262/#sec-object.prototype.__lookupGetter__ (and __lookupSetter__)
const lookupAccessorLegacy = (which: "get" | "set") =>
  function* (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
    let O: JSObject | null = ToObject(realm, thisArg)
    const key = yield* ToPropertyKey(realm, args[0])
    for (; O !== null; O = O.GetPrototypeOf()) {
      const desc = O.GetOwnProperty(key)
      if (desc !== undefined) return desc.accessor ? desc[which] : undefined
    }
    return undefined
  }

export const install = (realm: Realm): void => {
  const proto = realm.ObjectPrototype
  const ObjectCtor = defineConstructor(realm, "Object", Object_constructor, 1, proto)
  defineMethods(realm, ObjectCtor, "%Object%", [
    ["assign", Object_assign, 2],
    ["getOwnPropertyDescriptor", Object_getOwnPropertyDescriptor, 2],
    ["getOwnPropertyDescriptors", Object_getOwnPropertyDescriptors, 1],
    ["getOwnPropertyNames", Object_getOwnPropertyNames, 1],
    ["getOwnPropertySymbols", Object_getOwnPropertySymbols, 1],
    ["hasOwn", Object_hasOwn, 2],
    ["is", Object_is, 2],
    ["preventExtensions", Object_preventExtensions, 1],
    ["seal", Object_seal, 1],
    ["create", Object_create, 2],
    ["defineProperties", Object_defineProperties, 2],
    ["defineProperty", Object_defineProperty, 3],
    ["freeze", Object_freeze, 1],
    ["getPrototypeOf", Object_getPrototypeOf, 1],
    ["setPrototypeOf", Object_setPrototypeOf, 2],
    ["isExtensible", Object_isExtensible, 1],
    ["isFrozen", Object_isFrozen, 1],
    ["isSealed", Object_isSealed, 1],
    ["keys", Object_keys, 1],
    ["entries", Object_entries, 1],
    ["fromEntries", Object_fromEntries, 1],
    ["values", Object_values, 1],
    ["groupBy", Object_groupBy, 2],
  ])
  defineMethods(realm, proto, "%Object.prototype%", [
    ["__defineGetter__", defineAccessorLegacy("get"), 2],
    ["__defineSetter__", defineAccessorLegacy("set"), 2],
    ["hasOwnProperty", ObjectProto_hasOwnProperty, 1],
    ["__lookupGetter__", lookupAccessorLegacy("get"), 1],
    ["__lookupSetter__", lookupAccessorLegacy("set"), 1],
    ["isPrototypeOf", ObjectProto_isPrototypeOf, 1],
    ["propertyIsEnumerable", ObjectProto_propertyIsEnumerable, 1],
    ["toString", ObjectProto_toString, 0],
    ["valueOf", ObjectProto_valueOf, 0],
  ])
  defineAccessors(realm, proto, "%Object.prototype%", [["__proto__", ObjectProto_getProto, ObjectProto_setProto]])
  defineMethods(realm, proto, "%Object.prototype%", [["toLocaleString", ObjectProto_toLocaleString, 0]])
}
