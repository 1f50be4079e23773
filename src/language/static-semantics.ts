/**
 * Static decisions about functions, classes and names that both engines make the same way, from the checked AST
 * and the scope analysis, before anything runs: what role and kind a function has and its `length`
 * (ExpectedArgumentCount), which expressions get a name by NamedEvaluation, the static name of a property key,
 * whether a class gives its instances fields or private methods (how V8 names an expression in its error messages
 * is call-printer.ts). The compiler bakes these into code objects; the tree-walker reads them when it first meets
 * a node.
 */
import type { ESTree } from "meriyah"
import type { FunctionInfo } from "./scope.ts"

export type FunctionRole =
  | "program"
  | "function" // function declaration or expression: a constructor unless async/generator
  | "arrow"
  | "method"
  | "classConstructor"
  | "derivedConstructor"
  | "fieldInitializer"
  | "staticBlock"

export type FunctionKindName = "normal" | "generator" | "async" | "asyncGenerator"

export const roleOf = (fi: FunctionInfo): FunctionRole => {
  switch (fi.kind) {
    case "normal":
      return "function"
    case "constructor":
      return "classConstructor"
    default:
      return fi.kind
  }
}

export const functionKindOf = (fi: FunctionInfo): FunctionKindName =>
  fi.isAsync ? (fi.isGenerator ? "asyncGenerator" : "async") : fi.isGenerator ? "generator" : "normal"

/** https://tc39.es/ecma262/#sec-static-semantics-expectedargumentcount */
export const expectedArgumentCount = (params: ReadonlyArray<ESTree.Parameter>): number => {
  let n = 0
  for (const p of params) {
    if (p.type === "AssignmentPattern" || p.type === "RestElement") break
    n++
  }
  return n
}

/** https://tc39.es/ecma262/#sec-isanonymousfunctiondefinition */
export const isAnonymousFunctionDefinition = (node: ESTree.Node): boolean =>
  (node.type === "FunctionExpression" && node.id === null) ||
  node.type === "ArrowFunctionExpression" ||
  (node.type === "ClassExpression" && node.id === null)

/** The static name of a non-computed property key. */
export function staticKey(key: ESTree.Expression | ESTree.PrivateIdentifier): string {
  if (key.type === "Identifier" || key.type === "PrivateIdentifier") return key.name
  if (key.type === "Literal") {
    if ("bigint" in key && typeof key.bigint === "string") return BigInt(key.bigint).toString()
    return String(key.value)
  }
  throw new Error(`codemode bug: non-static key ${key.type}`)
}

/**
 * The keys of an object literal's leading fields with static keys, up to a repeated key, a `__proto__:`, anything but
 * a plain field, or `max` keys: nothing can observe the object before then, so the engines make it with all those
 * keys at once (a shape's worth: `max` is the most a shape holds).
 */
export const recordKeys = (node: ESTree.ObjectExpression, max: number): string[] => {
  const keys: string[] = []
  for (const p of node.properties) {
    if (p.type !== "Property" || p.kind !== "init" || p.method || p.computed || keys.length === max) break
    const name = staticKey(p.key)
    if ((name === "__proto__" && !p.shorthand) || keys.includes(name)) break
    keys.push(name)
  }
  return keys
}

/** The name a field's initializer function gets: the field's static name, `#x`, or "" for a computed key. */
export const fieldInitializerName = (def: ESTree.PropertyDefinition): string =>
  def.computed ? "" : def.key.type === "PrivateIdentifier" ? `#${def.key.name}` : staticKey(def.key as ESTree.Expression)

/** Whether instances of the class get elements at construction: instance fields or private instance methods. */
export const classHasInstanceElements = (node: ESTree.ClassDeclaration | ESTree.ClassExpression): boolean =>
  node.body.body.some(
    (el) =>
      (el.type === "PropertyDefinition" && !el.static) ||
      (el.type === "MethodDefinition" && !el.static && el.key?.type === "PrivateIdentifier"),
  )

/**
 * Annex B.3.5 (sloppy code): `for (var x = init in obj)` assigns `init` to `x` (named after it) before the
 * object is evaluated. The declaration and its initializer, if the loop has one.
 */
export const forInVarInitializer = (
  node: ESTree.ForInStatement | ESTree.ForOfStatement,
): { readonly id: ESTree.Identifier; readonly value: ESTree.Expression } | undefined => {
  if (node.type !== "ForInStatement" || node.left.type !== "VariableDeclaration") return undefined
  const d = node.left.declarations[0]
  return d !== undefined && d.init != null && d.id.type === "Identifier" ? { id: d.id, value: d.init } : undefined
}

/**
 * Whether a statement list declares resources directly (`using`, `await using`), so that leaving it disposes them
 * (https://tc39.es/proposal-explicit-resource-management/#sec-disposeresources): "async" when some are
 * `await using` (disposal awaits), "sync" when all are `using`.
 */
export const disposalOf = (list: ReadonlyArray<ESTree.Statement>): "sync" | "async" | undefined => {
  let found: "sync" | undefined
  for (const s of list) {
    if (s.type !== "VariableDeclaration") continue
    if (s.kind === "await using") return "async"
    if (s.kind === "using") found = "sync"
  }
  return found
}

/** The disposal a for statement's head asks for: `for (using x of ...)`, `for (await using x = ...; ;)`. */
export const headDisposalOf = (head: ESTree.Node | null): "sync" | "async" | undefined =>
  head?.type === "VariableDeclaration" ? disposalOf([head]) : undefined

/** A source range: what Function.prototype.toString shows of a function. */
export interface SourceRange {
  readonly start?: number | undefined
  readonly end?: number | undefined
}

/**
 * The source text of a class element's method (Function.prototype.toString): the element without a leading
 * `static` and the whitespace and comments after it, as V8 shows it.
 */
export const methodSourceRange = (el: ESTree.MethodDefinition, source: string): SourceRange => {
  if (!el.static) return el
  let start = (el.start ?? 0) + "static".length
  for (;;) {
    if (/\s/.test(source[start] ?? "")) start++
    else if (source.startsWith("//", start)) {
      const eol = source.slice(start).search(/[\n\r\u2028\u2029]/)
      start = eol < 0 ? source.length : start + eol
    } else if (source.startsWith("/*", start)) {
      const close = source.indexOf("*/", start + 2)
      start = close < 0 ? source.length : close + 2
    } else break
  }
  return { start, end: el.end }
}
