/**
 * What the run loop's instructions do beyond a few lines: property access fast paths (plain data properties via
 * `lookup`, dense array elements), and the slow paths as Tasks (getters, setters, coercions that may call user
 * code), for-in enumeration, iterator steps, template objects, function objects, arguments objects, private
 * names and `super` references. Fast paths return `MISS` when they cannot answer without running user code; the
 * instruction then runs the Task on a native frame.
 */
import type { CodeObject, TemplateSite } from "../compiler/code.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { SandboxError, throwTypeError, ThrowCompletion } from "../runtime/completion.ts"
import { PrototypeForPrimitive, ToBoolean, ToObject, ToPropertyKey } from "../runtime/conversions.ts"
import { NativeFunction, ScriptFunction } from "../runtime/function-object.ts"
import { DONE, IteratorClose, IteratorComplete, IteratorStepValue, IteratorValue, type IteratorRecord } from "../runtime/iteration.ts"
import { JSObject, type PrivateElement, PrivateName } from "../runtime/object.ts"
import { Call, GetMethod, GetV, PutValueOnBase, SetIntegrityLevel, describeValue } from "../runtime/operations.ts"
import { arrayIndexOf, Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import { type EngineRequest, isTask, type Task } from "../runtime/task.ts"
import { EMPTY, type Empty, type PropertyKey, SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"
import type { Environment, ForInIterator } from "./frame.ts"

export const MISS: unique symbol = Symbol("miss")
export type Miss = typeof MISS

// --- Property access ----------------------------------------------------------------------------------------------

const ordinaryGet = JSObject.prototype.Get
const ordinarySet = JSObject.prototype.Set

/** OrdinaryGet up the chain without running anything; MISS at an accessor or an object with its own [[Get]]. */
const lookupValue = (o: JSObject | null, key: PropertyKey): Value | Miss => {
  for (; o !== null; o = o.GetPrototypeOf()) {
    if (o.Get !== ordinaryGet) return MISS
    const p = o.GetOwnProperty(key)
    if (p !== undefined) return p.accessor ? MISS : p.value
  }
  return undefined
}

/** [[Get]] without running anything: the value, or MISS (accessor, exotic, primitive base without a prototype). */
export const getFast = (realm: Realm, base: Value, key: PropertyKey): Value | Miss => {
  if (base instanceof JSObject) {
    if (base instanceof ArrayObject && key === "length") return base.length
    return lookupValue(base, key)
  }
  if (typeof base === "string") {
    if (key === "length") return base.length
    if (typeof key === "string") {
      const i = arrayIndexOf(key)
      if (i >= 0) return i < base.length ? (base[i] as string) : MISS
    }
  }
  if (base === undefined || base === null) return MISS
  return lookupValue(PrototypeForPrimitive(realm, base), key)
}

/** [[Set]] of a plain writable data property (existing, or new on an extensible object); false: take the Task. */
export const setFast = (base: Value, key: PropertyKey, v: Value): boolean => {
  if (!(base instanceof JSObject) || base.Set !== ordinarySet) return false
  const own = base.properties.get(key)
  if (own !== undefined) {
    if (own.accessor || !own.writable) return false
    if (base instanceof ArrayObject && arrayIndexOf(key) >= 0) return false
    own.value = v
    return true
  }
  if (!base.extensible || key === "length" || base.GetOwnProperty(key) !== undefined) return false
  if ((base instanceof ArrayObject || base.kind === "String") && arrayIndexOf(key) >= 0) return false
  for (let o = base.GetPrototypeOf(); o !== null; o = o.GetPrototypeOf()) {
    if (o.Set !== ordinarySet) return false
    const p = o.GetOwnProperty(key)
    if (p !== undefined) {
      if (p.accessor || !p.writable) return false
      break
    }
  }
  base.properties.set(key, Property.data(v, true, true, true))
  return true
}

/** Element read with a number key on a dense array. */
export const getIndexFast = (realm: Realm, base: Value, key: number): Value | Miss => {
  if (base instanceof ArrayObject) {
    const els = base.elements
    if (els !== null && key >= 0 && key < els.length && (key | 0) === key) {
      const v = els[key] as Value | Empty
      if (v !== EMPTY) return v
    }
  } else if (typeof base === "string" && key >= 0 && key < base.length && (key | 0) === key) {
    return base[key] as string
  }
  return getFast(realm, base, String(key))
}

/** Element write with a number key on a dense extensible array. */
export const setIndexFast = (realm: Realm, base: Value, key: number, v: Value): boolean => {
  if (!(base instanceof ArrayObject) || (key | 0) !== key || key < 0) return false
  const els = base.elements
  if (els === null) return false
  if (key < els.length && els[key] !== EMPTY) {
    els[key] = v
    return true
  }
  // A new element: no prototype may intercept the index (setters or read-only indices on Array.prototype).
  const proto = base.GetPrototypeOf()
  if (proto !== null && proto.lookup(String(key)) !== undefined) return false
  void realm
  return base.setOwnElement(key, v)
}

export function* GetValueTask(realm: Realm, base: Value, key: Value): Task<Value> {
  const P = yield* ToPropertyKey(realm, key)
  return yield* GetV(realm, base, P)
}

export function* PutValueTask(realm: Realm, base: Value, key: Value, v: Value, strict: boolean): Task<Value> {
  const P = yield* ToPropertyKey(realm, key)
  yield* PutValueOnBase(realm, base, P, v, strict)
  return v
}

/** A primitive property key without user code, or MISS for an object key. */
export const propertyKeyFast = (key: Value): PropertyKey | Miss => {
  if (typeof key === "string" || key instanceof SymbolValue) return key
  if (key instanceof JSObject) return MISS
  return String(key)
}

// --- Iteration ------------------------------------------------------------------------------------------------

/**
 * Iterating an array whose iteration behaviour is the built-in one (its @@iterator is %Array.prototype.values% and
 * %ArrayIteratorPrototype%.next is the original): no iterator object and no result objects are created, which no
 * program can observe. Only for-of, destructuring and spread use it (yield* needs the real iterator).
 */
export class FastArrayRecord implements IteratorRecord {
  readonly iterator: ArrayObject
  readonly nextMethod: Value
  done = false
  index = 0
  constructor(array: ArrayObject, nextMethod: Value) {
    this.iterator = array
    this.nextMethod = nextMethod
  }
}

/** A FastArrayRecord for `v` if its iteration is the built-in array iteration, else undefined. */
export const fastArrayRecord = (realm: Realm, v: Value): FastArrayRecord | undefined => {
  if (!(v instanceof ArrayObject)) return undefined
  const values = realm.intrinsics.get("%Array.prototype.values%")
  if (values === undefined || getFast(realm, v, WellKnownSymbols.iterator) !== values) return undefined
  const next = realm.intrinsics.get("%ArrayIteratorPrototype.next%")
  const proto = realm.intrinsics.get("%ArrayIteratorPrototype%")
  if (next === undefined || proto === undefined || getFast(realm, proto, "next") !== next) return undefined
  return new FastArrayRecord(v, next)
}

/** Resumes a Task that already yielded `first` (it was started inline and needs the engine). */
export function* continueTask<T>(task: Task<T>, first: IteratorResult<EngineRequest, T>): Task<T> {
  let step = first
  while (step.done !== true) {
    let answer: Value
    try {
      answer = yield step.value
    } catch (e) {
      step = task.throw(e)
      continue
    }
    step = task.next(answer)
  }
  return step.value
}

/**
 * IteratorStepValue: the next value, or EMPTY when done. When `next` is a built-in that runs no user code and
 * its result is a plain data object, no Task is needed; otherwise returns the Task to run.
 */
export const iteratorStepFast = (realm: Realm, record: IteratorRecord): Value | Empty | Task<Value | Empty> => {
  if (record.done) return EMPTY
  if (record instanceof FastArrayRecord) {
    const array = record.iterator
    const i = record.index
    if (i >= array.length) {
      record.done = true
      return EMPTY
    }
    record.index = i + 1
    const v = getIndexFast(realm, array, i)
    return v !== MISS ? v : GetV(realm, array, String(i))
  }
  const next = record.nextMethod
  if (next instanceof NativeFunction) {
    let result: unknown
    try {
      result = next.impl(realm, record.iterator, [], undefined, next)
      if (isTask(result)) {
        // A built-in `next` that may run user code: run it inline until it needs the engine.
        const task = result as Task<Value>
        const first = task.next()
        if (first.done !== true) return finishTaskStep(record, continueTask(task, first))
        result = first.value
      }
    } catch (e) {
      record.done = true
      throw e
    }
    if (result instanceof JSObject) {
      const d = result.lookup("done")
      const v = result.lookup("value")
      if ((d === undefined || !d.accessor) && (v === undefined || !v.accessor)) {
        if (d !== undefined && ToBoolean(d.value)) {
          record.done = true
          return EMPTY
        }
        return v === undefined ? undefined : v.value
      }
      return finishStep(record, result)
    }
    record.done = true
    return throwTypeError(`Iterator result ${describeValue(result as Value)} is not an object`)
  }
  return stepTask(record)
}

function* finishTaskStep(record: IteratorRecord, task: Task<Value>): Task<Value | Empty> {
  let result: Value
  try {
    result = yield* task
  } catch (e) {
    record.done = true
    throw e
  }
  if (!(result instanceof JSObject)) {
    record.done = true
    return throwTypeError(`Iterator result ${describeValue(result)} is not an object`)
  }
  return yield* finishStep(record, result)
}

function* finishStep(record: IteratorRecord, result: JSObject): Task<Value | Empty> {
  try {
    if (yield* IteratorComplete(result)) {
      record.done = true
      return EMPTY
    }
    return yield* IteratorValue(result)
  } catch (e) {
    record.done = true
    throw e
  }
}

function* stepTask(record: IteratorRecord): Task<Value | Empty> {
  const v = yield* IteratorStepValue(record)
  return v === DONE ? EMPTY : v
}

/** IteratorClose for a normal completion, unless the iterator is done; marks it done first. */
export function* IteratorCloseIfNotDone(realm: Realm, record: IteratorRecord): Task<Value> {
  if (record.done) return undefined
  record.done = true
  if (record instanceof FastArrayRecord) return undefined
  yield* IteratorClose(realm, record)
  return undefined
}

/** IteratorClose for a throw completion: errors from `return` are ignored, the original is rethrown. */
export function* IteratorCloseForThrow(realm: Realm, record: IteratorRecord, error: Value): Task<Value> {
  if (!record.done && !(record instanceof FastArrayRecord)) {
    record.done = true
    try {
      const ret = yield* GetMethod(realm, record.iterator, "return")
      if (ret !== undefined) yield* Call(ret, record.iterator)
    } catch (inner) {
      if (!(inner instanceof ThrowCompletion) && !(inner instanceof SandboxError)) throw inner
    }
  }
  throw new ThrowCompletion(error)
}

/** Collects the rest of an iterator into an array (array destructuring rest). */
export function* IteratorRest(realm: Realm, record: IteratorRecord): Task<Value> {
  const values: Value[] = []
  for (;;) {
    const step = iteratorStepFast(realm, record)
    const v = isTask(step) ? yield* (step as Task<Value | Empty>) : (step as Value | Empty)
    if (v === EMPTY) break
    values.push(v)
  }
  return new ArrayObject(realm.ArrayPrototype, values)
}

// --- for-in ---------------------------------------------------------------------------------------------------

// https://tc39.es/ecma262/#sec-enumerate-object-properties
export const ForInIteratorOf = (realm: Realm, v: Value): ForInIterator => ({
  object: v === undefined || v === null ? null : ToObject(realm, v),
  visited: new Set(),
  keys: [],
  index: -1,
})

/** The next enumerable string key not seen before (own first, then up the chain), or undefined when done. */
export const ForInNext = (it: ForInIterator): string | undefined => {
  for (;;) {
    const o = it.object
    if (o === null) return undefined
    if (it.index < 0) {
      it.keys = o.OwnPropertyKeys()
      it.index = 0
    }
    while (it.index < it.keys.length) {
      const k = it.keys[it.index++] as PropertyKey
      if (typeof k !== "string" || it.visited.has(k)) continue
      const desc = o.GetOwnProperty(k)
      if (desc === undefined) continue
      it.visited.add(k)
      if (desc.enumerable) return k
    }
    it.object = o.GetPrototypeOf()
    it.index = -1
  }
}

// --- Literals -------------------------------------------------------------------------------------------------

/** https://tc39.es/ecma262/#sec-gettemplateobject (cached per site by the caller). */
export const CreateTemplateObject = (realm: Realm, site: TemplateSite): JSObject => {
  const raw = new ArrayObject(realm.ArrayPrototype, [...site.raw])
  const template = new ArrayObject(realm.ArrayPrototype, site.cooked.map((c) => c))
  SetIntegrityLevel(raw, "frozen")
  template.properties.set("raw", Property.data(raw, false, false, false))
  SetIntegrityLevel(template, "frozen")
  return template
}

// --- Function objects -------------------------------------------------------------------------------------------

const PROTOTYPE_FOR_KIND = {
  normal: "%Function.prototype%",
  generator: "%GeneratorFunction.prototype%",
  async: "%AsyncFunction.prototype%",
  asyncGenerator: "%AsyncGeneratorFunction.prototype%",
} as const

/** OrdinaryFunctionCreate + MakeConstructor / generator prototype, for a closure of `code` over `env`. */
export const MakeFunction = (realm: Realm, code: CodeObject, env: Environment | null, proto?: JSObject): ScriptFunction => {
  const role = code.role
  const kind = code.functionKind
  const constructable = kind === "normal" && (role === "function" || role === "classConstructor" || role === "derivedConstructor")
  // The program body runs with `this` undefined even in sloppy mode.
  const thisMode = role === "arrow" ? "lexical" : code.strict || role === "program" ? "strict" : "global"
  const F = new ScriptFunction(proto ?? realm.intrinsic(PROTOTYPE_FOR_KIND[kind]), code, env, kind, thisMode, code.strict, constructable)
  F.properties.set("length", Property.data(code.length, false, false, true))
  F.properties.set("name", Property.data(code.name, false, false, true))
  if (role === "function" && kind === "normal") {
    if (!code.strict) {
      // V8 gives sloppy plain functions own `arguments` and `caller` (null).
      F.properties.set("arguments", Property.data(null, false, false, false))
      F.properties.set("caller", Property.data(null, false, false, false))
    }
    const prototype = new JSObject(realm.ObjectPrototype)
    prototype.properties.set("constructor", Property.data(F, true, false, true))
    F.properties.set("prototype", Property.data(prototype, true, false, false))
  } else if (kind === "generator" || kind === "asyncGenerator") {
    const prototype = new JSObject(realm.intrinsic(kind === "generator" ? "%GeneratorPrototype%" : "%AsyncGeneratorPrototype%"))
    F.properties.set("prototype", Property.data(prototype, true, false, false))
  }
  return F
}

/** https://tc39.es/ecma262/#sec-setfunctionname */
export const SetFunctionName = (F: JSObject, key: PropertyKey | PrivateName, prefix?: string): void => {
  let name = key instanceof SymbolValue ? (key.description === undefined ? "" : `[${key.description}]`) : key instanceof PrivateName ? key.description : key
  if (prefix !== undefined) name = `${prefix} ${name}`
  F.properties.set("name", Property.data(name, false, false, true))
}

/** An unmapped arguments object (https://tc39.es/ecma262/#sec-createunmappedargumentsobject). */
export const CreateArgumentsObject = (realm: Realm, args: ReadonlyArray<Value>, callee: JSObject | undefined, strict: boolean): JSObject => {
  // NON-SPEC: sloppy functions get an unmapped arguments object too (writes to it do not alias parameters).
  const obj = new JSObject(realm.ObjectPrototype)
  obj.kind = "Arguments"
  args.forEach((v, i) => obj.properties.set(String(i), Property.data(v)))
  obj.properties.set("length", Property.data(args.length, true, false, true))
  const values = realm.intrinsics.get("%Array.prototype.values%")
  if (values !== undefined) obj.properties.set(WellKnownSymbols.iterator, Property.data(values, true, false, true))
  if (strict || callee === undefined) {
    const thrower = realm.intrinsics.get("%ThrowTypeError%")
    if (thrower !== undefined) obj.properties.set("callee", Property.accessorOf(thrower, thrower, false, false))
  } else {
    obj.properties.set("callee", Property.data(callee, true, false, true))
  }
  return obj
}

// --- Private names ----------------------------------------------------------------------------------------------

const privateNotDeclared = (P: PrivateName, verb: "read" | "write"): never =>
  throwTypeError(`Cannot ${verb} private member ${P.description} from an object whose class did not declare it`)

/** https://tc39.es/ecma262/#sec-privateget — the value, or the getter to call. */
export const PrivateGetFast = (O: Value, P: PrivateName): { readonly value: Value } | { readonly getter: JSObject } => {
  const entry = O instanceof JSObject ? O.privateElements?.get(P) : undefined
  if (entry === undefined) return privateNotDeclared(P, "read")
  if (entry.kind !== "accessor") return { value: entry.value }
  if (entry.get === undefined) return throwTypeError(`'${P.description}' was defined without a getter`)
  return { getter: entry.get }
}

/** https://tc39.es/ecma262/#sec-privateset — done, or the setter to call. */
export const PrivateSetFast = (O: Value, P: PrivateName, value: Value): JSObject | undefined => {
  const entry = O instanceof JSObject ? O.privateElements?.get(P) : undefined
  if (entry === undefined) return privateNotDeclared(P, "write")
  if (entry.kind === "field") {
    entry.value = value
    return undefined
  }
  if (entry.kind === "method") return throwTypeError(`Private method '${P.description}' is not writable`)
  if (entry.set === undefined) return throwTypeError(`'${P.description}' was defined without a setter`)
  return entry.set
}

/** https://tc39.es/ecma262/#sec-privatefieldadd and PrivateMethodOrAccessorAdd. */
export const PrivateElementAdd = (O: Value, P: PrivateName, element: PrivateElement): void => {
  if (!(O instanceof JSObject)) return throwTypeError("Cannot add private members to a non-object")
  O.privateElements ??= new Map()
  if (O.privateElements.has(P)) {
    return throwTypeError(
      element.kind === "field" ? `Cannot initialize ${P.description} twice on the same object` : `Cannot initialize private methods of class twice on the same object`,
    )
  }
  O.privateElements.set(P, element)
}
