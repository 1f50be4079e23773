/**
 * A process of the isolation pool (pool.ts): it hosts the codemode VM for the runs the service gives it, and asks
 * the service to perform their tool calls, which happen in the service (webhooks, the journal, Postgres). Nothing
 * here is trusted to stay alive: when a program exhausts this process's heap, V8 aborts it, and the service fails
 * or retries the runs it hosted.
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import {
  type CallContext,
  type Checkpoint,
  fromLibrary,
  type NamespaceBinding,
  type Outcome,
  type Program,
  type SuspendRefused,
  type ToolBinding,
} from "../executor.ts"
import { Kept } from "../kept.ts"
import { type CallOp, type Catalog, CATALOGS_KEPT, type ToChild, type ToolSpec, type ToParent } from "./protocol.ts"

/**
 * Sends on the channel once the current task and its microtasks are done, with whatever else was sent meanwhile:
 * the outcomes of the runs a batch of starts ended at once cross in one write and one structured clone (the
 * service's side does the same, process.ts `send`).
 */
let outbox: Array<ToParent> = []
const flush = (): void => {
  const messages = outbox
  outbox = []
  // The service has gone (it closed the channel): this process has nothing left to do.
  if (!process.connected) return
  const message: ToParent = messages.length === 1 ? messages[0]! : { type: "batch", messages }
  process.send!(message, undefined, undefined, (error: Error | null) => void (error !== null && process.exit(0)))
}
const send = (message: ToParent): void => {
  if (outbox.push(message) === 1) queueMicrotask(flush)
}

// The service closed the channel (it stopped, or was killed): nothing here may outlive it. Listening before the
// library loads (seconds) catches a service that dies meanwhile.
process.on("disconnect", () => process.exit(0))

const executor = fromLibrary(await import("../../index.ts"), { snapshotKey: process.env["CODEMODE_SNAPSHOT_KEY"] })
if (!process.connected) process.exit(0)

let nextCall = 0
const pendingCalls = new Map<number, (effect: Effect.Effect<unknown, Error>) => void>()

/**
 * The run whose fiber this is, and its calls' fibers (forked from it): the bindings of a set of tools serve every
 * run given those tools, so a call learns its run here. Not from its key: a fork's durable calls carry the keys of
 * the run it was forked from.
 */
const CurrentRun = Context.Reference<string>("codemode/server/isolation/CurrentRun", { defaultValue: () => "" })

/** A call performed by the service for the current run; interrupting it here interrupts it there. */
const remote = (path: string, op: CallOp, input: unknown, context: CallContext): Effect.Effect<unknown, Error> =>
  Effect.flatMap(Effect.service(CurrentRun), (runId) =>
    Effect.callback<unknown, Error>((resume) => {
      const id = ++nextCall
      pendingCalls.set(id, resume)
      send({ type: "call", runId, id, path, op, input, key: context.key, ...(context.location === undefined ? {} : { location: context.location }) })
      return Effect.sync(() => {
        if (pendingCalls.delete(id)) send({ type: "abort", id })
      })
    }),
  )

const bind = (tools: ReadonlyArray<ToolSpec>): ReadonlyArray<ToolBinding> =>
  tools.map((t): ToolBinding => {
    const shape = { path: t.path, description: t.description, input: t.input, output: t.output }
    return t.mode === "durable"
      ? {
          ...shape,
          mode: "durable",
          start: (input, context) => remote(t.path, "start", input, context),
          wait: ({ key }) => remote(t.path, "wait", undefined, { key }),
          cancel: ({ key }) => Effect.ignore(remote(t.path, "cancel", undefined, { key })),
        }
      : { ...shape, mode: t.mode, call: (input, context) => remote(t.path, "call", input, context) }
  })

/**
 * The catalogs runs were given lately (protocol.ts `RunSetup`), each bound once: the executor keeps the runtime
 * it makes for the same bindings (executor.ts `runtimeFor`) instead of making one per run.
 */
interface Bound {
  readonly tools: ReadonlyArray<ToolBinding>
  readonly namespaces: ReadonlyArray<NamespaceBinding>
}
const catalogs = new Kept<number, Bound>(CATALOGS_KEPT)
const catalogOf = (message: { readonly catalog: number; readonly content?: Catalog | undefined }): Bound | undefined =>
  message.content === undefined
    ? catalogs.given(message.catalog)
    : catalogs.keep(message.catalog, { tools: bind(message.content.tools), namespaces: message.content.namespaces })

interface Hosted {
  program: Program | undefined
  fiber: Fiber.Fiber<void> | undefined
}
const runs = new Map<string, Hosted>()

