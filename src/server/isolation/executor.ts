/**
 * Runs programs in a pool of child processes (`CODEMODE_WORKERS`, one per core by default), each with a V8 heap
 * limit (`CODEMODE_WORKER_HEAP_MB`), behind the same `Executor` port as the in-thread executor. The HTTP layer,
 * Postgres and webhooks stay here: a child hosts the VM, and asks this process to perform its runs' tool calls
 * (protocol.ts). A run's state crosses as the bytes it already is. Why processes: process.ts; what happens when
 * one dies: pool.ts.
 */
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { Limits } from "../api.ts"
import { ServerConfig } from "../config.ts"
import { type Checkpoint, Executor, fromLibrary, type NamespaceBinding, type OnLog, type Program, SuspendRefused, type ToolBinding } from "../executor.ts"
import { snapshotKey, type SnapshotKeyMissing } from "../snapshot-key.ts"
import { Pool } from "./pool.ts"
import type { Answer, Child, GivenCatalog, Launch, ResumeLaunch } from "./process.ts"
import type { ToolSpec } from "./protocol.ts"

const specOf = (t: ToolBinding): ToolSpec => ({ path: t.path, description: t.description, input: t.input, output: t.output, mode: t.mode })

/** The same tool spec: its schemas the same objects (a registration's, as the registry keeps them), not only equal. */
const sameSpec = (a: ToolSpec, b: ToolBinding): boolean =>
  a.path === b.path && a.description === b.description && a.mode === b.mode && a.input === b.input && a.output === b.output

/**
 * The last catalog made with a namespaces list, by that list's identity: a tenant's registrations as the registry
 * keeps them (ToolRegistry.forRun) give every run the same list and the same schema objects, so a run whose tools
 * are those of the last one reuses its catalog rather than writing every schema as JSON again (~37 us for ten
 * tools). The specs kept are copies: a run's bindings hold the run.
 */
const made = new WeakMap<ReadonlyArray<NamespaceBinding>, GivenCatalog>()

const catalogOf = (tools: ReadonlyArray<ToolBinding>, namespaces: ReadonlyArray<NamespaceBinding>): GivenCatalog => {
  const last = made.get(namespaces)
  if (last !== undefined && last.content.tools.length === tools.length && last.content.tools.every((t, i) => sameSpec(t, tools[i]!))) return last
  const content = { tools: tools.map(specOf), namespaces }
  const catalog = { text: JSON.stringify(content), content }
  made.set(namespaces, catalog)
  return catalog
}

/** What a kept resume holds in memory, about: its state and its code. */
const weight = (launch: ResumeLaunch): number => launch.state.length + (launch.replay?.code.length ?? 0)

/**
 * The resumes of the runs that left this replica suspended, by run id, most recent last: what `prepare` restores
 * ahead of a claim. Bounded by the length of their states and code; a run's entry goes when it is prepared or
 * launched again.
 */
class Suspends {
  private readonly launches = new Map<string, ResumeLaunch>()
  private bytes = 0
  private readonly maxBytes: number
  constructor(maxBytes: number) {
    this.maxBytes = maxBytes
  }
  keep(launch: ResumeLaunch): void {
    this.take(launch.runId)
    if (weight(launch) > this.maxBytes / 16) return
    this.launches.set(launch.runId, launch)
    this.bytes += weight(launch)
    for (const [runId] of this.launches) {
      if (this.bytes <= this.maxBytes) break
      this.take(runId)
    }
  }
  take(runId: string): ResumeLaunch | undefined {
    const launch = this.launches.get(runId)
    if (launch === undefined) return undefined
    this.launches.delete(runId)
    this.bytes -= weight(launch)
    return launch
  }
}

/** What is kept for `prepare`: a few thousand small runs (a small suspended run's state is a few KB). */
const SUSPENDS_KEPT_BYTES = 16 * 1024 * 1024

/** The resume of a run that was launched with `start` and then suspended with `state`, as a claim would make it. */
const resumeOf = (start: Launch, state: Uint8Array): ResumeLaunch => ({
  type: "resume",
  runId: start.runId,
  state,
  replay: start.type === "start" ? { code: start.code, limits: start.limits, seed: start.seed } : start.replay,
  fork: undefined,
  catalog: start.catalog,
  log: start.log,
})

const refusedBy = (answer: Answer): Effect.Effect<Checkpoint | undefined, SuspendRefused> =>
  answer === undefined ? Effect.succeed(undefined) : answer.ok ? Effect.succeed(answer.checkpoint) : Effect.fail(new SuspendRefused(answer.refusal))

