/**
 * Keyed collections (https://tc39.es/ecma262/#sec-keyed-collections): Map, Set, WeakMap, WeakSet, the Map and Set
 * iterators, Map.groupBy and the Set methods (union, intersection, ... over "set-like" objects).
 *
 * Storage. A Map or Set keeps its entries as the spec does, an ordered list in which a deleted entry becomes a
 * tombstone (`EMPTY`), plus a host Map from key to position for lookups (keys are canonicalized, -0 to +0, so host
 * SameValueZero is the spec's). Iteration walks positions, so entries added during a forEach or an iteration are
 * seen and deleted ones skipped, exactly as the spec's list (and V8) behave, including after `clear`. When
 * tombstones outnumber live entries the list is compacted; every cursor walking the list is registered on the
 * collection (`cursors`) and has its position moved to the same live entry, so compaction is invisible. Iterator
 * objects are such cursors; native loops (forEach, the Set methods) make an unexposed one. An iterator that
 * finishes leaves the list and never resumes, as the spec's iterator closure does. All of it is plain data.
 *
 * NON-SPEC: WeakMap and WeakSet hold their keys strongly (a host Map). Runs are short-lived and their heap is
 * bounded, so nothing observable is lost: weakness is not observable without WeakRef/FinalizationRegistry.
 */
