/**
 * The language front end: source text to a checked AST. `checkProgram` parses a program body (an async function
 * body: top-level `await`, `return`, `for await`), erases TypeScript types when the source is not plain JavaScript,
 * rejects syntax codemode leaves out, and reports early errors, all with the user's own line:column. The compiler and
 * the tree-walking interpreter consume `CheckedProgram.ast`; the walk helpers are shared so every pass over the AST
 * agrees on what a node's children are.
 */
export { checkProgram, type CheckedProgram, type CheckResult } from "./check-program.ts"
export type { FrontEndDiagnostic, FrontEndDiagnosticKind } from "./diagnostics.ts"
export type { SourceLocation } from "./line-map.ts"
export { boundNames } from "./bound-names.ts"
export { forEachChild, forEachNode, VISITOR_KEYS, type Node, type NodeOfType, type NodeType } from "./walk.ts"
