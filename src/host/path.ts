/**
 * Tool paths. A tool's canonical path is its segments joined with dots (`orders.lookup`): dots in tool-tree keys
 * split into segments, so a segment never contains one. The callable form a program writes is the tool
 * expression, `tools.orders.lookup`, with bracket notation for segments that are not identifiers
 * (`tools.context7["resolve-library-id"]`), exactly as spec "Tool.make" shows.
 */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** The global the tool tree is installed as. */
export const TOOLS_GLOBAL = "tools"

export const canonicalPath = (segments: ReadonlyArray<string>): string => segments.join(".")

export const splitPath = (path: string): string[] => path.split(".")

/**
 * `tools.a.b` / `tools.context7["resolve-library-id"]` for a path given as a string or as segments.
 *
 * @since 0.1.0
 * @category constructors
 */
export const toolExpression = (path: string | ReadonlyArray<string>): string => {
  const segments = typeof path === "string" ? (path === "" ? [] : splitPath(path)) : path
  return segments.reduce((acc, s) => (IDENTIFIER.test(s) ? `${acc}.${s}` : `${acc}[${JSON.stringify(s)}]`), TOOLS_GLOBAL)
}

/**
 * The canonical path of a tool written either way a program or a host might write it: `orders.lookup`,
 * `tools.orders.lookup` or `tools.context7["resolve-library-id"]`. Undefined when the text is neither.
 */
export const parsePathText = (text: string): string[] | undefined => {
  const t = text.trim()
  if (t === "") return undefined
  if (!t.startsWith(`${TOOLS_GLOBAL}.`) && !t.startsWith(`${TOOLS_GLOBAL}[`)) {
    return t.split(".").every((s) => s !== "") ? splitPath(t) : undefined
  }
  const segments: string[] = []
  let i = TOOLS_GLOBAL.length
  while (i < t.length) {
    if (t[i] === ".") {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(t.slice(i + 1))
      if (m === null) return undefined
      segments.push(m[0])
      i += 1 + m[0].length
    } else if (t[i] === "[") {
      const m = /^\[\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\]/.exec(t.slice(i))
      if (m === null) return undefined
      const quoted = m[1]!
      segments.push(quoted.startsWith('"') ? (JSON.parse(quoted) as string) : quoted.slice(1, -1).replace(/\\(.)/g, "$1"))
      i += m[0].length
    } else return undefined
  }
  return segments
}