import { PollCompare } from "../runtime/interrupt.ts"
import { chargeMemory, Cost } from "../runtime/memory.ts"
import { checkArrayStorage } from "../runtime/caps.ts"
import { SandboxError, ThrowCompletion, throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { ToBoolean, ToIntegerOrInfinity, ToNumber } from "../runtime/conversions.ts"
import { defineAccessors, defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { IsCallable } from "../runtime/function-object.ts"
import {
  DONE,
  GetIterator,
  IteratorClose,
  IteratorCloseOnThrow,
  IteratorStepValue,
  CreateIterResultObject,
  type IteratorRecord,
} from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import { Call, CreateArrayFromList, describeValue, GetPrototypeFromConstructor, notAnEntryMessage } from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type Empty, SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"

/** Compaction happens once at least this many tombstones outnumber the live entries. */
const MIN_TOMBSTONES_TO_COMPACT = 16

/** A walker over a collection's entry list: an iterator object, or the unexposed cursor of a native loop. */
export class CollectionIterator extends JSObject {
  /** The collection walked; undefined once the iteration has finished (it then never resumes). */
  collection: KeyedCollection | undefined
  /** The next position to look at in `collection.keys`. */
  position = 0
  readonly iterationKind: "key" | "value" | "key+value"
  constructor(proto: JSObject | null, kind: "Map Iterator" | "Set Iterator", collection: KeyedCollection, iterationKind: "key" | "value" | "key+value") {
    super(proto)
    this.kind = kind
    this.collection = collection
    this.iterationKind = iterationKind
    collection.cursors.push(this)
  }

  /** The position of the next live entry, or -1 when the walk is over (then it is unregistered for good). */
  advance(): number {
    const c = this.collection
    if (c === undefined) return -1
    while (this.position < c.entryKeys.length) {
      const i = this.position++
      if (c.entryKeys[i] !== EMPTY) return i
    }
    this.finish()
    return -1
  }

  /** Ends the walk early (a native loop that returns before the end). */
  finish(): void {
    const c = this.collection
    if (c === undefined) return
    const at = c.cursors.indexOf(this)
    if (at >= 0) c.cursors.splice(at, 1)
    this.collection = undefined
  }
}

/**
 * [[MapData]] / [[SetData]]: the ordered entry list with tombstones. Its members are not named as a Map's: an
 * object is its own property store (property-store.ts), whose get/set/has/... they would replace.
 */
export class KeyedCollection extends JSObject {
  readonly entryKeys: Array<Value | Empty> = []
  /** Values by position (Maps only). */
  readonly entryValues: Value[] = []
  /** Position of each live key (canonicalized). */
  readonly index = new Map<Value, number>()
  /** Live walkers, whose positions compaction must move. */
  readonly cursors: CollectionIterator[] = []

  get entryCount(): number {
    return this.index.size
  }

  hasEntry(key: Value): boolean {
    return this.index.has(CanonicalizeKeyedCollectionKey(key))
  }

  getEntry(key: Value): Value {
    const i = this.index.get(CanonicalizeKeyedCollectionKey(key))
    return i === undefined ? undefined : this.entryValues[i]
  }

  /** Sets the value of an existing key or appends a new entry. */
  setEntry(key: Value, value: Value): void {
    const k = CanonicalizeKeyedCollectionKey(key)
    const i = this.index.get(k)
    if (i !== undefined) {
      this.entryValues[i] = value
      return
    }
    checkArrayStorage(this.entryKeys.length + 1)
    chargeMemory(Cost.entry)
    this.index.set(k, this.entryKeys.length)
    this.entryKeys.push(k)
    this.entryValues.push(value)
  }

  deleteEntry(key: Value): boolean {
    const k = CanonicalizeKeyedCollectionKey(key)
    const i = this.index.get(k)
    if (i === undefined) return false
    this.index.delete(k)
    this.entryKeys[i] = EMPTY
    this.entryValues[i] = undefined
    this.maybeCompact()
    return true
  }

  clearEntries(): void {
    this.entryKeys.fill(EMPTY)
    this.entryValues.fill(undefined)
    this.index.clear()
    this.maybeCompact()
  }

  /** The live keys in order (a snapshot of the list, for copies). */
  liveKeys(): Value[] {
    const out: Value[] = []
    for (const k of this.entryKeys) if (k !== EMPTY) out.push(k)
    return out
  }

  private maybeCompact(): void {
    const tombstones = this.entryKeys.length - this.index.size
    if (tombstones < MIN_TOMBSTONES_TO_COMPACT || tombstones <= this.index.size) return
    // liveBefore[p] = number of live entries at positions < p: a cursor at p moves to liveBefore[p].
    const liveBefore = new Array<number>(this.entryKeys.length + 1)
    let live = 0
    for (let p = 0; p < this.entryKeys.length; p++) {
      liveBefore[p] = live
      if (this.entryKeys[p] !== EMPTY) {
        const k = this.entryKeys[p] as Value
        this.entryKeys[live] = k
        this.entryValues[live] = this.entryValues[p]
        this.index.set(k, live)
        live++
      }
    }
    liveBefore[this.entryKeys.length] = live
    for (const c of this.cursors) c.position = liveBefore[Math.min(c.position, this.entryKeys.length)]!
    this.entryKeys.length = live
    this.entryValues.length = live
  }
}

export class MapObject extends KeyedCollection {
  constructor(proto: JSObject | null) {
    super(proto)
    this.kind = "Map"
  }
}

export class SetObject extends KeyedCollection {
  constructor(proto: JSObject | null) {
    super(proto)
    this.kind = "Set"
  }
}

/** [[WeakMapData]] / [[WeakSetData]]: held strongly (see the header). */
export class WeakCollection extends JSObject {
  readonly data = new Map<Value, Value>()
  constructor(proto: JSObject | null, kind: "WeakMap" | "WeakSet") {
    super(proto)
    this.kind = kind
  }
}

// https://tc39.es/ecma262/#sec-canonicalizekeyedcollectionkey
export const CanonicalizeKeyedCollectionKey = (key: Value): Value => {
  // A long string key is hashed and compared whole by the host's Map: weighed by its length.
  PollCompare(key)
  return key === 0 ? 0 : key
}

// https://tc39.es/ecma262/#sec-canbeheldweakly
const CanBeHeldWeakly = (realm: Realm, v: Value): boolean => {
  if (v instanceof JSObject) return true
  if (v instanceof SymbolValue) {
    if (v.wellKnownName?.startsWith("for:") === true) return false
    for (const s of realm.symbolRegistry.values()) if (s === v) return false
    return true
  }
  return false
}

/** A throw that a native loop must answer by closing its iterator; a Termination passes straight through. */
const isAbrupt = (e: unknown): boolean => e instanceof ThrowCompletion || e instanceof SandboxError

const incompatible = (method: string, receiver: Value): never =>
  throwTypeError(`Method ${method} called on incompatible receiver ${describeValue(receiver)}`)

const thisMap = (v: Value, method: string): MapObject => (v instanceof MapObject ? v : incompatible(method, v))
const thisSet = (v: Value, method: string): SetObject => (v instanceof SetObject ? v : incompatible(method, v))
const thisWeak = (v: Value, kind: "WeakMap" | "WeakSet", method: string): WeakCollection =>
  v instanceof WeakCollection && v.kind === kind ? v : incompatible(method, v)

const requireCallable = (f: Value): JSObject => (IsCallable(f) ? f : throwTypeError(`${describeValue(f)} is not a function`))

// https://tc39.es/ecma262/#sec-add-entries-from-iterable
function* AddEntriesFromIterable(realm: Realm, target: JSObject, iterable: Value, adder: JSObject): Task<void> {
  const iteratorRecord = yield* GetIterator(realm, iterable)
  for (;;) {
    const next = yield* IteratorStepValue(iteratorRecord)
    if (next === DONE) return
    if (!(next instanceof JSObject)) {
      const error = new SandboxError("TypeError", notAnEntryMessage(next))
      return yield* IteratorCloseOnThrow(realm, iteratorRecord, error)
    }
    try {
      const k = yield* next.Get("0", next)
      const v = yield* next.Get("1", next)
      yield* Call(adder, target, [k, v])
    } catch (e) {
      if (!isAbrupt(e)) throw e
      return yield* IteratorCloseOnThrow(realm, iteratorRecord, e)
    }
  }
}

/** The part of the Set and WeakSet constructors that adds each value of the iterable. */
function* AddValuesFromIterable(realm: Realm, target: JSObject, iterable: Value, adder: JSObject): Task<void> {
  const iteratorRecord = yield* GetIterator(realm, iterable)
  for (;;) {
    const next = yield* IteratorStepValue(iteratorRecord)
    if (next === DONE) return
    try {
      yield* Call(adder, target, [next])
    } catch (e) {
      if (!isAbrupt(e)) throw e
      return yield* IteratorCloseOnThrow(realm, iteratorRecord, e)
    }
  }
}

/** The adder of a collection constructor (`set` or `add`), looked up on the new object. */
function* GetAdder(O: JSObject, name: "set" | "add"): Task<JSObject> {
  const adder = yield* O.Get(name, O)
  if (!IsCallable(adder)) {
    return throwTypeError(`'${describeValue(adder)}' returned for property '${name}' of object '${describeValue(O)}' is not a function`)
  }
  return adder
}

// ---------------------------------------------------------------------------------------------------------------
// Map

// https://tc39.es/ecma262/#sec-map-iterable
function* Map_(realm: Realm, _t: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  // 1. If NewTarget is undefined, throw a TypeError exception.
  if (newTarget === undefined) return throwTypeError("Constructor Map requires 'new'")
  // 2. Let map be ? OrdinaryCreateFromConstructor(NewTarget, "%Map.prototype%", « [[MapData]] »).
  const map = new MapObject(yield* GetPrototypeFromConstructor(realm, newTarget, "%Map.prototype%"))
  const iterable = args[0]
  // 4. If iterable is either undefined or null, return map.
  if (iterable === undefined || iterable === null) return map
  // 5-7. Let adder be ? Get(map, "set"); IsCallable or TypeError; AddEntriesFromIterable.
  const adder = yield* GetAdder(map, "set")
  yield* AddEntriesFromIterable(realm, map, iterable, adder)
  return map
}

// https://tc39.es/ecma262/#sec-map.groupby
function* Map_groupBy(realm: Realm, _t: Value, args: ReadonlyArray<Value>): Task<Value> {
  const [items, callbackfn] = args
  const groups = yield* GroupBy(realm, items, callbackfn)
  const map = new MapObject(realm.intrinsic("%Map.prototype%"))
  for (const [key, elements] of groups) map.setEntry(key, CreateArrayFromList(realm, elements))
  return map
}

// https://tc39.es/ecma262/#sec-groupby (keyCoercion: collection)
function* GroupBy(realm: Realm, items: Value, callbackfn: Value): Task<Array<[Value, Value[]]>> {
  // 1. Perform ? RequireObjectCoercible(items).
  if (items === undefined || items === null) return throwTypeError("Map.groupBy called on null or undefined")
  // 2. If IsCallable(callback) is false, throw a TypeError exception.
  const callback = requireCallable(callbackfn)
  const groups: Array<[Value, Value[]]> = []
  const byKey = new Map<Value, Value[]>()
  const iteratorRecord = yield* GetIterator(realm, items)
  for (let k = 0; ; k++) {
    if (k >= Number.MAX_SAFE_INTEGER) {
      return yield* IteratorCloseOnThrow(realm, iteratorRecord, new SandboxError("TypeError", "Too many elements"))
    }
    const value = yield* IteratorStepValue(iteratorRecord)
    if (value === DONE) return groups
    let key: Value
    try {
      key = yield* Call(callback, undefined, [value, k])
    } catch (e) {
      if (!isAbrupt(e)) throw e
      return yield* IteratorCloseOnThrow(realm, iteratorRecord, e)
    }
    // If key is -0, set key to +0; then AddValueToKeyedGroup (SameValue on canonical keys = host SameValueZero).
    key = CanonicalizeKeyedCollectionKey(key)
    const group = byKey.get(key)
    if (group !== undefined) group.push(value)
    else {
      const elements = [value]
      byKey.set(key, elements)
      groups.push([key, elements])
    }
  }
}

// https://tc39.es/ecma262/#sec-get-map-@@species
const get_species = (_r: Realm, thisArg: Value): Value => thisArg

// https://tc39.es/ecma262/#sec-map.prototype.clear
const MapProto_clear = (_r: Realm, thisArg: Value): Value => {
  thisMap(thisArg, "Map.prototype.clear").clearEntries()
  return undefined
}

// https://tc39.es/ecma262/#sec-map.prototype.delete
const MapProto_delete = (_r: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value =>
  thisMap(thisArg, "Map.prototype.delete").deleteEntry(args[0])

// https://tc39.es/ecma262/#sec-map.prototype.entries
const MapProto_entries = (realm: Realm, thisArg: Value): Value =>
  CreateMapIterator(realm, thisMap(thisArg, "Map.prototype.entries"), "key+value")

// https://tc39.es/ecma262/#sec-map.prototype.foreach
function* MapProto_forEach(_realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const M = thisMap(thisArg, "Map.prototype.forEach")
  const callback = requireCallable(args[0])
  const T = args[1]
  // 4-5. Walk the entry list by position; entries appended meanwhile are visited, deleted ones skipped.
  const cursor = new CollectionIterator(null, "Map Iterator", M, "key+value")
  try {
    for (let i = cursor.advance(); i >= 0; i = cursor.advance()) {
      yield* Call(callback, T, [M.entryValues[i], M.entryKeys[i] as Value, M])
    }
  } finally {
    cursor.finish()
  }
  return undefined
}

// https://tc39.es/ecma262/#sec-map.prototype.get
const MapProto_get = (_r: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => thisMap(thisArg, "Map.prototype.get").getEntry(args[0])

// https://tc39.es/ecma262/#sec-map.prototype.has
const MapProto_has = (_r: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => thisMap(thisArg, "Map.prototype.has").hasEntry(args[0])

// https://tc39.es/ecma262/#sec-map.prototype.keys
const MapProto_keys = (realm: Realm, thisArg: Value): Value => CreateMapIterator(realm, thisMap(thisArg, "Map.prototype.keys"), "key")

// https://tc39.es/ecma262/#sec-map.prototype.set
const MapProto_set = (_r: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const M = thisMap(thisArg, "Map.prototype.set")
  M.setEntry(args[0], args[1])
  return M
}

// https://tc39.es/ecma262/#sec-get-map.prototype.size
const MapProto_size = (_r: Realm, thisArg: Value): Value => thisMap(thisArg, "get Map.prototype.size").entryCount

// https://tc39.es/ecma262/#sec-map.prototype.values
const MapProto_values = (realm: Realm, thisArg: Value): Value => CreateMapIterator(realm, thisMap(thisArg, "Map.prototype.values"), "value")

// https://tc39.es/ecma262/#sec-createmapiterator
const CreateMapIterator = (realm: Realm, map: MapObject, kind: "key" | "value" | "key+value"): JSObject =>
  new CollectionIterator(realm.intrinsic("%MapIteratorPrototype%"), "Map Iterator", map, kind)

// https://tc39.es/ecma262/#sec-%mapiteratorprototype%.next
const MapIteratorProto_next = (realm: Realm, thisArg: Value): Value => {
  if (!(thisArg instanceof CollectionIterator) || thisArg.kind !== "Map Iterator") {
    return incompatible("Map Iterator.prototype.next", thisArg)
  }
  const M = thisArg.collection
  const i = thisArg.advance()
  if (i < 0 || M === undefined) return CreateIterResultObject(realm, undefined, true)
  const key = M.entryKeys[i] as Value
  switch (thisArg.iterationKind) {
    case "key":
      return CreateIterResultObject(realm, key, false)
    case "value":
      return CreateIterResultObject(realm, M.entryValues[i], false)
    default:
      return CreateIterResultObject(realm, CreateArrayFromList(realm, [key, M.entryValues[i]]), false)
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Set

// https://tc39.es/ecma262/#sec-set-iterable
function* Set_(realm: Realm, _t: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  if (newTarget === undefined) return throwTypeError("Constructor Set requires 'new'")
  const set = new SetObject(yield* GetPrototypeFromConstructor(realm, newTarget, "%Set.prototype%"))
  const iterable = args[0]
  if (iterable === undefined || iterable === null) return set
  const adder = yield* GetAdder(set, "add")
  yield* AddValuesFromIterable(realm, set, iterable, adder)
  return set
}

// https://tc39.es/ecma262/#sec-set.prototype.add
const SetProto_add = (_r: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const S = thisSet(thisArg, "Set.prototype.add")
  if (!S.hasEntry(args[0])) S.setEntry(args[0], undefined)
  return S
}

// https://tc39.es/ecma262/#sec-set.prototype.clear
const SetProto_clear = (_r: Realm, thisArg: Value): Value => {
  thisSet(thisArg, "Set.prototype.clear").clearEntries()
  return undefined
}

// https://tc39.es/ecma262/#sec-set.prototype.delete
const SetProto_delete = (_r: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value =>
  thisSet(thisArg, "Set.prototype.delete").deleteEntry(args[0])

// https://tc39.es/ecma262/#sec-set.prototype.entries
const SetProto_entries = (realm: Realm, thisArg: Value): Value =>
  CreateSetIterator(realm, thisSet(thisArg, "Set.prototype.entries"), "key+value")

// https://tc39.es/ecma262/#sec-set.prototype.foreach
function* SetProto_forEach(_realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const S = thisSet(thisArg, "Set.prototype.forEach")
  const callback = requireCallable(args[0])
  const T = args[1]
  const cursor = new CollectionIterator(null, "Set Iterator", S, "value")
  try {
    for (let i = cursor.advance(); i >= 0; i = cursor.advance()) {
      const e = S.entryKeys[i] as Value
      yield* Call(callback, T, [e, e, S])
    }
  } finally {
    cursor.finish()
  }
  return undefined
}

// https://tc39.es/ecma262/#sec-set.prototype.has
const SetProto_has = (_r: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => thisSet(thisArg, "Set.prototype.has").hasEntry(args[0])

// https://tc39.es/ecma262/#sec-get-set.prototype.size
const SetProto_size = (_r: Realm, thisArg: Value): Value => thisSet(thisArg, "get Set.prototype.size").entryCount

// https://tc39.es/ecma262/#sec-set.prototype.values (also Set.prototype.keys and @@iterator)
const SetProto_values = (realm: Realm, thisArg: Value): Value => CreateSetIterator(realm, thisSet(thisArg, "Set.prototype.values"), "value")

// https://tc39.es/ecma262/#sec-createsetiterator
const CreateSetIterator = (realm: Realm, set: SetObject, kind: "value" | "key+value"): JSObject =>
  new CollectionIterator(realm.intrinsic("%SetIteratorPrototype%"), "Set Iterator", set, kind)

// https://tc39.es/ecma262/#sec-%setiteratorprototype%.next
const SetIteratorProto_next = (realm: Realm, thisArg: Value): Value => {
  if (!(thisArg instanceof CollectionIterator) || thisArg.kind !== "Set Iterator") {
    return incompatible("Set Iterator.prototype.next", thisArg)
  }
  const S = thisArg.collection
  const i = thisArg.advance()
  if (i < 0 || S === undefined) return CreateIterResultObject(realm, undefined, true)
  const e = S.entryKeys[i] as Value
  return CreateIterResultObject(realm, thisArg.iterationKind === "key+value" ? CreateArrayFromList(realm, [e, e]) : e, false)
}

/** https://tc39.es/ecma262/#sec-set-records */
interface SetRecord {
  readonly set: JSObject
  readonly size: number
  readonly has: JSObject
  readonly keys: JSObject
}

// https://tc39.es/ecma262/#sec-getsetrecord
function* GetSetRecord(realm: Realm, obj: Value, method: string): Task<SetRecord> {
  // 1. If obj is not an Object, throw a TypeError exception.
  if (!(obj instanceof JSObject)) return throwTypeError(`${method} argument must be an object`)
  // 2-4. Let rawSize be ? Get(obj, "size"); numSize = ? ToNumber(rawSize); NaN is a TypeError.
  const rawSize = yield* obj.Get("size", obj)
  const numSize = yield* ToNumber(realm, rawSize)
  if (numSize !== numSize) return throwTypeError("The .size property is NaN")
  // 5-6. Let intSize be ! ToIntegerOrInfinity(numSize); negative is a RangeError.
  const intSize = yield* ToIntegerOrInfinity(realm, numSize)
  if (intSize < 0) return throwRangeError(`'${String(intSize)}' is an invalid size`)
  // 7-10. has and keys must be callable.
  const has = yield* obj.Get("has", obj)
  if (!IsCallable(has)) return throwTypeError(`${describeValue(has)} is not a function`)
  const keys = yield* obj.Get("keys", obj)
  if (!IsCallable(keys)) return throwTypeError(`${describeValue(keys)} is not a function`)
  return { set: obj, size: intSize, has, keys }
}

// https://tc39.es/ecma262/#sec-getiteratorfrommethod, as the Set methods use it on otherRec.[[Keys]]
function* GetKeysIterator(setRec: SetRecord): Task<IteratorRecord> {
  const iterator = yield* Call(setRec.keys, setRec.set)
  if (!(iterator instanceof JSObject)) return throwTypeError("Result of the keys method is not an object")
  const nextMethod = yield* iterator.Get("next", iterator)
  if (!IsCallable(nextMethod)) return throwTypeError(`${describeValue(nextMethod)} is not a function`)
  return { iterator, nextMethod, done: false }
}

/** A new Set (from %Set.prototype%, not a species) holding `elements` in order. */
const SetFromList = (realm: Realm, elements: Iterable<Value | Empty>): SetObject => {
  const S = new SetObject(realm.intrinsic("%Set.prototype%"))
  for (const e of elements) if (e !== EMPTY && !S.hasEntry(e)) S.setEntry(e, undefined)
  return S
}

/** Calls otherRec.[[Has]] on e: ToBoolean(? Call(otherRec.[[Has]], otherRec.[[SetObject]], « e »)). */
function* OtherHas(otherRec: SetRecord, e: Value): Task<boolean> {
  return ToBoolean(yield* Call(otherRec.has, otherRec.set, [e]))
}

// https://tc39.es/ecma262/#sec-set.prototype.union
function* SetProto_union(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisSet(thisArg, "Set.prototype.union")
  const otherRec = yield* GetSetRecord(realm, args[0], "Set.prototype.union")
  const keysIter = yield* GetKeysIterator(otherRec)
  // 5. Let resultSetData be a copy of O.[[SetData]].
  const result = SetFromList(realm, O.liveKeys())
  for (;;) {
    const next = yield* IteratorStepValue(keysIter)
    if (next === DONE) return result
    if (!result.hasEntry(next)) result.setEntry(next, undefined)
  }
}

// https://tc39.es/ecma262/#sec-set.prototype.intersection
function* SetProto_intersection(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisSet(thisArg, "Set.prototype.intersection")
  const otherRec = yield* GetSetRecord(realm, args[0], "Set.prototype.intersection")
  const result = new SetObject(realm.intrinsic("%Set.prototype%"))
  if (O.entryCount <= otherRec.size) {
    // 5. Walk O.[[SetData]] by position to its current end (it may grow or shrink during otherRec.[[Has]]).
    const cursor = new CollectionIterator(null, "Set Iterator", O, "value")
    try {
      for (let i = cursor.advance(); i >= 0; i = cursor.advance()) {
        const e = O.entryKeys[i] as Value
        if ((yield* OtherHas(otherRec, e)) && !result.hasEntry(e)) result.setEntry(e, undefined)
      }
    } finally {
      cursor.finish()
    }
  } else {
    // 6. Iterate other's keys; keep those in O.
    const keysIter = yield* GetKeysIterator(otherRec)
    for (;;) {
      const next = yield* IteratorStepValue(keysIter)
      if (next === DONE) break
      if (O.hasEntry(next) && !result.hasEntry(next)) result.setEntry(next, undefined)
    }
  }
  return result
}

// https://tc39.es/ecma262/#sec-set.prototype.difference
function* SetProto_difference(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisSet(thisArg, "Set.prototype.difference")
  const otherRec = yield* GetSetRecord(realm, args[0], "Set.prototype.difference")
  // 5. Let resultSetData be a copy of O.[[SetData]].
  const resultData: Array<Value | Empty> = O.liveKeys()
  if (O.entryCount <= otherRec.size) {
    // 6. For each element of the copy (fixed length), drop it if other has it.
    for (let index = 0; index < resultData.length; index++) {
      const e = resultData[index]!
      if (e !== EMPTY && (yield* OtherHas(otherRec, e))) resultData[index] = EMPTY
    }
  } else {
    // 7. Remove each of other's keys from the copy.
    const keysIter = yield* GetKeysIterator(otherRec)
    const positions = new Map<Value, number>()
    resultData.forEach((e, i) => positions.set(e as Value, i))
    for (;;) {
      const next = yield* IteratorStepValue(keysIter)
      if (next === DONE) break
      const at = positions.get(CanonicalizeKeyedCollectionKey(next))
      if (at !== undefined) resultData[at] = EMPTY
    }
  }
  return SetFromList(realm, resultData)
}

// https://tc39.es/ecma262/#sec-set.prototype.symmetricdifference
function* SetProto_symmetricDifference(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisSet(thisArg, "Set.prototype.symmetricDifference")
  const otherRec = yield* GetSetRecord(realm, args[0], "Set.prototype.symmetricDifference")
  const keysIter = yield* GetKeysIterator(otherRec)
  // 5. Let resultSetData be a copy of O.[[SetData]].
  const result = SetFromList(realm, O.liveKeys())
  for (;;) {
    const next = yield* IteratorStepValue(keysIter)
    if (next === DONE) return result
    const alreadyInResult = result.hasEntry(next)
    // 7.b.iv-v. In O: remove it from the result; not in O: add it.
    if (O.hasEntry(next)) {
      if (alreadyInResult) result.deleteEntry(next)
    } else if (!alreadyInResult) result.setEntry(next, undefined)
  }
}

// https://tc39.es/ecma262/#sec-set.prototype.issubsetof
function* SetProto_isSubsetOf(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisSet(thisArg, "Set.prototype.isSubsetOf")
  const otherRec = yield* GetSetRecord(realm, args[0], "Set.prototype.isSubsetOf")
  if (O.entryCount > otherRec.size) return false
  const cursor = new CollectionIterator(null, "Set Iterator", O, "value")
  try {
    for (let i = cursor.advance(); i >= 0; i = cursor.advance()) {
      if (!(yield* OtherHas(otherRec, O.entryKeys[i] as Value))) return false
    }
  } finally {
    cursor.finish()
  }
  return true
}

// https://tc39.es/ecma262/#sec-set.prototype.issupersetof
function* SetProto_isSupersetOf(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisSet(thisArg, "Set.prototype.isSupersetOf")
  const otherRec = yield* GetSetRecord(realm, args[0], "Set.prototype.isSupersetOf")
  if (O.entryCount < otherRec.size) return false
  const keysIter = yield* GetKeysIterator(otherRec)
  for (;;) {
    const next = yield* IteratorStepValue(keysIter)
    if (next === DONE) return true
    if (!O.hasEntry(next)) {
      yield* IteratorClose(realm, keysIter)
      return false
    }
  }
}

// https://tc39.es/ecma262/#sec-set.prototype.isdisjointfrom
function* SetProto_isDisjointFrom(realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Task<Value> {
  const O = thisSet(thisArg, "Set.prototype.isDisjointFrom")
  const otherRec = yield* GetSetRecord(realm, args[0], "Set.prototype.isDisjointFrom")
  if (O.entryCount <= otherRec.size) {
    const cursor = new CollectionIterator(null, "Set Iterator", O, "value")
    try {
      for (let i = cursor.advance(); i >= 0; i = cursor.advance()) {
        if (yield* OtherHas(otherRec, O.entryKeys[i] as Value)) return false
      }
    } finally {
      cursor.finish()
    }
    return true
  }
  const keysIter = yield* GetKeysIterator(otherRec)
  for (;;) {
    const next = yield* IteratorStepValue(keysIter)
    if (next === DONE) return true
    if (O.hasEntry(next)) {
      yield* IteratorClose(realm, keysIter)
      return false
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// WeakMap and WeakSet

// https://tc39.es/ecma262/#sec-weakmap-iterable
function* WeakMap_(realm: Realm, _t: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  if (newTarget === undefined) return throwTypeError("Constructor WeakMap requires 'new'")
  const map = new WeakCollection(yield* GetPrototypeFromConstructor(realm, newTarget, "%WeakMap.prototype%"), "WeakMap")
  const iterable = args[0]
  if (iterable === undefined || iterable === null) return map
  const adder = yield* GetAdder(map, "set")
  yield* AddEntriesFromIterable(realm, map, iterable, adder)
  return map
}

// https://tc39.es/ecma262/#sec-weakmap.prototype.delete
const WeakMapProto_delete = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const M = thisWeak(thisArg, "WeakMap", "WeakMap.prototype.delete")
  return CanBeHeldWeakly(realm, args[0]) && M.data.delete(args[0])
}

// https://tc39.es/ecma262/#sec-weakmap.prototype.get
const WeakMapProto_get = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const M = thisWeak(thisArg, "WeakMap", "WeakMap.prototype.get")
  return CanBeHeldWeakly(realm, args[0]) ? M.data.get(args[0]) : undefined
}

// https://tc39.es/ecma262/#sec-weakmap.prototype.has
const WeakMapProto_has = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const M = thisWeak(thisArg, "WeakMap", "WeakMap.prototype.has")
  return CanBeHeldWeakly(realm, args[0]) && M.data.has(args[0])
}

// https://tc39.es/ecma262/#sec-weakmap.prototype.set
const WeakMapProto_set = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const M = thisWeak(thisArg, "WeakMap", "WeakMap.prototype.set")
  if (!CanBeHeldWeakly(realm, args[0])) return throwTypeError("Invalid value used as weak map key")
  if (!M.data.has(args[0])) {
    checkArrayStorage(M.data.size + 1)
    chargeMemory(Cost.entry)
  }
  M.data.set(args[0], args[1])
  return M
}

// https://tc39.es/ecma262/#sec-weakset-iterable
function* WeakSet_(realm: Realm, _t: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  if (newTarget === undefined) return throwTypeError("Constructor WeakSet requires 'new'")
  const set = new WeakCollection(yield* GetPrototypeFromConstructor(realm, newTarget, "%WeakSet.prototype%"), "WeakSet")
  const iterable = args[0]
  if (iterable === undefined || iterable === null) return set
  const adder = yield* GetAdder(set, "add")
  yield* AddValuesFromIterable(realm, set, iterable, adder)
  return set
}

// https://tc39.es/ecma262/#sec-weakset.prototype.add
const WeakSetProto_add = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const S = thisWeak(thisArg, "WeakSet", "WeakSet.prototype.add")
  if (!CanBeHeldWeakly(realm, args[0])) return throwTypeError("Invalid value used in weak set")
  if (!S.data.has(args[0])) {
    checkArrayStorage(S.data.size + 1)
    chargeMemory(Cost.entry)
  }
  S.data.set(args[0], true)
  return S
}

// https://tc39.es/ecma262/#sec-weakset.prototype.delete
const WeakSetProto_delete = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const S = thisWeak(thisArg, "WeakSet", "WeakSet.prototype.delete")
  return CanBeHeldWeakly(realm, args[0]) && S.data.delete(args[0])
}

// https://tc39.es/ecma262/#sec-weakset.prototype.has
const WeakSetProto_has = (realm: Realm, thisArg: Value, args: ReadonlyArray<Value>): Value => {
  const S = thisWeak(thisArg, "WeakSet", "WeakSet.prototype.has")
  return CanBeHeldWeakly(realm, args[0]) && S.data.has(args[0])
}

// ---------------------------------------------------------------------------------------------------------------

const tag = (target: JSObject, value: string): void =>
  defineValues(target, [[WellKnownSymbols.toStringTag, value]], { writable: false, enumerable: false, configurable: true })

/** Installs `alias` as another key for the very function object at `key` (Set.prototype.keys === values...). */
const alias = (target: JSObject, aliasKey: string | SymbolValue, key: string): void => {
  const p = target.properties.get(key)!
  target.properties.set(aliasKey, Property.data(p.value, true, false, true))
}

/** %IteratorPrototype% under whichever spec name the iterator family registered it. */
const iteratorPrototype = (realm: Realm): JSObject =>
  realm.findIntrinsic("%Iterator.prototype%") ?? realm.intrinsic("%IteratorPrototype%")

export const install = (realm: Realm): void => {
  // Map
  const MapProto = new JSObject(realm.ObjectPrototype)
  const MapCtor = defineConstructor(realm, "Map", Map_, 0, MapProto)
  defineMethods(realm, MapCtor, "%Map%", [["groupBy", Map_groupBy, 2]])
  defineAccessors(realm, MapCtor, "%Map%", [[WellKnownSymbols.species, get_species, undefined]])
  defineMethods(realm, MapProto, "%Map.prototype%", [
    ["clear", MapProto_clear, 0],
    ["delete", MapProto_delete, 1],
    ["entries", MapProto_entries, 0],
    ["forEach", MapProto_forEach, 1],
    ["get", MapProto_get, 1],
    ["has", MapProto_has, 1],
    ["keys", MapProto_keys, 0],
    ["set", MapProto_set, 2],
    ["values", MapProto_values, 0],
  ])
  defineAccessors(realm, MapProto, "%Map.prototype%", [["size", MapProto_size, undefined]])
  alias(MapProto, WellKnownSymbols.iterator, "entries")
  tag(MapProto, "Map")

  const MapIteratorProto = new JSObject(iteratorPrototype(realm))
  realm.register("%MapIteratorPrototype%", MapIteratorProto)
  defineMethods(realm, MapIteratorProto, "%MapIteratorPrototype%", [["next", MapIteratorProto_next, 0]])
  tag(MapIteratorProto, "Map Iterator")

  // Set
  const SetProto = new JSObject(realm.ObjectPrototype)
  const SetCtor = defineConstructor(realm, "Set", Set_, 0, SetProto)
  defineAccessors(realm, SetCtor, "%Set%", [[WellKnownSymbols.species, get_species, undefined]])
  defineMethods(realm, SetProto, "%Set.prototype%", [
    ["add", SetProto_add, 1],
    ["clear", SetProto_clear, 0],
    ["delete", SetProto_delete, 1],
    ["difference", SetProto_difference, 1],
    ["entries", SetProto_entries, 0],
    ["forEach", SetProto_forEach, 1],
    ["has", SetProto_has, 1],
    ["intersection", SetProto_intersection, 1],
    ["isDisjointFrom", SetProto_isDisjointFrom, 1],
    ["isSubsetOf", SetProto_isSubsetOf, 1],
    ["isSupersetOf", SetProto_isSupersetOf, 1],
    ["symmetricDifference", SetProto_symmetricDifference, 1],
    ["union", SetProto_union, 1],
    ["values", SetProto_values, 0],
  ])
  defineAccessors(realm, SetProto, "%Set.prototype%", [["size", SetProto_size, undefined]])
  // https://tc39.es/ecma262/#sec-set.prototype.keys — the same function object as values, as is @@iterator.
  alias(SetProto, "keys", "values")
  alias(SetProto, WellKnownSymbols.iterator, "values")
  tag(SetProto, "Set")

  const SetIteratorProto = new JSObject(iteratorPrototype(realm))
  realm.register("%SetIteratorPrototype%", SetIteratorProto)
  defineMethods(realm, SetIteratorProto, "%SetIteratorPrototype%", [["next", SetIteratorProto_next, 0]])
  tag(SetIteratorProto, "Set Iterator")

  // WeakMap
  const WeakMapProto = new JSObject(realm.ObjectPrototype)
  defineConstructor(realm, "WeakMap", WeakMap_, 0, WeakMapProto)
  defineMethods(realm, WeakMapProto, "%WeakMap.prototype%", [
    ["delete", WeakMapProto_delete, 1],
    ["get", WeakMapProto_get, 1],
    ["has", WeakMapProto_has, 1],
    ["set", WeakMapProto_set, 2],
  ])
  tag(WeakMapProto, "WeakMap")

  // WeakSet
  const WeakSetProto = new JSObject(realm.ObjectPrototype)
  defineConstructor(realm, "WeakSet", WeakSet_, 0, WeakSetProto)
  defineMethods(realm, WeakSetProto, "%WeakSet.prototype%", [
    ["add", WeakSetProto_add, 1],
    ["delete", WeakSetProto_delete, 1],
    ["has", WeakSetProto_has, 1],
  ])
  tag(WeakSetProto, "WeakSet")
}
