/**
 * Names for every object a fresh realm holds. Built-ins are saved by name (ARCHITECTURE principle 3), so every
 * object a realm is created with must have one: a program may keep any of them in a variable, and the resumed run
 * must find the very same object in its own fresh realm, not a copy. The intrinsic families register what the
 * spec names (`%Array.prototype%`); `nameReachable` names the few objects they create without registering them
 * (`Array.prototype[Symbol.unscopables]`...) by their path from a named one: `%Array.prototype%.[Symbol.unscopables]`.
 *
 * It runs on every realm a VM run uses, right after the host installed its globals and before the program (or a
 * saved state) touches it, so the same build always produces the same names in the same order. A template realm is
 * named once, when it is built; in a fork of it only what the host added since needs a name, and it can be
 * reached only from the fork's own intrinsics or from twins whose properties the host changed.
 */
import { NativeFunction } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import type { Realm } from "../runtime/realm.ts"
import { ForkedProperties, type NameByPath, untouchedTwin } from "../runtime/realm-fork.ts"
import { SymbolValue, type PropertyKey } from "../runtime/value.ts"

const segment = (key: PropertyKey): string => (key instanceof SymbolValue ? `[${key.description ?? ""}]` : JSON.stringify(key))

/** The name of an object by its path from the named object that holds it: `%Array.prototype%.[Symbol.unscopables]`. */
export const nameByPath: NameByPath = (owner, edge, key) => {
  const base = owner.slice(1, -1)
  if (edge === "proto") return `%${base}.[[Prototype]]%`
  if (edge === "slot") return `%${base}.[[${String(key)}]]%`
  return `%${base}.${segment(key!)}${edge === "value" ? "" : `[${edge}]`}%`
}

export const nameReachable = (realm: Realm): void => {
  const queue: Array<[JSObject, string]> = [...realm.ownIntrinsics].map(([name, o]) => [o, name])
  for (const twin of realm.fork?.made ?? []) if (!untouchedTwin(twin)) queue.push([twin, realm.intrinsicNames.get(twin)!])
  // Almost every value met is a primitive or an object named already: the path is built only for the others.
  const unnamed = (o: unknown): o is JSObject => o instanceof JSObject && !realm.intrinsicNames.has(o)
  const visit = (o: JSObject, name: string): void => {
    realm.register(name, o)
    queue.push([o, name])
  }
  for (let i = 0; i < queue.length; i++) {
    const [o, name] = queue[i]!
    if (untouchedTwin(o)) continue
    if (unnamed(o.proto)) visit(o.proto, nameByPath(name, "proto"))
    // A twin's properties not yet copied are its template object's, named when the template was.
    const properties: unknown = o.properties
    for (const [key, p] of properties instanceof ForkedProperties ? properties.changes() : o.properties.entries()) {
      if (p.accessor) {
        if (unnamed(p.get)) visit(p.get, nameByPath(name, "get", key))
        if (unnamed(p.set)) visit(p.set, nameByPath(name, "set", key))
      } else if (unnamed(p.value)) visit(p.value, nameByPath(name, "value", key))
    }
    if (o instanceof NativeFunction && o.slots !== undefined) {
      for (const [k, v] of Object.entries(o.slots)) if (!Array.isArray(v) && unnamed(v)) visit(v, nameByPath(name, "slot", k))
    }
  }
}
