/**
 * The global `structuredClone(value, { transfer })` (https://html.spec.whatwg.org/multipage/structured-data.html),
 * with V8's serializer's choices where the HTML text leaves room (as Node behaves): primitives (a Symbol is a
 * DataCloneError), plain objects and class instances (own enumerable string-keyed properties, getters invoked, the
 * prototype becomes Object.prototype), arrays (length, holes and extra properties kept), boxed primitives, Date,
 * RegExp (source and flags; lastIndex 0), Map and Set (entries only), ArrayBuffer (resizability kept), typed arrays
 * and DataViews (their buffer cloned once and shared), errors (name among the standard ones, own data `message`,
 * `stack` when a string, own data `cause`) and DOMException. Shared references and cycles are preserved through
 * the memory map. Functions, WeakMap/WeakSet, promises, iterators and the like are DataCloneErrors; URL,
 * URLSearchParams and Headers are "unsupported type", as in Node.
 *
 * The clone is made in one depth-first pass: every getter runs in the order the spec's serialization would run it,
 * and an error anywhere leaves the input untouched (transferred buffers are detached only at the end).
 * NON-SPEC (V8's limit): nesting deeper than MAX_DEPTH objects is a RangeError "Maximum call stack size exceeded".
 */
import { ArrayObject } from "../runtime/array-object.ts"
import { defineMethods } from "../runtime/builtin.ts"
import { SandboxError, throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { ToString } from "../runtime/conversions.ts"
import { ErrorObject, InstallErrorStack } from "../runtime/errors.ts"
import { IterableToList } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, CreateDataProperty } from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import { IsCallable } from "../runtime/function-object.ts"
import { ArrayBufferObject, DataViewObject, IsTypedArrayOutOfBounds, IsViewOutOfBounds, TypedArrayObject } from "./bytes-objects.ts"
import { DateObject } from "./date.ts"
import { CreateDOMException, DOMExceptionObject, TextDecoderObject, TextEncoderObject, throwDOMException } from "./encoding.ts"
import { HeadersObject } from "./headers.ts"
import { MapObject, SetObject } from "./map-set.ts"
import { MathObject } from "./math.ts"
import { RegExpCreateLiteral, RegExpObject } from "./regexp.ts"
import { URLObject, URLSearchParamsObject } from "./url.ts"
import { markEnumerable, throwCodedError } from "./web.ts"

type Args = ReadonlyArray<Value>

/** Nesting depth past which V8's serializer runs out of stack (it fails between 1000 and 2000 levels). */
const MAX_DEPTH = 1500

interface CloneState {
  readonly realm: Realm
  /** Source object -> its clone (the spec's memory). */
  readonly memory: Map<JSObject, JSObject>
  depth: number
}

const dataCloneError = (realm: Realm, message: string): never => throwDOMException(realm, message, "DataCloneError")

const ERROR_NAMES = new Set(["Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"])

/** V8's description of a value it refuses (`#<WeakSet>`, `[object Map Iterator]`, `Symbol(x)`). */
const refusedText = (o: JSObject): string => (o.kind.includes(" ") || o.kind === "Generator" ? `[object ${o.kind}]` : `#<${o.kind === "Arguments" ? "Object" : o.kind}>`)

/** Ordinary objects as far as cloning goes: plain objects and the slot-less objects Node clones as `{}`. */
const isOrdinary = (o: JSObject): boolean => {
  const cls = Object.getPrototypeOf(o) as object
  if (cls === JSObject.prototype) return o.kind === "Object"
  return o instanceof MathObject || o instanceof TextEncoderObject || o instanceof TextDecoderObject
}

// https://html.spec.whatwg.org/multipage/structured-data.html#structuredserializeinternal (and deserialize)
function* Clone(s: CloneState, value: Value): Task<Value> {
  if (!(value instanceof JSObject)) {
    if (value instanceof SymbolValue) return dataCloneError(s.realm, `Symbol(${value.description ?? ""}) could not be cloned.`)
    return value
  }
  const existing = s.memory.get(value)
  if (existing !== undefined) return existing
  if (++s.depth > MAX_DEPTH) return throwRangeError("Maximum call stack size exceeded")
  try {
    return yield* CloneObject(s, value)
  } finally {
    s.depth--
  }
}

