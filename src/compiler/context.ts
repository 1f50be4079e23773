/**
 * The state of compiling one function: its assembler, register allocation, where each binding lives (a register
 * of this frame, or a slot of an environment record on the scope chain), the chain of environments that exist at
 * the current point, and the control stack that `break`/`continue`/`return` walk to close iterators, pop
 * environments and run `finally` blocks on the way out. `ProgramCompiler` holds what is shared by every function
 * of a program: the code objects by id and the storage of every binding.
 *
 * A scope gets an environment record at run time only if a closure captures one of its bindings; everything else
 * lives in registers. A reference to a captured binding is compiled to (depth, slot): how many environments to
 * walk up from the current one, and which slot.
 */
import type { ESTree } from "meriyah"
import { type Binding, type FunctionInfo, MAX_NESTING, NestingTooDeep, type Resolution, type Scope, type ScopeAnalysis } from "../language/scope.ts"
import { ErrorTypeCode, Op, type Opcode } from "../bytecode/opcodes.ts"
import { Assembler, Label } from "./assembler.ts"
import type { CodeFunctionKind, CodeObject, CodeRole } from "../bytecode/code.ts"

export type Storage =
  | { readonly kind: "reg"; readonly reg: number }
  | { readonly kind: "env"; readonly scope: Scope; readonly slot: number }

/** Completion kinds carried through a `finally` block; jumps through it use codes from JUMP_BASE up. */
export const CompletionKind = { Normal: 0, Throw: 1, Return: 2, JumpBase: 3 } as const

export type ControlEntry =
  | {
      readonly kind: "breakable"
      readonly labels: ReadonlyArray<string>
      readonly isLoop: boolean
      /** A plain `break` can target it (loops and switch). */
      readonly unlabeledBreak: boolean
      readonly breakLabel: Label
      readonly continueLabel: Label | undefined
      /** Environments on the chain where the labels are placed. */
      readonly breakEnvDepth: number
      readonly continueEnvDepth: number
    }
  | {
      readonly kind: "finally"
      readonly entry: Label
      readonly kindReg: number
      readonly valueReg: number
      readonly envDepth: number
      readonly pending: Array<{ readonly code: number; readonly continuation: () => void }>
    }
  | { readonly kind: "iterator"; readonly iterReg: number; readonly async: boolean }

export class ProgramCompiler {
  readonly analysis: ScopeAnalysis
  readonly codes: CodeObject[] = []
  /** AST nesting depth of the compile in progress, across nested functions (the host stack is shared). */
  depth = 0
  readonly storage = new Map<Binding, Storage>()
  private readonly materialized = new Map<Scope, boolean>()
  private blockEnvFunctions: Set<FunctionInfo> | undefined
  /** The program's text (Function.prototype.toString ranges). */
  readonly source: string
  constructor(analysis: ScopeAnalysis, source: string) {
    this.analysis = analysis
    this.source = source
  }
  reserveId(): number {
    this.codes.push(undefined as unknown as CodeObject)
    return this.codes.length - 1
  }
  /** Whether some block-like scope (block, for, switch, catch, class) of `fi` gets an environment. */
  hasBlockEnvs(fi: FunctionInfo): boolean {
    if (this.blockEnvFunctions === undefined) {
      this.blockEnvFunctions = new Set()
      for (const scope of this.analysis.scopes.values()) if (this.isMaterialized(scope)) this.blockEnvFunctions.add(scope.func)
    }
    return this.blockEnvFunctions.has(fi)
  }
  isMaterialized(scope: Scope): boolean {
    let m = this.materialized.get(scope)
    if (m === undefined) {
      m = scope.hasCaptured
      this.materialized.set(scope, m)
    }
    return m
  }
}

export interface FunctionSetup {
  readonly role: CodeRole
  readonly functionKind: CodeFunctionKind
  readonly strict: boolean
  readonly name: string
  readonly envChain: ReadonlyArray<Scope>
  readonly classInfo: ClassInfo | undefined
}

