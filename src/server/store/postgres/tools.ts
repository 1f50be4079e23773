/** `ToolStore` on Postgres. */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import * as SqlClient from "effect/sql/SqlClient"
import type * as Statement from "effect/sql/Statement"
import { Namespace, type RegisterTool, ToolMode } from "../../api.ts"
import { type Current, type Registrations, ToolPathConflict, type ToolRow, ToolStore } from "../tools.ts"
import { batched, MAX_BATCH } from "./batch.ts"
import { decodeRows, retrying, transactional } from "./shared.ts"

const ToolRaw = Schema.Struct({
  path: Schema.String,
  description: Schema.String,
  input_schema: Schema.Record(Schema.String, Schema.Unknown),
  output_schema: Schema.NullOr(Schema.Record(Schema.String, Schema.Unknown)),
  url: Schema.String,
  mode: ToolMode,
  timeout_ms: Schema.NullOr(Schema.Number),
  heartbeat_timeout_ms: Schema.NullOr(Schema.Number),
  secret: Schema.String,
  previous_secret: Schema.optionalKey(Schema.NullOr(Schema.String)),
})
/** The columns `registrationColumns` and `toolsVersion` read; the first three are NULL when the former did not read them. */
export const Registered = Schema.Struct({
  registered_tools: Schema.NullOr(Schema.Array(ToolRaw)),
  registered_namespaces: Schema.NullOr(Schema.Array(Namespace)),
  previous_until: Schema.NullOr(Schema.Number),
  tools_version: Schema.Number,
})
const All = Schema.Struct({ tenant: Schema.String, ...Registered.fields })
const Path = Schema.Struct({ path: Schema.String })
const Secret = Schema.Struct({ secret: Schema.String })
/** The row schemas this store decodes (`decodeRows`): the row decoders' test holds each to the Schema decode. */
export const rowSchemas = { All, Path, Secret }

const toRow = (r: typeof ToolRaw.Type): ToolRow => ({
  path: r.path,
  description: r.description,
  input: r.input_schema,
  output: r.output_schema ?? undefined,
  url: r.url,
  mode: r.mode,
  timeoutMs: r.timeout_ms ?? undefined,
  heartbeatTimeoutMs: r.heartbeat_timeout_ms ?? undefined,
  secret: r.secret,
  previousSecret: r.previous_secret ?? undefined,
})

/** The registrations `Registered` columns hold, or undefined when the statement did not read them. */
export const currentIn = (r: typeof Registered.Type): Current | undefined =>
  r.registered_tools === null || r.registered_namespaces === null
    ? undefined
    : {
        registrations: { tools: r.registered_tools.map(toRow), namespaces: r.registered_namespaces },
        version: r.tools_version,
        until: r.previous_until ?? Infinity,
      }

/**
 * `ToolStore.current` as four columns of a statement (decoded by `Registered`), for the tenant the column or value
 * `tenant` names: a claim reads them with the run it takes. `unless`: a condition on `tools_version` under which
 * the lists and their end are not read (all three NULL).
 */
export const registrationColumns = (sql: SqlClient.SqlClient, tenant: string, unless?: Statement.Fragment): Statement.Fragment => {
  const t = sql.literal(tenant)
  const read = (column: Statement.Fragment) => (unless === undefined ? column : sql`CASE WHEN ${unless} THEN NULL ELSE ${column} END`)
  return sql`
  ${read(sql`(SELECT coalesce(json_agg(to_jsonb(t) || jsonb_build_object('previous_secret',
     CASE WHEN t.previous_secret_until > now() THEN t.previous_secret END) ORDER BY t.path), '[]')
     FROM tools t WHERE t.tenant = ${t})`)} AS registered_tools,
  ${read(sql`(SELECT coalesce(json_agg(json_build_object('path', n.path, 'description', n.description) ORDER BY n.path), '[]')
     FROM namespaces n WHERE n.tenant = ${t})`)} AS registered_namespaces,
  ${read(sql`(SELECT extract(epoch FROM min(t.previous_secret_until)) * 1000 FROM tools t
     WHERE t.tenant = ${t} AND t.previous_secret_until > now())::float8`)} AS previous_until`
}

/** The version of the registrations of the tenant `tenant` holds (migrations/0017): 0 before their first change. */
export const versionOf = (sql: SqlClient.SqlClient, tenant: Statement.Fragment): Statement.Fragment =>
  sql`coalesce((SELECT v.version FROM tool_versions v WHERE v.tenant = ${tenant}), 0)`

/** `versionOf` the tenant the column or value `tenant` names, as the column `tools_version`, for a FROM list. */
export const toolsVersion = (sql: SqlClient.SqlClient, tenant: string): Statement.Fragment =>
  sql`LATERAL (SELECT ${versionOf(sql, sql.literal(tenant))}::float8 AS tools_version) AS tv`

