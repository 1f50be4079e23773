/** How runs look from outside: the `Run` a request answers with, list cursors, request fingerprints. */
import { hash } from "node:crypto"
import type * as Schema from "effect/Schema"
import type { CallOutcome, CreateRun, ForkRun, PendingCall, Result, Run, RunCheckpoint, RunStatus, SourceLocation } from "../api.ts"
import { canonical } from "../canonical.ts"
import { hashKey } from "../keys.ts"
import type { CallWhere as StoredCallWhere } from "../store/calls.ts"
import type { CheckpointRow, RunRow } from "../store/runs.ts"

/** A durable call: by key within a tenant, or by the token of its one-time callback URL. */
export type CallWhere = { readonly tenant: string; readonly key: string } | { readonly token: string }

/** The call as the store finds it: by the hash of its token, never the token itself. */
export const callWhere = (where: CallWhere): StoredCallWhere => ("token" in where ? { callbackHash: hashKey(where.token) } : where)

export interface ListOptions {
  readonly status?: RunStatus | undefined
  readonly tool?: string | undefined
  /** ISO times, checked by the API's schema. */
  readonly since?: string | undefined
  readonly until?: string | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export const failed = (kind: string, message: string): Result => ({ ok: false, error: { kind, message }, toolCalls: [] })

export const ended = (status: RunStatus): boolean => status === "succeeded" || status === "failed" || status === "cancelled"

/** An event id or list cursor as the service hands them out: a positive Postgres bigint, in decimal. */
export const isEventId = (s: string): boolean => /^\d{1,19}$/.test(s) && BigInt(s) <= 9_223_372_036_854_775_807n

/** What makes two `POST /v1/runs` the same request (`wait` only changes how it is answered). */
export const fingerprint = (request: CreateRun): string =>
  hash("sha256", canonical({ code: request.code, limits: request.limits ?? null, tools: request.tools ?? null }), "hex")

/** What makes two `POST /v1/runs/{id}/fork` of one run the same request (`wait` aside, as for a new run). */
export const forkFingerprint = (source: string, request: ForkRun): string =>
  hash(
    "sha256",
    canonical({ at: request.at ?? null, fork: source, limits: request.limits ?? null, outcomes: request.outcomes ?? null, tools: request.tools ?? null }),
    "hex",
  )

/** The run's result with each recorded call's source location added to its `toolCalls`. */
export const located = (result: Result, locations: ReadonlyMap<string, SourceLocation> | undefined): Result => {
  if (locations === undefined || locations.size === 0) return result
  const toolCalls = result.toolCalls.map((c) => {
    const location = locations.get(c.key)
    return location === undefined ? c : { ...c, location }
  })
  return { ...result, toolCalls }
}

/** Whether a run's view needs its calls' locations: it has a result that lists calls. */
export const listsCalls = (row: RunRow): boolean => (row.result?.toolCalls.length ?? 0) > 0

export const toView = (
  row: RunRow,
  pending: ReadonlyArray<PendingCall> = [],
  locations?: ReadonlyMap<string, SourceLocation>,
): Run => ({
  id: row.id,
  status: row.status,
  ...(row.result === null ? {} : { result: located(row.result, locations) }),
  ...(pending.length === 0 ? {} : { pendingCalls: pending }),
  ...(row.forkedFrom === null ? {} : { forkedFrom: { run: row.forkedFrom.run, checkpoint: row.forkedFrom.checkpoint } }),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
})

/** A durable call's stored outcome as a completion answers it. A call a cancel settled gets its message here. */
export const outcomeView = (outcome: unknown): CallOutcome["outcome"] => {
  const stored = outcome as { ok?: unknown; output?: unknown; error?: { kind?: unknown; message?: unknown } } | null
  return stored?.ok === true
    ? { ok: true, output: (stored.output ?? null) as Extract<CallOutcome["outcome"], { ok: true }>["output"] }
    : {
        ok: false,
        error: {
          kind: typeof stored?.error?.kind === "string" ? stored.error.kind : "ToolFailure",
          message: typeof stored?.error?.message === "string" ? stored.error.message : "The call ended when its run was cancelled",
        },
      }
}

/** A kept checkpoint as the API shows it; the stored call's input and outcome are JSON already (jsonb). */
export const checkpointView = (k: CheckpointRow): RunCheckpoint => ({
  seq: k.seq,
  calls: k.calls,
  size: k.size,
  createdAt: k.createdAt.toISOString(),
  ...(k.after === undefined
    ? {}
    : { after: { key: k.after.key, path: k.after.path, input: (k.after.input ?? null) as Schema.Json, outcome: (k.after.outcome ?? null) as Schema.Json } }),
})
