/**
 * `ToolRegistry`: webhook tool and namespace registrations per tenant (tables `tools`, `namespaces`), and the
 * resolution of a run's `tools` filter into the tools it may call. A path is either a tool or a namespace, never
 * both: registering `orders` when `orders.lookup` exists (or the other way round) is refused, because the
 * program's `tools.orders` could not be a function and an object at once.
 */
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as SqlClient from "effect/sql/SqlClient"
import type * as SqlError from "effect/sql/SqlError"
import type { Namespace, RegisterTool, ToolMode } from "./api.ts"
import { newSecret } from "./signing.ts"
import { retrying, transactional } from "./store.ts"

/** A registered webhook tool, secret included (never sent back except by the registration answer). */
export interface ToolRow {
  readonly path: string
  readonly description: string
  readonly input: Record<string, unknown>
  readonly output: Record<string, unknown> | undefined
  readonly url: string
  readonly mode: ToolMode
  /** Plain and idempotent tools: the webhook's answer time. Durable tools: from `start` to the completion. */
  readonly timeoutMs: number | undefined
  /** Durable tools: the longest silence (no heartbeat) before the call fails. */
  readonly heartbeatTimeoutMs: number | undefined
  readonly secret: string
}

export interface Registrations {
  readonly tools: ReadonlyArray<ToolRow>
  readonly namespaces: ReadonlyArray<Namespace>
}

export class ToolPathConflict extends Data.TaggedError("ToolPathConflict")<{ readonly path: string; readonly existing: string }> {
  override get message(): string {
    return `Tool path ${this.path} conflicts with the registered tool ${this.existing}: a path is either a tool or a namespace`
  }
}

export class ToolNotFound extends Data.TaggedError("ToolNotFound")<{ readonly path: string }> {
  override get message(): string {
    return `No tool is registered at ${this.path}`
  }
}

export class UnknownToolFilter extends Data.TaggedError("UnknownToolFilter")<{ readonly entries: ReadonlyArray<string> }> {
  override get message(): string {
    return `tools: no registered tool matches ${this.entries.join(", ")}`
  }
}

/** Does a filter entry (a tool path or a namespace prefix) select the tool at `path`? */
export const selects = (entry: string, path: string): boolean => path === entry || path.startsWith(entry + ".")

type E<A, X = never> = Effect.Effect<A, SqlError.SqlError | X>

export class ToolRegistry extends Context.Service<
  ToolRegistry,
  {
    /** Registers or replaces a tool; a replacement keeps the tool's secret. */
    readonly put: (tenant: string, path: string, tool: RegisterTool) => E<{ path: string; secret: string }, ToolPathConflict>
    readonly remove: (tenant: string, path: string) => E<void, ToolNotFound>
    readonly putNamespace: (tenant: string, path: string, description: string) => E<Namespace>
    readonly all: (tenant: string) => E<Registrations>
    /**
     * The tools a run may call: all of them for `null`, else those selected by some entry. With `strict`, an
     * entry that selects nothing is an error (a typo at creation); without, it is ignored (a tool deleted while
     * a run was suspended is simply gone on resume).
     */
    readonly resolve: (tenant: string, filter: ReadonlyArray<string> | null, strict: boolean) => E<Registrations, UnknownToolFilter>
  }
