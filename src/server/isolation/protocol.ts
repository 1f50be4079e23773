/**
 * The messages between the service and the processes that run its programs (pool.ts, child.ts). They travel over
 * Node's IPC channel with `serialization: "advanced"` (the structured clone algorithm), so a run's saved state
 * crosses as the bytes it already is and nothing here needs its own encoding.
 */
import type { BlockingCall, Limits, Result } from "../api.ts"
import type { CallLocation, Checkpoint, NamespaceBinding, ResumeSpec, Suspended, ToolShape } from "../executor.ts"

/** A tool as the child sees it: its shape and how it is called; the call itself happens in the service. */
export interface ToolSpec extends ToolShape {
  readonly mode: "plain" | "idempotent" | "durable"
}

/** A run's tools and namespaces. */
export interface Catalog {
  readonly tools: ReadonlyArray<ToolSpec>
  readonly namespaces: ReadonlyArray<NamespaceBinding>
}

interface RunSetup {
  readonly runId: string
  /**
   * The run's catalog, by its number on this child; its content comes with the first run given it. Both sides
   * keep the last CATALOGS_KEPT catalogs given, forgetting the least recently given first: the same steps on the
   * same messages in the same order, so the service knows which the child still has without being told.
   */
  readonly catalog: number
  readonly content?: Catalog | undefined
  /** Whether the service wants each logged line as it is logged. */
  readonly log: boolean
}

/** How many catalogs each side keeps for a child (RunSetup.catalog), in a `Kept` of that capacity. */
export const CATALOGS_KEPT = 16


/** The operations of a tool binding (executor.ts `ToolBinding`) the child asks the service to perform. */
export type CallOp = "call" | "start" | "wait" | "cancel"

export type ToChild =
  | ({ readonly type: "start"; readonly code: string; readonly limits: Limits; readonly seed: string | undefined } & RunSetup)
  | ({
      readonly type: "resume"
      readonly state: Uint8Array
      readonly replay: { readonly code: string; readonly limits: Limits; readonly seed?: string | undefined } | undefined
      readonly fork?: ResumeSpec["fork"]
    } & RunSetup)
  | { readonly type: "reply"; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly type: "reply"; readonly id: number; readonly ok: false; readonly message: string }
  | { readonly type: "suspend" | "checkpoint"; readonly runId: string; readonly request: number; readonly now: boolean }
  | { readonly type: "cancel"; readonly runId: string }
  | { readonly type: "ping"; readonly seq: number }
  /** Messages sent in one turn of the service's event loop, in order. */
  | { readonly type: "batch"; readonly messages: ReadonlyArray<ToChild> }

export type Refusal = { readonly reason: "NotSuspendable" | "Blocked"; readonly detail: string; readonly calls: ReadonlyArray<BlockingCall> }

export type ToParent =
  | { readonly type: "ready" }
  | {
      readonly type: "call"
      readonly runId: string
      readonly id: number
      readonly path: string
      readonly op: CallOp
      readonly input: unknown
      readonly key: string
      /** Where the program made the call (`call` and `start`), when the child knows it. */
      readonly location?: CallLocation | undefined
    }
  | { readonly type: "abort"; readonly id: number }
  | { readonly type: "log"; readonly runId: string; readonly line: string; readonly index: number }
  | { readonly type: "outcome"; readonly runId: string; readonly outcome: Result | Suspended }
  /** The run was cancelled and has stopped (no outcome follows). */
  | { readonly type: "ended"; readonly runId: string }
  | { readonly type: "answer"; readonly request: number; readonly ok: true; readonly checkpoint: Checkpoint | undefined }
  | { readonly type: "answer"; readonly request: number; readonly ok: false; readonly refusal: Refusal }
  | { readonly type: "pong"; readonly seq: number }
  /** Messages sent in one turn of the child's event loop, in order. */
  | { readonly type: "batch"; readonly messages: ReadonlyArray<ToParent> }
