/**
 * How V8 names expressions in its TypeErrors ("x.y is not a function", "o is not iterable"), decided statically
 * from the AST so both engines say the same. V8 prints the expression found at the error's source position with its
 * call printer (`calleeText` below renders the same text). Which expression, if any, it finds there depends on the
 * positions the bytecode records, so the iteration sites (`NotIterableSite`, runtime/not-iterable.ts) follow rules
 * read off V8 case by case (test/differential/corpus/messages.js checks them).
 */
import type { ESTree } from "meriyah"
import type { DestructureSite } from "../runtime/not-destructurable.ts"
import type { NotIterableSite } from "../runtime/not-iterable.ts"
import { staticKey } from "./static-semantics.ts"

type Expr = ESTree.Expression | ESTree.PrivateIdentifier | ESTree.Super | ESTree.SpreadElement

const INTERMEDIATE = "(intermediate value)"

/**
 * An expression as V8's call printer prints it: names, member chains, calls as `f(...)`, operators in
 * parentheses; what it does not print (functions, classes, `new`, `await`, `super`, optional chains...) is
 * "(intermediate value)".
 */
export function calleeText(node: Expr): string {
  const folded = foldedLiteral(node)
  if (folded !== undefined) return typeof folded.value === "string" ? `"${folded.value}"` : String(folded.value)
  switch (node.type) {
    case "Identifier":
      return node.name
    case "ThisExpression":
      return "this"
    case "PrivateIdentifier":
      return `#${node.name}`
    case "Literal":
      return literalText(node)
    case "MetaProperty":
      // The name of V8's internal variable.
      return node.meta.name === "new" ? ".new.target" : INTERMEDIATE
    case "TemplateLiteral":
      // V8 prints a template's substitutions only; one without any is a string literal.
      return node.expressions.length === 0 ? `"${node.quasis[0]?.value.cooked ?? ""}"` : node.expressions.map((e) => calleeText(e)).join("")
    case "MemberExpression": {
      const obj = calleeText(node.object)
      const p = node.property
      if (p.type === "PrivateIdentifier") return `${obj}${node.optional ? "?" : ""}.#${p.name}`
      if (!node.computed) return `${obj}${node.optional ? "?" : ""}.${(p as ESTree.Identifier).name}`
      // Any string key prints as a dotted name, whatever its characters.
      if (p.type === "Literal" && typeof p.value === "string") return `${obj}${node.optional ? "?" : ""}.${p.value}`
      return `${obj}${node.optional ? "?." : ""}[${calleeText(p)}]`
    }
    case "CallExpression":
      return `${calleeText(node.callee)}(...)`
    case "TaggedTemplateExpression":
      return `${calleeText(node.tag)}(...)`
    case "ObjectExpression":
      return `{${INTERMEDIATE.repeat(node.properties.length)}}`
    case "ArrayExpression":
      return `[${node.elements.map((e) => (e === null ? INTERMEDIATE : calleeText(e))).join(",")}]`
    case "SpreadElement":
      return `(...${calleeText(node.argument)})`
    case "UnaryExpression": {
      const space = node.operator === "typeof" || node.operator === "void" || node.operator === "delete" ? " " : ""
      return `(${node.operator}${space}${calleeText(node.argument)})`
    }
    case "UpdateExpression":
      return node.prefix ? `(${node.operator}${calleeText(node.argument)})` : `(${calleeText(node.argument)}${node.operator})`
    case "BinaryExpression":
    case "LogicalExpression":
      return `(${operands(node, node.operator).map((e) => calleeText(e)).join(` ${node.operator} `)})`
    case "SequenceExpression":
      return `(${node.expressions.map((e) => calleeText(e)).join(" , ")})`
    case "AssignmentExpression":
      return node.left.type === "Identifier" || node.left.type === "MemberExpression" ? calleeText(node.left) : INTERMEDIATE
    case "ConditionalExpression":
      return INTERMEDIATE.repeat(3)
    default:
      return INTERMEDIATE
  }
}

/** V8 parses a chain of one operator (`a + b + c`) as one n-ary operation, printed without inner parentheses. */
const operands = (node: ESTree.BinaryExpression | ESTree.LogicalExpression, op: string): Array<Expr> => {
  const left = node.left
  const first = (left.type === "BinaryExpression" || left.type === "LogicalExpression") && left.operator === op ? operands(left, op) : [left as Expr]
  return [...first, node.right]
}

