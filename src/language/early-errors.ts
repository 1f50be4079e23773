/**
 * The early errors meriyah 7.4.2 (with `lexical: true`) does not report, checked on its AST so the program is
 * rejected before it runs, as V8 rejects it at parse time. Everything else in ECMA-262's early-error lists is left to
 * meriyah; each rule below was found by running the same snippet through meriyah and through V8 (node:vm) and
 * keeping the ones where meriyah accepted what V8 rejects. test/language/early-errors.test.ts replays that
 * comparison, so a meriyah upgrade that starts catching one of them shows up there.
 *
 * | Rule (V8 message)                                            | Why it is checked here                            |
 * | ------------------------------------------------------------ | ------------------------------------------------- |
 * | `new.target` outside any non-arrow function, field or static | The wrapper puts the program inside a function,   |
 * | block ("new.target expression is not allowed here")          | so meriyah accepts it at top level; V8 rejects it |
 * |                                                              | in scripts and modules.                           |
 * | `delete` of a private reference at the end of an optional    | meriyah catches `delete this.#x` but not          |
 * | chain: `delete a?.#x`, `delete a?.b.#x` ("Private fields can | `delete a?.#x`.                                   |
 * | not be deleted")                                             |                                                   |
 * | A class static block declaring one name both lexically and   | meriyah's scope tracking does not treat a static  |
 * | as a var (`static { var x; let x }`, `static { function f()  | block as a var scope.                             |
 * | {} let f }`) ("Identifier 'x' has already been declared")    |                                                   |
 * | Escaped `in` / `instanceof` operators (`a \u0069n b`)        | meriyah accepts them as the operator.             |
 * | ("Keyword must not contain escaped characters")              |                                                   |
 * | Escaped `yield` used as an identifier where `yield` is a     | meriyah rejects the plain word but not the        |
 * | keyword (generator parameters and bodies) ("Keyword must not | escaped one in sloppy generators.                 |
 * | contain escaped characters")                                 |                                                   |
 *
 * Deliberately not checked: assignment to a `const` (a run-time TypeError in JavaScript); `f() = 1` (V8 defers it to
 * run time, meriyah rejects it in strict code, both refuse the program). Known meriyah false positive, not worked
 * around: a legacy octal literal as the token right after a strict function's or class's closing brace
 * (`class A {} 010`) is reported as a strict-mode octal.
 */
import { boundNames } from "./bound-names.ts"
import { parseError, type Problem } from "./diagnostics.ts"
import { forEachChild, type Node } from "./walk.ts"
import type { ESTree } from "meriyah"

interface Context {
  /** Inside a non-arrow function, a class field initializer or a static block: `new.target` is allowed. */
  readonly inFunction: boolean
  /** `yield` is a keyword here (generator parameters and body), so an identifier spelled `yield` is an error. */
  readonly yieldIsKeyword: boolean
}

const ESCAPED_KEYWORD = "Keyword must not contain escaped characters"

class Found {
  readonly problem: Problem
  constructor(problem: Problem) {
    this.problem = problem
  }
}

/** The first early error in `body`, which is the top level of a program whose text is `text`. */
export function findEarlyError(body: ReadonlyArray<Node>, text: string): Problem | undefined {
  try {
    const top: Context = { inFunction: false, yieldIsKeyword: false }
    for (const statement of body) visit(statement, top, text)
    return undefined
  } catch (error) {
    if (error instanceof Found) return error.problem
    throw error
  }
}

// Throwing stops the walk at the first error without threading a result through every case.
function fail(message: string, offset: number | undefined): never {
  throw new Found(parseError(message, offset))
}

function visit(node: Node, context: Context, text: string): void {
  switch (node.type) {
    case "FunctionDeclaration":
    case "FunctionExpression": {
      // A generator expression's own name is in its body's context; a declaration's name is in the enclosing one.
      const nameContext = node.type === "FunctionExpression" ? { ...context, yieldIsKeyword: node.generator } : context
      if (node.id != null) visit(node.id, nameContext, text)
      const inner: Context = { inFunction: true, yieldIsKeyword: node.generator }
      for (const param of node.params) visit(param, inner, text)
      if (node.body != null) visit(node.body, inner, text)
      return
    }
    case "ArrowFunctionExpression": {
      for (const param of node.params) visit(param, context, text)
      visit(node.body, { ...context, yieldIsKeyword: false }, text)
      return
    }
    case "PropertyDefinition":
    case "AccessorProperty": {
      for (const decorator of node.decorators ?? []) visit(decorator, context, text)
      if (node.computed) visit(node.key, context, text)
      if (node.value != null) visit(node.value, { inFunction: true, yieldIsKeyword: false }, text)
      return
    }
    case "StaticBlock": {
      checkStaticBlockDeclarations(node)
      for (const statement of node.body) visit(statement, { inFunction: true, yieldIsKeyword: false }, text)
      return
    }
    case "MetaProperty":
      if (node.meta.name === "new" && !context.inFunction) fail("new.target expression is not allowed here", node.start)
      return
    case "UnaryExpression":
      if (node.operator === "delete") checkDeletePrivateInChain(node.argument)
      break
    case "BinaryExpression":
      if (node.operator === "in" || node.operator === "instanceof") checkOperatorNotEscaped(text, node.left, node.right)
      break
    case "ForInStatement":
      checkOperatorNotEscaped(text, node.left, node.right)
      break
    case "Identifier":
      if (node.name === "yield" && context.yieldIsKeyword) fail(ESCAPED_KEYWORD, node.start)
      return
  }
  forEachChild(node, (child, key) => {
    if (!isIdentifierName(node, key)) visit(child, context, text)
  })
}

