/**
 * The HTTP API of the execution service, declared once (issue 6 "The HTTP API"): the wire models and the error
 * bodies; `endpoints.ts` groups them into endpoints. The server (`http.ts`), the typed client (`../client`) and
 * `openapi.yaml` (`openapi.ts`) are all derived from these two modules, so they cannot drift. They hold schemas
 * only — no server code — so a client can import them without pulling in Postgres or the interpreter.
 *
 * Every error answer has the body `{ error: { kind, message, calls? } }`: the HTTP status says which class of
 * failure it is, `kind` says exactly what happened (`RunNotFound`, `RunNotSuspended`, `NotSuspendable`, …).
 */
import * as Schema from "effect/Schema"
import * as HttpApiSchema from "effect/http-api/HttpApiSchema"

// ---------------------------------------------------------------------------------------------------------------
// Errors

/**
 * A call that keeps a run from being suspended: it is running and cannot be safely repeated. `path` is the call
 * as the program wrote it (`tools.orders.lookup`), as in the Result's `toolCalls`.
 */
export const BlockingCall = Schema.Struct({ key: Schema.String, path: Schema.String })
export type BlockingCall = typeof BlockingCall.Type

/** A durable call's settled outcome, as the service stores it. */
export const SettledOutcome = Schema.Union([
  Schema.Struct({ ok: Schema.Literal(true), output: Schema.Json }),
  Schema.Struct({ ok: Schema.Literal(false), error: Schema.Struct({ kind: Schema.String, message: Schema.String }) }),
]).annotate({ identifier: "SettledOutcome" })

/**
 * The `kind`s each error status carries, all of them: the server cannot build an error of a kind not listed for its
 * class (the compiler checks every place that makes one), and openapi.yaml lists them as enums.
 */
export const ERROR_KINDS = {
  BadRequest: [
    "InvalidRequest",
    "InvalidTool",
    "InvalidCursor",
    "InvalidCompletion",
    "InvalidOutcome",
    "InvalidLastEventId",
    "InvalidIdempotencyKey",
    "UnknownTool",
    "WebhookUrlRefused",
  ],
  Unauthorized: ["Unauthorized"],
  NotFound: ["RunNotFound", "CallNotFound", "CheckpointNotFound", "ToolNotFound", "NamespaceNotFound", "RouteNotFound"],
  Conflict: [
    "RunExists",
    "RunNotSuspended",
    "RunFinished",
    "OwnerLost",
    "CheckpointRefused",
    "NotSuspendable",
    "SuspendBlocked",
    "CallAlreadySettled",
    "ToolPathConflict",
    "IdempotencyKeyReused",
    "IdempotencyKeyInUse",
  ],
  PayloadTooLarge: ["PayloadTooLarge"],
  UnsupportedMediaType: ["UnsupportedMediaType"],
  InternalError: ["InternalError"],
  Unavailable: ["DatabaseUnavailable", "MigrationsPending", "ControlTimeout", "ShuttingDown"],
} as const

export type ErrorKind = (typeof ERROR_KINDS)[keyof typeof ERROR_KINDS][number]

/** The body of an error answer whose `kind` is one of `kinds`. */
const errorFields = <const K extends ReadonlyArray<string>>(kinds: K) => ({
  error: Schema.Struct({
    kind: Schema.Literals(kinds),
    message: Schema.String,
    calls: Schema.optionalKey(Schema.Array(BlockingCall)),
    /** `CallAlreadySettled`: the outcome that stands. */
    outcome: Schema.optionalKey(SettledOutcome),
  }),
})

// Each class has a `_tag` for matching (`catchTag`, `error._tag === "NotFound"`); it is not part of the body.

