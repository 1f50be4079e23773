/** `KeyStore` in memory. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { KeyStore } from "../keys.ts"
import { MemoryDatabase } from "./database.ts"

export const layer: Layer.Layer<KeyStore, never, MemoryDatabase> = Layer.effect(
  KeyStore,
  Effect.gen(function* () {
    const { keys } = yield* MemoryDatabase
    return KeyStore.of({
      insert: (key) => Effect.map(Clock.currentTimeMillis, (now) => void keys.set(key.hash, { ...key, createdAt: now, revokedAt: null })),
      tenantOf: (hash) => Effect.sync(() => (keys.get(hash)?.revokedAt === null ? keys.get(hash)!.tenant : undefined)),
      anyActive: Effect.sync(() => [...keys.values()].some((k) => k.revokedAt === null)),
      list: Effect.sync(() =>
        [...keys.values()]
          .sort((a, b) => a.createdAt - b.createdAt)
          .map((k) => ({ id: k.id, tenant: k.tenant, name: k.name, createdAt: new Date(k.createdAt), revoked: k.revokedAt !== null })),
      ),
      revoke: (id) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const key = [...keys.values()].find((k) => k.id === id && k.revokedAt === null)
          if (key !== undefined) key.revokedAt = now
          return key !== undefined
        }),
    })
  }),
)
