/**
 * The service's configuration, read once from the environment with Effect `Config` (issue 6 "Config from the
 * environment"). Everything tunable lives here so tests can build a server from a plain record
 * (`ConfigProvider.fromUnknown`) instead of mutating `process.env`.
 *
 * | variable                      | default            | meaning                                                  |
 * | ----------------------------- | ------------------ | -------------------------------------------------------- |
 * | `PORT`                        | 8080               | listening port (0 picks a free one)                      |
 * | `HOST`                        | 0.0.0.0            | listening address                                        |
 * | `DATABASE_URL`                | (unset)            | Postgres server; unset = embedded PGlite in `PGLITE_DIR` |
 * | `PGLITE_DIR`                  | ./data/pglite      | embedded database folder                                 |
 * | `CODEMODE_API_KEY`            | (unset)            | when set, `/v1` needs `Authorization: Bearer <key>`      |
 * | `CODEMODE_REPLICA_ID`         | host:pid:random    | this replica's name in `runs.owner`                      |
 * | `CODEMODE_LEASE_MS`           | 15000              | how long a run's owner holds it without renewing         |
 * | `CODEMODE_POLL_MS`            | 1000               | lease renewal and control-request polling period         |
 * | `CODEMODE_MAX_BODY_BYTES`     | 1048576            | request body limit (413 above it)                        |
 * | `CODEMODE_DEFAULT_TIMEOUT_MS` | 60000              | `limits.timeoutMs` of runs that do not set one           |
 * | `CODEMODE_CONTROL_TIMEOUT_MS` | 10000              | how long suspend/cancel wait for the owning replica      |
 * | `CODEMODE_WAIT_DEFAULT_MS`    | 60000              | how long `wait: true` waits for a run (202 past it)      |
 * | `CODEMODE_RECORD_AFTER_MS`    | 100                | how long a waited-on new run may go unwritten: shorter   |
 * |                               |                    | runs are stored once, at their end                       |
 * | `CODEMODE_WAIT_MAX_MS`        | 300000             | the longest any `wait` may be (POST, resume, GET ?wait=) |
 * | `CODEMODE_SECRET_OVERLAP_MS`  | 86400000           | after a secret rotation, how long the old one also signs |
 * | `CODEMODE_WEBHOOK_TIMEOUT_MS` | 30000              | webhook tool timeout when the tool sets none             |
 * | `CODEMODE_WEBHOOK_RETRIES`    | 3                  | retries of idempotent webhook calls (network / 5xx)      |
 * | `CODEMODE_WEBHOOK_ALLOW`      | (empty)            | hosts / addresses / CIDRs webhooks may reach although    |
 * |                               |                    | loopback, private or link-local (outbound.ts)            |
 * | `CODEMODE_PUBLIC_URL`         | (unset)            | this service's URL as tools reach it: the base of the    |
 * |                               |                    | callback URL of durable calls (relative when unset)      |
 * | `CODEMODE_WEBHOOK_MAX_REQUEST_BYTES` | 1048576     | largest webhook request body (the call's input)          |
 * | `CODEMODE_WEBHOOK_MAX_REPLY_BYTES`   | 1048576     | largest webhook reply read (the call fails above it)     |
 * | `CODEMODE_IDLE_SUSPEND_MS`    | 5000               | a run waiting only on started durable calls this long is |
 * |                               |                    | suspended to the database (0: never)                     |
 * | `CODEMODE_MAX_RECOVERIES`     | 3                  | takeovers of a run after replica deaths before it fails  |
 * | `CODEMODE_DRAIN_MS`           | 8000               | on shutdown, how long a run's plain call may keep it from |
 * |                               |                    | being suspended before the run is failed                 |
 * | `CODEMODE_MAX_MEMORY_BYTES`   | 268435456          | memory a run may hold (`limits.maxMemoryBytes`): the     |
 * |                               |                    | default and the most a run may ask for; below the heap   |
 * | `CODEMODE_SNAPSHOT_KEY`       | (unset)            | key signing saved run states (16+ bytes); with           |
 * |                               |                    | `DATABASE_URL` every replica the same (unset: a warning, |
 * |                               |                    | unsigned states); generated beside `PGLITE_DIR` without  |
 * | `CODEMODE_WORKERS`            | available cores    | processes that run programs (isolation/executor.ts); 0   |
 * |                               |                    | runs them in the service's own thread (debugging only)   |
 * | `CODEMODE_WORKER_HEAP_MB`     | 2048               | V8 heap limit of each of those processes                 |
 * | `CODEMODE_WORKER_GRACE_MS`    | 5000               | how long past a run's deadline an unanswering process is |
 * |                               |                    | given before it is killed (and a cancel before it is)    |
 * | `CODEMODE_CHECKPOINT_MAX_PER_RUN` | 1000           | states kept per run for forks (oldest go first)          |
 * | `CODEMODE_CHECKPOINT_RETENTION_MS` | 604800000     | how long a kept state lives (default 7 days)             |
 */
import * as Config from "effect/Config"
import * as Context from "effect/Context"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { availableParallelism, hostname } from "node:os"

