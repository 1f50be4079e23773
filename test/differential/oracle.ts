/**
 * The oracle: V8 itself, through node:vm. A program runs as `(async function () {\n<code>\n})()` in a fresh
 * context and its settled promise is reduced to an `Outcome`. `runOracleDetailed` also hands back what the corpus
 * checks need (the raw value, its JSON at settle time, whether it settled at all).
 */
import * as vm from "node:vm"
import { normalizeThrown, normalizeValue, type Outcome } from "./outcome.ts"
import { PROBE, probeReturns } from "./return-probe.ts"

/** Bound for the synchronous part (node:vm `timeout`) and, separately, for settling afterwards. */
export const ORACLE_TIMEOUT_MS = 2000

export const wrapProgram = (code: string): string => `(async function () {\n${code}\n})()`

/**
 * Web-platform globals that Node gives its main context but not node:vm contexts, and that codemode provides
 * (intrinsics url.ts, encoding.ts, headers.ts, structured-clone.ts). The oracle context gets Node's own for these
 * names only, with Node's attributes (the functions enumerable, the classes not). They belong to the host realm:
 * what they return or throw is not `instanceof` the context's Error/Uint8Array/Map..., so corpus programs over
 * them compare by `name`, `constructor.name` or Object.prototype.toString rather than by realm identity.
 */
const WEB_GLOBALS: ReadonlyArray<readonly [name: string, value: unknown, enumerable: boolean]> = [
  ["URL", URL, false],
  ["URLSearchParams", URLSearchParams, false],
  ["TextEncoder", TextEncoder, false],
  ["TextDecoder", TextDecoder, false],
  ["Headers", Headers, false],
  ["DOMException", DOMException, false],
  ["atob", atob, true],
  ["btoa", btoa, true],
  ["structuredClone", structuredClone, true],
]

const INSTALL_WEB_GLOBALS = `(function (list) {
  for (const [name, value, enumerable] of list) {
    Object.defineProperty(globalThis, name, { value, writable: true, enumerable, configurable: true })
  }
})`

export interface OracleRun {
  readonly outcome: Outcome
  /** The returned value itself (an object of the program's realm), when the program returned. */
  readonly raw?: unknown
  /** With `probeReturns`: JSON of the returned value at the `return` statement, to detect later mutation. */
  readonly jsonAtReturn?: string | undefined
  /** The program had not settled after `ORACLE_TIMEOUT_MS`. */
  readonly timedOut: boolean
  /** The script threw before the program ran: it does not parse. */
  readonly syncError?: boolean
  /** Why the returned value cannot be normalized (JSON.stringify threw or gave nothing). */
  readonly notJson?: string
}

export interface OracleOptions {
  /** Record the returned value's JSON at the top-level `return` (see return-probe.ts). For corpus checks only. */
  readonly probeReturns?: boolean
}

export const runOracleDetailed = (code: string, options: OracleOptions = {}): Promise<OracleRun> =>
  withUnhandledRejectionsSilenced(async () => {
    let jsonAtReturn: string | undefined
    let source = wrapProgram(code)
    const globals: Record<string, unknown> = {}
    if (options.probeReturns === true) {
      try {
        source = probeReturns(source)
      } catch {
        // Does not parse: run it unprobed so V8 reports the SyntaxError.
      }
      globals[PROBE] = (v: unknown) => {
        jsonAtReturn = tryStringify(v)
        return v
      }
    }
    let promise: Promise<unknown>
    try {
      const context = vm.createContext(globals)
      ;(vm.runInContext(INSTALL_WEB_GLOBALS, context) as (list: typeof WEB_GLOBALS) => void)(WEB_GLOBALS)
      promise = vm.runInContext(source, context, {
        timeout: ORACLE_TIMEOUT_MS,
      }) as Promise<unknown>
    } catch (e) {
      // The async wrapper turns every program throw into a rejection: only a parse error or a timeout of the
      // synchronous part lands here.
      const timedOut = (e as { code?: unknown } | null)?.code === "ERR_SCRIPT_EXECUTION_TIMEOUT"
      const outcome = normalizeThrown(e)
      return timedOut ? { outcome, timedOut } : { outcome, timedOut, syncError: true }
    }
    const settled = Promise.resolve(promise).then(
      (v) => ({ ok: true as const, v }),
      (e: unknown) => ({ ok: false as const, e }),
    )
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), ORACLE_TIMEOUT_MS)
    })
    const result = await Promise.race([settled, timeout])
    clearTimeout(timer)
    if (result === "timeout") return { outcome: { threw: "value", value: "<timeout>" }, timedOut: true }
    if (!result.ok) return { outcome: normalizeThrown(result.e), timedOut: false }
    try {
      return { outcome: { value: normalizeValue(result.v) }, raw: result.v, jsonAtReturn, timedOut: false }
    } catch (e) {
      return { outcome: { threw: "value", value: "<not JSON>" }, raw: result.v, timedOut: false, notJson: String(e) }
    }
  })

/** The oracle's outcome. Rejects if the program did not parse, timed out, or returned something JSON cannot hold. */
export const runOracle = async (code: string): Promise<Outcome> => {
  const run = await runOracleDetailed(code)
  if (run.notJson !== undefined) throw new TypeError(`returned value cannot be normalized: ${run.notJson}`)
  if (run.syncError === true) throw new SyntaxError(`program does not start: ${JSON.stringify(run.outcome)}`)
  if (run.timedOut) throw new RangeError(`program timed out after ${ORACLE_TIMEOUT_MS} ms`)
  return run.outcome
}

const tryStringify = (v: unknown): string | undefined => {
  try {
    return JSON.stringify(v === undefined ? null : v)
  } catch {
    return undefined
  }
}

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve))

/**
 * Programs may leave rejected promises unhandled on purpose (the language reports them as warnings). V8 reports
 * those as process-wide `unhandledRejection` events, which vitest and Node treat as fatal, so they are swallowed
 * while the program runs and for two macrotask turns after, which is when Node emits them.
 */
const withUnhandledRejectionsSilenced = async <A>(f: () => Promise<A>): Promise<A> => {
  const saved = process.listeners("unhandledRejection")
  process.removeAllListeners("unhandledRejection")
  const ignore = () => {}
  process.on("unhandledRejection", ignore)
  try {
    return await f()
  } finally {
    await macrotask()
    await macrotask()
    process.off("unhandledRejection", ignore)
    for (const listener of saved) process.on("unhandledRejection", listener)
  }
}
