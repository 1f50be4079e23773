/**
 * The `CodeMode` namespace of the public API: the run entry points, discovery helpers and the model types.
 */
export { execute, make } from "./codemode.ts"
export type { Engine, ExecuteOptions, Options, Runtime } from "./codemode.ts"
export type { CatalogEntry } from "./catalog.ts"
export type { DataValue } from "./data.ts"
export type { Diagnostic, DiagnosticKind, SourceLocation } from "./diagnostic.ts"
export type { Hooks, ToolHookCall, ToolHookOutcome } from "./hooks.ts"
export type { Limits } from "./limits.ts"
export type { Result, ToolCall } from "./result.ts"
export type { SearchItem, SearchPage } from "./search.ts"
export type { ToolTree } from "./tree.ts"
export { toolExpression } from "./path.ts"
export { searchSignature } from "./search.ts"
