/**
 * Creating a realm: the fundamental objects first (%Object.prototype%, %Function.prototype%, the global object),
 * then every intrinsic family in a fixed order. The order is part of the snapshot format — a resumed run rebuilds
 * a fresh realm and expects the same intrinsics under the same names — so families are only ever appended.
 */
import { CreateBuiltinFunction } from "../runtime/builtin.ts"
import { JSObject } from "../runtime/object.ts"
import { Property } from "../runtime/property.ts"
import { Realm } from "../runtime/realm.ts"
import { installFamilies } from "./families.ts"

export const createRealm = (): Realm => {
  const realm = new Realm()
  const ObjectPrototype = new JSObject(null)
  realm.ObjectPrototype = ObjectPrototype
  realm.register("%Object.prototype%", ObjectPrototype)
  // %Function.prototype% is itself a function that accepts any arguments and returns undefined.
  const FunctionPrototype = CreateBuiltinFunction(realm, "Function.prototype", () => undefined, 0, "", {
    proto: ObjectPrototype,
  })
  realm.FunctionPrototype = FunctionPrototype
  realm.register("%Function.prototype%", FunctionPrototype)
  const global = new JSObject(ObjectPrototype)
  realm.globalObject = global
  realm.register("%GlobalObject%", global)
  global.properties.set("globalThis", Property.data(global, true, false, true))
  installFamilies(realm)
  realm.ArrayPrototype = realm.intrinsic("%Array.prototype%")
  return realm
}