export class BadRequest extends Schema.Error<BadRequest>("BadRequest")(errorFields(ERROR_KINDS.BadRequest), { httpApiStatus: 400 }) {
  readonly _tag = "BadRequest"
}
export class Unauthorized extends Schema.Error<Unauthorized>("Unauthorized")(errorFields(ERROR_KINDS.Unauthorized), { httpApiStatus: 401 }) {
  readonly _tag = "Unauthorized"
}
export class NotFound extends Schema.Error<NotFound>("NotFound")(errorFields(ERROR_KINDS.NotFound), { httpApiStatus: 404 }) {
  readonly _tag = "NotFound"
}
export class Conflict extends Schema.Error<Conflict>("Conflict")(errorFields(ERROR_KINDS.Conflict), { httpApiStatus: 409 }) {
  readonly _tag = "Conflict"
}
export class PayloadTooLarge extends Schema.Error<PayloadTooLarge>("PayloadTooLarge")(errorFields(ERROR_KINDS.PayloadTooLarge), { httpApiStatus: 413 }) {
  readonly _tag = "PayloadTooLarge"
}
export class Unavailable extends Schema.Error<Unavailable>("Unavailable")(errorFields(ERROR_KINDS.Unavailable), { httpApiStatus: 503 }) {
  readonly _tag = "Unavailable"
}
/** A request body that is not JSON (`content-type` other than `application/json`). */
export class UnsupportedMediaType extends Schema.Error<UnsupportedMediaType>("UnsupportedMediaType")(errorFields(ERROR_KINDS.UnsupportedMediaType), {
  httpApiStatus: 415,
}) {
  readonly _tag = "UnsupportedMediaType"
}
/** A failure of the server itself (a defect); declared so that every status the server sends is in openapi.yaml. */
export class InternalError extends Schema.Error<InternalError>("InternalError")(errorFields(ERROR_KINDS.InternalError), { httpApiStatus: 500 }) {
  readonly _tag = "InternalError"
}

/** Any of the error answers, as the server builds them. */
export type ApiError = BadRequest | Unauthorized | NotFound | Conflict | PayloadTooLarge | UnsupportedMediaType | InternalError | Unavailable


// ---------------------------------------------------------------------------------------------------------------
// Library models (spec "Results"), as they cross the wire

/** A place in a program's source: 1-based line and column. */
export const SourceLocation = Schema.Struct({ line: Schema.Int, column: Schema.Int })
export type SourceLocation = typeof SourceLocation.Type

export const Diagnostic = Schema.Struct({
  kind: Schema.String,
  message: Schema.String,
  location: Schema.optionalKey(SourceLocation),
  path: Schema.optionalKey(Schema.String),
})

/** A call the program made: `location` is where (the service records it when the call is admitted). */
export const ToolCall = Schema.Struct({ path: Schema.String, key: Schema.String, location: Schema.optionalKey(SourceLocation) })

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
 * interrupted it (it runs again, with the same key, on resume). `path` is the tool's registered path, `location`
 * where in the program the call was made: the line a suspended run waits on.
 */
export const PendingCall = Schema.Struct({
  key: Schema.String,
  path: Schema.String,
  state: CallState,
  location: Schema.optionalKey(SourceLocation),
})
export type PendingCall = typeof PendingCall.Type

/** Where a forked run started: checkpoint `checkpoint` (its `seq`) of run `run`. */
export const ForkedFrom = Schema.Struct({ run: Schema.String, checkpoint: Schema.Int }).annotate({ identifier: "ForkedFrom" })

const runFields = {
  id: Schema.String,
  status: RunStatus,
  /** The program's source, in every answer about one run (lists leave it out). */
  code: Schema.optionalKey(Schema.String),
  result: Schema.optionalKey(Result),
  pendingCalls: Schema.optionalKey(Schema.Array(PendingCall)),
  forkedFrom: Schema.optionalKey(ForkedFrom),
  createdAt: Schema.String,
  updatedAt: Schema.String,
}

export const Run = Schema.Struct(runFields).annotate({ identifier: "Run" })
export type Run = typeof Run.Type

/** The same Run while it is still running: answered with `202 Accepted`. */
export const RunAccepted = Schema.Struct({ ...runFields, status: Schema.Literal("running") })
  .annotate({ identifier: "RunRunning" })
  .pipe(HttpApiSchema.status(202))

