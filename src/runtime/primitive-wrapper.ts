/**
 * Wrapper objects for primitives ([[BooleanData]], [[NumberData]], [[StringData]], [[SymbolData]], [[BigIntData]]).
 * A String wrapper is exotic (https://tc39.es/ecma262/#sec-string-exotic-objects): its indices and `length` are
 * read-only own properties computed from the string.
 */
import { JSObject, orderKeys } from "./object.ts"
import { arrayIndexOf, Property } from "./property.ts"
import type { PropertyDescriptor } from "./property.ts"
import { ValidateAndApplyPropertyDescriptor } from "./object.ts"
import type { Primitive, PropertyKey } from "./value.ts"

export class PrimitiveWrapper extends JSObject {
  readonly primitive: Primitive
  constructor(proto: JSObject | null, kind: "Boolean" | "Number" | "String" | "Symbol" | "BigInt", primitive: Primitive) {
    super(proto)
    this.kind = kind
    this.primitive = primitive
  }

  private stringOwn(P: PropertyKey): Property | undefined {
    const s = this.primitive as string
    if (P === "length") return Property.data(s.length, false, false, false)
    const i = arrayIndexOf(P)
    if (i >= 0 && i < s.length) return Property.data(s[i], false, true, false)
    return undefined
  }

  override GetOwnProperty(P: PropertyKey): Property | undefined {
    if (this.kind === "String") {
      const p = this.stringOwn(P)
      if (p !== undefined) return p
    }
    return this.properties.get(P)
  }

  override DefineOwnProperty(P: PropertyKey, Desc: PropertyDescriptor): boolean {
    if (this.kind === "String") {
      const own = this.stringOwn(P)
      if (own !== undefined) return ValidateAndApplyPropertyDescriptor(undefined, P, false, Desc, own)
    }
    return super.DefineOwnProperty(P, Desc)
  }

  override Delete(P: PropertyKey): boolean {
    if (this.kind === "String" && this.stringOwn(P) !== undefined) return false
    return super.Delete(P)
  }

  override OwnPropertyKeys(): PropertyKey[] {
    if (this.kind !== "String") return super.OwnPropertyKeys()
    const len = (this.primitive as string).length
    const keys = orderKeys(this.properties, len)
    const firstNonIndex = keys.findIndex((k) => typeof k !== "string" || arrayIndexOf(k) < 0)
    keys.splice(firstNonIndex < 0 ? keys.length : firstNonIndex, 0, "length")
    return keys
  }
}
