/**
 * Host calls of a run: each admitted call runs in its own detached fiber, and the loop (run.ts) tracks its state,
 * because suspending a VM run depends on it (spec "Idempotent and durable tools, and safe
 * suspension"):
 *
 * - a plain tool is `running` until it settles, and blocks a suspend meanwhile;
 * - a `Tool.idempotent` tool is `running` too, but a suspend detaches and interrupts it (no `tool.after`) and
 *   saves it as `queued`: it runs again on resume, with the same key, admitted once;
 * - a `Tool.durable` tool is `starting` while `start` runs (blocking a suspend), then `started` with its JSON data,
 *   and `wait(data)` is called at once, whatever the program does with the call's promise. A suspend detaches it
 *   (no `cancel`); a resume calls `wait(data)` again right away; interrupting or ending the run for real interrupts
 *   `wait` and calls `cancel(data)`.
 *
 * `before` runs once per execution of a call: again when an idempotent call is re-run after a resume, not when a
 * durable call reconnects through `wait` (it already passed). `after` runs once, when the call really ends.
 */
import * as Effect from "effect/Effect"
import { DataError, hostToData, toData, type DataValue } from "./data.ts"
import { dispatchTool, type CallOutcome, type DispatchOptions } from "./dispatch.ts"
import { failure } from "./host-failure.ts"
import { callHost } from "./returned.ts"
import { executeKind, type ExecuteKind } from "./tool.ts"
import type { BlockingCall } from "./suspend-error.ts"
import type { Hooks } from "./hooks.ts"
import type { CallEntry, LoopEvent, OutcomeEvent } from "./run-state.ts"
import type { ToolEntry } from "./tree.ts"
import type { Mailbox } from "./mailbox.ts"

/** What starting a call needs of its runtime. */
export interface CallHost {
  readonly hooks: Hooks | undefined
  /** The tool a call's path (`tools.orders.lookup`) names. */
  readonly toolAt: (expression: string) => ToolEntry | undefined
}

type Durable = Extract<ExecuteKind, { _tag: "Durable" }>

/** `wait(data)`; interrupted for real, `cancel(data)` — but not when a suspend detached the call. */
const waitFor = (
  entry: CallEntry,
  kind: Durable,
  data: DataValue,
  key: string,
  restore: <A, E, R>(e: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>,
): Effect.Effect<unknown, unknown, unknown> =>
  restore(callHost(() => kind.wait(data, { key }))).pipe(
    Effect.onInterrupt(() => {
      const cancel = kind.cancel
      return entry.detached || cancel === undefined ? Effect.void : Effect.ignore(callHost(() => cancel(data)))
    }),
  )

/** A fresh durable call: `start`, its data saved in the entry, then `wait`. */
const startDurable =
  (entry: CallEntry, kind: Durable) =>
  (input: unknown, key: string): Effect.Effect<unknown, unknown, unknown> =>
    Effect.uninterruptibleMask((restore) =>
      Effect.gen(function* () {
        entry.state = "starting"
        const raw = yield* restore(callHost(() => kind.start(input, { key })))
        let data: DataValue
        try {
          data = hostToData(raw) ?? null
        } catch (e) {
          if (!(e instanceof DataError)) throw e
          return yield* Effect.fail(new Error(`start returned data that is not JSON: ${e.message}`))
        }
        entry.state = "started"
        entry.data = data
        return yield* waitFor(entry, kind, data, key, restore)
      }),
    )

/** What the call would run: the dispatch of its tool, as this engine adapts it. */
const callEffect = (ctx: CallHost, entry: CallEntry): Effect.Effect<CallOutcome, never, unknown> => {
  const path = entry.request.path
  const tool = ctx.toolAt(path)
  if (tool === undefined) {
    entry.idempotent = true
    entry.state = "running"
    return Effect.succeed({ ok: false, failure: failure("UnknownTool", `${path} is not a tool`, { path }) })
  }
  // The argument is the sandbox copy the tool function made at call time: plain data (a restored state's too: its
  // calls' arguments are checked to be sandbox values), so this fails only on data too deep or cyclic.
  let input: DataValue | undefined
  try {
    input = toData(entry.request.args[0])
  } catch (e) {
    if (!(e instanceof DataError)) throw e
    entry.idempotent = true
    entry.state = "running"
    return Effect.succeed({ ok: false, failure: failure("InvalidToolInput", `Invalid input for ${path}: ${e.message}`, { path, errorType: "TypeError" }) })
  }
  const kind = executeKind(tool.tool.execute)
  const skipAfter = () => entry.detached
  if (kind._tag === "Durable") {
    if (entry.state === "started") {
      // A resumed run reconnects to the work through `wait`: the input was decoded and `before` ran already.
      const decode = tool.tool.preparedInput.decode
      return Effect.gen(function* () {
        const decodedInput = decode === undefined ? input : yield* decode(input).pipe(Effect.orElseSucceed(() => input))
        const options: DispatchOptions = {
          resumed: { decodedInput },
          execute: (_input, key) => Effect.uninterruptibleMask((restore) => waitFor(entry, kind, entry.data ?? null, key, restore)),
          skipAfter,
        }
        return yield* dispatchTool(tool, ctx.hooks, input, entry.key, options)
      })
    }
    entry.state = "starting"
    return dispatchTool(tool, ctx.hooks, input, entry.key, { execute: startDurable(entry, kind), skipAfter })
  }
  entry.idempotent = kind._tag === "Idempotent"
  entry.state = "running"
  return dispatchTool(tool, ctx.hooks, input, entry.key, { skipAfter })
}

/**
 * Forks the call; its outcome arrives on `events`. `extension` is the work of an extension's asynchronous call
 * (sandbox-extensions.ts): it runs as it is, and blocks a suspend until it settles.
 */
export const startCall = (
  ctx: CallHost,
  entry: CallEntry,
  events: Mailbox<LoopEvent>,
  extension?: Effect.Effect<CallOutcome, never, unknown>,
): Effect.Effect<void, never, unknown> =>
  Effect.gen(function* () {
    if (extension !== undefined) entry.state = "running"
    const fiber = yield* Effect.forkDetach(
      (extension ?? callEffect(ctx, entry)).pipe(
        Effect.map((outcome) => events.offer({ _tag: "outcome", callId: entry.callId, outcome } satisfies OutcomeEvent)),
        Effect.asVoid,
      ),
      { startImmediately: true },
    )
    entry.fiber = fiber
  })

/** The calls a suspend must refuse to interrupt: plain tools and extension calls running, durable tools in `start`. */
export const blockingCalls = (entries: Iterable<CallEntry>): BlockingCall[] => {
  const out: BlockingCall[] = []
  for (const e of entries) {
    if ((e.state === "running" && !e.idempotent) || e.state === "starting") out.push({ key: e.key, path: e.request.path })
  }
  return out
}
