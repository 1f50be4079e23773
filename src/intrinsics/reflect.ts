/**
 * The Reflect namespace object (https://tc39.es/ecma262/#sec-reflect-object): the object internal methods as
 * functions. Each one requires an object target (TypeError otherwise) and returns the internal method's own
 * boolean result instead of throwing, except where the spec says otherwise.
 */
import { defineMethods, defineValues } from "../runtime/builtin.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { ToPropertyKey } from "../runtime/conversions.ts"
import { IsCallable, IsConstructor } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import {
  Call,
  Construct,
  CreateArrayFromList,
  CreateListFromArrayLike,
  FromPropertyDescriptor,
  ToPropertyDescriptor,
} from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type Value, WellKnownSymbols } from "../runtime/value.ts"

const requireObject = (target: Value, method: string): JSObject =>
  target instanceof JSObject ? target : throwTypeError(`Reflect.${method} called on non-object`)

// https://tc39.es/ecma262/#sec-reflect.apply
function* Reflect_apply(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const [target, thisArgument, argumentsList] = args
  if (!IsCallable(target)) return throwTypeError("Function.prototype.apply was called on , which is not a function")
  const list = yield* CreateListFromArrayLike(realm, argumentsList)
  return yield* Call(target, thisArgument, list)
}

// https://tc39.es/ecma262/#sec-reflect.construct
function* Reflect_construct(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const target = args[0]
  if (!IsConstructor(target)) return throwTypeError("Reflect.construct target is not a constructor")
  const newTarget = args.length < 3 ? target : args[2]
  if (!IsConstructor(newTarget)) return throwTypeError("Reflect.construct newTarget is not a constructor")
  const list = yield* CreateListFromArrayLike(realm, args[1])
  return yield* Construct(target, list, newTarget)
}

// https://tc39.es/ecma262/#sec-reflect.defineproperty
function* Reflect_defineProperty(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const target = requireObject(args[0], "defineProperty")
  const key = yield* ToPropertyKey(realm, args[1])
  const desc = yield* ToPropertyDescriptor(realm, args[2])
  return target.DefineOwnProperty(key, desc)
}

// https://tc39.es/ecma262/#sec-reflect.deleteproperty
function* Reflect_deleteProperty(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const target = requireObject(args[0], "deleteProperty")
  return target.Delete(yield* ToPropertyKey(realm, args[1]))
}

// https://tc39.es/ecma262/#sec-reflect.get
function* Reflect_get(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const target = requireObject(args[0], "get")
  const key = yield* ToPropertyKey(realm, args[1])
  return yield* target.Get(key, args.length < 3 ? target : args[2])
}

// https://tc39.es/ecma262/#sec-reflect.getownpropertydescriptor
function* Reflect_getOwnPropertyDescriptor(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const target = requireObject(args[0], "getOwnPropertyDescriptor")
  return FromPropertyDescriptor(realm, target.GetOwnProperty(yield* ToPropertyKey(realm, args[1])))
}

// https://tc39.es/ecma262/#sec-reflect.getprototypeof
const Reflect_getPrototypeOf = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  requireObject(args[0], "getPrototypeOf").GetPrototypeOf()

// https://tc39.es/ecma262/#sec-reflect.has
function* Reflect_has(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const target = requireObject(args[0], "has")
  return target.HasProperty(yield* ToPropertyKey(realm, args[1]))
}

// https://tc39.es/ecma262/#sec-reflect.isextensible
const Reflect_isExtensible = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  requireObject(args[0], "isExtensible").IsExtensible()

// https://tc39.es/ecma262/#sec-reflect.ownkeys
const Reflect_ownKeys = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  CreateArrayFromList(realm, requireObject(args[0], "ownKeys").OwnPropertyKeys())

// https://tc39.es/ecma262/#sec-reflect.preventextensions
const Reflect_preventExtensions = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value =>
  requireObject(args[0], "preventExtensions").PreventExtensions()

// https://tc39.es/ecma262/#sec-reflect.set
function* Reflect_set(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const target = requireObject(args[0], "set")
  const key = yield* ToPropertyKey(realm, args[1])
  return yield* target.Set(key, args[2], args.length < 4 ? target : args[3])
}

// https://tc39.es/ecma262/#sec-reflect.setprototypeof
const Reflect_setPrototypeOf = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const target = requireObject(args[0], "setPrototypeOf")
  const proto = args[1]
  if (!(proto instanceof JSObject) && proto !== null) return throwTypeError("Object prototype may only be an Object or null: " + String(proto))
  return target.SetPrototypeOf(proto)
}

export const install = (realm: Realm): void => {
  const Reflect = new JSObject(realm.ObjectPrototype)
  realm.register("%Reflect%", Reflect)
  realm.globalObject.properties.set("Reflect", Property.data(Reflect, true, false, true))
  defineMethods(realm, Reflect, "%Reflect%", [
    ["apply", Reflect_apply, 3],
    ["construct", Reflect_construct, 2],
    ["defineProperty", Reflect_defineProperty, 3],
    ["deleteProperty", Reflect_deleteProperty, 2],
    ["get", Reflect_get, 2],
    ["getOwnPropertyDescriptor", Reflect_getOwnPropertyDescriptor, 2],
    ["getPrototypeOf", Reflect_getPrototypeOf, 1],
    ["has", Reflect_has, 2],
    ["isExtensible", Reflect_isExtensible, 1],
    ["ownKeys", Reflect_ownKeys, 1],
    ["preventExtensions", Reflect_preventExtensions, 1],
    ["set", Reflect_set, 3],
    ["setPrototypeOf", Reflect_setPrototypeOf, 2],
  ])
  defineValues(Reflect, [[WellKnownSymbols.toStringTag, "Reflect"]], { writable: false, enumerable: false, configurable: true })
}
