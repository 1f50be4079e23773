/**
 * The HTTP layer: thin handlers over the services (decode, call one service, encode) and the one error choke
 * point. Domain errors are mapped to their answer by tag in `toApiError`; everything the HTTP machinery itself
 * rejects (malformed JSON, a body that does not match the schema, an oversized body, an unknown route) and any
 * unexpected failure goes through the global `errors` middleware, which also applies the body limit. Every error
 * body is `{ error: { kind, message } }`; unexpected failures are logged and answered with a generic 500.
 */
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import * as SqlError from "effect/sql/SqlError"
import * as ByteSize from "effect/ByteSize"
import * as HttpIncomingMessage from "effect/http/HttpIncomingMessage"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServerError from "effect/http/HttpServerError"
import * as HttpServerResponse from "effect/http/HttpServerResponse"
import * as HttpApiBuilder from "effect/http-api/HttpApiBuilder"
import * as HttpApiError from "effect/http-api/HttpApiError"
import {
  BadRequest,
  Conflict,
  MAX_WEBHOOK_TIMEOUT_MS,
  NotFound,
  Unavailable,
  type Unauthorized,
  type ApiError,
  type ErrorKind,
  type CallCompletion,
  type Catalog,
  type CatalogTool,
  type ForkRun,
  type RegisterTool,
} from "./api.ts"
import { Api, Authorization, Idempotency as IdempotencyMiddleware, Tenant } from "./endpoints.ts"
import * as Auth from "./auth.ts"
import * as Idempotency from "./idempotency.ts"
import { schemaProblems } from "./tool-schemas.ts"
import { ServerConfig } from "./config.ts"
import { appliedMigration, latestMigration } from "./store/postgres/database.ts"
import { Executor } from "./executor.ts"
import { yaml } from "./openapi.ts"
import * as Ui from "./ui.ts"
import { type NamespaceNotFound, ToolNotFound } from "./registry.ts"
import { ToolRegistry } from "./registry.ts"
import { Metrics } from "./metrics.ts"
import { Webhooks } from "./webhooks.ts"
import { deeperThan, MAX_DATA_DEPTH, schemaRefusal } from "./json-guard.ts"
import { isEventId, Runs, type CallNotFound } from "./runs.ts"
import type { CallAlreadySettled, RunsError } from "./runs/errors.ts"
import { waitMs } from "./runs/wait.ts"
import { sqlMessage, sqlState } from "./store/errors.ts"
import { RunStore } from "./store/runs.ts"
import type { Registrations, ToolPathConflict } from "./store/tools.ts"

/** What the runs service fails with, and the call and tool errors beside it. */
type DomainError = RunsError | CallNotFound | CallAlreadySettled | ToolNotFound | NamespaceNotFound | ToolPathConflict

const detail = <const K extends string>(kind: K, message: string) => ({ error: { kind, message } })

/** The choke point for domain errors: each tag has its answer. */
export const toApiError = (e: DomainError): Effect.Effect<never, Exclude<ApiError, Unauthorized>> => {
  switch (e._tag) {
    case "RunNotFound":
      return Effect.fail(new NotFound(detail("RunNotFound", e.message)))
    case "CallNotFound":
      return Effect.fail(new NotFound(detail("CallNotFound", e.message)))
    case "CheckpointNotFound":
      return Effect.fail(new NotFound(detail("CheckpointNotFound", e.message)))
    case "CallAlreadySettled":
      return Effect.fail(new Conflict({ error: { kind: "CallAlreadySettled", message: e.message, outcome: e.outcome } }))
    case "ToolNotFound":
      return Effect.fail(new NotFound(detail("ToolNotFound", e.message)))
    case "NamespaceNotFound":
      return Effect.fail(new NotFound(detail("NamespaceNotFound", e.message)))
    case "RunConflict":
      return Effect.fail(new Conflict(detail(e.kind, e.message)))
    case "ToolPathConflict":
      return Effect.fail(new Conflict(detail("ToolPathConflict", e.message)))
    case "SuspendRefused":
      return Effect.fail(new Conflict({ error: { kind: e.reason === "Blocked" ? "SuspendBlocked" : e.reason, message: e.message, calls: e.calls } }))
    case "UnknownToolFilter":
      return Effect.fail(new BadRequest(detail("UnknownTool", e.message)))
    case "InvalidCursor":
      return Effect.fail(new BadRequest(detail("InvalidCursor", e.message)))
    case "ControlTimeout":
      return Effect.fail(new Unavailable(detail("ControlTimeout", e.message)))
    case "ShuttingDown":
      return Effect.fail(new Unavailable(detail("ShuttingDown", e.message)))
    case "SqlError":
      if (refusesData(e)) {
        return Effect.fail(new BadRequest(detail("InvalidRequest", `The database cannot store this request: ${sqlMessage(e)}`)))
      }
      return Effect.logError("database error", e).pipe(
        Effect.andThen(Effect.fail(new Unavailable(detail("DatabaseUnavailable", "The database is unavailable; try again")))),
      )
  }
}

