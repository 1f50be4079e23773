/**
 * One child process of the pool, as the parent sees it: it forks child.ts with a V8 heap limit, hosts runs in it,
 * performs the tool calls they ask for (protocol.ts), and, when the process dies, says why and which of its runs
 * may start again elsewhere.
 *
 * Why processes and not worker threads: a worker thread that reaches its heap limit is stopped cleanly only when
 * the allocation that crosses the limit is small. Node then raises the limit a little and terminates the thread;
 * an allocation larger than that allowance (one flattened 128 MB string, one large array's backing store) makes
 * V8 abort the whole process. A child process that aborts takes nothing else with it (docs/internals.md,
 * "Isolation", has the measurements).
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { fork, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import type { OnLog, Outcome, ToolBinding } from "../executor.ts"
import { Kept } from "../kept.ts"
import { type Catalog, CATALOGS_KEPT, type ToChild, type ToParent } from "./protocol.ts"

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
export type Death = { readonly culprits: ReadonlySet<string>; readonly message: string }

export type Settled =
  | { readonly type: "outcome"; readonly outcome: Outcome }
  | { readonly type: "ended" }
  | { readonly type: "died"; readonly death: Death }

/** A run as hosted by one child. */
export interface Hosted {
  readonly runId: string
  readonly tools: ReadonlyMap<string, ToolBinding>
  readonly onLog: OnLog | undefined
  readonly deadline: number
  readonly calls: Map<number, Fiber.Fiber<void>>
  callsMade: number
  /** Log lines to drop: the ones an earlier attempt of this run already delivered. */
  skipLogs: number
  logged: number
  settle: (settled: Settled) => void
  /** A run restored ahead of its claim (Pool.prepare), until a resume adopts it. */
  readonly held?: Holding
}

/**
 * What a child said of a run restored ahead of its claim, kept unread until a resume adopts the run (then read in
 * order). A dropped run stays in its child's table until the child says it `ended` (`gone`), so that nothing it said
 * is taken for a later run with its id; meanwhile each call it makes fails at once, unperformed (stopping a run in a
 * durable call's `wait` makes it ask the tool to `cancel`, and it waits for that answer: the job is the real run's).
 */
export interface Holding {
  readonly messages: Array<RunMessage>
  dropped: boolean
  readonly gone: Promise<void>
}

/** What a child says of one of its runs, but that it ended (which it says of a run it was told to cancel). */
export type RunMessage = Extract<ToParent, { type: "call" | "log" | "outcome" }>

export type Answer = Extract<ToParent, { type: "answer" }> | undefined

/** A run's catalog as the service has it: its content, and that content's JSON text, which tells catalogs apart. */
export interface GivenCatalog {
  readonly text: string
  readonly content: Catalog
}

type StartOrResume = Extract<ToChild, { type: "start" | "resume" }>
/** A start or a resume as the pool is given it: with its catalog, which `Child.launch` numbers for its child. */
export type Launch<M extends StartOrResume = StartOrResume> = M extends unknown ? Omit<M, "catalog" | "content"> & { readonly catalog: GivenCatalog } : never
export type ResumeLaunch = Extract<Launch, { type: "resume" }>

