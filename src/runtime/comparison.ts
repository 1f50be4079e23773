/**
 * Equality and relational comparison (https://tc39.es/ecma262/#sec-testing-and-comparison-operations). Loose
 * equality and `<` can convert objects through user code, so they are Tasks; strict equality and SameValue never do.
 */
import { PollCompare } from "./interrupt.ts"
import { ToNumberPrimitive, ToPrimitive, StringToBigInt } from "./conversions.ts"
import { JSObject } from "./object.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import { type Primitive, SymbolValue, type TypeTag, type Value } from "./value.ts"
import { MISS } from "./references.ts"

// https://tc39.es/ecma262/#sec-isstrictlyequal — host === is exactly this on our representation.
export const IsStrictlyEqual = (x: Value, y: Value): boolean => x === y

// https://tc39.es/ecma262/#sec-samevalue
export const SameValue = (x: Value, y: Value): boolean => Object.is(x, y)

// https://tc39.es/ecma262/#sec-samevaluezero
export const SameValueZero = (x: Value, y: Value): boolean => x === y || (x !== x && y !== y)

// https://tc39.es/ecma262/#sec-islooselyequal
export function* IsLooselyEqual(realm: Realm, x: Value, y: Value): Task<boolean> {
  for (;;) {
    if (TypeTagOf(x) === TypeTagOf(y)) return x === y
    if ((x === undefined || x === null) && (y === undefined || y === null)) return true
    if (x === undefined || x === null || y === undefined || y === null) return false
    if (x instanceof JSObject && y instanceof JSObject) return x === y
    if (x instanceof SymbolValue || y instanceof SymbolValue) {
      if (x instanceof JSObject) x = yield* ToPrimitive(realm, x)
      else if (y instanceof JSObject) y = yield* ToPrimitive(realm, y)
      else return x === y
      continue
    }
    if (typeof x === "number" && typeof y === "string") return x === Number(y)
    if (typeof x === "string" && typeof y === "number") return Number(x) === y
    if (typeof x === "bigint" && typeof y === "string") {
      const n = StringToBigInt(y)
      return n !== undefined && x === n
    }
    if (typeof x === "string" && typeof y === "bigint") {
      const n = StringToBigInt(x)
      return n !== undefined && n === y
    }
    if (typeof x === "boolean") {
      x = Number(x)
      continue
    }
    if (typeof y === "boolean") {
      y = Number(y)
      continue
    }
    if (x instanceof JSObject) {
      x = yield* ToPrimitive(realm, x)
      continue
    }
    if (y instanceof JSObject) {
      y = yield* ToPrimitive(realm, y)
      continue
    }
    if (typeof x === "bigint" && typeof y === "number") return bigintEqualsNumber(x, y)
    if (typeof x === "number" && typeof y === "bigint") return bigintEqualsNumber(y, x)
    return false
  }
}

const bigintEqualsNumber = (b: bigint, n: number): boolean => Number.isInteger(n) && BigInt(n) === b

/**
 * https://tc39.es/ecma262/#sec-islessthan on primitives: true, false, or undefined (a NaN was involved).
 * Host `<` implements it exactly for any two primitives except symbols, which the caller rejects.
 */
export const IsLessThanPrimitive = (px: Primitive, py: Primitive): boolean | undefined => {
  if (typeof px === "string" && typeof py === "string") return px < py
  if (px instanceof SymbolValue || py instanceof SymbolValue) {
    ToNumberPrimitive(px instanceof SymbolValue ? px : (py as SymbolValue))
  }
  if (typeof px === "bigint" && typeof py === "string") {
    const ny = StringToBigInt(py)
    return ny === undefined ? undefined : px < ny
  }
  if (typeof px === "string" && typeof py === "bigint") {
    const nx = StringToBigInt(px)
    return nx === undefined ? undefined : nx < py
  }
  const nx = typeof px === "bigint" ? px : ToNumberPrimitive(px)
  const ny = typeof py === "bigint" ? py : ToNumberPrimitive(py)
  if (nx !== nx || ny !== ny) return undefined
  return nx < ny
}

/** `x < y` etc.: converts in the order the operator's source order demands (LeftFirst), then compares. */
export function* IsLessThan(realm: Realm, x: Value, y: Value, LeftFirst: boolean): Task<boolean | undefined> {
  let px: Primitive
  let py: Primitive
  if (LeftFirst) {
    px = yield* ToPrimitive(realm, x, "number")
    py = yield* ToPrimitive(realm, y, "number")
  } else {
    py = yield* ToPrimitive(realm, y, "number")
    px = yield* ToPrimitive(realm, x, "number")
  }
  return IsLessThanPrimitive(px, py)
}

/** https://tc39.es/ecma262/#sec-ecmascript-data-types-and-values — Type(x). */
export const TypeTagOf = (v: Value): TypeTag => {
  if (v === undefined) return "Undefined"
  if (v === null) return "Null"
  switch (typeof v) {
    case "boolean":
      return "Boolean"
    case "number":
      return "Number"
    case "string":
      return "String"
    case "bigint":
      return "BigInt"
    default:
      return v instanceof SymbolValue ? "Symbol" : "Object"
  }
}

export type Relational = "<" | ">" | "<=" | ">="

/** https://tc39.es/ecma262/#sec-relational-operators-runtime-semantics-evaluation for primitives. */
export const comparePrimitive = (op: Relational, l: Primitive, r: Primitive): boolean => {
  PollCompare(r)
  switch (op) {
    case "<":
      return IsLessThanPrimitive(l, r) === true
    case ">":
      return IsLessThanPrimitive(r, l) === true
    case "<=":
      return IsLessThanPrimitive(r, l) === false
    case ">=":
      return IsLessThanPrimitive(l, r) === false
  }
}

export function* CompareTask(realm: Realm, op: Relational, l: Value, r: Value): Task<Value> {
  switch (op) {
    case "<":
      return (yield* IsLessThan(realm, l, r, true)) === true
    case ">":
      return (yield* IsLessThan(realm, r, l, false)) === true
    case "<=":
      return (yield* IsLessThan(realm, r, l, false)) === false
    case ">=":
      return (yield* IsLessThan(realm, l, r, true)) === false
  }
}

/** IsLooselyEqual when no user code can run (no object is converted), or MISS. */
export const looseEqualsFast = (l: Value, r: Value): boolean | typeof MISS => {
  if (l === r) return true
  const tl = typeof l
  if (tl === typeof r && tl !== "object") return false
  const ln = l === undefined || l === null
  const rn = r === undefined || r === null
  if (ln || rn) return ln && rn
  if (l instanceof JSObject && r instanceof JSObject) return false
  if (typeof l === "number" && typeof r === "string") return l === Number(r)
  if (typeof l === "string" && typeof r === "number") return Number(l) === r
  return MISS
}
