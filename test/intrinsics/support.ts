/**
 * A tiny engine for unit-testing natives before (and besides) the VM: it drives a Task by answering its `call` and
 * `construct` requests for NativeFunction and BoundFunction targets natively and recursively, and turns host-side
 * sandbox throws into ThrowCompletions the way an engine does. Script functions do not exist here: callbacks are
 * natives made with `fn`.
 */
import { createRealm as createFullRealm } from "../../src/intrinsics/index.ts"
import { families } from "../../src/intrinsics/families.ts"
import { Property } from "../../src/runtime/property.ts"
import { Realm as RealmClass } from "../../src/runtime/realm.ts"
import { CreateBuiltinFunction } from "../../src/runtime/builtin.ts"
import { ThrowCompletion } from "../../src/runtime/completion.ts"
import { toThrowCompletion } from "../../src/runtime/errors.ts"
import { BoundFunction, NativeFunction } from "../../src/runtime/function-object.ts"
import { JSObject } from "../../src/runtime/object.ts"
import { ArrayObject } from "../../src/runtime/array-object.ts"
import { CreateArrayFromList, CreateDataProperty } from "../../src/runtime/operations.ts"
import { RunJob } from "../../src/runtime/promise.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { type EngineRequest, isTask, type Task } from "../../src/runtime/task.ts"
import { SymbolValue, type PropertyKey, type Value } from "../../src/runtime/value.ts"

/**
 * A realm. While some families are still placeholders, the prototypes other code relies on (%Array.prototype%,
 * %Number.prototype%...) are stubbed with plain objects so the families under test can run.
 */
export const createRealm = (): Realm => {
  try {
    return createFullRealm()
  } catch {
    const realm = new RealmClass()
    const ObjectPrototype = new JSObject(null)
    realm.ObjectPrototype = ObjectPrototype
    realm.register("%Object.prototype%", ObjectPrototype)
    const FunctionPrototype = CreateBuiltinFunction(realm, "Function.prototype", () => undefined, 0, "", { proto: ObjectPrototype })
    realm.FunctionPrototype = FunctionPrototype
    realm.register("%Function.prototype%", FunctionPrototype)
    const g = new JSObject(ObjectPrototype)
    realm.globalObject = g
    realm.register("%GlobalObject%", g)
    g.properties.set("globalThis", Property.data(g, true, false, true))
    realm.ArrayPrototype = new ArrayObject(ObjectPrototype)
    realm.register("%Array.prototype%", realm.ArrayPrototype)
    realm.register("%Iterator.prototype%", new JSObject(ObjectPrototype))
    // Families other engineers are still writing may fail to install in isolation: skip them.
    for (const f of families) {
      try {
        f.install(realm)
      } catch {
        // left out of this test realm
      }
    }
    for (const name of ["Array", "Number", "String", "BigInt", "Map", "Set", "Date", "RegExp", "Iterator"]) {
      if (realm.ownIntrinsics.has(`%${name}.prototype%`)) continue
      const proto = name === "Array" ? new ArrayObject(ObjectPrototype) : new JSObject(ObjectPrototype)
      realm.register(`%${name}.prototype%`, proto)
    }
    realm.ArrayPrototype = realm.intrinsic("%Array.prototype%")
    return realm
  }
}

const MAX_DEPTH = 2000
let depth = 0

/** [[Call]] of a native or bound function, natively. */
export const callFunction = (realm: Realm, f: JSObject, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  if (f instanceof BoundFunction) return callFunction(realm, f.target, f.boundThis, [...f.boundArgs, ...args])
  if (!(f instanceof NativeFunction)) throw new Error(`test engine: cannot call ${f.constructor.name}`)
  if (++depth > MAX_DEPTH) throw new Error("test engine: runaway recursion")
  try {
    const r = f.impl(realm, thisArg, args, undefined, f)
    return isTask(r) ? drive(realm, r) : (r as Value)
  } finally {
    depth--
  }
}

/** [[Construct]] of a native or bound constructor, natively. */
export const constructFunction = (realm: Realm, f: JSObject, args: ReadonlyArray<Value>, newTarget: JSObject = f): JSObject => {
  if (f instanceof BoundFunction) {
    return constructFunction(realm, f.target, [...f.boundArgs, ...args], newTarget === f ? f.target : newTarget)
  }
  if (!(f instanceof NativeFunction)) throw new Error(`test engine: cannot construct ${f.constructor.name}`)
  const r = f.impl(realm, undefined, args, newTarget, f)
  return (isTask(r) ? drive(realm, r) : r) as JSObject
}

const answer = (realm: Realm, req: EngineRequest): Value => {
  switch (req.kind) {
    case "call":
      return callFunction(realm, req.f, req.thisArg, req.args)
    case "construct":
      return constructFunction(realm, req.f, req.args, req.newTarget)
    default:
      throw new Error(`test engine: unsupported request ${req.kind}`)
  }
}

