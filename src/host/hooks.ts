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
 * - `extension.before(call)` and `extension.after(call, outcome)` surround every call of an extension's function
 *   (sandbox-extensions.ts), with `{ extension, name, args }`: the extension's name, the function's path (`fetch`,
 *   `fs.promises.readFile`, `fetch().text` for a function inside what `fetch` returned) and the arguments as the
 *   function receives them (host copies). A failing `before` denies the call: the function is never called, and
 *   the call fails as it would — an asynchronous function's promise rejects, a synchronous one throws. A
 *   `ToolError`'s message reaches the program; any other failure reads "<name> was denied". `after` receives how
 *   the call ended, and an `after` that fails makes the call fail ("<name> failed"). The hooks of a synchronous
 *   call run synchronously: one that does not complete at once (a Promise, an asynchronous Effect) fails the call.
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
 * What an extension hook learns about a call.
 *
 * @since 0.1.0
 * @category models
 */
export interface ExtensionHookCall {
  /** The extension's name. */
  readonly extension: string
  /** The function's path: `fetch`, `fs.promises.readFile`, `fetch().text`. */
  readonly name: string
  /** The arguments, as the function receives them. */
  readonly args: ReadonlyArray<unknown>
}

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
  readonly extension?: {
    readonly before?: (call: ExtensionHookCall) => unknown
    readonly after?: (call: ExtensionHookCall, outcome: ToolHookOutcome) => unknown
  }
}

/** The services the Effects of one kind of hooks (`tool`, `extension`) require. */
type PairServices<T> = T extends { readonly before?: infer B; readonly after?: infer A }
  ? (B extends (...args: any) => infer Ret ? ServicesOf<Ret> : never) | (A extends (...args: any) => infer Ret ? ServicesOf<Ret> : never)
  : never

/** The services the hooks' Effects require. */
export type HookServices<H> =
  | (H extends { readonly tool?: infer T } ? PairServices<T> : never)
  | (H extends { readonly extension?: infer X } ? PairServices<X> : never)
