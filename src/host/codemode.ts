/**
 * `CodeMode.execute` and `CodeMode.make` (spec "CodeMode.execute and CodeMode.make"). `make` does everything that
 * does not depend on the program once — validate the limits (RangeError) and the tool tree (TypeError), flatten the
 * tree, render the catalog — and returns a runtime whose `execute` checks the source, builds a fresh realm with the
 * `tools` and `search` globals, and drives the engine with the run loop. Every run gets its own realm, so runs share
 * nothing but the immutable build. The Effect environment of `execute` is inferred from the tools and hooks.
 *
 * With `engine: "vm"` the runtime is a `VmRuntime`: programs run through vm-program.ts, which can also suspend them
 * and resume saved states. In round-trip mode (CODEMODE_ROUNDTRIP=1, a test mode: see roundtrip.ts) the default
 * engine is the VM, and every VM run is saved and restored at every host call and every few steps.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { newRealm } from "./realm-template.ts"
import { Interpreter } from "../interpreter/index.ts"
import { buildCatalog, type CatalogEntry } from "./catalog.ts"
import { rankedSearch, type RankedPage, SearchRequestError, type SearchRequest } from "./search.ts"
import type { Realm } from "../runtime/realm.ts"
import { DataError } from "./data.ts"
import { toWire } from "./extension-values.ts"
import { diagnostic } from "./diagnostic.ts"
import type { HookServices, Hooks } from "./hooks.ts"
import { isExtension, type Extension, type ExtensionServices } from "./extension.ts"
import { checkBindings, type Bindings } from "./bindings.ts"
import { CallLedger } from "./ledger.ts"
import { validateLimits, type Limits } from "./limits.ts"
import { fail, type Result } from "./result.ts"
import { checkCached } from "./program-cache.ts"
import { newRunState, prepareRealm } from "./realm-setup.ts"
import { runLoop, SLICE_STEPS, type LoopEngine } from "./run.ts"
import type { LoopEvent } from "./run-state.ts"
import { buildIndex, type ToolEntry, type ToolTree, type TreeServices } from "./tree.ts"
import { roundtripMode } from "./roundtrip.ts"
import { hostClasses } from "./snapshot-classes.ts"
import { checkSeed } from "./random-seed.ts"
import { makeVmEntryPoints, type VmEntryPoints } from "./vm-program.ts"
import { prepareVmRealm, type VmContext } from "./vm-session.ts"
import { makeRegistry } from "../snapshot/registry.ts"
import { checkSnapshotKey, type SnapshotKey } from "../snapshot/signature.ts"
import { measureHeap } from "../runtime/heap-size.ts"
import { Mailbox } from "./mailbox.ts"

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
export interface Options<T extends ToolTree = ToolTree, H extends Hooks = Hooks, X extends Extensions = Extensions> {
  /** The tool tree: tools, `Namespace`s and nested records; dots in keys create nested paths. */
  readonly tools?: T
  /** Host functions programs call directly as globals (`Extension.make`). */
  readonly extensions?: X
  /** Surround every tool and extension call (see hooks.ts for the full contract). */
  readonly hooks?: H
  /** Execution limits; none by default. */
  readonly limits?: Limits
  /** The evaluator: "legacy" (the default) walks the checked AST; "vm" compiles it to bytecode (needed to suspend). */
  readonly engine?: Engine
  /**
   * Signs saved states (HMAC-SHA-256) and resumes only states signed with it (`SnapshotError` otherwise); at least
   * 16 bytes. Without it, a resumed run's limits are capped by this runtime's own.
   */
  readonly snapshotKey?: SnapshotKey
  /**
   * The seed of every run's `Math.random`, for reproducible runs; without it each run draws from a seed of its own
   * (a VM program may also be given one: `program(code, bindings, { seed })`).
   */
  readonly seed?: string
}

/**
 * Options of `CodeMode.execute`: `make`'s, plus the program.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExecuteOptions<T extends ToolTree = ToolTree, H extends Hooks = Hooks, X extends Extensions = Extensions> extends Options<T, H, X> {
  readonly code: string
  /** Plain data the program receives as global variables. */
  readonly bindings?: Bindings
}

/**
 * A reusable runtime; `R` is what its tools and hooks require.
 *
 * @since 0.1.0
 * @category models
 */
export interface Runtime<R = never> {
  /**
   * Runs a program, with `bindings` (plain data) as globals. Always succeeds with a Result; interrupting it
   * interrupts the program and its calls.
   */
  readonly execute: (code: string, bindings?: Bindings) => Effect.Effect<Result, never, R>
  /** One descriptor per tool: exact path, description, TypeScript signature. */
  readonly catalog: () => ReadonlyArray<CatalogEntry>
  /**
   * The `search` built-in's answer for a host (non-spec), with the same matches in the same order: catalog paths,
   * and each match's score. Throws a TypeError for a request the built-in would refuse.
   */
  readonly search: (request?: SearchRequest) => RankedPage
}