/**
 * A statement Postgres refused for the data it carried, not for being unavailable: text with U+0000 (class 22,
 * data exception), JSON too deep for the server (class 54, program limit exceeded) or for the driver to encode.
 */
const refusesData = (e: SqlError.SqlError): boolean => {
  const state = sqlState(e)
  if (state !== undefined) return state.startsWith("22") || state.startsWith("54")
  return e.cause._tag === "UnknownError" && e.cause.cause instanceof RangeError
}

/** A completion's output is stored and handed to the program: refused when nested beyond what either takes. */
const checkCompletion = (completion: CallCompletion): Effect.Effect<void, BadRequest> =>
  completion.ok && deeperThan(completion.output ?? null, MAX_DATA_DEPTH)
    ? Effect.fail(new BadRequest(detail("InvalidCompletion", `The output is nested deeper than ${MAX_DATA_DEPTH} levels`)))
    : Effect.void

/** A fork's replacement values reach the program as a completion's output does: refused when nested as deep. */
const checkForkOutcomes = (fork: ForkRun): Effect.Effect<void, BadRequest> => {
  for (const [key, o] of Object.entries(fork.outcomes ?? {})) {
    if (o.ok && deeperThan(o.value ?? null, MAX_DATA_DEPTH)) {
      return Effect.fail(new BadRequest(detail("InvalidOutcome", `outcomes[${JSON.stringify(key)}].value is nested deeper than ${MAX_DATA_DEPTH} levels`)))
    }
  }
  return Effect.void
}

const handle = <A, R>(effect: Effect.Effect<A, DomainError, R>): Effect.Effect<A, Exclude<ApiError, Unauthorized>, R> =>
  Effect.catch(effect, toApiError)

/**
 * Runs `f` for the request's tenant (decided by the auth middleware). Not an `Effect.gen`: a generator function made
 * per request gets a hidden class of its own in old space, which keeps the request alive until a full GC.
 */
const withTenant = <A, E, R>(f: (tenant: string) => Effect.Effect<A, E, R>) => Effect.flatMap(Effect.service(Tenant), f)

const RunsHandlers = HttpApiBuilder.group(
  Api,
  "runs",
  Effect.fn(function* (handlers) {
    const runs = yield* Runs
    const config = yield* ServerConfig
    return handlers
      .handle("create", ({ payload }) => handle(withTenant((t) => runs.create(t, payload))))
      .handle("list", ({ query }) => handle(withTenant((t) => runs.list(t, query))))
      .handle("get", ({ params, query }) => handle(withTenant((t) => runs.get(t, params.id, waitMs(query.wait, config, false)))))
      .handle("events", ({ params, query, request }) => {
        const last = request.headers["last-event-id"] ?? query.after
        if (last !== undefined && !isEventId(last)) {
          return Effect.fail(new BadRequest(detail("InvalidLastEventId", "Last-Event-ID (or after) must be the id of an event this stream sent")))
        }
        return handle(withTenant((t) => runs.events(t, params.id, last)))
      })
      .handle("checkpoints", ({ params }) => handle(withTenant((t) => runs.checkpoints(t, params.id))))
      .handle("suspend", ({ params }) => handle(withTenant((t) => runs.suspend(t, params.id))))
      .handle("resume", ({ params, payload }) =>
        handle(withTenant((t) => runs.resume(t, params.id, waitMs(payload.wait, config, true)))),
      )
      .handle("fork", ({ params, payload }) => Effect.andThen(checkForkOutcomes(payload), handle(withTenant((t) => runs.fork(t, params.id, payload)))))
      .handle("cancel", ({ params }) => handle(withTenant((t) => runs.cancel(t, params.id))))
  }),
)

