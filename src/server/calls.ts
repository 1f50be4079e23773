/**
 * How a run's tool calls reach their webhooks, and the journal that makes them safe to replay.
 *
 * Every call is recorded in `calls` under its key `<runId>:<callId>` (state running → settled; a durable call
 * running → started → settled). A run that continues from an earlier incarnation — resumed, or taken over from a
 * dead replica at its last checkpoint — issues again, with the same keys, the calls made after the state it
 * continues from. Those are answered from the journal instead of the webhook (after DBOS and Restate): a settled
 * call gives its recorded outcome, a started durable call its recorded data (no second `start`), and only an
 * idempotent call still in flight is sent again. A replayed call whose tool or input differ from the record means
 * the program did not take the same path (it read the clock, say): the run is failed rather than given another
 * call's answer.
 *
 * The tracker (`RunCalls`) hears when calls begin and end, so the run can checkpoint at each call boundary and be
 * suspended once it only waits on started durable calls.
 */
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as PubSub from "effect/PubSub"
import type * as Scope from "effect/Scope"
import type * as SqlError from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"
import { canonical } from "./canonical.ts"
import type { ServerConfigShape } from "./config.ts"
import type { CallContext, ToolBinding } from "./executor.ts"
import { storable } from "./json-guard.ts"
import { hashKey } from "./keys.ts"
import type { Metrics } from "./metrics.ts"
import type { Notifications } from "./notifications.ts"
import type { CallStore, JournalEntry, NewCall, RecordedCalls, SettledCall } from "./store/calls.ts"
import { sqlMessage } from "./store/errors.ts"
import type { Registrations, ToolRow } from "./store/tools.ts"
import type { WebhookError, Webhooks } from "./webhooks.ts"

/** What a run learns about its calls as they happen. */
export interface RunCalls {
  readonly runId: string
  /** The run continues an earlier incarnation: its calls may already be in the journal. */
  readonly replay: boolean
  /** What of its journal the run's claim read already (a key it lacks is not recorded); undefined: none. */
  readonly recorded: RecordedCalls | undefined
  /** A call that blocks suspending (a plain or idempotent call, a durable `start`) began or ended. */
  readonly busy: (delta: 1 | -1) => Effect.Effect<void>
  /**
   * Records a call's start (CallStore.started) after the outcomes and lines left to write, with the run's own row
   * when the store does not know the run yet: false when the run is not this replica's.
   */
  readonly started: (call: NewCall) => Effect.Effect<boolean, SqlError.SqlError>
  /** A started durable call began or stopped waiting for its completion. */
  readonly waiting: (key: string, on: boolean) => Effect.Effect<void>
  /**
   * Writes the outcomes left to record (`settleLater`), then the lines the run logged so far: a call's events follow
   * the lines logged before it, as in the program.
   */
  readonly flushLogs: Effect.Effect<void>
  /**
   * Keeps an outcome the program gets at once to record with whatever the run writes next — its next call or lines,
   * its suspend, its end (in the same statement) — or with the next log flush at the latest; then comes the call's
   * boundary.
   */
  readonly settleLater: (call: SettledCall) => Effect.Effect<void>
  /**
   * A call boundary worth a checkpoint: a call's outcome or a durable call's data was recorded, or (`now`) an
   * idempotent call is about to be sent, whose state with the call in flight its outcome must not overtake.
   */
  readonly boundary: (now: boolean) => Effect.Effect<void>
  /** The run cannot go on safely (its replay diverged from the journal): it is failed with `message`. */
  readonly fault: (message: string) => Effect.Effect<never>
  /**
   * A call's start found the run no longer this replica's (its lease was taken, or its claim undone): it stops here
   * as a run whose lease renewal left it out does, writing nothing.
   */
  readonly taken: Effect.Effect<never>
  /** Another replica took the run over: its calls are that replica's now, and nothing here may cancel them. */
  readonly lost: () => boolean
}

export interface CallDeps {
  readonly config: ServerConfigShape
  readonly store: CallStore["Service"]
  readonly webhooks: Webhooks["Service"]
  readonly notifications: Notifications["Service"]
  readonly metrics: Metrics["Service"]
}