/** What a class's members need to know about the class being compiled. */
export interface ClassInfo {
  readonly hasInstanceElements: boolean
}

export class FunctionCompiler {
  readonly program: ProgramCompiler
  readonly fi: FunctionInfo | undefined
  readonly asm = new Assembler()
  readonly role: CodeRole
  readonly functionKind: CodeFunctionKind
  readonly strict: boolean
  /** The function's own name (for its `name` property). */
  readonly functionName: string
  readonly envChain: Scope[]
  readonly control: ControlEntry[] = []
  readonly classInfo: ClassInfo | undefined
  /** Registers holding the program's completion value (top-level body only). */
  completionReg: number | undefined = undefined
  needsArgs = false
  /** The registers of the dispose capabilities of the enclosing scopes that declare `using`, innermost last. */
  readonly disposeCaps: number[] = []
  /** See CodeObject.argumentsMap. */
  argumentsMap: number[] | undefined = undefined
  private nextReg = 0
  private maxReg = 0
  private readonly freeRegs: number[] = []

  constructor(program: ProgramCompiler, fi: FunctionInfo | undefined, setup: FunctionSetup) {
    this.program = program
    this.fi = fi
    this.role = setup.role
    this.functionKind = setup.functionKind
    this.strict = setup.strict
    this.functionName = setup.name
    this.envChain = [...setup.envChain]
    this.classInfo = setup.classInfo
  }

  get isAsync(): boolean {
    return this.functionKind === "async" || this.functionKind === "asyncGenerator"
  }
  get isGenerator(): boolean {
    return this.functionKind === "generator" || this.functionKind === "asyncGenerator"
  }

  // --- Nesting guard ------------------------------------------------------------------------------------------

  enter(node: { readonly start?: number }): void {
    if (++this.program.depth > MAX_NESTING) throw new NestingTooDeep(node.start ?? 0)
    this.asm.at(node.start)
  }
  /** Statements start with an empty operand stack, also after unreachable code. */
  enterStatement(node: { readonly start?: number }): void {
    this.enter(node)
    if (this.asm.depth < 0) this.asm.depth = 0
  }
  leave(): void {
    this.program.depth--
  }

  // --- Registers ----------------------------------------------------------------------------------------------

  /** Registers 0..n-1 are the parameters. */
  reserveParams(n: number): void {
    this.nextReg = n
    this.maxReg = Math.max(this.maxReg, n)
  }
  allocReg(): number {
    const r = this.freeRegs.pop()
    if (r !== undefined) return r
    const reg = this.nextReg++
    if (this.nextReg > this.maxReg) this.maxReg = this.nextReg
    return reg
  }
  freeReg(r: number): void {
    this.freeRegs.push(r)
  }
  get registerCount(): number {
    return this.maxReg
  }

  // --- Emission helpers ---------------------------------------------------------------------------------------

  emit(op: Opcode, ...operands: number[]): void {
    this.asm.emit(op, ...operands)
  }
  jump(op: Opcode, label: Label, ...operands: number[]): void {
    this.asm.emitJump(op, label, ...operands)
  }
  label(): Label {
    return new Label()
  }
  place(label: Label): void {
    this.asm.place(label)
  }
  name(s: string): number {
    return this.asm.constant(s)
  }
  pushConst(v: string | number | bigint): void {
    if (typeof v === "number" && Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff && !Object.is(v, -0)) this.emit(Op.Int, v)
    else this.emit(Op.Const, this.asm.constant(v))
  }
  /** Throws a new error; code after it in the same expression is unreachable but keeps the stack shape. */
  throwError(type: keyof typeof ErrorTypeCode, message: string, depthAfter: number): void {
    this.emit(Op.ThrowError, ErrorTypeCode[type], this.asm.constant(message))
    this.asm.depth = depthAfter
  }

