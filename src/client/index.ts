/**
 * `codemode/client`: clients of the codemode execution service, derived from the same API declaration as the
 * server (`../server/api.ts`), so a route, payload or error that changes there changes here.
 *
 * - `Client`: Promises, no Effect needed (`new Client({ baseUrl, apiKey })`); failures are `ClientError`s.
 * - `CodeModeClient` / `make`: the Effect client (`ApiClient`), whose errors are the API's classes
 *   (`NotFound`, `Conflict`, …) with their `{ error: { kind, message } }` body.
 * - The API's schemas and types (`Run`, `Result`, `RunEvent`, …).
 */
export * from "../server/api.ts"
export * from "../server/endpoints.ts"
export { type ApiClient, type ClientOptions, CodeModeClient, make } from "./effect.ts"
export { Client, ClientError, type Promised, toClientError } from "./promise.ts"