const failed = (message: string): Outcome => ({ ok: false, error: { kind: "ExecutionFailure", message }, toolCalls: [] })

const host = (runId: string, make: Effect.Effect<Program, { readonly message: string }>): void => {
  const hosted: Hosted = { program: undefined, fiber: undefined }
  runs.set(runId, hosted)
  hosted.fiber = Effect.runFork(
    make.pipe(
      Effect.flatMap((program) => ((hosted.program = program), Effect.provideService(program.run, CurrentRun, runId))),
      Effect.catch((e) => Effect.succeed(failed(e.message))),
      Effect.flatMap((outcome) => Effect.sync(() => send({ type: "outcome", runId, outcome }))),
      Effect.ensuring(Effect.sync(() => runs.delete(runId))),
    ),
  )
}

const answer = (request: number, runId: string, op: "suspend" | "checkpoint", now: boolean): void => {
  const program = runs.get(runId)?.program
  if (program === undefined) return send({ type: "answer", request, ok: true, checkpoint: undefined })
  const effect: Effect.Effect<Checkpoint | undefined, SuspendRefused> =
    op === "suspend" ? Effect.as(program.suspend, undefined) : program.checkpoint(now)
  Effect.runFork(
    Effect.match(effect, {
      onSuccess: (checkpoint) => send({ type: "answer", request, ok: true, checkpoint }),
      onFailure: (e) => send({ type: "answer", request, ok: false, refusal: { reason: e.reason, detail: e.detail, calls: e.calls } }),
    }),
  )
}

const receive = (message: ToChild): void => {
  switch (message.type) {
    case "batch":
      return message.messages.forEach(receive)
    case "ping":
      return send({ type: "pong", seq: message.seq })
    case "start":
    case "resume": {
      const runId = message.runId
      const catalog = catalogOf(message)
      if (catalog === undefined) return send({ type: "outcome", runId, outcome: failed(`codemode bug: the service gave run ${runId} a catalog this process does not keep`) })
      const setup = { runId, ...catalog, onLog: message.log ? (line: string, index: number) => send({ type: "log", runId, line, index }) : undefined }
      return host(
        runId,
        message.type === "start"
          ? executor.program({ ...setup, code: message.code, limits: message.limits, seed: message.seed })
          : executor.resume({ ...setup, state: message.state, replay: message.replay, fork: message.fork }),
      )
    }
    case "reply": {
      const resume = pendingCalls.get(message.id)
      pendingCalls.delete(message.id)
      return resume?.(message.ok ? Effect.succeed(message.value) : Effect.fail(new Error(message.message)))
    }
    case "suspend":
    case "checkpoint":
      return answer(message.request, message.runId, message.type, message.now)
    case "cancel": {
      const fiber = runs.get(message.runId)?.fiber
      const runId = message.runId
      if (fiber === undefined) return send({ type: "ended", runId })
      Effect.runFork(Fiber.interrupt(fiber).pipe(Effect.andThen(Effect.sync(() => send({ type: "ended", runId })))))
      return
    }
  }
}
/**
 * Before this process says it is ready, a run of its own takes the paths a run takes here: it starts, calls a
 * tool, is suspended, resumed and ends. The first run through them pays for building the template realm
 * (realm-template.ts) and for V8 compiling that code: 30 ms for `1 + 1`, 125-180 ms more for a first suspend
 * and 6-11 ms for a first resume — a cost that would otherwise fall on the first requests each process serves.
 * Bounded, and its failures ignored: a warm-up that stalled (a suspend that never came) must not keep this process
 * from ever saying it is ready.
 */
const WARM_UP_MS = 5_000
const warmUp = (): Effect.Effect<void> => {
  const tool = (answer: Effect.Effect<unknown>): Array<ToolBinding> => [
    { path: "warm", description: "warm-up", input: { type: "object" }, output: undefined, mode: "idempotent", call: () => answer },
  ]
  const runId = "warm-up"
  return Effect.gen(function* () {
    const started = yield* executor.program({ runId, code: "(await tools.warm({})) + 1", limits: {}, tools: tool(Effect.never), namespaces: [] })
    const fiber = yield* Effect.forkChild(started.run)
    yield* Effect.yieldNow
    yield* started.suspend
    const outcome = yield* Fiber.join(fiber)
    if (outcome.ok !== "suspended") return
    const resumed = yield* executor.resume({ runId, state: outcome.state, tools: tool(Effect.succeed(1)), namespaces: [] })
    yield* resumed.run
  }).pipe(Effect.timeoutOption(WARM_UP_MS), Effect.catchCause(() => Effect.void))
}

process.on("message", receive)
await Effect.runPromise(warmUp())
send({ type: "ready" })