/** The executor over a pool. The catalog, tool checks and search need no isolation: they only render schemas. */
const pooled = (library: Parameters<typeof fromLibrary>[0], pool: Pool, snapshotKey: string | undefined): Executor["Service"] => {
  const local = fromLibrary(library, { snapshotKey })
  const suspends = new Suspends(SUSPENDS_KEPT_BYTES)
  const program = (
    runId: string,
    start: Launch,
    tools: ReadonlyArray<ToolBinding>,
    onLog: OnLog | undefined,
    limits: Limits | undefined,
  ): Program => {
    const current: { child: Child | undefined } = { child: undefined }
    suspends.take(runId)
    return {
      run: pool.run(runId, start, tools, onLog, limits?.timeoutMs ?? pool.options.defaultTimeoutMs, current).pipe(
        Effect.tap((outcome) =>
          Effect.sync(() => {
            if (outcome.ok === "suspended") suspends.keep(resumeOf(start, outcome.state))
          }),
        ),
      ),
      suspend: Effect.suspend(() => pool.request(current.child, runId, "suspend")).pipe(Effect.flatMap(refusedBy), Effect.asVoid),
      checkpoint: (now) => Effect.suspend(() => pool.request(current.child, runId, "checkpoint", now)).pipe(Effect.flatMap(refusedBy)),
    }
  }
  return Executor.of({
    program: (spec) =>
      Effect.sync(() =>
        program(
          spec.runId,
          {
            type: "start",
            runId: spec.runId,
            code: spec.code,
            limits: spec.limits,
            seed: spec.seed,
            catalog: catalogOf(spec.tools, spec.namespaces),
            log: spec.onLog !== undefined,
          },
          spec.tools,
          spec.onLog,
          spec.limits,
        ),
      ),
    resume: (spec) =>
      Effect.sync(() =>
        program(
          spec.runId,
          {
            type: "resume",
            runId: spec.runId,
            state: spec.state,
            replay: spec.replay,
            fork: spec.fork,
            catalog: catalogOf(spec.tools, spec.namespaces),
            log: spec.onLog !== undefined,
          },
          spec.tools,
          spec.onLog,
          spec.replay?.limits,
        ),
      ),
    ahead: {
      prepare: (runId) =>
        Effect.sync(() => {
          const launch = suspends.take(runId)
          if (launch !== undefined) pool.prepare(launch, launch.replay?.limits.timeoutMs ?? pool.options.defaultTimeoutMs)
        }),
      prepared: (runId) => pool.prepared(runId),
      discard: (runId) => Effect.sync(() => pool.discard(runId)),
      counts: () => pool.speculation,
    },
    catalog: local.catalog,
    check: local.check,
    search: local.search,
  })
}

/** The executor the service runs with: the pool, or (`CODEMODE_WORKERS=0`) the VM in this thread. */
export class PoolConfigInvalid extends Data.TaggedError("PoolConfigInvalid")<{ readonly detail: string }> {
  override get message(): string {
    return this.detail
  }
}

export const layer: Layer.Layer<Executor, SnapshotKeyMissing | PoolConfigInvalid, ServerConfig> = Layer.unwrap(
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const key = yield* snapshotKey(config)
    if (config.workers === 0) return Executor.layerSigned(key)
    // The run's budget must end it before its process's heap does: the budget fails one run, the heap its process.
    if (config.maxMemoryBytes >= config.workerHeapMb * 1024 * 1024) {
      return yield* new PoolConfigInvalid({
        detail: `CODEMODE_MAX_MEMORY_BYTES (${config.maxMemoryBytes}) must be below CODEMODE_WORKER_HEAP_MB (${config.workerHeapMb} MiB)`,
      })
    }
    return Layer.effect(
      Executor,
      Effect.gen(function* () {
        // The processes load the library while this one does.
        const pool = yield* Effect.acquireRelease(
          Effect.sync(
            () =>
              new Pool({
                size: config.workers,
                heapMb: config.workerHeapMb,
                graceMs: config.workerGraceMs,
                defaultTimeoutMs: config.defaultTimeoutMs,
                snapshotKey: key,
              }),
          ),
          (pool) => Effect.sync(() => pool.close()),
        )
        const library = yield* Effect.promise(() => import("../../index.ts"))
        // The service listens only once it can run programs.
        yield* Effect.promise(() => pool.ready())
        return pooled(library, pool, key)
      }),
    )
  }),
)
