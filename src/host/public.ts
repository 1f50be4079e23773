/**
 * The `CodeMode` namespace of the public API: the run entry points, discovery helpers and the model types, and the
 * VM's suspend/resume surface (`VmRuntime`, `Program`, `Outcome`, `Snapshot`, `toBytes`/`fromBytes`, the errors).
 */
export { execute, make } from "./codemode.ts"
export type { Engine, ExecuteOptions, Extensions, Options, Runtime, VmRuntime } from "./codemode.ts"
export type { Bindings } from "./bindings.ts"
export type { CatalogEntry } from "./catalog.ts"
export type { DataValue } from "./data.ts"
export type { Diagnostic, DiagnosticKind, SourceLocation } from "./diagnostic.ts"
export type { ExtensionHookCall, Hooks, ToolHookCall, ToolHookOutcome } from "./hooks.ts"
export type { Limits } from "./limits.ts"
export type { Result, ToolCall } from "./result.ts"
export type { SearchItem, SearchPage } from "./search.ts"
export type { ToolTree } from "./tree.ts"
export type { Program } from "./vm-program.ts"
export type { Outcome, RunObserver, Suspended, SuspendOptions } from "./vm-run.ts"
export type { Snapshot } from "../snapshot/format.ts"
export type { SnapshotKey } from "../snapshot/signature.ts"
export { toBytes, fromBytes } from "../snapshot/format.ts"
export { SnapshotError } from "../snapshot/errors.ts"
export { SuspendError, type BlockingCall } from "./suspend-error.ts"
export { toolExpression } from "./path.ts"
export { searchSignature } from "./search.ts"
