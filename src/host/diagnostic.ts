/**
 * Diagnostics: the kinds of failure and warning a run reports (spec "Results"). A diagnostic is plain data —
 * kind, message, and where it applies a source location or the tool path — so it crosses JSON, HTTP and snapshots
 * unchanged.
 */
/** Every kind, in the order of the spec's table. */
export const DIAGNOSTIC_KINDS = [
  "ParseError",
  "UnsupportedSyntax",
  "UnknownTool",
  "InvalidToolInput",
  "InvalidToolOutput",
  "InvalidDataValue",
  "ToolCallLimitExceeded",
  "TimeoutExceeded",
  "ToolFailure",
  "ExecutionFailure",
  "Truncated",
] as const

/**
 * The kinds of the spec's table.
 *
 * @since 0.1.0
 * @category models
 */
export type DiagnosticKind = (typeof DIAGNOSTIC_KINDS)[number]

export interface SourceLocation {
  readonly line: number
  readonly column: number
}

/**
 * A failure or warning of a run, as plain data.
 *
 * @since 0.1.0
 * @category models
 */
export interface Diagnostic {
  readonly kind: DiagnosticKind
  readonly message: string
  readonly location?: SourceLocation
  /** The tool path, for diagnostics about a tool call. */
  readonly path?: string
}

export const diagnostic = (kind: DiagnosticKind, message: string, extra?: Omit<Diagnostic, "kind" | "message">): Diagnostic =>
  ({ kind, message, ...extra })
