/**
 * The endpoints of the execution service, grouped by resource, with the middleware they declare (API keys,
 * `Idempotency-Key`): the one declaration the server, the typed client and `openapi.yaml` derive from. The wire
 * models and error bodies are in `api.ts`.
 */
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import * as HttpApi from "effect/http-api/HttpApi"
import * as HttpApiEndpoint from "effect/http-api/HttpApiEndpoint"
import * as HttpApiGroup from "effect/http-api/HttpApiGroup"
import * as HttpApiMiddleware from "effect/http-api/HttpApiMiddleware"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"
import * as HttpApiSecurity from "effect/http-api/HttpApiSecurity"
import * as OpenApi from "effect/http-api/OpenApi"
import {
  BadRequest,
  CallCompletion,
  CallHeartbeat,
  CallOutcome,
  Catalog,
  CatalogTool,
  Conflict,
  CreateRun,
  EventsQuery,
  ForkRun,
  GetRunQuery,
  InternalError,
  ListRunsQuery,
  Namespace,
  NotFound,
  PayloadTooLarge,
  UnsupportedMediaType,
  PutNamespace,
  RegisterTool,
  RegisteredTool,
  ResumeRun,
  Run,
  RunAccepted,
  RunCheckpoints,
  RunEvent,
  RunPage,
  ToolPath,
  ToolSearch,
  ToolSearchQuery,
  Unauthorized,
  Unavailable,
} from "./api.ts"

// ---------------------------------------------------------------------------------------------------------------
// Authentication

/** The tenant a request acts for: the one its API key is bound to ("default" for `CODEMODE_API_KEY`). */
export class Tenant extends Context.Service<Tenant, string>()("codemode/server/Tenant") {}

/** `Authorization: Bearer <key>` on every `/v1` route once the server has `CODEMODE_API_KEY` or API keys. */
export class Authorization extends HttpApiMiddleware.Service<Authorization, { provides: Tenant; requires: never }>()(
  "codemode/server/Authorization",
  { requiredForClient: true, security: { bearer: HttpApiSecurity.bearer }, error: [Unauthorized, Unavailable] },
) {}

/**
 * `Idempotency-Key: <key>` on any mutating `/v1` request: a repeat with the same key and request gets the stored
 * answer (header `idempotent-replayed: true`); the same key with another request is a 409 (`idempotency.ts`).
 * It runs inside `Authorization`, which decides the tenant the keys belong to.
 */
export class Idempotency extends HttpApiMiddleware.Service<Idempotency, { requires: Tenant }>()("codemode/server/Idempotency", {
  error: [BadRequest, Conflict, Unavailable],
}) {}

// ---------------------------------------------------------------------------------------------------------------
// Endpoints

/**
 * The errors every `/v1` endpoint declares: any request can be malformed or too large, name something that does
 * not exist or is in the wrong state, or meet a database that is down (401 comes with the auth middleware).
 */
const v1Errors = [BadRequest, NotFound, Conflict, PayloadTooLarge, UnsupportedMediaType, InternalError, Unavailable] as const

const idParam = { id: Schema.String }
const pathParam = { path: ToolPath }

/** The groups behind the `Idempotency` middleware (openapi.yaml declares the header on their mutating operations). */
export const IDEMPOTENT_GROUPS: ReadonlySet<string> = new Set(["runs", "tools", "calls"])

