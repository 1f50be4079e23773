/**
 * "Built-ins are saved by name and only their changes are copied." A resumed run rebuilds a fresh realm from the
 * same build, so an intrinsic needs saving only when the program changed it (a property added to
 * `Array.prototype`, console counters...). `changedIntrinsics` finds those by comparing each
 * intrinsic with the same-named one of a pristine realm — one built the same way and never run — field by field
 * as the heap registry lists them (transient host fields are not state), matching references to other intrinsics
 * by name and comparing anything else structurally. In a realm forked from a template only the twins made so far
 * can differ from the pristine realm's (a fork of the same template), and a twin whose properties were never used
 * has its template object's.
 */
import { Property } from "../runtime/property.ts"
import type { OwnProperties } from "../runtime/property-store.ts"
import type { Realm } from "../runtime/realm.ts"
import { NativeFunction } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { ForkedProperties, untouchedTwin } from "../runtime/realm-fork.ts"
import { PROPERTIES, type HeapRegistry } from "./heap-codec.ts"

export const changedIntrinsics = <Ctx>(registry: HeapRegistry<Ctx>, live: Realm, pristine: Realm): Set<object> => {
  const changed = new Set<object>()
  const candidates: Array<[string, object]> = [...live.ownIntrinsics]
  for (const twin of live.fork?.made ?? []) candidates.push([live.intrinsicNames.get(twin)!, twin])
  for (const [name, obj] of candidates) {
    // An object registered under several names is compared once, under its first.
    if (live.intrinsicNames.get(obj as never) !== name || changed.has(obj)) continue
    const twin = pristine.findIntrinsic(name)
    if (twin === undefined) changed.add(obj)
    else if (!(untouchedFunction(obj, twin, live, pristine) || same(registry, obj, twin, live, pristine))) changed.add(obj)
  }
  return changed
}

/**
 * The common case, decided without a full comparison: a plain object or built-in function (no slots) of a fork
 * whose properties were never used differs from its pristine twin only by its prototype or extensibility, the
 * rest of such an object being fixed when it is made.
 */
const untouchedFunction = (a: object, b: object, live: Realm, pristine: Realm): boolean => {
  if (!(a instanceof JSObject && b instanceof JSObject) || !untouchedTwin(a) || !untouchedTwin(b)) return false
  const plain = a.constructor === JSObject || (a.constructor === NativeFunction && (a as NativeFunction).slots === undefined)
  if (!plain || a.constructor !== b.constructor || a.extensible !== b.extensible || a.kind !== b.kind) return false
  if (a.proto === null || b.proto === null) return a.proto === b.proto
  const name = live.intrinsicNames.get(a.proto)
  return name !== undefined && name === pristine.intrinsicNames.get(b.proto)
}

const same = <Ctx>(registry: HeapRegistry<Ctx>, a: object, b: object, live: Realm, pristine: Realm): boolean => {
  const seen = new Map<object, object>()
  /** Two objects' own properties, compared as the Map they stand for: a plain slot equals a record with the default attributes. */
  const sameProperties = (x: OwnProperties, y: OwnProperties): boolean => {
    if (x instanceof ForkedProperties || y instanceof ForkedProperties) {
      if (x instanceof ForkedProperties && y instanceof ForkedProperties && x.untouched && y.untouched) return x.template === y.template
      if (x instanceof ForkedProperties && y instanceof ForkedProperties && x.template === y.template && !x.materialized && !y.materialized) {
        // Two partial copies of one template differ only where either was read or written: the rest is the
        // template's in both, so neither is copied in full (the global object of a run would twin every global).
        const xa = x.addedEntries()
        const ya = y.addedEntries()
        if (xa.length !== ya.length) return false
        for (let i = 0; i < xa.length; i++) if (!eq(xa[i]![0], ya[i]![0], false) || !eq(xa[i]![1], ya[i]![1], false)) return false
        for (const k of new Set([...x.copiedKeys(), ...y.copiedKeys()])) if (!eq(x.get(k), y.get(k), false)) return false
        return true
      }
      const xm = x instanceof ForkedProperties ? x.materialize() : x
      const ym = y instanceof ForkedProperties ? y.materialize() : y
      return sameProperties(xm, ym)
    }
    if (x.size !== y.size) return false
    const yk = [...y.keys()]
    let i = 0
    for (const k of x.keys()) if (!eq(k, yk[i++], false) || !eq(x.peek(k), y.peek(k), false)) return false
    return true
  }
  const eq = (x: unknown, y: unknown, top: boolean): boolean => {
    if (typeof x !== "object" || x === null || typeof y !== "object" || y === null) {
      if (typeof x === "function" || typeof y === "function") return x === y
      return Object.is(x, y)
    }
    if (!top) {
      const xn = live.intrinsicNames.get(x as never)
      const yn = pristine.intrinsicNames.get(y as never)
      if (xn !== undefined || yn !== undefined) return xn === yn
    }
    if (seen.get(x) === y) return true
    seen.set(x, y)
    const proto = Object.getPrototypeOf(x) as object | null
    if (proto !== Object.getPrototypeOf(y)) return false
    if (x instanceof Property) {
      const p = y as Property
      return (
        x.accessor === p.accessor &&
        x.writable === p.writable &&
        x.enumerable === p.enumerable &&
        x.configurable === p.configurable &&
        eq(x.value, p.value, false) &&
        eq(x.get, p.get, false) &&
        eq(x.set, p.set, false)
      )
    }
    if (x instanceof Map) {
      const ym = y as Map<unknown, unknown>
      if (x.size !== ym.size) return false
      const yi = ym.entries()
      for (const [k, v] of x) {
        const [k2, v2] = yi.next().value as [unknown, unknown]
        if (!eq(k, k2, false) || !eq(v, v2, false)) return false
      }
      return true
    }
    if (x instanceof Set) {
      const ys = [...(y as Set<unknown>)]
      let i = 0
      for (const v of x) if (!eq(v, ys[i++], false)) return false
      return x.size === ys.length
    }
    if (ArrayBuffer.isView(x)) {
      const xb = x as Uint8Array
      const yb = y as Uint8Array
      return xb.length === yb.length && xb.every((v, i) => v === yb[i])
    }
    if (Array.isArray(x)) {
      const ya = y as unknown[]
      return x.length === ya.length && x.every((v, i) => eq(v, ya[i], false))
    }
    const cls = registry.classOf(x)
    if (cls !== undefined) {
      for (const [name, shape] of cls.fields) {
        const xv = (x as Record<string, unknown>)[name]
        const yv = (y as Record<string, unknown>)[name]
        if (shape === PROPERTIES ? !sameProperties(xv as OwnProperties, yv as OwnProperties) : !eq(xv, yv, false)) return false
      }
      return true
    }
    const xk = Object.keys(x)
    const yk = Object.keys(y)
    if (xk.length !== yk.length) return false
    return xk.every((k, i) => k === yk[i] && eq((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], false))
  }
  return eq(a, b, true)
}
