/**
 * Import declarations and `import()` (spec "Extension.make": "Programs load globals the way Node code loads
 * modules"), turned by the front end into calls of two hidden globals the host installs (host/modules.ts), so both
 * engines run them as ordinary code:
 *
 *   import fs, { readFile as rf } from "node:fs"   ->  const { default: fs, readFile: rf } = %import%("node:fs", ["default", "readFile"])
 *   import * as ns from "fs"                       ->  const ns = %import%("fs", [])
 *   import "fs"                                    ->  const {} = %import%("fs", [])
 *   import("fs")                                   ->  %import()%("fs")
 *
 * `%import%` and `%import()%` are not identifiers, so no program declaration can shadow them. The declarations
 * are hoisted, as a module's imports are resolved before its body runs: they come first in the program, in source
 * order, and an unknown module fails the run there. Their bindings are `const`, as imports are immutable.
 *
 * A program body is an async function body, which cannot hold import declarations, so the parser refuses them
 * (parse-body.ts): each one refused is parsed on its own as module code, then blanked out of the text (a `;` and
 * spaces, keeping line breaks and every offset) and the text parsed again. A program with imports is module code,
 * which is strict: it is checked as strict code, and runs as such. `export` stays unsupported.
 */
import { isParseError, parseModule, parseScript, type ESTree, type Options } from "meriyah"
import { parseError, unsupported, type Problem } from "./diagnostics.ts"
import { IMPORT_DECLARATION_UNSUPPORTED, parseBody, type BodyParse, type Statement } from "./parse-body.ts"
import { forEachNode, type Node } from "./walk.ts"
import { PREFIX, SUFFIX, wrap } from "./wrapper.ts"

/** The hidden global an import declaration calls: `%import%(specifier, names)` gives the namespace. */
export const IMPORT_HOOK = "%import%"
/** The hidden global `import(specifier)` calls: it gives a promise of the namespace. */
export const DYNAMIC_IMPORT_HOOK = "%import()%"

export type ProgramBodyParse =
  | { readonly ok: true; readonly body: Statement[]; readonly strict: boolean; readonly imports: ReadonlyArray<ESTree.ImportDeclaration> }
  | { readonly ok: false; readonly problem: Problem }

const MODULE_OPTIONS = { ranges: true, loc: true, raw: true, next: true } as const satisfies Options
const STRICT_PREFIX = '(async function () {"use strict";'

const blankOut = (text: string): string => text.replace(/[^\n\r\u2028\u2029]/g, " ")

/** A program body as parseBody gives it, with its import declarations taken out (in source order). */
export function parseProgramBody(text: string): ProgramBodyParse {
  let current = text
  const imports: ESTree.ImportDeclaration[] = []
  for (;;) {
    const parsed: BodyParse = parseBody(current)
    if (!parsed.ok) {
      const { problem } = parsed
      if (problem.message !== IMPORT_DECLARATION_UNSUPPORTED || problem.offset === undefined) return parsed
      const found = importAt(current, problem.offset)
      if ("problem" in found) return { ok: false, problem: found.problem }
      const { declaration } = found
      imports.push(declaration)
      const start = declaration.start!
      current = current.slice(0, start) + ";" + blankOut(current.slice(start + 1, declaration.end!)) + current.slice(declaration.end!)
      continue
    }
    if (imports.length === 0) return { ...parsed, imports }
    const strictProblem = checkStrict(current, imports)
    if (strictProblem !== undefined) return { ok: false, problem: strictProblem }
    // The `;` each declaration left behind.
    const starts = new Set(imports.map((d) => d.start))
    const body = parsed.body.filter((s) => !(s.type === "EmptyStatement" && starts.has(s.start)))
    return { ok: true, body, strict: true, imports }
  }
}

/**
 * Module code is strict: the early errors strict code has and sloppy code lacks (`with`, octal literals...). The
 * imported names are declared ahead of the program, so that a declaration of the same name is an error too.
 */
function checkStrict(text: string, imports: ReadonlyArray<ESTree.ImportDeclaration>): Problem | undefined {
  const names = new Set<string>()
  for (const d of imports) {
    for (const s of d.specifiers) {
      if (names.has(s.local.name)) return parseError(`Duplicate binding '${s.local.name}'`, s.local.start)
      names.add(s.local.name)
    }
  }
  const prefix = `${STRICT_PREFIX}${names.size === 0 ? "" : `let ${[...names].join(", ")};`}`
  try {
    parseScript(prefix + text + SUFFIX, { ranges: true, next: true, webcompat: true, lexical: true })
    return undefined
  } catch (error) {
    if (!isParseError(error)) throw error
    return parseError(error.description, Math.max(0, Math.min(error.start - prefix.length, text.length)))
  }
}

interface Token {
  readonly kind: string
  readonly text: string
  readonly start: number
  readonly end: number
}

/** The import declaration whose `import` keyword is at `at`, parsed as module code. */
function importAt(text: string, at: number): { readonly declaration: ESTree.ImportDeclaration } | { readonly problem: Problem } {
  if (!atTopLevel(text, at)) return { problem: parseError("An import declaration may only appear at the top level of a program", at) }
  const before = blankOut(text.slice(0, at))
  const tokens: Token[] = []
  try {
    parseModule(before + text.slice(at), { ...MODULE_OPTIONS, onToken: (kind, start, end) => void tokens.push({ kind, text: text.slice(start, end), start, end }) })
  } catch {
    // What follows the declaration may be anything a module cannot hold (`return`): its tokens are enough.
  }
  const end = declarationEnd(tokens.filter((t) => t.start >= at))
  let program: ESTree.Program
  try {
    program = parseModule(before + text.slice(at, end ?? text.length), MODULE_OPTIONS)
  } catch (error) {
    if (!isParseError(error)) throw error
    return { problem: parseError(error.description, Math.min(error.start, text.length)) }
  }
  const [declaration, ...rest] = program.body
  if (declaration?.type !== "ImportDeclaration" || rest.length > 0) return { problem: parseError("Unexpected token", at) }
  if (declaration.phase != null) return { problem: unsupported(`\`import ${declaration.phase}\` declarations are not supported`, at) }
  if (declaration.attributes.length > 0) return { problem: unsupported("import attributes are not supported", declaration.attributes[0]!.start) }
  return { declaration }
}

