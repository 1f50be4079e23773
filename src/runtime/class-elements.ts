/**
 * Classes at run time, for both engines (https://tc39.es/ecma262/#sec-runtime-semantics-classdefinitionevaluation):
 * the constructor and prototype a class definition creates from its heritage, methods and accessors (public and
 * private, static and instance), private names (PrivateGet, PrivateSet, PrivateFieldAdd,
 * PrivateMethodOrAccessorAdd), InitializeInstanceElements, and the parent constructor `super(...)` calls. What
 * the class's elements are, and in which order they are evaluated, the engines read from the AST.
 */
import { throwTypeError } from "./completion.ts"
import { SetFunctionName } from "./function-create.ts"
import { IsConstructor, type ScriptFunction } from "./function-object.ts"
import { JSObject, type PrivateElement, PrivateName } from "./object.ts"
import { Call, CreateDataPropertyOrThrow, DefinePropertyOrThrow, describeValue } from "./operations.ts"
import { Property } from "./property.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import { tdzError } from "./references.ts"
import { EMPTY, type Empty, type PropertyKey, type Value } from "./value.ts"

/** A method definition's kind (the low bits of the VM's DefineMethod / ClassPrivateMethod flags). */
export const MethodKind = { Method: 0, Getter: 1, Setter: 2 } as const
export type MethodKind = (typeof MethodKind)[keyof typeof MethodKind]

const prefixOf = (kind: number): string | undefined => (kind === MethodKind.Getter ? "get" : kind === MethodKind.Setter ? "set" : undefined)

/** ClassHeritage evaluation: the superclass must be null or a constructor. */
export const CheckClassHeritage = (superclass: Value): void => {
  if (superclass !== null && !IsConstructor(superclass)) throwTypeError(`Class extends value ${describeValue(superclass)} is not a constructor or null`)
}

/**
 * Steps 8-18 of ClassDefinitionEvaluation: the prototype (from the heritage's "prototype", `protoParent`) and the
 * constructor `makeConstructor` creates with the given [[Prototype]], linked to each other.
 */
export const ClassCreate = (
  realm: Realm,
  derived: boolean,
  superclass: Value,
  protoParent: Value,
  makeConstructor: (ctorParent: JSObject) => ScriptFunction,
): { readonly F: ScriptFunction; readonly proto: JSObject } => {
  let protoP: JSObject | null = realm.ObjectPrototype
  let ctorParent: JSObject = realm.FunctionPrototype
  if (derived && superclass !== null) {
    if (!(protoParent instanceof JSObject) && protoParent !== null) {
      throwTypeError(`Class extends value does not have valid prototype property ${describeValue(protoParent)}`)
    }
    protoP = protoParent as JSObject | null
    ctorParent = superclass as JSObject
  } else if (derived) protoP = null
  const proto = new JSObject(protoP)
  const F = makeConstructor(ctorParent)
  F.isClassConstructor = true
  F.constructorKind = derived ? "derived" : "base"
  F.homeObject = proto
  F.properties.set("prototype", Property.data(proto, false, false, false))
  proto.properties.set("constructor", Property.data(F, true, false, true))
  return { F, proto }
}

/** DefineMethodProperty with MakeMethod and SetFunctionName: a method, getter or setter of an object or class. */
export const DefineMethodProperty = (obj: JSObject, key: PropertyKey, fn: ScriptFunction, kind: number, enumerable: boolean): void => {
  fn.homeObject = obj
  SetFunctionName(fn, key, prefixOf(kind))
  if (kind === MethodKind.Method) DefinePropertyOrThrow(obj, key, { value: fn, writable: true, enumerable, configurable: true })
  else if (kind === MethodKind.Getter) DefinePropertyOrThrow(obj, key, { get: fn, enumerable, configurable: true })
  else DefinePropertyOrThrow(obj, key, { set: fn, enumerable, configurable: true })
}

