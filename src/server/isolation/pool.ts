/**
 * The pool of child processes that runs programs: `size` shared children (`CODEMODE_WORKERS`) and quarantine
 * children, where a run goes (with which child, and where it goes again when its child dies), and the watchdog.
 *
 * When a child dies (out of memory, or killed because it stopped answering past a run's deadline plus
 * `CODEMODE_WORKER_GRACE_MS`), the run that was past its deadline fails with a diagnostic that says so. The other
 * runs it hosted did nothing wrong: each that has not called a tool yet (so nothing outside has seen it) starts
 * again in a child of its own, where it cannot be hurt by another run, and its log lines are not repeated; one
 * that has called a tool fails with the diagnostic, since calling its tools again could repeat their effects.
 * A run that kills a child of its own is the culprit and fails.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import type { Result } from "../api.ts"
import type { OnLog, Outcome, ToolBinding } from "../executor.ts"
import { canonical } from "../canonical.ts"
import { type Answer, Child, type Holding, type Hosted, type Launch, type PoolOptions, type ResumeLaunch, type Settled } from "./process.ts"

let nextRequest = 0

/** How long a run restored ahead of its claim waits to be adopted before it is dropped. */
const HELD_MS = 5_000

/** A run restored ahead of its claim (`Pool.prepare`), held until a resume adopts it. */
interface Held {
  readonly child: Child
  readonly entry: Hosted & { readonly held: Holding }
  readonly launch: ResumeLaunch
  readonly timer: ReturnType<typeof setTimeout>
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && Buffer.compare(a, b) === 0

/** The same resume: the same state, catalog, replay and logging, and not a fork (a prepared run never is). */
const sameResume = (held: Held["launch"], given: Launch): boolean =>
  given.type === "resume" &&
  given.fork === undefined &&
  given.log === held.log &&
  given.catalog.text === held.catalog.text &&
  sameBytes(given.state, held.state) &&
  canonical(given.replay ?? null) === canonical(held.replay ?? null)

const failedWith = (message: string): Result => ({ ok: false, error: { kind: "ExecutionFailure", message }, toolCalls: [] })

/** The pool: `size` shared children, and quarantine children for the runs retried after their child died. */
export class Pool {
  private readonly shared: Array<Child> = []
  private closed = false
  private readonly watchdog: ReturnType<typeof setInterval>
  private seq = 0
  private readonly held = new Map<string, Held>()
  /** Runs prepared ahead of their claim that a resume adopted, and that were dropped unused. */
  readonly speculation = { adopted: 0, dropped: 0 }

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

  /**
   * Restores a run's state ahead of its claim: a resume that will likely follow (its replica suspended it) finds it
   * restored, and the program's first call already asked. Everything its child says of it is held (`Hosted.held`):
   * nothing it asks for is done until `run` is given the very same resume and adopts it, or it is dropped — when
   * `discard`ed, when another resume comes, or after HELD_MS.
   */
  prepare(launch: Held["launch"], timeoutMs: number): void {
    if (this.closed || this.held.has(launch.runId)) return
    const child = this.pick()
    if (!child.isReady || child.runs.has(launch.runId)) return
    const runId = launch.runId
    let ended!: () => void
    const gone = new Promise<void>((resolve) => (ended = resolve))
    const entry: Held["entry"] = {
      runId,
      tools: new Map(),
      onLog: undefined,
      deadline: Date.now() + timeoutMs,
      calls: new Map(),
      callsMade: 0,
      skipLogs: 0,
      logged: 0,
      // Its child died, or said it ended (it was dropped): it is gone.
      settle: () => {
        this.discard(runId)
        if (child.runs.get(runId) === entry) child.runs.delete(runId)
        ended()
      },
      held: { messages: [], dropped: false, gone },
    }
    child.runs.set(runId, entry)
    child.launch(launch)
    const timer = setTimeout(() => this.discard(runId), HELD_MS)
    timer.unref()
    this.held.set(runId, { child, entry, launch, timer })
  }

  /** Whether a run prepared ahead of its claim waits to be adopted. */
  prepared(runId: string): boolean {
    return this.held.has(runId)
  }

