/**
 * Realms forked from a template. Building a realm's intrinsics takes milliseconds and about 700 objects, 2,000
 * properties, while a typical run touches a few dozen of them; so a process builds them once, in a template realm,
 * and every run gets a fork whose objects are copied from the template's as the run reaches them:
 *
 * - an object of the template gets its twin in the fork (same class, internal slots copied, prototype twinned)
 *   the first time something in the fork refers to it;
 * - a twin's own properties are copied, their values twinned, one by one as they are read or written, and all at
 *   once the first time they are enumerated (`ForkedProperties` stands in for the property map until then and
 *   replaces itself with the copy).
 *
 * Nothing mutable is shared — only native behaviours, strings and symbols — so nothing one run does is visible to
 * another or to the template. Sealing takes the property maps out of the template's objects: if a template object
 * ever reached a run (a built-in that kept one in a closure), the run would fail loudly instead of sharing it.
 * A twin keeps its template object's intrinsic name, so snapshots still name built-ins as before.
 */
import { ArrayObject } from "./array-object.ts"
import { NativeFunction } from "./function-object.ts"
import { JSObject } from "./object.ts"
import { PrimitiveWrapper } from "./primitive-wrapper.ts"
import { arrayIndexOf, Property } from "./property.ts"
import { ABSENT, type Absent, type OwnProperties } from "./property-store.ts"
import { Realm } from "./realm.ts"
import type { PropertyKey, Value } from "./value.ts"

type Properties = OwnProperties

/** Builds the twin of template object `t` (own properties aside) with prototype `proto`; `twin` maps references. */
export type Forker<T extends JSObject> = (t: T, proto: JSObject | null, twin: <V>(v: V) => V) => T

const forkers = new Map<Function, Forker<JSObject>>()

/**
 * Declares how instances of `cls` (exactly that class) are forked. Classes with internal slots that can appear in
 * a template declare theirs beside their definition; a template object of an undeclared class cannot be forked.
 */
export const defineForker = <T extends JSObject>(cls: abstract new (...args: never[]) => T, forker: Forker<T>): void => {
  forkers.set(cls, forker as unknown as Forker<JSObject>)
}

defineForker(JSObject, (_t, proto) => new JSObject(proto))
defineForker(NativeFunction, (t, proto, twin) => {
  const f = new NativeFunction(proto, t.nativeId, t.impl, t.constructable)
  if (t.slots !== undefined) {
    const slots: NonNullable<NativeFunction["slots"]> = {}
    for (const [k, v] of Object.entries(t.slots)) slots[k] = Array.isArray(v) ? v.map(twin) : twin(v)
    f.slots = slots
  }
  return f
})
defineForker(ArrayObject, (t, proto, twin) => {
  const a = new ArrayObject(proto, t.elements === null ? [] : t.elements.map(twin))
  if (t.elements === null) a.elements = null
  a.length = t.length
  a.lengthWritable = t.lengthWritable
  return a
})
defineForker(PrimitiveWrapper, (t, proto) => new PrimitiveWrapper(proto, t.kind as "String", t.primitive))

/** What a fork needs of one template object: its own properties (taken out of it), name, forker and index. */
interface TemplateEntry {
  readonly properties: Properties
  readonly name: string
  readonly forker: Forker<JSObject>
  readonly index: number
}

/**
 * Where a template object was met from the object that holds it, for naming one that has none: its prototype, a
 * data property's value, an accessor's getter or setter (by key), or an internal slot (by slot name).
 */
export type TemplateEdge = "proto" | "value" | "get" | "set" | "slot"

/** The name of an unnamed object met along `edge` (at `key`) from the object named `owner` (snapshot/realm-names.ts). */
export type NameByPath = (owner: string, edge: TemplateEdge, key?: PropertyKey) => string

/** A sealed template: its realm (never run) and, for each of its objects, what a fork needs to twin it. */
export class RealmTemplate {
  readonly realm: Realm
  readonly entries = new Map<JSObject, TemplateEntry>()

