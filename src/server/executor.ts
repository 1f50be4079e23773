/**
 * `Executor`: the one port between the service and the codemode library. Everything the service needs from the
 * interpreter goes through these operations — make a program from code, tools and limits; run it; suspend it or
 * checkpoint it; make a program from saved state — so the rest of `server/` never touches the library, and tests
 * can drive the service with a scripted executor (test/service/fake-executor.ts).
 *
 * Interrupting `run` interrupts the program and every call in progress (that is how a run is cancelled).
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { CodeMode } from "../index.ts"
import type { BlockingCall, Limits, Result } from "./api.ts"
import { validatorFor } from "./tool-schemas.ts"

/** Where in the program's source a call was made (1-based line and column). */
export interface CallLocation {
  readonly line: number
  readonly column: number
}

/** What a call's binding knows of it: its key, and where the program made it (unknown for a call run again on resume). */
export interface CallContext {
  readonly key: string
  readonly location?: CallLocation | undefined
}

/** A tool as the service hands it to the library: a JSON Schema signature and the effects that perform the call. */
export type ToolBinding = ToolShape &
  (
    | {
        /** `idempotent` calls are interrupted on suspend and run again (same key) on resume; `plain` ones block suspend. */
        readonly mode: "plain" | "idempotent"
        readonly call: (input: unknown, context: CallContext) => Effect.Effect<unknown, Error>
      }
    | {
        /**
         * Work that outlives a suspended run (the library's `Tool.durable`): `start` begins it and answers JSON data,
         * `wait` waits for its result (again after every resume), `cancel` stops it when the run really ends.
         */
        readonly mode: "durable"
        readonly start: (input: unknown, context: CallContext) => Effect.Effect<unknown, Error>
        readonly wait: (context: { readonly key: string }) => Effect.Effect<unknown, Error>
        readonly cancel: (context: { readonly key: string }) => Effect.Effect<void>
      }
  )

/** What the catalog needs of a tool. */
export interface ToolShape {
  readonly path: string
  readonly description: string
  readonly input: Record<string, unknown>
  readonly output: Record<string, unknown> | undefined
}

export interface NamespaceBinding {
  readonly path: string
  readonly description: string
}

/**
 * Hears a line the program logged, with its index among all the lines of the run (from 0; a resumed run goes on
 * counting, and a run replayed from its code counts again from 0): the same line of a run has the same index in
 * every incarnation that logs it.
 */
export type OnLog = (line: string, index: number) => void

export interface ProgramSpec {
  readonly runId: string
  readonly code: string
  readonly tools: ReadonlyArray<ToolBinding>
  readonly namespaces: ReadonlyArray<NamespaceBinding>
  readonly limits: Limits
  /** The seed of the run's Math.random, saved with the run (a fresh one when absent). */
  readonly seed?: string | undefined
  /** Each line the program logs, as it logs it. */
  readonly onLog?: OnLog | undefined
}

export interface ResumeSpec {
  readonly runId: string
  readonly state: Uint8Array
  readonly tools: ReadonlyArray<ToolBinding>
  readonly namespaces: ReadonlyArray<NamespaceBinding>
  readonly onLog?: OnLog | undefined
  /**
   * The run's code and limits: when this build cannot resume the state (another build saved it, or it is damaged),
   * the run starts again from its code instead — its tools answer the calls it already made from their record.
   */
  readonly replay?: { readonly code: string; readonly limits: Limits; readonly seed?: string | undefined } | undefined
  /**
   * Continue the state as a new run (`runId`) instead: a fork (issue 17). `outcomes` answer, by their key in the
   * saved run, calls that were in flight there; `limits` replace the saved run's, each one given. A fork is never
   * replayed: a state this build cannot read fails it.
   */
  readonly fork?: { readonly outcomes: Readonly<Record<string, CodeMode.ForkOutcome>>; readonly limits?: Limits | undefined } | undefined
}


/**
 * Where a saved state sits in its run's call journal, so the service can list and fork it without reading snapshots:
 * the number of calls admitted, and the key of the last of them.
 */
export interface JournalPosition {
  readonly calls: number
  readonly lastKey: string | undefined
}

