/**
 * The HTTP API of the execution service, declared once (issue 6 "The HTTP API"): the wire models, the error
 * bodies, and the endpoints grouped by resource. The server (`http.ts`), the typed client (`../client`) and
 * `openapi.yaml` (`openapi.ts`) are all derived from this module, so they cannot drift. It holds schemas only —
 * no server code — so a client can import it without pulling in Postgres or the interpreter.
 *
 * Every error answer has the body `{ error: { kind, message, calls? } }`: the HTTP status says which class of
 * failure it is, `kind` says exactly what happened (`RunNotFound`, `RunNotSuspended`, `NotSuspendable`, …).
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

// ---------------------------------------------------------------------------------------------------------------
// Errors

/**
 * A call that keeps a run from being suspended: it is running and cannot be safely repeated. `path` is the call
 * as the program wrote it (`tools.orders.lookup`), as in the Result's `toolCalls`.
 */
export const BlockingCall = Schema.Struct({ key: Schema.String, path: Schema.String })
export type BlockingCall = typeof BlockingCall.Type

export const ErrorDetail = Schema.Struct({
  kind: Schema.String,
  message: Schema.String,
  calls: Schema.optionalKey(Schema.Array(BlockingCall)),
})
export type ErrorDetail = typeof ErrorDetail.Type

const errorFields = { error: ErrorDetail }

// Each class has a `_tag` for matching (`catchTag`, `error._tag === "NotFound"`); it is not part of the body.

export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(errorFields, { httpApiStatus: 400 }) {
  readonly _tag = "BadRequest"
}
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(errorFields, { httpApiStatus: 401 }) {
  readonly _tag = "Unauthorized"
}
export class NotFound extends Schema.Error<NotFound>("NotFound")(errorFields, { httpApiStatus: 404 }) {
  readonly _tag = "NotFound"
}
export class Conflict extends Schema.Error<Conflict>("Conflict")(errorFields, { httpApiStatus: 409 }) {
  readonly _tag = "Conflict"
}
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(errorFields, { httpApiStatus: 413 }) {
  readonly _tag = "PayloadTooLarge"
}
export class Unavailable extends Schema.Error<Unavailable>("Unavailable")(errorFields, { httpApiStatus: 503 }) {
  readonly _tag = "Unavailable"
}

/** Any of the error answers, as the server builds them. */
export type ApiError = BadRequest | Unauthorized | NotFound | Conflict | PayloadTooLarge | Unavailable

/**
 * The errors every `/v1` endpoint declares: any request can be malformed or too large, name something that does
 * not exist or is in the wrong state, or meet a database that is down (401 comes with the auth middleware).
 */
const v1Errors = [BadRequest, NotFound, Conflict, PayloadTooLarge, Unavailable] as const

// ---------------------------------------------------------------------------------------------------------------
// Library models (spec "Results"), as they cross the wire

export const SourceLocation = Schema.Struct({ line: Schema.Int, column: Schema.Int })

export const Diagnostic = Schema.Struct({
  kind: Schema.String,
  message: Schema.String,
  location: Schema.optionalKey(SourceLocation),
  path: Schema.optionalKey(Schema.String),
})

export const ToolCall = Schema.Struct({ path: Schema.String, key: Schema.String })

/** The library's `CodeMode.Result`. */
export const Result = Schema.Union([
  Schema.Struct({
    ok: Schema.Literal(true),
    value: Schema.Json,
    warnings: Schema.optionalKey(Schema.Array(Diagnostic)),
    logs: Schema.optionalKey(Schema.Array(Schema.String)),
    truncated: Schema.optionalKey(Schema.Boolean),
    toolCalls: Schema.Array(ToolCall),
  }),
  Schema.Struct({
    ok: Schema.Literal(false),
    error: Diagnostic,
    logs: Schema.optionalKey(Schema.Array(Schema.String)),
    truncated: Schema.optionalKey(Schema.Boolean),
    toolCalls: Schema.Array(ToolCall),
  }),
]).annotate({ identifier: "Result" })
export type Result = typeof Result.Type

export const Limits = Schema.Struct({
  timeoutMs: Schema.optionalKey(Schema.Finite.check(Schema.isGreaterThan(0))),
  maxToolCalls: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  maxOutputBytes: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))),
  /** At most the service's `CODEMODE_MAX_MEMORY_BYTES`, which is also the default. */
  maxMemoryBytes: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThan(0))),
}).annotate({ identifier: "Limits" })
export type Limits = typeof Limits.Type

// ---------------------------------------------------------------------------------------------------------------
// Runs

export const RunStatus = Schema.Literals(["running", "suspended", "succeeded", "failed", "cancelled"])
export type RunStatus = typeof RunStatus.Type

/** A client-chosen run id: letters, digits, `.`, `_`, `-`; it becomes part of every call key (`<runId>:<callId>`). */
export const RunId = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/))

