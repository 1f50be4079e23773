/**
 * Abrupt completions as host exceptions. A `ThrowCompletion` carries a sandbox value and is what sandbox `try/catch`
 * catches. A `Termination` ends the run (timeout, cancellation, exhausted budget): no sandbox code can catch it,
 * which is what makes limits hold against `try { while (true) {} } catch {}`. Any other host exception escaping
 * the runtime is an engine bug. Neither class extends Error: capturing a host stack on every sandbox throw is costly.
 */
import type { Value } from "./value.ts"

/** https://tc39.es/ecma262/#sec-completion-record-specification-type ([[Type]]: throw) */
export class ThrowCompletion {
  readonly value: Value
  constructor(value: Value) {
    this.value = value
  }
}

export type TerminationReason =
  | { readonly kind: "TimeoutExceeded" }
  | { readonly kind: "Interrupted" }
  | { readonly kind: "Suspended" }
  | { readonly kind: "ToolCallLimitExceeded"; readonly message: string }
  | { readonly kind: "InvalidDataValue"; readonly message: string }
  | { readonly kind: "ExecutionFailure"; readonly message: string }

export class Termination {
  readonly reason: TerminationReason
  constructor(reason: TerminationReason) {
    this.reason = reason
  }
}

export const isThrowCompletion = (e: unknown): e is ThrowCompletion => e instanceof ThrowCompletion

export type ErrorType = "Error" | "TypeError" | "RangeError" | "ReferenceError" | "SyntaxError" | "EvalError" | "URIError"

/**
 * A throw of a new sandbox error, raised by runtime code that has no realm at hand (object internals, caps).
 * Engines turn it into a `ThrowCompletion` holding an error object of their realm at the point they catch it,
 * before any sandbox `catch` sees it, so it behaves exactly like `throw new TypeError(message)`.
 */
export class SandboxError {
  readonly type: ErrorType
  readonly message: string
  constructor(type: ErrorType, message: string) {
    this.type = type
    this.message = message
  }
}

export const throwTypeError = (message: string): never => {
  throw new SandboxError("TypeError", message)
}
export const throwRangeError = (message: string): never => {
  throw new SandboxError("RangeError", message)
}
export const throwReferenceError = (message: string): never => {
  throw new SandboxError("ReferenceError", message)
}
