/**
 * Function objects (https://tc39.es/ecma262/#sec-function-objects): the %Function% constructor and
 * %Function.prototype%'s apply, bind, call, toString and [Symbol.hasInstance], plus %ThrowTypeError% behind the
 * restricted `caller`/`arguments` accessors.
 *
 * codemode never compiles source text at run time: `Function(...)` and `eval` go through
 * `HostEnsureCanCompileStrings`, which refuses with V8's EvalError. apply and call never call natively: they are
 * Tasks that hand the call to the engine (`yield* Call`). Function.prototype.toString prints `[native code]` for
 * built-ins and bound functions, and for program functions the source text the engine recorded
 * (`realm.host.functionSourceText`), if any.
 */
import { CreateBuiltinFunction, defineConstructor, defineMethods } from "../runtime/builtin.ts"
import { SandboxError, throwTypeError } from "../runtime/completion.ts"
import { checkArgumentCount } from "../runtime/caps.ts"
import { IntegerOrInfinity } from "../runtime/conversions.ts"
import { BoundFunction, IsCallable, NativeFunction, ScriptFunction } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, describeValue, LengthOfArrayLike, OrdinaryHasInstance } from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { type Value, WellKnownSymbols } from "../runtime/value.ts"

/**
 * https://tc39.es/ecma262/#sec-hostensurecancompilestrings — codemode's answer is always no: programs cannot turn
 * strings into code (`Function`, `eval`, the GeneratorFunction/AsyncFunction constructors).
 */
export const HostEnsureCanCompileStrings = (_realm: Realm): never => {
  throw new SandboxError("EvalError", "Code generation from strings disallowed for this context")
}

// https://tc39.es/ecma262/#sec-function-p1-p2-pn-body — CreateDynamicFunction stops at HostEnsureCanCompileStrings.
const Function_constructor = (realm: Realm): Value => HostEnsureCanCompileStrings(realm)

const notAFunction = (method: string, v: Value): never =>
  throwTypeError(`Function.prototype.${method} was called on ${describeValue(v)}, which is ${v === null ? "null" : typeof v === "object" ? "an object" : `a ${typeof v}`} and not a function`)

// https://tc39.es/ecma262/#sec-function.prototype.apply
function* FunctionProto_apply(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const func = thisArg
  if (!IsCallable(func)) return notAFunction("apply", func)
  const argArray = args[1]
  if (argArray === undefined || argArray === null) return yield* Call(func, args[0], [])
  // https://tc39.es/ecma262/#sec-createlistfromarraylike
  if (!(argArray instanceof JSObject)) return throwTypeError("CreateListFromArrayLike called on non-object")
  const len = yield* LengthOfArrayLike(realm, argArray)
  // NON-SPEC: an argument list longer than any call takes is refused before it is built, as V8 refuses it.
  checkArgumentCount(len)
  const argList: Value[] = []
  for (let i = 0; i < len; i++) argList.push(yield* argArray.Get(String(i), argArray))
  return yield* Call(func, args[0], argList)
}

// https://tc39.es/ecma262/#sec-function.prototype.call
function* FunctionProto_call(_realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  if (!IsCallable(thisArg)) return notAFunction("call", thisArg)
  return yield* Call(thisArg, args[0], args.slice(1))
}

// https://tc39.es/ecma262/#sec-function.prototype.bind
function* FunctionProto_bind(_realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const Target = thisArg
  if (!IsCallable(Target)) return throwTypeError("Bind must be called on a function")
  // https://tc39.es/ecma262/#sec-boundfunctioncreate
  const F = new BoundFunction(Target.GetPrototypeOf(), Target, args[0], args.slice(1))
  const argCount = Math.max(args.length - 1, 0)
  let L = 0
  if (Target.GetOwnProperty("length") !== undefined) {
    const targetLen = yield* Target.Get("length", Target)
    if (typeof targetLen === "number") {
      if (targetLen === Infinity) L = Infinity
      else if (targetLen !== -Infinity) L = Math.max(IntegerOrInfinity(targetLen) - argCount, 0)
    }
  }
  F.properties.set("length", Property.data(L, false, false, true))
  let targetName = yield* Target.Get("name", Target)
  if (typeof targetName !== "string") targetName = ""
  F.properties.set("name", Property.data(`bound ${targetName}`, false, false, true))
  return F
}

/** The name a function was created with, as toString shows it (a data `name`, else ""). */
const initialName = (f: JSObject): string => {
  const p = f.GetOwnProperty("name")
  return p !== undefined && !p.accessor && typeof p.value === "string" ? p.value : ""
}

// https://tc39.es/ecma262/#sec-function.prototype.tostring
const FunctionProto_toString = (realm: Realm, thisArg: Value): Value => {
  const func = thisArg
  if (func instanceof ScriptFunction) {
    const text = realm.host.functionSourceText?.(func)
    if (text !== undefined) return text
    return `function ${initialName(func)}() { [native code] }`
  }
  if (func instanceof NativeFunction) return `function ${initialName(func)}() { [native code] }`
  if (func instanceof BoundFunction || IsCallable(func)) return "function () { [native code] }"
  return throwTypeError("Function.prototype.toString requires that 'this' be a Function")
}

// https://tc39.es/ecma262/#sec-function.prototype-%symbol.hasinstance%
function* FunctionProto_hasInstance(_realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  return yield* OrdinaryHasInstance(thisArg, args[0])
}

// https://tc39.es/ecma262/#sec-%throwtypeerror%
const ThrowTypeError = (): Value =>
  throwTypeError("'caller', 'callee', and 'arguments' properties may not be accessed on strict mode functions or the arguments objects for calls to them")

export const install = (realm: Realm): void => {
  const proto = realm.FunctionPrototype
  const thrower = CreateBuiltinFunction(realm, "ThrowTypeError", ThrowTypeError, 0, "")
  thrower.extensible = false
  thrower.properties.get("length")!.configurable = false
  thrower.properties.get("name")!.configurable = false
  realm.register("%ThrowTypeError%", thrower)
  proto.properties.set("arguments", Property.accessorOf(thrower, thrower, false, true))
  proto.properties.set("caller", Property.accessorOf(thrower, thrower, false, true))
  defineConstructor(realm, "Function", Function_constructor, 1, proto)
  defineMethods(realm, proto, "%Function.prototype%", [
    ["apply", FunctionProto_apply, 2],
    ["bind", FunctionProto_bind, 1],
    ["call", FunctionProto_call, 1],
    ["toString", FunctionProto_toString, 0],
    [WellKnownSymbols.hasInstance, FunctionProto_hasInstance, 1],
  ])
  // Function.prototype[@@hasInstance] is { [[Writable]]: false, [[Enumerable]]: false, [[Configurable]]: false }.
  const hasInstance = proto.properties.get(WellKnownSymbols.hasInstance)!
  hasInstance.writable = false
  hasInstance.configurable = false
}
