/**
 * Shapes of the runtime's values and records, shared by every registration: a sandbox `Value`, an object, a
 * property key, the plain records of promises, jobs and iteration. Sandbox values get hand-written checks (they
 * are by far the most frequent field), everything else is composed from shape.ts.
 */
import { JSObject } from "../runtime/object.ts"
import { EMPTY, SymbolValue } from "../runtime/value.ts"
import { arr, bool, inst, int, lit, mismatch, nat, nullable, opt, or, rec, set, str, type Shape } from "./shape.ts"

const fail = (where: string, what: string): never => mismatch(`${where}: expected ${what}`)

/** A sandbox value: a primitive, a symbol or an object of the heap. */
export const value: Shape = (v, w) => {
  switch (typeof v) {
    case "undefined":
    case "boolean":
    case "number":
    case "string":
    case "bigint":
      return
    case "object":
      if (v === null || v instanceof JSObject || v instanceof SymbolValue) return
  }
  fail(w, "a sandbox value")
}

/** A sandbox value, or EMPTY (an array hole, a binding in its TDZ). */
export const valueOrEmpty: Shape = (v, w, c) => {
  if (v !== EMPTY) value(v, w, c)
}

export const primitive: Shape = (v, w) => {
  if (typeof v === "object" && v !== null && !(v instanceof SymbolValue)) fail(w, "a primitive")
  if (typeof v === "function" || typeof v === "symbol") fail(w, "a primitive")
}

export const obj: Shape = (v, w) => {
  if (!(v instanceof JSObject)) fail(w, "an object")
}
export const objOrNull = nullable(obj)
export const optObj = opt(obj)

export const symbol: Shape = (v, w) => {
  if (!(v instanceof SymbolValue)) fail(w, "a symbol")
}

export const propertyKey: Shape = (v, w) => {
  if (typeof v !== "string" && !(v instanceof SymbolValue)) fail(w, "a property key")
}

export const sourceLocation = rec({ line: int, column: int })

/** A callable object: what a job calls, checked as the spec checks it when the record is made. */
export const callable: Shape = (v, w) => {
  if (!(v instanceof JSObject) || !v.isCallable()) fail(w, "a function")
}

export const capability = rec({ promise: obj, resolve: callable, reject: callable })

export const reaction = rec({ capability: opt(capability), type: lit("Fulfill", "Reject"), handler: opt(callable) })

export const job = or(
  rec({ kind: lit("PromiseReactionJob"), reaction, argument: value }),
  rec({ kind: lit("PromiseResolveThenableJob"), promise: inst("PromiseObject"), thenable: obj, then: callable }),
)

/** https://tc39.es/ecma262/#sec-iterator-records (the VM's fast array record is a class of its own). */
export const iteratorRecord = or(rec({ iterator: obj, nextMethod: value, done: bool }), inst("FastArrayRecord"))

export const forInIterator = rec({ object: objOrNull, visited: set(propertyKey), keys: arr(propertyKey), index: int })

export const iterationKind = lit("key", "value", "key+value")

export const privateElement = rec({ kind: lit("field", "method", "accessor"), value, get: optObj, set: optObj })

/** What a VM register or operand stack slot may hold (vm/frame.ts `Slot`). */
export const slot: Shape = (v, w, c) => {
  if (v === EMPTY || v === undefined || v === null || typeof v !== "object" || v instanceof JSObject || v instanceof SymbolValue) {
    return valueOrEmpty(v, w, c)
  }
  if (c.isInstance(v, "PrivateName") || c.isInstance(v, "Environment") || c.isInstance(v, "FastArrayRecord")) return
  if ("visited" in v) return forInIterator(v, w, c)
  return iteratorRecord(v, w, c)
}

export { arr, bool, int, nat, str }
