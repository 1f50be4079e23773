/**
 * `openapi.yaml`: the OpenAPI 3.1 document derived from the API declaration (`api.ts`), written as YAML. The
 * server answers `GET /openapi.yaml` with it, and `codemode openapi` (or `npm run openapi`) writes the committed
 * file; a test fails when the committed file and the declaration disagree.
 */
import * as OpenApi from "effect/http-api/OpenApi"
import { Api } from "./endpoints.ts"
import { stringify, type Json } from "./yaml.ts"

/** The OpenAPI document of the service. */
export const document = (): Json => OpenApi.fromApi(Api) as unknown as Json

let cached: string | undefined

/** The document as YAML text (computed once per process). */
export const yaml = (): string => (cached ??= "# Generated from src/server/api.ts by `codemode openapi`. Do not edit.\n" + stringify(document()))