  /**
   * Seals `realm`, which nothing may use afterwards except through forks. The walk that finds every object it holds
   * also names, by `nameByPath`, those reached from a named one that the intrinsic families did not name; one
   * reached only through an array (a slot's list, an Array's elements) must have a name already.
   */
  constructor(realm: Realm, nameByPath: NameByPath) {
    this.realm = realm
    const queue: JSObject[] = []
    const add = (v: unknown, owner?: string, edge?: TemplateEdge, key?: PropertyKey): void => {
      if (!(v instanceof JSObject) || this.entries.has(v)) return
      const forker = forkers.get(v.constructor)
      if (forker === undefined) throw new Error(`codemode bug: a template holds a ${v.constructor.name}, which cannot be forked`)
      let name = realm.intrinsicNames.get(v)
      if (name === undefined && owner !== undefined) {
        name = nameByPath(owner, edge!, key)
        realm.register(name, v)
      }
      if (name === undefined) throw new Error("codemode bug: a template object has no intrinsic name")
      this.entries.set(v, { properties: v.properties, name, forker, index: queue.length })
      queue.push(v)
    }
    for (const o of realm.ownIntrinsics.values()) add(o)
    add(realm.globalObject)
    for (let i = 0; i < queue.length; i++) {
      const o = queue[i]!
      const name = this.entries.get(o)!.name
      add(o.proto, name, "proto")
      for (const [key, p] of o.properties.entries()) {
        if (p.accessor) {
          add(p.get, name, "get", key)
          add(p.set, name, "set", key)
        } else add(p.value, name, "value", key)
      }
      if (o instanceof NativeFunction && o.slots !== undefined) {
        for (const [k, v] of Object.entries(o.slots)) {
          if (Array.isArray(v)) for (const x of v) add(x)
          else add(v, name, "slot", k)
        }
      }
      if (o instanceof ArrayObject && o.elements !== null) for (const x of o.elements) add(x)
    }
    for (const o of queue) o.properties = POISONED
  }

  /** A new realm whose intrinsics are this template's, copied on first use. */
  fork(): Realm {
    const realm = new Realm()
    const fork = new Fork(this, realm)
    realm.fork = fork
    const t = this.realm
    realm.ObjectPrototype = fork.twin(t.ObjectPrototype)
    realm.FunctionPrototype = fork.twin(t.FunctionPrototype)
    realm.ArrayPrototype = fork.twin(t.ArrayPrototype)
    realm.globalObject = fork.twin(t.globalObject)
    return realm
  }
}

/** One fork's side of its template: its twins by template index, and in the order they were made. */
export class Fork {
  readonly template: RealmTemplate
  readonly realm: Realm
  private readonly byIndex: Array<JSObject | undefined>
  readonly made: JSObject[] = []

  constructor(template: RealmTemplate, realm: Realm) {
    this.template = template
    this.realm = realm
    this.byIndex = new Array(template.entries.size)
  }

  /** The twin of the template's intrinsic `name`, if the template has one. */
  intrinsic(name: string): JSObject | undefined {
    const t = this.template.realm.ownIntrinsics.get(name)
    return t === undefined ? undefined : this.twin(t)
  }

  /** The fork's twin of a template object; anything else as it is. */
  readonly twin = <V>(v: V): V => {
    if (!(v instanceof JSObject)) return v
    const entry = this.template.entries.get(v)
    if (entry === undefined) return v
    const done = this.byIndex[entry.index]
    if (done !== undefined) return done as V
    // Registered before the prototype is twinned: a prototype chain may lead back here through a slot.
    const o = entry.forker(v, null, this.twin)
    this.byIndex[entry.index] = o
    this.made.push(o)
    o.proto = this.twin(v.proto)
    o.extensible = v.extensible
    o.kind = v.kind
    o.properties = new ForkedProperties(o, o.properties, entry.properties, this)
    this.realm.intrinsicNames.set(o, entry.name)
    return o as V
  }
}

/**
 * The own properties of a twin until their values are first enumerated, or they are deleted or counted (or their keys
 * enumerated after one was added): then the template object's are
 * copied (values twinned) into the twin's own empty Map, which takes this stand-in's place on the object. Until
 * then a read copies just the property read, and a write keeps just the property written (a new key after the
 * template's, as a Map would order it): setting a run's globals and reading a few of them twins a handful of
 * objects, not every global constructor. A caller still holding the stand-in is served from the copy. It holds no
 * store itself (that would cost one per twin); code that must have one calls `materialize`.
 */
export class ForkedProperties implements OwnProperties {
  private done = false
  private readonly owner: JSObject
  private readonly target: Properties
  private readonly source: Properties
  private readonly fork: Fork
  /** Template keys read or written before the full copy, with the fork's property (the one the full copy keeps). */
  private copied: Map<PropertyKey, Property> | undefined = undefined
  /** Keys the template lacks, set before the full copy, in the order they were set. */
  private added: Map<PropertyKey, Property> | undefined = undefined

  constructor(owner: JSObject, target: Properties, source: Properties, fork: Fork) {
    this.owner = owner
    this.target = target
    this.source = source
    this.fork = fork
  }

  /** Whether the properties are still the template's, unread and unwritten. */
  get untouched(): boolean {
    return !this.done && this.copied === undefined && this.added === undefined
  }

  /** The template object's properties this one copies. */
  get template(): Properties {
    return this.source
  }

