/**
 * The server, assembled. Layers are built outermost first (stack-notes §6.4): the configuration, then the
 * database (connect + migrations) and, beside it, the executor, then the services, then the HTTP server — so the
 * socket only listens once everything behind it is ready, and a request can never arrive before its routes exist.
 * The executor needs no database: its program processes load the library while this one opens the database,
 * on another core (start-up time, bench/startup.ts). Shutdown runs the other way: the socket closes, then `Runs`
 * suspends (or fails) what it was executing, then the pool closes.
 */
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as References from "effect/References"
import * as Scope from "effect/Scope"
import * as HttpRouter from "effect/http/HttpRouter"
import * as HttpServer from "effect/http/HttpServer"
import { createServer } from "node:http"
import type { Duplex } from "node:stream"
import { ServerConfig } from "./config.ts"
import { Executor } from "./executor.ts"
import * as Isolation from "./isolation/executor.ts"
import { ApiKeys } from "./keys.ts"
import { routes } from "./http.ts"
import { Metrics } from "./metrics.ts"
import { Notifications } from "./notifications.ts"
import { ToolRegistry } from "./registry.ts"
import { RowSeal } from "./row-seal.ts"
import { Runs } from "./runs.ts"
import * as Database from "./store/postgres/database.ts"
import type { DatabaseKind } from "./store/postgres/database.ts"
import * as PostgresStore from "./store/postgres/layer.ts"
import { Webhooks } from "./webhooks.ts"

export interface ServerOptions {
  /** The interpreter behind the service; the codemode VM in a pool of processes by default (tests may pass a scripted one). */
  readonly executor?: Layer.Layer<Executor> | undefined
  /** How replicas hear about each other; by default LISTEN/NOTIFY on a Postgres server, in-process on PGlite. */
  readonly notifications?: Layer.Layer<Notifications, never, PgClient.PgClient | DatabaseKind> | undefined
}

/** Runs and everything it needs, over a migrated database and an executor. */
const services = (options: ServerOptions) =>
  Runs.layer.pipe(
    Layer.provideMerge(
      Layer.mergeAll(ToolRegistry.layer, ApiKeys.layer, Webhooks.layer, options.notifications ?? Notifications.layer, RowSeal.layer).pipe(
        Layer.provideMerge(Layer.merge(Metrics.layer, PostgresStore.layer)),
      ),
    ),
  )

/**
 * The router's default (100 characters) would turn legitimate paths into 404s: a tool path may be 16 names of 64
 * characters (1039), and a call key holds its run id (up to 128) and the call's number.
 */
const MAX_PARAM_LENGTH = 2048

/**
 * Requests Node's HTTP parser refuses before any route sees them (headers too large, a malformed request line or
 * body framing) get the API's JSON error body too, instead of Node's bare status line.
 */
const answerClientError = (error: Error & { code?: string }, socket: Duplex): void => {
  if (error.code === "ECONNRESET" || !socket.writable) return
  const [status, reason, kind, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request Header Fields Too Large", "HeadersTooLarge", "The request headers are larger than the server accepts"]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request Timeout", "RequestTimeout", "The request did not arrive in time"]
        : [400, "Bad Request", "InvalidRequest", "The request is not valid HTTP"]
  const body = JSON.stringify({ error: { kind, message } })
  socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`)
}

/**
 * The HTTP server, whose requests start in `ambient`: the context the server was started in (its runtime's
 * references: log level, loggers, tracing), not the one it is served from, which holds every service of the stack.
 * The API builder merges its group's context, which holds them all, into the request's on every request
 * (HttpApiBuilder's provideContext: two copies of the request's context), so they were copied twice for nothing.
 */
const listen = (ambient: Context.Context<never>) =>
  Layer.effect(
    HttpServer.HttpServer,
    Effect.map(HttpServer.HttpServer, (server) =>
      HttpServer.make({
        address: server.address,
        serve: (app, middleware) =>
          Effect.flatMap(Effect.scope, (scope) =>
            (middleware === undefined ? server.serve(app) : server.serve(app, middleware)).pipe(
              Effect.updateContext((_: Context.Context<never>) => Context.add(ambient, Scope.Scope, scope)),
            ),
          ),
      }),
    ),
  ).pipe(
    Layer.provideMerge(
      Layer.unwrap(
        Effect.gen(function* () {
          const config = yield* ServerConfig
          return NodeHttpServer.layer(() => createServer({ keepAliveTimeout: 65_000 }).on("clientError", answerClientError), {
            port: config.port,
            host: config.host,
            gracefulShutdownTimeout: "5 seconds",
          })
        }),
      ),
    ),
  )

/**
 * The whole server for a given configuration: exposes the `HttpServer` (its address) and the services, so tests
 * can build replicas in process and look at them.
 */
export const layer = (options: ServerOptions = {}) =>
  Layer.unwrap(
    Effect.map(Effect.context<never>(), (ambient) =>
      HttpRouter.serve(routes, { disableLogger: true, disableListenLog: true, routerConfig: { maxParamLength: MAX_PARAM_LENGTH } }).pipe(
        Layer.provideMerge(listen(ambient)),
        Layer.provideMerge(services(options)),
        Layer.provideMerge(Layer.merge(Database.layer, options.executor ?? Isolation.layer)),
      ),
    ),
  ).pipe(
    // Nothing exports spans: tracing only cost every request and statement a span it made and dropped. For the
    // same reason the services' methods are `Effect.fnUntraced`: a named `Effect.fn` captures its caller's stack
    // at every call (~3.5 us), tracer or not.
    Layer.provide(Layer.succeed(References.TracerEnabled, false)),
  )

/** Prints where the server listens, once it does (the child-process tests read this line). */
export const announce = Layer.effectDiscard(
  Effect.gen(function* () {
    const { address } = yield* HttpServer.HttpServer
    const config = yield* ServerConfig
    // The address really bound: the configured host (a wildcard stays one, with how to reach it from this
    // machine) and the port the socket got (PORT=0 picks one).
    if (!("port" in address)) return yield* Effect.sync(() => console.log(`codemode listening on ${address.path}`))
    const host = config.host.includes(":") ? `[${config.host}]` : config.host
    const wildcard = config.host === "0.0.0.0" || config.host === "::"
    const local = wildcard ? `, http://127.0.0.1:${address.port} from this machine` : ""
    yield* Effect.sync(() => console.log(`codemode listening on http://${host}:${address.port} (replica ${config.replicaId}${local})`))
  }),
)

/** The server configured from the environment, announced on stdout. */
export const main = announce.pipe(Layer.provideMerge(layer()), Layer.provide(ServerConfig.layer))

/**
 * Serves until interrupted (SIGTERM / SIGINT under `NodeRuntime.runMain`). On the way out `Runs` is drained
 * first — while the socket is still open — so requests waiting on a run are answered with the suspended (or
 * failed) run before the server closes; the finalizer below runs before the layer's own.
 */
export const serve = Effect.scoped(
  Effect.gen(function* () {
    const context = yield* Layer.build(main)
    const runs = Context.get(context, Runs)
    yield* Effect.addFinalizer(() => runs.drain)
    return yield* Effect.never
  }),
)
