/**
 * The bytecode compiler: a checked program's AST (with the scope analysis of src/language/scope.ts) to code
 * objects, one per function, plain data. See bytecode/code.ts for the format and bytecode/opcodes.ts for the instruction set.
 */
export { compileProgram, type ProgramSource } from "./functions.ts"
export type { CodeObject, CompiledProgram, Constant, TemplateSite } from "../bytecode/code.ts"
