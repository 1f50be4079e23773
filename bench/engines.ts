/**
 * Engines the benchmark compares. `run` executes one program from scratch and resolves to its JSON result;
 * whatever it does before calling `run` (building a context, say) is left out of the timing by `prepare`.
 * The last engine in `engines` is the baseline that ratios are computed against.
 */
import * as vm from "node:vm"
import { Effect } from "effect"
import { CodeMode } from "../src/index.ts"

export interface BenchEngine {
  readonly name: string
  /** Untimed set-up for one run; returns the timed part. */
  readonly prepare: (code: string) => () => Promise<unknown>
}

/** The bytecode VM through the public API: parse, compile and run, as a caller would. */
export const codemodeVm: BenchEngine = {
  name: "codemode vm",
  prepare: (code) => async () => {
    const r = await Effect.runPromise(CodeMode.execute({ code, engine: "vm" }))
    if (!r.ok) throw new Error(`codemode vm: ${r.error.kind}: ${r.error.message}`)
    return r.value
  },
}

/**
 * The tree-walking interpreter (the default engine) through the public API: parse, analyse and run. Where each
 * engine wins: the tree-walker has no compile step, so small one-shot programs (the "small:" rows, where the fixed
 * cost of a run dominates) and object- and callback-heavy code run faster or as fast on it; the VM wins on tight
 * arithmetic loops and deep recursion (the tree-walker's generators are slower per node than bytecode, and past
 * ~100 nested calls it leaves its synchronous fast path), and only the VM can suspend.
 */
export const codemodeLegacy: BenchEngine = {
  name: "codemode legacy",
  prepare: (code) => async () => {
    const r = await Effect.runPromise(CodeMode.execute({ code, engine: "legacy" }))
    if (!r.ok) throw new Error(`codemode legacy: ${r.error.kind}: ${r.error.message}`)
    return r.value
  },
}

/**
 * V8 through node:vm. The program is wrapped in an async function: top-level `var`s of a plain script live on
 * the context's global object behind slow interceptors, which would make V8 look hundreds of times slower
 * (stack-notes §13). Creating the context (~0.8 ms) is set-up, not part of the timing; compiling is.
 */
export const nodeVm: BenchEngine = {
  name: "node:vm",
  prepare: (code) => {
    const context = vm.createContext({})
    return async () => {
      const result: unknown = await new vm.Script(`(async function () {\n${code}\n})()`).runInContext(context)
      return JSON.parse(JSON.stringify(result ?? null))
    }
  },
}

export const engines: ReadonlyArray<BenchEngine> = [codemodeLegacy, codemodeVm, nodeVm]
