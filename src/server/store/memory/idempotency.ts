/** `IdempotencyStore` in memory, with the same stale and retention windows as Postgres. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type Claim, IdempotencyStore, RETENTION_HOURS, STALE_MINUTES } from "../idempotency.ts"
import { MemoryDatabase, tenantKey } from "./database.ts"

export const layer: Layer.Layer<IdempotencyStore, never, MemoryDatabase> = Layer.effect(
  IdempotencyStore,
  Effect.gen(function* () {
    const { idempotency } = yield* MemoryDatabase
    return IdempotencyStore.of({
      begin: (tenant, key, fingerprint) =>
        Effect.map(Clock.currentTimeMillis, (now): Claim => {
          const row = idempotency.get(tenantKey(tenant, key))
          const reclaimable =
            row === undefined ||
            (row.status === null && row.updatedAt < now - STALE_MINUTES * 60_000) ||
            row.createdAt < now - RETENTION_HOURS * 3_600_000
          if (reclaimable) {
            idempotency.set(tenantKey(tenant, key), { fingerprint, status: null, contentType: null, body: null, createdAt: now, updatedAt: now })
            return { _tag: "Claimed" }
          }
          if (row.fingerprint !== fingerprint) return { _tag: "Mismatch" }
          if (row.status === null) return { _tag: "InProgress" }
          return { _tag: "Replay", status: row.status, contentType: row.contentType, body: row.body ?? "" }
        }),
      complete: (tenant, key, answer) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const row = idempotency.get(tenantKey(tenant, key))
          if (row === undefined || row.status !== null) return
          Object.assign(row, { status: answer.status, contentType: answer.contentType, body: answer.body, updatedAt: now })
        }),
      release: (tenant, key) =>
        Effect.sync(() => {
          if (idempotency.get(tenantKey(tenant, key))?.status === null) idempotency.delete(tenantKey(tenant, key))
        }),
    })
  }),
)
