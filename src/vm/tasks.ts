/**
 * The slow paths of instructions, as Tasks: what an instruction does when its operands may run user code
 * (coercion through valueOf/toString/Symbol.toPrimitive, getters and setters, iterator methods, class field
 * initializers). The run loop starts them with `Machine.startTask`, which finishes them inline when they never
 * reach user code and otherwise runs them on a native frame. Each returns the value the instruction pushes.
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { IsLooselyEqual, IsLessThan, IsLessThanPrimitive } from "../runtime/comparison.ts"
import { ToBoolean, ToNumeric, ToPropertyKey } from "../runtime/conversions.ts"
import { IsConstructor, type ScriptFunction } from "../runtime/function-object.ts"
import { CreateAsyncFromSyncIterator } from "../runtime/generator.ts"
import { GetIteratorFromMethod, IteratorClose, type IteratorRecord } from "../runtime/iteration.ts"
import { JSObject, PrivateName } from "../runtime/object.ts"
import {
  Call,
  CopyDataProperties,
  CreateDataPropertyOrThrow,
  describeValue,
  GetMethod,
  InOperator,
  InstanceofOperator,
  keyText,
} from "../runtime/operations.ts"
import { ApplyBinaryOperatorPrimitive, ApplyStringOrNumericBinaryOperator, type BinaryOperator } from "../runtime/operators.ts"
import type { Realm } from "../runtime/realm.ts"
import { isTask, type Task } from "../runtime/task.ts"
import { EMPTY, type Empty, type Primitive, type PropertyKey, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { fastArrayRecord, PrivateElementAdd } from "./operations.ts"

// --- Operators ------------------------------------------------------------------------------------------------

export function* BinaryTask(realm: Realm, op: BinaryOperator, l: Value, r: Value): Task<Value> {
  return yield* ApplyStringOrNumericBinaryOperator(realm, l, op, r)
}

/** A binary operator when neither operand is an object (no user code). */
export const binaryPrimitive = (op: BinaryOperator, l: Value, r: Value): Value => ApplyBinaryOperatorPrimitive(op, l as Primitive, r as Primitive)

export type Relational = "<" | ">" | "<=" | ">="