/** A tool path (`orders.lookup`) or namespace prefix (`orders`): dot-separated names. */
export const ToolPath = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_$-]{1,64}(\.[A-Za-z0-9_$-]{1,64}){0,15}$/))

export const CallState = Schema.Literals(["queued", "running", "started"])

/**
 * A webhook call of a run that has not settled: `running` while it is in flight, `queued` when a suspend
 * interrupted it (it runs again, with the same key, on resume). `path` is the tool's registered path.
 */
export const PendingCall = Schema.Struct({ key: Schema.String, path: Schema.String, state: CallState })
export type PendingCall = typeof PendingCall.Type

const runFields = {
  id: Schema.String,
  status: RunStatus,
  result: Schema.optionalKey(Result),
  pendingCalls: Schema.optionalKey(Schema.Array(PendingCall)),
  createdAt: Schema.String,
  updatedAt: Schema.String,
}

export const Run = Schema.Struct(runFields).annotate({ identifier: "Run" })
export type Run = typeof Run.Type

/** The same Run while it is still running: answered with `202 Accepted`. */
const RunAccepted = Schema.Struct({ ...runFields, status: Schema.Literal("running") })
  .annotate({ identifier: "RunRunning" })
  .pipe(HttpApiSchema.status(202))

export const CreateRun = Schema.Struct({
  code: Schema.String,
  tools: Schema.optionalKey(Schema.Array(ToolPath)),
  limits: Schema.optionalKey(Limits),
  id: Schema.optionalKey(RunId),
  wait: Schema.optionalKey(Schema.Boolean),
})
export type CreateRun = typeof CreateRun.Type

/**
 * One Server-Sent Event of a run's history (`GET /v1/runs/{id}/events`): `id` is the event's position (send it
 * back as `Last-Event-ID` to continue after it), `event` its type — `run.created`, `run.suspended`, `run.resumed`,
 * `run.succeeded`, `run.failed`, `run.cancelled`, `call.started`, `call.settled` — and `data` a JSON object with
 * the details and `at` (ISO time); the final `run.succeeded` / `run.failed` carries the `result` (with its logs).
 */
export const RunEvent = Schema.Struct({ id: Schema.String, event: Schema.String, data: Schema.String }).annotate({
  identifier: "RunEvent",
})
export type RunEvent = typeof RunEvent.Type

export const ResumeRun = Schema.Struct({ wait: Schema.optionalKey(Schema.Boolean) })

/** The result of a durable call, sent by the job that ran it. */
export const CallCompletion = Schema.Union([
  Schema.Struct({ ok: Schema.Literal(true), output: Schema.optionalKey(Schema.Json) }),
  Schema.Struct({ ok: Schema.Literal(false), error: Schema.Struct({ message: Schema.String }) }),
]).annotate({ identifier: "CallCompletion" })
export type CallCompletion = typeof CallCompletion.Type

/** A durable call's stored outcome (the first completion wins; later ones get it back). */
export const CallOutcome = Schema.Struct({
  key: Schema.String,
  runId: Schema.String,
  outcome: Schema.Union([
    Schema.Struct({ ok: Schema.Literal(true), output: Schema.Json }),
    Schema.Struct({ ok: Schema.Literal(false), error: Schema.Struct({ kind: Schema.String, message: Schema.String }) }),
  ]),
}).annotate({ identifier: "CallOutcome" })
export type CallOutcome = typeof CallOutcome.Type

/** The answer to a heartbeat: the call's state (`settled` when it has already ended, e.g. timed out). */
export const CallHeartbeat = Schema.Struct({
  key: Schema.String,
  runId: Schema.String,
  state: Schema.Literals(["running", "started", "settled", "queued"]),
}).annotate({ identifier: "CallHeartbeat" })
export type CallHeartbeat = typeof CallHeartbeat.Type

export const RunPage = Schema.Struct({
  runs: Schema.Array(Run),
  nextCursor: Schema.optionalKey(Schema.String),
})
export type RunPage = typeof RunPage.Type

export const ListRunsQuery = {
  status: Schema.optionalKey(RunStatus),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }))),
  cursor: Schema.optionalKey(Schema.String),
}

// ---------------------------------------------------------------------------------------------------------------
// Tools

export const ToolMode = Schema.Literals(["plain", "idempotent", "durable"])
export type ToolMode = typeof ToolMode.Type

/** A JSON Schema document (rendered into the tool's signature, not enforced by the service). */
export const JsonSchema = Schema.Record(Schema.String, Schema.Json).annotate({ identifier: "JsonSchema" })

