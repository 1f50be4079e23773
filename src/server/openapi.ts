/**
 * `openapi.yaml`: the OpenAPI 3.1 document derived from the API declaration (`api.ts`), written as YAML. The
 * server answers `GET /openapi.yaml` with it, and `codemode openapi` (or `npm run openapi`) writes the committed
 * file; a test fails when the committed file and the declaration disagree, and another lints it with Redocly's
 * recommended rules.
 */
import * as OpenApi from "effect/http-api/OpenApi"
import { PAGE_LIMIT } from "./api.ts"
import { Api, IDEMPOTENT_GROUPS } from "./endpoints.ts"
import { stringify, type Json } from "./yaml.ts"

/**
 * Each operation's one-line summary (the linters and API browsers list operations by it). Kept here, by operation
 * id, beside the longer descriptions the endpoints carry; a missing one fails the lint test.
 */
const SUMMARIES: Record<string, string> = {
  "runs.create": "Run a program",
  "runs.list": "List runs",
  "runs.get": "Get a run (optionally waiting for it)",
  "runs.events": "Stream a run's events",
  "runs.checkpoints": "List a run's kept checkpoints",
  "runs.suspend": "Suspend a run",
  "runs.resume": "Resume a suspended run",
  "runs.fork": "Fork a run from a kept checkpoint",
  "runs.cancel": "Cancel a run",
  "tools.put": "Register a webhook tool",
  "tools.list": "The tool catalog",
  "tools.search": "Search the tool catalog",
  "tools.get": "Get a tool",
  "tools.delete": "Remove a tool",
  "tools.putNamespace": "Describe a namespace",
  "tools.rotateSecret": "Rotate a tool's secret",
  "tools.deleteNamespace": "Remove a namespace's description",
  "calls.complete": "Complete a durable call",
  "calls.heartbeat": "Heartbeat of a durable call",
  "callbacks.complete": "Complete a durable call by its callback URL",
  "callbacks.heartbeat": "Heartbeat by a callback URL",
  health: "Liveness probe",
  ready: "Readiness probe",
  metrics: "Prometheus metrics",
  openapi: "This document",
}

const MUTATING = new Set(["post", "put", "patch", "delete"])

const idempotencyKey = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description: "A repeat with the same key and request answers the stored response; the same key with another request is a 409.",
  schema: { type: "string", minLength: 1, maxLength: 255 },
}

const lastEventId = {
  name: "Last-Event-ID",
  in: "header",
  required: false,
  description: "Continue after this event (its id, a number in the run); wins over `after`.",
  schema: { type: "string", pattern: "^\\d{1,19}$" },
}

/**
 * What the API declaration cannot say and the document must: each operation's summary, the headers the middleware
 * and the event stream read, and query numbers as numbers (the declaration decodes them from text).
 */
const completed = (doc: Record<string, any>): Json => {
  for (const item of Object.values(doc["paths"] ?? {}) as Array<Record<string, any>>) {
    for (const [method, op] of Object.entries(item)) {
      const summary = SUMMARIES[op?.operationId]
      if (summary !== undefined) op.summary = summary
      const parameters: Array<Record<string, any>> = (op.parameters ??= [])
      for (const p of parameters) if (p["in"] === "query" && p["name"] === "limit") p["schema"] = { type: "integer", ...PAGE_LIMIT }
      if (MUTATING.has(method) && (op.tags as Array<string> | undefined)?.some((t) => IDEMPOTENT_GROUPS.has(t))) parameters.push(idempotencyKey)
      if (op.operationId === "runs.events") parameters.push(lastEventId)
    }
  }
  return doc as Json
}

/** The OpenAPI document of the service. */
export const document = (): Json => completed(OpenApi.fromApi(Api) as unknown as Record<string, any>)

let cached: string | undefined

/** The document as YAML text (computed once per process). */
export const yaml = (): string => (cached ??= "# Generated from src/server/api.ts by `codemode openapi`. Do not edit.\n" + stringify(document()))
