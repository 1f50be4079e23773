/** The failures of run requests, as tagged data (http.ts `toApiError` maps each to its status). */
import * as Data from "effect/Data"
import type * as SqlError from "effect/sql/SqlError"
import type { CallOutcome } from "../api.ts"
import type { SuspendRefused } from "../executor.ts"
import type { UnknownToolFilter } from "../registry.ts"

export class RunNotFound extends Data.TaggedError("RunNotFound")<{ readonly id: string }> {
  override get message(): string {
    return `No run with id ${this.id}`
  }
}

/** The run is not in a state that allows the request (`kind` says which conflict). */
export class RunConflict extends Data.TaggedError("RunConflict")<{
  readonly id: string
  readonly kind: "RunExists" | "RunNotSuspended" | "RunFinished" | "OwnerLost" | "CheckpointRefused"
  readonly detail: string
}> {
  override get message(): string {
    return this.detail
  }
}

/** The replica executing the run did not answer a suspend or cancel request in time. */
export class ControlTimeout extends Data.TaggedError("ControlTimeout")<{ readonly id: string; readonly action: string }> {
  override get message(): string {
    return `The replica executing run ${this.id} did not answer the ${this.action} request in time; try again`
  }
}

/** This replica is shutting down and takes no new runs (another replica will). */
export class ShuttingDown extends Data.TaggedError("ShuttingDown")<{}> {
  override get message(): string {
    return "This replica is shutting down; send the request to another replica"
  }
}

export class CallNotFound extends Data.TaggedError("CallNotFound")<{ readonly key: string }> {
  override get message(): string {
    return `No durable call ${this.key} is waiting for a completion`
  }
}

/** A completion of a call that has already settled otherwise: the first outcome stands, and is carried back. */
export class CallAlreadySettled extends Data.TaggedError("CallAlreadySettled")<{
  readonly key: string
  readonly outcome: CallOutcome["outcome"]
}> {
  override get message(): string {
    return `Durable call ${this.key} has already settled with another outcome; the first one stands`
  }
}

/** A fork asked for a checkpoint the run does not keep (never taken, or pruned by the retention policy). */
export class CheckpointNotFound extends Data.TaggedError("CheckpointNotFound")<{ readonly id: string; readonly seq: number | undefined }> {
  override get message(): string {
    return this.seq === undefined
      ? `Run ${this.id} keeps no checkpoint to fork from`
      : `Run ${this.id} keeps no checkpoint ${this.seq} (see GET /v1/runs/${this.id}/checkpoints)`
  }
}

export class InvalidCursor extends Data.TaggedError("InvalidCursor")<{ readonly cursor: string }> {
  override get message(): string {
    return `Invalid cursor ${JSON.stringify(this.cursor)}: pass back the nextCursor of a previous page`
  }
}

export type RunsError =
  | RunNotFound
  | RunConflict
  | CheckpointNotFound
  | ControlTimeout
  | InvalidCursor
  | ShuttingDown
  | SuspendRefused
  | UnknownToolFilter
  | SqlError.SqlError