/**
 * How long to wait for the run to settle or suspend: `true` (the service's default), `false` (answer at once),
 * milliseconds, or a duration (`"500ms"`, `"30s"`, `"2m"`); at most the service's maximum. `202` when it runs past.
 */
export const WaitBound = Schema.Union([
  Schema.Boolean,
  Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  Schema.String.check(Schema.isPattern(/^\d+(ms|s|m)?$/)),
]).annotate({ identifier: "WaitBound" })

export const CreateRun = Schema.Struct({
  code: Schema.String,
  tools: Schema.optionalKey(Schema.Array(ToolPath)),
  limits: Schema.optionalKey(Limits),
  id: Schema.optionalKey(RunId),
  wait: Schema.optionalKey(WaitBound),
})
export type CreateRun = typeof CreateRun.Type

/** How a call in flight in a forked state ends instead: the value it returns, or the message of its error. */
export const ForkOutcome = Schema.Union([
  Schema.Struct({ ok: Schema.Literal(true), value: Schema.optionalKey(Schema.Json) }),
  Schema.Struct({ ok: Schema.Literal(false), error: Schema.Struct({ message: Schema.String }) }),
]).annotate({ identifier: "ForkOutcome" })
export type ForkOutcome = typeof ForkOutcome.Type

/**
 * A new run from a kept checkpoint of a run (`GET /v1/runs/{id}/checkpoints`): `at` is its `seq` (the latest when
 * absent); `outcomes` answer, by their key in the forked run, calls that were in flight there; `tools` (the forked
 * run's filter when absent) and `limits` (each given one replaces the forked run's) as for a new run.
 */
export const ForkRun = Schema.Struct({
  at: Schema.optionalKey(Schema.Int.check(Schema.isGreaterThanOrEqualTo(1))),
  id: Schema.optionalKey(RunId),
  outcomes: Schema.optionalKey(Schema.Record(Schema.String, ForkOutcome)),
  tools: Schema.optionalKey(Schema.Array(ToolPath)),
  limits: Schema.optionalKey(Limits),
  wait: Schema.optionalKey(WaitBound),
}).annotate({ identifier: "ForkRun" })
export type ForkRun = typeof ForkRun.Type

/**
 * One Server-Sent Event of a run's history (`GET /v1/runs/{id}/events`): `id` is the event's number within its run
 * (1, 2, 3 …; send it back as `Last-Event-ID` to continue after it), `event` its type — `run.created`, `run.suspended`, `run.resumed`,
 * `run.succeeded`, `run.failed`, `run.cancelled`, `call.started`, `call.settled` — and `data` a JSON object with
 * the details and `at` (ISO time) — `run.created` of a fork has its `forkedFrom`, `call.started` the call's `key`,
 * `path` and `input`, `call.settled` its `outcome`; the final `run.succeeded` / `run.failed` carries the `result` (with its logs).
 */
export const RunEvent = Schema.Struct({ id: Schema.String, event: Schema.String, data: Schema.String }).annotate({
  identifier: "RunEvent",
})
export type RunEvent = typeof RunEvent.Type

/** `GET /v1/runs/{id}/events?after=7`: continue after event 7, as `Last-Event-ID` does (which wins when both are sent). */
export const EventsQuery = { after: Schema.optionalKey(Schema.String) }

export const ResumeRun = Schema.Struct({ wait: Schema.optionalKey(WaitBound) })

/** `GET /v1/runs/{id}?wait=30s`: long-polls until the run settles or suspends, or the bound passes. */
export const GetRunQuery = { wait: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d+(ms|s|m)?$/))) }

/** The result of a durable call, sent by the job that ran it. */
export const CallCompletion = Schema.Union([
  Schema.Struct({ ok: Schema.Literal(true), output: Schema.optionalKey(Schema.Json) }),
  Schema.Struct({ ok: Schema.Literal(false), error: Schema.Struct({ message: Schema.String }) }),
]).annotate({ identifier: "CallCompletion" })
export type CallCompletion = typeof CallCompletion.Type