// Property names and `new.target`'s parts are IdentifierNames, where any word, `yield` included, is fine.
function isIdentifierName(parent: Node, key: string): boolean {
  switch (parent.type) {
    case "MemberExpression":
      return key === "property" && !parent.computed
    case "Property":
    case "MethodDefinition":
      return key === "key" && !parent.computed
    case "MetaProperty":
      return true
    default:
      return false
  }
}

function checkDeletePrivateInChain(argument: ESTree.Expression): void {
  if (argument.type !== "ChainExpression") return
  const reference = argument.expression
  if (reference.type === "MemberExpression" && reference.property.type === "PrivateIdentifier") {
    fail("Private fields can not be deleted", reference.property.start)
  }
}

// The operator is the first token after the left operand, past comments, whitespace and closing parentheses.
function checkOperatorNotEscaped(text: string, left: Node, right: Node): void {
  if (left.end === undefined || right.start === undefined) return
  const between = text.slice(left.end, right.start)
  const skipped = /^(?:\s|\)|\/\/[^\n\r\u2028\u2029]*|\/\*[\s\S]*?\*\/)*/.exec(between)?.[0].length ?? 0
  const operator = /^[^\s(/[{"'`]+/.exec(between.slice(skipped))?.[0] ?? ""
  if (operator.includes("\\")) fail(ESCAPED_KEYWORD, left.end + skipped)
}

// ClassStaticBlockStatementList: no name may be both in LexicallyDeclaredNames and VarDeclaredNames, where top-level
// function declarations count as var names (TopLevelVarDeclaredNames) and vars hoist out of nested blocks.
function checkStaticBlockDeclarations(block: ESTree.StaticBlock): void {
  const lexical = new Map<string, number>()
  const vars: ESTree.Identifier[] = []
  for (const statement of block.body) {
    if (statement.type === "VariableDeclaration" && statement.kind !== "var") {
      for (const id of boundNames(statement)) lexical.set(id.name, id.start ?? 0)
    } else if (statement.type === "ClassDeclaration" && statement.id != null) {
      lexical.set(statement.id.name, statement.id.start ?? 0)
    } else if (statement.type === "FunctionDeclaration") {
      boundNames(statement, vars)
    } else {
      collectVarNames(statement, vars)
    }
  }
  let conflict: { readonly name: string; readonly offset: number } | undefined
  for (const id of vars) {
    const lexicalStart = lexical.get(id.name)
    if (lexicalStart === undefined) continue
    const offset = Math.max(lexicalStart, id.start ?? 0) // V8 points at whichever declaration comes second
    if (conflict === undefined || offset < conflict.offset) conflict = { name: id.name, offset }
  }
  if (conflict !== undefined) fail(`Identifier '${conflict.name}' has already been declared`, conflict.offset)
}

// VarDeclaredNames of a statement: `var` bindings, looking through nested statements but not into functions or
// classes, which have their own var scopes.
function collectVarNames(statement: Node | null | undefined, into: ESTree.Identifier[]): void {
  if (statement == null) return
  switch (statement.type) {
    case "VariableDeclaration":
      if (statement.kind === "var") boundNames(statement, into)
      return
    case "BlockStatement":
      for (const inner of statement.body) collectVarNames(inner, into)
      return
    case "IfStatement":
      collectVarNames(statement.consequent, into)
      collectVarNames(statement.alternate, into)
      return
    case "ForStatement":
      collectVarNames(statement.init, into)
      collectVarNames(statement.body, into)
      return
    case "ForInStatement":
    case "ForOfStatement":
      collectVarNames(statement.left, into)
      collectVarNames(statement.body, into)
      return
    case "WhileStatement":
    case "DoWhileStatement":
    case "LabeledStatement":
    case "WithStatement":
      collectVarNames(statement.body, into)
      return
    case "TryStatement":
      collectVarNames(statement.block, into)
      collectVarNames(statement.handler?.body, into)
      collectVarNames(statement.finalizer, into)
      return
    case "SwitchStatement":
      for (const switchCase of statement.cases) for (const inner of switchCase.consequent) collectVarNames(inner, into)
      return
    default:
      return
  }
}
