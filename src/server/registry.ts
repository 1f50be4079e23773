/**
 * `ToolRegistry`: webhook tool and namespace registrations per tenant (tables `tools`, `namespaces`), and the
 * resolution of a run's `tools` filter into the tools it may call. A path is either a tool or a namespace, never
 * both: registering `orders` when `orders.lookup` exists (or the other way round) is refused, because the
 * program's `tools.orders` could not be a function and an object at once.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as SqlError from "effect/sql/SqlError"
import type { Namespace, RegisterTool } from "./api.ts"
import { newSecret } from "./signing.ts"
import { type Registrations, type ToolPathConflict, ToolStore } from "./store/tools.ts"

export class ToolNotFound extends Data.TaggedError("ToolNotFound")<{ readonly path: string }> {
  override get message(): string {
    return `No tool is registered at ${this.path}`
  }
}

export class NamespaceNotFound extends Data.TaggedError("NamespaceNotFound")<{ readonly path: string }> {
  override get message(): string {
    return `No namespace is described at ${this.path}`
  }
}

export class UnknownToolFilter extends Data.TaggedError("UnknownToolFilter")<{ readonly entries: ReadonlyArray<string> }> {
  override get message(): string {
    return `tools: no registered tool matches ${this.entries.join(", ")}`
  }
}

/** Does a filter entry (a tool path or a namespace prefix) select the tool at `path`? */
export const selects = (entry: string, path: string): boolean => path === entry || path.startsWith(entry + ".")

/** The registrations a `tools` filter selects from all of a tenant's (`null`: all), with the namespaces they sit in. */
export const selected = (everything: Registrations, filter: ReadonlyArray<string> | null): Registrations => {
  if (filter === null) return everything
  const tools = everything.tools.filter((t) => filter.some((entry) => selects(entry, t.path)))
  const namespaces = everything.namespaces.filter((n) => tools.some((t) => t.path.startsWith(n.path + ".")))
  return { tools, namespaces }
}

type E<A, X = never> = Effect.Effect<A, SqlError.SqlError | X>

export class ToolRegistry extends Context.Service<
  ToolRegistry,
  {
    /** Registers or replaces a tool; a replacement keeps the tool's secret. */
    readonly put: (tenant: string, path: string, tool: RegisterTool) => E<{ path: string; secret: string }, ToolPathConflict>
    readonly remove: (tenant: string, path: string) => E<void, ToolNotFound>
    /** A new secret for the tool; the old one also signs its requests for `overlapMs`. */
    readonly rotate: (tenant: string, path: string, overlapMs: number) => E<{ path: string; secret: string }, ToolNotFound>
    readonly putNamespace: (tenant: string, path: string, description: string) => E<Namespace>
    readonly removeNamespace: (tenant: string, path: string) => E<void, NamespaceNotFound>
    readonly all: (tenant: string) => E<Registrations>
    /**
     * The tools a run may call: all of them for `null`, else those selected by some entry. With `strict`, an
     * entry that selects nothing is an error (a typo at creation); without, it is ignored (a tool deleted while
     * a run was suspended is simply gone on resume).
     */
    readonly resolve: (tenant: string, filter: ReadonlyArray<string> | null, strict: boolean) => E<Registrations, UnknownToolFilter>
  }
>()("codemode/server/ToolRegistry") {
  static readonly layer: Layer.Layer<ToolRegistry, never, ToolStore> = Layer.effect(
    ToolRegistry,
    Effect.gen(function* () {
      const store = yield* ToolStore

      const put = Effect.fnUntraced(function* (tenant: string, path: string, tool: RegisterTool) {
        return { path, secret: yield* store.put(tenant, path, tool, newSecret()) }
      })

      const remove = Effect.fnUntraced(function* (tenant: string, path: string) {
        if (!(yield* store.remove(tenant, path))) return yield* new ToolNotFound({ path })
      })

      const putNamespace = Effect.fnUntraced(function* (tenant: string, path: string, description: string) {
        yield* store.putNamespace(tenant, path, description)
        return { path, description }
      })

      const rotate = Effect.fnUntraced(function* (tenant: string, path: string, overlapMs: number) {
        const secret = newSecret()
        if (!(yield* store.rotate(tenant, path, secret, overlapMs))) return yield* new ToolNotFound({ path })
        return { path, secret }
      })

      const removeNamespace = Effect.fnUntraced(function* (tenant: string, path: string) {
        if (!(yield* store.removeNamespace(tenant, path))) return yield* new NamespaceNotFound({ path })
      })

      const resolve = Effect.fnUntraced(function* (
        tenant: string,
        filter: ReadonlyArray<string> | null,
        strict: boolean,
      ) {
        const everything = yield* store.all(tenant)
        if (strict && filter !== null) {
          const unmatched = filter.filter((entry) => !everything.tools.some((t) => selects(entry, t.path)))
          if (unmatched.length > 0) return yield* new UnknownToolFilter({ entries: unmatched })
        }
        return selected(everything, filter)
      })

      return ToolRegistry.of({ put, remove, rotate, putNamespace, removeNamespace, all: store.all, resolve })
    }),
  )
}
