/**
 * Type conversion (https://tc39.es/ecma262/#sec-type-conversion). Conversions that can reach user code through
 * `Symbol.toPrimitive`, `valueOf` or `toString` are Tasks; the `...Primitive` variants are for values already
 * known to be primitive and never run anything. Host `Number(string)` and `String(number)` implement
 * StringToNumber and Number::toString exactly, so they are used directly.
 */
import { PollCompare } from "./interrupt.ts"
import { SandboxError, throwRangeError, throwTypeError } from "./completion.ts"
import { JSObject } from "./object.ts"
import { PrimitiveWrapper } from "./primitive-wrapper.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import { type Primitive, type PropertyKey, SymbolValue, type Value, WellKnownSymbols } from "./value.ts"

export const isObject = (v: Value): v is JSObject => v instanceof JSObject

// https://tc39.es/ecma262/#sec-toprimitive
export function* ToPrimitive(realm: Realm, input: Value, preferredType?: "string" | "number"): Task<Primitive> {
  if (!(input instanceof JSObject)) return input
  const exoticToPrim = yield* GetMethodOf(realm, input, WellKnownSymbols.toPrimitive)
  if (exoticToPrim !== undefined) {
    const hint = preferredType ?? "default"
    const result = yield { kind: "call", f: exoticToPrim, thisArg: input, args: [hint] }
    if (!(result instanceof JSObject)) return result
    return throwTypeError("Cannot convert object to primitive value")
  }
  return yield* OrdinaryToPrimitive(realm, input, preferredType ?? "number")
}

// https://tc39.es/ecma262/#sec-ordinarytoprimitive
export function* OrdinaryToPrimitive(realm: Realm, O: JSObject, hint: "string" | "number"): Task<Primitive> {
  const methodNames = hint === "string" ? ["toString", "valueOf"] : ["valueOf", "toString"]
  for (const name of methodNames) {
    const method = yield* O.Get(name, O)
    if (method instanceof JSObject && method.isCallable()) {
      const result = yield { kind: "call", f: method, thisArg: O, args: [] }
      if (!(result instanceof JSObject)) return result
    }
  }
  void realm
  return throwTypeError("Cannot convert object to primitive value")
}

/** GetMethod without a dependency on operations.ts (which imports this module). */
function* GetMethodOf(realm: Realm, O: JSObject, P: PropertyKey): Task<JSObject | undefined> {
  void realm
  const func = yield* O.Get(P, O)
  if (func === undefined || func === null) return undefined
  if (!(func instanceof JSObject && func.isCallable())) return throwTypeError(`${String(describeKey(P))} is not a function`)
  return func
}

const describeKey = (P: PropertyKey): string => (P instanceof SymbolValue ? `Symbol(${P.description ?? ""})` : P)

// https://tc39.es/ecma262/#sec-toboolean
export const ToBoolean = (v: Value): boolean => {
  // Most often a comparison's result (a filter's or some's callback): answered before the class tests.
  if (typeof v === "boolean") return v
  if (v instanceof JSObject) return true
  if (v instanceof SymbolValue) return true
  return Boolean(v)
}

/** ToNumber of a primitive. */
export const ToNumberPrimitive = (v: Primitive): number => {
  if (typeof v === "number") return v
  if (v instanceof SymbolValue) return throwTypeError("Cannot convert a Symbol value to a number")
  if (typeof v === "bigint") return throwTypeError("Cannot convert a BigInt value to a number")
  return Number(v)
}

// https://tc39.es/ecma262/#sec-tonumber
export function* ToNumber(realm: Realm, v: Value): Task<number> {
  if (typeof v === "number") return v
  return ToNumberPrimitive(yield* ToPrimitive(realm, v, "number"))
}

// https://tc39.es/ecma262/#sec-tonumeric
export function* ToNumeric(realm: Realm, v: Value): Task<number | bigint> {
  if (typeof v === "number" || typeof v === "bigint") return v
  const prim = yield* ToPrimitive(realm, v, "number")
  if (typeof prim === "bigint") return prim
  return ToNumberPrimitive(prim)
}

/** ToString of a primitive. */
export const ToStringPrimitive = (v: Primitive): string => {
  if (typeof v === "string") return v
  if (v instanceof SymbolValue) return throwTypeError("Cannot convert a Symbol value to a string")
  return String(v)
}

// https://tc39.es/ecma262/#sec-tostring
export function* ToString(realm: Realm, v: Value): Task<string> {
  if (typeof v === "string") return v
  return ToStringPrimitive(yield* ToPrimitive(realm, v, "string"))
}

// https://tc39.es/ecma262/#sec-topropertykey
export function* ToPropertyKey(realm: Realm, v: Value): Task<PropertyKey> {
  PollCompare(v)
  if (typeof v === "string") return v
  if (v instanceof SymbolValue) return v
  const key = yield* ToPrimitive(realm, v, "string")
  if (key instanceof SymbolValue) return key
  return ToStringPrimitive(key)
}

