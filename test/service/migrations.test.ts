/**
 * Migrations are applied at start-up by every replica; several replicas starting at once against an empty
 * database must apply each migration exactly once and all start.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as SqlClient from "effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { appliedMigration, latestMigration, migrate, migrationFiles } from "../../src/server/store/postgres/database.ts"
import { createDatabase } from "./helpers.ts"

let db: Awaited<ReturnType<typeof createDatabase>>
beforeAll(async () => {
  db = await createDatabase()
})
afterAll(async () => {
  await db?.drop()
})

const withDb = <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) =>
  Effect.runPromise(Effect.provide(effect, PgClient.layer({ url: Redacted.make(db.url), maxConnections: 2 })) as Effect.Effect<A>)

describe("migrations", () => {
  it("finds the numbered migration files in order", () => {
    const files = migrationFiles()
    expect(files.map(([id, name]) => `${id}_${name}`)[0]).toBe("1_init")
    expect(files.map(([id]) => id)).toStrictEqual([...files.map(([id]) => id)].sort((a, b) => a - b))
    expect(latestMigration()).toBe(files.at(-1)![0])
  })

  it("are applied once when eight replicas start at the same time", async () => {
    expect(await withDb(appliedMigration)).toBe(0)
    const results = await Promise.all(Array.from({ length: 8 }, () => withDb(migrate)))
    const applied = results.flat()
    expect(applied.map(([id]) => id)).toStrictEqual(migrationFiles().map(([id]) => id))
    const rows = await withDb(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ migration_id: number }>`SELECT migration_id FROM effect_sql_migrations ORDER BY migration_id`
      }),
    )
    expect(rows.map((r) => r.migration_id)).toStrictEqual(migrationFiles().map(([id]) => id))
    expect(await withDb(appliedMigration)).toBe(latestMigration())
    expect(await withDb(migrate)).toStrictEqual([])
  })
})
