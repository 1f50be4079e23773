/**
 * A realm for the number/bigint/math/map-set/date unit tests: the full realm when every family installs, else one
 * where %Array.prototype% and %Iterator.prototype% are stubbed *before* the families install (the collection
 * iterators need %Iterator.prototype% at install time) and families that fail in isolation are skipped.
 */
import { createRealm as createFullRealm } from "../../src/intrinsics/index.ts"
import { families } from "../../src/intrinsics/families.ts"
import { ArrayObject } from "../../src/runtime/array-object.ts"
import { CreateBuiltinFunction } from "../../src/runtime/builtin.ts"
import { JSObject } from "../../src/runtime/object.ts"
import { Realm } from "../../src/runtime/realm.ts"

export const createTestRealm = (now = Date.UTC(2026, 11, 2, 13, 33, 29)): Realm => {
  let realm: Realm
  try {
    realm = createFullRealm()
  } catch {
    realm = new Realm()
    const ObjectPrototype = new JSObject(null)
    realm.ObjectPrototype = ObjectPrototype
    realm.register("%Object.prototype%", ObjectPrototype)
    const FunctionPrototype = CreateBuiltinFunction(realm, "Function.prototype", () => undefined, 0, "", { proto: ObjectPrototype })
    realm.FunctionPrototype = FunctionPrototype
    realm.register("%Function.prototype%", FunctionPrototype)
    const g = new JSObject(ObjectPrototype)
    realm.globalObject = g
    realm.register("%GlobalObject%", g)
    realm.ArrayPrototype = new ArrayObject(ObjectPrototype)
    realm.register("%Array.prototype%", realm.ArrayPrototype)
    realm.register("%Iterator.prototype%", new JSObject(ObjectPrototype))
    for (const f of families) {
      try {
        f.install(realm)
      } catch {
        // a family still being written: left out
      }
    }
    realm.ArrayPrototype = realm.intrinsic("%Array.prototype%")
  }
  realm.host = { ...realm.host, now: () => now }
  return realm
}
