/**
 * Bindings: plain data a host hands a program as global variables (`runtime.execute(code, bindings)`,
 * `runtime.program(code, bindings)`). Each becomes a writable, configurable global holding a sandbox copy, like the
 * other globals the host installs; being program data, it is saved with a suspended run's state.
 */
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import { DataError, fromData, hostToData, type DataValue } from "./data.ts"

/**
 * Values a program receives as globals: JSON data, copied in.
 *
 * @since 0.1.0
 * @category models
 */
export type Bindings = { readonly [name: string]: unknown }

/** Checks and copies bindings as host data; a non-data value is a TypeError at the call that passed it. */
export const checkBindings = (bindings: Bindings | undefined): ReadonlyArray<readonly [string, DataValue]> => {
  if (bindings === undefined) return []
  if (typeof bindings !== "object" || bindings === null || Array.isArray(bindings)) throw new TypeError("bindings must be an object")
  return Object.entries(bindings).map(([name, value]) => {
    try {
      return [name, hostToData(value) ?? null] as const
    } catch (e) {
      if (e instanceof DataError) throw new TypeError(`bindings.${name} is not plain data: ${e.message}`)
      throw e
    }
  })
}

export const installBindings = (realm: Realm, bindings: ReadonlyArray<readonly [string, DataValue]>): void => {
  for (const [name, value] of bindings) realm.globalObject.properties.set(name, Property.data(fromData(realm, value), true, false, true))
}