function* CloneObject(s: CloneState, value: JSObject): Task<Value> {
  const realm = s.realm
  const remember = <T extends JSObject>(clone: T): T => {
    s.memory.set(value, clone)
    return clone
  }
  if (value.isCallable()) {
    const source = yield* Call(realm.intrinsic("%Function.prototype.toString%"), value)
    return dataCloneError(realm, `${String(source)} could not be cloned.`)
  }
  if (value instanceof PrimitiveWrapper) {
    if (value.kind === "Symbol") return dataCloneError(realm, "[object Symbol] could not be cloned.")
    return remember(new PrimitiveWrapper(realm.intrinsic(`%${value.kind}.prototype%`), value.kind as "Number", value.primitive))
  }
  if (value instanceof DateObject) return remember(new DateObject(realm.intrinsic("%Date.prototype%"), value.dateValue))
  if (value instanceof RegExpObject) return remember(RegExpCreateLiteral(realm, value.originalSource, value.originalFlags))
  if (value instanceof ArrayBufferObject) {
    if (value.data === null) return dataCloneError(realm, "An ArrayBuffer is detached and could not be cloned.")
    return remember(new ArrayBufferObject(realm.intrinsic("%ArrayBuffer.prototype%"), value.data.slice(), value.maxByteLength))
  }
  if (value instanceof TypedArrayObject || value instanceof DataViewObject) {
    const outOfBounds = value instanceof TypedArrayObject ? IsTypedArrayOutOfBounds(value) : IsViewOutOfBounds(value)
    if (outOfBounds) return dataCloneError(realm, "An ArrayBuffer is detached and could not be cloned.")
    const buffer = (yield* Clone(s, value.buffer)) as ArrayBufferObject
    if (value instanceof DataViewObject) {
      return remember(new DataViewObject(realm.intrinsic("%DataView.prototype%"), buffer, value.byteOffset, value.byteLength))
    }
    const proto = realm.intrinsic(`%${value.typedArrayName}.prototype%`)
    return remember(new TypedArrayObject(proto, value.typedArrayName, buffer, value.byteOffset, value.arrayLength))
  }
  if (value instanceof MapObject || value instanceof SetObject) {
    // Entries only, from a copy of the list taken now (getters below may change the original).
    const isMap = value instanceof MapObject
    const target = remember(isMap ? new MapObject(realm.intrinsic("%Map.prototype%")) : new SetObject(realm.intrinsic("%Set.prototype%")))
    const keys = value.liveKeys()
    const values = isMap ? keys.map((k) => value.getEntry(k)) : []
    for (let i = 0; i < keys.length; i++) {
      const k = yield* Clone(s, keys[i])
      const v = isMap ? yield* Clone(s, values[i]) : undefined
      if (!target.hasEntry(k)) target.setEntry(k, v)
    }
    return target
  }
  if (value instanceof DOMExceptionObject) {
    return remember(CreateDOMException(realm, value.exceptionMessage, value.exceptionName))
  }
  if (value instanceof ErrorObject) return yield* CloneError(s, value)
  if (value instanceof URLObject || value instanceof URLSearchParamsObject || value instanceof HeadersObject) {
    return dataCloneError(realm, "Cannot clone object of unsupported type.")
  }
  if (value instanceof ArrayObject) {
    const target = remember(new ArrayObject(realm.intrinsic("%Array.prototype%")))
    target.length = value.length
    yield* CloneProperties(s, value, target)
    return target
  }
  if (!isOrdinary(value)) return dataCloneError(realm, `${refusedText(value)} could not be cloned.`)
  const target = remember(new JSObject(realm.intrinsic("%Object.prototype%")))
  yield* CloneProperties(s, value, target)
  return target
}

/** The own enumerable string-keyed properties, each read (getters run) only if it is still there when reached. */
function* CloneProperties(s: CloneState, value: JSObject, target: JSObject): Task<void> {
  const keys: string[] = []
  for (const key of value.OwnPropertyKeys()) {
    if (typeof key !== "string") continue
    if (value instanceof ArrayObject && key === "length") continue
    const desc = value.GetOwnProperty(key)
    if (desc !== undefined && desc.enumerable) keys.push(key)
  }
  for (const key of keys) {
    if (value.GetOwnProperty(key) === undefined) continue
    const inputValue = yield* value.Get(key, value)
    const outputValue = yield* Clone(s, inputValue)
    CreateDataProperty(target, key, outputValue)
  }
}