/** ToPropertyKey of a primitive (no user code). */
export const ToPropertyKeyPrimitive = (v: Primitive): PropertyKey =>
  v instanceof SymbolValue ? v : typeof v === "string" ? v : String(v)

// https://tc39.es/ecma262/#sec-toobject
export const ToObject = (realm: Realm, v: Value): JSObject => {
  if (v instanceof JSObject) return v
  if (v === undefined || v === null) return throwTypeError(`Cannot convert undefined or null to object`)
  switch (typeof v) {
    case "boolean":
      return new PrimitiveWrapper(realm.intrinsic("%Boolean.prototype%"), "Boolean", v)
    case "number":
      return new PrimitiveWrapper(realm.intrinsic("%Number.prototype%"), "Number", v)
    case "string":
      return new PrimitiveWrapper(realm.intrinsic("%String.prototype%"), "String", v)
    case "bigint":
      return new PrimitiveWrapper(realm.intrinsic("%BigInt.prototype%"), "BigInt", v)
    default:
      return new PrimitiveWrapper(realm.intrinsic("%Symbol.prototype%"), "Symbol", v)
  }
}

/** The prototype a primitive's properties are looked up on, without allocating a wrapper. */
export const PrototypeForPrimitive = (realm: Realm, v: Primitive): JSObject => {
  if (v === undefined || v === null) return throwTypeError(`Cannot read properties of ${String(v)}`)
  switch (typeof v) {
    case "boolean":
      return realm.intrinsic("%Boolean.prototype%")
    case "number":
      return realm.intrinsic("%Number.prototype%")
    case "string":
      return realm.intrinsic("%String.prototype%")
    case "bigint":
      return realm.intrinsic("%BigInt.prototype%")
    default:
      return realm.intrinsic("%Symbol.prototype%")
  }
}

// https://tc39.es/ecma262/#sec-tointegerorinfinity
export function* ToIntegerOrInfinity(realm: Realm, v: Value): Task<number> {
  const n = typeof v === "number" ? v : yield* ToNumber(realm, v)
  return IntegerOrInfinity(n)
}

export const IntegerOrInfinity = (n: number): number => {
  if (n !== n || n === 0) return 0
  if (n === Infinity || n === -Infinity) return n
  return Math.trunc(n)
}

// https://tc39.es/ecma262/#sec-tolength
export function* ToLength(realm: Realm, v: Value): Task<number> {
  return LengthOfNumber(yield* ToIntegerOrInfinity(realm, v))
}

/** ToLength of a number. */
export const LengthOfNumber = (n: number): number => {
  const len = IntegerOrInfinity(n)
  if (len <= 0) return 0
  return Math.min(len, Number.MAX_SAFE_INTEGER)
}

// https://tc39.es/ecma262/#sec-toindex
export function* ToIndex(realm: Realm, v: Value): Task<number> {
  const integer = yield* ToIntegerOrInfinity(realm, v)
  if (integer < 0 || integer > Number.MAX_SAFE_INTEGER) return throwRangeError("Invalid index")
  return integer
}

export function* ToInt32(realm: Realm, v: Value): Task<number> {
  return (typeof v === "number" ? v : yield* ToNumber(realm, v)) | 0
}

export function* ToUint32(realm: Realm, v: Value): Task<number> {
  return (typeof v === "number" ? v : yield* ToNumber(realm, v)) >>> 0
}

// https://tc39.es/ecma262/#sec-tobigint
export function* ToBigInt(realm: Realm, v: Value): Task<bigint> {
  const prim = yield* ToPrimitive(realm, v, "number")
  return PrimitiveToBigInt(prim)
}

export const PrimitiveToBigInt = (prim: Primitive): bigint => {
  switch (typeof prim) {
    case "bigint":
      return prim
    case "boolean":
      return prim ? 1n : 0n
    case "string": {
      const n = StringToBigInt(prim)
      if (n === undefined) throw new SandboxError("SyntaxError", `Cannot convert ${prim} to a BigInt`)
      return n
    }
    case "number":
      return throwTypeError(`Cannot convert ${String(prim)} to a BigInt`)
    default:
      if (prim instanceof SymbolValue) return throwTypeError("Cannot convert a Symbol value to a bigint")
      return throwTypeError(`Cannot convert ${String(prim)} to a BigInt`)
  }
}

// https://tc39.es/ecma262/#sec-stringtobigint
export const StringToBigInt = (s: string): bigint | undefined => {
  const t = s.trim()
  if (t === "") return 0n
  if (!/^([+-]?\d+|0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+)$/.test(t)) return undefined
  return BigInt(t)
}

// https://tc39.es/ecma262/#sec-canonicalnumericindexstring
export const CanonicalNumericIndexString = (s: string): number | undefined => {
  if (s === "-0") return -0
  const n = Number(s)
  return String(n) === s ? n : undefined
}

/** https://tc39.es/ecma262/#sec-typeof-operator */
export const TypeOf = (v: Value): string => {
  if (v === null) return "object"
  if (v instanceof JSObject) return v.isCallable() ? "function" : "object"
  if (v instanceof SymbolValue) return "symbol"
  return typeof v
}