const CallsHandlers = HttpApiBuilder.group(
  Api,
  "calls",
  Effect.fn(function* (handlers) {
    const runs = yield* Runs
    return handlers
      .handle("complete", ({ params, payload }) =>
        Effect.andThen(checkCompletion(payload), handle(withTenant((tenant) => runs.complete({ tenant, key: params.key }, payload)))),
      )
      .handle("heartbeat", ({ params }) => handle(withTenant((tenant) => runs.heartbeat({ tenant, key: params.key }))))
  }),
)

const CallbacksHandlers = HttpApiBuilder.group(
  Api,
  "callbacks",
  Effect.fn(function* (handlers) {
    const runs = yield* Runs
    return handlers
      .handle("complete", ({ params, payload }) => Effect.andThen(checkCompletion(payload), handle(runs.complete({ token: params.token }, payload))))
      .handle("heartbeat", ({ params }) => handle(runs.heartbeat({ token: params.token })))
  }),
)

/** The catalog answer: registrations with the engine's signature for each tool (never the secrets). */
const toCatalog = (registrations: Registrations, executor: Executor["Service"]): Catalog => {
  const signatures = new Map(executor.catalog(registrations.tools).map((e) => [e.path, e.signature]))
  return {
    tools: registrations.tools.map((t) => ({
      path: t.path,
      description: t.description,
      signature: signatures.get(t.path) ?? "",
      input: t.input as CatalogTool["input"],
      ...(t.output === undefined ? {} : { output: t.output as CatalogTool["input"] }),
      url: t.url,
      host: new URL(t.url).host,
      mode: t.mode,
      ...(t.timeoutMs === undefined ? {} : { timeoutMs: t.timeoutMs }),
      ...(t.heartbeatTimeoutMs === undefined ? {} : { heartbeatTimeoutMs: t.heartbeatTimeoutMs }),
    })),
    namespaces: registrations.namespaces,
  }
}

/** Why a registration cannot be accepted (the engine must accept the schemas). */
const refusal = (executor: Executor["Service"], path: string, tool: RegisterTool): BadRequest | undefined => {
  if (tool.mode !== "durable" && tool.heartbeatTimeoutMs !== undefined) {
    return new BadRequest(detail("InvalidTool", "heartbeatTimeoutMs applies to durable tools only"))
  }
  if (tool.mode !== "durable" && (tool.timeoutMs ?? 0) > MAX_WEBHOOK_TIMEOUT_MS) {
    return new BadRequest(detail("InvalidTool", `timeoutMs of a ${tool.mode} tool is at most ${MAX_WEBHOOK_TIMEOUT_MS} ms`))
  }
  // Checked before the engine renders the schemas: one that is too costly to render would block the process.
  const costly = schemaRefusal("input", tool.input) ?? (tool.output === undefined ? undefined : schemaRefusal("output", tool.output))
  if (costly !== undefined) return new BadRequest(detail("InvalidTool", costly))
  // Every problem at once, each with its pointer, so one correction fixes the registration.
  const problems = [...schemaProblems(tool.input, "/input"), ...(tool.output === undefined ? [] : schemaProblems(tool.output, "/output"))]
  if (problems.length > 0) return new BadRequest(detail("InvalidTool", `The tool's schemas are not valid JSON Schema (2020-12): ${problems.join("; ")}`))
  const refused = executor.check({ path, description: tool.description, input: tool.input, output: tool.output })
  return refused === undefined ? undefined : new BadRequest(detail("InvalidTool", refused))
}