/** An error: V8 keeps the prototype of a standard `name`, an own data `message`, a string `stack` and own `cause`. */
function* CloneError(s: CloneState, value: ErrorObject): Task<Value> {
  const realm = s.realm
  const nameValue = yield* value.Get("name", value)
  const nameString = typeof nameValue === "string" ? nameValue : yield* ToString(realm, nameValue)
  const name = ERROR_NAMES.has(nameString) ? nameString : "Error"
  const messageDesc = value.GetOwnProperty("message")
  let message: string | undefined
  if (messageDesc !== undefined && !messageDesc.accessor) {
    message = typeof messageDesc.value === "string" ? messageDesc.value : yield* ToString(realm, messageDesc.value)
  }
  const stack = yield* value.Get("stack", value)
  const target = new ErrorObject(realm.intrinsic(`%${name}.prototype%`), realm.host.currentLocation())
  s.memory.set(value, target)
  InstallErrorStack(realm, target, "")
  target.stack = { value: typeof stack === "string" ? stack : undefined }
  if (message !== undefined) target.properties.set("message", Property.data(message, true, false, true))
  const causeDesc = value.GetOwnProperty("cause")
  if (causeDesc !== undefined && !causeDesc.accessor) {
    const cause = yield* Clone(s, causeDesc.value)
    target.properties.set("cause", Property.data(cause, true, false, true))
  }
  return target
}

// https://html.spec.whatwg.org/multipage/structured-data.html#dom-structuredclone
function* Global_structuredClone(realm: Realm, _this: Value, args: Args): Task<Value> {
  if (args.length === 0) {
    // Node's own wording (its ERR_MISSING_ARGS is given a sentence instead of an argument name).
    return throwCodedError(realm, "TypeError", "ERR_MISSING_ARGS", 'The "The value argument must be specified" argument must be specified')
  }
  const [value, options] = args
  // The transfer list: ArrayBuffers only, no duplicates, none detached; checked before anything is cloned.
  const transferList: ArrayBufferObject[] = []
  if (options !== undefined && options !== null) {
    if (!(options instanceof JSObject)) return throwTypeError("Failed to execute 'structuredClone': Options cannot be converted to a dictionary")
    const transfer = yield* options.Get("transfer", options)
    if (transfer !== undefined) {
      // WebIDL sequence<object>: an iterable, or this TypeError.
      const method = transfer instanceof JSObject ? yield* transfer.Get(WellKnownSymbols.iterator, transfer) : undefined
      if (!IsCallable(method)) return throwTypeError("Failed to execute 'structuredClone': transfer in Options cannot be converted to sequence.")
      for (const t of yield* IterableToList(realm, transfer, method)) {
        if (!(t instanceof ArrayBufferObject)) return dataCloneError(realm, "Found invalid value in transferList.")
        if (transferList.includes(t)) return dataCloneError(realm, "Transfer list contains duplicate ArrayBuffer")
        if (t.data === null) return dataCloneError(realm, "Cannot transfer object of unsupported type.")
        transferList.push(t)
      }
    }
  }
  const s: CloneState = { realm, memory: new Map(), depth: 0 }
  // A transferred buffer's clone takes over its bytes (at the end, once the clone has succeeded).
  const transferred = transferList.map((t) => {
    const target = new ArrayBufferObject(realm.intrinsic("%ArrayBuffer.prototype%"), new Uint8Array(0), t.maxByteLength)
    s.memory.set(t, target)
    return target
  })
  let result: Value
  try {
    result = yield* Clone(s, value)
  } catch (e) {
    // A host stack overflow on deep data reads as V8's RangeError.
    if (e instanceof RangeError) throw new SandboxError("RangeError", "Maximum call stack size exceeded")
    throw e
  }
  transferList.forEach((t, i) => {
    transferred[i]!.data = t.data
    t.data = null
  })
  return result
}

export const install = (realm: Realm): void => {
  defineMethods(realm, realm.globalObject, "%GlobalObject%", [["structuredClone", Global_structuredClone, 2]])
  markEnumerable(realm.globalObject, ["structuredClone"])
}