  // --- Scopes and bindings ------------------------------------------------------------------------------------

  storageOf(b: Binding): Storage {
    const s = this.program.storage.get(b)
    if (s === undefined) throw new Error(`codemode bug: binding ${b.name} has no storage`)
    return s
  }

  /** Assigns storage to a scope's bindings; pushes its environment if it has one. Returns whether it did. */
  enterScope(scope: Scope, paramRegs?: ReadonlyMap<Binding, number>): boolean {
    const materialized = this.program.isMaterialized(scope)
    let slot = 0
    for (const b of scope.bindings.values()) {
      if (this.program.storage.has(b)) continue
      if (b.captured) this.program.storage.set(b, { kind: "env", scope, slot: slot++ })
      else {
        const pr = paramRegs?.get(b)
        this.program.storage.set(b, { kind: "reg", reg: pr ?? this.allocReg() })
      }
    }
    if (materialized) {
      this.emit(Op.PushEnv, slot)
      this.envChain.push(scope)
    }
    // TDZ: registers start undefined, environment slots start uninitialized.
    for (const b of scope.bindings.values()) {
      const st = this.storageOf(b)
      if (st.kind === "reg" && b.needsTdz && (b.isLexical || b.kind === "param" || b.kind === "this")) this.emit(Op.ClearReg, st.reg)
      if (st.kind === "env" && st.scope === scope && (b.kind === "var" || b.kind === "function") && b.initFromParam === undefined) {
        this.emit(Op.Undefined)
        this.emit(Op.StoreEnv, 0, st.slot)
      }
    }
    return materialized
  }

  exitScope(scope: Scope): void {
    if (this.program.isMaterialized(scope)) {
      this.emit(Op.PopEnv)
      const top = this.envChain.pop()
      if (top !== scope) throw new Error("codemode bug: scope exit out of order")
    }
  }

  envDepthOf(scope: Scope): number {
    const i = this.envChain.lastIndexOf(scope)
    if (i < 0) throw new Error(`codemode bug: scope of a captured binding is not on the chain`)
    return this.envChain.length - 1 - i
  }

  /** Pushes the value of a binding (undefined: a global lookup by `name`). */
  load(res: Resolution, name: string): void {
    const b = res.binding
    if (b === undefined) {
      this.emit(Op.LoadGlobal, this.name(name))
      return
    }
    this.loadBinding(b, res.checked)
  }

  loadBinding(b: Binding, checked: boolean): void {
    const st = this.storageOf(b)
    if (st.kind === "reg") {
      if (checked) this.emit(Op.LoadRegChecked, st.reg, this.name(b.name))
      else this.emit(Op.LoadReg, st.reg)
    } else {
      const depth = this.envDepthOf(st.scope)
      if (checked) this.emit(Op.LoadEnvChecked, depth, st.slot, this.name(b.name))
      else this.emit(Op.LoadEnv, depth, st.slot)
    }
  }

  /** Pops a value into a binding. `init` initializes a declaration; otherwise it is an assignment. */
  store(res: Resolution, name: string, init: boolean): void {
    const b = res.binding
    if (b === undefined) {
      this.emit(Op.StoreGlobal, this.name(name))
      return
    }
    if (!init && b.isImmutable) {
      const after = this.asm.depth - 1
      if (b.kind === "callee" && !this.strict) {
        this.emit(Op.Pop)
        return
      }
      if (res.checked) {
        this.loadBinding(b, true)
        this.emit(Op.Pop)
      }
      this.throwError("TypeError", "Assignment to constant variable.", after)
      return
    }
    this.storeBinding(b, !init && res.checked)
  }

