/**
 * Our side of the comparison: runs a program on a codemode engine through the public API and reduces the
 * `CodeMode.Result` to an `Outcome`.
 */
import { Effect } from "effect"
import { CodeMode } from "../../src/index.ts"
import { normalizeEngineResult, type Outcome } from "./outcome.ts"

export type Engine = "vm" | "legacy"

/** Generous: a correct engine finishes every corpus program in milliseconds; this only stops a runaway bug. */
export const ENGINE_TIMEOUT_MS = 10_000

export const runEngineResult = (code: string, engine: Engine = "vm") =>
  Effect.runPromise(CodeMode.execute({ code, engine, limits: { timeoutMs: ENGINE_TIMEOUT_MS } }))

export const runEngine = async (code: string, engine: Engine = "vm"): Promise<Outcome> =>
  normalizeEngineResult(await runEngineResult(code, engine))
