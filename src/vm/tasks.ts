/**
 * The slow paths of instructions, as Tasks: what an instruction does when its operands may run user code
 * (coercion through valueOf/toString/Symbol.toPrimitive, getters and setters, iterator methods, class field
 * initializers). The run loop starts them with `Machine.startTask`, which finishes them inline when they never
 * reach user code and otherwise runs them on a native frame. Each returns the value the instruction pushes.
 */
import { IsLooselyEqual } from "../runtime/comparison.ts"
import { ToNumeric, ToPropertyKey } from "../runtime/conversions.ts"
import { JSObject } from "../runtime/object.ts"
import { CopyDataProperties, InOperator, InstanceofOperator } from "../runtime/operations.ts"
import { ApplyBinaryOperatorPrimitive, ApplyStringOrNumericBinaryOperator, type BinaryOperator } from "../runtime/operators.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { Primitive, PropertyKey, Value } from "../runtime/value.ts"

export { checkSuperConstructor, InitializeInstanceElements } from "../runtime/class-elements.ts"
export { comparePrimitive, CompareTask, type Relational } from "../runtime/comparison.ts"
export {
  arrayValues,
  AsyncIterReturnTask,
  GetAsyncIteratorTask,
  GetIteratorTask,
  IterResultValueTask,
  SpreadTask,
  YieldStarCallTask,
} from "../runtime/iterator-steps.ts"
export { UnaryTask } from "../runtime/operators.ts"
export { deleteProperty, DeleteTask, superBaseOf, SuperGetTask, SuperSetTask } from "../runtime/references.ts"

export function* BinaryTask(realm: Realm, op: BinaryOperator, l: Value, r: Value): Task<Value> {
  return yield* ApplyStringOrNumericBinaryOperator(realm, l, op, r)
}

/** A binary operator when neither operand is an object (no user code). */
export const binaryPrimitive = (op: BinaryOperator, l: Value, r: Value): Value => ApplyBinaryOperatorPrimitive(op, l as Primitive, r as Primitive)

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

export function* CopyDataPropertiesTask(realm: Realm, target: JSObject, source: Value, excluded: ReadonlyArray<PropertyKey>): Task<Value> {
  yield* CopyDataProperties(realm, target, source, excluded)
  return target
}
