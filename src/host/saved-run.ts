/**
 * The host's record of a suspended run, the `run` part of a snapshot (the heap is the engine's part): the run's
 * id and source, the limits it was started with and the active time it has used, the calls it has admitted
 * (`toolCalls` and where each was made), the calls not yet settled with their state — `queued` (to start on
 * resume), `started` (a durable call, with its JSON data: `wait` is called again on resume) or `settled` (its
 * outcome is in the inbox) — and the inbox itself, and the host values of extensions kept by their `snapshot`
 * hooks. Plain JSON, checked field by field when a state is resumed.
 */
import { arr, int, lit, mismatch, nat, num, opt, or, rec, str, tuple, type Shape } from "../snapshot/shape.ts"
import type { DataValue } from "./data.ts"
import type { CallOutcome } from "./dispatch.ts"
import type { Limits } from "./limits.ts"
import type { ToolCall } from "./result.ts"

export interface SavedCall {
  readonly callId: number
  /** `running` only in round-trip mode, where the call's fiber lives on across the round trip. */
  readonly state: "queued" | "started" | "settled" | "running"
  readonly data?: DataValue
}

export interface SavedRun {
  readonly runId: string
  readonly source: string
  readonly limits: Limits
  /** Bytes the run has allocated, across every resume: what `maxMemoryBytes` counts (absent without the limit). */
  readonly memoryBytes?: number
  /** Milliseconds of `run()` the run has used, across every resume: what `timeoutMs` counts. */
  readonly activeMs: number
  /** Names of the extensions whose `snapshot` hooks saved values in this state. */
  readonly extensions: ReadonlyArray<string>
  /**
   * [callId, extension, data]: what `snapshot.encode` made of the value call `callId` returned, in the wire form of
   * plain data (host/extension-values.ts); `decode` gets it back on resume.
   */
  readonly extensionValues: ReadonlyArray<readonly [number, string, DataValue]>
  readonly toolCalls: ReadonlyArray<ToolCall>
  /** [callId, line, column] of each admitted call. */
  readonly locations: ReadonlyArray<readonly [number, number, number]>
  readonly calls: ReadonlyArray<SavedCall>
  readonly inbox: ReadonlyArray<{ readonly callId: number; readonly outcome: CallOutcome }>
}

const MAX_JSON_DEPTH = 64

/** Any JSON value (what JSON.parse can give), at most 64 levels deep. */
const json = (depth: number): Shape => (v, w, c) => {
  if (v === null || typeof v === "boolean" || typeof v === "string") return
  if (typeof v === "number") {
    if (!Number.isFinite(v)) mismatch(`${w}: not JSON`)
    return
  }
  if (depth >= MAX_JSON_DEPTH) mismatch(`${w}: nested too deeply`)
  if (Array.isArray(v)) return arr(json(depth + 1))(v, w, c)
  if (typeof v !== "object" || v === undefined || Object.getPrototypeOf(v) !== Object.prototype) return mismatch(`${w}: not JSON`)
  for (const [k, x] of Object.entries(v)) json(depth + 1)(x, `${w}.${k}`, c)
}
const data = json(0)

const failure = rec({
  kind: str,
  message: str,
  detail: str,
  path: opt(str),
  errorType: lit("Error", "TypeError"),
  data: opt(data),
})

const outcome = or(
  rec({ ok: lit(true), value: opt(data) }),
  rec({ ok: lit(false), failure }),
  rec({ ok: lit("interrupted") }),
  rec({ ok: lit("returned", "threw"), value: data }),
)

export const savedRunShape: Shape = rec({
  runId: str,
  source: str,
  limits: rec({ timeoutMs: opt(num), maxToolCalls: opt(num), maxOutputBytes: opt(num), maxMemoryBytes: opt(num) }),
  memoryBytes: opt(nat),
  activeMs: (v, w, c) => {
    num(v, w, c)
    if (!((v as number) >= 0) || !Number.isFinite(v)) mismatch(`${w}: not a duration`)
  },
  extensions: arr(str),
  extensionValues: arr(tuple(nat, str, data)),
  toolCalls: arr(rec({ path: str, key: str })),
  locations: arr(tuple(nat, int, int)),
  calls: arr(rec({ callId: nat, state: lit("queued", "started", "settled", "running"), data: opt(data) })),
  inbox: arr(rec({ callId: nat, outcome })),
})
