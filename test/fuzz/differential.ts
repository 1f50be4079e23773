/**
 * One differential check: a program (prelude.ts + generated code) runs on V8 (node:vm, the oracle) and on each
 * codemode mode (legacy, vm, vm saved and restored at every save point), and the runs must agree on the returned
 * text, the thrown error's class and message shape, and the logs. A run that reaches a documented cap (its message
 * shows anywhere in either run) proves nothing and is `limited`; a program V8 cannot finish in time is `skipped`.
 * Anything else that differs, any "Internal error", any host exception escaping `execute`, is a `Finding`.
 */
import { Effect } from "effect"
import { format } from "node:util"
import * as vm from "node:vm"
import { CodeMode } from "../../src/index.ts"
import { CAP_MESSAGES, PRELUDE } from "./prelude.ts"

export type Mode = "legacy" | "vm" | "roundtrip"
export const MODES: ReadonlyArray<Mode> = ["legacy", "vm", "roundtrip"]

/** What a run is reduced to. `error` is a thrown value: an error's `name: message shape`, else `Uncaught <text>`. */
export interface Run {
  readonly value?: string
  readonly error?: string
  readonly logs: ReadonlyArray<string>
  /** Our engines only: a diagnostic that is not a program throw (ParseError, TimeoutExceeded...). */
  readonly diagnostic?: string
}

export type Verdict =
  | { readonly kind: "same" }
  | { readonly kind: "skipped"; readonly why: string }
  | { readonly kind: "limited"; readonly why: string }
  | { readonly kind: "finding"; readonly mode: Mode; readonly oracle: Run; readonly actual: Run }

const ORACLE_TIMEOUT_MS = 1000
/** Our engines are slower than V8 by a large factor; past this the run is a hang, not slowness. */
const ENGINE_TIMEOUT_MS = 20_000

export const fullSource = (code: string): string => `${PRELUDE}\n${code}`

/** The message shape the prelude's `__msg` gives, for the error a program did not catch. */
const messageShape = (m: string): string =>
  /^u\d+$/.test(m) || (CAP_MESSAGES as ReadonlyArray<string>).includes(m) ? m : m === "" ? "" : "<msg>"

/** Error.isError (ES2026; newer than the TypeScript lib): true for errors of any realm, V8's context's included. */
const isError = (e: unknown): e is Error => (Error as unknown as { isError(v: unknown): boolean }).isError(e)

const describeThrown = (e: unknown): string => {
  if (isError(e)) {
    const { name, message } = e as Error
    return `${String(name)}: ${messageShape(String(message))}`
  }
  try {
    return `Uncaught ${String(e)}`
  } catch {
    return "Uncaught <unprintable>"
  }
}

/** V8's run. Microtasks run inside the evaluation, so the time limit covers the asynchronous part too. */
export const runOracle = (code: string): Run | { readonly skip: string } => {
  const logs: Array<string> = []
  const sandbox: Record<string, unknown> = { console: { log: (...args: Array<unknown>) => logs.push(format(...args)) } }
  const context = vm.createContext(sandbox, { microtaskMode: "afterEvaluate" })
  const source = `(async function () {\n${fullSource(code)}\n})().then((v) => { __settled = { v } }, (e) => { __settled = { e } })`
  try {
    vm.runInContext(source, context, { timeout: ORACLE_TIMEOUT_MS })
  } catch (e) {
    const code = (e as { code?: unknown } | null)?.code
    return { skip: code === "ERR_SCRIPT_EXECUTION_TIMEOUT" ? "V8 timed out" : `V8 did not start it: ${String(e)}` }
  }
  const settled = sandbox["__settled"] as { v?: unknown; e?: unknown } | undefined
  if (settled === undefined) return { skip: "V8 never settled it" }
  if ("e" in settled) return { error: describeThrown(settled.e), logs }
  return { value: typeof settled.v === "string" ? settled.v : `<${typeof settled.v}>`, logs }
}

