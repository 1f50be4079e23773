/**
 * An object's own properties, behind the Map surface the runtime has always used (get/set/has/delete, insertion
 * ordered iteration), without a hash table and a record per property: programs build tens of thousands of small
 * objects, and each one's Map and Property records were most of what the collector copied.
 *
 * Keys live in a Shape, shared by every object that gained the same string keys in the same order (a transition
 * tree), and values in slots, one per key: the first IN_OBJECT_SLOTS in fields of the object itself, the rest in a
 * plain array (most objects a program makes have a few keys, and an array beside each was two more allocations).
 * A slot holds the value itself while the property is a writable, enumerable, configurable data property, and a
 * Property record otherwise. `get` hands out a live record (callers may change it), so it turns a plain slot into a
 * record first; the engines' fast paths read and write plain slots without that (`read`, `write`, `add`). After a
 * delete, or past MAX_SHAPE_KEYS keys, a store keeps a real Map instead (dictionary mode, in the field the slot
 * array would be in), as deletes would otherwise fork the shape tree.
 *
 * Shapes hold keys only, never values, and are not part of the run state: snapshots save properties as before.
 */
import { arrayIndexOf, Property } from "./property.ts"
import type { PropertyKey, Value } from "./value.ts"

/** A plain value stands for a writable, enumerable, configurable data property. */
type Slot = Value | Property

export const ABSENT: unique symbol = Symbol("absent")

export type Absent = typeof ABSENT

export const MAX_SHAPE_KEYS = 32
/** Slots held in fields of the object (slot0..slot3); keys past them go to the array `moreSlots`. */
const IN_OBJECT_SLOTS = 4
/**
 * Array slots the first object to outgrow its fields with a given first key gets (an array grown by push from
 * empty would reserve 17); later ones get as many as the most keys such an object has had needed.
 */
const INITIAL_WIDTH = 4
/** Keys up to this many are found by a scan; a longer shape builds an index. */
const SCANNED_KEYS = 8
/**
 * The transition tree is shared by every run of the process. Programs that make up keys would grow it without
 * end, so past this many shapes a new tree is started: the old one lives on only in the objects still using it.
 */
const MAX_SHARED_SHAPES = 20_000
let sharedShapes = 0
/** Longer keys are rare in real objects; bounding them bounds what the shared tree keeps (see `with`). */
const MAX_SHARED_KEY_LENGTH = 64

export class Shape {
  readonly keys: readonly PropertyKey[]
  /** The one-key shape this one grew from: it keeps how many slots objects starting with that key came to need. */
  readonly first: Shape
  /**
   * In a one-key shape: the most keys an object starting with this key has had (0 before the first), which sizes
   * the slot array of the next such object: objects of a kind mostly have the same keys, and a spare slot is 8 bytes.
   */
  width = 0
  /** In the process-wide tree: holds only short string keys, so caches outliving a run may keep it. */
  readonly shared: boolean
  /** The first transition made from this shape, looked up without hashing: usually the only one. */
  private nextKey: PropertyKey | undefined = undefined
  private next: Shape | undefined = undefined
  private transitions: Map<PropertyKey, Shape> | undefined = undefined
  private index: Map<PropertyKey, number> | undefined = undefined
  private ordered: boolean | undefined = undefined
  private indexed: boolean | undefined = undefined

  constructor(keys: readonly PropertyKey[], first: Shape | undefined, shared: boolean) {
    this.keys = keys
    this.first = first ?? this
    this.shared = shared
  }

  indexOf(key: PropertyKey): number {
    const keys = this.keys
    if (keys.length <= SCANNED_KEYS) {
      for (let i = 0; i < keys.length; i++) if (keys[i] === key) return i
      return -1
    }
    if (this.index === undefined) {
      this.index = new Map()
      for (let i = 0; i < keys.length; i++) this.index.set(keys[i]!, i)
    }
    return this.index.get(key) ?? -1
  }

  /** Whether the keys are in OwnPropertyKeys order as they are: no array index, no string after a symbol. */
  get inKeyOrder(): boolean {
    if (this.ordered === undefined) {
      let symbols = false
      let ordered = true
      for (const k of this.keys) {
        if (typeof k !== "string") symbols = true
        else if (symbols || arrayIndexOf(k) >= 0) ordered = false
      }
      this.ordered = ordered
    }
    return this.ordered
  }

  /** Whether a key is an array index. */
  get hasIndexKey(): boolean {
    if (this.indexed === undefined) this.indexed = this.keys.some((k) => typeof k === "string" && arrayIndexOf(k) >= 0)
    return this.indexed
  }

