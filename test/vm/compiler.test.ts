import { describe, expect, it } from "vitest"
import { compileProgram } from "../../src/compiler/index.ts"
import { checkProgram } from "../../src/language/index.ts"
import { disassemble, disassembleProgram } from "../../src/bytecode/disassemble.ts"
import { Op, OP_INFO } from "../../src/bytecode/opcodes.ts"
import { VerifyError, verifyCode } from "../../src/bytecode/verify.ts"

const compile = (source: string) => {
  const checked = checkProgram(source)
  if (!checked.ok) throw new Error(checked.diagnostic.message)
  return compileProgram(checked.program)
}

describe("compiler", () => {
  it("disassembles a program", () => {
    expect(disassembleProgram(compile("function add(a, b) { return a + b }\nlet s = 0\nfor (let i = 0; i < 3; i++) s = add(s, i)\nreturn s")))
      .toMatchInlineSnapshot(`
        "<anonymous> (program, async) params=0 regs=3 stack=4
           0  Closure #1(add)
           2  StoreReg r0
           4  Int 0
           6  StoreReg r1
           8  Int 0
          10  StoreReg r2
          12  LoadReg r2
          14  Int 3
          16  Lt
          17  JumpIfFalse @38
          19  Undefined
          20  LoadReg r0
          22  LoadReg r1
          24  LoadReg r2
          26  Call 2 "add"
          29  StoreReg r1
          31  LoadReg r2
          33  Inc
          34  StoreReg r2
          36  Jump @12
          38  LoadReg r1
          40  Return
          41  Undefined
          42  Return

        add (function, normal) params=2 regs=2 stack=1
           0  BinRegReg r0 r1 Add
           4  Return
           5  Undefined
           6  Return"
      `)
  })

  it("compiles an update for its effect as a prefix one, a negated test as the opposite jump, and a branch to a jump to its target", () => {
    const text = disassemble(compile("const g = { n: 0, f: [] }\nfor (const r of rs) { g.n++; if (!r.ok) g.f.push(r) }\nreturn g").main)
    expect(text).not.toContain("ToNumeric")
    expect(text).not.toContain("Not")
    const loop = /(\d+)\s+ForOfStep/.exec(text)?.[1]
    expect(text).toContain(`JumpIfTrue @${loop}`)
  })

  it("keeps captured bindings in environments and the rest in registers", () => {
    const text = disassemble(compile("let a = 1; let b = 2; const f = () => a; return f() + b").main)
    expect(text).toContain("PushEnv 1")
    expect(text).toContain("StoreEnv 0 0")
    expect(text).not.toContain("PushEnv 2")
  })

  it("records handlers for try/catch and for-of", () => {
    const text = disassemble(compile("try { f() } catch (e) { g(e) } for (const x of y) h(x)").main)
    expect(text.match(/handler \[/g)?.length).toBe(2)
  })

  it("interns one code object per function and shares it between closures", () => {
    const p = compile("const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); return fs")
    expect(p.codes.length).toBe(2)
    expect(p.codes.every((c, i) => c.id === i)).toBe(true)
  })

  it("reads both operands of an arithmetic operator from their registers in one instruction when it can", () => {
    const text = disassembleProgram(compile("let g = 1\nfunction f(a, b) { return [a - b, a * b + a, a < b, g - a, a - 1] }\nreturn [f(1, 2), () => g]"))
    expect(text).toContain("BinRegReg r0 r1 Sub")
    expect(text).toContain("BinRegReg r0 r1 Mul")
    // A comparison, a captured binding (an environment slot) and a constant operand keep their own instructions.
    expect(text.match(/BinRegReg/g)?.length).toBe(2)
    expect(disassemble(compile("const r = a - b; let a = 1; let b = 2; return r").main)).not.toContain("BinRegReg")
  })

  it("reads a named property of a register binding in one instruction", () => {
    const text = disassembleProgram(compile("let g = {}\nconst f = (r) => [r.a, r?.b, r[0], g.c, r.d()]\nreturn [f, () => g]"))
    expect(text).toContain(`GetFieldReg r0 "a"`)
    // Optional chains, computed keys, environment bindings and method calls keep their own instructions.
    expect(text.match(/GetFieldReg/g)?.length).toBe(1)
  })

  it("the opcode table is dense and every row is consistent", () => {
    OP_INFO.forEach((row, code) => {
      expect(row.code).toBe(code)
      expect(Op[row.name]).toBe(code)
      if (row.branch !== undefined) expect(row.operands).toContain("label")
    })
  })
})

describe("verifier", () => {
  const code = (...words: number[]) => Int32Array.from(words)
  const none = new Int32Array(0)

  it("computes the maximum stack depth", () => {
    expect(verifyCode(code(Op.Int, 1, Op.Int, 2, Op.Int, 3, Op.Add, Op.Add, Op.Return), none, 0, 0)).toBe(3)
  })

  it("follows both sides of a branch and handler entries", () => {
    // if (r0) push 1 else push 2; return
    const c = code(Op.LoadReg, 0, Op.JumpIfFalse, 8, Op.Int, 1, Op.Jump, 10, Op.Int, 2, Op.Return)
    expect(verifyCode(c, none, 1, 1)).toBe(1)
    const handler = Int32Array.from([0, 3, 3, 0])
    expect(verifyCode(code(Op.Int, 1, Op.Throw, Op.Return), handler, 0, 0)).toBe(1)
  })

  it("rejects underflow, inconsistent depths, bad jumps and registers", () => {
    expect(() => verifyCode(code(Op.Add, Op.Return), none, 0, 0)).toThrow(VerifyError)
    expect(() => verifyCode(code(Op.LoadReg, 0, Op.JumpIfFalse, 7, Op.Int, 1, Op.Undefined, Op.Return), none, 1, 1)).toThrow(VerifyError)
    expect(() => verifyCode(code(Op.Jump, 1, Op.Undefined, Op.Return), none, 0, 0)).toThrow(/middle of an instruction/)
    expect(() => verifyCode(code(Op.LoadReg, 5, Op.Return), none, 1, 0)).toThrow(/register 5/)
    expect(() => verifyCode(code(Op.Undefined), none, 0, 0)).toThrow(/falls off the end/)
    expect(() => verifyCode(code(Op.BinRegReg, 0, 2, Op.Sub, Op.Return), none, 2, 2)).toThrow(/register 2/)
    expect(() => verifyCode(code(Op.BinRegReg, 0, 1, Op.Lt, Op.Return), none, 2, 2)).toThrow(/not arithmetic/)
    expect(verifyCode(code(Op.BinRegReg, 0, 1, Op.BitXor, Op.Return), none, 2, 2)).toBe(1)
  })
})
