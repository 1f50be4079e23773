/**
 * The Number family (https://tc39.es/ecma262/#sec-number-objects): the Number constructor (a conversion when
 * called, a wrapper factory with `new`), its constants and predicates, `parseInt`/`parseFloat` (the same function
 * objects as the globals), and Number.prototype's formatting methods. The host's own Number methods implement
 * Number::toString, toFixed, toExponential and toPrecision exactly (the host is V8), so once the sandbox has checked
 * `this` and converted the arguments (which may run user code, hence Tasks), the work is delegated to them.
 * RangeError messages are V8's.
 */
import { throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { ToIntegerOrInfinity, ToNumeric, ToString, ToInt32 } from "../runtime/conversions.ts"
import { CreateBuiltinFunction, defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { GetPrototypeFromConstructor } from "../runtime/operations.ts"
import type { JSObject } from "../runtime/object.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { Value } from "../runtime/value.ts"
import { HostLocales, NUMBER_FORMAT_OPTIONS, ReadHostOptions, withHostIntl } from "./locale.ts"

// https://tc39.es/ecma262/#sec-number-constructor-number-value
function* Number_(realm: Realm, _thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  // 1-2. ToNumeric, and a BigInt becomes the Number of its value.
  let n = 0
  if (args.length > 0) {
    const prim = yield* ToNumeric(realm, args[0])
    n = typeof prim === "bigint" ? Number(prim) : prim
  }
  // 3. Called as a function: the conversion.
  if (newTarget === undefined) return n
  // 4-5. A Number object with [[NumberData]] n.
  const proto = yield* GetPrototypeFromConstructor(realm, newTarget, "%Number.prototype%")
  return new PrimitiveWrapper(proto, "Number", n)
}

// https://tc39.es/ecma262/#sec-thisnumbervalue
const thisNumberValue = (value: Value, method: string): number => {
  if (typeof value === "number") return value
  if (value instanceof PrimitiveWrapper && value.kind === "Number") return value.primitive as number
  return throwTypeError(`${method} requires that 'this' be a Number`)
}

// https://tc39.es/ecma262/#sec-number.isfinite
const Number_isFinite = (_r: Realm, _t: Value, args: ReadonlyArray<Value>): Value =>
  typeof args[0] === "number" && Number.isFinite(args[0])

// https://tc39.es/ecma262/#sec-number.isinteger
const Number_isInteger = (_r: Realm, _t: Value, args: ReadonlyArray<Value>): Value =>
  typeof args[0] === "number" && Number.isInteger(args[0])

// https://tc39.es/ecma262/#sec-number.isnan
const Number_isNaN = (_r: Realm, _t: Value, args: ReadonlyArray<Value>): Value =>
  typeof args[0] === "number" && Number.isNaN(args[0])

// https://tc39.es/ecma262/#sec-number.issafeinteger
const Number_isSafeInteger = (_r: Realm, _t: Value, args: ReadonlyArray<Value>): Value =>
  typeof args[0] === "number" && Number.isSafeInteger(args[0])

// https://tc39.es/ecma262/#sec-parsefloat-string — the host's parseFloat is exactly this on a string.
function* parseFloat_(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  const input = args[0]
  const inputString = typeof input === "string" ? input : yield* ToString(realm, input)
  return parseFloat(inputString)
}

// https://tc39.es/ecma262/#sec-parseint-string-radix — ToString, then ToInt32(radix), in that order; the host's
// parseInt on a string and a number is exactly the rest.
function* parseInt_(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  const input = args[0]
  const inputString = typeof input === "string" ? input : yield* ToString(realm, input)
  const R = yield* ToInt32(realm, args[1])
  return parseInt(inputString, R)
}

// https://tc39.es/ecma262/#sec-number.prototype.toexponential
function* NumberProto_toExponential(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const x = thisNumberValue(thisArg, "Number.prototype.toExponential")
  const fractionDigits = args[0]
  const f = yield* ToIntegerOrInfinity(realm, fractionDigits)
  if (!Number.isFinite(x)) return String(x)
  if (f < 0 || f > 100) return throwRangeError("toExponential() argument must be between 0 and 100")
  return fractionDigits === undefined ? x.toExponential() : x.toExponential(f)
}

// https://tc39.es/ecma262/#sec-number.prototype.tofixed
function* NumberProto_toFixed(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const x = thisNumberValue(thisArg, "Number.prototype.toFixed")
  const f = yield* ToIntegerOrInfinity(realm, args[0])
  if (!Number.isFinite(f) || f < 0 || f > 100) return throwRangeError("toFixed() digits argument must be between 0 and 100")
  return x.toFixed(f)
}

// https://tc39.es/ecma262/#sec-number.prototype.tolocalestring (ECMA-402 form; see locale.ts)
function* NumberProto_toLocaleString(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const x = thisNumberValue(thisArg, "Number.prototype.toLocaleString")
  const locales = yield* HostLocales(realm, args[0])
  const options = yield* ReadHostOptions(realm, args[1], NUMBER_FORMAT_OPTIONS)
  return withHostIntl(() => x.toLocaleString(locales, options))
}

// https://tc39.es/ecma262/#sec-number.prototype.toprecision
function* NumberProto_toPrecision(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const x = thisNumberValue(thisArg, "Number.prototype.toPrecision")
  const precision = args[0]
  if (precision === undefined) return String(x)
  const p = yield* ToIntegerOrInfinity(realm, precision)
  if (!Number.isFinite(x)) return String(x)
  if (p < 1 || p > 100) return throwRangeError("toPrecision() argument must be between 1 and 100")
  return x.toPrecision(p)
}

// https://tc39.es/ecma262/#sec-number.prototype.tostring
function* NumberProto_toString(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const x = thisNumberValue(thisArg, "Number.prototype.toString")
  const radix = args[0]
  const radixMV = radix === undefined ? 10 : yield* ToIntegerOrInfinity(realm, radix)
  if (radixMV < 2 || radixMV > 36) return throwRangeError("toString() radix argument must be between 2 and 36")
  return radixMV === 10 ? String(x) : x.toString(radixMV)
}

// https://tc39.es/ecma262/#sec-number.prototype.valueof
const NumberProto_valueOf = (_r: Realm, thisArg: Value): Value => thisNumberValue(thisArg, "Number.prototype.valueOf")

export const install = (realm: Realm): void => {
  // %Number.prototype% is itself a Number object whose [[NumberData]] is +0.
  const proto = new PrimitiveWrapper(realm.ObjectPrototype, "Number", 0)
  const NumberCtor = defineConstructor(realm, "Number", Number_, 1, proto)

  defineValues(NumberCtor, [
    ["EPSILON", Number.EPSILON],
    ["MAX_SAFE_INTEGER", Number.MAX_SAFE_INTEGER],
    ["MAX_VALUE", Number.MAX_VALUE],
    ["MIN_SAFE_INTEGER", Number.MIN_SAFE_INTEGER],
    ["MIN_VALUE", Number.MIN_VALUE],
    ["NaN", NaN],
    ["NEGATIVE_INFINITY", -Infinity],
    ["POSITIVE_INFINITY", Infinity],
  ])
  defineMethods(realm, NumberCtor, "%Number%", [
    ["isFinite", Number_isFinite, 1],
    ["isInteger", Number_isInteger, 1],
    ["isNaN", Number_isNaN, 1],
    ["isSafeInteger", Number_isSafeInteger, 1],
  ])

  // parseFloat and parseInt are one function object each, shared by Number and the global object
  // (https://tc39.es/ecma262/#sec-number.parsefloat). They are created here, the first family that needs them,
  // registered as %parseFloat% / %parseInt% and installed on the global object too; the global family reuses the
  // registered objects when it finds them instead of making new ones.
  for (const [name, impl, length] of [
    ["parseFloat", parseFloat_, 1],
    ["parseInt", parseInt_, 2],
  ] as const) {
    const f = realm.findIntrinsic(`%${name}%`) ?? realm.register(`%${name}%`, CreateBuiltinFunction(realm, name, impl, length, name))
    NumberCtor.properties.set(name, Property.data(f, true, false, true))
    realm.globalObject.properties.set(name, Property.data(f, true, false, true))
  }

  defineMethods(realm, proto, "%Number.prototype%", [
    ["toExponential", NumberProto_toExponential, 1],
    ["toFixed", NumberProto_toFixed, 1],
    ["toLocaleString", NumberProto_toLocaleString, 0],
    ["toPrecision", NumberProto_toPrecision, 1],
    ["toString", NumberProto_toString, 1],
    ["valueOf", NumberProto_valueOf, 0],
  ])
}
