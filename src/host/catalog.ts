/**
 * `runtime.catalog()` (spec "Discovery"): one structured descriptor per visible tool — its exact canonical path,
 * its description and its generated TypeScript signature — in tree order. Hosts render their own model-facing
 * instructions from these; `toolExpression` (path.ts) and `searchSignature` (search.ts) give the exact callable
 * forms. Signatures are rendered once per runtime, when it is made.
 */
import { toolSignature } from "./signature.ts"
import type { ToolEntry, ToolIndex } from "./tree.ts"

/**
 * A tool as the catalog describes it.
 *
 * @since 0.1.0
 * @category models
 */
export interface CatalogEntry {
  /** The canonical path, `orders.lookup`; `CodeMode.toolExpression(path)` gives `tools.orders.lookup`. */
  readonly path: string
  readonly description: string
  /** `tools.orders.lookup(input: { id: string }): Promise<{ ... }>`, with JSDoc for documented properties. */
  readonly signature: string
}

const signatures = new WeakMap<ToolEntry, string>()

/** A tool's signature, rendered once per entry (search asks for it on every call). */
export const signatureOf = (entry: ToolEntry): string => {
  let s = signatures.get(entry)
  if (s === undefined) {
    s = toolSignature(entry.expression, entry.tool.preparedInput.jsonSchema, entry.tool.preparedOutput?.jsonSchema)
    signatures.set(entry, s)
  }
  return s
}

export const buildCatalog = (index: ToolIndex): ReadonlyArray<CatalogEntry> =>
  index.entries.map((entry) => ({ path: entry.path, description: entry.tool.description, signature: signatureOf(entry) }))
