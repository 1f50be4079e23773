/**
 * The public API of the codemode library, and nothing else.
 *
 * - `CodeMode`: `make` / `execute` a program against tools, `toolExpression` and `searchSignature` for the
 *   callable forms hosts describe to models, and the model types (`Result`, `Diagnostic`, `ToolCall`...); with
 *   `engine: "vm"`, a `VmRuntime` whose programs can be suspended and resumed (`Program`, `Outcome`, `Snapshot`,
 *   `toBytes` / `fromBytes`, `SnapshotError`, `SuspendError`).
 * - `Tool`: `Tool.make`, `Tool.idempotent`, `Tool.durable`.
 * - `Namespace`: `Namespace.make`, a described group of tools.
 * - `Extension`: `Extension.make`, host functions programs call directly as globals (`fetch`, `fs`...).
 * - `ToolError`: a tool's deliberate refusal, whose message the program may read.
 *
 * @since 0.1.0
 */

/**
 * Running programs: `CodeMode.make(options)` builds a reusable runtime (`execute`, `catalog`),
 * `CodeMode.execute({ ...options, code })` runs once.
 *
 * @since 0.1.0
 * @category constructors
 */
export * as CodeMode from "./host/public.ts"

/**
 * Defining tools: `Tool.make({ description, input, output?, execute })`.
 *
 * @since 0.1.0
 * @category constructors
 */
export * as Tool from "./host/public-tool.ts"

/**
 * Grouping tools under a description: `Namespace.make({ description, tools })`.
 *
 * @since 0.1.0
 * @category constructors
 */
export * as Namespace from "./host/public-namespace.ts"

/**
 * Host functions programs call directly as globals: `Extension.make({ name, globals, snapshot? })`, and
 * `Extension.async` to mark a plain function as asynchronous.
 *
 * @since 0.1.0
 * @category constructors
 */
export * as Extension from "./host/public-extension.ts"

/**
 * A tool's deliberate refusal: its `message` (and `data`) reach the program; other failures do not.
 *
 * @since 0.1.0
 * @category errors
 */
export { ToolError } from "./host/tool-error.ts"

/**
 * Tools from an OpenAPI 3.x document: `OpenAPI.fromSpec({ spec, auth })` gives `{ tools, skipped }`.
 *
 * @since 0.1.0
 * @category constructors
 */
export * as OpenAPI from "./openapi/index.ts"