const FOLDED_NUMBER_OPERATORS: Record<string, (a: number, b: number) => number> = {
  "+": (a, b) => a + b,
  "-": (a, b) => a - b,
  "*": (a, b) => a * b,
  "/": (a, b) => a / b,
  "%": (a, b) => a % b,
  "**": (a, b) => a ** b,
  "<<": (a, b) => a << b,
  ">>": (a, b) => a >> b,
  ">>>": (a, b) => a >>> b,
  "&": (a, b) => a & b,
  "|": (a, b) => a | b,
  "^": (a, b) => a ^ b,
}

/**
 * V8's parser folds operators on literals into a literal, which it prints as its value: `-1`, `~1`, `!0`, `1 + 2`,
 * `"a" + "b"` (not comparisons, commas or BigInts).
 */
const foldedLiteral = (node: ESTree.Node): { readonly value: number | string | boolean | null } | undefined => {
  if (node.type === "Literal") {
    const literal = node as ESTree.Literal
    if (("regex" in literal && literal.regex !== undefined) || ("bigint" in literal && literal.bigint !== undefined)) return undefined
    return { value: literal.value as number | string | boolean | null }
  }
  if (node.type === "UnaryExpression") {
    const arg = foldedLiteral(node.argument)
    if (arg === undefined) return undefined
    if (node.operator === "!") return { value: !arg.value }
    if (typeof arg.value !== "number") return undefined
    if (node.operator === "-") return { value: -arg.value }
    if (node.operator === "+") return { value: arg.value }
    if (node.operator === "~") return { value: ~arg.value }
    return undefined
  }
  if (node.type === "BinaryExpression") {
    const left = foldedLiteral(node.left)
    const right = left === undefined ? undefined : foldedLiteral(node.right)
    if (left === undefined || right === undefined) return undefined
    if (typeof left.value === "string" && typeof right.value === "string" && node.operator === "+") return { value: left.value + right.value }
    const op = FOLDED_NUMBER_OPERATORS[node.operator]
    if (op === undefined || typeof left.value !== "number" || typeof right.value !== "number") return undefined
    return { value: op(left.value, right.value) }
  }
  return undefined
}

/** An n-ary operation in V8 (`a + b + c`, `a, b, c`), which records no source position of its own. */
const isNary = (node: ESTree.Node): boolean =>
  node.type === "SequenceExpression"
    ? node.expressions.length > 2
    : (node.type === "BinaryExpression" || node.type === "LogicalExpression") && node.left.type === node.type && node.left.operator === node.operator

const REGEXP_FLAG_ORDER = "dgilmsuvy"

/** The literals `foldedLiteral` leaves: regular expressions, and BigInts, which V8 does not print. */
const literalText = (node: ESTree.Literal): string => {
  if (!("regex" in node) || node.regex === undefined) return INTERMEDIATE
  const flags = [...node.regex.flags].sort((a, b) => REGEXP_FLAG_ORDER.indexOf(a) - REGEXP_FLAG_ORDER.indexOf(b)).join("")
  return `/${node.regex.pattern}/${flags}`
}

// --- Sites of "is not iterable" ---------------------------------------------------------------------------------

const fixed = (message: string): NotIterableSite => ({ kind: "fixed", message })

/**
 * Where an iterable is needed with its expression at hand: a spread in an array literal (`[...o]`), a for-of or a
 * for-await (V8 finds neither an optional chain nor an n-ary operation there), a declaration (`declarationSite`).
 */
export type IterableContext = "spread" | "forOf" | "forAwait"

/**
 * V8's "o is not iterable" naming the iterable's expression, or undefined where V8 finds none and describes the
 * value instead ("number 0 is not iterable (cannot read property Symbol(Symbol.iterator))").
 */
export function iterableSite(node: ESTree.Node | undefined, context: IterableContext = "spread"): NotIterableSite | undefined {
  if (node === undefined) return undefined
  if (context !== "spread" && (node.type === "ChainExpression" || isNary(node))) return undefined
  const not = context === "forAwait" ? "is not async iterable" : "is not iterable"
  // A call's result: V8 names its callee in the sync message, the call itself in the async one.
  const callee = node.type === "CallExpression" || node.type === "NewExpression" ? node.callee : node.type === "TaggedTemplateExpression" ? node.tag : undefined
  if (callee !== undefined) return fixed(`${calleeText(context === "forAwait" ? (node as Expr) : (callee as Expr))} is not a function or its return value ${not}`)
  return fixed(`${calleeText(node as Expr)} ${not}`)
}

/**
 * A declaration's array pattern (`const [a] = init`) names its initializer as a spread does, unless V8's
 * evaluation of it ends on an operation that records a source position of its own (a property read, a method
 * call, a tagged template, a binary operator, an assignment, an optional chain): then V8 finds nothing to name.
 * An assignment's array pattern (`[a] = o`) and a parameter's name nothing (`arrayPatternSite`).
 */