const ToolsHandlers = HttpApiBuilder.group(
  Api,
  "tools",
  Effect.fn(function* (handlers) {
    const registry = yield* ToolRegistry
    const executor = yield* Executor
    const webhooks = yield* Webhooks
    const config = yield* ServerConfig
    return handlers
      .handle("put", ({ params, payload }) =>
        Effect.gen(function* () {
          const refused = refusal(executor, params.path, payload)
          if (refused !== undefined) return yield* refused
          // Outbound safety: checked here and again at every call (the address may change: DNS rebinding).
          const unsafe = yield* webhooks.checkUrl(payload.url)
          if (unsafe !== undefined) return yield* new BadRequest(detail("WebhookUrlRefused", unsafe))
          return yield* handle(withTenant((t) => registry.put(t, params.path, payload)))
        }),
      )
      .handle("list", () => handle(withTenant((t) => Effect.map(registry.all(t), (r) => toCatalog(r, executor)))))
      .handle("get", ({ params }) =>
        handle(
          withTenant((t) =>
            Effect.flatMap(registry.all(t), (r) => {
              const tool = toCatalog(r, executor).tools.find((x) => x.path === params.path)
              return tool === undefined ? Effect.fail(new ToolNotFound({ path: params.path })) : Effect.succeed(tool)
            }),
          ),
        ),
      )
      .handle("search", ({ query }) =>
        handle(
          withTenant((t) =>
            Effect.map(registry.all(t), (r) => ({ results: executor.search(r.tools, r.namespaces, { query: query.q, limit: query.limit }) })),
          ),
        ),
      )
      .handle("delete", ({ params }) => handle(withTenant((t) => registry.remove(t, params.path))))
      .handle("rotateSecret", ({ params }) => handle(withTenant((t) => registry.rotate(t, params.path, config.secretOverlapMs))))
      .handle("deleteNamespace", ({ params }) => handle(withTenant((t) => registry.removeNamespace(t, params.path))))
      .handle("putNamespace", ({ params, payload }) =>
        handle(withTenant((t) => registry.putNamespace(t, params.path, payload.description))),
      )
  }),
)

const SystemHandlers = HttpApiBuilder.group(
  Api,
  "system",
  Effect.fn(function* (handlers) {
    const sql = yield* SqlClient.SqlClient
    const metrics = yield* Metrics
    const runs = yield* Runs
    const store = yield* RunStore
    const executor = yield* Executor
    const latest = latestMigration()
    return handlers
      .handle("health", () => Effect.succeed({ status: "ok" as const }))
      .handle("ready", () =>
        Effect.gen(function* () {
          const applied = yield* appliedMigration.pipe(Effect.timeout("2 seconds"), Effect.provideService(SqlClient.SqlClient, sql))
          if (applied < latest) {
            return yield* new Unavailable(detail("MigrationsPending", `Migration ${applied} of ${latest} is applied`))
          }
          return { status: "ready" as const, migration: applied }
        }).pipe(
          Effect.catchTags({
            SqlError: () => Effect.fail(new Unavailable(detail("DatabaseUnavailable", "The database does not answer"))),
            TimeoutError: () => Effect.fail(new Unavailable(detail("DatabaseUnavailable", "The database does not answer"))),
          }),
        ),
      )
      .handle("metrics", () =>
        Effect.gen(function* () {
          const byStatus = yield* store.countByStatus.pipe(Effect.timeout("2 seconds"))
          return metrics.render(byStatus, { codemode_active_runs: yield* runs.activeCount }, executor.ahead?.counts())
        }).pipe(
          Effect.catchTags({
            SqlError: () => Effect.fail(new Unavailable(detail("DatabaseUnavailable", "The database does not answer"))),
            TimeoutError: () => Effect.fail(new Unavailable(detail("DatabaseUnavailable", "The database does not answer"))),
          }),
        ),
      )
      .handle("openapi", () => Effect.succeed(yaml()))
  }),
)

const json = (status: number, kind: ErrorKind, message: string) =>
  HttpServerResponse.jsonUnsafe({ error: { kind, message } }, { status })