/**
 * The runtime of `engine: "vm"`: it also runs programs step by step, suspends them and resumes saved states.
 *
 * @since 0.1.0
 * @category models
 */
export interface VmRuntime<R = never> extends Runtime<R>, VmEntryPoints<R> {}

/**
 * The `extensions` option.
 *
 * @since 0.1.0
 * @category models
 */
export type Extensions = ReadonlyArray<Extension<any>>

/** Every VM runtime of the process shares the heap registry (it is the build's). */
let registry: ReturnType<typeof makeRegistry> | undefined

/**
 * Makes a reusable runtime. With `engine: "vm"` it is a `VmRuntime`.
 *
 * @since 0.1.0
 * @category constructors
 */
export function make<const T extends ToolTree = {}, H extends Hooks = Hooks, const X extends Extensions = []>(
  options: Options<T, H, X> & { readonly engine: "vm" },
): VmRuntime<TreeServices<T> | HookServices<H> | ExtensionServices<X>>
export function make<const T extends ToolTree = {}, H extends Hooks = Hooks, const X extends Extensions = []>(
  options?: Options<T, H, X>,
): Runtime<TreeServices<T> | HookServices<H> | ExtensionServices<X>>
export function make<const T extends ToolTree = {}, H extends Hooks = Hooks, const X extends Extensions = []>(
  options: Options<T, H, X> = {},
): Runtime<TreeServices<T> | HookServices<H> | ExtensionServices<X>> {
  return makeWith(options, {})
}

/** Knobs for tests and benchmarks, not part of the public API. */
export interface InternalOptions {
  /** Steps per slice of a VM run (default run.ts SLICE_STEPS). */
  readonly sliceSteps?: number
}

/** `make`, with internal knobs (bench/snapshot.ts stops programs halfway with small slices). */
export const makeWith = <const T extends ToolTree = {}, H extends Hooks = Hooks, const X extends Extensions = []>(
  options: Options<T, H, X>,
  internal: InternalOptions,
): Runtime<TreeServices<T> | HookServices<H> | ExtensionServices<X>> => {
  const limits = validateLimits(options.limits)
  const snapshotKey = options.snapshotKey === undefined ? undefined : checkSnapshotKey(options.snapshotKey)
  const seed = checkSeed(options.seed)
  validateHooks(options.hooks)
  const extensions = validateExtensions(options.extensions)
  if (options.engine !== undefined && options.engine !== "legacy" && options.engine !== "vm") {
    throw new TypeError(`engine must be "legacy" or "vm", got ${JSON.stringify(options.engine)}`)
  }
  const roundtrip = roundtripMode()
  const engine = options.engine ?? (roundtrip ? "vm" : "legacy")
  const index = buildIndex(options.tools)
  const catalog = buildCatalog(index)
  const byExpression = new Map<string, ToolEntry>(index.entries.map((e) => [e.expression, e]))
  const hooks = options.hooks
  const hostSearch = (request: SearchRequest = {}): RankedPage => {
    try {
      return rankedSearch(index, request)
    } catch (e) {
      if (e instanceof SearchRequestError) throw new TypeError(e.message)
      throw e
    }
  }

  if (engine === "vm") {
    let pristine: Realm | undefined
    let baseline: number | undefined
    const ctx: VmContext = {
      index,
      hooks,
      extensions,
      limits,
      toolAt: (expression) => byExpression.get(expression),
      registry: (registry ??= makeRegistry(hostClasses)),
      pristine: () => (pristine ??= prepareVmRealm(ctx, new CallLedger("pristine", undefined), undefined).realm),
      roundtrip,
      sliceSteps: internal.sliceSteps ?? SLICE_STEPS,
      snapshotKey,
      memoryBaseline: () => (baseline ??= measureHeap([ctx.pristine()])),
      seed,
    }
    const entryPoints = makeVmEntryPoints(ctx)
    const runtime: VmRuntime<unknown> = {
      execute: (code, bindings) =>
        entryPoints
          .program(code, bindings)
          .run()
          // Nobody else holds this program, so it is never suspended, and a new program never fails to resume.
          .pipe(Effect.map((o) => o as Result), Effect.orDie),
      catalog: () => catalog,
      search: hostSearch,
      program: entryPoints.program,
      resume: entryPoints.resume,
      fork: entryPoints.fork,
    }
    return runtime as VmRuntime<TreeServices<T> | HookServices<H> | ExtensionServices<X>>
  }

  const setup = { index, hooks, extensions }
  let baseline: number | undefined
  const memoryBaseline = () => (baseline ??= measureHeap([prepareRealm(setup, new CallLedger("baseline", undefined), undefined, false).realm]))
  const callHost = { hooks, toolAt: (expression: string) => byExpression.get(expression) }

  const execute = (code: string, bindings?: Bindings): Effect.Effect<Result, never, unknown> =>
    Effect.suspend(() => {
      const values = checkBindings(bindings)
      return Clock.clockWith((clock) => {
        const checked = checkCached(code)
        if (!checked.ok) {
          const d = checked.diagnostic
          return Effect.succeed(fail(diagnostic(d.kind, d.message, d.location ? { location: d.location } : undefined), emptyParts))
        }
        const state = newRunState(setup, limits, crypto.randomUUID(), values, () => clock.currentTimeMillisUnsafe(), seed, false)
        const realm = state.realm
        let interpreter: Interpreter
        try {
          interpreter = new Interpreter(realm, checked.program)
        } catch (e) {
          // A compiler bug must end this run with a diagnostic, never escape as a defect of the caller's fiber.
          const message = `Internal error while compiling: ${e instanceof Error ? e.message : String(e)}`
          return Effect.succeed(fail(diagnostic("ExecutionFailure", message), emptyParts))
        }
        const meter = realm.memory
        if (meter !== undefined) {
          // Named first: a function literal assigned straight to a property is made in old space (run.ts `now`).
          const measureLive = (): void => {
            meter.measure([realm, interpreter], memoryBaseline())
            meter.charge(0)
          }
          interpreter.measureLive = measureLive
        }
        const engine: LoopEngine<never> = {
          slice: (_saving, interrupt) => {
            interpreter.interruptCheck = interrupt
            return interpreter.run(SLICE_STEPS)
          },
          heap: {
            quiescent: () => interpreter.quiescent(),
            roots: () => [realm, interpreter],
            baseline: memoryBaseline,
            yieldSoon: () => interpreter.yieldSoon(),
          },
        }
        return runLoop(callHost, state, engine, new Mailbox<LoopEvent>())
      })
    })

  return {
    execute: execute as Runtime<TreeServices<T> | HookServices<H> | ExtensionServices<X>>["execute"],
    catalog: () => catalog,
    search: hostSearch,
  }
}

