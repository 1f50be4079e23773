/**
 * The state of a run that the run loop (run.ts) drives, the same for both engines: its realm, its admitted calls
 * (the ledger), the host calls not yet settled with their host-side state, and the inbox of outcomes not yet
 * delivered. A VM session (vm-session.ts) is one with an engine that can be saved; a suspend saves exactly these
 * fields (saved-run.ts), so their shape is part of the snapshot format.
 */
import type * as Fiber from "effect/Fiber"
import type { HostCallRequest, Realm } from "../runtime/realm.ts"
import type { DataValue } from "./data.ts"
import type { CallOutcome } from "./dispatch.ts"
import type { CallLedger } from "./ledger.ts"
import type { Limits } from "./limits.ts"
import type { ExtensionRun } from "./sandbox-extensions.ts"

/**
 * - `queued`: admitted, not started (it starts when the run runs);
 * - `running`: in a fiber (a plain or idempotent tool);
 * - `starting`: a durable tool in `start` (blocks suspend);
 * - `started`: a durable tool whose `start` returned its data, now in `wait`;
 * - `settled`: its outcome is in the inbox, not yet delivered to the program.
 */
export type CallState = "queued" | "running" | "starting" | "started" | "settled"

export interface CallEntry {
  readonly callId: number
  readonly key: string
  /** The sandbox side: path, copied input, the promise to settle. Replaced by the restored one on a round trip. */
  request: HostCallRequest
  state: CallState
  /** A durable call's data, once `start` returned it. */
  data: DataValue | undefined
  fiber: Fiber.Fiber<void> | undefined
  /** Set when a suspend takes the call out of the run: it ends without `tool.after` and without `cancel`. */
  detached: boolean
  /** A `Tool.idempotent` call: a suspend may interrupt it and run it again on resume. */
  idempotent: boolean
}

export const newEntry = (request: HostCallRequest, runId: string, state: CallState): CallEntry => ({
  callId: request.callId,
  key: `${runId}:${request.callId}`,
  request,
  state,
  data: undefined,
  fiber: undefined,
  detached: false,
  idempotent: false,
})

export interface OutcomeEvent {
  readonly _tag: "outcome"
  readonly callId: number
  readonly outcome: CallOutcome
}

/** What wakes the run loop: a call's outcome, or a suspend request (the request itself is on the program). */
export type LoopEvent = OutcomeEvent | { readonly _tag: "wake" }

/** A run as the loop sees it. Mutable: in round-trip mode the VM's realm and ledger are swapped for restored ones. */
export interface RunState {
  readonly runId: string
  readonly limits: Limits
  realm: Realm
  ledger: CallLedger
  /** The run's extensions: host values they returned, calls not yet started. Lives on across round trips. */
  readonly extensions: ExtensionRun
  readonly calls: Map<number, CallEntry>
  readonly inbox: Array<{ readonly callId: number; readonly outcome: CallOutcome }>
  /** Active time used by earlier incarnations of the run. */
  readonly activeMs: number
}