/** A durable call's stored outcome (the first completion wins; the same one again gets it back, another is a 409). */
export const CallOutcome = Schema.Struct({
  key: Schema.String,
  runId: Schema.String,
  outcome: SettledOutcome,
}).annotate({ identifier: "CallOutcome" })
export type CallOutcome = typeof CallOutcome.Type

/** The answer to a heartbeat: the call's state (`settled` when it has already ended, e.g. timed out). */
export const CallHeartbeat = Schema.Struct({
  key: Schema.String,
  runId: Schema.String,
  state: Schema.Literals(["running", "started", "settled", "queued"]),
}).annotate({ identifier: "CallHeartbeat" })
export type CallHeartbeat = typeof CallHeartbeat.Type

/**
 * A state a run saved at a call boundary, kept so a run can be forked from it: `calls` calls had been admitted
 * when it was taken; `after` is the last of them (its outcome is null while it had none).
 */
export const RunCheckpoint = Schema.Struct({
  seq: Schema.Int,
  calls: Schema.Int,
  size: Schema.Int,
  createdAt: Schema.String,
  after: Schema.optionalKey(
    Schema.Struct({ key: Schema.String, path: Schema.String, input: Schema.NullOr(Schema.Json), outcome: Schema.NullOr(Schema.Json) }),
  ),
}).annotate({ identifier: "RunCheckpoint" })
export type RunCheckpoint = typeof RunCheckpoint.Type

export const RunCheckpoints = Schema.Struct({ runId: Schema.String, checkpoints: Schema.Array(RunCheckpoint) }).annotate({
  identifier: "RunCheckpoints",
})
export type RunCheckpoints = typeof RunCheckpoints.Type

export const RunPage = Schema.Struct({
  runs: Schema.Array(Run),
  nextCursor: Schema.optionalKey(Schema.String),
})
export type RunPage = typeof RunPage.Type

/** A time as `Date.parse` reads it: ISO 8601, `2026-12-05T15:00:00Z` or `2026-12-05`. */
export const IsoTime = Schema.String.check(
  Schema.makeFilter((s: string) => (Number.isNaN(Date.parse(s)) ? "Expected an ISO 8601 time" : undefined), {
    description: "an ISO 8601 time",
    format: "date-time",
  }),
)

/** The bounds of a page size (`limit`). */
export const PAGE_LIMIT = { minimum: 1, maximum: 100 } as const

export const ListRunsQuery = {
  status: Schema.optionalKey(RunStatus),
  /** Only runs that made a call to this tool (its registered path). */
  tool: Schema.optionalKey(ToolPath),
  /** Only runs created at or after this time. */
  since: Schema.optionalKey(IsoTime),
  /** Only runs created before this time. */
  until: Schema.optionalKey(IsoTime),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween(PAGE_LIMIT))),
  cursor: Schema.optionalKey(Schema.String),
}

// ---------------------------------------------------------------------------------------------------------------
// Tools

export const ToolMode = Schema.Literals(["plain", "idempotent", "durable"])
export type ToolMode = typeof ToolMode.Type

/**
 * A JSON Schema document (draft 2020-12): rendered into the tool's signature, checked against the meta-schema at
 * registration, and enforced on every call's input and output (`tool-schemas.ts`).
 */
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
  /** The webhook's host (and port), for showing where calls go without the URL's path and query. */
  host: Schema.String,
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

/** `GET /v1/tools/search?q=…&limit=`: the tenant's tools a program's `search(q)` would find, in its order. */
export const ToolSearchQuery = {
  q: Schema.optionalKey(Schema.String),
  limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween(PAGE_LIMIT))),
}

/** A tool a search found: its registered path, description, signature, and how well it matched (0 to 1). */
export const ToolSearchResult = Schema.Struct({
  path: Schema.String,
  description: Schema.String,
  signature: Schema.String,
  score: Schema.Finite,
}).annotate({ identifier: "ToolSearchResult" })
export type ToolSearchResult = typeof ToolSearchResult.Type

export const ToolSearch = Schema.Struct({ results: Schema.Array(ToolSearchResult) }).annotate({ identifier: "ToolSearch" })
export type ToolSearch = typeof ToolSearch.Type
