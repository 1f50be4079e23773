/**
 * The bytecode verifier: walks a code object's control-flow graph from the entry and from every handler, using
 * the opcode table's stack effects, and checks that every instruction is reached with one consistent operand
 * stack depth, that jumps land on instruction boundaries, that registers are in range and that the stack never
 * underflows. Returns the maximum depth, which sizes the frame. A compiler bug therefore fails at compile time
 * instead of corrupting a run; a snapshot's code can be checked the same way before it is trusted.
 */
import { Op, OP_INFO, type OpInfo } from "./opcodes.ts"

export class VerifyError extends Error {}

export const verifyCode = (code: Int32Array, handlers: Int32Array, registerCount: number, paramCount: number): number => {
  if (paramCount > registerCount) throw new VerifyError("more parameters than registers")
  const starts = new Uint8Array(code.length + 1)
  for (let pc = 0; pc < code.length; ) {
    const info = OP_INFO[code[pc] as number]
    if (info === undefined) throw new VerifyError(`unknown opcode ${code[pc]} at ${pc}`)
    starts[pc] = 1
    pc += 1 + info.operands.length
    if (pc > code.length) throw new VerifyError(`truncated instruction at the end`)
  }
  const depthAt = new Int32Array(code.length).fill(-1)
  const work: Array<[number, number]> = [[0, 0]]
  for (let i = 0; i < handlers.length; i += 4) {
    const start = handlers[i] as number
    const end = handlers[i + 1] as number
    const target = handlers[i + 2] as number
    if (!starts[start] || !(starts[end] || end === code.length) || !starts[target]) throw new VerifyError(`bad handler entry ${i / 4}`)
    work.push([target, (handlers[i + 3] as number) + 1])
  }
  let max = 0
  const reach = (pc: number, depth: number): void => {
    if (pc >= code.length) throw new VerifyError(`control falls off the end`)
    if (!starts[pc]) throw new VerifyError(`jump into the middle of an instruction at ${pc}`)
    const seen = depthAt[pc] as number
    if (seen === -1) work.push([pc, depth])
    else if (seen !== depth) throw new VerifyError(`stack depth ${depth} at ${pc}, expected ${seen}`)
  }
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    let [pc, depth] = item
    for (;;) {
      const seen = depthAt[pc] as number
      if (seen !== -1) {
        if (seen !== depth) throw new VerifyError(`stack depth ${depth} at ${pc}, expected ${seen}`)
        break
      }
      depthAt[pc] = depth
      const info = OP_INFO[code[pc] as number] as OpInfo & { name: string }
      const operands = Array.from(code.subarray(pc + 1, pc + 1 + info.operands.length))
      let labelTarget = -1
      info.operands.forEach((kind, i) => {
        const v = operands[i] as number
        if (kind === "reg" && (v < 0 || v >= registerCount)) throw new VerifyError(`register ${v} out of range at ${pc}`)
        if (kind === "binop" && !(v >= Op.Add && v <= Op.BitXor)) throw new VerifyError(`operator ${v} is not arithmetic at ${pc}`)
        if (kind === "label") labelTarget = v
      })
      const pops = typeof info.pop === "number" ? info.pop : info.pop(operands)
      if (depth < pops) throw new VerifyError(`${info.name} at ${pc} pops ${pops} from a stack of ${depth}`)
      const next = depth - pops + info.push
      if (labelTarget >= 0) reach(labelTarget, depth - pops + (info.branch ?? info.push))
      max = Math.max(max, next, depth)
      if (info.end === true) break
      depth = next
      pc += 1 + info.operands.length
      if (pc >= code.length) throw new VerifyError(`control falls off the end`)
    }
  }
  return max
}
