/**
 * `Executor`: the one port between the service and the codemode library. Everything the service needs from the
 * interpreter goes through these operations — make a program from code, tools and limits; run it; suspend it;
 * make a program from saved state — so the rest of `server/` never touches the library, and tests can drive the
 * service with a scripted executor (test/service/fake-executor.ts).
 *
 * Interrupting `run` interrupts the program and every call in progress (that is how a run is cancelled).
 *
 * Library status: `CodeMode.make({ engine: "vm", tools }).execute(code)` exists; `runtime.program` /
 * `program.suspend` / `runtime.resume` / `CodeMode.toBytes` (issue 5) do not yet. Until they do, a program runs to
 * its end, `suspend` is refused with `NotSuspendable` and `resume` fails with `SnapshotInvalid`; the adapter below
 * switches to them as soon as a runtime has them (see `VmRuntime`, marked `TODO(issue 5)`).
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { BlockingCall, Limits, Result } from "./api.ts"

/** A tool as the service hands it to the library: a JSON Schema signature and an effect that performs the call. */
export interface ToolBinding {
  readonly path: string
  readonly description: string
  readonly input: Record<string, unknown>
  readonly output: Record<string, unknown> | undefined
  /** `idempotent` calls are interrupted on suspend and run again (same key) on resume; `plain` ones block suspend. */
  readonly mode: "plain" | "idempotent"
  readonly call: (input: unknown, context: { readonly key: string }) => Effect.Effect<unknown, Error>
}

/** What the catalog needs of a tool. */
export type ToolShape = Omit<ToolBinding, "call" | "mode">

export interface NamespaceBinding {
  readonly path: string
  readonly description: string
}

export interface ProgramSpec {
  readonly runId: string
  readonly code: string
  readonly tools: ReadonlyArray<ToolBinding>
  readonly namespaces: ReadonlyArray<NamespaceBinding>
  readonly limits: Limits
}

export interface ResumeSpec {
  readonly runId: string
  readonly state: Uint8Array
  readonly tools: ReadonlyArray<ToolBinding>
  readonly namespaces: ReadonlyArray<NamespaceBinding>
}

/** The run's state, saved: what `run` returns when the run was suspended. */
export interface Suspended {
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
  /** Stops the running program at its current step and makes `run` return `Suspended` (the same value). */
  readonly suspend: Effect.Effect<Suspended, SuspendRefused>
}

export interface CatalogEntry {
  readonly path: string
  readonly signature: string
}

export class Executor extends Context.Service<
  Executor,
  {
    readonly program: (spec: ProgramSpec) => Effect.Effect<Program>
    readonly resume: (spec: ResumeSpec) => Effect.Effect<Program, SnapshotInvalid>
    /** The TypeScript signature of each tool, as a program sees it. */
    readonly catalog: (tools: ReadonlyArray<ToolShape>) => ReadonlyArray<CatalogEntry>
    /** Why the engine would refuse this tool (its schemas, its path), or undefined when it accepts it. */
    readonly check: (tool: ToolShape) => string | undefined
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
}

type Library = typeof import("../index.ts")

/**
 * The library's tool tree for the service's bindings: flat keys (dots make the nesting), each namespace with a
 * description as an empty `Namespace.make` the tools join, each tool a `Tool.make` with its JSON Schemas (which
 * only shape the signature; the webhook validates) and an `execute` that performs the call. A failed call
 * reaches the program as a `ToolError`, so the program (and the model) reads what went wrong.
 */
const toolTree = (library: Library, tools: ReadonlyArray<ToolBinding>, namespaces: ReadonlyArray<NamespaceBinding>) => {
  const { Namespace, Tool, ToolError } = library
  const tree: Record<string, ReturnType<typeof Tool.make> | ReturnType<typeof Namespace.make>> = {}
  for (const n of namespaces) tree[n.path] = Namespace.make({ description: n.description, tools: {} })
  for (const t of tools) {
    const execute = (input: unknown, context: { readonly key: string }) =>
      t.call(input, context).pipe(Effect.mapError((e) => new ToolError({ message: e.message })))
    tree[t.path] = Tool.make({
      description: t.description,
      input: t.input,
      ...(t.output === undefined ? {} : { output: t.output }),
      execute: t.mode === "idempotent" ? Tool.idempotent(execute) : execute,
    })
  }
  return tree
}

