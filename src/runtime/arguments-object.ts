/**
 * The arguments exotic object of a sloppy function with a simple parameter list
 * (https://tc39.es/ecma262/#sec-arguments-exotic-objects): while index `i` is mapped, `arguments[i]` and the
 * parameter binding it aliases are one variable. The [[ParameterMap]] is data — the environment record that holds
 * the parameters (the engine keeps them there for such functions) and, per index, the slot of the binding — so the
 * object survives a snapshot like any other.
 *
 * Own properties are stored as usual; a mapped index's stored value is refreshed from the binding whenever the
 * property is read through [[GetOwnProperty]] (which ordinary [[Get]], [[HasProperty]] and the engines' fast paths
 * all go through), and written through to it by [[DefineOwnProperty]] and [[Set]].
 */
import { JSObject, OrdinarySetWithOwnDescriptor } from "./object.ts"
import { arrayIndexOf, IsAccessorDescriptor, IsDataDescriptor, type Property, type PropertyDescriptor } from "./property.ts"
import type { Task } from "./task.ts"
import type { PropertyKey, Value } from "./value.ts"

/** The engine's environment record holding the parameters (the VM's Environment, the tree-walker's Env). */
export interface ParameterEnvironment {
  readonly slots: Array<unknown>
}

/** No binding: the index is not (or no longer) mapped. */
export const UNMAPPED = -1

export class MappedArgumentsObject extends JSObject {
  readonly env: ParameterEnvironment
  /** [[ParameterMap]]: for each argument index, the slot of the parameter it aliases in `env`, or UNMAPPED. */
  readonly parameterMap: number[]

  constructor(proto: JSObject | null, env: ParameterEnvironment, parameterMap: number[]) {
    super(proto)
    this.kind = "Arguments"
    this.env = env
    this.parameterMap = parameterMap
  }

  /** The slot `P` is mapped to, or UNMAPPED. */
  private mappedSlot(P: PropertyKey): number {
    const i = arrayIndexOf(P)
    return i < 0 || i >= this.parameterMap.length ? UNMAPPED : (this.parameterMap[i] as number)
  }

  private unmap(P: PropertyKey): void {
    this.parameterMap[arrayIndexOf(P)] = UNMAPPED
  }

  // https://tc39.es/ecma262/#sec-arguments-exotic-objects-getownproperty-p
  override GetOwnProperty(P: PropertyKey): Property | undefined {
    const desc = this.properties.get(P)
    if (desc === undefined) return undefined
    const slot = this.mappedSlot(P)
    if (slot !== UNMAPPED) desc.value = this.env.slots[slot] as Value
    return desc
  }

  // https://tc39.es/ecma262/#sec-arguments-exotic-objects-defineownproperty-p-desc
  override DefineOwnProperty(P: PropertyKey, Desc: PropertyDescriptor): boolean {
    const slot = this.mappedSlot(P)
    let newArgDesc = Desc
    if (slot !== UNMAPPED && IsDataDescriptor(Desc) && !("value" in Desc) && Desc.writable === false) {
      newArgDesc = { ...Desc, value: this.env.slots[slot] as Value }
    }
    if (!super.DefineOwnProperty(P, newArgDesc)) return false
    if (slot !== UNMAPPED) {
      if (IsAccessorDescriptor(Desc)) this.unmap(P)
      else {
        if ("value" in Desc) this.env.slots[slot] = Desc.value
        if (Desc.writable === false) this.unmap(P)
      }
    }
    return true
  }

  // https://tc39.es/ecma262/#sec-arguments-exotic-objects-set-p-v-receiver
  override *Set(P: PropertyKey, V: Value, Receiver: Value): Task<boolean> {
    if (Receiver === this) {
      const slot = this.mappedSlot(P)
      if (slot !== UNMAPPED) this.env.slots[slot] = V
    }
    return yield* OrdinarySetWithOwnDescriptor(this, P, V, Receiver, this.GetOwnProperty(P))
  }

  // https://tc39.es/ecma262/#sec-arguments-exotic-objects-delete-p
  override Delete(P: PropertyKey): boolean {
    const slot = this.mappedSlot(P)
    const result = super.Delete(P)
    if (result && slot !== UNMAPPED) this.unmap(P)
    return result
  }
}
