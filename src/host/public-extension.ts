/**
 * The `Extension` namespace of the public API: `Extension.make`, the `Extension.async` marker, and the types a
 * host writes extensions with.
 */
export { async, make } from "./extension.ts"
export type { Extension, Globals, SnapshotHooks } from "./extension.ts"
