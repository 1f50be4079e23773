/**
 * Code objects: the compiled form of one function (or of the program body), as plain data. A code object holds no
 * closures and no host functions, only numbers, strings and arrays, so that a run's state, which refers to code
 * objects, can be serialized (by id). Every function node is compiled once into one code object, shared by all
 * the closures created from it. Beside the bytecode: the constant pool, the exception handler table, and the
 * location table mapping instruction offsets to source offsets (kept outside the instruction stream, as QuickJS
 * does, so the stream stays lean).
 */
import type { FunctionKindName, FunctionRole } from "../language/static-semantics.ts"
import type { DestructureSite } from "../runtime/not-destructurable.ts"
import type { NotIterableSite } from "../runtime/not-iterable.ts"
import type { TemplateSite } from "../runtime/template-object.ts"

export type { TemplateSite }

export type Constant = string | number | bigint | TemplateSite | NotIterableSite | DestructureSite | RecordSite

/** The keys of an object literal's leading fields (NewRecord): static, distinct, in source order. */
export interface RecordSite {
  readonly kind: "record"
  readonly keys: ReadonlyArray<string>
}

/** What kind of function the code is the body of, and its kind (static decisions shared with the tree-walker). */
export type CodeFunctionKind = FunctionKindName
export type CodeRole = FunctionRole

export interface CodeObject {
  readonly id: number
  /** The function's name as inferred at compile time ("" if anonymous); computed keys name at run time. */
  readonly name: string
  readonly role: CodeRole
  readonly functionKind: CodeFunctionKind
  readonly strict: boolean
  /** `length` of the function object: parameters before the first default or rest. */
  readonly length: number
  /** Registers 0..paramCount-1 receive the arguments. */
  readonly paramCount: number
  /** Registers including parameters. */
  readonly registerCount: number
  /** Operand stack slots needed (from the verifier). */
  readonly maxStack: number
  /** The frame keeps its argument list (arguments object, rest parameter, implicit derived constructor). */
  readonly needsArgs: boolean
  /**
   * A mapped arguments object (CreateArguments): for each argument index, the slot of the parameter it aliases in
   * the function's environment record, or -1. Undefined when the arguments object is unmapped.
   */
  readonly argumentsMap: ReadonlyArray<number> | undefined
  /** The instructions: opcode words followed by their operands. */
  readonly bytecode: Int32Array
  readonly constants: ReadonlyArray<Constant>
  /** Exception handlers, innermost first: [start, end, target, stackDepth] per entry; `end` exclusive. */
  readonly handlers: Int32Array
  /** [pc, sourceOffset] pairs, ascending by pc. */
  readonly locations: Int32Array
  /** Source range of the function (Function.prototype.toString); the start also locates errors before its first instruction. */
  readonly sourceOffset: number
  readonly sourceEnd: number
  /**
   * The run loop's inline caches (vm/property-cache.ts), made on first use; not part of the code's data. Code objects
   * are shared by every run of the program, so it holds shapes and slot numbers only (alone or paired), never a
   * run's values.
   */
  propertyCache: unknown[] | undefined
}

/** The compiled program: every code object by id; `main` is the program body. */
export interface CompiledProgram {
  readonly codes: ReadonlyArray<CodeObject>
  readonly main: CodeObject
}

/** The source offset of the instruction at `pc` (the last location entry at or before it). */
export const sourceOffsetAt = (code: CodeObject, pc: number): number => {
  const loc = code.locations
  let lo = 0
  let hi = loc.length / 2 - 1
  if (hi < 0 || (loc[0] as number) > pc) return code.sourceOffset
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if ((loc[mid * 2] as number) <= pc) lo = mid
    else hi = mid - 1
  }
  return loc[lo * 2 + 1] as number
}