/** The last word on every request: body limit, and a JSON error body for whatever the routes did not answer. */
const errors = HttpRouter.middleware(
  Effect.gen(function* () {
    const config = yield* ServerConfig
    // Typed as possibly failing (unknown): the router's types only accept middleware that passes errors on.
    return (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse, unknown> => httpEffect.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, ByteSize.bytes(config.maxBodyBytes)),
      // The API builder answers a body of another media type with a plain-text 415 of its own.
      Effect.map((response) =>
        response.status === 415
          ? json(415, "UnsupportedMediaType", `The request body must be JSON (content-type: application/json)`)
          : response,
      ),
      Effect.catchCause((cause) => {
        if (Cause.hasInterruptsOnly(cause)) return Effect.interrupt
        const failure = Cause.findErrorOption(cause)
        const defect = Cause.findDefect(cause)
        const error = failure._tag === "Some" ? failure.value : defect._tag === "Success" ? defect.success : undefined
        // A database failure that escaped the handlers (as a defect) says nothing about the request either.
        if (SqlError.isSqlError(error)) {
          return Effect.logError("database error", cause).pipe(
            Effect.as(json(503, "DatabaseUnavailable", "The database is unavailable; try again")),
          )
        }
        if (HttpApiError.HttpApiSchemaError.is(error) && error.kind !== "Body" && error.kind !== "ResponseHeaders") {
          return Effect.succeed(json(400, "InvalidRequest", `Invalid request ${error.kind.toLowerCase()}: ${error.cause.message}`))
        }
        if (HttpServerError.isHttpServerError(error)) {
          const reason = error.reason
          if (reason._tag === "RouteNotFound") {
            const url = reason.request.url.length > 200 ? `${reason.request.url.slice(0, 200)}…` : reason.request.url
            const why = reason.description === undefined ? "" : ` (${reason.description})`
            return Effect.succeed(json(404, "RouteNotFound", `No route for ${reason.request.method} ${url}${why}`))
          }
          if (reason._tag === "RequestParseError" && reason.reason === "BodyTooLarge") {
            return Effect.succeed(json(413, "PayloadTooLarge", `The request body is larger than ${config.maxBodyBytes} bytes`))
          }
          if (reason._tag === "RequestParseError") return Effect.succeed(json(400, "InvalidRequest", "The request body could not be read"))
        }
        return Effect.logError("unexpected failure", cause).pipe(
          Effect.as(json(500, "InternalError", "Internal server error")),
        )
      }),
    )
  }),
  { global: true },
)

/**
 * `group` built with only `services` in its context (it may need no other). The API builder keeps the context a group
 * was built in and merges it into the request's on every request (HttpApiBuilder's provideContext copies both into a
 * new map), so a group built among every service copied them all on each request.
 */
const builtWith = <A, E, const S extends ReadonlyArray<Context.Key<any, any>>>(
  services: S,
  group: Layer.Layer<A, E, Context.Service.Identifier<S[number]>>,
): Layer.Layer<A, E, Context.Service.Identifier<S[number]>> =>
  Layer.fromBuild((memoMap, scope) =>
    Layer.buildWithMemoMap(group, memoMap, scope).pipe(
      Effect.updateContext((all: Context.Context<Context.Service.Identifier<S[number]>>) => Context.pick(...services)(all)),
    ),
  )

/** Every route of the API, the inspector's files and the error middleware; needs the services and the HTTP server. */
export const routes = Layer.mergeAll(
  HttpApiBuilder.layer(Api).pipe(
    // provideMerge: the route pipeline looks the middleware up again when the routes are built.
    Layer.provide(
      Layer.mergeAll(
        builtWith([Runs, ServerConfig, Authorization, IdempotencyMiddleware], RunsHandlers),
        builtWith([ToolRegistry, Executor, Webhooks, ServerConfig, Authorization, IdempotencyMiddleware], ToolsHandlers),
        builtWith([Runs, Authorization, IdempotencyMiddleware], CallsHandlers),
        builtWith([Runs], CallbacksHandlers),
        builtWith([SqlClient.SqlClient, Metrics, Runs, RunStore, Executor], SystemHandlers),
      ).pipe(Layer.provideMerge(Layer.merge(Auth.layer, Idempotency.layer))),
    ),
  ),
  Ui.routes,
  errors,
)