export class RunsGroup extends HttpApiGroup.make("runs")
  .add(
    HttpApiEndpoint.post("create", "/v1/runs", {
      payload: CreateRun,
      success: [RunAccepted, Run],
      error: v1Errors,
    }).annotate(OpenApi.Description, "Runs a program. With `wait` (the default) answers when the run has settled or suspended."),
    HttpApiEndpoint.get("list", "/v1/runs", {
      query: ListRunsQuery,
      success: RunPage,
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "Lists runs, newest first: by `status`, by a `tool` they called (its registered path), created at or after " +
        "`since` and before `until` (ISO 8601). Pass `nextCursor` back as `cursor`, with the same filters, for the next page.",
    ),
    HttpApiEndpoint.get("get", "/v1/runs/:id", { params: idParam, query: GetRunQuery, success: Run, error: v1Errors }).annotate(
      OpenApi.Description,
      "The run, with its program (`code`). With `wait` (`30s`, `500ms`, `2m`, or milliseconds) answers once it has settled or suspended, on any " +
        "replica, or when the wait (at most the service's maximum) has passed.",
    ),
    HttpApiEndpoint.get("events", "/v1/runs/:id/events", {
      params: idParam,
      query: EventsQuery,
      success: HttpApiSchema.StreamSse({ events: RunEvent }),
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "The run's history as Server-Sent Events (status changes, tool calls and their outcomes), then its new events " +
        "live, from any replica. Each event's id is its number in the run (1, 2, 3 …) and each is sent once; " +
        "`Last-Event-ID` (or `after`, for clients that cannot set headers) continues after an event. The stream ends " +
        "after the run's last event.",
    ),
    HttpApiEndpoint.get("checkpoints", "/v1/runs/:id/checkpoints", {
      params: idParam,
      success: RunCheckpoints,
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "The states the run saved at its call boundaries that the retention policy still keeps, oldest first: each " +
        "with the number of calls made before it and the call it follows (key, path, input, outcome).",
    ),
    HttpApiEndpoint.post("suspend", "/v1/runs/:id/suspend", {
      params: idParam,
      success: Run,
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "Suspends the run wherever it is executing; 409 with the blocking calls when a running call cannot be repeated.",
    ),
    HttpApiEndpoint.post("resume", "/v1/runs/:id/resume", {
      params: idParam,
      payload: ResumeRun,
      success: [RunAccepted, Run],
      error: v1Errors,
    }).annotate(OpenApi.Description, "Claims the suspended run and continues it on this replica; 409 when it is not suspended."),
    HttpApiEndpoint.post("fork", "/v1/runs/:id/fork", {
      params: idParam,
      payload: ForkRun,
      success: [RunAccepted, Run],
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "A new run continuing a kept checkpoint of this one (`at`, the latest by default; a suspended run's latest is " +
        "where it stopped), from a run in any state, on this replica. Calls before the checkpoint are not made again; " +
        "`outcomes` answer, by key, the calls in flight there; later calls are made anew under the new run's keys. " +
        "The new run shows `forkedFrom`. With `wait` (the default) answers when it has settled or suspended.",
    ),
    HttpApiEndpoint.post("cancel", "/v1/runs/:id/cancel", {
      params: idParam,
      success: Run,
      error: v1Errors,
    }).annotate(OpenApi.Description, "Interrupts the run wherever it is executing, or cancels a suspended run."),
  )
  .middleware(Idempotency)
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Programs and their runs") {}

export class ToolsGroup extends HttpApiGroup.make("tools")
  .add(
    HttpApiEndpoint.put("put", "/v1/tools/:path", {
      params: pathParam,
      payload: RegisterTool,
      success: RegisteredTool,
      error: v1Errors,
    }).annotate(OpenApi.Description, "Registers (or replaces) a webhook tool. The secret is kept across replacements."),
    HttpApiEndpoint.get("list", "/v1/tools", { success: Catalog, error: v1Errors }).annotate(
      OpenApi.Description,
      "The tool catalog: every registered tool with its TypeScript signature, and the namespaces.",
    ),
    HttpApiEndpoint.get("search", "/v1/tools/search", { query: ToolSearchQuery, success: ToolSearch, error: v1Errors }).annotate(
      OpenApi.Description,
      "Searches the catalog as a program's `search(q)` does (same matches, same order; an empty `q` lists every " +
        "tool), with each tool's registered path and a score from 0 to 1. A tool registered at the path `search` is " +
        "read through the catalog, not `GET /v1/tools/search`.",
    ),
    HttpApiEndpoint.get("get", "/v1/tools/:path", { params: pathParam, success: CatalogTool, error: v1Errors }).annotate(
      OpenApi.Description,
      "One registered tool, as the catalog shows it (with its TypeScript signature).",
    ),
    HttpApiEndpoint.post("rotateSecret", "/v1/tools/:path/secret", {
      params: pathParam,
      success: RegisteredTool,
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "Gives the tool a new signing secret. For CODEMODE_SECRET_OVERLAP_MS (24 h by default) requests carry both " +
        "signatures (`webhook-signature: v1,<new> v1,<old>`), then only the new one.",
    ),
    HttpApiEndpoint.delete("deleteNamespace", "/v1/namespaces/:path", {
      params: pathParam,
      success: HttpApiSchema.NoContent,
      error: v1Errors,
    }).annotate(OpenApi.Description, "Removes a namespace's description; its tools stay registered."),
    HttpApiEndpoint.delete("delete", "/v1/tools/:path", {
      params: pathParam,
      success: HttpApiSchema.NoContent,
      error: v1Errors,
    }),
    HttpApiEndpoint.put("putNamespace", "/v1/namespaces/:path", {
      params: pathParam,
      payload: PutNamespace,
      success: Namespace,
      error: v1Errors,
    }).annotate(OpenApi.Description, "Describes a namespace; the description is searchable and shown in the catalog."),
  )
  .middleware(Idempotency)
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Webhook tools and namespaces") {}

export class CallsGroup extends HttpApiGroup.make("calls")
  .add(
    HttpApiEndpoint.post("complete", "/v1/calls/:key/complete", {
      params: { key: Schema.String },
      payload: CallCompletion,
      success: CallOutcome,
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "Completes a started durable call (any replica); the same completion again answers the stored outcome, another " +
        "is a 409 CallAlreadySettled carrying it.",
    ),
    HttpApiEndpoint.post("heartbeat", "/v1/calls/:key/heartbeat", {
      params: { key: Schema.String },
      success: CallHeartbeat,
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "Tells the service a started durable call's job is alive (tools registered with heartbeatTimeoutMs).",
    ),
  )
  .middleware(Idempotency)
  .middleware(Authorization)
  .annotate(OpenApi.Description, "Completions of durable webhook calls") {}

/** The one-time capability URL sent with a durable call's `start`: no API key, the token is the authority. */
export class CallbacksGroup extends HttpApiGroup.make("callbacks")
  .add(
    HttpApiEndpoint.post("complete", "/v1/callbacks/:token", {
      params: { token: Schema.String },
      payload: CallCompletion,
      success: CallOutcome,
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "Completes the durable call this capability URL was made for (no API key); the same completion again answers " +
        "the stored outcome, another is a 409 CallAlreadySettled carrying it.",
    ),
    HttpApiEndpoint.post("heartbeat", "/v1/callbacks/:token/heartbeat", {
      params: { token: Schema.String },
      success: CallHeartbeat,
      error: v1Errors,
    }).annotate(OpenApi.Description, "A heartbeat of the durable call this capability URL was made for (no API key)."),
  )
  .annotate(OpenApi.Description, "Capability callbacks of durable webhook calls") {}

export class SystemGroup extends HttpApiGroup.make("system", { topLevel: true })
  .add(
    HttpApiEndpoint.get("health", "/health", { success: Schema.Struct({ status: Schema.Literal("ok") }), error: InternalError }).annotate(
      OpenApi.Description,
      "The process is up.",
    ),
    HttpApiEndpoint.get("ready", "/ready", {
      success: Schema.Struct({ status: Schema.Literal("ready"), migration: Schema.Int }),
      error: [Unavailable, InternalError],
    }).annotate(OpenApi.Description, "The database is reachable and every migration is applied."),
    HttpApiEndpoint.get("metrics", "/metrics", {
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/plain" })),
      error: [Unavailable, InternalError],
    }).annotate(
      OpenApi.Description,
      "Prometheus text format: runs by status (from the database), and this replica's tool calls, webhook latency, " +
        "snapshot bytes and resumes.",
    ),
    HttpApiEndpoint.get("openapi", "/openapi.yaml", {
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "application/yaml" })),
      error: InternalError,
    }).annotate(OpenApi.Description, "This document."),
  )
  .annotate(OpenApi.Description, "Probes and documents") {}

export class Api extends HttpApi.make("codemode")
  .add(RunsGroup)
  .add(ToolsGroup)
  .add(CallsGroup)
  .add(CallbacksGroup)
  .add(SystemGroup)
  // openapi.yaml says additionalProperties: false on every body: an unknown field (often a typo, such as
  // `limits.timeout`) is a 400 naming it rather than silently dropped.
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error" })
  // A local service as `npm start` runs it; clients point at their own deployment.
  .annotate(OpenApi.Servers, [{ url: "http://localhost:8080", description: "A local service (npm start)" }])
  .annotate(OpenApi.Title, "codemode execution service")
  .annotate(OpenApi.Version, "0.1.0")
  .annotate(
    OpenApi.Description,
    "Execute, suspend and resume codemode programs over HTTP. Tools are webhooks, signed per Standard Webhooks. " +
      "Every mutating /v1 request accepts an `Idempotency-Key` header: a repeat with the same key and request answers " +
      "the stored response (with `idempotent-replayed: true`), the same key with a different request answers 409.",
  ) {}
