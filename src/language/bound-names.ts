/**
 * The spec's BoundNames (https://tc39.es/ecma262/#sec-static-semantics-boundnames) over binding patterns: the
 * identifiers a declaration or parameter introduces, in source order. Early errors use it for declaration
 * conflicts; scope analysis can use it to create bindings.
 */
import type { ESTree } from "meriyah"
import type { Node } from "./walk.ts"

export function boundNames(pattern: Node | null | undefined, into: ESTree.Identifier[] = []): ESTree.Identifier[] {
  if (pattern == null) return into
  switch (pattern.type) {
    case "Identifier":
      into.push(pattern)
      break
    case "ObjectPattern":
      for (const property of pattern.properties) boundNames(property.type === "RestElement" ? property : property.value, into)
      break
    case "ArrayPattern":
      for (const element of pattern.elements) boundNames(element, into)
      break
    case "AssignmentPattern":
      boundNames(pattern.left, into)
      break
    case "RestElement":
      boundNames(pattern.argument, into)
      break
    case "VariableDeclaration":
      for (const declarator of pattern.declarations) boundNames(declarator.id, into)
      break
    case "FunctionDeclaration":
    case "ClassDeclaration":
      boundNames(pattern.id, into)
      break
    default:
      // Member expressions are assignment targets, not bindings; they bind nothing.
      break
  }
  return into
}
