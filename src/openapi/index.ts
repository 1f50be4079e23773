/**
 * The `OpenAPI` namespace of the public API: `OpenAPI.fromSpec`, which turns an OpenAPI 3.x document into tools,
 * and the types of its options and result (types.ts documents them).
 */
export { fromSpec } from "./from-spec.ts"
export type { Api, Auth, AuthRequest, Credential, Document, OperationInfo, Options, Skipped } from "./types.ts"
