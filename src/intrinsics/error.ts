/**
 * Error objects (https://tc39.es/ecma262/#sec-error-objects): %Error%, the NativeError constructors (EvalError,
 * RangeError, ReferenceError, SyntaxError, TypeError, URIError), %AggregateError%, %SuppressedError%, and Error.prototype's name,
 * message and toString. Every error, made by `new Error(...)` or raised by the runtime (CreateErrorObject), is an
 * `ErrorObject` with the same own properties in V8's order: `stack`, `message`, then `cause` / `errors`.
 *
 * `stack` follows V8 (runtime/errors.ts): a shared accessor pair (`%ErrorStack[get]%` / `%ErrorStack[set]%`)
 * formats "Name: message\n    at <program>" from the error's current name and message on first read.
 * `Error.captureStackTrace` (a V8 extension LLM code calls) sets a formatted `stack` on any object and captures
 * nothing else; `Error.stackTraceLimit` is a plain writable number as in V8.
 */
import { CreateBuiltinFunction, defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { type ErrorType, throwTypeError } from "../runtime/completion.ts"
import { ToString } from "../runtime/conversions.ts"
import { ErrorObject, InstallErrorStack, STACK_FRAMES } from "../runtime/errors.ts"
import type { NativeFunction, NativeImpl } from "../runtime/function-object.ts"
import { IterableToList } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import {
  CreateArrayFromList,
  CreateNonEnumerableDataPropertyOrThrow,
  describeValue,
  GetPrototypeFromConstructor,
} from "../runtime/operations.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { Value } from "../runtime/value.ts"

// https://tc39.es/ecma262/#sec-installerrorcause
function* InstallErrorCause(O: JSObject, options: Value): Task<void> {
  if (options instanceof JSObject && options.HasProperty("cause")) {
    const cause = yield* options.Get("cause", options)
    CreateNonEnumerableDataPropertyOrThrow(O, "cause", cause)
  }
}

/** Steps 1-4 shared by Error and the NativeErrors: the new ErrorObject with its `stack` and `message`. */
function* CreateFromErrorConstructor(
  realm: Realm,
  type: string,
  message: Value,
  newTarget: JSObject | undefined,
  self: NativeFunction,
): Task<ErrorObject> {
  // 1. If NewTarget is undefined, let newTarget be the active function object.
  const proto = yield* GetPrototypeFromConstructor(realm, newTarget ?? self, `%${type}.prototype%`)
  const O = new ErrorObject(proto, realm.host.currentLocation())
  InstallErrorStack(realm, O, type)
  if (message !== undefined) {
    const msg = typeof message === "string" ? message : yield* ToString(realm, message)
    CreateNonEnumerableDataPropertyOrThrow(O, "message", msg)
  }
  return O
}

/** https://tc39.es/ecma262/#sec-error-message and https://tc39.es/ecma262/#sec-nativeerror */
const makeErrorConstructor = (type: string): NativeImpl =>
  function* Error_constructor(realm, _this, args, newTarget, self) {
    const O = yield* CreateFromErrorConstructor(realm, type, args[0], newTarget, self)
    yield* InstallErrorCause(O, args[1])
    return O
  }

// https://tc39.es/ecma262/#sec-aggregate-error
function* AggregateError_constructor(
  realm: Realm,
  _this: Value,
  args: ReadonlyArray<Value>,
  newTarget: JSObject | undefined,
  self: NativeFunction,
): Task<Value> {
  const O = yield* CreateFromErrorConstructor(realm, "AggregateError", args[1], newTarget, self)
  yield* InstallErrorCause(O, args[2])
  const errorsList = yield* IterableToList(realm, args[0])
  CreateNonEnumerableDataPropertyOrThrow(O, "errors", CreateArrayFromList(realm, errorsList))
  return O
}

// https://tc39.es/proposal-explicit-resource-management/#sec-suppressederror-constructor
function* SuppressedError_constructor(
  realm: Realm,
  _this: Value,
  args: ReadonlyArray<Value>,
  newTarget: JSObject | undefined,
  self: NativeFunction,
): Task<Value> {
  const O = yield* CreateFromErrorConstructor(realm, "SuppressedError", args[2], newTarget, self)
  CreateNonEnumerableDataPropertyOrThrow(O, "error", args[0])
  CreateNonEnumerableDataPropertyOrThrow(O, "suppressed", args[1])
  return O
}

/** ToString of a name/message read for formatting, undefined mapped to `fallback` (Error.prototype.toString steps 3-6). */
function* toStringOr(realm: Realm, v: Value, fallback: string): Task<string> {
  if (v === undefined) return fallback
  return typeof v === "string" ? v : yield* ToString(realm, v)
}

/** The "Name: message" head of Error.prototype.toString and of `stack`. */
function* ErrorHeader(realm: Realm, O: JSObject): Task<string> {
  const name = yield* toStringOr(realm, yield* O.Get("name", O), "Error")
  const msg = yield* toStringOr(realm, yield* O.Get("message", O), "")
  if (name === "") return msg
  if (msg === "") return name
  return `${name}: ${msg}`
}

// https://tc39.es/ecma262/#sec-error.prototype.tostring
function* ErrorProto_toString(realm: Realm, thisArg: Value): Task<Value> {
  if (!(thisArg instanceof JSObject)) {
    return throwTypeError(`Method Error.prototype.toString called on incompatible receiver ${describeValue(thisArg)}`)
  }
  return yield* ErrorHeader(realm, thisArg)
}

/** The value of `stack` for inspection without running user code (name/message read as data only). */
export const errorStackText = (e: ErrorObject): Value => {
  if (e.stack !== undefined) return e.stack.value
  const data = (key: string, fallback: string): string => {
    const p = e.lookup(key)
    return p !== undefined && !p.accessor && typeof p.value === "string" ? p.value : fallback
  }
  const name = data("name", "Error")
  const msg = data("message", "")
  const header = name === "" ? msg : msg === "" ? name : `${name}: ${msg}`
  return header + STACK_FRAMES
}

/** V8's `stack` getter: formats once from the current name and message, then returns what it stored. */
function* ErrorStack_get(realm: Realm, thisArg: Value): Task<Value> {
  if (!(thisArg instanceof ErrorObject)) return undefined
  if (thisArg.stack === undefined) {
    const header = yield* ErrorHeader(realm, thisArg)
    // The header may have run user code that already read or set the stack.
    if (thisArg.stack === undefined) thisArg.stack = { value: header + STACK_FRAMES }
  }
  return thisArg.stack.value
}

const ErrorStack_set: NativeImpl = (_realm, thisArg, args) => {
  if (thisArg instanceof ErrorObject) thisArg.stack = { value: args[0] }
  else if (thisArg instanceof JSObject) thisArg.DefineOwnProperty("stack", { value: args[0], writable: true, enumerable: true, configurable: true })
  return undefined
}

/**
 * NON-SPEC (V8 extension): Error.captureStackTrace(targetObject) gives the object a `stack` of its own. Nothing is
 * captured (codemode reports no frames); the second argument is ignored.
 */
function* Error_captureStackTrace(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = args[0]
  if (!(O instanceof JSObject)) return throwTypeError(`Invalid argument`)
  if (O instanceof ErrorObject) {
    O.stack = undefined
    InstallErrorStack(realm, O, "")
    return undefined
  }
  const header = yield* ErrorHeader(realm, O)
  if (!O.DefineOwnProperty("stack", { value: header + STACK_FRAMES, writable: true, enumerable: false, configurable: true })) {
    return throwTypeError("Cannot redefine property: stack")
  }
  return undefined
}

// https://tc39.es/proposal-is-error/ — true for objects with [[ErrorData]].
const Error_isError = (_realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => args[0] instanceof ErrorObject

const NATIVE_ERRORS: ReadonlyArray<ErrorType> = ["EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"]

export const install = (realm: Realm): void => {
  // The shared `stack` accessor pair (V8 has one pair for every error; their name is "").
  realm.register("%ErrorStack[get]%", CreateBuiltinFunction(realm, "ErrorStack[get]", ErrorStack_get, 0, ""))
  realm.register("%ErrorStack[set]%", CreateBuiltinFunction(realm, "ErrorStack[set]", ErrorStack_set, 1, ""))

  const ErrorPrototype = new JSObject(realm.ObjectPrototype)
  const ErrorCtor = defineConstructor(realm, "Error", makeErrorConstructor("Error"), 1, ErrorPrototype)
  defineMethods(realm, ErrorCtor, "%Error%", [
    ["captureStackTrace", Error_captureStackTrace, 2],
    ["isError", Error_isError, 1],
  ])
  defineValues(ErrorCtor, [["stackTraceLimit", 10]], { writable: true, enumerable: true, configurable: true })
  defineValues(
    ErrorPrototype,
    [
      ["name", "Error"],
      ["message", ""],
    ],
    { writable: true, enumerable: false, configurable: true },
  )
  defineMethods(realm, ErrorPrototype, "%Error.prototype%", [["toString", ErrorProto_toString, 0]])

  const makeNative = (type: string, impl: NativeImpl, length: number): void => {
    const proto = new JSObject(ErrorPrototype)
    defineConstructor(realm, type, impl, length, proto, { proto: ErrorCtor })
    defineValues(
      proto,
      [
        ["name", type],
        ["message", ""],
      ],
      { writable: true, enumerable: false, configurable: true },
    )
  }
  for (const type of NATIVE_ERRORS) makeNative(type, makeErrorConstructor(type), 1)
  makeNative("AggregateError", AggregateError_constructor, 2)
  makeNative("SuppressedError", SuppressedError_constructor, 3)
}
