/**
 * Binary and unary operators on evaluated operands (https://tc39.es/ecma262/#sec-applystringornumericbinaryoperator,
 * #sec-equality-operators, #sec-relational-operators). The semantics are the runtime's (operators.ts,
 * comparison.ts); here each operator takes its cheap path when no operand is an object — no user code can run —
 * and otherwise runs the runtime's Task, which may call `valueOf`/`toString`/`Symbol.toPrimitive`.
 */
import { PollCompare } from "../runtime/interrupt.ts"
import { comparePrimitive, CompareTask, IsLooselyEqual, looseEqualsFast, type Relational } from "../runtime/comparison.ts"
import { ToNumber, ToNumberPrimitive, ToNumeric, ToString, ToStringPrimitive } from "../runtime/conversions.ts"
import { JSObject } from "../runtime/object.ts"
import { InOperator, InstanceofOperator } from "../runtime/operations.ts"
import { ApplyBinaryOperatorPrimitive, ApplyStringOrNumericBinaryOperator, type BinaryOperator, NumberOperation, UnaryPlusPrimitive, UnaryTask } from "../runtime/operators.ts"
import type { Primitive, Value } from "../runtime/value.ts"
import { MISS, propertyKeyFast } from "../runtime/references.ts"
import type { Activation, Eval } from "./machine.ts"
import { slow } from "./machine.ts"

/** `l op r` without running user code (no operand is an object, or the operator never converts), or MISS. */
export const binaryFast = (op: string, l: Value, r: Value): Value | typeof MISS => {
  if (typeof l === "number" && typeof r === "number") {
    switch (op) {
      case "<":
        return l < r
      case ">":
        return l > r
      case "<=":
        return l <= r
      case ">=":
        return l >= r
      case "===":
      case "==":
        return l === r
      case "!==":
      case "!=":
        return l !== r
      case "in":
      case "instanceof":
        break
      default:
        return NumberOperation(op as BinaryOperator, l, r)
    }
  }
  // Strings compare whole: a long one is weighed by its length (runtime/interrupt.ts).
  PollCompare(r)
  switch (op) {
    case "===":
      return l === r
    case "!==":
      return l !== r
    case "==":
    case "!=": {
      const eq = looseEqualsFast(l, r)
      if (eq === MISS) return MISS
      return op === "==" ? eq : !eq
    }
    case "<":
    case ">":
    case "<=":
    case ">=":
      if (l instanceof JSObject || r instanceof JSObject) return MISS
      return comparePrimitive(op as Relational, l, r)
    case "in": {
      const k = propertyKeyFast(l)
      if (r instanceof JSObject && k !== MISS) return r.HasProperty(k)
      return MISS
    }
    case "instanceof":
      return MISS
    default:
      if (l instanceof JSObject || r instanceof JSObject) return MISS
      return ApplyBinaryOperatorPrimitive(op as BinaryOperator, l, r)
  }
}

/** `l op r` when it may run user code (an operand is an object). */
export function* BinaryOperationSlow(a: Activation, op: string, l: Value, r: Value): Eval<Value> {
  switch (op) {
    case "==":
    case "!=":
      return (yield* slow(IsLooselyEqual(a.realm, l, r))) === (op === "==")
    case "<":
    case ">":
    case "<=":
    case ">=":
      return yield* slow(CompareTask(a.realm, op as Relational, l, r))
    case "in":
      return yield* slow(InOperator(a.realm, l, r))
    case "instanceof":
      return yield* slow(InstanceofOperator(l, r))
    default:
      return yield* slow(ApplyStringOrNumericBinaryOperator(a.realm, l, op as BinaryOperator, r))
  }
}

/** `l op r` for every binary operator but the logical ones. */
export function* BinaryOperation(a: Activation, op: string, l: Value, r: Value): Eval<Value> {
  const v = binaryFast(op, l, r)
  if (v !== MISS) return v
  return yield* BinaryOperationSlow(a, op, l, r)
}

/** Unary `-`, `+`, `~` (https://tc39.es/ecma262/#sec-unary-operators). */
export function* NumericUnary(a: Activation, op: "-" | "+" | "~", v: Value): Eval<Value> {
  if (op === "+") {
    if (typeof v === "number") return v
    if (!(v instanceof JSObject)) return UnaryPlusPrimitive(v)
    return yield* slow(ToNumber(a.realm, v))
  }
  if (typeof v === "number" || typeof v === "bigint") return op === "-" ? -v : ~v
  return yield* slow(UnaryTask(a.realm, op, v))
}

/** ToNumeric (postfix `++`/`--` keep the converted old value). */
export function* ToNumericValue(a: Activation, v: Value): Eval<number | bigint> {
  if (!(v instanceof JSObject)) return toNumericPrimitive(v)
  return yield* slow(ToNumeric(a.realm, v))
}

export const toNumericPrimitive = (v: Primitive): number | bigint => (typeof v === "number" || typeof v === "bigint" ? v : ToNumberPrimitive(v))

/** `v + 1` / `v - 1` on a numeric (after ToNumeric, as `++`/`--` do). */
export const increment = (n: number | bigint, delta: 1 | -1): number | bigint => (typeof n === "bigint" ? n + BigInt(delta) : n + delta)

/** ToString of a template substitution. */
export function* ToStringValue(a: Activation, v: Value): Eval<string> {
  if (!(v instanceof JSObject)) return typeof v === "string" ? v : ToStringPrimitive(v)
  return yield* slow(ToString(a.realm, v))
}
