/**
 * What the decoder knows about the side it restores into, handed to the registry's `restore` and `validate`
 * hooks: the built-in behaviours by id (a saved `NativeFunction` gets its host `impl` back from its `nativeId`,
 * never from the snapshot), the recompiled program's code objects, and whatever the host installed in the realm
 * (tools). Built by snapshot/restore.ts.
 */
import type { CodeObject } from "../bytecode/code.ts"
import type { NativeImpl } from "../runtime/function-object.ts"
import { OP_INFO } from "../bytecode/opcodes.ts"
import type { Checker } from "./shape.ts"

export interface RestoreContext {
  /** Every built-in behaviour by `nativeId`: the fresh realm's built-ins, closures (NativeClosures), host functions. */
  readonly natives: { get(nativeId: string): NativeImpl | undefined }
  /** The program's code objects (external `code:<id>`). */
  readonly codes: ReadonlySet<CodeObject>
  /** The host's context for its own heap classes (the tools' host), opaque here. */
  readonly host: unknown
  /** Where each instruction of `code` starts (computed once per code object). */
  readonly instructionStarts: (code: CodeObject) => Uint8Array
  /** For checks run by `validate` hooks. */
  readonly checker: Checker
  /** Objects already known to be on an acyclic chain, per kind of chain (registry-runtime.ts `acyclic`). */
  readonly acyclic: Map<string, Set<object>>
}

/** Marks the instruction boundaries of a code object (1 at each opcode word, and at the end). */
export const instructionStartsOf = (code: CodeObject): Uint8Array => {
  const bc = code.bytecode
  const starts = new Uint8Array(bc.length + 1)
  for (let pc = 0; pc < bc.length; ) {
    starts[pc] = 1
    const info = OP_INFO[bc[pc] as number]
    if (info === undefined) break
    pc += 1 + info.operands.length
  }
  starts[bc.length] = 1
  return starts
}
