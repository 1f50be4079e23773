/**
 * The front end's failure vocabulary. Passes report a `Problem` positioned by an offset into the text they saw (the
 * user's source, or its type-stripped copy, which has the same length and line breaks); `checkProgram` turns the
 * first problem into the public `FrontEndDiagnostic` with a line:column only once, through the line map, so no pass
 * computes positions on its own.
 */
import type { SourceLocation } from "./line-map.ts"

export type FrontEndDiagnosticKind = "ParseError" | "UnsupportedSyntax"

export type FrontEndDiagnostic = {
  readonly kind: FrontEndDiagnosticKind
  readonly message: string
  readonly location?: SourceLocation
}

export interface Problem {
  readonly kind: FrontEndDiagnosticKind
  readonly message: string
  /** Offset into the checked text; absent when nothing in the source can be pointed at. */
  readonly offset?: number
}

export const parseError = (message: string, offset?: number): Problem =>
  offset === undefined ? { kind: "ParseError", message } : { kind: "ParseError", message, offset }

export const unsupported = (message: string, offset?: number): Problem =>
  offset === undefined ? { kind: "UnsupportedSyntax", message } : { kind: "UnsupportedSyntax", message, offset }

/** The problem earliest in the source, so independent passes report what a reader meets first. */
export function firstProblem(...problems: ReadonlyArray<Problem | undefined>): Problem | undefined {
  let first: Problem | undefined
  for (const problem of problems) {
    if (problem === undefined) continue
    if (first === undefined || (problem.offset ?? Infinity) < (first.offset ?? Infinity)) first = problem
  }
  return first
}