/**
 * Runs one program: `CodeMode.make(options).execute(options.code)`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const execute = <const T extends ToolTree = {}, H extends Hooks = Hooks, const X extends Extensions = []>(
  options: ExecuteOptions<T, H, X>,
): Effect.Effect<Result, never, TreeServices<T> | HookServices<H> | ExtensionServices<X>> => make<T, H, X>(options).execute(options.code, options.bindings)

const validateHooks = (hooks: Hooks | undefined): void => {
  if (hooks === undefined) return
  if (typeof hooks !== "object" || hooks === null) throw new TypeError("hooks must be an object")
  for (const kind of ["tool", "extension"] as const) {
    const pair = hooks[kind]
    if (pair === undefined) continue
    if (typeof pair !== "object" || pair === null) throw new TypeError(`hooks.${kind} must be an object`)
    for (const name of ["before", "after"] as const) {
      if (pair[name] !== undefined && typeof pair[name] !== "function") throw new TypeError(`hooks.${kind}.${name} must be a function`)
    }
  }
}

/** The globals every realm has before extensions add theirs (the host's own included), computed once. */
let builtinGlobals: ReadonlySet<string> | undefined

const globalsOfAFreshRealm = (): ReadonlySet<string> => {
  if (builtinGlobals !== undefined) return builtinGlobals
  const names = new Set<string>()
  for (const key of newRealm().globalObject.OwnPropertyKeys()) if (typeof key === "string") names.add(key)
  return (builtinGlobals = names)
}

/** Extensions with distinct names, whose globals shadow no built-in and no other extension's (TypeError). */
const validateExtensions = (extensions: Extensions | undefined): ReadonlyArray<Extension<unknown>> => {
  if (extensions === undefined) return []
  if (!Array.isArray(extensions)) throw new TypeError("extensions must be an array of Extension.make(...) values")
  const names = new Set<string>()
  const owners = new Map<string, string>()
  for (const extension of extensions) {
    if (!isExtension(extension)) throw new TypeError("extensions must be an array of Extension.make(...) values")
    if (names.has(extension.name)) throw new TypeError(`Two extensions are named ${extension.name}`)
    names.add(extension.name)
    for (const global of Object.keys(extension.globals)) {
      if (globalsOfAFreshRealm().has(global)) throw new TypeError(`Extension ${extension.name}: the global ${global} would shadow a built-in`)
      const owner = owners.get(global)
      if (owner !== undefined) throw new TypeError(`Extension ${extension.name}: the global ${global} would shadow the one of extension ${owner}`)
      owners.set(global, extension.name)
      try {
        toWire({ extension: extension.name, valueId: 0, prefix: global, holdsFunctions: false }, extension.globals[global], [global])
      } catch (e) {
        if (e instanceof DataError) throw new TypeError(`Extension ${extension.name}: the global ${global} cannot be installed: ${e.message}`)
        throw e
      }
    }
  }
  return extensions
}

const emptyParts = { logs: [], warnings: [], toolCalls: [], truncated: false }
