/**
 * The emitter of one code object: appends instructions (checked against the opcode table for operand count),
 * resolves labels, interns constants, records exception handler ranges and source locations, and tracks the
 * operand stack depth as it goes (from the table's pop/push counts) so handlers know the depth to unwind to.
 * `finish` runs the verifier, which recomputes the maximum depth over the control-flow graph: a compiler bug
 * that unbalances the stack fails here, at compile time.
 */
import { Op, OP_INFO, type OpInfo, type Opcode } from "../bytecode/opcodes.ts"
import { verifyCode } from "../bytecode/verify.ts"
import type { Constant } from "../bytecode/code.ts"

export class Label {
  pc = -1
  /** Stack depth at the label, once some jump or fallthrough has reached it. */
  depth = -1
  readonly refs: number[] = []
}

interface HandlerEntry {
  start: number
  end: number
  target: Label
  depth: number
}

export class Assembler {
  readonly words: number[] = []
  readonly constants: Constant[] = []
  private readonly constIndex = new Map<string | number | bigint, number>()
  private readonly handlers: HandlerEntry[] = []
  private readonly locations: number[] = []
  /** Where the label operand of each Jump, JumpIfTrue and JumpIfFalse is (see `threadJumps`). */
  private readonly branches: number[] = []
  private pendingOffset = -1
  private lastOffset = -1
  /** Current operand stack depth; -1 after an unconditional transfer until a label is placed. */
  depth = 0

  get pc(): number {
    return this.words.length
  }

  /** The source offset of the next emitted instruction. */
  at(offset: number | undefined): void {
    if (offset !== undefined) this.pendingOffset = offset
  }

  emit(op: Opcode, ...operands: number[]): void {
    const info = OP_INFO[op] as OpInfo
    if (operands.length !== info.operands.length) throw new Error(`codemode bug: ${op} takes ${info.operands.length} operands`)
    if (this.pendingOffset >= 0 && this.pendingOffset !== this.lastOffset) {
      this.locations.push(this.words.length, this.pendingOffset)
      this.lastOffset = this.pendingOffset
    }
    this.words.push(op, ...operands)
    this.adjust(info, operands)
  }

  /** Emits a jump-like instruction whose `label` operand is at position `labelOperand`. */
  emitJump(op: Opcode, label: Label, ...operands: number[]): void {
    const info = OP_INFO[op] as OpInfo
    const index = info.operands.indexOf("label")
    const all = [...operands]
    all.splice(index, 0, label.pc)
    const at = this.words.length + 1 + index
    const before = this.depth
    this.emit(op, ...all)
    if (label.pc < 0) label.refs.push(at)
    if (op === Op.Jump || op === Op.JumpIfTrue || op === Op.JumpIfFalse) this.branches.push(at)
    const pops = typeof info.pop === "number" ? info.pop : info.pop(all)
    const atTarget = before < 0 ? -1 : before - pops + (info.branch ?? info.push)
    this.joinDepth(label, atTarget)
  }

  private joinDepth(label: Label, depth: number): void {
    if (depth < 0) return
    if (label.depth >= 0 && label.depth !== depth) {
      throw new Error(`codemode bug: stack depth ${depth} at a label expecting ${label.depth}`)
    }
    label.depth = depth
  }

  place(label: Label): void {
    if (label.pc >= 0) throw new Error("codemode bug: label placed twice")
    label.pc = this.words.length
    for (const ref of label.refs) this.words[ref] = label.pc
    if (this.depth >= 0) this.joinDepth(label, this.depth)
    this.depth = label.depth
  }

  private adjust(info: OpInfo, operands: ReadonlyArray<number>): void {
    if (this.depth < 0) return
    const pops = typeof info.pop === "number" ? info.pop : info.pop(operands)
    this.depth = this.depth - pops + info.push
    if (this.depth < 0) throw new Error("codemode bug: operand stack underflow")
    if (info.end === true) this.depth = -1
  }

  constant(c: Constant): number {
    if (typeof c === "object") {
      this.constants.push(c)
      return this.constants.length - 1
    }
    // -0 and 0 must stay distinct; so must the number 1 and the string "1".
    const key = typeof c === "number" && Object.is(c, -0) ? "-0n" : typeof c === "string" ? `s${c}` : c
    let i = this.constIndex.get(key)
    if (i === undefined) {
      i = this.constants.length
      this.constants.push(c)
      this.constIndex.set(key, i)
    }
    return i
  }

  /** Protects [start, end) with a handler at `target`; the handler runs with the stack at `depth` plus the exception. */
  handler(start: number, end: number, target: Label, depth: number): void {
    if (end > start) this.handlers.push({ start, end, target, depth })
    this.joinDepth(target, depth + 1)
  }

  /**
   * A branch to a Jump goes straight to that Jump's target: the end of an `if` in a loop body is the loop's jump
   * back. These three branches count a step when they go backwards, so a loop still costs a step per turn
   * (every cycle has a backward branch). A Jump to itself (`for (;;) {}`) is left as it is.
   */
  private threadJumps(): void {
    const words = this.words
    for (const at of this.branches) {
      let target = words[at] as number
      for (let hops = 0; words[target] === Op.Jump && words[target + 1] !== target && hops < 8; hops++) target = words[target + 1] as number
      words[at] = target
    }
  }

  finish(paramCount: number, registerCount: number): { bytecode: Int32Array; handlers: Int32Array; locations: Int32Array; maxStack: number } {
    this.threadJumps()
    const bytecode = Int32Array.from(this.words)
    const handlers = new Int32Array(this.handlers.length * 4)
    this.handlers.forEach((h, i) => {
      if (h.target.pc < 0) throw new Error("codemode bug: handler label never placed")
      handlers.set([h.start, h.end, h.target.pc, h.depth], i * 4)
    })
    const maxStack = verifyCode(bytecode, handlers, registerCount, paramCount)
    return { bytecode, handlers, locations: Int32Array.from(this.locations), maxStack }
  }
}