/**
 * The VM runtime of issue 5 (spec "Bytecode VM and suspending/resuming a run") as this port uses it. The
 * library does not export these types yet, so they are declared here and looked for on the runtime: once
 * `runtime.program` and `runtime.resume` exist, runs suspend and resume without a change here. Until then runs go
 * through `execute`, cannot be suspended (`NotSuspendable`) and saved states cannot be resumed (`SnapshotInvalid`).
 * TODO(issue 5): replace this with the library's exported types once they exist.
 */
interface VmProgram {
  readonly run: () => Effect.Effect<unknown, unknown>
  readonly suspend: () => Effect.Effect<unknown, unknown>
}

interface VmRuntime {
  readonly program: (code: string, bindings: undefined, options: { readonly runId: string }) => VmProgram
  readonly resume: (state: Uint8Array) => VmProgram
}

const vmRuntime = (runtime: object): VmRuntime | undefined => {
  const r = runtime as Partial<VmRuntime>
  return typeof r.program === "function" && typeof r.resume === "function" ? (r as VmRuntime) : undefined
}

const isSuspended = (o: unknown): o is { readonly ok: "suspended"; readonly state: unknown } =>
  typeof o === "object" && o !== null && (o as { ok?: unknown }).ok === "suspended"

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** The blocking calls a `CodeMode.SuspendError` names (`{ key, path }` each, as the spec describes it). */
const callsOf = (e: unknown): ReadonlyArray<{ key: string; path: string }> => {
  const calls = (e as { calls?: unknown })?.calls
  return Array.isArray(calls)
    ? calls.flatMap((c) => (typeof c?.key === "string" && typeof c?.path === "string" ? [{ key: c.key, path: c.path }] : []))
    : []
}

const notSuspendable = Effect.fail(
  new SuspendRefused({
    reason: "NotSuspendable",
    detail: "This server's engine cannot suspend runs yet (the VM's suspend/resume is not built)",
    calls: [],
  }),
)

const fromLibrary = (library: Library) => {
  const { CodeMode } = library
  const toBytes = (state: unknown): Uint8Array => (CodeMode as unknown as { toBytes: (s: unknown) => Uint8Array }).toBytes(state)

  const adapt = (vm: VmProgram): Program => ({
    run: vm.run().pipe(
      Effect.map((o): Outcome => (isSuspended(o) ? { ok: "suspended", state: toBytes(o.state) } : (o as Result))),
      // A saved state that cannot be resumed here fails run() with a SnapshotError (spec): the run fails with it.
      Effect.catch((e) =>
        Effect.succeed<Outcome>({ ok: false, error: { kind: "ExecutionFailure", message: messageOf(e) }, toolCalls: [] }),
      ),
    ),
    suspend: vm.suspend().pipe(
      Effect.map((o): Suspended => ({ ok: "suspended", state: toBytes((o as { state: unknown }).state) })),
      Effect.mapError((e) => new SuspendRefused({ reason: "Blocked", detail: messageOf(e), calls: callsOf(e) })),
    ),
  })

  const runtimeFor = (spec: { tools: ReadonlyArray<ToolBinding>; namespaces: ReadonlyArray<NamespaceBinding> }, limits?: Limits) =>
    CodeMode.make({ engine: "vm", ...(limits === undefined ? {} : { limits }), tools: toolTree(library, spec.tools, spec.namespaces) })

  const program = (spec: ProgramSpec): Effect.Effect<Program> =>
    Effect.sync(() => {
      const runtime = runtimeFor(spec, spec.limits)
      const vm = vmRuntime(runtime)
      if (vm !== undefined) return adapt(vm.program(spec.code, undefined, { runId: spec.runId }))
      return { run: runtime.execute(spec.code) as Effect.Effect<Result>, suspend: notSuspendable }
    })

  // A resumed run keeps the limits it was saved with (spec), so none are passed here.
  const resume = (spec: ResumeSpec): Effect.Effect<Program, SnapshotInvalid> =>
    Effect.suspend(() => {
      const vm = vmRuntime(runtimeFor(spec))
      return vm === undefined
        ? Effect.fail(new SnapshotInvalid({ detail: "This server's engine cannot resume saved runs yet" }))
        : Effect.succeed(adapt(vm.resume(spec.state)))
    })

  const shapes = (tools: ReadonlyArray<ToolShape>) =>
    CodeMode.make({ tools: toolTree(library, tools.map((t) => ({ ...t, mode: "plain", call: () => Effect.void })), []) }).catalog()
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
  return Executor.of({ program, resume, catalog, check })
}