  /**
   * Drops a prepared run: its child is told to stop it, and it stays in its child's table, saying nothing, until
   * the child answers that it ended (a run launched there with its id waits for that: `run`).
   */
  discard(runId: string): void {
    const held = this.held.get(runId)
    if (held === undefined) return
    this.held.delete(runId)
    clearTimeout(held.timer)
    this.speculation.dropped++
    held.entry.held.dropped = true
    if (held.child.runs.get(runId) !== held.entry) return
    // Its child stops it; the calls it waits on fail unperformed (one in a durable `wait` asks to `cancel` as it stops).
    held.child.send({ type: "cancel", runId })
    for (const m of held.entry.held.messages.splice(0)) if (m.type === "call") held.child.send({ type: "reply", id: m.id, ok: false, message: "The run was dropped" })
  }

  /** The prepared run `start` may continue (then no longer held here), or undefined (a different one is dropped). */
  private adopt(start: Launch): Held | undefined {
    const held = this.held.get(start.runId)
    if (held === undefined) return undefined
    if (!sameResume(held.launch, start) || !held.child.alive || held.child.runs.get(start.runId) !== held.entry) {
      this.discard(start.runId)
      return undefined
    }
    this.held.delete(start.runId)
    clearTimeout(held.timer)
    this.speculation.adopted++
    return held
  }

  /** Runs `start` on a child until it ends: on a shared child, then (when that child died under it) on its own. */
  run(
    runId: string,
    start: Launch,
    tools: ReadonlyArray<ToolBinding>,
    onLog: OnLog | undefined,
    timeoutMs: number,
    current: { child: Child | undefined },
  ): Effect.Effect<Outcome> {
    const byPath = new Map(tools.map((t) => [t.path, t]))
    // Taken when the run begins: a prepared run is adopted only by a resume that runs.
    let adopted: Held | undefined
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
          const restored = adopted?.child === child ? adopted.entry.held.messages : undefined
          adopted = undefined
          // Restored already: what its child said of it meanwhile is acted on now, in order.
          if (restored !== undefined) return restored.forEach((message) => child.receive(message))
          child.launch(start)
        }
        // A dropped prepared run of this id leaves its child's table first: what it said is not this run's.
        const dropped = child.runs.get(runId)?.held?.gone
        if (dropped !== undefined && adopted?.entry !== child.runs.get(runId)) void dropped.then(() => begin(child.alive))
        else if (child.isReady) begin(true)
        else void child.ready.then(begin)
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

    return Effect.suspend(() => {
      adopted = this.adopt(start)
      return drive(this, adopted?.child, runId, current, attempt)
    })
  }

  /** Asks the child hosting a run to suspend it or to take a checkpoint (`now`: Program.checkpoint); `undefined` when it has none. */
  request(child: Child | undefined, runId: string, type: "suspend" | "checkpoint", now = false): Effect.Effect<Answer> {
    if (child === undefined || !child.alive) return Effect.succeed(undefined)
    return Effect.callback<Answer>((resume) => {
      const request = ++nextRequest
      child.requests.set(request, (answer) => resume(Effect.succeed(answer)))
      child.send({ type, runId, request, now })
      return Effect.sync(() => void child.requests.delete(request))
    })
  }

  close(): void {
    this.closed = true
    clearInterval(this.watchdog)
    for (const child of this.children()) if (child.alive) child.process.kill("SIGKILL")
  }
}

/**
 * A run on the pool until it ends (`Pool.run`). Made once, not per run: a generator function made per run gets a
 * hidden class of its own in old space, which keeps the run alive until a full GC.
 */
const drive = Effect.fnUntraced(function* (
  pool: Pool,
  first: Child | undefined,
  runId: string,
  current: { child: Child | undefined },
  attempt: (child: Child, skipLogs: number) => Effect.Effect<{ settled: Settled; hosted: Hosted }>,
) {
  let child: Child | undefined = first ?? pool.pick()
  let delivered = 0
  for (;;) {
    const on: Child = child
    const { settled, hosted } = yield* attempt(on, delivered).pipe(Effect.ensuring(Effect.sync(() => pool.leave(on))))
    yield* Fiber.interruptAll(hosted.calls.values())
    current.child = undefined
    switch (settled.type) {
      case "outcome":
        return settled.outcome
      case "ended":
        return failedWith("The run was cancelled")
    }
    delivered += hosted.logged
    child = pool.successor(on, runId)
    if (child === undefined) return failedWith(settled.death.message)
    yield* Effect.logWarning(`run ${runId}: its process stopped under it (${settled.death.message}); starting it again in quarantine`)
  }
})
