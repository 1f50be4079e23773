/**
 * Compiling a checked program for the VM. The host calls the compiler and hands the VM the result, so that the VM
 * depends only on the bytecode format (src/bytecode), never on the compiler. A program nested past the
 * compiler's limit is not an error of the host: the run reports it as a RangeError at the place it gave up.
 */
import { compileProgram } from "../compiler/functions.ts"
import { NestingTooDeep } from "../language/scope.ts"
import type { VmCode, VmProgram } from "../vm/index.ts"

/** Compilations of the checked programs still alive (program-cache.ts keeps the recent ones), each made once. */
const compiled = new WeakMap<VmProgram, VmCode>()

export const compileForVm = (program: VmProgram): VmCode => {
  let code = compiled.get(program)
  if (code === undefined) compiled.set(program, (code = compile(program)))
  return code
}

const compile = (program: VmProgram): VmCode => {
  try {
    return compileProgram(program)
  } catch (e) {
    // Nesting past the compiler's limit, or (a backstop) a host stack overflow while compiling.
    const overflow = e instanceof RangeError && /call stack/i.test(e.message)
    if (!(e instanceof NestingTooDeep) && !overflow) throw e
    return { refusedAt: program.locate(e instanceof NestingTooDeep ? e.offset : 0) }
  }
}
