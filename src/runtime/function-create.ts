/**
 * Creating and entering ECMAScript function objects, for both engines: OrdinaryFunctionCreate with MakeConstructor
 * or the generator prototype (https://tc39.es/ecma262/#sec-ordinaryfunctioncreate), SetFunctionName, the arguments
 * object, the `this` a call binds (OrdinaryCallBindThis) and the object a base constructor allocates
 * (OrdinaryCreateFromConstructor), and the generator object a generator call returns. What a function *is* —
 * its role, kind, strictness, `length` and inferred name — is a static decision (`FunctionShape`) each engine
 * carries in its own code object (the VM's CodeObject, the tree-walker's FunctionCode); the engine-owned code
 * and environment are stored as given.
 */
import { chargeMemory, Cost } from "./memory.ts"
import type { FunctionKindName, FunctionRole } from "../language/static-semantics.ts"
import { MappedArgumentsObject, type ParameterEnvironment, UNMAPPED } from "./arguments-object.ts"
import { throwTypeError } from "./completion.ts"
import { ToObject } from "./conversions.ts"
import { ScriptFunction } from "./function-object.ts"
import { GeneratorObject } from "./generator.ts"
import { JSObject, PrivateName } from "./object.ts"
import { Property } from "./property.ts"
import type { Realm } from "./realm.ts"
import { type PropertyKey, SymbolValue, type Value, WellKnownSymbols } from "./value.ts"

/** What the spec needs to know about a function's code to create a function object for it. */
export interface FunctionShape {
  readonly role: FunctionRole
  readonly functionKind: FunctionKindName
  readonly strict: boolean
  /** `length`: parameters before the first default or rest. */
  readonly length: number
  /** The name inferred at compile time ("" if anonymous); computed keys name at run time. */
  readonly name: string
}

const PROTOTYPE_FOR_KIND = {
  normal: "%Function.prototype%",
  generator: "%GeneratorFunction.prototype%",
  async: "%AsyncFunction.prototype%",
  asyncGenerator: "%AsyncGeneratorFunction.prototype%",
} as const

/** OrdinaryFunctionCreate + MakeConstructor / generator prototype, for a closure of `code` over `env`. */
export const MakeFunction = (realm: Realm, code: FunctionShape, env: unknown, proto?: JSObject): ScriptFunction => {
  const role = code.role
  const kind = code.functionKind
  const constructable = kind === "normal" && (role === "function" || role === "classConstructor" || role === "derivedConstructor")
  // The program body is called with the global object as `this` (a script's), not coerced.
  const thisMode = role === "arrow" ? "lexical" : code.strict || role === "program" ? "strict" : "global"
  const F = new ScriptFunction(proto ?? realm.intrinsic(PROTOTYPE_FOR_KIND[kind]), code, env, kind, thisMode, code.strict, constructable)
  F.properties.set("length", Property.data(code.length, false, false, true))
  F.properties.set("name", Property.data(code.name, false, false, true))
  if (role === "function" && kind === "normal") {
    if (!code.strict) {
      // V8 gives sloppy plain functions own `arguments` and `caller` (null).
      F.properties.set("arguments", Property.data(null, false, false, false))
      F.properties.set("caller", Property.data(null, false, false, false))
    }
    const prototype = new JSObject(realm.ObjectPrototype)
    prototype.properties.set("constructor", Property.data(F, true, false, true))
    F.properties.set("prototype", Property.data(prototype, true, false, false))
  } else if (kind === "generator" || kind === "asyncGenerator") {
    const prototype = new JSObject(realm.intrinsic(kind === "generator" ? "%GeneratorPrototype%" : "%AsyncGeneratorPrototype%"))
    F.properties.set("prototype", Property.data(prototype, true, false, false))
  }
  return F
}

/** https://tc39.es/ecma262/#sec-setfunctionname */
export const SetFunctionName = (F: JSObject, key: PropertyKey | PrivateName, prefix?: string): void => {
  let name = key instanceof SymbolValue ? (key.description === undefined ? "" : `[${key.description}]`) : key instanceof PrivateName ? key.description : key
  if (prefix !== undefined) name = `${prefix} ${name}`
  F.properties.set("name", Property.data(name, false, false, true))
}