type StoredOutcome = { readonly ok: boolean; readonly output?: unknown; readonly error?: { readonly message?: string } }

/**
 * How long the new attempt of a call sent again waits to be recorded on its own: one that answers sooner is
 * recorded with its outcome. Only how soon its `call.started` event shows depends on it.
 */
const ATTEMPT_GRACE_MS = 50

/** Runs `begin`, then the effect, then `end` however it ends. */
const during =
  (begin: Effect.Effect<void>, end: Effect.Effect<void>) =>
  <A, E>(self: Effect.Effect<A, E>): Effect.Effect<A, E> =>
    begin.pipe(Effect.andThen(self), Effect.ensuring(end))

const outcomeOf = (tool: ToolRow, stored: unknown): Effect.Effect<unknown, Error> => {
  const o = stored as StoredOutcome | null
  if (o?.ok === true) return Effect.succeed(o.output ?? null)
  const message = o?.error?.message ?? "no message"
  return Effect.fail(new Error(tool.mode === "durable" ? `Durable tool ${tool.path} failed: ${message}` : message))
}

/** An idempotent call sent again while its run's state is restored (`resend`), until the program makes it. */
interface Resent {
  readonly input: unknown
  readonly fiber: Fiber.Fiber<unknown, WebhookError>
}

// One closure (longer than most): the three kinds of call share the record, replay and settle steps above them.
export const makeCalls = (deps: CallDeps) => {
  const { config, store, webhooks, notifications, metrics } = deps
  /** By call key (which names its run): the calls `resend` sent that no program has taken yet. */
  const resent = new Map<string, Resent>()

  /**
   * Call bookkeeping never fails a call: the webhook's answer matters more than its record. `write` (the store's
   * `started` or `settled`) announces its events to the run's event streams, on any replica.
   */
  const record = (runId: string, write: Effect.Effect<unknown, SqlError.SqlError>) =>
    write.pipe(
      Effect.andThen(notifications.sentWith({ type: "events", runId })),
      Effect.catch((e) => Effect.logWarning("could not record a tool call", e)),
    )

  /**
   * The record a call needs before its webhook is sent: without it a replica taking the run over would send a
   * plain call again, and a durable call could never be completed. When it cannot be written (the store already
   * tried again), the call fails unsent. `RunCalls.started` announces its event, and records nothing once the run is
   * not this replica's: the run then stops unsent (`taken`) rather than failing the call, as the program going on
   * would do in a run whose calls, state and end are now another execution's.
   */
  const recordFirst = (run: RunCalls, tool: ToolRow, call: NewCall) =>
    run.started(call).pipe(
      Effect.catch((e) =>
        Effect.logWarning("could not record a tool call; it is not sent", e).pipe(
          Effect.andThen(Effect.fail(new Error(`The call to ${tool.path} was not sent: the service could not record it (${sqlMessage(e)})`))),
        ),
      ),
      Effect.flatMap((recorded) => (recorded ? notifications.sentWith({ type: "events", runId: run.runId }) : run.taken)),
    )

  /** The recorded call with this key, checked against the call being made now. */
  const replayed = Effect.fnUntraced(function* (run: RunCalls, tool: ToolRow, key: string, input: unknown) {
    if (!run.replay) return undefined
    const known = run.recorded === undefined ? null : run.recorded.get(key)
    const prior: JournalEntry | undefined = known !== null ? known : yield* store.journal(run.runId, key).pipe(Effect.orDie)
    if (prior === undefined) return undefined
    // The journal holds the input as Postgres could store it (json-guard.ts `storable`).
    if (prior.path !== tool.path || canonical(prior.input ?? null) !== canonical(storable(input ?? null))) {
      return yield* run.fault(
        `Run ${run.runId} did not take the same path when it continued: call ${key} was tools.${prior.path} with ` +
          `another input before, tools.${tool.path} now (a program that reads the clock or random numbers before ` +
          `a call cannot be replayed)`,
      )
    }
    return prior
  })

  /**
   * Records a call's outcome (and `attempt`, the call's new attempt, when not recorded yet: CallStore.settled). An
   * idempotent call's outcome reaches the program first, and is recorded with what the run writes next
   * (`settleLater`): a crash before that sends the call again, which it may. A run whose call answers just before it
   * ends records both in one statement.
   */
  const settle = (run: RunCalls, tool: ToolRow, key: string, outcome: StoredOutcome, attempt?: NewCall) =>
    Effect.sync(() => metrics.call(tool.mode, outcome.ok)).pipe(
      Effect.andThen(run.flushLogs),
      Effect.andThen(
        tool.mode === "idempotent"
          ? run.settleLater({ key, outcome, attempt })
          : record(run.runId, store.settled(run.runId, [{ key, outcome, attempt }])).pipe(Effect.andThen(run.boundary(false))),
      ),
    )

  /** A plain or idempotent call: one webhook request (idempotent ones retried on transient failures). */
  const call = (run: RunCalls, tool: ToolRow, input: unknown, context: CallContext): Effect.Effect<unknown, Error> =>
    callOnce(run, tool, input, context).pipe(during(run.busy(1), run.busy(-1)))

  /**
   * `call` without its busy bracket. Made once, as every generator function on a run's path: one made per call gets a
   * hidden class of its own, and the runtime's calls into its generators stop being monomorphic.
   */
  const callOnce = Effect.fnUntraced(function* (run: RunCalls, tool: ToolRow, input: unknown, { key, location }: CallContext) {
    const prior = yield* replayed(run, tool, key, input)
    if (prior?.state === "settled") return yield* outcomeOf(tool, prior.outcome)
    if (prior?.state === "running" && tool.mode !== "idempotent") {
      return yield* run.fault(`Call ${key} (tools.${tool.path}) was in progress when its replica stopped and cannot be repeated safely`)
    }
    const attempt: NewCall = { key, path: tool.path, mode: tool.mode, input, location }
    const started = store.started(run.runId, config.replicaId, attempt)
    // An idempotent call the journal has queued was in flight in the state this incarnation continued from, which
    // is kept already, and it is sent again after a crash whether the journal says queued or running: its new
    // attempt is recorded while it is sent, not before — after ATTEMPT_GRACE_MS, or with its outcome when that
    // comes first (a resume's call often answers at once, and the run then often ends: one statement for all three).
    // Sent already, it may go again: an attempt the store refuses (the run is not this replica's) changes nothing
    // here, and the next lease renewal stops the run.
    const again = tool.mode === "idempotent" && prior?.state === "queued"
    // The same call sent again while the state was restored (`resend`): its answer, when this is that call.
    const early = again ? resent.get(key) : undefined
    if (early !== undefined) resent.delete(key)
    const same = early !== undefined && canonical(early.input) === canonical(input ?? null)
    if (early !== undefined && !same) yield* Fiber.interrupt(early.fiber)
    // Its answer is in already (the state's restore outlasts most webhooks' round trip): the attempt is recorded with
    // it at once, with no fiber or timer set to record it alone.
    const answered = same && early.fiber.pollUnsafe() !== undefined
    let recordingBegan = false
    const recording = again && !answered
      ? yield* Effect.forkChild(
          Effect.sleep(ATTEMPT_GRACE_MS).pipe(
            Effect.andThen(
              Effect.uninterruptible(
                Effect.sync(() => void (recordingBegan = true)).pipe(Effect.andThen(run.flushLogs), Effect.andThen(record(run.runId, started))),
              ),
            ),
          ),
        )
      : undefined
    // The state before an idempotent call (in flight, saved as queued) is the one a fork answers that call from
    // differently. A plain call in flight refuses a checkpoint: it would be asked for in vain. Asked for before the
    // call is recorded, the state is taken while that round trip lasts, not once the webhook is under way, where it
    // kept the program from its answer; it is written later (background.ts HOLD_MS), when the run is recorded.
    if (tool.mode === "idempotent" && !again) yield* run.boundary(true)
    if (!again) yield* recordFirst(run, tool, attempt)
    // The attempt's record comes before its outcome's, or with it.
    const settleNow = (outcome: StoredOutcome) =>
      recording === undefined
        ? settle(run, tool, key, outcome, answered ? attempt : undefined)
        : Fiber.interrupt(recording).pipe(Effect.andThen(Effect.suspend(() => settle(run, tool, key, outcome, recordingBegan ? undefined : attempt))))
    const sent = same ? Fiber.join(early.fiber).pipe(Effect.onInterrupt(() => Fiber.interrupt(early.fiber))) : webhooks.call(tool, { key, runId: run.runId, input })
    return yield* sent.pipe(
      // An interrupted call (suspend, cancel) records nothing: it stays running, becomes queued on suspend.
      Effect.tap((output) => settleNow({ ok: true, output: output ?? null })),
      Effect.tapError((e) => settleNow({ ok: false, error: { kind: "ToolFailure", message: e.message } } as StoredOutcome)),
    )
  })

  /**
   * A durable call's `start`: POSTed once with a one-time callback URL; the reply's `data` is saved with the call
   * and its timeouts begin. A replayed start whose call was already accepted sends nothing.
   */
  const start = (run: RunCalls, tool: ToolRow, input: unknown, { key, location }: CallContext): Effect.Effect<void, Error> =>
    Effect.gen(function* () {
      const prior = yield* replayed(run, tool, key, input)
      if (prior?.state === "started" || prior?.state === "settled") return
      if (prior?.state === "running") {
        return yield* run.fault(`The start of durable call ${key} (tools.${tool.path}) was in progress when its replica stopped and cannot be repeated safely`)
      }
      const token = randomBytes(32).toString("base64url")
      yield* recordFirst(run, tool, { key, path: tool.path, mode: tool.mode, input, callbackHash: hashKey(token), location })
      const callbackUrl = `${config.publicUrl}/v1/callbacks/${token}`
      const data = yield* webhooks.start(tool, { key, runId: run.runId, input, callbackUrl }).pipe(
        Effect.tapError((e) => settle(run, tool, key, { ok: false, error: { kind: "ToolFailure", message: e.message } } as StoredOutcome)),
      )
      // Unrecorded, the call could not be completed, timed out or recovered: it fails here, and its job is cancelled.
      yield* store.accepted(run.runId, key, data, { timeoutMs: tool.timeoutMs, heartbeatTimeoutMs: tool.heartbeatTimeoutMs }).pipe(
        Effect.andThen(notifications.publish({ type: "events", runId: run.runId })),
        Effect.catch((e) => {
          const message = `Durable tool ${tool.path} started its job, but the service could not record it (${sqlMessage(e)}); the job was cancelled`
          return Effect.logWarning("could not record an accepted durable call", e).pipe(
            Effect.andThen(webhooks.cancel(tool, { key, data }).pipe(Effect.ignore)),
            Effect.andThen(settle(run, tool, key, { ok: false, error: { kind: "ToolFailure", message } } as StoredOutcome)),
            Effect.andThen(Effect.fail(new Error(message))),
          )
        }),
      )
      yield* run.boundary(false)
    }).pipe(during(run.busy(1), run.busy(-1)))

  /**
   * A fork of a state in which a durable call had started (the key is the forked run's) cannot wait for it: its job
   * belongs to that run, which alone is told when it completes. The fork must answer it (`outcomes`), or it fails.
   */
  const wait = (run: RunCalls, tool: ToolRow, key: string): Effect.Effect<unknown, Error> =>
    key.startsWith(`${run.runId}:`)
      ? awaitSettled(run, tool, key)
      : Effect.fail(
          new Error(`Durable call ${key} (tools.${tool.path}) was started by the run this one was forked from; a fork answers such a call with \`outcomes\``),
        )

  /** Waits until the call has settled (completed or timed out, on any replica): on every notice, and on a poll. */
  const awaitSettled = (run: RunCalls, tool: ToolRow, key: string): Effect.Effect<unknown, Error> =>
    Effect.scoped(
      Effect.gen(function* () {
        const subscription = yield* notifications.subscribe
        const noticeFor = Effect.gen(function* () {
          for (;;) if ((yield* PubSub.take(subscription)).runId === run.runId) return
        })
        for (;;) {
          const call = yield* store.outcome(run.runId, key).pipe(
            Effect.catch((e) => Effect.logWarning("could not read a durable call", e).pipe(Effect.as(undefined))),
          )
          if (call?.state === "settled") {
            metrics.call(tool.mode, (call.outcome as StoredOutcome | null)?.ok === true)
            return yield* outcomeOf(tool, call.outcome)
          }
          yield* Effect.raceFirst(noticeFor, Effect.sleep(config.pollMs))
        }
      }),
    ).pipe(during(run.waiting(key, true), run.waiting(key, false)))

  /** The run really ended while the call waited: the call is settled as cancelled and its tool told, once. */
  const cancel = (run: RunCalls, tool: ToolRow, key: string): Effect.Effect<void> =>
    Effect.suspend(() => (run.lost() ? Effect.succeed(undefined) : store.cancelled(run.runId, key))).pipe(
      Effect.tap(() => notifications.publish({ type: "events", runId: run.runId })),
      Effect.flatMap((settled) => (settled === undefined ? Effect.void : webhooks.cancel(tool, { key, data: settled.data }))),
      Effect.catch((e) => Effect.logWarning(`could not tell ${tool.path} that call ${key} was cancelled`, e)),
    )

  /**
   * Sends again, in `scope`, the idempotent calls a resumed run had in flight (queued in `recorded`, its journal as
   * its claim read it), while its state is restored in a child: the program makes each of them again first thing,
   * and then takes the answer already under way (`call`) instead of waiting a webhook round trip after its restore.
   * Each is sent by a fiber forked unstarted, which the scheduler starts on its next turn: after the launch that
   * follows has sent the state to its child (Child.launch), so the restore begins first (building and writing the
   * request took ~0.4 ms of the service's time before the state left) — unless the state is restored already
   * (`restored`: Executor.ahead), when the requests leave at once. Each is a retry, with the same key and
   * input, of a call that was sent, which an idempotent call allows; but only under a sealed row, and only to a tool
   * the run may still call idempotently. Answers the effect that interrupts those the program did not take (run it
   * when the run ends here), or undefined when none was sent.
   */
  const resend = (
    runId: string,
    registrations: Registrations,
    recorded: RecordedCalls | undefined,
    scope: Scope.Scope,
    restored: boolean,
  ): Effect.Effect<Effect.Effect<void> | undefined> =>
    Effect.suspend(() => {
      const again: Array<{ readonly key: string; readonly tool: ToolRow; readonly input: unknown }> = []
      for (const [key, entry] of recorded ?? []) {
        if (entry === null || entry.state !== "queued" || entry.mode !== "idempotent") continue
        const tool = registrations.tools.find((t) => t.path === entry.path)
        if (tool?.mode === "idempotent") again.push({ key, tool, input: entry.input ?? null })
      }
      if (again.length === 0) return Effect.succeed(undefined)
      const send = ({ key, tool, input }: (typeof again)[number]) =>
        Effect.forkIn(webhooks.call(tool, { key, runId, input }), scope, { startImmediately: restored }).pipe(Effect.map((fiber) => void resent.set(key, { input, fiber })))
      const untaken = Effect.forEach(
        again,
        ({ key }) =>
          Effect.suspend(() => {
            const left = resent.get(key)
            if (left === undefined) return Effect.void
            resent.delete(key)
            return Fiber.interrupt(left.fiber)
          }),
        { discard: true },
      )
      return Effect.as(Effect.forEach(again, send, { discard: true }), untaken)
    })

  /** The bindings the executor gets for a run. */
  const bindings = (run: RunCalls, registrations: Registrations): ReadonlyArray<ToolBinding> =>
    registrations.tools.map((tool): ToolBinding => {
      const shape = { path: tool.path, description: tool.description, input: tool.input, output: tool.output }
      if (tool.mode === "durable") {
        return {
          ...shape,
          mode: "durable",
          start: (input, context) => start(run, tool, input, context),
          wait: ({ key }) => wait(run, tool, key),
          cancel: ({ key }) => cancel(run, tool, key),
        }
      }
      return { ...shape, mode: tool.mode, call: (input, context) => call(run, tool, input, context) }
    })

  return { bindings, resend }
}