export interface ServerConfigShape {
  readonly port: number
  readonly host: string
  readonly databaseUrl: Option.Option<Redacted.Redacted>
  readonly pgliteDir: string
  readonly apiKey: Option.Option<Redacted.Redacted>
  readonly replicaId: string
  readonly leaseMs: number
  readonly pollMs: number
  /** How long `wait: true` waits for a run to settle or suspend, and the longest any `wait` may. */
  readonly waitDefaultMs: number
  readonly waitMaxMs: number
  /** How long a new run that a client waits on may go unrecorded: past it, its row is written (visible, leased). */
  readonly recordAfterMs: number
  /** After a tool's secret is rotated, how long requests also carry the old secret's signature. */
  readonly secretOverlapMs: number
  readonly maxBodyBytes: number
  readonly defaultTimeoutMs: number
  readonly controlTimeoutMs: number
  readonly webhookTimeoutMs: number
  readonly webhookRetries: number
  readonly webhookAllow: string
  readonly publicUrl: string
  readonly webhookMaxRequestBytes: number
  readonly webhookMaxReplyBytes: number
  readonly idleSuspendMs: number
  readonly maxRecoveries: number
  readonly drainMs: number
  readonly maxMemoryBytes: number
  readonly snapshotKey: Option.Option<Redacted.Redacted>
  readonly workers: number
  readonly workerHeapMb: number
  readonly workerGraceMs: number
  /** Retention of the states kept at call boundaries for forks (migrations/0008_checkpoints.ts). */
  readonly checkpointMaxPerRun: number
  readonly checkpointRetentionMs: number
}

const PositiveInt = Schema.Int.check(Schema.isGreaterThan(0))
const positive = (name: string, fallback: number) => Config.schema(PositiveInt, name).pipe(Config.withDefault(fallback))
const NonNegativeInt = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0))
const nonNegative = (name: string, fallback: number) => Config.schema(NonNegativeInt, name).pipe(Config.withDefault(fallback))

const optionalSecret = (name: string) =>
  Config.option(Config.Redacted(name)).pipe(Config.map(Option.filter((value) => Redacted.value(value) !== "")))

/** The `Config` description of the whole server configuration. */
export const config: Config.Config<ServerConfigShape> = Config.all({
  // 0 asks the OS for a free port (tests, benchmarks); Config.Port refuses it.
  port: Config.schema(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65535 })), "PORT").pipe(Config.withDefault(8080)),
  host: Config.String("HOST").pipe(Config.withDefault("0.0.0.0")),
  // Empty values (as compose files and shells often leave them) count as absent.
  databaseUrl: optionalSecret("DATABASE_URL"),
  pgliteDir: Config.String("PGLITE_DIR").pipe(Config.withDefault("./data/pglite")),
  apiKey: optionalSecret("CODEMODE_API_KEY"),
  replicaId: Config.String("CODEMODE_REPLICA_ID").pipe(
    Config.withDefault(`${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`),
  ),
  leaseMs: positive("CODEMODE_LEASE_MS", 15_000),
  pollMs: positive("CODEMODE_POLL_MS", 1_000),
  waitDefaultMs: nonNegative("CODEMODE_WAIT_DEFAULT_MS", 60_000),
  recordAfterMs: nonNegative("CODEMODE_RECORD_AFTER_MS", 100),
  waitMaxMs: nonNegative("CODEMODE_WAIT_MAX_MS", 300_000),
  secretOverlapMs: nonNegative("CODEMODE_SECRET_OVERLAP_MS", 86_400_000),
  maxBodyBytes: positive("CODEMODE_MAX_BODY_BYTES", 1024 * 1024),
  defaultTimeoutMs: positive("CODEMODE_DEFAULT_TIMEOUT_MS", 60_000),
  controlTimeoutMs: positive("CODEMODE_CONTROL_TIMEOUT_MS", 10_000),
  webhookTimeoutMs: positive("CODEMODE_WEBHOOK_TIMEOUT_MS", 30_000),
  webhookRetries: nonNegative("CODEMODE_WEBHOOK_RETRIES", 3),
  webhookAllow: Config.String("CODEMODE_WEBHOOK_ALLOW").pipe(Config.withDefault("")),
  publicUrl: Config.String("CODEMODE_PUBLIC_URL").pipe(Config.withDefault(""), Config.map((u) => u.replace(/\/+$/, ""))),
  webhookMaxRequestBytes: positive("CODEMODE_WEBHOOK_MAX_REQUEST_BYTES", 1024 * 1024),
  webhookMaxReplyBytes: positive("CODEMODE_WEBHOOK_MAX_REPLY_BYTES", 1024 * 1024),
  idleSuspendMs: nonNegative("CODEMODE_IDLE_SUSPEND_MS", 5_000),
  maxRecoveries: nonNegative("CODEMODE_MAX_RECOVERIES", 3),
  drainMs: nonNegative("CODEMODE_DRAIN_MS", 8_000),
  maxMemoryBytes: positive("CODEMODE_MAX_MEMORY_BYTES", 256 * 1024 * 1024),
  snapshotKey: optionalSecret("CODEMODE_SNAPSHOT_KEY"),
  workers: nonNegative("CODEMODE_WORKERS", availableParallelism()),
  workerHeapMb: positive("CODEMODE_WORKER_HEAP_MB", 2048),
  workerGraceMs: positive("CODEMODE_WORKER_GRACE_MS", 5_000),
  checkpointMaxPerRun: positive("CODEMODE_CHECKPOINT_MAX_PER_RUN", 1_000),
  checkpointRetentionMs: positive("CODEMODE_CHECKPOINT_RETENTION_MS", 7 * 24 * 3_600_000),
})

export class ServerConfig extends Context.Service<ServerConfig, ServerConfigShape>()("codemode/server/ServerConfig") {
  /** Reads the configuration from the current `ConfigProvider` (the environment by default). */
  static readonly layer: Layer.Layer<ServerConfig, Config.ConfigError> = Layer.effect(ServerConfig, config)
  static readonly layerValue = (shape: ServerConfigShape): Layer.Layer<ServerConfig> => Layer.succeed(ServerConfig, shape)
}
