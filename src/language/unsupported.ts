/**
 * Syntax that parses but that codemode rejects on purpose, each with a message naming the construct and the
 * position of the node's start. Two groups: constructs the language leaves out by design (`with`, `debugger`), and
 * proposals meriyah's `next` option parses but V8 does not run (decorators, `accessor` fields, `import.source()` /
 * `import.defer()`), so they are named here instead of failing as a bare "Unexpected token". Module syntax
 * (`export` declarations, `import.meta`) never parses in a script and is named in parse-body.ts; import
 * declarations and `import()` load host globals (modules.ts), but not `import.source()` / `import.defer()`.
 * Run-time refusals (direct `eval`, `new Function`) are not decided here.
 */
import { unsupported, type Problem } from "./diagnostics.ts"
import { forEachNode, type Node } from "./walk.ts"

export function findUnsupportedSyntax(body: ReadonlyArray<Node>): Problem | undefined {
  let found: Problem | undefined
  for (const statement of body) {
    forEachNode(statement, (node) => {
      const message = found === undefined ? unsupportedMessage(node) : undefined
      if (message !== undefined) found = unsupported(message, node.start)
    })
    if (found !== undefined) return found
  }
  return undefined
}

function unsupportedMessage(node: Node): string | undefined {
  switch (node.type) {
    case "WithStatement":
      return "`with` statements are not supported"
    case "DebuggerStatement":
      return "`debugger` statements are not supported"
    case "Decorator":
      return "decorators are not supported"
    case "AccessorProperty":
      return "`accessor` class fields are not supported"
    case "ImportExpression":
      return node.phase == null ? undefined : `\`import.${node.phase}()\` is not supported`
    default:
      return undefined
  }
}