export class Child {
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
      // Without allocation-site pretenuring: a run's objects die with the run, but once V8 sees a site's objects
      // survive (a run in progress at a young-generation GC), it allocates them in old space, where each keeps what
      // it refers to alive through every young GC until a full one (docs/internals.md, "A run's garbage dies
      // young"). `1 + 1` runs through `executor.program` in a loop, 16 at once: scavenges of 120-290 ms, 3-9 ms without.
      execArgv: [`--max-old-space-size=${options.heapMb}`, "--disable-warning=ExperimentalWarning", "--no-allocation-site-pretenuring"],
      stdio: ["ignore", "inherit", "pipe", "ipc"],
    })
    // Only the end of what a dying child prints matters (V8's out-of-memory report).
    this.process.stderr!.on("data", (chunk: Buffer) => void (this.stderr = (this.stderr + chunk.toString()).slice(-4096)))
    this.ready = new Promise((resolve) => {
      const take = (message: ToParent): void => {
        if (message.type === "batch") message.messages.forEach(take)
        else if (message.type === "ready") resolve((this.isReady = true))
        else this.receive(message)
      }
      this.process.on("message", take)
      this.process.once("exit", (code, signal) => {
        resolve(false)
        this.died(code, signal)
        onExit(this)
      })
    })
    this.process.on("error", () => {})
  }

  /**
   * Sends on the channel once the event loop has handled the I/O it has ready (setImmediate), with whatever else was
   * sent to this child meanwhile: the starts of the requests read in one turn cross in one write and one structured
   * clone, not one each (a write to the channel wakes the child, and cost the service ~25 us under load).
   */
  send(message: ToChild): void {
    if (!this.alive || !this.process.connected) return
    if (this.outbox.push(message) === 1) this.flushing = setImmediate(this.flush)
  }

  /**
   * Starts or resumes a run here, with its catalog's number on this child, and the catalog itself when the child
   * does not keep it (protocol.ts `RunSetup`): a run's tools, with their schemas, cross once per child and not
   * with every run, and the child binds them once.
   */
  launch(launch: Launch): void {
    const { catalog, ...message } = launch
    const known = this.catalogs.given(catalog.text)
    if (known !== undefined) this.send({ ...message, catalog: known })
    else this.send({ ...message, catalog: this.catalogs.keep(catalog.text, ++this.lastCatalog), content: catalog.content })
    // A resume's restore is the longest step of its request, and nothing else of that request goes to this child:
    // its state leaves now, with whatever waits before it, rather than after the turn's other I/O (its resent
    // webhook's request, the claim's notice).
    if (message.type === "resume") this.flushNow()
  }

  private readonly catalogs = new Kept<string, number>(CATALOGS_KEPT)
  private lastCatalog = 0

  private outbox: Array<ToChild> = []
  private flushing: ReturnType<typeof setImmediate> | undefined
  private readonly flush = (): void => {
    this.flushing = undefined
    const messages = this.outbox
    this.outbox = []
    if (messages.length === 0 || !this.alive || !this.process.connected) return
    this.process.send(messages.length === 1 ? messages[0]! : { type: "batch", messages }, (error) => void error)
  }

  private flushNow(): void {
    if (this.flushing !== undefined) clearImmediate(this.flushing)
    this.flush()
  }

  /** Stops the child now; its runs end with `death` (those it names as culprits) or are retried. */
  kill(death: Death): void {
    if (!this.alive) return
    this.killedFor = death
    this.process.kill("SIGKILL")
  }

  /** What the child said of a run: acted on, or kept while the run is held. */
  receive(message: Exclude<ToParent, { type: "ready" | "batch" }>): void {
    // A held run ends only when dropped (its cancel's answer): that is settled as for any run.
    if (message.type === "call" || message.type === "log" || message.type === "outcome") {
      const held = this.runs.get(message.runId)?.held
      if (held?.dropped === true && message.type === "call") return this.send({ type: "reply", id: message.id, ok: false, message: "The run was dropped" })
      if (held !== undefined) return void held.messages.push(message)
    }
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
        const context = message.location === undefined ? { key: message.key } : { key: message.key, location: message.location }
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
          // A held run's call was never made: it is forgotten with its abort.
          const at = hosted.held?.messages.findIndex((m) => m.type === "call" && m.id === message.id) ?? -1
          if (at >= 0) return void hosted.held!.messages.splice(at, 1)
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
        return hosted.onLog?.(message.line, message.index)
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
    this.retry = [...this.runs.values()].filter((h) => h.held === undefined && h.callsMade === 0 && !death.culprits.has(h.runId)).map((h) => h.runId)
    for (const answer of this.requests.values()) answer(undefined)
    this.requests.clear()
    for (const hosted of [...this.runs.values()]) hosted.settle({ type: "died", death })
  }
}
