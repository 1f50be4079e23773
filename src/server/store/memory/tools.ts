/** `ToolStore` in memory. */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type Current, type Registrations, ToolPathConflict, type ToolRow, ToolStore } from "../tools.ts"
import { jsonb, MemoryDatabase, type Tables, tenantKey } from "./database.ts"

const byPath = <A extends { readonly path: string }>(a: A, b: A) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
const ofTenant = (tables: Tables, tenant: string) => [...tables.tools.values()].filter((t) => t.tenant === tenant).sort(byPath)

/** `ToolStore.all` at `now`. */
const registrationsOf = (tables: Tables, tenant: string, now: number): Registrations => ({
  tools: ofTenant(tables, tenant).map(({ tenant: _, previousUntil, ...tool }) => ({
    ...tool,
    previousSecret: previousUntil !== undefined && previousUntil > now ? tool.previousSecret : undefined,
  })),
  namespaces: [...tables.namespaces.values()]
    .filter((n) => n.tenant === tenant)
    .sort(byPath)
    .map((n) => ({ path: n.path, description: n.description })),
})

/** The version of the tenant's registrations (migrations/0017): 0 before their first change. */
export const versionOf = (tables: Tables, tenant: string): number => tables.toolVersions.get(tenant) ?? 0

/** `ToolStore.current` at `now`: a claim reads it with the run it takes. */
export const currentOf = (tables: Tables, tenant: string, now: number): Current => {
  const overlaps = ofTenant(tables, tenant).flatMap((t) => (t.previousUntil !== undefined && t.previousUntil > now ? [t.previousUntil] : []))
  return { registrations: registrationsOf(tables, tenant, now), version: versionOf(tables, tenant), until: Math.min(Infinity, ...overlaps) }
}

/** Raises the tenant's version when `changed` (migrations/0017's trigger); answers `changed`. */
const raise = (tables: Tables, tenant: string, changed: boolean): boolean => {
  if (changed) tables.toolVersions.set(tenant, versionOf(tables, tenant) + 1)
  return changed
}

export const layer: Layer.Layer<ToolStore, never, MemoryDatabase> = Layer.effect(
  ToolStore,
  Effect.gen(function* () {
    const tables = yield* MemoryDatabase
    return ToolStore.of({
      put: (tenant, path, tool, secret) =>
        Effect.suspend(() => {
          const clash = ofTenant(tables, tenant).find((t) => t.path !== path && (t.path.startsWith(path + ".") || path.startsWith(t.path + ".")))
          if (clash !== undefined) return Effect.fail(new ToolPathConflict({ path, existing: clash.path }))
          const existing = tables.tools.get(tenantKey(tenant, path))
          const kept = existing?.secret ?? secret
          const row: ToolRow & { tenant: string; previousUntil?: number } = {
            tenant,
            path,
            description: tool.description,
            input: jsonb(tool.input) as ToolRow["input"],
            output: tool.output === undefined ? undefined : (jsonb(tool.output) as ToolRow["input"]),
            url: tool.url,
            mode: tool.mode,
            timeoutMs: tool.timeoutMs,
            heartbeatTimeoutMs: tool.heartbeatTimeoutMs,
            secret: kept,
            previousSecret: existing?.previousSecret,
            ...(existing?.previousUntil === undefined ? {} : { previousUntil: existing.previousUntil }),
          }
          tables.tools.set(tenantKey(tenant, path), row)
          raise(tables, tenant, true)
          return Effect.succeed(kept)
        }),
      rotate: (tenant, path, secret, overlapMs) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const row = tables.tools.get(tenantKey(tenant, path))
          if (row === undefined) return false
          tables.tools.set(tenantKey(tenant, path), { ...row, secret, previousSecret: row.secret, previousUntil: now + overlapMs })
          return raise(tables, tenant, true)
        }),
      remove: (tenant, path) => Effect.sync(() => raise(tables, tenant, tables.tools.delete(tenantKey(tenant, path)))),
      putNamespace: (tenant, path, description) =>
        Effect.sync(() => {
          tables.namespaces.set(tenantKey(tenant, path), { tenant, path, description })
          raise(tables, tenant, true)
        }),
      removeNamespace: (tenant, path) => Effect.sync(() => raise(tables, tenant, tables.namespaces.delete(tenantKey(tenant, path)))),
      all: (tenant) => Effect.map(Clock.currentTimeMillis, (now) => registrationsOf(tables, tenant, now)),
      current: (tenant) => Effect.map(Clock.currentTimeMillis, (now) => currentOf(tables, tenant, now)),
    })
  }),
)
