/**
 * Static decisions about functions, classes and names that both engines make the same way, from the checked AST
 * and the scope analysis, before anything runs: what role and kind a function has and its `length`
 * (ExpectedArgumentCount), which expressions get a name by NamedEvaluation, the static name of a property key,
 * whether a class gives its instances fields or private methods, and how V8 names an expression in its error
 * messages ("x.y is not a function", "o is not iterable"). The compiler bakes these into code objects; the
 * tree-walker reads them when it first meets a node.
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

type Expr = ESTree.Expression | ESTree.PrivateIdentifier | ESTree.Super | ESTree.SpreadElement

/** How V8 names a callee in "x is not a function". */
export function calleeText(node: Expr): string {
  switch (node.type) {
    case "Identifier":
      return node.name
    case "ThisExpression":
      return "this"
    case "Super":
      return "super"
    case "PrivateIdentifier":
      return `#${node.name}`
    case "Literal":
      return typeof node.value === "string" ? `"${node.value}"` : String(node.raw ?? node.value)
    case "MemberExpression": {
      const obj = calleeText(node.object)
      if (node.property.type === "PrivateIdentifier") return `${obj}.#${node.property.name}`
      if (!node.computed) return `${obj}.${(node.property as ESTree.Identifier).name}`
      const p = node.property
      if (p.type === "Literal" && typeof p.value === "string" && /^[A-Za-z_$][\w$]*$/.test(p.value)) return `${obj}.${p.value}`
      if (p.type === "Literal" || p.type === "Identifier") return `${obj}[${calleeText(p)}]`
      return `${obj}[...]`
    }
    case "CallExpression":
      return `${calleeText(node.callee)}(...)`
    case "ChainExpression":
      return calleeText(node.expression)
    default:
      return "(intermediate value)"
  }
}

/** V8's "x is not iterable" naming the iterable's source, or undefined for the generic message. */
export function notIterableText(node: ESTree.Node | undefined): string | undefined {
  if (node === undefined) return undefined
  if (node.type === "CallExpression") return `${calleeText(node.callee)} is not a function or its return value is not iterable`
  if (node.type === "ObjectExpression" && node.properties.length === 0) return "{} is not iterable"
  const text = calleeText(node as Expr)
  return text === "(intermediate value)" ? undefined : `${text} is not iterable`
}
