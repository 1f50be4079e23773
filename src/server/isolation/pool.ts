/**
 * Runs programs in a pool of child processes (`CODEMODE_WORKERS`, one per core by default), each with a V8 heap
 * limit (`CODEMODE_WORKER_HEAP_MB`), behind the same `Executor` port as the in-thread executor. The HTTP layer,
 * Postgres and webhooks stay here: a child hosts the VM, and asks this process to perform its runs' tool calls
 * (protocol.ts). A run's state crosses as the bytes it already is.
 *
 * Why processes and not worker threads: a worker thread that reaches its heap limit is stopped cleanly only when
 * the allocation that crosses the limit is small. Node then raises the limit a little and terminates the thread;
 * an allocation larger than that allowance (one flattened 128 MB string, one large array's backing store) makes
 * V8 abort the whole process. A child process that aborts takes nothing else with it (docs/internals.md,
 * "Isolation", has the measurements).
 *
 * When a child dies (out of memory, or killed because it stopped answering past a run's deadline plus
 * `CODEMODE_WORKER_GRACE_MS`), the run that was past its deadline fails with a diagnostic that says so. The other
 * runs it hosted did nothing wrong: each that has not called a tool yet (so nothing outside has seen it) starts
 * again in a child of its own, where it cannot be hurt by another run, and its log lines are not repeated; one
 * that has called a tool fails with the diagnostic, since calling its tools again could repeat their effects.
 * A run that kills a child of its own is the culprit and fails.
 */
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import { fork, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { Limits, Result } from "../api.ts"
import { ServerConfig } from "../config.ts"
import { Executor, fromLibrary, type Outcome, type Program, SuspendRefused, type ToolBinding } from "../executor.ts"
import { snapshotKey, type SnapshotKeyMissing } from "../snapshot-key.ts"
import type { ToChild, ToParent, ToolSpec } from "./protocol.ts"

// Beside this file: child.ts in a checkout, child.js in the compiled package (tsc rewrites imports, not URLs).
const CHILD = fileURLToPath(new URL(import.meta.url.endsWith(".ts") ? "./child.ts" : "./child.js", import.meta.url))

/** The child's environment: the parent's, with the key it signs with (the embedded mode's is generated, not set). */
const keyed = (env: NodeJS.ProcessEnv, key: string | undefined): NodeJS.ProcessEnv =>
  key === undefined ? env : { ...env, CODEMODE_SNAPSHOT_KEY: key }

export interface PoolOptions {
  readonly size: number
  readonly heapMb: number
  readonly graceMs: number
  /** The deadline of a run whose limits the service does not know (a resumed run keeps its saved limits). */
  readonly defaultTimeoutMs: number
  readonly snapshotKey: string | undefined
}

/** Why a child stopped, as its runs' diagnostics say it. */
type Death = { readonly culprits: ReadonlySet<string>; readonly message: string }

type Settled =
  | { readonly type: "outcome"; readonly outcome: Outcome }
  | { readonly type: "ended" }
  | { readonly type: "died"; readonly death: Death }

/** A run as hosted by one child. */
interface Hosted {
  readonly runId: string
  readonly tools: ReadonlyMap<string, ToolBinding>
  readonly onLog: ((line: string) => void) | undefined
  readonly deadline: number
  readonly calls: Map<number, Fiber.Fiber<void>>
  callsMade: number
  /** Log lines to drop: the ones an earlier attempt of this run already delivered. */
  skipLogs: number
  logged: number
  settle: (settled: Settled) => void
}

type Answer = Extract<ToParent, { type: "answer" }> | undefined

class Child {
  readonly process: ChildProcess
  readonly ready: Promise<boolean>
  readonly runs = new Map<string, Hosted>()
  readonly requests = new Map<number, (answer: Answer) => void>()
  alive = true
  isReady = false
  /** Set when the child died: the runs it hosted that may start again (no tool call yet, not the culprit). */
  retry: ReadonlyArray<string> = []
  /** For a quarantine child: how many runs were sent to it; it is stopped once all of them have ended. */
  expected = 0
  /** The quarantine children the retried runs of this one go to (one, or two halves when this one was one). */
  readonly successors: Array<Child | undefined> = []
  lastPong = Date.now()
  private stderr = ""
  private killedFor: Death | undefined
  death: Death | undefined

  readonly options: PoolOptions

  readonly quarantine: boolean

  constructor(options: PoolOptions, quarantine: boolean, onExit: (child: Child) => void) {
    this.options = options
    this.quarantine = quarantine
    this.process = fork(CHILD, [], {
      serialization: "advanced",
      env: keyed(process.env, options.snapshotKey),
      execArgv: [`--max-old-space-size=${options.heapMb}`, "--disable-warning=ExperimentalWarning"],
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    })
    // Only the end of what a dying child prints matters (V8's out-of-memory report).
    this.process.stderr!.on("data", (chunk: Buffer) => void (this.stderr = (this.stderr + chunk.toString()).slice(-4096)))
    this.ready = new Promise((resolve) => {
      this.process.on("message", (message: ToParent) => {
        if (message.type === "ready") resolve((this.isReady = true))
        else this.receive(message)
      })
      this.process.once("exit", (code, signal) => {
        resolve(false)
        this.died(code, signal)
        onExit(this)
      })
    })
    this.process.on("error", () => {})
  }

  send(message: ToChild): void {
    if (this.alive && this.process.connected) this.process.send(message, (error) => void error)
  }

  /** Stops the child now; its runs end with `death` (those it names as culprits) or are retried. */
  kill(death: Death): void {
    if (!this.alive) return
    this.killedFor = death
    this.process.kill("SIGKILL")
  }

  private receive(message: ToParent): void {
    switch (message.type) {
      case "pong":
        this.lastPong = Date.now()
        return
      case "call": {
        const hosted = this.runs.get(message.runId)
        const tool = hosted?.tools.get(message.path)
        if (hosted === undefined || tool === undefined) {
          return this.send({ type: "reply", id: message.id, ok: false, message: `Unknown tool ${message.path}` })
        }
        hosted.callsMade++
        const context = { key: message.key }
        const effect: Effect.Effect<unknown, Error> =
          tool.mode === "durable"
            ? message.op === "start"
              ? tool.start(message.input, context)
              : message.op === "wait"
                ? tool.wait(context)
                : tool.cancel(context)
            : tool.call(message.input, context)
        const id = message.id
        hosted.calls.set(
          id,
          Effect.runFork(
            Effect.exit(effect).pipe(
              Effect.flatMap((exit) =>
                Effect.sync(() => {
                  hosted.calls.delete(id)
                  if (exit._tag === "Success") this.send({ type: "reply", id, ok: true, value: exit.value })
                  // An interrupted call was aborted by the child, which no longer waits for it.
                  else if (!Cause.hasInterruptsOnly(exit.cause)) {
                    const error = Cause.squash(exit.cause)
                    this.send({ type: "reply", id, ok: false, message: error instanceof Error ? error.message : String(error) })
                  }
                }),
              ),
            ),
          ),
        )
        return
      }
      case "abort": {
        for (const hosted of this.runs.values()) {
          const fiber = hosted.calls.get(message.id)
          if (fiber !== undefined) return void Effect.runFork(Fiber.interrupt(fiber))
        }
        return
      }
      case "log": {
        const hosted = this.runs.get(message.runId)
        if (hosted === undefined) return
        if (hosted.skipLogs > 0) return void hosted.skipLogs--
        hosted.logged++
        return hosted.onLog?.(message.line)
      }
      case "outcome":
        return this.runs.get(message.runId)?.settle({ type: "outcome", outcome: message.outcome })
      case "ended":
        return this.runs.get(message.runId)?.settle({ type: "ended" })
      case "answer": {
        const answer = this.requests.get(message.request)
        this.requests.delete(message.request)
        return answer?.(message)
      }
    }
  }

  private died(code: number | null, signal: NodeJS.Signals | null): void {
    this.alive = false
    const outOfMemory = /heap out of memory|Allocation failed/.test(this.stderr)
    const death: Death = this.killedFor ?? {
      culprits: new Set(),
      message: outOfMemory
        ? `The process running this run ran out of memory (its heap limit is ${this.options.heapMb} MB) and was stopped`
        : `The process running this run stopped unexpectedly (${signal ?? `exit code ${code}`})`,
    }
    this.death = death
    this.retry = [...this.runs.values()].filter((h) => h.callsMade === 0 && !death.culprits.has(h.runId)).map((h) => h.runId)
    for (const answer of this.requests.values()) answer(undefined)
    this.requests.clear()
    for (const hosted of [...this.runs.values()]) hosted.settle({ type: "died", death })
  }
}

let nextRequest = 0

const failedWith = (message: string): Result => ({ ok: false, error: { kind: "ExecutionFailure", message }, toolCalls: [] })

/** The pool: `size` shared children, and quarantine children for the runs retried after their child died. */
class Pool {
  private readonly shared: Array<Child> = []
  private closed = false
  private readonly watchdog: ReturnType<typeof setInterval>
  private seq = 0

  readonly options: PoolOptions

  constructor(options: PoolOptions) {
    this.options = options
    for (let i = 0; i < options.size; i++) this.spawnShared()
    this.watchdog = setInterval(() => this.watch(), Math.max(50, Math.min(1000, options.graceMs / 4)))
    this.watchdog.unref()
  }

  private spawnShared(): Child {
    const child = new Child(this.options, false, (dead) => {
      const at = this.shared.indexOf(dead)
      if (at >= 0) this.shared.splice(at, 1)
      if (!this.closed) this.spawnShared()
    })
    this.shared.push(child)
    return child
  }

  /** Resolves once every shared child has started (or failed to). */
  ready(): Promise<unknown> {
    return Promise.all(this.shared.map((c) => c.ready))
  }

  /**
   * The started shared child with the fewest runs; one still starting (a replacement takes seconds) only when
   * none has started.
   */
  pick(): Child {
    const live = this.shared.filter((c) => c.alive)
    const started = live.filter((c) => c.isReady)
    const candidates = started.length > 0 ? started : live
    if (candidates.length === 0) return this.spawnShared()
    return candidates.reduce((a, b) => (b.runs.size < a.runs.size ? b : a))
  }

  /**
   * Where a run that was on `dead` goes next: all of a shared child's retried runs go to one quarantine child;
   * a quarantine child's are split in halves, so a run that kills children is soon alone, and then fails.
   */
  successor(dead: Child, runId: string): Child | undefined {
    const members = dead.retry
    const at = members.indexOf(runId)
    if (at < 0 || (dead.quarantine && members.length === 1)) return undefined
    const half = Math.ceil(members.length / 2)
    const side = dead.quarantine && at >= half ? 1 : 0
    let next = dead.successors[side]
    if (next === undefined) {
      next = new Child(this.options, true, (gone) => void this.quarantined.delete(gone))
      next.expected = !dead.quarantine ? members.length : side === 0 ? half : members.length - half
      dead.successors[side] = next
      this.quarantined.add(next)
    }
    return next
  }

  /** A run sent to a quarantine child has ended there: the child is stopped after the last one. */
  leave(child: Child): void {
    if (child.quarantine && --child.expected === 0) child.process.kill("SIGKILL")
  }

  /**
   * Pings every child; a child that has not answered for the grace period while one of its runs is past its
   * deadline plus the grace period is killed, and that run is the culprit.
   */
  private watch(): void {
    const now = Date.now()
    for (const child of this.children()) {
      if (!child.alive) continue
      const overdue = [...child.runs.values()].filter((h) => now > h.deadline + this.options.graceMs).map((h) => h.runId)
      if (overdue.length > 0 && now - child.lastPong > this.options.graceMs) {
        child.kill({
          culprits: new Set(overdue),
          message: `The run did not stop within its time limit and ${this.options.graceMs} ms more; the process running it was stopped`,
        })
      } else child.send({ type: "ping", seq: ++this.seq })
    }
  }

  private readonly quarantined = new Set<Child>()
  private children(): Array<Child> {
    return [...this.shared, ...this.quarantined]
  }

  /** Runs `start` on a child until it ends: on a shared child, then (when that child died under it) on its own. */
  run(
    runId: string,
    start: ToChild & { type: "start" | "resume" },
    tools: ReadonlyArray<ToolBinding>,
    onLog: ((line: string) => void) | undefined,
    timeoutMs: number,
    current: { child: Child | undefined },
  ): Effect.Effect<Outcome> {
    const byPath = new Map(tools.map((t) => [t.path, t]))
    const attempt = (child: Child, skipLogs: number) =>
      Effect.callback<{ settled: Settled; hosted: Hosted }>((resume) => {
        let hosted: Hosted | undefined
        let interrupted = false
        let cancelling: ((settled: Settled) => void) | undefined
        const begin = (ready: boolean) => {
          if (interrupted) return
          const entry: Hosted = {
            runId,
            tools: byPath,
            onLog,
            deadline: Date.now() + timeoutMs,
            calls: new Map(),
            callsMade: 0,
            skipLogs,
            logged: 0,
            settle: (settled) => {
              if (child.runs.get(runId) !== entry) return
              if (cancelling !== undefined) return cancelling(settled)
              child.runs.delete(runId)
              resume(Effect.succeed({ settled, hosted: entry }))
            },
          }
          hosted = entry
          current.child = child
          child.runs.set(runId, entry)
          if (!ready || !child.alive) {
            // It died before this run reached it: the run did nothing there, and may go on elsewhere.
            child.retry = [...child.retry, runId]
            return entry.settle({ type: "died", death: child.death ?? { culprits: new Set(), message: "The process for this run could not start" } })
          }
          child.send(start)
        }
        void child.ready.then(begin)
        return Effect.callback<void>((done) => {
          interrupted = true
          if (hosted === undefined || child.runs.get(runId) !== hosted) return done(Effect.void)
          cancelling = () => {
            child.runs.delete(runId)
            done(Effect.void)
          }
          child.send({ type: "cancel", runId })
        }).pipe(
          Effect.timeoutOption(this.options.graceMs),
          Effect.flatMap((ended) =>
            ended._tag === "Some"
              ? Effect.void
              : Effect.sync(() => child.kill({ culprits: new Set([runId]), message: "The run did not stop when cancelled" })),
          ),
          Effect.andThen(Effect.suspend(() => (hosted === undefined ? Effect.void : Fiber.interruptAll(hosted.calls.values())))),
        )
      })

    const self = this
    return Effect.gen(function* () {
      let child: Child | undefined = self.pick()
      let delivered = 0
      for (;;) {
        const on: Child = child
        const { settled, hosted } = yield* attempt(on, delivered).pipe(Effect.ensuring(Effect.sync(() => self.leave(on))))
        yield* Fiber.interruptAll(hosted.calls.values())
        current.child = undefined
        switch (settled.type) {
          case "outcome":
            return settled.outcome
          case "ended":
            return failedWith("The run was cancelled")
        }
        delivered += hosted.logged
        child = self.successor(on, runId)
        if (child === undefined) return failedWith(settled.death.message)
        yield* Effect.logWarning(`run ${runId}: its process stopped under it (${settled.death.message}); starting it again in quarantine`)
      }
    })
  }

  /** Asks the child hosting a run to suspend it or to take a checkpoint; `undefined` when it has none. */
  request(child: Child | undefined, runId: string, type: "suspend" | "checkpoint"): Effect.Effect<Answer> {
    if (child === undefined || !child.alive) return Effect.succeed(undefined)
    return Effect.callback<Answer>((resume) => {
      const request = ++nextRequest
      child.requests.set(request, (answer) => resume(Effect.succeed(answer)))
      child.send({ type, runId, request })
      return Effect.sync(() => void child.requests.delete(request))
    })
  }

  close(): void {
    this.closed = true
    clearInterval(this.watchdog)
    for (const child of this.children()) if (child.alive) child.process.kill("SIGKILL")
  }
}

const specOf = (tools: ReadonlyArray<ToolBinding>): Array<ToolSpec> =>
  tools.map((t) => ({ path: t.path, description: t.description, input: t.input, output: t.output, mode: t.mode }))

const refusedBy = (answer: Answer): Effect.Effect<Uint8Array | undefined, SuspendRefused> =>
  answer === undefined ? Effect.succeed(undefined) : answer.ok ? Effect.succeed(answer.state) : Effect.fail(new SuspendRefused(answer.refusal))

/** The executor over a pool. The catalog and tool checks need no isolation: they only render schemas. */
const pooled = (library: Parameters<typeof fromLibrary>[0], pool: Pool, snapshotKey: string | undefined): Executor["Service"] => {
  const local = fromLibrary(library, { snapshotKey })
  const program = (
    runId: string,
    start: ToChild & { type: "start" | "resume" },
    tools: ReadonlyArray<ToolBinding>,
    onLog: ((line: string) => void) | undefined,
    limits: Limits | undefined,
  ): Program => {
    const current: { child: Child | undefined } = { child: undefined }
    return {
      run: pool.run(runId, start, tools, onLog, limits?.timeoutMs ?? pool.options.defaultTimeoutMs, current),
      suspend: Effect.suspend(() => pool.request(current.child, runId, "suspend")).pipe(Effect.flatMap(refusedBy), Effect.asVoid),
      checkpoint: Effect.suspend(() => pool.request(current.child, runId, "checkpoint")).pipe(Effect.flatMap(refusedBy)),
    }
  }
  return Executor.of({
    program: (spec) =>
      Effect.sync(() =>
        program(
          spec.runId,
          { type: "start", runId: spec.runId, code: spec.code, limits: spec.limits, seed: spec.seed, tools: specOf(spec.tools), namespaces: spec.namespaces, log: spec.onLog !== undefined },
          spec.tools,
          spec.onLog,
          spec.limits,
        ),
      ),
    resume: (spec) =>
      Effect.sync(() =>
        program(
          spec.runId,
          { type: "resume", runId: spec.runId, state: spec.state, replay: spec.replay, tools: specOf(spec.tools), namespaces: spec.namespaces, log: spec.onLog !== undefined },
          spec.tools,
          spec.onLog,
          spec.replay?.limits,
        ),
      ),
    catalog: local.catalog,
    check: local.check,
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
