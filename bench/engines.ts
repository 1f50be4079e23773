/**
 * Engines the benchmark compares: ours and the interpreters a user would pick instead (V8 through node:vm,
 * QuickJS compiled to WebAssembly, sval). `run` executes one program from scratch and resolves to its JSON
 * result; whatever it does before calling `run` (building a context, say) is left out of the timing by `prepare`.
 * Each engine runs in a child process of its own (bench/child.ts), so no engine warms or pollutes another's heap.
 */
import * as vm from "node:vm"
import { Effect } from "effect"
import { getQuickJS } from "quickjs-emscripten"
import Sval from "sval"
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

/**
 * QuickJS through quickjs-emscripten: a fresh context per run (set-up); the timed part compiles and runs the
 * program and drains its job queue. The result crosses the wasm boundary as JSON text.
 */
export const quickJs = async (): Promise<BenchEngine> => {
  const QuickJS = await getQuickJS()
  return {
    name: "QuickJS",
    prepare: (code) => {
      const context = QuickJS.newContext()
      return async () => {
        try {
          const promise = context.unwrapResult(
            context.evalCode(`(async function () {\n${code}\n})().then((v) => JSON.stringify(v === undefined ? null : v))`),
          )
          context.runtime.executePendingJobs()
          const state = context.getPromiseState(promise)
          promise.dispose()
          if (state.type !== "fulfilled") {
            const error = state.type === "rejected" ? context.dump(state.error) : "pending"
            if (state.type === "rejected") state.error.dispose()
            throw new Error(`QuickJS: ${JSON.stringify(error)}`)
          }
          const text = context.getString(state.value)
          state.value.dispose()
          return JSON.parse(text) as unknown
        } finally {
          context.dispose()
        }
      }
    },
  }
}

/** sval, a JavaScript interpreter that walks the AST, sandboxed, with a fresh interpreter per run (set-up). */
export const sval: BenchEngine = {
  name: "sval",
  prepare: (code) => {
    const interpreter = new Sval({ ecmaVer: "latest", sandBox: true })
    return async () => {
      interpreter.run(`exports.result = (async function () {\n${code}\n})()`)
      const result: unknown = await (interpreter.exports as { result: Promise<unknown> }).result
      return JSON.parse(JSON.stringify(result ?? null))
    }
  },
}

/** The engines in table order; the first two are the references that ratios are taken to. */
export const engineNames = ["node:vm", "QuickJS", "sval", "codemode vm", "codemode legacy"] as const

export const engineByName = async (name: string): Promise<BenchEngine> => {
  switch (name) {
    case "node:vm":
      return nodeVm
    case "QuickJS":
      return await quickJs()
    case "sval":
      return sval
    case "codemode vm":
      return codemodeVm
    case "codemode legacy":
      return codemodeLegacy
    default:
      throw new Error(`no bench engine named ${name}`)
  }
}
