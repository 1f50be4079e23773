/**
 * The `Tool` namespace of the public API: `Tool.make`, the `Tool.idempotent` / `Tool.durable` markers, and the
 * types a host writes tools with.
 */
export { durable, idempotent, make } from "./tool.ts"
export type { Returned, Tool, ToolContext } from "./tool.ts"
export type { ToolSchema } from "./schema.ts"