/** A private method or accessor: recorded on the class for its instances, or added to the class itself (static). */
export const DefinePrivateMethod = (F: ScriptFunction, P: PrivateName, fn: ScriptFunction, kind: number, isStatic: boolean): void => {
  fn.homeObject = isStatic ? F : (F.properties.get("prototype")?.value as JSObject)
  SetFunctionName(fn, P, prefixOf(kind))
  const get = kind === MethodKind.Getter ? fn : undefined
  const set = kind === MethodKind.Setter ? fn : undefined
  if (isStatic) {
    const existing = F.privateElements?.get(P)
    if (kind === MethodKind.Method) PrivateElementAdd(F, P, { kind: "method", value: fn, get: undefined, set: undefined })
    else if (existing !== undefined && existing.kind === "accessor") {
      F.privateElements!.set(P, { kind: "accessor", value: undefined, get: get ?? existing.get, set: set ?? existing.set })
    } else PrivateElementAdd(F, P, { kind: "accessor", value: undefined, get, set })
    return
  }
  const i = F.privateMethods.findIndex((pm) => pm.name === P)
  if (kind === MethodKind.Method) F.privateMethods.push({ name: P, kind: "method", value: fn, get: undefined, set: undefined })
  else if (i >= 0) {
    const existing = F.privateMethods[i]!
    F.privateMethods[i] = { name: P, kind: "accessor", value: undefined, get: get ?? existing.get, set: set ?? existing.set }
  } else F.privateMethods.push({ name: P, kind: "accessor", value: undefined, get, set })
}

/** A derived constructor's result: an object it returned, else its `this` once `super()` bound it. */
export const DerivedConstructorResult = (v: Value, thisValue: Value | Empty): Value => {
  if (v instanceof JSObject) return v
  if (v !== undefined) return throwTypeError("Derived constructors may only return object or undefined")
  if (thisValue === EMPTY) return tdzError("this")
  return thisValue
}

const privateNotDeclared = (P: PrivateName, verb: "read" | "write"): never =>
  throwTypeError(`Cannot ${verb} private member ${P.description} from an object whose class did not declare it`)

/** https://tc39.es/ecma262/#sec-privateget — the value, or the getter to call. */
export const PrivateGetFast = (O: Value, P: PrivateName): { readonly value: Value } | { readonly getter: JSObject } => {
  const entry = O instanceof JSObject ? O.privateElements?.get(P) : undefined
  if (entry === undefined) return privateNotDeclared(P, "read")
  if (entry.kind !== "accessor") return { value: entry.value }
  if (entry.get === undefined) return throwTypeError(`'${P.description}' was defined without a getter`)
  return { getter: entry.get }
}

/** https://tc39.es/ecma262/#sec-privateset — done, or the setter to call. */
export const PrivateSetFast = (O: Value, P: PrivateName, value: Value): JSObject | undefined => {
  const entry = O instanceof JSObject ? O.privateElements?.get(P) : undefined
  if (entry === undefined) return privateNotDeclared(P, "write")
  if (entry.kind === "field") {
    entry.value = value
    return undefined
  }
  if (entry.kind === "method") return throwTypeError(`Private method '${P.description}' is not writable`)
  if (entry.set === undefined) return throwTypeError(`'${P.description}' was defined without a setter`)
  return entry.set
}

/** https://tc39.es/ecma262/#sec-privatefieldadd and PrivateMethodOrAccessorAdd. */
export const PrivateElementAdd = (O: Value, P: PrivateName, element: PrivateElement): void => {
  if (!(O instanceof JSObject)) return throwTypeError("Cannot add private members to a non-object")
  O.privateElements ??= new Map()
  if (O.privateElements.has(P)) {
    return throwTypeError(
      element.kind === "field" ? `Cannot initialize ${P.description} twice on the same object` : `Cannot initialize private methods of class twice on the same object`,
    )
  }
  O.privateElements.set(P, element)
}

// https://tc39.es/ecma262/#sec-initializeinstanceelements
export function* InitializeInstanceElements(O: Value, constructor: Value): Task<Value> {
  const F = constructor as ScriptFunction
  for (const m of F.privateMethods) {
    PrivateElementAdd(O, m.name, { kind: m.kind, value: m.value, get: m.get, set: m.set })
  }
  for (const field of F.fields) {
    const value = field.initializer === undefined ? undefined : yield* Call(field.initializer, O)
    if (field.name instanceof PrivateName) PrivateElementAdd(O, field.name, { kind: "field", value, get: undefined, set: undefined })
    else CreateDataPropertyOrThrow(O as JSObject, field.name, value)
  }
  return undefined
}

export const checkSuperConstructor = (func: Value): JSObject => {
  const parent = func instanceof JSObject ? func.GetPrototypeOf() : null
  if (!IsConstructor(parent)) throwTypeError(`Super constructor ${parent === null ? "null" : describeValue(parent)} of anonymous class is not a constructor`)
  return parent as JSObject
}
