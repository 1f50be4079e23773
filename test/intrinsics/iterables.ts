/** Native iterables for unit tests that must not depend on the Array iterator being installed. */
import { CreateIterResultObject } from "../../src/runtime/iteration.ts"
import { JSObject } from "../../src/runtime/object.ts"
import { Property } from "../../src/runtime/property.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { type Value, WellKnownSymbols } from "../../src/runtime/value.ts"
import { fn } from "./support.ts"

/** An object whose [Symbol.iterator]() yields `values`; `onReturn` observes `return()` calls. */
export const iterableOf = (realm: Realm, values: ReadonlyArray<Value>, onReturn?: () => void): JSObject => {
  const o = new JSObject(realm.ObjectPrototype)
  o.properties.set(
    WellKnownSymbols.iterator,
    Property.data(
      fn(realm, () => {
        let i = 0
        const it = new JSObject(realm.ObjectPrototype)
        it.properties.set("next", Property.data(fn(realm, () => (i < values.length ? CreateIterResultObject(realm, values[i++], false) : CreateIterResultObject(realm, undefined, true)))))
        if (onReturn) it.properties.set("return", Property.data(fn(realm, () => (onReturn(), new JSObject(realm.ObjectPrototype)))))
        return it
      }),
    ),
  )
  return o
}

/** Drains a sandbox iterator object natively (calls its `next`). */
export const drain = (realm: Realm, it: Value, call: (f: JSObject, thisArg: Value) => Value): Value[] => {
  const out: Value[] = []
  for (;;) {
    const next = (it as JSObject).lookup("next")!.value as JSObject
    const r = call(next, it) as JSObject
    if (r.lookup("done")!.value === true) return out
    out.push(r.lookup("value")!.value)
  }
}