>()("codemode/server/ToolRegistry") {
  static readonly layer: Layer.Layer<ToolRegistry, never, PgClient.PgClient | SqlClient.SqlClient> = Layer.effect(
    ToolRegistry,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const pg = yield* PgClient.PgClient

      interface Raw {
        readonly path: string
        readonly description: string
        readonly input_schema: Record<string, unknown>
        readonly output_schema: Record<string, unknown> | null
        readonly url: string
        readonly mode: ToolMode
        readonly timeout_ms: number | null
        readonly heartbeat_timeout_ms: number | null
        readonly secret: string
      }
      const toRow = (r: Raw): ToolRow => ({
        path: r.path,
        description: r.description,
        input: r.input_schema,
        output: r.output_schema ?? undefined,
        url: r.url,
        mode: r.mode,
        timeoutMs: r.timeout_ms ?? undefined,
        heartbeatTimeoutMs: r.heartbeat_timeout_ms ?? undefined,
        secret: r.secret,
      })

      const transaction = transactional(sql)

      // Registrations of one tenant are serialized (a transaction-scoped advisory lock), so two registered at once
      // cannot both pass the clash check (`orders` and `orders.lookup`).
      const put = (tenant: string, path: string, tool: RegisterTool) =>
        transaction(sql`SELECT pg_advisory_xact_lock(hashtext(${`codemode.tools:${tenant}`}))`.pipe(Effect.andThen(putUnlocked(tenant, path, tool))))

      const putUnlocked = Effect.fn("ToolRegistry.put")(function* (tenant: string, path: string, tool: RegisterTool) {
        const clash = yield* sql<{ path: string }>`
          SELECT path FROM tools
          WHERE tenant = ${tenant} AND path <> ${path}
            AND (starts_with(path, ${path + "."}) OR starts_with(${path}, path || '.'))
          LIMIT 1`
        if (clash[0] !== undefined) return yield* new ToolPathConflict({ path, existing: clash[0].path })
        const rows = yield* sql<{ secret: string }>`
          INSERT INTO tools (tenant, path, description, input_schema, output_schema, url, mode, timeout_ms,
                             heartbeat_timeout_ms, secret)
          VALUES (${tenant}, ${path}, ${tool.description}, ${pg.json(tool.input)},
                  ${tool.output === undefined ? null : pg.json(tool.output)}, ${tool.url}, ${tool.mode},
                  ${tool.timeoutMs ?? null}, ${tool.heartbeatTimeoutMs ?? null}, ${newSecret()})
          ON CONFLICT (tenant, path) DO UPDATE SET description = excluded.description,
            input_schema = excluded.input_schema, output_schema = excluded.output_schema, url = excluded.url,
            mode = excluded.mode, timeout_ms = excluded.timeout_ms,
            heartbeat_timeout_ms = excluded.heartbeat_timeout_ms, updated_at = now()
          RETURNING secret`
        return { path, secret: rows[0]!.secret }
      })

      const remove = Effect.fn("ToolRegistry.remove")(function* (tenant: string, path: string) {
        const rows = yield* sql`DELETE FROM tools WHERE tenant = ${tenant} AND path = ${path} RETURNING path`
        if (rows.length === 0) return yield* new ToolNotFound({ path })
      })

      const putNamespace = Effect.fn("ToolRegistry.putNamespace")(function* (tenant: string, path: string, description: string) {
        yield* sql`
          INSERT INTO namespaces (tenant, path, description) VALUES (${tenant}, ${path}, ${description})
          ON CONFLICT (tenant, path) DO UPDATE SET description = excluded.description, updated_at = now()`
        return { path, description }
      })

      const all = Effect.fn("ToolRegistry.all")(function* (tenant: string) {
        // One round trip per run start: both lists as JSON arrays.
        const rows = yield* sql<{ tools: ReadonlyArray<Raw>; namespaces: ReadonlyArray<Namespace> }>`
          SELECT
            (SELECT coalesce(json_agg(t ORDER BY t.path), '[]') FROM tools t WHERE t.tenant = ${tenant}) AS tools,
            (SELECT coalesce(json_agg(json_build_object('path', n.path, 'description', n.description) ORDER BY n.path), '[]')
               FROM namespaces n WHERE n.tenant = ${tenant}) AS namespaces`
        const row = rows[0]!
        return { tools: row.tools.map(toRow), namespaces: row.namespaces }
      })

      const resolve = Effect.fn("ToolRegistry.resolve")(function* (
        tenant: string,
        filter: ReadonlyArray<string> | null,
        strict: boolean,
      ) {
        const everything = yield* all(tenant)
        if (filter === null) return everything
        const tools = everything.tools.filter((t) => filter.some((entry) => selects(entry, t.path)))
        if (strict) {
          const unmatched = filter.filter((entry) => !everything.tools.some((t) => selects(entry, t.path)))
          if (unmatched.length > 0) return yield* new UnknownToolFilter({ entries: unmatched })
        }
        const namespaces = everything.namespaces.filter((n) => tools.some((t) => t.path.startsWith(n.path + ".")))
        return { tools, namespaces }
      })

      // Run starts, resumes and takeovers resolve tools: a dropped connection should not fail them.
      return ToolRegistry.of(retrying({ put, remove, putNamespace, all, resolve }))
    }),
  )
}