/** The run's state, saved: what `run` returns when the run was suspended (kept as its latest checkpoint too). */
export interface Suspended extends JournalPosition {
  readonly ok: "suspended"
  readonly state: Uint8Array
}

/** How a run ended: the library's Result, or suspended with its state. */
export type Outcome = Result | Suspended

export class SuspendRefused extends Data.TaggedError("SuspendRefused")<{
  /** `NotSuspendable`: this engine cannot suspend at all; `Blocked`: a running call cannot be repeated. */
  readonly reason: "NotSuspendable" | "Blocked"
  readonly detail: string
  readonly calls: ReadonlyArray<BlockingCall>
}> {
  override get message(): string {
    return this.detail
  }
}

export class SnapshotInvalid extends Data.TaggedError("SnapshotInvalid")<{ readonly detail: string }> {
  override get message(): string {
    return this.detail
  }
}

/** A program made from code or from saved state. Nothing runs until `run`, which may be run once. */
export interface Program {
  readonly run: Effect.Effect<Outcome>
  /**
   * Stops the running program at its current step and makes `run` return `Suspended`; succeeds without effect
   * when the run has already ended (its outcome is what `run` returns).
   */
  readonly suspend: Effect.Effect<void, SuspendRefused>
  /**
   * The state a suspend would save, while the run goes on; undefined when the run has ended. `now`: before
   * outcomes that arrive after this request (the state at a call boundary, the call in flight); otherwise once
   * outcomes the idle program was given have run.
   */
  readonly checkpoint: (now: boolean) => Effect.Effect<Checkpoint | undefined, SuspendRefused>
}

/** A state taken while the run goes on, with where it sits in the run's call journal. */
export interface Checkpoint extends JournalPosition {
  readonly bytes: Uint8Array
}

export interface CatalogEntry {
  readonly path: string
  readonly signature: string
}

/** A tool a search found: its registered path, and how well it matched (0 to 1). */
export interface SearchMatch {
  readonly path: string
  readonly description: string
  readonly signature: string
  readonly score: number
}

export interface SearchQuery {
  readonly query?: string | undefined
  readonly limit?: number | undefined
}

/**
 * Resumes begun ahead of their claim. An executor that saw a run suspend keeps its state for a while; when the run
 * is about to be resumed (its claim is under way) it restores that state and holds everything the program asks for,
 * until `resume` is given the very same state — which continues it — or the run is dropped.
 */
export interface Ahead {
  /** Begins restoring the run's state, when this executor kept it. */
  readonly prepare: (runId: string) => Effect.Effect<void>
  /** Whether a restore `prepare` began for this run waits to be continued. */
  readonly prepared: (runId: string) => boolean
  /** The run will not be resumed now (its claim failed): what `prepare` began is dropped. */
  readonly discard: (runId: string) => Effect.Effect<void>
  /** How many prepared runs a resume continued (`adopted`) and how many were dropped unused. */
  readonly counts: () => { readonly adopted: number; readonly dropped: number }
}

export class Executor extends Context.Service<
  Executor,
  {
    readonly program: (spec: ProgramSpec) => Effect.Effect<Program>
    readonly resume: (spec: ResumeSpec) => Effect.Effect<Program, SnapshotInvalid>
    /** Optional: restoring, ahead of a resume's claim, a state the executor saw its run suspend with. */
    readonly ahead?: Ahead
    /** The TypeScript signature of each tool, as a program sees it. */
    readonly catalog: (tools: ReadonlyArray<ToolShape>) => ReadonlyArray<CatalogEntry>
    /** Why the engine would refuse this tool (its schemas, its path), or undefined when it accepts it. */
    readonly check: (tool: ToolShape) => string | undefined
    /** The tools a program's `search(query)` would find among these, in its order, with their scores. */
    readonly search: (
      tools: ReadonlyArray<ToolShape>,
      namespaces: ReadonlyArray<NamespaceBinding>,
      query: SearchQuery,
    ) => ReadonlyArray<SearchMatch>
  }