/**
 * The arguments object of a call (https://tc39.es/ecma262/#sec-createunmappedargumentsobject): unmapped without
 * `mapping`; with it, mapped (https://tc39.es/ecma262/#sec-createmappedargumentsobject), for a sloppy function with
 * a simple parameter list — `mapping.slots[i]` is the slot in `mapping.env` of the parameter that index i aliases
 * (see FunctionInfo.mappedParameters in language/scope.ts).
 */
export const CreateArgumentsObject = (
  realm: Realm,
  args: ReadonlyArray<Value>,
  callee: JSObject | undefined,
  strict: boolean,
  mapping?: { readonly env: ParameterEnvironment; readonly slots: ReadonlyArray<number> },
): JSObject => {
  let obj: JSObject
  // Only indices below the argument count alias a parameter; with none (no parameters, or no argument for them),
  // the mapped object would behave as the ordinary one, and there may be no parameter environment at all.
  const parameterMap = mapping === undefined ? [] : args.map((_, i) => mapping.slots[i] ?? UNMAPPED)
  if (mapping === undefined || parameterMap.every((slot) => slot === UNMAPPED)) {
    obj = new JSObject(realm.ObjectPrototype)
    obj.kind = "Arguments"
  } else {
    obj = new MappedArgumentsObject(realm.ObjectPrototype, mapping.env, parameterMap)
  }
  chargeMemory(Cost.property * args.length)
  args.forEach((v, i) => obj.properties.set(String(i), Property.data(v)))
  obj.properties.set("length", Property.data(args.length, true, false, true))
  const values = realm.findIntrinsic("%Array.prototype.values%")
  if (values !== undefined) obj.properties.set(WellKnownSymbols.iterator, Property.data(values, true, false, true))
  if (strict || callee === undefined) {
    const thrower = realm.findIntrinsic("%ThrowTypeError%")
    if (thrower !== undefined) obj.properties.set("callee", Property.accessorOf(thrower, thrower, false, false))
  } else {
    obj.properties.set("callee", Property.data(callee, true, false, true))
  }
  return obj
}

/** [[Call]] of a class constructor throws (https://tc39.es/ecma262/#sec-ecmascript-function-objects-call-thisargument-argumentslist step 2). */
export const CheckNotClassConstructorCall = (f: ScriptFunction): void => {
  if (f.isClassConstructor) throwTypeError(`Class constructor ${(f.code as FunctionShape).name} cannot be invoked without 'new'`)
}

/** https://tc39.es/ecma262/#sec-ordinarycallbindthis — the `this` a [[Call]] of `f` sees. */
export const OrdinaryCallBindThis = (realm: Realm, f: ScriptFunction, thisArg: Value): Value =>
  f.thisMode === "global" ? (thisArg === undefined || thisArg === null ? realm.globalObject : ToObject(realm, thisArg)) : thisArg

/**
 * The `this` of [[Construct]] of a base constructor: OrdinaryCreateFromConstructor(newTarget, "%Object.prototype%").
 * newTarget is a constructor, whose "prototype" is a non-configurable data property or absent, so no user code runs.
 */
export const OrdinaryCreateThisForConstruct = (realm: Realm, newTarget: JSObject): JSObject => {
  const p = newTarget.lookup("prototype")
  return new JSObject(p !== undefined && !p.accessor && p.value instanceof JSObject ? p.value : realm.ObjectPrototype)
}

/** The generator object a call of generator function `f` returns (OrdinaryCreateFromConstructor on f.prototype). */
export const CreateGeneratorObject = (realm: Realm, f: ScriptFunction, isAsync: boolean): GeneratorObject => {
  const p = f.lookup("prototype")
  const proto = p !== undefined && !p.accessor && p.value instanceof JSObject ? p.value : realm.intrinsic(isAsync ? "%AsyncGeneratorPrototype%" : "%GeneratorPrototype%")
  return new GeneratorObject(proto, isAsync ? "AsyncGenerator" : "Generator")
}
