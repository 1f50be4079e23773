/**
 * Inline caches at named property sites, as QuickJS's and V8's: a read or write site (GetField, GetFieldForCall,
 * PutField) remembers the shape of the last ordinary object it met and the slot that shape puts the key in; when
 * the shape lacks the key, a read site remembers its prototype's shape and slot if the key is the prototype's (a
 * method), a write site the shape adding the key made (a constructor's `this.x = x`), else that it has none (the
 * key is then looked up on the prototypes as before). An object literal's field (DefineField) remembers the shape
 * its object had and the shape adding the key made. An object of that shape then skips the key's lookup. Entries
 * live in the code object (`propertyCache`, two words at the instruction's pc) and hold only shapes of the
 * process-wide tree (short string keys) and slot numbers: code objects are shared by every run of a program, so
 * nothing of a run may stay there, and the cache is never part of a snapshot (it fills again as code runs).
 *
 * Guards: the object being its own store (a realm fork's twin has a stand-in until first use), the shape (in shape
 * mode), the object's own-property methods being the ordinary ones (an exotic object of the same shape answers
 * some keys from elsewhere), for an add extensibility and no prototype intercepting the key, and for a read or
 * write the slot holding a plain value (a writable, enumerable, configurable data property): a slot turned into a
 * record (an accessor, a read-only property, a record handed out live) misses and takes the general path.
 */
import type { CodeObject, RecordSite } from "../bytecode/code.ts"
import { chargeMemory, Cost } from "../runtime/memory.ts"
import { JSObject } from "../runtime/object.ts"
import { inheritedLetsAdd } from "../runtime/references.ts"
import { Property } from "../runtime/property.ts"
import { literalShape, type Shape } from "../runtime/property-store.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Value } from "../runtime/value.ts"
import { MISS, type Miss } from "./operations.ts"

const ordinaryGetOwnProperty = JSObject.prototype.GetOwnProperty
const ordinaryGet = JSObject.prototype.Get
const ordinarySet = JSObject.prototype.Set
const ordinaryDefineOwnProperty = JSObject.prototype.DefineOwnProperty

/**
 * A read site's entry for objects whose shape lacks the key while their prototype's shape has it (a method of a
 * class, say): the prototype's shape and its slot. It names no prototype, only its shape (a run's objects may not
 * stay in the cache), so the guard is on the prototype the object has now.
 */
class ProtoSlot {
  readonly shape: Shape
  readonly slot: number
  constructor(shape: Shape, slot: number) {
    this.shape = shape
    this.slot = slot
  }
}

/** Whether `o` keeps its own properties in itself and reads them the ordinary way: a cached slot may be read. */
const plainStore = (o: JSObject): boolean => o.properties === o && o.Get === ordinaryGet && o.GetOwnProperty === ordinaryGetOwnProperty

/**
 * `obj`'s plain value of `key`, own or its prototype's data property, through the cache of the site at `at`; MISS
 * when it is neither (or an object on the way is not ordinary). A method call's site finds its key on the
 * prototype every time: walking there looked the key up in the object first and then in the prototype.
 */
export const getCached = (code: CodeObject, at: number, obj: JSObject, key: string): Value | Miss => {
  if (!plainStore(obj)) return MISS
  const cache = code.propertyCache
  const cached = cache?.[at]
  let then: number | ProtoSlot
  if (cached !== undefined && obj.hasShape(cached as Shape)) then = cache![at + 1] as number | ProtoSlot
  else {
    const shape = obj.cacheableShape()
    if (shape === undefined) return MISS
    then = shape.indexOf(key)
    const proto = obj.proto
    if (then < 0 && proto !== null && plainStore(proto)) {
      const protoShape = proto.cacheableShape()
      const i = protoShape === undefined ? -1 : protoShape.indexOf(key)
      if (i >= 0) then = new ProtoSlot(protoShape!, i)
    }
    fill(code, at, shape, then)
  }
  if (typeof then === "number") {
    if (then < 0) return MISS
    const s = obj.slotAt(then)
    return s instanceof Property ? MISS : s
  }
  const proto = obj.proto
  if (proto === null || !plainStore(proto) || !proto.hasShape(then.shape)) return MISS
  const s = proto.slotAt(then.slot)
  if (!(s instanceof Property)) return s
  return s.accessor ? MISS : s.value
}

