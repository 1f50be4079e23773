/**
 * The BigInt family (https://tc39.es/ecma262/#sec-bigint-objects). BigInt is a function that converts, not a
 * constructor (`new BigInt` throws, though `class X extends BigInt` is allowed), with asIntN/asUintN and
 * BigInt.prototype's toString/toLocaleString/valueOf. BigInt values are host bigints, so the host's BigInt
 * operations are exact once the sandbox has converted the arguments (which may run user code, hence Tasks).
 */
import { SandboxError, throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { ToBigInt, ToIntegerOrInfinity, ToPrimitive, PrimitiveToBigInt } from "../runtime/conversions.ts"
import { defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { JSObject } from "../runtime/object.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { HostLocales, NUMBER_FORMAT_OPTIONS, ReadHostOptions, withHostIntl } from "./locale.ts"

/**
 * NON-SPEC (V8 has the same kind of limit): the widest BigInt asIntN/asUintN may build, in bits. Past it the
 * result would be a huge allocation (`BigInt.asUintN(2 ** 40, -1n)`), so it throws V8's RangeError instead.
 */
const MAX_BIGINT_BITS = 1 << 24

// https://tc39.es/ecma262/#sec-bigint-constructor-number-value
function* BigInt_(realm: Realm, _thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  // 1. If NewTarget is not undefined, throw a TypeError exception.
  if (newTarget !== undefined) return throwTypeError("BigInt is not a constructor")
  // 2. Let prim be ? ToPrimitive(value, number).
  const prim = yield* ToPrimitive(realm, args[0], "number")
  // 3. If prim is a Number, return ? NumberToBigInt(prim).
  if (typeof prim === "number") return NumberToBigInt(prim)
  // 4. Otherwise, return ? ToBigInt(prim).
  if (prim === undefined || prim === null) return throwTypeError(`Cannot convert ${String(prim)} to a BigInt`)
  if (prim instanceof SymbolValue) return throwTypeError(`Cannot convert Symbol(${prim.description ?? ""}) to a BigInt`)
  return PrimitiveToBigInt(prim)
}

// https://tc39.es/ecma262/#sec-numbertobigint
const NumberToBigInt = (n: number): bigint => {
  if (!Number.isInteger(n)) {
    throw new SandboxError("RangeError", `The number ${String(n)} cannot be converted to a BigInt because it is not an integer`)
  }
  return BigInt(n)
}

// https://tc39.es/ecma262/#sec-thisbigintvalue
const thisBigIntValue = (value: Value, method: string): bigint => {
  if (typeof value === "bigint") return value
  if (value instanceof PrimitiveWrapper && value.kind === "BigInt") return value.primitive as bigint
  return throwTypeError(`${method} requires that 'this' be a BigInt`)
}

/** ToIndex (https://tc39.es/ecma262/#sec-toindex) with V8's message. */
function* ToIndexV8(realm: Realm, v: Value): Task<number> {
  const integer = yield* ToIntegerOrInfinity(realm, v)
  if (integer < 0 || integer > Number.MAX_SAFE_INTEGER) return throwRangeError("Invalid value: not (convertible to) a safe integer")
  return integer
}

/** The number of bits of |n| (0 for 0n). */
const bitLength = (n: bigint): number => (n < 0n ? -n : n).toString(2).length - (n === 0n ? 1 : 0)

// https://tc39.es/ecma262/#sec-bigint.asintn
function* BigInt_asIntN(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  const bits = yield* ToIndexV8(realm, args[0])
  const bigint = yield* ToBigInt(realm, args[1])
  // The result fits in `bits` bits and in the bits of `bigint`, so it is never wider than the input.
  if (bits > MAX_BIGINT_BITS && bitLength(bigint) < bits) return bigint
  return BigInt.asIntN(bits, bigint)
}

// https://tc39.es/ecma262/#sec-bigint.asuintn
function* BigInt_asUintN(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  const bits = yield* ToIndexV8(realm, args[0])
  const bigint = yield* ToBigInt(realm, args[1])
  if (bits > MAX_BIGINT_BITS) {
    // A non-negative input narrower than `bits` is unchanged; a negative one would become 2^bits - |bigint|.
    if (bigint >= 0n && bitLength(bigint) <= bits) return bigint
    return throwRangeError("Maximum BigInt size exceeded")
  }
  return BigInt.asUintN(bits, bigint)
}

// https://tc39.es/ecma262/#sec-bigint.prototype.tolocalestring (ECMA-402 form; see locale.ts)
function* BigIntProto_toLocaleString(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const x = thisBigIntValue(thisArg, "BigInt.prototype.toLocaleString")
  const locales = yield* HostLocales(realm, args[0])
  const options = yield* ReadHostOptions(realm, args[1], NUMBER_FORMAT_OPTIONS)
  return withHostIntl(() => x.toLocaleString(locales, options))
}

// https://tc39.es/ecma262/#sec-bigint.prototype.tostring
function* BigIntProto_toString(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const x = thisBigIntValue(thisArg, "BigInt.prototype.toString")
  const radix = args[0]
  const radixMV = radix === undefined ? 10 : yield* ToIntegerOrInfinity(realm, radix)
  if (radixMV < 2 || radixMV > 36) return throwRangeError("toString() radix argument must be between 2 and 36")
  return x.toString(radixMV)
}

// https://tc39.es/ecma262/#sec-bigint.prototype.valueof
const BigIntProto_valueOf = (_r: Realm, thisArg: Value): Value => thisBigIntValue(thisArg, "BigInt.prototype.valueOf")

export const install = (realm: Realm): void => {
  // %BigInt.prototype% is an ordinary object (not a BigInt wrapper).
  const proto = new JSObject(realm.ObjectPrototype)
  const BigIntCtor = defineConstructor(realm, "BigInt", BigInt_, 1, proto)
  defineMethods(realm, BigIntCtor, "%BigInt%", [
    ["asIntN", BigInt_asIntN, 2],
    ["asUintN", BigInt_asUintN, 2],
  ])
  defineMethods(realm, proto, "%BigInt.prototype%", [
    ["toLocaleString", BigIntProto_toLocaleString, 0],
    ["toString", BigIntProto_toString, 0],
    ["valueOf", BigIntProto_valueOf, 0],
  ])
  defineValues(proto, [[WellKnownSymbols.toStringTag, "BigInt"]], { writable: false, enumerable: false, configurable: true })
}
