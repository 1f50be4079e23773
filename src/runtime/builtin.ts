/**
 * Creating built-ins. `CreateBuiltinFunction` makes a NativeFunction with the spec's `length` and `name`
 * properties; `defineMethods`/`defineAccessors`/`defineValues` install a table of rows with the spec's default
 * attributes (methods writable+configurable, not enumerable; constants not writable) in one place, so an
 * intrinsics file reads like the spec's property list. Every function installed this way is registered under its
 * spec path ("%Array.prototype.map%") for snapshots.
 */
import { NativeFunction, type NativeImpl } from "./function-object.ts"
import { JSObject } from "./object.ts"
import { Property } from "./property.ts"
import type { Realm } from "./realm.ts"
import { type PropertyKey, SymbolValue, type Value } from "./value.ts"

/** The `name` a built-in gets for key P (https://tc39.es/ecma262/#sec-setfunctionname). */
export const functionNameOf = (P: PropertyKey, prefix?: string): string => {
  const base = P instanceof SymbolValue ? (P.description === undefined ? "" : `[${P.description}]`) : P
  return prefix === undefined ? base : `${prefix} ${base}`
}

// https://tc39.es/ecma262/#sec-createbuiltinfunction
export const CreateBuiltinFunction = (
  realm: Realm,
  nativeId: string,
  impl: NativeImpl,
  length: number,
  name: string,
  options?: { readonly isConstructor?: boolean; readonly proto?: JSObject },
): NativeFunction => {
  const f = new NativeFunction(options?.proto ?? realm.FunctionPrototype, nativeId, impl, options?.isConstructor ?? false)
  f.properties.set("length", Property.data(length, false, false, true))
  f.properties.set("name", Property.data(name, false, false, true))
  return f
}

/** A key's segment in an intrinsic path: `map`, `[Symbol.iterator]`. */
const pathSegment = (P: PropertyKey): string => (P instanceof SymbolValue ? `[${P.description ?? ""}]` : P)

/** Strips the `%...%` of an intrinsic name to build child paths. */
const bare = (ownerName: string): string => ownerName.replace(/^%|%$/g, "")

export type MethodRow = readonly [key: PropertyKey, impl: NativeImpl, length: number]

/** Installs methods (writable, configurable, not enumerable) on `target`, named `%<owner>.<key>%`. */
export const defineMethods = (realm: Realm, target: JSObject, ownerName: string, rows: ReadonlyArray<MethodRow>): void => {
  const owner = bare(ownerName)
  for (const [key, impl, length] of rows) {
    const id = `${owner}.${pathSegment(key)}`
    const f = CreateBuiltinFunction(realm, id, impl, length, functionNameOf(key))
    realm.register(`%${id}%`, f)
    target.properties.set(key, Property.data(f, true, false, true))
  }
}

export type AccessorRow = readonly [key: PropertyKey, get: NativeImpl | undefined, set: NativeImpl | undefined]

/** Installs accessor properties (configurable, not enumerable). */
export const defineAccessors = (
  realm: Realm,
  target: JSObject,
  ownerName: string,
  rows: ReadonlyArray<AccessorRow>,
): void => {
  const owner = bare(ownerName)
  for (const [key, get, set] of rows) {
    const id = `${owner}.${pathSegment(key)}`
    const g = get && CreateBuiltinFunction(realm, `${id}[get]`, get, 0, functionNameOf(key, "get"))
    const s = set && CreateBuiltinFunction(realm, `${id}[set]`, set, 1, functionNameOf(key, "set"))
    if (g) realm.register(`%${id}[get]%`, g)
    if (s) realm.register(`%${id}[set]%`, s)
    target.properties.set(key, Property.accessorOf(g, s, false, true))
  }
}

/** Installs data values with explicit attributes; the default is the constants' (none writable). */
export const defineValues = (
  target: JSObject,
  rows: ReadonlyArray<readonly [key: PropertyKey, value: Value]>,
  attributes: { writable: boolean; enumerable: boolean; configurable: boolean } = {
    writable: false,
    enumerable: false,
    configurable: false,
  },
): void => {
  for (const [key, value] of rows) {
    target.properties.set(key, Property.data(value, attributes.writable, attributes.enumerable, attributes.configurable))
  }
}

/**
 * Creates a constructor and its prototype, links them (`prototype` / `constructor`), registers both
 * (`%Name%`, `%Name.prototype%`) and installs the constructor on the global object.
 */
export const defineConstructor = (
  realm: Realm,
  name: string,
  impl: NativeImpl,
  length: number,
  prototype: JSObject,
  options?: { readonly proto?: JSObject; readonly global?: boolean },
): NativeFunction => {
  const C = CreateBuiltinFunction(
    realm,
    name,
    impl,
    length,
    name,
    options?.proto === undefined ? { isConstructor: true } : { isConstructor: true, proto: options.proto },
  )
  C.properties.set("prototype", Property.data(prototype, false, false, false))
  prototype.properties.set("constructor", Property.data(C, true, false, true))
  realm.register(`%${name}%`, C)
  realm.register(`%${name}.prototype%`, prototype)
  if (options?.global !== false) realm.globalObject.properties.set(name, Property.data(C, true, false, true))
  return C
}

/** A fresh ordinary object with the given prototype (https://tc39.es/ecma262/#sec-ordinaryobjectcreate). */
export const OrdinaryObjectCreate = (proto: JSObject | null): JSObject => new JSObject(proto)

/**
 * Built-in closures a run creates as it goes (promise resolving functions, capability executors...), by id.
 * Filled once at module load by the modules that define them, never afterwards: snapshots restore such a
 * function from its id and slots.
 */
export const NativeClosures = new Map<string, NativeImpl>()

/** Declares a built-in closure kind; returns a maker for functions of that kind. */
export const defineNativeClosure = (id: string, impl: NativeImpl, length: number) => {
  if (NativeClosures.has(id)) throw new Error(`codemode bug: native closure ${id} defined twice`)
  NativeClosures.set(id, impl)
  return (realm: Realm, slots: NativeFunction["slots"], name = ""): NativeFunction => {
    const f = CreateBuiltinFunction(realm, id, impl, length, name)
    f.slots = slots
    return f
  }
}