/** Whether `at` is outside every bracket of the program (the tokens of the script parse that stopped there). */
function atTopLevel(text: string, at: number): boolean {
  let depth = 0
  try {
    const wrapped = wrap(text)
    parseScript(wrapped, {
      ...MODULE_OPTIONS,
      webcompat: true,
      onToken: (kind, start) => {
        const offset = start - PREFIX.length
        if (kind !== "Punctuator" || offset < 0 || offset >= at) return
        const c = wrapped[start]
        if (c === "{" || c === "(" || c === "[") depth++
        else if (c === "}" || c === ")" || c === "]") depth--
      },
    })
  } catch {
    // Expected: the parse stops at the declaration.
  }
  return depth === 0
}

/** Where an import declaration ends: after its source string, its attributes and its `;`. */
function declarationEnd(tokens: ReadonlyArray<Token>): number | undefined {
  let i = 1
  if (tokens[1]?.kind !== "StringLiteral") {
    i = tokens.findIndex((t, j) => j > 0 && t.text === "from" && tokens[j + 1]?.kind === "StringLiteral")
    if (i < 0) return undefined
    i++
  }
  let end = tokens[i]!.end
  i++
  if (tokens[i]?.text === "with" || tokens[i]?.text === "assert") {
    const close = tokens.findIndex((t, j) => j > i && t.text === "}")
    if (close < 0) return undefined
    end = tokens[close]!.end
    i = close + 1
  }
  if (tokens[i]?.text === ";") end = tokens[i]!.end
  return end
}

// ---------------------------------------------------------------------------------------------------------------
// Desugaring

/** Replaces `import(...)` by calls of the dynamic hook and puts the declarations' replacements first. */
export function desugarModules(body: Statement[], imports: ReadonlyArray<ESTree.ImportDeclaration>): void {
  for (const statement of body) {
    forEachNode(statement, (node: Node) => {
      if (node.type !== "ImportExpression" || node.phase != null) return
      const call = node as unknown as ESTree.CallExpression & { source?: unknown; options?: unknown; phase?: unknown }
      const args = node.options == null ? [node.source] : [node.source, node.options]
      delete call.source
      delete call.options
      delete call.phase
      Object.assign(call, { type: "CallExpression", callee: identifier(DYNAMIC_IMPORT_HOOK, node), arguments: args, optional: false })
    })
  }
  body.unshift(...imports.map(declarationFor))
}

type Positioned = Pick<ESTree.Node, "start" | "end" | "range" | "loc">

// The parser's options put every position on every node; the synthesized nodes get copies of their source's.
const at = (node: Positioned) => ({
  start: node.start!,
  end: node.end!,
  range: [node.range![0], node.range![1]] as [number, number],
  loc: { start: { ...node.loc!.start }, end: { ...node.loc!.end } },
})

const identifier = (name: string, where: Positioned): ESTree.Identifier => ({ type: "Identifier", name, ...at(where) })

const literal = (value: string, where: Positioned): ESTree.Literal => ({ type: "Literal", value, raw: JSON.stringify(value), ...at(where) }) as ESTree.Literal

const IDENTIFIER_NAME = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200c\u200d]*$/u

/** `const <bindings> = %import%(source, names)` for one declaration. */
function declarationFor(d: ESTree.ImportDeclaration): ESTree.VariableDeclaration {
  const names: string[] = []
  const properties: ESTree.Property[] = []
  let namespace: ESTree.Identifier | undefined
  for (const s of d.specifiers) {
    if (s.type === "ImportNamespaceSpecifier") {
      namespace = s.local
      continue
    }
    const name = s.type === "ImportDefaultSpecifier" ? "default" : s.imported.type === "Identifier" ? s.imported.name : String(s.imported.value)
    names.push(name)
    const key = IDENTIFIER_NAME.test(name) ? identifier(name, s) : literal(name, s)
    properties.push({ type: "Property", key, value: s.local, kind: "init", computed: false, method: false, shorthand: false, ...at(s) } as ESTree.Property)
  }
  const call: ESTree.CallExpression = {
    type: "CallExpression",
    callee: identifier(IMPORT_HOOK, d),
    arguments: [d.source, { type: "ArrayExpression", elements: names.map((n) => literal(n, d)), ...at(d) }],
    optional: false,
    ...at(d),
  }
  const pattern = (): ESTree.ObjectPattern => ({ type: "ObjectPattern", properties: properties as ESTree.AssignmentProperty[], ...at(d) })
  const declarations: ESTree.VariableDeclarator[] =
    namespace === undefined
      ? [{ type: "VariableDeclarator", id: pattern(), init: call, ...at(d) }]
      : [{ type: "VariableDeclarator", id: namespace, init: call, ...at(d) }, ...(properties.length === 0 ? [] : [{ type: "VariableDeclarator" as const, id: pattern(), init: identifier(namespace.name, d), ...at(d) }])]
  return { type: "VariableDeclaration", kind: "const", declarations, ...at(d) }
}
