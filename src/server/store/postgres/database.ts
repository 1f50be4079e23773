/**
 * The database: a Postgres client (a server when `DATABASE_URL` is set, embedded PGlite in a local folder
 * otherwise) with every migration in `migrations/` applied before anything else is built (stack-notes §6.4: the
 * socket must not listen before the database is ready). Migrations run under the Effect migrator, which takes
 * `LOCK TABLE effect_sql_migrations IN ACCESS EXCLUSIVE MODE` inside its transaction, so replicas starting at
 * the same time apply each migration once (checked by test/service/migrations.test.ts).
 */
import { PGlite } from "@electric-sql/pglite"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Migrator from "effect/sql/Migrator"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import { mkdirSync, readdirSync } from "node:fs"
import { resolve } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { ServerConfig } from "../../config.ts"
import { pgliteStream } from "../../pglite-bridge.ts"
import { isTransient, sqlMessage } from "../errors.ts"

const MIGRATIONS_DIR = fileURLToPath(new URL("../../../../migrations", import.meta.url))
const MIGRATION_FILE = /^(\d+)_([\w-]+)\.(?:ts|js|mjs)$/

/** Which kind of database this process talks to: notifications need to know (LISTEN/NOTIFY or in-process). */
export class DatabaseKind extends Context.Service<DatabaseKind, "server" | "embedded">()("codemode/server/DatabaseKind") {}

/** The migration files, in order: `[id, name, load]` as the Effect migrator wants them. */
export const migrationFiles = (dir: string = MIGRATIONS_DIR): ReadonlyArray<Migrator.ResolvedMigration> =>
  readdirSync(dir)
    .flatMap((file): Array<Migrator.ResolvedMigration> => {
      const m = MIGRATION_FILE.exec(file)
      if (m === null) return []
      const url = pathToFileURL(resolve(dir, file)).href
      return [[Number(m[1]), m[2]!, Effect.promise(() => import(url))]]
    })
    .sort((a, b) => a[0] - b[0])

/** The id of the newest migration this build ships. */
export const latestMigration = (): number => migrationFiles().at(-1)?.[0] ?? 0

/** Applies pending migrations; answers the `[id, name]` pairs it applied (`[]` when the schema is current). */
export const migrate: Effect.Effect<
  ReadonlyArray<readonly [id: number, name: string]>,
  Migrator.MigrationError | SqlError.SqlError,
  SqlClient.SqlClient
> = Effect.suspend(() =>
  Migrator.make({})({ loader: Effect.sync(() => migrationFiles()) }).pipe(Effect.withSpan("Database.migrate")),
)

/** The newest migration applied to the database (0 when none is). */
export const appliedMigration: Effect.Effect<number, SqlError.SqlError, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: number | null }>`
    SELECT max(migration_id) AS id FROM effect_sql_migrations`.pipe(
    Effect.catchTag("SqlError", () => Effect.succeed([{ id: 0 }])),
  )
  return rows[0]?.id ?? 0
})

/**
 * PGlite's default 128 MB of shared buffers cost a start ~0.5 s of CPU (of its ~1.3 s) to set up, every start: the
 * embedded database is one user's, a few MB of rows, and reads what the buffers miss from the OS's page cache.
 */
const EMBEDDED_SETTINGS = ["-c", "shared_buffers=16MB"]

/** A Postgres client for the configured database: a pool for a server, one bridged connection for PGlite. */
export const clientLayer: Layer.Layer<PgClient.PgClient | SqlClient.SqlClient | DatabaseKind, SqlError.SqlError, ServerConfig> =
  Layer.unwrap(
    Effect.gen(function* () {
      const config = yield* ServerConfig
      if (Option.isSome(config.databaseUrl)) {
        return Layer.merge(
          // Each LISTEN pins a connection (stack-notes §7.3): the pool leaves room for the notifications listener.
          PgClient.layer({ url: config.databaseUrl.value, maxConnections: 12, applicationName: "codemode" }),
          Layer.succeed(DatabaseKind, "server"),
        )
      }
      return Layer.merge(
        Layer.unwrap(
          Effect.gen(function* () {
            const dir = resolve(config.pgliteDir)
            mkdirSync(dir, { recursive: true })
            const db = yield* Effect.acquireRelease(
              Effect.promise(() => PGlite.create(dir, { startParams: [...PGlite.defaultStartParams, ...EMBEDDED_SETTINGS] })),
              (db) => Effect.promise(() => db.close()),
            )
            // maxConnections MUST be 1: PGlite is one session. Never LISTEN here (it would pin that connection).
            return PgClient.layer({ stream: pgliteStream(db), maxConnections: 1, username: "postgres", database: "postgres" })
          }),
        ),
        Layer.succeed(DatabaseKind, "embedded"),
      )
    }),
  )

/** How long a replica starting up waits for a database it cannot reach (still starting, failing over). */
export const CONNECT_WAIT_SECONDS = 30

/**
 * The migrations, once the database answers: tried again every half second while it cannot be reached. A schema
 * that is current (the usual start) costs one query instead of the migrator's locked transaction.
 */
const migrateWhenReachable = migrate.pipe(
  Effect.tapError((e) =>
    e._tag === "SqlError" && isTransient(e) ? Effect.logWarning(`the database cannot be reached (${sqlMessage(e)}); trying again`) : Effect.void,
  ),
  Effect.retry({
    schedule: Schedule.spaced("500 millis"),
    times: CONNECT_WAIT_SECONDS * 2,
    while: (e) => e._tag === "SqlError" && isTransient(e),
  }),
)

/** The database, migrated: build this first, and the HTTP server only after it. */
export const layer: Layer.Layer<
  PgClient.PgClient | SqlClient.SqlClient | DatabaseKind,
  SqlError.SqlError | Migrator.MigrationError,
  ServerConfig
> = Layer.effectDiscard(
  Effect.flatMap(appliedMigration, (applied) => (applied === latestMigration() ? Effect.succeed([]) : migrateWhenReachable)),
).pipe(Layer.provideMerge(clientLayer))
