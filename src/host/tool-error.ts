/**
 * `ToolError`: how a tool refuses on purpose. Its `message` (and `data`, copied like tool output) is the one part
 * of a host failure that reaches the program — the program catches an `Error` with that message. Any other way a
 * tool fails (a typed failure of another kind, a defect, a rejected Promise, a thrown exception) is treated as a
 * host fault: the program sees only "<tool> failed", while the run's diagnostics (the Result, hooks) carry the
 * real message and cause. So a tool author decides explicitly what a model may read, and host internals — stack
 * traces, connection strings, SQL — never leak by accident.
 */
import * as Data from "effect/Data"

/**
 * A deliberate refusal whose message the program may see.
 *
 * @example
 * ```ts
 * execute: ({ id }) => id.startsWith("order_") ? Orders.get(id) : Effect.fail(new ToolError({ message: "Unknown order id" }))
 * ```
 *
 * @since 0.1.0
 * @category errors
 */
export class ToolError extends Data.TaggedError("ToolError")<{
  /** Shown to the program as the caught error's `message`. */
  readonly message: string
  /** Optional plain data, shown to the program as the caught error's `data`. */
  readonly data?: unknown
}> {}

export const isToolError = (u: unknown): u is ToolError =>
  u instanceof ToolError || (typeof u === "object" && u !== null && (u as { _tag?: unknown })._tag === "ToolError" && typeof (u as { message?: unknown }).message === "string")
