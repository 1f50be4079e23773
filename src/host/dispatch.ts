/**
 * One tool call, host side: decode the copied input, run `tool.before`, run `execute`, decode and copy the
 * output, run `tool.after`, and say how the call ended as plain data (`CallOutcome`). The Effect never fails: every
 * failure is an outcome, classified once here (host-failure.ts decides what the program may read):
 *
 * | what happened                                  | kind               |
 * | ---------------------------------------------- | ------------------ |
 * | input does not decode                          | InvalidToolInput   |
 * | `before` fails                                 | ToolFailure        |
 * | `execute` fails, dies, throws or rejects       | ToolFailure        |
 * | output does not decode, or cannot be copied    | InvalidToolOutput  |
 * | `after` fails                                  | ToolFailure        |
 * | the tool interrupted itself                    | (interrupted)      |
 *
 * An outcome is host data; the run loop turns it into sandbox values when it delivers it.
 */
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { DataError, hostToData, type DataValue } from "./data.ts"
import { failure, toolFailure, type HostFailure } from "./host-failure.ts"
import type { Hooks, ToolHookCall, ToolHookOutcome } from "./hooks.ts"
import { callHost } from "./returned.ts"
import { acceptsNoArgument } from "./signature.ts"
import type { ToolEntry } from "./tree.ts"

/** How a host call ended, as data. */
export type CallOutcome =
  | { readonly ok: true; readonly value: DataValue | undefined }
  | { readonly ok: false; readonly failure: HostFailure }
  /** The call interrupted itself: interruption propagates to the run. */
  | { readonly ok: "interrupted" }
  /** An extension function returned (`value`) or threw (`thrown`) this, in wire form (extension-values.ts). */
  | { readonly ok: "returned"; readonly value: DataValue }
  | { readonly ok: "threw"; readonly value: DataValue }

/** A failed step: the failure to report, and the error `after` is told about. */
class Failed {
  readonly failure: HostFailure
  readonly error: unknown
  constructor(failure: HostFailure, error: unknown) {
    this.failure = failure
    this.error = error
  }
}

const interrupted: CallOutcome = { ok: "interrupted" }

/**
 * How the VM's run loop adapts a call (host/calls.ts): run something else than `tool.execute` (a durable tool's
 * `start` then `wait`), skip decoding and `before` (a durable call reconnected after a resume already passed them),
 * and leave `after` out when the call was detached by a suspend (spec: "without firing `tool.after`").
 */
export interface DispatchOptions {
  readonly execute?: (input: unknown, key: string) => Effect.Effect<unknown, unknown, unknown>
  /** The input was decoded and `before` ran in an earlier incarnation of the run: start at `execute`. */
  readonly resumed?: { readonly decodedInput: unknown }
  readonly skipAfter?: () => boolean
}

export const dispatchTool = (
  entry: ToolEntry,
  hooks: Hooks | undefined,
  input: DataValue | undefined,
  key: string,
  options: DispatchOptions = {},
): Effect.Effect<CallOutcome, never, unknown> => {
  const { tool, expression } = entry
  const before = hooks?.tool?.before
  const after = hooks?.tool?.after
  const execute = options.execute ?? ((input: unknown, key: string) => callHost(() => tool.execute(input, { key })))
  if (options.resumed !== undefined) {
    const call: ToolHookCall = { name: entry.path, input: options.resumed.decodedInput, key }
    return runAndAfter(entry, call, execute, after, options.skipAfter)
  }
  return Effect.gen(function* () {
    // 1. Input: decoded with the tool's schema (a JSON Schema lets it through). A call without an argument to a tool
    // whose input is an object with nothing required passes `{}`, as its signature (`input?: {...}`) promises.
    const given = input === undefined && acceptsNoArgument(tool.preparedInput.jsonSchema) ? {} : input
    const decodeInput = tool.preparedInput.decode
    const decodedInput = decodeInput === undefined ? Exit.succeed(given as unknown) : yield* Effect.exit(decodeInput(given))
    if (Exit.isFailure(decodedInput)) {
      if (Cause.hasInterruptsOnly(decodedInput.cause)) return interrupted
      const reason = Cause.findErrorOption(decodedInput.cause)
      if (reason._tag === "None") return { ok: false, failure: toolFailure(expression, decodedInput.cause) } as const
      const message = `Invalid input for ${expression}: ${String(reason.value)}`
      return { ok: false, failure: failure("InvalidToolInput", message, { path: expression, errorType: "TypeError" }) } as const
    }
    const call: ToolHookCall = { name: entry.path, input: decodedInput.value, key }

    // 2. before: a failure denies the call.
    if (before !== undefined) {
      const allowed = yield* Effect.exit(callHost(() => before(call)))
      if (Exit.isFailure(allowed)) {
        if (Cause.hasInterruptsOnly(allowed.cause)) return interrupted
        return { ok: false, failure: toolFailure(expression, allowed.cause, "was denied") } as const
      }
    }

    // 3. execute, output, after.
    return yield* runAndAfter(entry, call, execute, after, options.skipAfter)
  })
}

