/**
 * A readable listing of a code object, from the opcode table: one instruction per line with its operands
 * decoded by kind (registers as r3, constants by value, labels as @pc, code objects by id and name), then the
 * exception handler table. Used by tests (inline snapshots) and when debugging the compiler.
 */
import type { CodeObject, CompiledProgram, Constant } from "./code.ts"
import { OP_INFO, type OperandKind } from "./opcodes.ts"

const constantText = (c: Constant | undefined): string => {
  if (c === undefined) return "?"
  if (typeof c === "string") return JSON.stringify(c)
  if (typeof c === "bigint") return `${c}n`
  if (typeof c === "number") return Object.is(c, -0) ? "-0" : String(c)
  if (c.kind === "template") return `template(${JSON.stringify(c.raw)})`
  if (c.kind === "record") return `record(${JSON.stringify(c.keys)})`
  if (c.kind === "destructure") return `destructure(${JSON.stringify(c.property ?? null)}, ${JSON.stringify(c.of)})`
  return `${c.kind}(${JSON.stringify("message" in c ? c.message : c.text)})`
}

const operandText = (kind: OperandKind, v: number, code: CodeObject, program: CompiledProgram | undefined): string => {
  switch (kind) {
    case "reg":
      return `r${v}`
    case "const":
    case "name":
      return v < 0 ? "-" : constantText(code.constants[v])
    case "label":
      return `@${v}`
    case "binop":
      return OP_INFO[v]?.name ?? `?${v}`
    case "code": {
      const target = program?.codes[v]
      return target === undefined ? `#${v}` : `#${v}(${target.name || "anonymous"})`
    }
    default:
      return String(v)
  }
}

export const disassemble = (code: CodeObject, program?: CompiledProgram): string => {
  const lines: string[] = [`${code.name || "<anonymous>"} (${code.role}, ${code.functionKind}) params=${code.paramCount} regs=${code.registerCount} stack=${code.maxStack}`]
  const bc = code.bytecode
  for (let pc = 0; pc < bc.length; ) {
    const info = OP_INFO[bc[pc] as number]!
    const operands = info.operands.map((kind, i) => operandText(kind, bc[pc + 1 + i] as number, code, program))
    lines.push(`${String(pc).padStart(4)}  ${info.name}${operands.length > 0 ? " " + operands.join(" ") : ""}`)
    pc += 1 + info.operands.length
  }
  const h = code.handlers
  for (let i = 0; i < h.length; i += 4) lines.push(`  handler [${h[i]}, ${h[i + 1]}) -> @${h[i + 2]} depth ${h[i + 3]}`)
  return lines.join("\n")
}

/** Every code object of a program, main first. */
export const disassembleProgram = (program: CompiledProgram): string =>
  [program.main, ...program.codes.filter((c) => c !== program.main)].map((c) => disassemble(c, program)).join("\n\n")