export const declarationSite = (init: ESTree.Node | undefined): NotIterableSite | undefined => {
  switch (init?.type) {
    case "BinaryExpression":
    case "LogicalExpression":
      return isNary(init) ? iterableSite(init) : undefined
    case "SequenceExpression":
    case "MemberExpression":
    case "ChainExpression":
    case "TaggedTemplateExpression":
    case "AssignmentExpression":
    case "UpdateExpression":
      return undefined
    case "CallExpression":
      return init.callee.type === "MemberExpression" ? undefined : iterableSite(init)
    default:
      return iterableSite(init)
  }
}

// --- Sources of destructured values --------------------------------------------------------------------------

/**
 * Where the value an outermost pattern destructures comes from, as V8 names it in messages: an initializer's or an
 * assignment's expression, or what V8 prints where there is none: its internal variables for a `catch` parameter
 * and a for-in/of declaration, a parameter default's desugared conditional, and, for a parameter, the value.
 * A nested pattern, or a for-of's assignment head, has no source (undefined).
 */
export type PatternSource = ESTree.Node | "parameter" | "parameterDefault" | "catch" | "forDeclaration"

/** The text V8 prints for a source; undefined for a parameter, whose value V8 describes instead. */
const sourceText = (source: PatternSource): string | undefined => {
  switch (source) {
    case "parameter":
      return undefined
    case "parameterDefault":
      return INTERMEDIATE.repeat(3)
    case "catch":
      return ".catch"
    case "forDeclaration":
      return ".for"
    default:
      return calleeText(source as Expr)
  }
}

/**
 * The site of an outermost array pattern (`init`: a binding, not an assignment): a declaration names its
 * initializer (`declarationSite`), a for-in/of declaration V8's internal variable; the rest name nothing.
 */
export const arrayPatternSite = (source: PatternSource | undefined, init: boolean): NotIterableSite | undefined => {
  if (source === "forDeclaration") return fixed(".for is not iterable")
  return init && typeof source === "object" ? declarationSite(source) : undefined
}

/**
 * An array pattern that is a property's value (without a default) in an outermost object pattern,
 * `{ p: [a] } = o`: V8 names the object pattern's source, `o`.
 */
export const patternPropertySite = (source: PatternSource | undefined): NotIterableSite | undefined =>
  source === undefined ? undefined : { kind: "patternProperty", text: sourceText(source) }

/** What V8 says when an object pattern's value is null or undefined. */
export const destructureSite = (node: ESTree.ObjectPattern, source: PatternSource | undefined): DestructureSite => {
  const first = node.properties[0]
  const property = first !== undefined && first.type !== "RestElement" && !first.computed ? staticKey(first.key) : undefined
  if (source === undefined) return { kind: "destructure", property, of: "none" }
  const text = sourceText(source)
  return { kind: "destructure", property, of: text === undefined ? "value" : { text } }
}

/**
 * `yield* x`: V8 finds the operand (and prints "yield* (intermediate value)") when evaluating it ends on an
 * operation that records its own position, the opposite of a declaration for calls, `new` and n-ary operations.
 */
export function yieldStarSite(argument: ESTree.Expression, async: boolean): NotIterableSite | undefined {
  return yieldStarFindsOperand(argument) ? fixed(`yield* (intermediate value) ${async ? "is not async iterable" : "is not iterable"}`) : undefined
}

const yieldStarFindsOperand = (node: ESTree.Expression): boolean => {
  if (foldedLiteral(node) !== undefined) return false
  switch (node.type) {
    case "MemberExpression":
    case "CallExpression":
    case "NewExpression":
    case "UpdateExpression":
    case "AssignmentExpression":
    case "YieldExpression":
      return true
    case "BinaryExpression":
    case "SequenceExpression":
      return !isNary(node)
    case "UnaryExpression":
      return node.operator === "-" || node.operator === "+" || node.operator === "~"
    default:
      return false
  }
}

/**
 * The site of a spread argument, `arg` of `args`: its own for a call whose only spread is the last argument
 * (`f(a, ...o)`); for any other, V8 finds only a call (or `new`) and names its callee.
 */
export const spreadArgumentSite = (args: ReadonlyArray<ESTree.Expression | ESTree.SpreadElement>, arg: ESTree.SpreadElement): NotIterableSite | undefined => {
  if (args.indexOf(arg) === args.length - 1 && args.findIndex((a) => a.type === "SpreadElement") === args.length - 1) {
    return { kind: "lastSpreadArgument", text: calleeText(arg.argument) }
  }
  const value = arg.argument
  if (value.type !== "CallExpression" && value.type !== "NewExpression") return undefined
  return fixed(`${calleeText(value.callee as Expr)} is not iterable (cannot read property Symbol(Symbol.iterator))`)
}
