/**
 * References (https://tc39.es/ecma262/#sec-reference-record-specification-type): reading and writing bindings
 * (environment records, or the global object for names no scope declares), and property references — `o.x`,
 * `o[k]`, `o.#x`, `super.x` — evaluated in two steps as the spec orders them: first the base and key, then the
 * get or the put. Plain data properties and dense array elements are read and written without a Task (the fast
 * paths both engines share); anything that may run user code (accessors, coercions) runs as a Task inline.
 */
import type { ESTree } from "meriyah"
import { staticKey } from "../language/static-semantics.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { throwReferenceError, throwTypeError } from "../runtime/completion.ts"
import { ToPropertyKey } from "../runtime/conversions.ts"
import type { PrivateName } from "../runtime/object.ts"
import { CreateDataPropertyOrThrow, GetV } from "../runtime/operations.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type PropertyKey, type Value } from "../runtime/value.ts"
import { getFast, getIndexFast, GetValueTask, MISS, propertyKeyFast, PutValueTask, setFast, setIndexFast, SuperGetTask, SuperSetTask } from "../runtime/references.ts"
import { PrivateGetFast, PrivateSetFast } from "../runtime/class-elements.ts"
import { recordOf, type Ref, tdzError } from "./environment.ts"
import { Evaluate } from "./expressions.ts"
import { CallFunction } from "./functions.ts"
import type { Activation, Eval } from "./machine.ts"
import { slow } from "./machine.ts"

export type Expr = ESTree.Expression | ESTree.PrivateIdentifier | ESTree.Super | ESTree.SpreadElement

export { MISS }

// --- Bindings ---------------------------------------------------------------------------------------------------

/** The value of a binding, or MISS for a global accessor (read it with `GetV`). */
export const loadRef = (a: Activation, ref: Ref | null, name: string): Value | typeof MISS => {
  if (ref === null) {
    const p = a.realm.globalObject.lookup(name)
    if (p === undefined) return throwReferenceError(`${name} is not defined`)
    return p.accessor ? MISS : p.value
  }
  const v = recordOf(a.env, ref).slots[ref.slot]
  if (v === EMPTY) {
    if (ref.checked) return tdzError(ref.binding.name)
  }
  return v as Value
}

/** Reads a binding by reference. */
export function* GetBindingValue(a: Activation, ref: Ref | null, name: string): Eval<Value> {
  const v = loadRef(a, ref, name)
  if (v !== MISS) return v
  return yield* slow(GetV(a.realm, a.realm.globalObject, name))
}

/**
 * Writes a binding: `init` initializes a declaration, otherwise it is an assignment (which checks constness and
 * the TDZ). Returns a Task to run when a global setter must be called.
 */
export const storeRef = (a: Activation, ref: Ref | null, name: string, v: Value, init: boolean): Task<Value> | undefined => {
  if (ref === null) {
    const global = a.realm.globalObject
    if (!global.HasProperty(name)) {
      if (a.code.strict) throwReferenceError(`${name} is not defined`)
      CreateDataPropertyOrThrow(global, name, v)
      return undefined
    }
    if (setFast(global, name, v)) return undefined
    return PutValueTask(a.realm, global, name, v, a.code.strict)
  }
  const b = ref.binding
  const record = recordOf(a.env, ref)
  if (!init && b.isImmutable) {
    if (b.kind === "callee" && !a.code.strict) return undefined
    if (ref.checked && record.slots[ref.slot] === EMPTY) tdzError(b.name)
    return throwTypeError("Assignment to constant variable.")
  }
  if (!init && ref.checked && record.slots[ref.slot] === EMPTY) tdzError(b.name)
  record.slots[ref.slot] = v
  return undefined
}

/** Writes a binding by reference (PutValue / InitializeReferencedBinding). */
export function* PutBindingValue(a: Activation, ref: Ref | null, name: string, v: Value, init: boolean): Eval<void> {
  const t = storeRef(a, ref, name, v, init)
  if (t !== undefined) yield* slow(t)
}

/** The private name a `#x` denotes in the current class scope. */
export const privateNameOf = (a: Activation, node: ESTree.PrivateIdentifier): PrivateName => {
  const ref = a.program.layout.ref(node)
  if (ref === null) throw new Error(`codemode bug: unresolved #${node.name}`)
  return recordOf(a.env, ref).slots[ref.slot] as PrivateName
}

// --- Property references ----------------------------------------------------------------------------------------

export const RefKind = { Field: 0, Elem: 1, Private: 2, Super: 3 } as const

/** An evaluated property reference: base (or home function and `this` for super) and key. */
export interface PropertyRef {
  readonly kind: number
  /** Field/Elem/Private: the base value. Super: the active function (whose home object's prototype is the base). */
  readonly base: Value
  /** Super: the `this` value. */
  readonly thisValue: Value
  /** A property key (Field), a PrivateName, or a computed key's value (converted at each get and put, as V8 does). */
  readonly key: PropertyKey | PrivateName | Value
}