  /**
   * The shape with `key` added last. Symbol keys and long string keys are never shared: the tree outlives the run,
   * and would keep a symbol, or megabytes of made-up keys the run itself has long dropped, alive in the process.
   */
  with(key: PropertyKey): Shape {
    if (key === this.nextKey) return this.next!
    const known = this.transitions?.get(key)
    if (known !== undefined) return known
    const share = this.shared && typeof key === "string" && key.length <= MAX_SHARED_KEY_LENGTH
    const next = new Shape([...this.keys, key], this.keys.length === 0 ? undefined : this.first, share)
    if (share) {
      if (this.next === undefined) {
        this.nextKey = key
        this.next = next
      } else (this.transitions ??= new Map()).set(key, next)
      if (++sharedShapes === MAX_SHARED_SHAPES) {
        sharedShapes = 0
        emptyShape = new Shape([], undefined, true)
      }
    }
    return next
  }
}

let emptyShape = new Shape([], undefined, true)

/** The shape an object without keys comes to by adding `keys` (distinct, at most MAX_SHAPE_KEYS) in order. */
export const literalShape = (keys: readonly PropertyKey[]): Shape => {
  let shape = emptyShape
  for (const k of keys) shape = shape.with(k)
  return shape
}

/**
 * Slots holding a non-number first, so that storing a fraction does not turn them into an array of doubles (which
 * a later object would turn back); the common widths as literals, which are cheapest to allocate and not holey.
 */
const newSlots = (n: number): Slot[] => {
  switch (n) {
    case 1:
      return [undefined]
    case 2:
      return [undefined, undefined]
    case 3:
      return [undefined, undefined, undefined]
    case 4:
      return [undefined, undefined, undefined, undefined]
  }
  const slots = new Array<Slot>(n)
  slots[0] = undefined
  return slots
}

/** The slots of every object without keys (most arrays and functions): written only once a first key gets its own. */
const NO_SLOTS: Slot[] = []

/** The value a looked-up slot holds, undefined when absent (an accessor's record holds none: rule those out first). */
export const slotValue = (s: Value | Property | Absent): Value => (s === ABSENT ? undefined : s instanceof Property ? s.value : s)

const recordOf = (s: Slot): Property => (s instanceof Property ? s : Property.data(s))

/** What `JSObject.properties` holds: a PropertyStore, or a realm fork's stand-in for one (realm-fork.ts). */
export interface OwnProperties {
  readonly size: number
  /** The live record of `key` (a plain slot becomes a record). */
  get(key: PropertyKey): Property | undefined
  /** The record of `key` without making one live: a plain slot's record is a copy. Nothing may change it. */
  peek(key: PropertyKey): Property | undefined
  /** `key`'s plain value or its record, or ABSENT. */
  read(key: PropertyKey): Value | Property | Absent
  /** Stores `v` in `key`, which is present and a writable data property. */
  write(key: PropertyKey, v: Value): void
  /** Adds `key`, which is absent, as a writable, enumerable, configurable data property. */
  add(key: PropertyKey, v: Value): void
  set(key: PropertyKey, p: Property): this
  has(key: PropertyKey): boolean
  delete(key: PropertyKey): boolean
  clear(): void
  keys(): IterableIterator<PropertyKey>
  /** A new array of the keys if they are in OwnPropertyKeys order as they are (most objects' are), else undefined. */
  orderedKeys(): PropertyKey[] | undefined
  /** False when no key is an array index (true may be a guess: a dictionary that had one may have lost it since). */
  mayHaveIndexKey(): boolean
  values(): IterableIterator<Property>
  entries(): IterableIterator<[PropertyKey, Property]>
  forEach(f: (p: Property, key: PropertyKey) => void): void
}

/** The shape of a store in dictionary mode: no keys, and not shared, so no inline cache takes it. */
const DICTIONARY = new Shape([], undefined, false)

/**
 * A dictionary-mode store's properties. It remembers whether a key it was given is an array index (a delete
 * leaves that set): the big dictionaries are prototypes full of methods (Array.prototype), which every push and
 * sort asks about, and a scan of their keys each time was a twentieth of a loop of pushes.
 */
class Dictionary extends Map<PropertyKey, Property> {
  indexed = false

  override set(key: PropertyKey, p: Property): this {
    if (!this.indexed && arrayIndexOf(key) >= 0) this.indexed = true
    return super.set(key, p)
  }
}

