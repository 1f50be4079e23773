/**
 * Boolean objects (https://tc39.es/ecma262/#sec-boolean-objects): the Boolean function (ToBoolean when called,
 * a [[BooleanData]] wrapper when constructed) and Boolean.prototype's toString and valueOf.
 */
import { defineConstructor, defineMethods } from "../runtime/builtin.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { ToBoolean } from "../runtime/conversions.ts"
import { JSObject } from "../runtime/object.ts"
import { GetPrototypeFromConstructor } from "../runtime/operations.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { Value } from "../runtime/value.ts"

// https://tc39.es/ecma262/#sec-boolean-constructor-boolean-value
function* Boolean_constructor(realm: Realm, _this: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  const b = ToBoolean(args[0])
  if (newTarget === undefined) return b
  const proto = yield* GetPrototypeFromConstructor(realm, newTarget, "%Boolean.prototype%")
  return new PrimitiveWrapper(proto, "Boolean", b)
}

// https://tc39.es/ecma262/#sec-thisbooleanvalue
const thisBooleanValue = (value: Value, method: string): boolean => {
  if (typeof value === "boolean") return value
  if (value instanceof PrimitiveWrapper && value.kind === "Boolean") return value.primitive as boolean
  return throwTypeError(`Boolean.prototype.${method} requires that 'this' be a Boolean`)
}

// https://tc39.es/ecma262/#sec-boolean.prototype.tostring
const BooleanProto_toString = (_realm: Realm, thisArg: Value): Value => (thisBooleanValue(thisArg, "toString") ? "true" : "false")

// https://tc39.es/ecma262/#sec-boolean.prototype.valueof
const BooleanProto_valueOf = (_realm: Realm, thisArg: Value): Value => thisBooleanValue(thisArg, "valueOf")

export const install = (realm: Realm): void => {
  // Boolean.prototype is itself a Boolean object whose [[BooleanData]] is false.
  const proto = new PrimitiveWrapper(realm.ObjectPrototype, "Boolean", false)
  defineConstructor(realm, "Boolean", Boolean_constructor, 1, proto)
  defineMethods(realm, proto, "%Boolean.prototype%", [
    ["toString", BooleanProto_toString, 0],
    ["valueOf", BooleanProto_valueOf, 0],
  ])
}
