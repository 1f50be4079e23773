/**
 * Parses a program body with meriyah and hands back its statements as if the user's text had been parsed on its
 * own: it wraps the text (see wrapper.ts), checks that the user's text did not close the wrapper early, rebases every
 * node's `start`/`end`/`range`/`loc` onto the user's text, and reads the directive prologue for strictness. On
 * failure it turns meriyah's error into a Problem: module-only syntax becomes UnsupportedSyntax at its keyword,
 * errors meriyah reports inside the wrapper's suffix become "Unexpected end of input" at the end of the user's text,
 * and an invalid regular expression gets V8's own explanation instead of meriyah's generic "Unterminated". A
 * regular expression literal's `value` is set to null: meriyah puts a host RegExp there, and engines must build the
 * sandbox's own from `regex.pattern` and `regex.flags`. A function declaration that is the body of an `if` gets the
 * block Annex B.3.3 gives it.
 *
 * Options: `lexical` turns on meriyah's scope tracking (duplicate `let`, `let` vs `var`, undeclared `#x`); without
 * it those early errors go unreported. `webcompat` is Annex B (HTML comments, legacy octal, sloppy block functions),
 * as V8 does. `next` admits decorators, `accessor` fields and import phases, which V8 does not support; they are
 * parsed only so unsupported.ts can name them instead of failing with "Unexpected token: '@'".
 */
import { isParseError, parseScript, type ESTree, type Options } from "meriyah"
import { parseError, unsupported, type Problem } from "./diagnostics.ts"
import { PREFIX, wrap } from "./wrapper.ts"
import { forEachNode, type Node } from "./walk.ts"

export type Statement = ESTree.Program["body"][number]

export type BodyParse =
  | { readonly ok: true; readonly body: Statement[]; readonly strict: boolean }
  | { readonly ok: false; readonly problem: Problem }

const OPTIONS = {
  ranges: true,
  loc: true,
  raw: true,
  next: true,
  webcompat: true,
  lexical: true,
} as const satisfies Options

// meriyah's messages for syntax that belongs to modules; matched by text because its ParseError carries no code.
const IMPORT_IN_SCRIPT = "The import keyword can only be used with the module goal"
/** The problem of an import declaration, which language/modules.ts takes out of the text before parsing again. */
export const IMPORT_DECLARATION_UNSUPPORTED = "`import` declarations are not supported"
const EXPORT_IN_SCRIPT = "The export keyword can only be used with the module goal"
const IMPORT_META_IN_SCRIPT = 'Cannot use "import.meta" outside a module'
const INVALID_REGEXP = "Unterminated regular expression"

export function parseBody(text: string): BodyParse {
  const wrapped = wrap(text)
  let program: ESTree.Program
  try {
    program = parseScript(wrapped, OPTIONS)
  } catch (error) {
    if (isParseError(error)) return { ok: false, problem: describeParseError(error, text) }
    // meriyah recurses per nesting level; a hostile program can exhaust the host stack before it reports anything.
    if (error instanceof RangeError) return { ok: false, problem: parseError("Source is nested too deeply to parse") }
    // A parser bug must not take the host down with it; the message keeps it visible.
    return { ok: false, problem: parseError(`Internal parser error: ${error instanceof Error ? error.message : String(error)}`) }
  }
  const fn = wrapperFunction(program)
  // The body must end at the suffix's `}` (the last character is its `)`); otherwise the user's text closed the
  // wrapper (`}); (function () {`) and the rest parsed as code outside it.
  if (fn === undefined || fn.body == null || fn.body.end !== wrapped.length - 1) {
    return { ok: false, problem: parseError("Unexpected token: '}'", strayClosingBrace(tokensOf(text)) ?? text.length) }
  }
  const body: Statement[] = fn.body.body
  for (const statement of body) {
    forEachNode(statement, (node) => {
      rebase(node)
      dropHostRegExp(node)
      blockAroundIfFunction(node)
    })
  }
  return { ok: true, body, strict: hasUseStrictDirective(body) }
}

// meriyah validates a regular expression literal by building a host RegExp and leaves it as the Literal's value.
// A host object has no business in an AST that engines turn into sandbox values, so only `regex.pattern` and
// `regex.flags` are kept.
function dropHostRegExp(node: Node): void {
  if (node.type === "Literal" && "regex" in node) node.value = null
}

// Annex B.3.3 (sloppy code): `if (x) function f() {}` means `if (x) { function f() {} }`. Making the block real
// spares every later pass the special case. Called before the children are visited (and rebased): the block gets
// copies of the function's positions, rebased with it.
function blockAroundIfFunction(node: Node): void {
  if (node.type !== "IfStatement") return
  // OPTIONS has `ranges` and `loc` on: every node has its positions.
  const block = (f: ESTree.Statement): ESTree.Statement =>
    f.type !== "FunctionDeclaration"
      ? f
      : {
          type: "BlockStatement",
          body: [f],
          start: f.start!,
          end: f.end!,
          range: [f.range![0], f.range![1]],
          loc: { start: { ...f.loc!.start }, end: { ...f.loc!.end } },
        }
  node.consequent = block(node.consequent)
  if (node.alternate != null) node.alternate = block(node.alternate)
}