  storeBinding(b: Binding, checked: boolean): void {
    const st = this.storageOf(b)
    if (st.kind === "reg") {
      if (checked) this.emit(Op.StoreRegChecked, st.reg, this.name(b.name))
      else this.emit(Op.StoreReg, st.reg)
    } else {
      const depth = this.envDepthOf(st.scope)
      if (checked) this.emit(Op.StoreEnvChecked, depth, st.slot, this.name(b.name))
      else this.emit(Op.StoreEnv, depth, st.slot)
    }
  }

  resolution(node: ESTree.Node): Resolution {
    const r = this.program.analysis.references.get(node)
    if (r === undefined) throw new Error(`codemode bug: unresolved ${node.type} at ${node.start ?? "?"}`)
    return r
  }

  // --- Leaving blocks: break, continue, return ----------------------------------------------------------------

  emitPopEnvs(toDepth: number): void {
    for (let i = this.envChain.length; i > toDepth; i--) this.emit(Op.PopEnv)
  }

  /**
   * Transfers control out to control entry `targetIndex` (-1: the function), closing iterators and running
   * `finally` blocks on the way, then runs `action` at the target's level. With `valueOnStack`, a value (a return
   * value) travels along.
   */
  exitTo(targetIndex: number, targetEnvDepth: number, valueOnStack: boolean, action: () => void): void {
    for (let i = this.control.length - 1; i > targetIndex; i--) {
      const c = this.control[i] as ControlEntry
      if (c.kind === "iterator") {
        this.emit(Op.LoadReg, c.iterReg)
        if (c.async) this.asyncIteratorClose()
        else this.emit(Op.IterClose)
      } else if (c.kind === "finally") {
        this.emitPopEnvs(c.envDepth)
        if (valueOnStack) this.emit(Op.StoreReg, c.valueReg)
        const code = CompletionKind.JumpBase + c.pending.length
        // Emitted at the end of the finally block, where the control stack is again the entries below it.
        c.pending.push({
          code,
          continuation: () => {
            if (valueOnStack) this.emit(Op.LoadReg, c.valueReg)
            this.exitTo(targetIndex, targetEnvDepth, valueOnStack, action)
          },
        })
        this.emit(Op.Int, code)
        this.emit(Op.StoreReg, c.kindReg)
        this.jump(Op.Jump, c.entry)
        return
      }
    }
    if (targetIndex >= 0) this.emitPopEnvs(targetEnvDepth)
    action()
  }

  /** AsyncIteratorClose for a normal completion: `iter ->`. */
  asyncIteratorClose(): void {
    const none = this.label()
    const done = this.label()
    this.emit(Op.AsyncIterReturn)
    this.jump(Op.JumpIfDone, none)
    this.emit(Op.AwaitPrepare)
    this.emit(Op.Await)
    this.emit(Op.CheckObject)
    this.emit(Op.Pop)
    this.jump(Op.Jump, done)
    this.place(none)
    this.place(done)
  }

  /** `return` with the value on the stack, from the current point. */
  emitReturn(): void {
    this.exitTo(-1, 0, true, () => this.emitFunctionEpilogue())
  }

  /** The final step of a return: a derived constructor checks its result. Value on the stack. */
  emitFunctionEpilogue(): void {
    if (this.role === "derivedConstructor") {
      const thisBinding = this.fi?.pseudo("this")
      if (thisBinding === undefined) throw new Error("codemode bug: derived constructor without a this binding")
      this.loadBinding(thisBinding, false)
      this.emit(Op.DerivedCtorReturn)
    }
    this.emit(Op.Return)
  }

  /** Saves the environment before a protected region, if handlers will need to restore it. */
  saveEnvForHandler(): number | undefined {
    if (!this.mayPushBlockEnvs) return undefined
    const r = this.allocReg()
    this.emit(Op.SaveEnv, r)
    return r
  }
  restoreEnvInHandler(saved: number | undefined): void {
    if (saved !== undefined) this.emit(Op.RestoreEnv, saved)
  }
  /** Some block-like scope of this function has an environment (computed up front): handlers restore it. */
  mayPushBlockEnvs = false
}
