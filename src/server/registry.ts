/**
 * `ToolRegistry`: webhook tool and namespace registrations per tenant (tables `tools`, `namespaces`), and the
 * resolution of a run's `tools` filter into the tools it may call. A path is either a tool or a namespace, never
 * both: registering `orders` when `orders.lookup` exists (or the other way round) is refused, because the
 * program's `tools.orders` could not be a function and an object at once.
 *
 * A new run starts with its tenant's registrations as this replica last read them (`forRun`), not read again for
 * every run: they come with their version, and the run's first write (`RunStore.insert`, `insertEnded`) stores it
 * only while that version is still the tenant's. A registration another replica changed before then makes that
 * write fail with `ToolsChanged`, and the run starts again, with them read anew: a run is never seen (nor its call
 * sent, which its first write precedes) having used registrations changed before it was written. A resume's claim is
 * told the version kept here (`held`) and reads them with the run only when they changed since (`read` keeps those).
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Clock from "effect/Clock"
import type * as SqlError from "effect/sql/SqlError"
import type { Namespace, RegisterTool } from "./api.ts"
import { Kept } from "./kept.ts"
import { newSecret } from "./signing.ts"
import { type Current, type Registrations, type ToolPathConflict, ToolStore } from "./store/tools.ts"

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

/** The registrations a new run starts with, and their version (`NewRun.toolsVersion`). */
export interface ForRun {
  readonly registrations: Registrations
  readonly version: number
}

/** Tenants whose registrations a replica keeps at most; the least recently read goes first. */
const TENANTS_KEPT = 1000

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
    /**
     * `resolve` (strict) for a new run, from the registrations this replica keeps when it has them (`fresh`: read
     * anew, as after `ToolsChanged`), with their version. A filter entry they do not match is checked anew first.
     */
    readonly forRun: (tenant: string, filter: ReadonlyArray<string> | null, fresh: boolean) => E<ForRun, UnknownToolFilter>
    /**
     * The tenant's registrations this replica keeps, while they hold: a claim told their version reads them again
     * only when they changed (`RunStore.claim`'s `known`).
     */
    readonly held: (tenant: string) => Effect.Effect<Current | undefined>
    /** Keeps registrations read elsewhere (with a claim), unless those kept already are newer. */
    readonly read: (tenant: string, current: Current) => Effect.Effect<void>
  }
>()("codemode/server/ToolRegistry") {
  static readonly layer: Layer.Layer<ToolRegistry, never, ToolStore> = Layer.effect(
    ToolRegistry,
    Effect.gen(function* () {
      const store = yield* ToolStore
      // By tenant, least recently read first. A change made here drops its tenant's at once: the next run here reads
      // them anew rather than start with stale ones and start again at its first write.
      const kept = new Kept<string, Current>(TENANTS_KEPT)
      const changed = <A, X>(tenant: string, write: E<A, X>) => Effect.ensuring(write, Effect.sync(() => kept.forget(tenant)))

      const put = Effect.fnUntraced(function* (tenant: string, path: string, tool: RegisterTool) {
        return { path, secret: yield* changed(tenant, store.put(tenant, path, tool, newSecret())) }
      })

      const remove = Effect.fnUntraced(function* (tenant: string, path: string) {
        if (!(yield* changed(tenant, store.remove(tenant, path)))) return yield* new ToolNotFound({ path })
      })

      const putNamespace = Effect.fnUntraced(function* (tenant: string, path: string, description: string) {
        yield* changed(tenant, store.putNamespace(tenant, path, description))
        return { path, description }
      })

      const rotate = Effect.fnUntraced(function* (tenant: string, path: string, overlapMs: number) {
        const secret = newSecret()
        if (!(yield* changed(tenant, store.rotate(tenant, path, secret, overlapMs)))) return yield* new ToolNotFound({ path })
        return { path, secret }
      })

      const removeNamespace = Effect.fnUntraced(function* (tenant: string, path: string) {
        if (!(yield* changed(tenant, store.removeNamespace(tenant, path)))) return yield* new NamespaceNotFound({ path })
      })

      const unmatched = (everything: Registrations, filter: ReadonlyArray<string>) =>
        filter.filter((entry) => !everything.tools.some((t) => selects(entry, t.path)))

      const resolve = Effect.fnUntraced(function* (
        tenant: string,
        filter: ReadonlyArray<string> | null,
        strict: boolean,
      ) {
        const everything = yield* store.all(tenant)
        if (strict && filter !== null) {
          const missing = unmatched(everything, filter)
          if (missing.length > 0) return yield* new UnknownToolFilter({ entries: missing })
        }
        return selected(everything, filter)
      })

      /** The tenant's registrations as last read here, while they hold (until a rotated-out secret's overlap ends). */
      const held = (tenant: string) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          const current = kept.given(tenant)
          return current !== undefined && now < current.until ? current : undefined
        })

      /** `held`, or read anew when there are none, or when `fresh`. */
      const current = Effect.fnUntraced(function* (tenant: string, fresh: boolean) {
        const still = fresh ? undefined : yield* held(tenant)
        if (still !== undefined) return { current: still, read: false }
        // Stale or not (a change may land meanwhile), what a run starts with is checked at its first write.
        return { current: kept.keep(tenant, yield* store.current(tenant)), read: true }
      })

      const forRun = Effect.fnUntraced(function* (tenant: string, filter: ReadonlyArray<string> | null, fresh: boolean) {
        let got = yield* current(tenant, fresh)
        // An entry may name a tool registered on another replica since these were read: only a fresh read refuses it.
        if (filter !== null && !got.read && unmatched(got.current.registrations, filter).length > 0) got = yield* current(tenant, true)
        const { registrations, version } = got.current
        if (filter !== null) {
          const missing = unmatched(registrations, filter)
          if (missing.length > 0) return yield* new UnknownToolFilter({ entries: missing })
        }
        return { registrations: selected(registrations, filter), version }
      })

      const read = (tenant: string, current: Current) =>
        Effect.sync(() => {
          const before = kept.given(tenant)
          if (before === undefined || before.version <= current.version) kept.keep(tenant, current)
        })

      return ToolRegistry.of({ put, remove, rotate, putNamespace, removeNamespace, all: store.all, resolve, forRun, held, read })
    }),
  )
}