function wrapperFunction(program: ESTree.Program): ESTree.FunctionExpression | undefined {
  const [only, ...rest] = program.body
  if (only === undefined || rest.length > 0 || only.type !== "ExpressionStatement") return undefined
  return only.expression.type === "FunctionExpression" && only.expression.async ? only.expression : undefined
}

// Shifts a node from wrapped-text coordinates to user-text coordinates; meriyah's loc columns are 0-based, and only
// line 1 carries the prefix.
function rebase(node: Node): void {
  if (node.start !== undefined) node.start -= PREFIX.length
  if (node.end !== undefined) node.end -= PREFIX.length
  if (node.range !== undefined) {
    node.range[0] -= PREFIX.length
    node.range[1] -= PREFIX.length
  }
  if (node.loc != null) {
    if (node.loc.start.line === 1) node.loc.start.column -= PREFIX.length
    if (node.loc.end.line === 1) node.loc.end.column -= PREFIX.length
  }
}

function hasUseStrictDirective(body: ReadonlyArray<Statement>): boolean {
  for (const statement of body) {
    if (statement.type !== "ExpressionStatement" || statement.directive === undefined) return false
    // `directive` is the raw text between the quotes, so an escaped 'use\x20strict' rightly does not count.
    if (statement.directive === "use strict") return true
  }
  return false
}

function describeParseError(error: { start: number; end: number; description: string }, text: string): Problem {
  const offset = error.start - PREFIX.length
  switch (error.description) {
    case IMPORT_IN_SCRIPT:
      return unsupported(IMPORT_DECLARATION_UNSUPPORTED, keywordBefore("import", offset, tokensOf(text)))
    case EXPORT_IN_SCRIPT:
      return unsupported("`export` declarations are not supported", clamp(offset, text))
    case IMPORT_META_IN_SCRIPT:
      return unsupported("`import.meta` is not supported", keywordBefore("import", offset, tokensOf(text)))
    case INVALID_REGEXP:
      return parseError(regExpMessage(wrap(text).slice(error.start, error.end)) ?? error.description, clamp(offset, text))
  }
  if (offset < text.length) return parseError(error.description, clamp(offset, text))
  // The parser stopped in the wrapper's suffix: either the user's text closed the wrapper early, or it ended
  // mid-construct and the suffix's `})` was the unexpected token.
  const stray = strayClosingBrace(tokensOf(text))
  if (stray !== undefined) return parseError("Unexpected token: '}'", stray)
  if (/^(?:Unexpected token|Expected)\b/.test(error.description)) return parseError("Unexpected end of input", text.length)
  return parseError(error.description, text.length)
}

const clamp = (offset: number, text: string): number => Math.max(0, Math.min(offset, text.length))

interface Token {
  readonly kind: string
  readonly text: string
  /** Offset in the user's text. */
  readonly start: number
}

// The tokens of the user's text up to where parsing stops, for failures meriyah does not position usefully. The
// replay is only paid on the failure path; it throws at the same place the first parse did.
function tokensOf(text: string): Token[] {
  const wrapped = wrap(text)
  const tokens: Token[] = []
  try {
    parseScript(wrapped, {
      ...OPTIONS,
      onToken: (kind, start, end) => {
        if (start >= PREFIX.length && start < PREFIX.length + text.length) {
          tokens.push({ kind, text: wrapped.slice(start, end), start: start - PREFIX.length })
        }
      },
    })
  } catch {
    // Expected: the tokens before the failure are what we wanted.
  }
  return tokens
}

// meriyah reports module syntax at the token after `import`, possibly past comments (`import /* */ x`).
function keywordBefore(keyword: string, offset: number, tokens: ReadonlyArray<Token>): number {
  const found = tokens.findLast((token) => token.start < offset && token.text === keyword)
  return found?.start ?? Math.max(0, offset)
}

// The first `}` that balances the wrapper's own `{`, if the user's text has one. Template parts are separate
// tokens, so only real braces are counted.
function strayClosingBrace(tokens: ReadonlyArray<Token>): number | undefined {
  let depth = 0
  for (const token of tokens) {
    if (token.kind !== "Punctuator") continue
    if (token.text === "{") depth++
    else if (token.text === "}" && --depth < 0) return token.start
  }
  return undefined
}

// meriyah validates a regular expression literal with the host's RegExp and reports any failure as "Unterminated";
// asking RegExp again recovers V8's reason (e.g. "Duplicate capture group name").
function regExpMessage(literal: string): string | undefined {
  const close = literal.lastIndexOf("/")
  if (!literal.startsWith("/") || close <= 0) return undefined
  const flags = literal.slice(close + 1)
  if (!/^[a-z]*$/.test(flags)) return undefined
  try {
    new RegExp(literal.slice(1, close), flags)
    return undefined
  } catch (error) {
    return error instanceof SyntaxError ? error.message : undefined
  }
}
