/**
 * Instruments a program so the checker sees its returned value as it was at the `return` itself. The engine ends
 * a program when its top-level body returns; V8 under node:vm lets already-queued microtasks run before anyone
 * reads the value. A program whose pending jobs mutate the returned object would then compare differently for a
 * reason that has nothing to do with the language, so the corpus checker rejects it.
 *
 * Only top-level `return <expr>` statements are rewritten (not those of nested functions), to
 * `return PROBE(<expr>)` where PROBE records the value's JSON and passes it through.
 */
import { parseScript } from "meriyah"

export const PROBE = "__codemodeReturnProbe"

type Node = { readonly type: string; readonly start: number; readonly end: number; readonly [k: string]: unknown }

const FUNCTIONS = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression"])

const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && typeof (v as Node).type === "string"

const collectReturns = (node: Node, out: Array<Node>): void => {
  if (node.type === "ReturnStatement") {
    const arg = node["argument"]
    if (isNode(arg)) out.push(arg)
  }
  for (const [key, child] of Object.entries(node)) {
    if (key === "range") continue
    for (const c of Array.isArray(child) ? child : [child]) {
      if (isNode(c) && !FUNCTIONS.has(c.type)) collectReturns(c, out)
    }
  }
}

/** `source` is a program wrapped by `wrapProgram`; gives it back with every top-level return passed through PROBE. */
export const probeReturns = (source: string): string => {
  const ast = parseScript(source, { ranges: true }) as unknown as Node
  // Script > ExpressionStatement > CallExpression > (async function) > body: the program's own statements.
  const outer = ((ast["body"] as Array<Node>)[0]?.["expression"] as Node)["callee"] as Node
  const args: Array<Node> = []
  collectReturns(outer["body"] as Node, args)
  let result = source
  for (const arg of args.sort((a, b) => b.start - a.start)) {
    result = `${result.slice(0, arg.start)}${PROBE}((${result.slice(arg.start, arg.end)}))${result.slice(arg.end)}`
  }
  return result
}