/** https://tc39.es/ecma262/#sec-relational-operators-runtime-semantics-evaluation for primitives. */
export const comparePrimitive = (op: Relational, l: Primitive, r: Primitive): boolean => {
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

export function* LooseEqualsTask(realm: Realm, l: Value, r: Value, negate: boolean): Task<Value> {
  return (yield* IsLooselyEqual(realm, l, r)) !== negate
}

export function* ToNumericTask(realm: Realm, v: Value): Task<Value> {
  return yield* ToNumeric(realm, v)
}

/** ++/-- on a value that is not already a number or BigInt. */
export function* IncrementTask(realm: Realm, v: Value, delta: 1 | -1): Task<Value> {
  const n = yield* ToNumeric(realm, v)
  return typeof n === "bigint" ? n + BigInt(delta) : n + delta
}

export function* UnaryTask(realm: Realm, op: "-" | "~", v: Value): Task<Value> {
  const n = yield* ToNumeric(realm, v)
  if (op === "-") return -n
  return typeof n === "bigint" ? ~n : ~n
}

export function* ToPropertyKeyTask(realm: Realm, v: Value): Task<Value> {
  const k = yield* ToPropertyKey(realm, v)
  return k as Value
}

export function* InTask(realm: Realm, key: Value, obj: Value): Task<Value> {
  return yield* InOperator(realm, key, obj)
}

export function* InstanceofTask(v: Value, target: Value): Task<Value> {
  return yield* InstanceofOperator(v, target)
}

export function* DeleteTask(realm: Realm, obj: JSObject, key: Value, strict: boolean): Task<Value> {
  const P = yield* ToPropertyKey(realm, key)
  return deleteProperty(obj, P, strict)
}

export const deleteProperty = (obj: JSObject, P: PropertyKey, strict: boolean): boolean => {
  const ok = obj.Delete(P)
  if (!ok && strict) throwTypeError(`Cannot delete property '${keyText(P)}' of ${describeValue(obj)}`)
  return ok
}

// --- Objects --------------------------------------------------------------------------------------------------

export function* CopyDataPropertiesTask(realm: Realm, target: JSObject, source: Value, excluded: ReadonlyArray<PropertyKey>): Task<Value> {
  yield* CopyDataProperties(realm, target, source, excluded)
  return target
}

/** Appends the values of an iterable to an array (spread in array literals and argument lists). */
export function* SpreadTask(
  realm: Realm,
  target: ArrayObject,
  iterable: Value,
  notIterable: string | undefined,
  step: (r: IteratorRecord) => Value | Empty | Task<Value | Empty>,
): Task<Value> {
  const record = fastArrayRecord(realm, iterable) ?? (yield* GetIteratorWithMessage(realm, iterable, notIterable))
  for (;;) {
    const s = step(record)
    const v = isTask(s) ? yield* (s as Task<Value | Empty>) : (s as Value | Empty)
    if (v === EMPTY) return target
    CreateDataPropertyOrThrow(target, String(target.length), v)
  }
}

/** The home object's prototype, where `super.x` looks (https://tc39.es/ecma262/#sec-getsuperbase). */
export const superBaseOf = (func: Value): JSObject => {
  const home = func instanceof JSObject ? (func as ScriptFunction).homeObject : undefined
  if (home === undefined) return throwTypeError("'super' keyword unexpected here")
  const base = home.GetPrototypeOf()
  if (base === null) return throwTypeError("Cannot read properties of null (reading a super property)")
  return base
}

export function* SuperGetTask(realm: Realm, func: Value, thisValue: Value, key: Value): Task<Value> {
  const P = yield* ToPropertyKey(realm, key)
  return yield* superBaseOf(func).Get(P, thisValue)
}

export function* SuperSetTask(realm: Realm, func: Value, thisValue: Value, key: Value, v: Value): Task<Value> {
  const P = yield* ToPropertyKey(realm, key)
  const ok = yield* superBaseOf(func).Set(P, v, thisValue)
  if (!ok) throwTypeError(`Cannot assign to read only property '${keyText(P)}' of object`)
  return v
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

// --- Iteration ------------------------------------------------------------------------------------------------

/** GetIterator (sync), with V8's message naming the iterable's source when the method is missing. */
function* GetIteratorWithMessage(realm: Realm, obj: Value, notIterable: string | undefined): Task<IteratorRecord> {
  const method = yield* GetMethod(realm, obj, WellKnownSymbols.iterator)
  if (method === undefined) return throwTypeError(notIterable ?? notIterableValue(obj))
  return yield* GetIteratorFromMethod(realm, obj, method)
}

/** V8's message for a value that is not iterable when no source text names it. */
const notIterableValue = (v: Value): string => {
  const what = v instanceof JSObject ? (v.isCallable() ? "function" : "object") : v === undefined || v === null ? String(v) : `${typeof v === "object" ? "symbol" : typeof v} ${describeValue(v)}`
  return `${what} is not iterable (cannot read property Symbol(Symbol.iterator))`
}

export function* GetIteratorTask(realm: Realm, obj: Value, notIterable: string | undefined): Task<Value> {
  return (yield* GetIteratorWithMessage(realm, obj, notIterable)) as unknown as Value
}

// https://tc39.es/ecma262/#sec-getiterator (kind async)
export function* GetAsyncIteratorTask(realm: Realm, obj: Value, notIterable: string | undefined): Task<Value> {
  const method = yield* GetMethod(realm, obj, WellKnownSymbols.asyncIterator)
  if (method === undefined) {
    const syncMethod = yield* GetMethod(realm, obj, WellKnownSymbols.iterator)
    if (syncMethod === undefined) return throwTypeError(notIterable ?? notIterableValue(obj))
    const syncRecord = yield* GetIteratorFromMethod(realm, obj, syncMethod)
    return CreateAsyncFromSyncIterator(realm, syncRecord) as unknown as Value
  }
  return (yield* GetIteratorFromMethod(realm, obj, method)) as unknown as Value
}

/** For-await: the awaited result of `next()` to a value, or EMPTY when done. */
export function* IterResultValueTask(result: Value): Task<Value | Empty> {
  if (!(result instanceof JSObject)) return throwTypeError(`Iterator result ${describeValue(result)} is not an object`)
  if (ToBoolean(yield* result.Get("done", result))) return EMPTY
  return yield* result.Get("value", result)
}

/** Calls the iterator's `return` for an async close: its result, or EMPTY if it has none. */
export function* AsyncIterReturnTask(realm: Realm, record: IteratorRecord): Task<Value | Empty> {
  const ret = yield* GetMethod(realm, record.iterator, "return")
  if (ret === undefined) return EMPTY
  return yield* Call(ret, record.iterator)
}

/**
 * One step of yield* (https://tc39.es/ecma262/#sec-generator-function-definitions-runtime-semantics-evaluation):
 * forward the received value to the inner iterator as next/throw/return. EMPTY: a return with no `return`
 * method, so the generator returns the received value.
 */
export function* YieldStarCallTask(realm: Realm, record: IteratorRecord, received: Value, mode: number, isAsync: boolean): Task<Value | Empty> {
  const iterator = record.iterator
  if (mode === 0) return yield* Call(record.nextMethod, iterator, [received])
  if (mode === 1) {
    const method = yield* GetMethod(realm, iterator, "throw")
    if (method !== undefined) return yield* Call(method, iterator, [received])
    // NON-SPEC: an async inner iterator is closed without awaiting its `return` result.
    if (!isAsync) yield* IteratorClose(realm, record)
    else {
      const ret = yield* GetMethod(realm, iterator, "return")
      if (ret !== undefined) yield* Call(ret, iterator)
    }
    return throwTypeError("The iterator does not provide a 'throw' method.")
  }
  const method = yield* GetMethod(realm, iterator, "return")
  if (method === undefined) return EMPTY
  return yield* Call(method, iterator, [received])
}

export const arrayValues = (arr: Value): Value[] => {
  if (arr instanceof ArrayObject && arr.elements !== null) {
    const out: Value[] = []
    for (let i = 0; i < arr.length; i++) {
      const v = i < arr.elements.length ? arr.elements[i] : EMPTY
      out.push(v === EMPTY ? undefined : (v as Value))
    }
    return out
  }
  throw new Error("codemode bug: argument list is not a dense array")
}
