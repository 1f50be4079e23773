/**
 * The `Namespace` namespace of the public API: `Namespace.make` for a group of tools with a description.
 */
export { make } from "./namespace.ts"
export type { Namespace } from "./namespace.ts"
