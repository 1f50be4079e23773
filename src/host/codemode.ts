/**
 * `CodeMode.execute` and `CodeMode.make` (spec "CodeMode.execute and CodeMode.make"). `make` does everything that
 * does not depend on the program once — validate the limits (RangeError) and the tool tree (TypeError), flatten the
 * tree, render the catalog — and returns a runtime whose `execute` checks the source, builds a fresh realm with the
 * `tools` and `search` globals, and drives the engine with the run loop. Every run gets its own realm, so runs share
 * nothing but the immutable build. The Effect environment of `execute` is inferred from the tools and hooks.
 */
import { Clock, Effect } from "effect"
import { createRealm } from "../intrinsics/index.ts"
import { checkProgram } from "../language/index.ts"
import { Interpreter } from "../interpreter/index.ts"
import { Vm } from "../vm/index.ts"
import { buildCatalog, type CatalogEntry } from "./catalog.ts"
import type { Value } from "../runtime/value.ts"
import { toData } from "./data.ts"
import { diagnostic } from "./diagnostic.ts"
import { dispatchTool, type CallOutcome } from "./dispatch.ts"
import { failure } from "./host-failure.ts"
import type { HookServices, Hooks } from "./hooks.ts"
import { CallLedger } from "./ledger.ts"
import { validateLimits, type Limits } from "./limits.ts"
import { fail, type Result } from "./result.ts"
import { runLoop } from "./run.ts"
import { installTools } from "./sandbox-tools.ts"
import { installSearch } from "./search-global.ts"
import { buildIndex, type ToolEntry, type ToolTree, type TreeServices } from "./tree.ts"

/**
 * Which evaluator runs programs.
 *
 * @since 0.1.0
 * @category models
 */
export type Engine = "legacy" | "vm"

/**
 * Options of `CodeMode.make`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options<T extends ToolTree = ToolTree, H extends Hooks = Hooks> {
  /** The tool tree: tools, `Namespace`s and nested records; dots in keys create nested paths. */
  readonly tools?: T
  /** Surround every tool call (see hooks.ts for the full contract). */
  readonly hooks?: H
  /** Execution limits; none by default. */
  readonly limits?: Limits
  /** The evaluator: "legacy" (the default) walks the checked AST; "vm" compiles it to bytecode (needed to suspend). */
  readonly engine?: Engine
}

/**
 * Options of `CodeMode.execute`: `make`'s, plus the program.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExecuteOptions<T extends ToolTree = ToolTree, H extends Hooks = Hooks> extends Options<T, H> {
  readonly code: string
}

/**
 * A reusable runtime; `R` is what its tools and hooks require.
 *
 * @since 0.1.0
 * @category models
 */
export interface Runtime<R = never> {
  /** Runs a program. Always succeeds with a Result; interrupting it interrupts the program and its calls. */
  readonly execute: (code: string) => Effect.Effect<Result, never, R>
  /** One descriptor per tool: exact path, description, TypeScript signature. */
  readonly catalog: () => ReadonlyArray<CatalogEntry>
}

/**
 * Makes a reusable runtime.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <const T extends ToolTree = {}, H extends Hooks = Hooks>(options: Options<T, H> = {}): Runtime<TreeServices<T> | HookServices<H>> => {
  const limits = validateLimits(options.limits)
  validateHooks(options.hooks)
  if (options.engine !== undefined && options.engine !== "legacy" && options.engine !== "vm") {
    throw new TypeError(`engine must be "legacy" or "vm", got ${JSON.stringify(options.engine)}`)
  }
  const index = buildIndex(options.tools)
  const catalog = buildCatalog(index)
  const byExpression = new Map<string, ToolEntry>(index.entries.map((e) => [e.expression, e]))
  const hooks = options.hooks

  const dispatch = (path: string, input: Value, key: string): Effect.Effect<CallOutcome, never, unknown> => {
    const entry = byExpression.get(path)
    if (entry === undefined) return Effect.succeed({ ok: false, failure: failure("UnknownTool", `${path} is not a tool`, { path }) })
    // The argument is the sandbox copy the tool function made at call time: plain data, so this cannot fail.
    return dispatchTool(entry, hooks, toData(input), key)
  }

  const execute = (code: string): Effect.Effect<Result, never, unknown> =>
    Clock.clockWith((clock) => {
      const checked = checkProgram(code)
      if (!checked.ok) {
        const d = checked.diagnostic
        return Effect.succeed(fail(diagnostic(d.kind, d.message, d.location ? { location: d.location } : undefined), emptyParts))
      }
      const realm = createRealm()
      // The program's Date.now() reads the Effect clock of the run, so TestClock governs it too.
      realm.host = { ...realm.host, now: () => clock.currentTimeMillisUnsafe() }
      const ledger = new CallLedger(crypto.randomUUID(), limits.maxToolCalls)
      installTools({ realm, index, ledger })
      installSearch(realm, index, ledger)
      let engine: Vm | Interpreter
      try {
        engine = options.engine === "vm" ? new Vm(realm, checked.program) : new Interpreter(realm, checked.program)
      } catch (e) {
        // A compiler bug must end this run with a diagnostic, never escape as a defect of the caller's fiber.
        const message = `Internal error while compiling: ${e instanceof Error ? e.message : String(e)}`
        return Effect.succeed(fail(diagnostic("ExecutionFailure", message), emptyParts))
      }
      return runLoop({ realm, engine, limits, ledger, dispatch: (call, key) => dispatch(call.path, call.args[0], key) })
    })

  return {
    execute: execute as Runtime<TreeServices<T> | HookServices<H>>["execute"],
    catalog: () => catalog,
  }
}

/**
 * Runs one program: `CodeMode.make(options).execute(options.code)`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const execute = <const T extends ToolTree = {}, H extends Hooks = Hooks>(
  options: ExecuteOptions<T, H>,
): Effect.Effect<Result, never, TreeServices<T> | HookServices<H>> => make(options).execute(options.code)

const validateHooks = (hooks: Hooks | undefined): void => {
  if (hooks === undefined) return
  if (typeof hooks !== "object" || hooks === null) throw new TypeError("hooks must be an object")
  const tool = hooks.tool
  if (tool === undefined) return
  if (typeof tool !== "object" || tool === null) throw new TypeError("hooks.tool must be an object")
  for (const name of ["before", "after"] as const) {
    if (tool[name] !== undefined && typeof tool[name] !== "function") throw new TypeError(`hooks.tool.${name} must be a function`)
  }
}

const emptyParts = { logs: [], warnings: [], toolCalls: [], truncated: false }
