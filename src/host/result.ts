/**
 * The Result of a run (spec "Results"): a JSON-safe value or an error diagnostic, plus warnings, logs, the
 * truncation flag and the admitted tool calls in order. Optional fields are omitted when empty, so a plain
 * success is `{ ok: true, value, toolCalls: [] }`.
 */
import type { DataValue } from "./data.ts"
import type { Diagnostic } from "./diagnostic.ts"

/**
 * An admitted call: its path as the program wrote it (`tools.orders.lookup`, or `search`) and its key
 * `<runId>:<callId>`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ToolCall {
  readonly path: string
  readonly key: string
}

/**
 * What every execution returns (spec "Results").
 *
 * @since 0.1.0
 * @category models
 */
export type Result =
  | {
      readonly ok: true
      readonly value: DataValue
      readonly warnings?: ReadonlyArray<Diagnostic>
      readonly logs?: ReadonlyArray<string>
      readonly truncated?: boolean
      readonly toolCalls: ReadonlyArray<ToolCall>
    }
  | {
      readonly ok: false
      readonly error: Diagnostic
      readonly logs?: ReadonlyArray<string>
      readonly truncated?: boolean
      readonly toolCalls: ReadonlyArray<ToolCall>
    }

export interface ResultParts {
  readonly logs: ReadonlyArray<string>
  readonly warnings: ReadonlyArray<Diagnostic>
  readonly toolCalls: ReadonlyArray<ToolCall>
  readonly truncated: boolean
}

export const succeed = (value: DataValue, parts: ResultParts): Result => ({
  ok: true,
  value,
  ...(parts.warnings.length > 0 ? { warnings: parts.warnings } : {}),
  ...(parts.logs.length > 0 ? { logs: parts.logs } : {}),
  ...(parts.truncated ? { truncated: true } : {}),
  toolCalls: parts.toolCalls,
})

export const fail = (error: Diagnostic, parts: ResultParts): Result => ({
  ok: false,
  error,
  ...(parts.logs.length > 0 ? { logs: parts.logs } : {}),
  ...(parts.truncated ? { truncated: true } : {}),
  toolCalls: parts.toolCalls,
})