>()("codemode/server/Executor") {
  /**
   * The codemode library's bytecode VM. The library is imported when this layer is built, not when the module
   * loads, so commands that never run a program (`migrate`, `openapi`) do not load the interpreter.
   */
  static readonly layer: Layer.Layer<Executor> = Layer.effect(
    Executor,
    Effect.map(
      Effect.promise(() => import("../index.ts")),
      (library) => fromLibrary(library),
    ),
  )
  /** The same, signing saved states with `snapshotKey` (when given) and resuming only states it signed. */
  static readonly layerSigned = (snapshotKey: string | undefined): Layer.Layer<Executor> =>
    Layer.effect(
      Executor,
      Effect.map(
        Effect.promise(() => import("../index.ts")),
        (library) => fromLibrary(library, { snapshotKey }),
      ),
    )
}

export type Library = typeof import("../index.ts")

/**
 * The library's tool tree for the service's bindings: flat keys (dots make the nesting), each namespace with a
 * description as an empty `Namespace.make` the tools join, each tool a `Tool.make` with its JSON Schemas (enforced
 * with `tool-schemas.ts` when a run's tools are built, only rendered for the catalog) and an `execute` that performs
 * the call, told where the program made it (`locate`, by key). A failed call reaches the program as a `ToolError`,
 * so the program (and the model) reads what went wrong.
 */
const toolTree = (
  library: Library,
  tools: ReadonlyArray<ToolBinding>,
  namespaces: ReadonlyArray<NamespaceBinding>,
  enforce: boolean,
  locate: (key: string) => CallLocation | undefined = () => undefined,
) => {
  const { Namespace, Tool, ToolError } = library
  const refusal = (e: Error) => new ToolError({ message: e.message })
  const tree: Record<string, ReturnType<typeof Tool.make> | ReturnType<typeof Namespace.make>> = {}
  for (const n of namespaces) tree[n.path] = Namespace.make({ description: n.description, tools: {} })
  const located = ({ key }: { readonly key: string }): CallContext => {
    const location = locate(key)
    return location === undefined ? { key } : { key, location }
  }
  for (const t of tools) {
    const execute =
      t.mode === "durable"
        ? // The key travels in the durable data: the library hands `cancel` the data alone.
          Tool.durable({
            start: (input: unknown, context: { readonly key: string }) =>
              t.start(input, located(context)).pipe(Effect.as({ key: context.key }), Effect.mapError(refusal)),
            wait: (data: { readonly key: string }) => t.wait(data).pipe(Effect.mapError(refusal)),
            cancel: (data: { readonly key: string }) => t.cancel(data),
          })
        : t.mode === "idempotent"
          ? Tool.idempotent((input: unknown, context: { readonly key: string }) => t.call(input, located(context)).pipe(Effect.mapError(refusal)))
          : (input: unknown, context: { readonly key: string }) => t.call(input, located(context)).pipe(Effect.mapError(refusal))
    tree[t.path] = Tool.make({
      description: t.description,
      input: t.input,
      ...(t.output === undefined ? {} : { output: t.output }),
      execute,
      ...(enforce ? { validate: validators(t) } : {}),
    })
  }
  return tree
}

const validators = (t: ToolShape) => {
  const input = validatorFor(t.input)
  const output = t.output === undefined ? undefined : validatorFor(t.output)
  return { ...(input === undefined ? {} : { input }), ...(output === undefined ? {} : { output }) }
}

const endedWithoutOutcome =
  <B>(value: B) =>
  <A, E>(self: Effect.Effect<A, E>): Effect.Effect<A | B, E> =>
    Effect.catchCause(self, (cause) => (Cause.hasInterruptsOnly(cause) ? Effect.succeed(value) : Effect.failCause(cause)))

/** The library's SnapshotError for a state whose signature is missing or does not match (src/snapshot/signature.ts). */
const forged = (e: Error): boolean => /signature|not signed/.test(e.message)