/**
 * [[Set]] of `key` on `obj` through the cache of the site at `at`: a store in its own plain-value `key`, or, when
 * `obj` lacks the key, adding it as a constructor's `this.x = x` does; the site then remembers the shape adding it
 * made, as an object literal's field site does (the prototypes are still asked whether one intercepts the key).
 * False when it is neither (or `obj` is not ordinary).
 */
export const setCached = (code: CodeObject, at: number, obj: JSObject, key: string, v: Value): boolean => {
  if (obj.properties !== obj || obj.Set !== ordinarySet || obj.GetOwnProperty !== ordinaryGetOwnProperty) return false
  const cache = code.propertyCache
  const cached = cache?.[at]
  if (cached !== undefined && obj.hasShape(cached as Shape)) {
    const then = cache![at + 1] as number | Shape
    if (typeof then === "number") {
      if (then < 0 || obj.slotAt(then) instanceof Property) return false
      obj.setSlotAt(then, v)
      return true
    }
    if (!obj.extensible || !inheritedLetsAdd(obj, key)) return false
    chargeMemory(Cost.property)
    obj.addTransition(then, v)
    return true
  }
  const shape = obj.cacheableShape()
  if (shape === undefined) return false
  const i = shape.indexOf(key)
  if (i >= 0) {
    fill(code, at, shape, i)
    if (obj.slotAt(i) instanceof Property) return false
    obj.setSlotAt(i, v)
    return true
  }
  if (!obj.extensible || key === "length" || !inheritedLetsAdd(obj, key)) return false
  chargeMemory(Cost.property)
  obj.add(key, v)
  fill(code, at, shape, obj.cacheableShape() ?? -1)
  return true
}

/**
 * CreateDataProperty of `key`, absent from `obj`, through the cache of the site at `at` (an object literal's field):
 * the site remembers the shape before and after; false when `obj` is not an extensible ordinary object without `key`.
 */
export const addOwnCached = (code: CodeObject, at: number, obj: JSObject, key: string, v: Value): boolean => {
  if (obj.properties !== obj || !obj.extensible || obj.DefineOwnProperty !== ordinaryDefineOwnProperty || obj.GetOwnProperty !== ordinaryGetOwnProperty) {
    return false
  }
  const cache = code.propertyCache
  const from = cache?.[at]
  if (from !== undefined && obj.hasShape(from as Shape)) {
    chargeMemory(Cost.property)
    obj.addTransition(cache![at + 1] as Shape, v)
    return true
  }
  const shape = obj.cacheableShape()
  if (shape === undefined || shape.indexOf(key) >= 0) return false
  chargeMemory(Cost.property)
  obj.add(key, v)
  const next = obj.cacheableShape()
  if (next !== undefined) fill(code, at, shape, next)
  return true
}

/**
 * An object literal's leading fields (NewRecord): a new ordinary object with the site's keys, which the site at `at`
 * remembers the shape of, their values `values[from]` on.
 */
export const newRecord = (realm: Realm, code: CodeObject, at: number, site: RecordSite, values: ArrayLike<unknown>, from: number): JSObject => {
  const obj = new JSObject(realm.ObjectPrototype)
  const keys = site.keys
  let shape = code.propertyCache?.[at] as Shape | undefined
  if (shape === undefined) {
    shape = literalShape(keys)
    if (shape.shared) fill(code, at, shape, 0)
  }
  chargeMemory(Cost.property * keys.length)
  obj.adoptShape(shape)
  for (let i = 0; i < keys.length; i++) obj.setSlotAt(i, values[from + i] as Value)
  return obj
}

const fill = (code: CodeObject, at: number, shape: Shape, then: Shape | number | ProtoSlot): void => {
  const cache = (code.propertyCache ??= new Array(code.bytecode.length))
  cache[at] = shape
  cache[at + 1] = then
}
