/**
 * `Namespace.make` (spec "Tool.make"): a group of tools with a description. Nested records are the shorthand for a
 * namespace without one. The name still comes from the record key it is stored under, so the wrapper does not
 * repeat it; its description takes part in search matching for every tool below it.
 */
import type { ToolTree } from "./tree.ts"

export const TypeId: unique symbol = Symbol.for("codemode/Namespace") as never
export type TypeId = typeof TypeId

/**
 * A described group of tools; `Tools` keeps the tree's types so its requirements can be inferred.
 *
 * @since 0.1.0
 * @category models
 */
export interface Namespace<out Tools extends ToolTree = ToolTree> {
  readonly [TypeId]: TypeId
  readonly description: string | undefined
  readonly tools: Tools
}

/**
 * Makes a namespace.
 *
 * @example
 * ```ts
 * CodeMode.make({ tools: { orders: Namespace.make({ description: "Purchases and shipments", tools: { lookup } }) } })
 * ```
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <const Tools extends ToolTree>(options: {
  readonly description?: string
  readonly tools: Tools
}): Namespace<Tools> => {
  if (typeof options !== "object" || options === null || typeof options.tools !== "object" || options.tools === null) {
    throw new TypeError("Namespace.make expects { description?, tools }")
  }
  if (options.description !== undefined && typeof options.description !== "string") {
    throw new TypeError("Namespace.make: description must be a string")
  }
  return { [TypeId]: TypeId, description: options.description, tools: options.tools }
}

export const isNamespace = (u: unknown): u is Namespace => typeof u === "object" && u !== null && TypeId in u