export const layer: Layer.Layer<ToolStore, never, PgClient.PgClient | SqlClient.SqlClient> = Layer.effect(
  ToolStore,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const pg = yield* PgClient.PgClient
    const transaction = transactional(sql)

    const write = Effect.fnUntraced(function* (tenant: string, path: string, tool: RegisterTool, secret: string) {
      const clash = yield* decodeRows(Path)(
        yield* sql`
          SELECT path FROM tools
          WHERE tenant = ${tenant} AND path <> ${path}
            AND (starts_with(path, ${path + "."}) OR starts_with(${path}, path || '.'))
          LIMIT 1`,
      )
      if (clash[0] !== undefined) return yield* new ToolPathConflict({ path, existing: clash[0].path })
      const rows = yield* decodeRows(Secret)(
        yield* sql`
          INSERT INTO tools (tenant, path, description, input_schema, output_schema, url, mode, timeout_ms,
                             heartbeat_timeout_ms, secret)
          VALUES (${tenant}, ${path}, ${tool.description}, ${pg.json(tool.input)},
                  ${tool.output === undefined ? null : pg.json(tool.output)}, ${tool.url}, ${tool.mode},
                  ${tool.timeoutMs ?? null}, ${tool.heartbeatTimeoutMs ?? null}, ${secret})
          ON CONFLICT (tenant, path) DO UPDATE SET description = excluded.description,
            input_schema = excluded.input_schema, output_schema = excluded.output_schema, url = excluded.url,
            mode = excluded.mode, timeout_ms = excluded.timeout_ms,
            heartbeat_timeout_ms = excluded.heartbeat_timeout_ms, updated_at = now()
          RETURNING secret`,
      )
      return rows[0]!.secret
    })

    // Registrations of one tenant are serialized (a transaction-scoped advisory lock), so two registered at once
    // cannot both pass the clash check (`orders` and `orders.lookup`).
    const put = (tenant: string, path: string, tool: RegisterTool, secret: string) =>
      transaction(sql`SELECT pg_advisory_xact_lock(hashtext(${`codemode.tools:${tenant}`}))`.pipe(Effect.andThen(write(tenant, path, tool, secret))))

    const remove = Effect.fnUntraced(function* (tenant: string, path: string) {
      const rows = yield* sql`DELETE FROM tools WHERE tenant = ${tenant} AND path = ${path} RETURNING path`
      return rows.length > 0
    })

    const rotate = Effect.fnUntraced(function* (tenant: string, path: string, secret: string, overlapMs: number) {
      const rows = yield* sql`
        UPDATE tools SET previous_secret = secret, previous_secret_until = now() + ${overlapMs} * interval '1 millisecond',
          secret = ${secret}
        WHERE tenant = ${tenant} AND path = ${path} RETURNING path`
      return rows.length > 0
    })

    const putNamespace = Effect.fnUntraced(function* (tenant: string, path: string, description: string) {
      yield* sql`
        INSERT INTO namespaces (tenant, path, description) VALUES (${tenant}, ${path}, ${description})
        ON CONFLICT (tenant, path) DO UPDATE SET description = excluded.description, updated_at = now()`
    })

    const removeNamespace = Effect.fnUntraced(function* (tenant: string, path: string) {
      const rows = yield* sql`DELETE FROM namespaces WHERE tenant = ${tenant} AND path = ${path} RETURNING path`
      return rows.length > 0
    })

    // One round trip per batch of reads: each tenant's two lists as JSON arrays, their version (migrations/0017) and
    // when the first rotated-out secret among them stops signing. The reads asked for while one is in flight go
    // together in the next (batch.ts), each sent after it was asked for, so none misses a registration that was
    // done before it. One statement: the lists and the version are of one snapshot.
    const currentOf = Effect.fnUntraced(function* (tenants: ReadonlyArray<string>) {
      const rows = yield* decodeRows(All)(
        yield* sql`
          SELECT q.tenant, ${registrationColumns(sql, "q.tenant")}, tools_version
          FROM jsonb_array_elements_text(${pg.json([...new Set(tenants)])}) AS q(tenant), ${toolsVersion(sql, "q.tenant")}`,
      )
      const byTenant = new Map(rows.map((r) => [r.tenant, currentIn(r)!]))
      return tenants.map((tenant) => byTenant.get(tenant)!)
    })
    const current = batched(yield* Scope.Scope, MAX_BATCH, (tenant: string) => Effect.map(currentOf([tenant]), (r) => r[0]!), currentOf)
    const all = (tenant: string) => Effect.map(current(tenant), (c): Registrations => c.registrations)

    // Run starts, resumes and takeovers read the tools: a dropped connection should not fail them.
    return ToolStore.of(retrying({ put, remove, rotate, putNamespace, removeNamespace, all, current }))
  }),
)
