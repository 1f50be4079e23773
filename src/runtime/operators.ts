/**
 * The binary and unary operators on values (https://tc39.es/ecma262/#sec-applystringornumericbinaryoperator,
 * https://tc39.es/ecma262/#sec-numeric-types). `ApplyBinaryOperatorPrimitive` is the whole semantics once both
 * operands are primitive; engines call it directly on their fast path and go through the Task only for objects.
 */
import { PollWork } from "./interrupt.ts"
import { chargeBigInt } from "./memory.ts"
import { checkStringLength } from "./caps.ts"
import { SandboxError, throwRangeError, throwTypeError } from "./completion.ts"
import { ToNumberPrimitive, ToNumeric, ToPrimitive, ToStringPrimitive } from "./conversions.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import { type Primitive, SymbolValue, type Value } from "./value.ts"

export type BinaryOperator = "+" | "-" | "*" | "/" | "%" | "**" | "<<" | ">>" | ">>>" | "&" | "|" | "^"

const MIX = "Cannot mix BigInt and other types, use explicit conversions"

/** Both operands already primitive. */
export const ApplyBinaryOperatorPrimitive = (op: BinaryOperator, l: Primitive, r: Primitive): number | bigint | string => {
  if (op === "+" && (typeof l === "string" || typeof r === "string")) {
    const s = ToStringPrimitive(l) + ToStringPrimitive(r)
    checkStringLength(s.length)
    return s
  }
  const ln = typeof l === "bigint" ? l : ToNumberPrimitive(l)
  const rn = typeof r === "bigint" ? r : ToNumberPrimitive(r)
  if (typeof ln === "number" && typeof rn === "number") return NumberOperation(op, ln, rn)
  if (typeof ln === "bigint" && typeof rn === "bigint") return BigIntOperation(op, ln, rn)
  return throwTypeError(MIX)
}

export const NumberOperation = (op: BinaryOperator, l: number, r: number): number => {
  switch (op) {
    case "+":
      return l + r
    case "-":
      return l - r
    case "*":
      return l * r
    case "/":
      return l / r
    case "%":
      return l % r
    case "**":
      return l ** r
    case "<<":
      return l << r
    case ">>":
      return l >> r
    case ">>>":
      return l >>> r
    case "&":
      return l & r
    case "|":
      return l | r
    case "^":
      return l ^ r
  }
}

/** Bits a BigInt result may have; past it the operation throws RangeError (V8's limit is 2^30). */
const MAX_BIGINT_BITS = 1 << 20

const checkBigInt = (b: bigint): bigint => {
  // A cheap size test first: only very large values pay for toString.
  if ((b > 0n ? b : -b) >> BigInt(MAX_BIGINT_BITS) !== 0n) throwRangeError("Maximum BigInt size exceeded")
  chargeBigInt(b)
  return b
}

/** 64-bit limbs of a BigInt's magnitude (1 for the small ones, without converting them). */
const limbs = (n: bigint): number => (n < SMALL && n > -SMALL ? 1 : Math.ceil((n < 0n ? -n : n).toString(16).length / 16))
const SMALL = 1n << 64n

/**
 * The host's work for `l op r`, in PollWork units: linear in the limbs for additive and bitwise operations,
 * quadratic (schoolbook, an upper bound of V8's) for multiplication and division.
 */
const bigIntWork = (op: BinaryOperator, l: bigint, r: bigint): number => {
  const a = limbs(l)
  const b = limbs(r)
  if (a === 1 && b === 1) return 0
  return op === "*" || op === "/" || op === "%" ? (a * b) >>> 4 : a + b
}

export const BigIntOperation = (op: BinaryOperator, l: bigint, r: bigint): bigint => {
  PollWork(bigIntWork(op, l, r))
  switch (op) {
    case "+":
      return checkBigInt(l + r)
    case "-":
      return checkBigInt(l - r)
    case "*":
      return checkBigInt(l * r)
    case "/":
      if (r === 0n) return throwRangeError("Division by zero")
      return l / r
    case "%":
      if (r === 0n) return throwRangeError("Division by zero")
      return l % r
    case "**":
      if (r < 0n) return throwRangeError("Exponent must be non-negative")
      if (l === 0n || l === 1n || l === -1n) return l ** r
      if (r > BigInt(MAX_BIGINT_BITS)) return throwRangeError("Maximum BigInt size exceeded")
      {
        // The result has about bits(l) × r bits: refused before the host spends seconds computing it.
        const bits = limbs(l) === 1 ? Math.log2(Math.abs(Number(l))) : limbs(l) * 64 - 64
        if (bits * Number(r) > MAX_BIGINT_BITS) return throwRangeError("Maximum BigInt size exceeded")
        const out = limbs(l) * Math.ceil(Number(r) / 64)
        PollWork((out * out) >>> 4)
      }
      return checkBigInt(l ** r)
    case "<<":
      if (r > BigInt(MAX_BIGINT_BITS)) return l === 0n ? 0n : throwRangeError("Maximum BigInt size exceeded")
      return checkBigInt(l << r)
    case ">>":
      if (r < -BigInt(MAX_BIGINT_BITS)) return l === 0n ? 0n : throwRangeError("Maximum BigInt size exceeded")
      return checkBigInt(l >> r)
    case ">>>":
      return throwTypeError("BigInts have no unsigned right shift, use >> instead")
    case "&":
      return l & r
    case "|":
      return l | r
    case "^":
      return l ^ r
  }
}

// https://tc39.es/ecma262/#sec-applystringornumericbinaryoperator
export function* ApplyStringOrNumericBinaryOperator(realm: Realm, l: Value, op: BinaryOperator, r: Value): Task<Value> {
  if (op === "+") {
    const lp = yield* ToPrimitive(realm, l)
    const rp = yield* ToPrimitive(realm, r)
    return ApplyBinaryOperatorPrimitive(op, lp, rp)
  }
  const ln = yield* ToNumeric(realm, l)
  const rn = yield* ToNumeric(realm, r)
  return ApplyBinaryOperatorPrimitive(op, ln, rn)
}

/** Unary `-` on a numeric. */
export const UnaryMinus = (v: number | bigint): number | bigint => -v
/** Unary `~` on a numeric. */
export const BitwiseNot = (v: number | bigint): number | bigint => (typeof v === "bigint" ? ~v : ~v)

/** Unary `+`: ToNumber, which refuses BigInt. */
export const UnaryPlusPrimitive = (v: Primitive): number => {
  if (typeof v === "bigint") throw new SandboxError("TypeError", "Cannot convert a BigInt value to a number")
  if (v instanceof SymbolValue) throw new SandboxError("TypeError", "Cannot convert a Symbol value to a number")
  return ToNumberPrimitive(v)
}

export function* UnaryTask(realm: Realm, op: "-" | "~", v: Value): Task<Value> {
  const n = yield* ToNumeric(realm, v)
  if (op === "-") return -n
  return typeof n === "bigint" ? ~n : ~n
}
