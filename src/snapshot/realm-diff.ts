/**
 * "Built-ins are saved by name and only their changes are copied." A resumed run rebuilds a fresh realm from the
 * same build, so an intrinsic needs saving only when the program changed it (a property added to
 * `Array.prototype`, the Math PRNG state, console counters...). `changedIntrinsics` finds those by comparing each
 * intrinsic with the same-named one of a pristine realm, field by field, matching references to other
 * intrinsics by name.
 */
import type { Realm } from "../runtime/realm.ts"

export const changedIntrinsics = (live: Realm, pristine: Realm): string[] => {
  const changed: string[] = []
  for (const [name, obj] of live.intrinsics) {
    const twin = pristine.intrinsics.get(name)
    if (twin === undefined || !sameFields(obj, twin, live, pristine)) changed.push(name)
  }
  return changed
}

const sameFields = (a: object, b: object, live: Realm, pristine: Realm): boolean => {
  const seen = new Map<object, object>()
  const same = (x: unknown, y: unknown, top: boolean): boolean => {
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
    if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) return false
    if (x instanceof Map) {
      const ym = y as Map<unknown, unknown>
      if (x.size !== ym.size) return false
      const xe = [...x]
      const ye = [...ym]
      return xe.every(([k, v], i) => same(k, ye[i]![0], false) && same(v, ye[i]![1], false))
    }
    if (x instanceof Set) {
      const ys = [...(y as Set<unknown>)]
      const xs = [...x]
      return xs.length === ys.length && xs.every((v, i) => same(v, ys[i], false))
    }
    if (ArrayBuffer.isView(x)) {
      const xb = x as Uint8Array
      const yb = y as Uint8Array
      return xb.length === yb.length && xb.every((v, i) => v === yb[i])
    }
    if (Array.isArray(x)) {
      const ya = y as unknown[]
      return x.length === ya.length && x.every((v, i) => same(v, ya[i], false))
    }
    const xk = Object.keys(x)
    const yk = Object.keys(y)
    if (xk.length !== yk.length) return false
    return xk.every((k, i) => k === yk[i] && same((x as Record<string, unknown>)[k], (y as Record<string, unknown>)[k], false))
  }
  return same(a, b, true)
}
