/**
 * `ToolStore`: the contract for webhook tool and namespace registrations per tenant (tables `tools`,
 * `namespaces`). A path is either a tool or a namespace prefix of other tools, never both: `put` refuses a path
 * that clashes with a registered one, atomically with the write, so two registered at once cannot both pass.
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as SqlError from "effect/sql/SqlError"
import { type Namespace, type RegisterTool, ToolMode } from "../api.ts"

/** A registered webhook tool, secret included (never sent back except by the registration answer). */
export const ToolRow = Schema.Struct({
  path: Schema.String,
  description: Schema.String,
  input: Schema.Record(Schema.String, Schema.Unknown),
  output: Schema.UndefinedOr(Schema.Record(Schema.String, Schema.Unknown)),
  url: Schema.String,
  mode: ToolMode,
  /** Plain and idempotent tools: the webhook's answer time. Durable tools: from `start` to the completion. */
  timeoutMs: Schema.UndefinedOr(Schema.Number),
  /** Durable tools: the longest silence (no heartbeat) before the call fails. */
  heartbeatTimeoutMs: Schema.UndefinedOr(Schema.Number),
  secret: Schema.String,
  /** The secret before the last rotation, while its overlap lasts: requests carry both signatures. */
  previousSecret: Schema.UndefinedOr(Schema.String),
})
export type ToolRow = typeof ToolRow.Type

export interface Registrations {
  readonly tools: ReadonlyArray<ToolRow>
  readonly namespaces: ReadonlyArray<Namespace>
}

/**
 * A tenant's registrations as `ToolStore.current` read them: with their version, which every change of the
 * tenant's tools or namespaces raises (a replica that keeps them knows them current while a run's first write
 * finds that version), and until when they hold without a change (ms): the earliest end of a rotated-out secret's
 * overlap, Infinity when none.
 */
export interface Current {
  readonly registrations: Registrations
  readonly version: number
  readonly until: number
}

/**
 * The registrations a new run started with have changed since (`NewRun.toolsVersion`): nothing was stored, and the
 * run must start again with the tenant's registrations as they are now.
 */
export class ToolsChanged extends Data.TaggedError("ToolsChanged")<{ readonly tenant: string }> {
  override get message(): string {
    return `The tools of tenant ${this.tenant} changed while a run started with them`
  }
}

export class ToolPathConflict extends Data.TaggedError("ToolPathConflict")<{ readonly path: string; readonly existing: string }> {
  override get message(): string {
    return `Tool path ${this.path} conflicts with the registered tool ${this.existing}: a path is either a tool or a namespace`
  }
}

type E<A, X = never> = Effect.Effect<A, SqlError.SqlError | X>

export class ToolStore extends Context.Service<
  ToolStore,
  {
    /** Registers or replaces a tool; a new tool gets `secret`, a replacement keeps its own. The secret kept. */
    readonly put: (tenant: string, path: string, tool: RegisterTool, secret: string) => E<string, ToolPathConflict>
    /** Removes a tool; false when there was none at `path`. */
    readonly remove: (tenant: string, path: string) => E<boolean>
    /** Replaces a tool's secret; the old one stays valid for `overlapMs`. False when there is no tool at `path`. */
    readonly rotate: (tenant: string, path: string, secret: string, overlapMs: number) => E<boolean>
    readonly putNamespace: (tenant: string, path: string, description: string) => E<void>
    /** Removes a namespace's description (its tools stay); false when there was none at `path`. */
    readonly removeNamespace: (tenant: string, path: string) => E<boolean>
    /** Every tool and namespace of the tenant, by path. */
    readonly all: (tenant: string) => E<Registrations>
    /** `all`, with its version and how long it holds (`Current`). */
    readonly current: (tenant: string) => E<Current>
  }
>()("codemode/server/ToolStore") {}