/** `execute` and its output, then `after` — which runs whatever happens, uninterruptibly (unless skipped). */
const runAndAfter = (
  entry: ToolEntry,
  call: ToolHookCall,
  execute: (input: unknown, key: string) => Effect.Effect<unknown, unknown, unknown>,
  after: ((call: ToolHookCall, outcome: ToolHookOutcome) => unknown) | undefined,
  skipAfter: (() => boolean) | undefined,
): Effect.Effect<CallOutcome, never, unknown> =>
  Effect.uninterruptibleMask((restore) =>
    Effect.gen(function* () {
      const { expression } = entry
      const exit = yield* Effect.exit(restore(runTool(entry, call.input, call.key, execute)))
      const outcome = toHookOutcome(exit)
      const final: CallOutcome = Exit.isSuccess(exit)
        ? { ok: true, value: exit.value.data }
        : outcome._tag === "interrupted"
          ? interrupted
          : { ok: false, failure: failureOf(expression, exit.cause) }
      if (after === undefined || skipAfter?.() === true) return final
      const afterExit = yield* Effect.exit(callHost(() => after(call, outcome)))
      if (Exit.isFailure(afterExit) && !Cause.hasInterruptsOnly(afterExit.cause)) {
        return { ok: false, failure: toolFailure(expression, afterExit.cause) } as const
      }
      return final
    }),
  )

/** `execute`, then the output decoded and copied. Fails with `Failed` for invalid output, the tool's error otherwise. */
const runTool = (
  entry: ToolEntry,
  input: unknown,
  key: string,
  execute: (input: unknown, key: string) => Effect.Effect<unknown, unknown, unknown>,
): Effect.Effect<{ readonly value: unknown; readonly data: DataValue | undefined }, unknown, unknown> =>
  Effect.gen(function* () {
    const { tool, expression } = entry
    const raw = yield* execute(input, key)
    const output = tool.preparedOutput
    // Without an output schema the tool returns nothing to the program (its signature says Promise<void>).
    if (output === undefined) return { value: raw, data: undefined }
    const invalid = (detail: string) => {
      const message = `${expression} returned an invalid output`
      return new Failed(failure("InvalidToolOutput", message, { path: expression, detail: `${message}: ${detail}` }), new Error(detail))
    }
    const decoded = output.decode === undefined ? raw : yield* output.decode(raw).pipe(Effect.mapError(invalid))
    try {
      return { value: decoded, data: hostToData(decoded) }
    } catch (e) {
      if (e instanceof DataError) return yield* Effect.fail(invalid(e.message))
      throw e
    }
  })

const toHookOutcome = (exit: Exit.Exit<{ readonly value: unknown }, unknown>): ToolHookOutcome => {
  if (Exit.isSuccess(exit)) return { _tag: "success", value: exit.value.value }
  if (Cause.hasInterruptsOnly(exit.cause)) return { _tag: "interrupted" }
  const error = Cause.squash(exit.cause)
  return { _tag: "failure", error: error instanceof Failed ? error.error : error }
}

const failureOf = (expression: string, cause: Cause.Cause<unknown>): HostFailure => {
  const error = Cause.squash(cause)
  return error instanceof Failed ? error.failure : toolFailure(expression, cause)
}
