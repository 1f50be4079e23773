/**
 * The two implementations of the storage contracts the logic tests run against: the in-memory store, and the
 * Postgres store on a fresh, migrated database of its own (dropped when the layer closes). `elapse` lets time
 * pass for both: the memory store reads Effect's clock (the `TestClock` in `it.effect`), Postgres its own.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { TestClock } from "effect/testing"
import { migrate } from "../../../src/server/store/postgres/database.ts"
import * as MemoryStore from "../../../src/server/store/memory/layer.ts"
import * as PostgresStore from "../../../src/server/store/postgres/layer.ts"
import { createDatabase } from "../helpers.ts"

/** With its client, for tests that need more of it than the stores (notices.test.ts). */
export const postgres = Layer.unwrap(
  Effect.gen(function* () {
    const db = yield* Effect.acquireRelease(
      Effect.promise(() => createDatabase()),
      (db) => Effect.promise(() => db.drop()),
    )
    const client = PgClient.layer({ url: Redacted.make(db.url), maxConnections: 4 })
    return PostgresStore.layer.pipe(Layer.provideMerge(Layer.effectDiscard(Effect.orDie(migrate))), Layer.provideMerge(client))
  }),
)

export const stores = [
  ["memory", MemoryStore.layer],
  ["postgres", postgres],
] as const

/** Lets `ms` pass on Effect's clock and on the database's. */
export const elapse = (ms: number) =>
  Effect.all([TestClock.adjust(ms), Effect.promise(() => new Promise((resolve) => setTimeout(resolve, ms)))], { concurrency: "unbounded" })