  /** Whether the template's properties have all been copied (the stand-in then only forwards to the copy). */
  get materialized(): boolean {
    return this.done
  }

  /**
   * The properties read or written so far, without copying the rest: those the template does not hold as they are
   * (all of them once copied).
   */
  changes(): Iterable<[PropertyKey, Property]> {
    if (this.done) return this.target.entries()
    return [...(this.copied ?? []), ...(this.added ?? [])]
  }

  /** Before the full copy: the template keys read or written so far. */
  copiedKeys(): Iterable<PropertyKey> {
    return this.copied?.keys() ?? []
  }

  /** Before the full copy: the keys the template lacks, in the order they were set, with their properties. */
  addedEntries(): ReadonlyArray<[PropertyKey, Property]> {
    return [...(this.added ?? [])]
  }

  private copy(p: Property): Property {
    const twin = this.fork.twin
    return new Property(p.accessor, twin(p.value), twin(p.get), twin(p.set), p.writable, p.enumerable, p.configurable)
  }

  materialize(): Properties {
    const target = this.target
    if (this.done) return target
    const copied = this.copied
    for (const k of this.source.keys()) target.set(k, copied?.get(k) ?? this.copy(this.source.peek(k)!))
    if (this.added !== undefined) for (const [k, p] of this.added) target.set(k, p)
    this.done = true
    this.copied = undefined
    this.added = undefined
    this.owner.properties = target
    return target
  }

  get size(): number {
    return this.materialize().size
  }
  get(k: PropertyKey): Property | undefined {
    if (this.done) return this.target.get(k)
    const own = this.copied?.get(k) ?? this.added?.get(k)
    if (own !== undefined) return own
    const p = this.source.peek(k)
    if (p === undefined) return undefined
    const copy = this.copy(p)
    ;(this.copied ??= new Map()).set(k, copy)
    return copy
  }
  set(k: PropertyKey, p: Property): this {
    if (this.done) this.target.set(k, p)
    else if (this.source.has(k)) (this.copied ??= new Map()).set(k, p)
    else (this.added ??= new Map()).set(k, p)
    return this
  }
  peek(k: PropertyKey): Property | undefined {
    return this.get(k)
  }
  read(k: PropertyKey): Value | Property | Absent {
    return this.get(k) ?? ABSENT
  }
  write(k: PropertyKey, v: Value): void {
    this.get(k)!.value = v
  }
  add(k: PropertyKey, v: Value): void {
    this.set(k, Property.data(v))
  }
  has(k: PropertyKey): boolean {
    if (this.done) return this.target.has(k)
    return this.source.has(k) || (this.added?.has(k) ?? false)
  }
  delete(k: PropertyKey): boolean {
    return this.materialize().delete(k)
  }
  clear(): void {
    this.materialize().clear()
  }
  forEach(f: (p: Property, k: PropertyKey) => void): void {
    this.materialize().forEach(f)
  }
  keys(): IterableIterator<PropertyKey> {
    // The keys alone need no copy while nothing was added: they are the template's, in its order. Sorting or
    // slicing any array asks whether a prototype has index keys, which copied all of Array.prototype and
    // Object.prototype (a twin per built-in method) in every run.
    return this.done || this.added !== undefined ? this.materialize().keys() : this.source.keys()
  }
  orderedKeys(): PropertyKey[] | undefined {
    return this.done ? this.target.orderedKeys() : undefined
  }
  mayHaveIndexKey(): boolean {
    // Keys copied before the full copy are the template's: only added ones can be new.
    if (this.done) return this.target.mayHaveIndexKey()
    if (this.added !== undefined) for (const k of this.added.keys()) if (typeof k === "string" && arrayIndexOf(k) >= 0) return true
    return this.source.mayHaveIndexKey()
  }
  values(): IterableIterator<Property> {
    return this.materialize().values()
  }
  entries(): IterableIterator<[PropertyKey, Property]> {
    return this.materialize().entries()
  }
}

/** The properties a sealed template object is left with: any use of them is a bug that would leak across runs. */
const fail = (): never => {
  throw new Error("codemode bug: a run reached an object of the template realm")
}
class PoisonedProperties implements OwnProperties {
  get size(): never {
    return fail()
  }
  get = fail
  peek = fail
  read = fail
  write = fail
  add = fail
  set = fail
  has = fail
  delete = fail
  clear = fail
  keys = fail
  orderedKeys = fail
  mayHaveIndexKey = fail
  values = fail
  entries = fail
  forEach = fail
}

const POISONED: Properties = new PoisonedProperties()

/** Whether `o` is a twin whose own properties are still exactly its template object's. */
export const untouchedTwin = (o: JSObject): boolean => {
  const p: unknown = o.properties
  return p instanceof ForkedProperties && p.untouched
}
