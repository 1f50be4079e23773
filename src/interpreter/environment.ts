/**
 * Environment records of the tree-walker and where each binding lives in them. The scope analysis
 * (src/language/scope.ts) decides what every identifier denotes; this module only lays it out: every scope that
 * declares something gets an environment record (`Env`) when it is entered, with one slot per binding in
 * declaration order, and a reference finds its record by walking the chain to the record of the binding's scope.
 * Slots of `var` and function bindings start `undefined`, all others start uninitialized (`EMPTY`, the TDZ).
 *
 * Unlike the VM, the tree-walker keeps no binding in a register: one representation, resolved the same way for
 * the code that declares a binding and for the closures that capture it.
 */
import { chargeMemory, Cost } from "../runtime/memory.ts"
import type { ESTree } from "meriyah"
import type { Binding, BindingKind, FunctionInfo, Resolution, Scope, ScopeAnalysis } from "../language/scope.ts"
import { tdzError } from "../runtime/references.ts"
import type { PrivateName } from "../runtime/object.ts"
import { EMPTY, type Empty, type Value } from "../runtime/value.ts"

export type Slot = Value | Empty | PrivateName

/** A declarative environment record: the bindings of one scope entry. */
export class Env {
  readonly scope: Scope
  readonly slots: Slot[]
  readonly parent: Env | null
  constructor(scope: Scope, slots: Slot[], parent: Env | null) {
    chargeMemory(Cost.environment + Cost.element * slots.length)
    this.scope = scope
    this.slots = slots
    this.parent = parent
  }
}

/** A resolved reference: the scope whose record holds the binding, its slot, and whether reads check the TDZ. */
export interface Ref {
  readonly binding: Binding
  readonly scope: Scope
  readonly slot: number
  readonly checked: boolean
}

/**
 * What a call binds on entering a function's scope, worked out once per function: the pseudo-bindings it fills in
 * (`this`, `new.target`, the function object, `arguments`) and, for a simple parameter list, each parameter's slot
 * in the function scope's record.
 */
export interface FunctionLayout {
  /** The initial slots of the function scope's record; undefined when it declares nothing (no record). */
  readonly template: ReadonlyArray<Slot> | undefined
  readonly pseudo: ReadonlyArray<{ readonly kind: BindingKind; readonly slot: number }>
  /** Undefined when a parameter's binding is not in the function scope's own record (the general path binds it). */
  readonly paramSlots: ReadonlyArray<number> | undefined
}

/** The binding layout of one program: slot numbers, initial records, resolved references. */
export class Layout {
  readonly analysis: ScopeAnalysis
  private readonly slotOf = new Map<Binding, number>()
  private readonly templates = new Map<Scope, Slot[]>()
  private readonly refs = new Map<ESTree.Node, Ref | null>()
  private readonly argumentsMaps = new Map<FunctionInfo, ReadonlyArray<number> | undefined>()
  private readonly functionLayouts = new Map<FunctionInfo, FunctionLayout>()

  constructor(analysis: ScopeAnalysis) {
    this.analysis = analysis
  }

  /** The template of a scope's fresh record, or undefined when the scope declares nothing. */
  private template(scope: Scope): Slot[] | undefined {
    let t = this.templates.get(scope)
    if (t === undefined) {
      t = []
      for (const b of scope.bindings.values()) {
        this.slotOf.set(b, t.length)
        t.push((b.kind === "var" || b.kind === "function") && b.initFromParam === undefined ? undefined : EMPTY)
      }
      this.templates.set(scope, t)
    }
    return t.length === 0 ? undefined : t
  }

  /** Enters `scope`: a fresh record on top of `parent`, or `parent` itself when the scope declares nothing. */
  enter(scope: Scope, parent: Env | null): Env | null {
    const t = this.template(scope)
    return t === undefined ? parent : new Env(scope, t.slice(), parent)
  }

  slot(b: Binding): number {
    let s = this.slotOf.get(b)
    if (s === undefined) {
      this.template(b.scope)
      s = this.slotOf.get(b)
      if (s === undefined) throw new Error(`codemode bug: binding ${b.name} has no slot`)
    }
    return s
  }

  /** The reference an identifier (or `this`, `new.target`, a private name) denotes; null: a global lookup. */
  ref(node: ESTree.Node): Ref | null {
    let r = this.refs.get(node)
    if (r === undefined) {
      const res = this.analysis.references.get(node)
      if (res === undefined) throw new Error(`codemode bug: unresolved ${node.type} at ${node.start ?? "?"}`)
      r = this.refOf(res)
      this.refs.set(node, r)
    }
    return r
  }

  refOf(res: Resolution): Ref | null {
    const b = res.binding
    if (b === undefined) return null
    return { binding: b, scope: b.scope, slot: this.slot(b), checked: res.checked }
  }

  /** A mapped arguments object's slots: per argument index, the slot of the parameter it aliases, or -1. */
  argumentsMap(fi: FunctionInfo): ReadonlyArray<number> | undefined {
    if (this.argumentsMaps.has(fi)) return this.argumentsMaps.get(fi)
    const map = fi.mappedParameters()?.map((p) => (p === undefined ? -1 : this.slot(p)))
    this.argumentsMaps.set(fi, map)
    return map
  }

  functionLayout(fi: FunctionInfo): FunctionLayout {
    let l = this.functionLayouts.get(fi)
    if (l === undefined) {
      const pseudo: Array<{ kind: BindingKind; slot: number }> = []
      for (const b of fi.scope.bindings.values()) {
        if (b.kind === "this" || b.kind === "new.target" || b.kind === "function-object" || b.kind === "callee" || b.kind === "arguments") {
          pseudo.push({ kind: b.kind, slot: this.slot(b) })
        }
      }
      let paramSlots: Array<number> | undefined
      if (fi.hasSimpleParameterList) {
        const refs = fi.params.map((p) => this.ref(p))
        if (refs.every((r) => r !== null && r.scope === fi.scope)) paramSlots = refs.map((r) => r!.slot)
      }
      l = { template: this.template(fi.scope), pseudo, paramSlots }
      this.functionLayouts.set(fi, l)
    }
    return l
  }

  /** A binding as a reference (unchecked): for prologues and class set-up that store to it directly. */
  bindingRef(b: Binding, checked = false): Ref {
    return { binding: b, scope: b.scope, slot: this.slot(b), checked }
  }
}

/** The record holding `ref`'s binding, starting from `env`. */
export const recordOf = (env: Env | null, ref: Ref): Env => {
  let e = env
  while (e !== null && e.scope !== ref.scope) e = e.parent
  if (e === null) throw new Error(`codemode bug: no environment for ${ref.binding.name}`)
  return e
}

export { tdzError }