/** Runs a Task to completion; sandbox throws surface as ThrowCompletion. */
export const drive = <T>(realm: Realm, task: Task<T>): T => {
  let step = task.next()
  while (!step.done) {
    let result: Value = undefined
    let thrown: ThrowCompletion | undefined
    try {
      result = answer(realm, step.value)
    } catch (e) {
      thrown = toThrowCompletion(realm, e)
    }
    step = thrown !== undefined ? task.throw(thrown) : task.next(result)
  }
  return step.value
}

/** Runs `body` and converts any sandbox throw (SandboxError or ThrowCompletion) into a ThrowCompletion. */
export const attempt = <T>(realm: Realm, body: () => T): { ok: true; value: T } | { ok: false; error: Value } => {
  try {
    return { ok: true, value: body() }
  } catch (e) {
    return { ok: false, error: toThrowCompletion(realm, e).value }
  }
}

/** A native callback from a host function (args, this) => Value. */
export const fn = (realm: Realm, body: (args: ReadonlyArray<Value>, thisArg: Value) => Value, name = "cb", length = 0): NativeFunction =>
  CreateBuiltinFunction(realm, `test.${name}`, (_r, thisArg, args) => body(args, thisArg), length, name)

/** Reads a data property natively (test helper; accessors are not run). */
export const get = (o: JSObject, key: PropertyKey): Value => {
  const p = o.lookup(key)
  return p === undefined ? undefined : p.accessor ? undefined : p.value
}

/** Calls `obj[key](...args)`. */
export const invoke = (realm: Realm, obj: Value, key: PropertyKey, args: ReadonlyArray<Value> = []): Value => {
  const holder = obj instanceof JSObject ? obj : realm.intrinsic(protoNameOf(obj))
  const f = get(holder, key)
  if (!(f instanceof JSObject)) throw new Error(`test engine: ${String(key)} is not a function`)
  return callFunction(realm, f, obj, args)
}

const protoNameOf = (v: Value): string => {
  switch (typeof v) {
    case "boolean":
      return "%Boolean.prototype%"
    case "number":
      return "%Number.prototype%"
    case "string":
      return "%String.prototype%"
    case "bigint":
      return "%BigInt.prototype%"
    default:
      if (v instanceof SymbolValue) return "%Symbol.prototype%"
      throw new Error("test engine: no prototype for " + String(v))
  }
}

/** A global by name, e.g. `global(realm, "JSON")`. */
export const global = (realm: Realm, name: string): JSObject => {
  const v = get(realm.globalObject, name)
  if (!(v instanceof JSObject)) throw new Error(`test engine: no global ${name}`)
  return v
}

/** Runs every queued job (microtasks) in FIFO order. */
export const runJobs = (realm: Realm): void => {
  while (realm.jobs.length > 0) drive(realm, RunJob(realm, realm.jobs.shift()!))
}

/** A host value (JSON-like, plus undefined) as a sandbox value: objects and arrays become sandbox ones. */
export const toSandbox = (realm: Realm, v: unknown): Value => {
  if (v instanceof JSObject || v instanceof SymbolValue) return v
  if (Array.isArray(v)) return CreateArrayFromList(realm, v.map((x) => toSandbox(realm, x)))
  if (typeof v === "object" && v !== null) {
    const o = new JSObject(realm.ObjectPrototype)
    for (const [k, x] of Object.entries(v)) CreateDataProperty(o, k, toSandbox(realm, x))
    return o
  }
  return v as Value
}

/** A sandbox value as host data for assertions: arrays, plain objects (own enumerable data properties). */
export const toHost = (v: Value): unknown => {
  if (v instanceof ArrayObject) {
    const out: unknown[] = []
    for (let i = 0; i < v.length; i++) out.push(toHost(get(v, String(i))))
    return out
  }
  if (v instanceof JSObject) {
    if (v.isCallable()) return `[function ${String(get(v, "name"))}]`
    const out: Record<string, unknown> = {}
    for (const k of v.OwnPropertyKeys()) {
      const p = v.GetOwnProperty(k)
      if (typeof k === "string" && p !== undefined && p.enumerable && !p.accessor) {
        Object.defineProperty(out, k, { value: toHost(p.value), writable: true, enumerable: true, configurable: true })
      }
    }
    return out
  }
  if (v instanceof SymbolValue) return `Symbol(${v.description ?? ""})`
  return v
}

/** `name: message` of a thrown error value (data properties only). */
export const errorText = (e: Value): string => {
  if (!(e instanceof JSObject)) return `Uncaught ${String(e)}`
  return `${String(get(e, "name"))}: ${String(get(e, "message"))}`
}