/**
 * Ordinary own properties. Every JSObject is one (object.ts extends it): a separate store was an allocation per
 * object, a third of what a small object cost. Nothing but `properties` may call these methods on an object, as a
 * realm fork's twin keeps its properties in a stand-in until first use (realm-fork.ts).
 */
export class PropertyStore implements OwnProperties {
  private declare shape: Shape
  private declare slot0: Slot
  private declare slot1: Slot
  private declare slot2: Slot
  private declare slot3: Slot
  /**
   * Slots IN_OBJECT_SLOTS and up; in dictionary mode (shape DICTIONARY), every property by key. Not `slots`: exotic
   * objects have internal slots of that name.
   */
  private declare rest: Slot[] | Dictionary

  /**
   * The same stores twice, for V8: a store site keeps one inline cache for the objects it has seen, and every
   * subclass's objects start from a map of their own, so the one site of a field initialiser saw more maps than it
   * keeps and went megamorphic (a stub-cache lookup per field, most of what making an object cost). `plain` objects
   * (ordinary ones, most of a program's) get sites that see their one map.
   */
  constructor(plain: boolean) {
    if (plain) {
      this.shape = emptyShape
      this.slot0 = undefined
      this.slot1 = undefined
      this.slot2 = undefined
      this.slot3 = undefined
      this.rest = NO_SLOTS
    } else {
      this.shape = emptyShape
      this.slot0 = undefined
      this.slot1 = undefined
      this.slot2 = undefined
      this.slot3 = undefined
      this.rest = NO_SLOTS
    }
  }

  /** The properties by key in dictionary mode, else undefined. */
  private dictionary(): Dictionary | undefined {
    return this.shape === DICTIONARY ? (this.rest as Dictionary) : undefined
  }

  get size(): number {
    return this.dictionary()?.size ?? this.shape.keys.length
  }

  get(key: PropertyKey): Property | undefined {
    const dict = this.dictionary()
    if (dict !== undefined) return dict.get(key)
    const i = this.shape.indexOf(key)
    if (i < 0) return undefined
    const s = this.slotAt(i)
    if (s instanceof Property) return s
    const p = Property.data(s)
    this.putSlot(i, p)
    return p
  }

  peek(key: PropertyKey): Property | undefined {
    const dict = this.dictionary()
    if (dict !== undefined) return dict.get(key)
    const i = this.shape.indexOf(key)
    return i < 0 ? undefined : recordOf(this.slotAt(i))
  }

  read(key: PropertyKey): Value | Property | Absent {
    // The shape first (a dictionary's has no keys): a hit loads two fields of an object of any class, not three.
    const i = this.shape.indexOf(key)
    if (i >= 0) return this.slotAt(i)
    const dict = this.dictionary()
    return dict === undefined ? ABSENT : (dict.get(key) ?? ABSENT)
  }

  write(key: PropertyKey, v: Value): void {
    const dict = this.dictionary()
    if (dict !== undefined) {
      dict.get(key)!.value = v
      return
    }
    const i = this.shape.indexOf(key)
    const s = this.slotAt(i)
    if (s instanceof Property) s.value = v
    else this.putSlot(i, v)
  }

  add(key: PropertyKey, v: Value): void {
    const dict = this.dictionary()
    if (dict !== undefined) dict.set(key, Property.data(v))
    else if (this.shape.keys.length >= MAX_SHAPE_KEYS) this.toDictionary().set(key, Property.data(v))
    else this.append(key, v)
  }

  set(key: PropertyKey, p: Property): this {
    const dict = this.dictionary()
    if (dict !== undefined) {
      dict.set(key, p)
      return this
    }
    const i = this.shape.indexOf(key)
    if (i >= 0) this.putSlot(i, p)
    else if (this.shape.keys.length >= MAX_SHAPE_KEYS) this.toDictionary().set(key, p)
    else this.append(key, p)
    return this
  }

  private append(key: PropertyKey, s: Slot): void {
    this.grow(this.shape.with(key), s)
  }

  /** Moves to `next`, the current shape with one key added, whose slot gets `s`. */
  private grow(next: Shape, s: Slot): void {
    const i = this.shape.keys.length
    this.shape = next
    const first = next.first
    const width = first.width
    if (width <= i) first.width = i + 1
    if (i < IN_OBJECT_SLOTS) this.putSlot(i, s)
    else {
      if (i === IN_OBJECT_SLOTS) this.rest = newSlots(width > IN_OBJECT_SLOTS ? width - IN_OBJECT_SLOTS : INITIAL_WIDTH)
      ;(this.rest as Slot[])[i - IN_OBJECT_SLOTS] = s
    }
  }

