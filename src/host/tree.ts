/**
 * The tool tree (spec "Tool.make"): the `tools` option is a record whose values are tools, `Namespace`s or nested
 * records. This module flattens it once, at `CodeMode.make`, into nodes keyed by path segment: dots in keys create
 * nested paths (`"orders.lookup"` is `orders` → `lookup`), a node may hold a tool and children at once (a path
 * both callable and a namespace), and when two definitions name the same canonical path the last one wins. Any
 * string is a segment, `constructor`, `prototype` and `__proto__` included: nodes live in Maps, never in objects
 * whose prototype could answer for them.
 */
import { isNamespace, type Namespace } from "./namespace.ts"
import { canonicalPath, toolExpression } from "./path.ts"
import { isTool, type Tool } from "./tool.ts"

/** The shape of `tools`: tools, namespaces and nested records. */
export interface ToolTree {
  readonly [key: string]: Tool<any> | Namespace<any> | ToolTree
}

/** The services every tool in a tree requires. */
export type TreeServices<T> =
  T extends Tool<infer R> ? R : T extends Namespace<infer Tools> ? TreeServices<Tools> : T extends ToolTree ? { [K in keyof T]: TreeServices<T[K]> }[keyof T] : never

/** One tool, where it lives and what encloses it. */
export interface ToolEntry {
  readonly segments: ReadonlyArray<string>
  /** Canonical path, `orders.lookup`. */
  readonly path: string
  /** The callable form, `tools.orders.lookup`. */
  readonly expression: string
  readonly tool: Tool<unknown>
  /** Descriptions of the enclosing namespaces, outermost first. */
  readonly namespaceDescriptions: ReadonlyArray<string>
}

export interface TreeNode {
  readonly segments: ReadonlyArray<string>
  tool: ToolEntry | undefined
  description: string | undefined
  readonly children: Map<string, TreeNode>
}

/** The flattened tree: its root node and every tool, in tree order. */
export interface ToolIndex {
  readonly root: TreeNode
  readonly entries: ReadonlyArray<ToolEntry>
  readonly byPath: ReadonlyMap<string, ToolEntry>
  /** Canonical paths of namespaces (nodes with children). */
  readonly namespaces: ReadonlySet<string>
}

const newNode = (segments: ReadonlyArray<string>): TreeNode => ({ segments, tool: undefined, description: undefined, children: new Map() })

export const buildIndex = (tools: ToolTree | undefined): ToolIndex => {
  const root = newNode([])
  const pending = new Map<TreeNode, Tool<unknown>>()
  const nodeAt = (segments: ReadonlyArray<string>): TreeNode => {
    let node = root
    for (let i = 0; i < segments.length; i++) {
      const s = segments[i]!
      let child = node.children.get(s)
      if (child === undefined) {
        child = newNode(segments.slice(0, i + 1))
        node.children.set(s, child)
      }
      node = child
    }
    return node
  }
  const walk = (tree: unknown, prefix: ReadonlyArray<string>): void => {
    if (typeof tree !== "object" || tree === null || Array.isArray(tree)) {
      throw new TypeError(`tools${prefix.length > 0 ? ` at ${canonicalPath(prefix)}` : ""} must be a record of tools and namespaces`)
    }
    for (const key of Object.keys(tree)) {
      const value = (tree as Record<string, unknown>)[key]
      const keySegments = key.split(".")
      if (keySegments.some((s) => s === "")) throw new TypeError(`Invalid tool key ${JSON.stringify(key)}: empty path segment`)
      const segments = [...prefix, ...keySegments]
      if (isTool(value)) pending.set(nodeAt(segments), value)
      else if (isNamespace(value)) {
        const node = nodeAt(segments)
        if (value.description !== undefined) node.description = value.description
        walk(value.tools, segments)
      } else if (typeof value === "object" && value !== null && !Array.isArray(value)) {
        nodeAt(segments)
        walk(value, segments)
      } else {
        throw new TypeError(`tools.${canonicalPath(segments)} must be a Tool, a Namespace or a record of them`)
      }
    }
  }
  if (tools !== undefined) walk(tools, [])

  const entries: ToolEntry[] = []
  const byPath = new Map<string, ToolEntry>()
  const namespaces = new Set<string>()
  const collect = (node: TreeNode, enclosing: ReadonlyArray<string>): void => {
    const tool = pending.get(node)
    if (tool !== undefined) {
      const entry: ToolEntry = {
        segments: node.segments,
        path: canonicalPath(node.segments),
        expression: toolExpression(node.segments),
        tool,
        namespaceDescriptions: enclosing,
      }
      node.tool = entry
      entries.push(entry)
      byPath.set(entry.path, entry)
    }
    if (node.children.size > 0) namespaces.add(canonicalPath(node.segments))
    const inner = node.description === undefined ? enclosing : [...enclosing, node.description]
    for (const child of node.children.values()) collect(child, inner)
  }
  collect(root, [])
  return { root, entries, byPath, namespaces }
}

/** The node at a canonical path, if any. */
export const findNode = (index: ToolIndex, segments: ReadonlyArray<string>): TreeNode | undefined => {
  let node: TreeNode | undefined = index.root
  for (const s of segments) {
    node = node.children.get(s)
    if (node === undefined) return undefined
  }
  return node
}
