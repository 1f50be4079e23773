/**
 * Conventions shared by the web-platform families (encoding, url, headers, structured-clone), which follow Node's
 * implementations rather than ECMA-262: WebIDL members are enumerable (`markEnumerable`), Node's argument errors
 * carry an enumerable `code` ("ERR_INVALID_ARG_TYPE", "ERR_INVALID_URL"...) beside their message
 * (`throwCodedError`), and their iterators share one shape (`WebIterator`: a snapshot-free cursor over a list that
 * the owning object keeps, read live at each `next`). Nothing here is a family of its own.
 */
import type { ErrorType } from "../runtime/completion.ts"
import { ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { CreateErrorObject } from "../runtime/errors.ts"
import { JSObject } from "../runtime/object.ts"
import { CreateArrayFromList, describeValue } from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import { type PropertyKey, SymbolValue, type Value } from "../runtime/value.ts"
import { TypedArrayObject } from "./bytes-objects.ts"

/** Makes the listed own properties enumerable, as WebIDL defines operations and attributes. */
export const markEnumerable = (target: JSObject, keys: ReadonlyArray<PropertyKey>): void => {
  for (const key of keys) {
    const p = target.properties.get(key)
    if (p === undefined) throw new Error(`codemode bug: no property ${String(key)} to mark enumerable`)
    p.enumerable = true
  }
}

/** Throws a new error of `type` with Node's `code` (and any extra own data properties, e.g. URL's `input`). */
export const throwCodedError = (
  realm: Realm,
  type: ErrorType,
  code: string,
  message: string,
  extra: ReadonlyArray<readonly [string, Value]> = [],
): never => {
  const e = CreateErrorObject(realm, type, message)
  e.properties.set("code", Property.data(code, true, true, true))
  for (const [k, v] of extra) e.properties.set(k, Property.data(v, true, true, true))
  throw new ThrowCompletion(e)
}

/** How Node's ERR_INVALID_ARG_TYPE describes the value it received. */
export const describeReceived = (v: Value): string => {
  if (v === undefined || v === null) return `Received ${String(v)}`
  if (v instanceof JSObject) {
    if (v.isCallable()) {
      const name = v.properties.get("name")?.value
      return `Received function ${typeof name === "string" && name !== "" ? name : "<anonymous>"}`
    }
    const ctor = v.lookup("constructor")
    const name = ctor !== undefined && !ctor.accessor && ctor.value instanceof JSObject ? ctor.value.properties.get("name")?.value : undefined
    if (typeof name === "string" && name !== "") return `Received an instance of ${name}`
    return `Received ${describeValue(v)}`
  }
  if (v instanceof SymbolValue) return `Received type symbol (${describeValue(v)})`
  const shown = typeof v === "string" ? `'${v.length > 25 ? v.slice(0, 25) + "..." : v}'` : typeof v === "bigint" ? `${v}n` : String(v)
  return `Received type ${typeof v} (${shown})`
}

/** Node's ERR_INVALID_THIS for a WebIDL method called on the wrong object. */
export const invalidThis = (realm: Realm, typeName: string): never =>
  throwCodedError(realm, "TypeError", "ERR_INVALID_THIS", `Value of "this" must be of type ${typeName}`)

/** Node's ERR_MISSING_ARGS. */
export const missingArgs = (realm: Realm, name: string): never =>
  throwCodedError(realm, "TypeError", "ERR_MISSING_ARGS", `The "${name}" argument must be specified`)

/** A Uint8Array argument or Node's ERR_INVALID_ARG_TYPE. */
export const requireUint8Array = (realm: Realm, v: Value, name: string): TypedArrayObject => {
  if (v instanceof TypedArrayObject && v.typedArrayName === "Uint8Array") return v
  return throwCodedError(realm, "TypeError", "ERR_INVALID_ARG_TYPE", `The "${name}" argument must be an instance of Uint8Array. ${describeReceived(v)}`)
}

/** The WebIDL requirement that a constructor is called with `new` (Node's classes word it this way). */
export const requireNew = (newTarget: JSObject | undefined, name: string): JSObject =>
  newTarget ?? throwTypeError(`Class constructor ${name} cannot be invoked without 'new'`)

/** Converts a string to a USVString: lone surrogates become U+FFFD (https://webidl.spec.whatwg.org/#es-USVString). */
export const toUSVString = (s: string): string => (s.isWellFormed() ? s : s.toWellFormed())

/** %Iterator.prototype% under whichever spec name the iterator family registered it (Object.prototype without one). */
export const iteratorPrototypeOf = (realm: Realm): JSObject =>
  realm.findIntrinsic("%Iterator.prototype%") ?? realm.findIntrinsic("%IteratorPrototype%") ?? realm.ObjectPrototype

/** An iterator result object `{ value, done }`. */
export const iterResult = (realm: Realm, value: Value, done: boolean): JSObject => {
  const o = new JSObject(realm.ObjectPrototype)
  o.properties.set("value", Property.data(value))
  o.properties.set("done", Property.data(done))
  return o
}

/** What a pair iterator yields (https://webidl.spec.whatwg.org/#dfn-iterator-prototype-object "kind"). */
export type PairIterationKind = "key" | "value" | "key+value"

/** A web iterator's cursor: the owning object keeps the list, read live at each `next`. */
export interface WebIterator {
  readonly iterationKind: PairIterationKind
  index: number
}

/**
 * `next` of a WebIDL pair iterator (Headers, URLSearchParams) over `pairs`, the list as it is now: the pair at the
 * cursor as its kind asks, or done once the cursor is past the end (a list that grows later yields again).
 */
export const pairIteratorNext = (realm: Realm, iterator: WebIterator, pairs: ReadonlyArray<readonly [string, string]>): JSObject => {
  if (iterator.index >= pairs.length) return iterResult(realm, undefined, true)
  const [name, value] = pairs[iterator.index++]!
  const kind = iterator.iterationKind
  return iterResult(realm, kind === "key" ? name : kind === "value" ? value : CreateArrayFromList(realm, [name, value]), false)
}