/** An http(s) URL without credentials (fetch refuses them, and they would end up in messages). */
export const HttpUrl = Schema.String.check(
  Schema.makeFilter(
    (s: string) => {
      try {
        const u = new URL(s)
        if (u.protocol !== "http:" && u.protocol !== "https:") return "Expected an http or https URL"
        if (u.username !== "" || u.password !== "") return "Expected a URL without credentials"
        return undefined
      } catch {
        return "Expected an absolute http or https URL"
      }
    },
    { description: "an http or https URL without credentials", format: "uri" },
  ),
)

export const RegisterTool = Schema.Struct({
  description: Schema.String,
  input: JsonSchema,
  output: Schema.optionalKey(JsonSchema),
  url: HttpUrl,
  mode: ToolMode,
  /**
   * Plain and idempotent tools: how long the webhook may take to answer (at most 10 minutes). Durable tools: how long
   * the job may take from `start` to its completion (at most 7 days) before the call fails.
   */
  timeoutMs: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 604_800_000 }))),
  /** Durable tools only: the call fails when its job sends no heartbeat for this long. */
  heartbeatTimeoutMs: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 100, maximum: 86_400_000 }))),
})
export type RegisterTool = typeof RegisterTool.Type

/** The longest answer time of a plain or idempotent webhook. */
export const MAX_WEBHOOK_TIMEOUT_MS = 600_000

/** The answer to a registration: the Standard Webhooks secret every call to the tool is signed with. */
export const RegisteredTool = Schema.Struct({ path: Schema.String, secret: Schema.String })

export const CatalogTool = Schema.Struct({
  path: Schema.String,
  description: Schema.String,
  signature: Schema.String,
  input: JsonSchema,
  output: Schema.optionalKey(JsonSchema),
  url: Schema.String,
  mode: ToolMode,
  timeoutMs: Schema.optionalKey(Schema.Int),
  heartbeatTimeoutMs: Schema.optionalKey(Schema.Int),
})
export type CatalogTool = typeof CatalogTool.Type

export const Namespace = Schema.Struct({ path: Schema.String, description: Schema.String })
export type Namespace = typeof Namespace.Type

export const Catalog = Schema.Struct({ tools: Schema.Array(CatalogTool), namespaces: Schema.Array(Namespace) })
export type Catalog = typeof Catalog.Type

export const PutNamespace = Schema.Struct({ description: Schema.String })

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

const idParam = { id: Schema.String }
const pathParam = { path: ToolPath }

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
    }).annotate(OpenApi.Description, "Lists runs, newest first. Pass `nextCursor` back as `cursor` for the next page."),
    HttpApiEndpoint.get("get", "/v1/runs/:id", { params: idParam, success: Run, error: v1Errors }),
    HttpApiEndpoint.get("events", "/v1/runs/:id/events", {
      params: idParam,
      success: HttpApiSchema.StreamSse({ events: RunEvent }),
      error: v1Errors,
    }).annotate(
      OpenApi.Description,
      "The run's history as Server-Sent Events (status changes, tool calls and their outcomes), then its new events " +
        "live, from any replica; `Last-Event-ID` continues after an event. The stream ends after the run's last event.",
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
      "Completes a started durable call (any replica); completing again answers the stored outcome.",
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
      "Completes the durable call this capability URL was made for (no API key); again answers the stored outcome.",
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
    HttpApiEndpoint.get("health", "/health", { success: Schema.Struct({ status: Schema.Literal("ok") }) }).annotate(
      OpenApi.Description,
      "The process is up.",
    ),
    HttpApiEndpoint.get("ready", "/ready", {
      success: Schema.Struct({ status: Schema.Literal("ready"), migration: Schema.Int }),
      error: Unavailable,
    }).annotate(OpenApi.Description, "The database is reachable and every migration is applied."),
    HttpApiEndpoint.get("metrics", "/metrics", {
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/plain" })),
      error: Unavailable,
    }).annotate(
      OpenApi.Description,
      "Prometheus text format: runs by status (from the database), and this replica's tool calls, webhook latency, " +
        "snapshot bytes and resumes.",
    ),
    HttpApiEndpoint.get("openapi", "/openapi.yaml", {
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "application/yaml" })),
    }).annotate(OpenApi.Description, "This document."),
  )
  .annotate(OpenApi.Description, "Probes and documents") {}

export class Api extends HttpApi.make("codemode")
  .add(RunsGroup)
  .add(ToolsGroup)
  .add(CallsGroup)
  .add(CallbacksGroup)
  .add(SystemGroup)
  .annotate(OpenApi.Title, "codemode execution service")
  .annotate(OpenApi.Version, "0.1.0")
  .annotate(
    OpenApi.Description,
    "Execute, suspend and resume codemode programs over HTTP. Tools are webhooks, signed per Standard Webhooks. " +
      "Every mutating /v1 request accepts an `Idempotency-Key` header: a repeat with the same key and request answers " +
      "the stored response (with `idempotent-replayed: true`), the same key with a different request answers 409.",
  ) {}
