/**
 * for-in enumeration (https://tc39.es/ecma262/#sec-enumerate-object-properties): own enumerable string keys first,
 * then up the prototype chain, each key once, skipping keys deleted before they are reached. The iterator state is
 * plain data.
 */
import { ToObject } from "./conversions.ts"
import { type JSObject, readOwn } from "./object.ts"
import { ABSENT } from "./property-store.ts"
import { Property } from "./property.ts"
import type { Realm } from "./realm.ts"
import type { PropertyKey, Value } from "./value.ts"

/** The state of a for-in enumeration (https://tc39.es/ecma262/#sec-%foriniteratorprototype%.next). */
export interface ForInIterator {
  object: JSObject | null
  readonly visited: Set<PropertyKey>
  keys: PropertyKey[]
  index: number
}

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
      const s = readOwn(o, k)
      if (s === ABSENT) continue
      it.visited.add(k)
      if (!(s instanceof Property) || s.enumerable) return k
    }
    it.object = o.GetPrototypeOf()
    it.index = -1
  }
}
