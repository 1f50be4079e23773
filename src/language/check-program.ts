/**
 * The front end's one decision procedure: source text in, a checked AST or the first diagnostic out. It parses the
 * source as JavaScript first, so plain JavaScript keeps its exact meaning (`a < b > c` is two comparisons); only
 * when that fails does it try the source as TypeScript with the types erased. A parsed program is then scanned for
 * syntax codemode rejects on purpose and for the early errors meriyah misses, and the problem earliest in the source
 * wins. Positions are converted to line:column here, once, against the user's text.
 */
import type { ESTree } from "meriyah"
import { Caps } from "../runtime/caps.ts"
import { firstProblem, parseError, type FrontEndDiagnostic, type Problem } from "./diagnostics.ts"
import { findEarlyError } from "./early-errors.ts"
import { makeLineMap, type LineMap, type SourceLocation } from "./line-map.ts"
import { desugarModules, parseProgramBody, type ProgramBodyParse } from "./modules.ts"
import { stripTypes } from "./typescript.ts"
import { findUnsupportedSyntax } from "./unsupported.ts"

export interface CheckedProgram {
  /** A script Program whose body is the program's statements; every range indexes into `source`. */
  readonly ast: ESTree.Program
  /** The text the AST was parsed from: the user's source, or its type-stripped copy, of the same length. */
  readonly source: string
  /** The program begins with a "use strict" directive. */
  readonly strict: boolean
  /** Maps an AST offset to the user's 1-based line and column. */
  locate(offset: number): SourceLocation
}

export type CheckResult =
  | { readonly ok: true; readonly program: CheckedProgram }
  | { readonly ok: false; readonly diagnostic: FrontEndDiagnostic }

export function checkProgram(source: string): CheckResult {
  if (source.length > Caps.maxSourceLength) {
    return { ok: false, diagnostic: { kind: "ParseError", message: `Source is too long: ${source.length} characters, more than ${Caps.maxSourceLength}` } }
  }
  // A hashbang is only legal at the very start of a script, which the wrapper's prefix no longer is.
  const text = source.startsWith("#!") ? source.replace(/^#![^\n\r\u2028\u2029]*/, (line) => " ".repeat(line.length)) : source
  const lines = makeLineMap(text)
  const failure = (problem: Problem): CheckResult => ({ ok: false, diagnostic: toDiagnostic(problem, lines) })

  const javascript = parseProgramBody(text)
  let parsed: Extract<ProgramBodyParse, { ok: true }>
  let code = text
  if (javascript.ok) {
    if (javascript.body.length === 0 && javascript.imports.length === 0) return failure(parseError("Source is empty"))
    parsed = javascript
  } else {
    const stripped = stripTypes(text)
    if (!stripped.ok) {
      if (stripped.problem === undefined) return failure(javascript.problem)
      // The stripper gives no position; where the JavaScript parse stopped is the next best place to point.
      const { problem } = stripped
      return failure(problem.offset === undefined && javascript.problem.offset !== undefined ? { ...problem, offset: javascript.problem.offset } : problem)
    }
    // The stripper accepted the source as TypeScript, so the JavaScript error was about types; what the stripped
    // text gets wrong is the real problem.
    const typescript = parseProgramBody(stripped.code)
    if (!typescript.ok) return failure(typescript.problem)
    parsed = typescript
    code = stripped.code
  }

  let problem: Problem | undefined
  try {
    problem = firstProblem(findUnsupportedSyntax(parsed.body), findEarlyError(parsed.body, code))
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    problem = parseError("Source is nested too deeply to parse")
  }
  if (problem !== undefined) return failure(problem)
  desugarModules(parsed.body, parsed.imports)

  const end = lines.locate(code.length)
  const ast: ESTree.Program = {
    type: "Program",
    sourceType: "script",
    body: parsed.body,
    start: 0,
    end: code.length,
    range: [0, code.length],
    loc: { start: { line: 1, column: 0 }, end: { line: end.line, column: end.column - 1 } },
  }
  return { ok: true, program: { ast, source: code, strict: parsed.strict, locate: lines.locate } }
}

function toDiagnostic(problem: Problem, lines: LineMap): FrontEndDiagnostic {
  return problem.offset === undefined
    ? { kind: problem.kind, message: problem.message }
    : { kind: problem.kind, message: problem.message, location: lines.locate(problem.offset) }
}