/** Where a state sits in its call journal: the snapshot's run record lists the admitted calls (`toolCalls`). */
const journalPosition = (run: unknown): JournalPosition => {
  const calls = (run as { readonly toolCalls?: ReadonlyArray<{ readonly key?: unknown }> } | null)?.toolCalls ?? []
  const last = calls[calls.length - 1]?.key
  return { calls: calls.length, lastKey: typeof last === "string" ? last : undefined }
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** The executor over a loaded library, in this thread (the isolation pool's processes host one each). */
export const fromLibrary = (library: Library, options: { readonly snapshotKey?: string | undefined } = {}) => {
  const { CodeMode } = library
  const refused = (e: CodeMode.SuspendError) => new SuspendRefused({ reason: "Blocked", detail: e.message, calls: e.calls })

  /**
   * Where the program made each call, from the library's `onCall` (which hears it before the tool runs) until its
   * binding reads it: one per program, registered by run id while it runs, since its runtime's tools may serve
   * other runs too (`runtimeFor`) and find it by the call's key (`<runId>:<callId>`).
   */
  const programSites = new Map<string, Map<string, CallLocation>>()
  const callSites = (runId: string) => {
    const sites = new Map<string, CallLocation>()
    return {
      onCall: (call: CodeMode.AdmittedCall) => void (call.location !== undefined && sites.set(call.key, call.location)),
      enter: Effect.sync(() => void programSites.set(runId, sites)),
      leave: Effect.sync(() => void (programSites.get(runId) === sites && programSites.delete(runId))),
    }
  }
  type CallSites = ReturnType<typeof callSites>
  const locate = (key: string): CallLocation | undefined => {
    const sites = programSites.get(key.slice(0, key.lastIndexOf(":")))
    const location = sites?.get(key)
    sites?.delete(key)
    return location
  }

  const adapt = (vm: CodeMode.Program<never>, sites: CallSites): Program => ({
    run: Effect.andThen(sites.enter, vm.run()).pipe(
      // The library's Result is the API's Result (test/service/vm.test.ts runs real programs through this port).
      Effect.map((o): Outcome =>
        o.ok === "suspended" ? { ok: "suspended", state: CodeMode.toBytes(o.state), ...journalPosition(o.state.run) } : (o as Result),
      ),
      // A saved state that cannot be resumed here fails run() with a SnapshotError (spec): the run fails with it.
      Effect.catch((e) =>
        Effect.succeed<Outcome>({
          ok: false,
          error: { kind: "ExecutionFailure", message: e instanceof CodeMode.SnapshotError ? `The run's saved state was refused: ${e.message}` : messageOf(e) },
          toolCalls: [],
        }),
      ),
      Effect.ensuring(sites.leave),
    ),
    // The library leaves a waiting suspend interrupted when the run ended without an outcome (a cancel won the
    // race): for the service that run has ended, which `suspend` and `checkpoint` answer without effect.
    suspend: vm.suspend().pipe(Effect.asVoid, Effect.mapError(refused), endedWithoutOutcome(undefined)),
    checkpoint: (now) =>
      vm.checkpoint({ now }).pipe(
        Effect.map((o) => (o.ok === "suspended" ? { bytes: CodeMode.toBytes(o.state), ...journalPosition(o.state.run) } : undefined)),
        Effect.mapError(refused),
        endedWithoutOutcome(undefined),
      ),
  })

  /**
   * The runtimes made for a set of bindings, kept while the caller passes that same array again (an isolation
   * child binds each set of tools once: child.ts), by namespaces and limits: a runtime serves any number of runs,
   * each in a realm of its own, and making one per run (its tool tree, validators, catalog and search index) grew
   * with every tool: with ten, more than half of a `1 + 1` run's instructions in a child.
   */
  const runtimes = new WeakMap<ReadonlyArray<ToolBinding>, Map<string, CodeMode.VmRuntime>>()
  const MAX_RUNTIMES_PER_BINDINGS = 4
  const runtimeFor = (spec: { tools: ReadonlyArray<ToolBinding>; namespaces: ReadonlyArray<NamespaceBinding> }, limits?: Limits) => {
    let made = runtimes.get(spec.tools)
    if (made === undefined) runtimes.set(spec.tools, (made = new Map()))
    const key = JSON.stringify([spec.namespaces, limits ?? null])
    let runtime = made.get(key)
    if (runtime === undefined) {
      runtime = CodeMode.make({
        engine: "vm",
        ...(limits === undefined ? {} : { limits }),
        ...(options.snapshotKey === undefined ? {} : { snapshotKey: options.snapshotKey }),
        tools: toolTree(library, spec.tools, spec.namespaces, true, locate),
      }) as CodeMode.VmRuntime
      if (made.size >= MAX_RUNTIMES_PER_BINDINGS) made.delete(made.keys().next().value!)
      made.set(key, runtime)
    }
    return runtime
  }

  const seeded = (seed: string | undefined) => (seed === undefined ? {} : { seed })
  const observer = (onLog: OnLog | undefined, sites: CallSites) => ({ onCall: sites.onCall, ...(onLog === undefined ? {} : { onLog }) })

  const program = (spec: ProgramSpec): Effect.Effect<Program> =>
    Effect.sync(() => {
      const sites = callSites(spec.runId)
      return adapt(runtimeFor(spec, spec.limits).program(spec.code, undefined, { runId: spec.runId, ...seeded(spec.seed), ...observer(spec.onLog, sites) }), sites)
    })

  // A resumed run keeps the limits it was saved with (spec), so none are passed here. Its state is checked when it
  // runs: a state that cannot be resumed fails the run with the SnapshotError's message, or replays the run.
  const resume = (spec: ResumeSpec): Effect.Effect<Program, SnapshotInvalid> => {
    const fork = spec.fork
    const sites = callSites(spec.runId)
    if (fork !== undefined) {
      // The library checks the outcomes (and their keys against the state) as it makes the program.
      return Effect.try({
        try: () =>
          adapt(
            runtimeFor(spec).fork(spec.state, {
              runId: spec.runId,
              outcomes: fork.outcomes,
              ...(fork.limits === undefined ? {} : { limits: fork.limits }),
              ...observer(spec.onLog, sites),
            }),
            sites,
          ),
        catch: (e) => new SnapshotInvalid({ detail: messageOf(e) }),
      })
    }
    return Effect.sync(() => {
      const resumed = runtimeFor(spec).resume(spec.state, observer(spec.onLog, sites))
      const replay = spec.replay
      if (replay === undefined) return adapt(resumed, sites)
      let current = resumed
      const run = resumed.run().pipe(
        Effect.catch((e) => {
          if (!(e instanceof CodeMode.SnapshotError)) return Effect.fail(e)
          // A state that is not signed with this service's key was altered (or forged): it is refused, never replayed.
          if (options.snapshotKey !== undefined && forged(e)) return Effect.fail(e)
          current = runtimeFor(spec, replay.limits).program(replay.code, undefined, { runId: spec.runId, ...seeded(replay.seed), ...observer(spec.onLog, sites) })
          return Effect.logWarning(`run ${spec.runId}: its saved state cannot be resumed (${e.message}); replaying it from its code`).pipe(
            Effect.andThen(current.run()),
          )
        }),
      )
      return adapt({ run: () => run, suspend: (o) => Effect.suspend(() => current.suspend(o)), checkpoint: (o) => Effect.suspend(() => current.checkpoint(o)) }, sites)
    })
  }

  const runtimeOf = (tools: ReadonlyArray<ToolShape>, namespaces: ReadonlyArray<NamespaceBinding> = []) =>
    CodeMode.make({ tools: toolTree(library, tools.map((t) => ({ ...t, mode: "plain", call: () => Effect.void })), namespaces, false) })
  const shapes = (tools: ReadonlyArray<ToolShape>) => runtimeOf(tools).catalog()
  const check = (tool: ToolShape): string | undefined => {
    try {
      shapes([tool])
      return undefined
    } catch (e) {
      return e instanceof Error ? e.message : String(e)
    }
  }
  // One tool the library refuses (registered before a library change, say) must not hide the others.
  const catalog = (tools: ReadonlyArray<ToolShape>): ReadonlyArray<CatalogEntry> => {
    try {
      return shapes(tools)
    } catch {
      return tools.map((t) => ({ path: t.path, signature: check(t) === undefined ? shapes([t])[0]!.signature : "" }))
    }
  }
  const search = (tools: ReadonlyArray<ToolShape>, namespaces: ReadonlyArray<NamespaceBinding>, query: SearchQuery) => {
    let runtime: ReturnType<typeof runtimeOf>
    try {
      runtime = runtimeOf(tools, namespaces)
    } catch {
      // As in the catalog: a tool the library refuses is left out, not the search.
      runtime = runtimeOf(tools.filter((t) => check(t) === undefined), namespaces)
    }
    return runtime.search({ query: query.query, limit: query.limit }).items
  }
  return Executor.of({ program, resume, catalog, check, search })
}
