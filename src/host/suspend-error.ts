/**
 * `SuspendError`: a suspend that was refused, leaving the run untouched (spec "Idempotent and durable tools, and
 * safe suspension"). `Blocked` names every host call that cannot be interrupted and repeated — a plain tool, a
 * durable tool still in `start`, `search` or an extension call — by its key and path; `TooLarge` and
 * `Unserializable` are states that could not be saved within `maxBytes`, or at all.
 */

/**
 * A call that keeps a run from being suspended.
 *
 * @since 0.1.0
 * @category models
 */
export interface BlockingCall {
  /** `<runId>:<callId>`. */
  readonly key: string
  /** The call's path as the program wrote it: `tools.orders.lookup`, `search`, `fetch`. */
  readonly path: string
}

/**
 * @since 0.1.0
 * @category errors
 */
export class SuspendError extends Error {
  readonly _tag = "SuspendError"
  readonly reason: "Blocked" | "TooLarge" | "Unserializable"
  /** The calls in `running` that blocked the suspend (empty for the other reasons). */
  readonly calls: ReadonlyArray<BlockingCall>
  constructor(reason: SuspendError["reason"], message: string, calls: ReadonlyArray<BlockingCall> = []) {
    super(message)
    this.name = "SuspendError"
    this.reason = reason
    this.calls = calls
  }

  static blocked(calls: ReadonlyArray<BlockingCall>): SuspendError {
    const list = calls.map((c) => `${c.path} (${c.key})`).join(", ")
    return new SuspendError("Blocked", `The run cannot be suspended while these calls are running: ${list}`, calls)
  }
}