const runtimes = new Map<Mode, ReturnType<typeof CodeMode.make>>()

/** The runtime of a mode; round-trip mode is read from the environment when the runtime is made. */
const runtimeOf = (mode: Mode) => {
  let runtime = runtimes.get(mode)
  if (runtime === undefined) {
    const saved = process.env["CODEMODE_ROUNDTRIP"]
    process.env["CODEMODE_ROUNDTRIP"] = mode === "roundtrip" ? "1" : "0"
    try {
      runtime = CodeMode.make({ engine: mode === "legacy" ? "legacy" : "vm", limits: { timeoutMs: ENGINE_TIMEOUT_MS } })
    } finally {
      if (saved === undefined) delete process.env["CODEMODE_ROUNDTRIP"]
      else process.env["CODEMODE_ROUNDTRIP"] = saved
    }
    runtimes.set(mode, runtime)
  }
  return runtime
}

const UNCAUGHT = "Uncaught "

export const runEngine = async (code: string, mode: Mode): Promise<Run> => {
  let result
  try {
    result = await Effect.runPromise(runtimeOf(mode).execute(fullSource(code)) as Effect.Effect<CodeMode.Result>)
  } catch (e) {
    return { logs: [], diagnostic: `host exception: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}` }
  }
  const logs = result.logs ?? []
  if (result.ok) return { value: typeof result.value === "string" ? result.value : `<${typeof result.value}>`, logs }
  const { kind, message } = result.error
  // The engine failing on its own is never a program's error: kept whole, to be read.
  if (kind !== "ExecutionFailure" || /^(Internal error|Round trip failed)/.test(message)) return { logs, diagnostic: `${kind}: ${message}` }
  if (message.startsWith(UNCAUGHT)) return { error: message, logs }
  const colon = message.indexOf(": ")
  return { error: colon < 0 ? `${message}: ` : `${message.slice(0, colon)}: ${messageShape(message.slice(colon + 2))}`, logs }
}

const sameRun = (a: Run, b: Run): boolean =>
  a.value === b.value && a.error === b.error && a.diagnostic === b.diagnostic && a.logs.length === b.logs.length && a.logs.every((l, i) => l === b.logs[i])

const hitsCap = (r: Run): string | undefined => {
  const text = [r.value ?? "", r.error ?? "", r.diagnostic ?? "", ...r.logs].join("\n")
  return CAP_MESSAGES.find((m) => text.includes(m)) ?? (r.diagnostic?.startsWith("TimeoutExceeded") === true ? "TimeoutExceeded" : undefined)
}

/**
 * Programs leave promises rejected and unhandled; on V8 that is a process-wide `unhandledRejection`, which Node and
 * vitest treat as fatal. They are ignored while a check runs and for two macrotask turns after (when Node emits them).
 */
export const check = async (code: string, modes: ReadonlyArray<Mode> = MODES): Promise<Verdict> => {
  const saved = process.listeners("unhandledRejection")
  process.removeAllListeners("unhandledRejection")
  const ignore = () => {}
  process.on("unhandledRejection", ignore)
  try {
    return await compare(code, modes)
  } finally {
    await macrotask()
    await macrotask()
    process.off("unhandledRejection", ignore)
    for (const listener of saved) process.on("unhandledRejection", listener)
  }
}

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve))

const compare = async (code: string, modes: ReadonlyArray<Mode>): Promise<Verdict> => {
  const oracle = runOracle(code)
  if ("skip" in oracle) return { kind: "skipped", why: oracle.skip }
  for (const mode of modes) {
    const actual = await runEngine(code, mode)
    if (sameRun(oracle, actual)) continue
    const cap = hitsCap(oracle) ?? hitsCap(actual)
    if (cap !== undefined) return { kind: "limited", why: cap }
    return { kind: "finding", mode, oracle, actual }
  }
  return { kind: "same" }
}