  /**
   * The store's shape while it is one the engines' inline caches may key on (shape mode, shared), else undefined:
   * while an object keeps that shape, each key stays at the slot the shape gives it.
   */
  cacheableShape(): Shape | undefined {
    return this.shape.shared ? this.shape : undefined
  }

  /** Whether the store has shape `s`, one `cacheableShape` gave: a cache's guard. */
  hasShape(s: Shape): boolean {
    return this.shape === s
  }

  /**
   * `add` of the key that takes the store from its shape to `next`, a transition a cache saw `add` make from that
   * shape (so the key is absent, and there is room for it).
   */
  addTransition(next: Shape, v: Value): void {
    this.grow(next, v)
  }

  /**
   * Gives a store without keys all of `shape`'s, from `literalShape`, their slots undefined until `setSlotAt` fills
   * them: an object literal made in one step instead of a transition per key.
   */
  adoptShape(shape: Shape): void {
    const n = shape.keys.length
    this.shape = shape
    const first = shape.first
    const width = first.width
    if (width < n) first.width = n
    if (n > IN_OBJECT_SLOTS) this.rest = newSlots((width > n ? width : n) - IN_OBJECT_SLOTS)
  }

  /** Slot `i` of the current shape: a plain value or a record. */
  slotAt(i: number): Value | Property {
    switch (i) {
      case 0:
        return this.slot0
      case 1:
        return this.slot1
      case 2:
        return this.slot2
      case 3:
        return this.slot3
    }
    return (this.rest as Slot[])[i - IN_OBJECT_SLOTS]!
  }

  /** Stores `v` in slot `i` of the current shape, which holds a plain value. */
  setSlotAt(i: number, v: Value): void {
    this.putSlot(i, v)
  }

  private putSlot(i: number, s: Slot): void {
    switch (i) {
      case 0:
        this.slot0 = s
        return
      case 1:
        this.slot1 = s
        return
      case 2:
        this.slot2 = s
        return
      case 3:
        this.slot3 = s
        return
    }
    ;(this.rest as Slot[])[i - IN_OBJECT_SLOTS] = s
  }

  has(key: PropertyKey): boolean {
    return this.dictionary()?.has(key) ?? this.shape.indexOf(key) >= 0
  }

  delete(key: PropertyKey): boolean {
    if (this.shape !== DICTIONARY && this.shape.indexOf(key) < 0) return false
    return this.toDictionary().delete(key)
  }

  clear(): void {
    this.shape = emptyShape
    this.slot0 = this.slot1 = this.slot2 = this.slot3 = undefined
    this.rest = NO_SLOTS
  }

  /** The keys in insertion order, as they are now (keys added while iterating are not visited). */
  keys(): IterableIterator<PropertyKey> {
    return this.dictionary()?.keys() ?? this.shape.keys.values()
  }

  orderedKeys(): PropertyKey[] | undefined {
    return this.shape !== DICTIONARY && this.shape.inKeyOrder ? this.shape.keys.slice() : undefined
  }

  mayHaveIndexKey(): boolean {
    return this.shape === DICTIONARY ? (this.rest as Dictionary).indexed : this.shape.hasIndexKey
  }

  values(): IterableIterator<Property> {
    return this.dictionary()?.values() ?? this.records().values()
  }

  entries(): IterableIterator<[PropertyKey, Property]> {
    const dict = this.dictionary()
    if (dict !== undefined) return dict.entries()
    const records = this.records()
    return this.shape.keys.map((k, i): [PropertyKey, Property] => [k, records[i]!]).values()
  }

  forEach(f: (p: Property, key: PropertyKey) => void): void {
    for (const [k, p] of this.entries()) f(p, k)
  }

  /** Every slot as a live record (iterating hands them out). */
  private records(): Property[] {
    const n = this.shape.keys.length
    const out: Property[] = new Array(n)
    for (let i = 0; i < n; i++) {
      const s = this.slotAt(i)
      if (s instanceof Property) out[i] = s
      else this.putSlot(i, (out[i] = Property.data(s)))
    }
    return out
  }

  private toDictionary(): Dictionary {
    const known = this.dictionary()
    if (known !== undefined) return known
    const records = this.records()
    const dict = new Dictionary()
    this.shape.keys.forEach((k, i) => dict.set(k, records[i]!))
    this.clear()
    this.shape = DICTIONARY
    this.rest = dict
    return dict
  }
}