/** `super.x`: the active function (home object) and `this`. */
export function superBase(a: Activation, node: ESTree.Super): { func: Value; thisValue: Value } {
  const refs = a.program.analysis.superReferences.get(node)
  if (refs === undefined) throw new Error("codemode bug: unresolved super")
  const layout = a.program.layout
  const func = loadRef(a, layout.refOf(refs.func), "%function-object") as Value
  const thisValue = loadRef(a, layout.refOf(refs.thisValue), "this") as Value
  return { func, thisValue }
}

/** Converts a computed key (the VM's ToPropertyKey instruction). */
export function* ToPropertyKeyValue(a: Activation, key: Value): Eval<PropertyKey> {
  const k = propertyKeyFast(key)
  if (k !== MISS) return k
  return yield* slow(ToPropertyKey(a.realm, key))
}

/** Evaluates a member reference's base and key (prepareMember). */
export function* PrepareMember(a: Activation, m: ESTree.MemberExpression): Eval<PropertyRef> {
  if (m.object.type === "Super") {
    const { func, thisValue } = superBase(a, m.object)
    if (!m.computed) return { kind: RefKind.Super, base: func, thisValue, key: staticKey(m.property) }
    return { kind: RefKind.Super, base: func, thisValue, key: yield* Evaluate(a, m.property as ESTree.Expression) }
  }
  const base = yield* Evaluate(a, m.object as ESTree.Expression)
  if (m.property.type === "PrivateIdentifier") return { kind: RefKind.Private, base, thisValue: undefined, key: privateNameOf(a, m.property) }
  if (!m.computed) return { kind: RefKind.Field, base, thisValue: undefined, key: (m.property as ESTree.Identifier).name }
  return { kind: RefKind.Elem, base, thisValue: undefined, key: yield* Evaluate(a, m.property) }
}

/** GetValue of a prepared property reference. */
export function* GetMember(a: Activation, r: PropertyRef): Eval<Value> {
  const realm = a.realm
  switch (r.kind) {
    case RefKind.Super:
      return yield* slow(SuperGetTask(realm, r.base, r.thisValue, r.key as Value))
    case RefKind.Private:
      return yield* GetPrivate(a, r.base, r.key as PrivateName)
    case RefKind.Elem:
      return yield* GetElement(a, r.base, r.key as Value)
    default: {
      const v = getFast(realm, r.base, r.key as PropertyKey)
      if (v !== MISS) return v
      return yield* slow(GetV(realm, r.base, r.key as PropertyKey))
    }
  }
}

/** PutValue of a prepared property reference; `m` locates errors. */
export function* PutMember(a: Activation, m: ESTree.Node, r: PropertyRef, v: Value): Eval<Value> {
  a.offset = m.start ?? a.offset
  const realm = a.realm
  switch (r.kind) {
    case RefKind.Super:
      return yield* slow(SuperSetTask(realm, r.base, r.thisValue, r.key as Value, v))
    case RefKind.Private: {
      const setter = PrivateSetFast(r.base, r.key as PrivateName, v)
      if (setter !== undefined) yield { kind: "call", f: setter, thisArg: r.base, args: [v] }
      return v
    }
    default:
      if (putFast(realm, r.kind, r.base, r.key as Value, v)) return v
      return yield* slow(PutValueTask(realm, r.base, r.key as Value, v, a.code.strict))
  }
}

/** PutValue of a field or element reference (an unconverted key) without user code; false: run PutValueTask. */
export const putFast = (realm: Realm, kind: number, base: Value, key: Value, v: Value): boolean => {
  if (kind === RefKind.Field) return setFast(base, key as PropertyKey, v)
  if (typeof key === "number") return setIndexFast(realm, base, key, v)
  return typeof key === "string" && !(base instanceof ArrayObject) && setFast(base, key, v)
}

/** `o.#x` (https://tc39.es/ecma262/#sec-privateget). */
export function* GetPrivate(a: Activation, base: Value, P: PrivateName): Eval<Value> {
  const r = PrivateGetFast(base, P)
  if ("value" in r) return r.value
  return yield* CallFunction(a, r.getter, base, [], "")
}

/** `o[key]` with an unconverted key (GetElem). */
export function* GetElement(a: Activation, base: Value, key: Value): Eval<Value> {
  const v = getElementFast(a.realm, base, key)
  if (v !== MISS) return v
  return yield* slow(GetValueTask(a.realm, base, key))
}

/** `o[key]` without user code, or MISS. */
export const getElementFast = (realm: Realm, base: Value, key: Value): Value | typeof MISS => {
  if (typeof key === "number") return getIndexFast(realm, base, key)
  const k = propertyKeyFast(key)
  return k === MISS ? MISS : getFast(realm, base, k)
}

/** `o.name` (GetField). */
export function* GetField(a: Activation, base: Value, key: string): Eval<Value> {
  const v = getFast(a.realm, base, key)
  if (v !== MISS) return v
  return yield* slow(GetV(a.realm, base, key))
}

