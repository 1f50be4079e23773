/**
 * Tool hooks (spec "CodeMode.execute and CodeMode.make": "hooks surround every call the program makes into the
 * host"). The contract, sentence by sentence (each has a test in test/host/hooks.test.ts):
 *
 * - `tool.before(call)` runs once for every admitted tool call, after its input has been copied and decoded and
 *   before `execute`, with `{ name, input, key }`: `name` is the tool's canonical path (`orders.lookup`, as in
 *   `runtime.catalog()`), `input` the decoded input, `key` the call's `<runId>:<callId>`.
 * - A `before` that fails (an Effect failure or defect, a throw, a rejected Promise) denies the call: `execute` is
 *   never called, `after` does not run, and the call's promise rejects with a `ToolFailure` error the program can
 *   catch. A `ToolError`'s message reaches the program; any other failure reads "<tool> was denied" and its cause
 *   goes to the diagnostics.
 * - `tool.after(call, outcome)` runs once for every call that passed `before`, when the call ends: `outcome` is
 *   `{ _tag: "success", value }` with the decoded output, `{ _tag: "failure", error }` with what the tool failed
 *   with (or an Error describing its invalid output), or `{ _tag: "interrupted" }` when the run ended, timed out
 *   or was interrupted while the call was in flight. It runs uninterruptibly.
 * - An `after` that fails turns the call into a `ToolFailure`, as if the tool had failed that way.
 * - Hooks may return an Effect (its requirements join the runtime's environment), a Promise or nothing.
 * - Calls that never reach the host — `search`, an unknown tool, input that cannot be copied or decoded, a call
 *   over `maxToolCalls` — fire no hook.
 */
import type { ServicesOf } from "./tool.ts"

/**
 * What a tool hook learns about a call.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolHookCall {
  /** The tool's canonical path, `orders.lookup`. */
  readonly name: string
  /** The decoded input. */
  readonly input: unknown
  /** `<runId>:<callId>`. */
  readonly key: string
}

/**
 * How a call ended, as `tool.after` receives it.
 *
 * @since 0.1.0
 * @category models
 */
export type ToolHookOutcome =
  | { readonly _tag: "success"; readonly value: unknown }
  | { readonly _tag: "failure"; readonly error: unknown }
  | { readonly _tag: "interrupted" }

/**
 * The `hooks` option.
 *
 * @since 0.1.0
 * @category models
 */
export interface Hooks {
  readonly tool?: {
    readonly before?: (call: ToolHookCall) => unknown
    readonly after?: (call: ToolHookCall, outcome: ToolHookOutcome) => unknown
  }
}

/** The services the hooks' Effects require. */
export type HookServices<H> = H extends { readonly tool?: infer T }
  ? T extends { readonly before?: infer B; readonly after?: infer A }
    ? (B extends (...args: any) => infer Ret ? ServicesOf<Ret> : never) | (A extends (...args: any) => infer Ret ? ServicesOf<Ret> : never)
    : never
  : never
