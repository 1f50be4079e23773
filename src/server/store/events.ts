/**
 * `EventStore`: the contract for a run's history (table `events`). Each run's events are numbered 1, 2, 3 … in
 * the order they were written (`seq`, the SSE id), never by time: two events of one statement share their time.
 * Run and call state changes write their own events (`RunStore`, `CallStore`); this appends the rest and reads
 * the history. An event that reports something the program produced carries a key (a log line's index, a call's
 * change): a run taken over re-runs from its last saved state and produces those again, and a keyed event that
 * was written already is skipped, so nothing is streamed twice.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as SqlError from "effect/sql/SqlError"

export interface StoredEvent {
  /** The event's number within its run, in decimal. */
  readonly id: string
  readonly type: string
  readonly data: unknown
  readonly at: Date
}

/** A line the program logged, with its place among all the lines of the run (from 0, across resumes). */
export interface LoggedLine {
  readonly index: number
  readonly line: string
}

/** An event as a store writes it; `key` when it must be written at most once per run. */
export interface EventDraft {
  readonly type: string
  readonly data: unknown
  readonly key?: string | undefined
}

export const logKey = (index: number): string => `log:${index}`

/** The event that says later lines are not streamed (once per run). */
export const truncatedEvent: EventDraft = { type: "log.truncated", data: { detail: "later lines are only in the run's result" }, key: "log.truncated" }

/** The events of logged lines, in order, and the one that says later lines are dropped. */
export const logEvents = (lines: ReadonlyArray<LoggedLine>, truncated: boolean): ReadonlyArray<EventDraft> => [
  ...lines.map((l) => ({ type: "log", data: { line: l.line }, key: logKey(l.index) })),
  ...(truncated ? [truncatedEvent] : []),
]

/** The key of a call's change: `call.started` also names its attempt (an idempotent call sent again is news). */
export const callEventKey = (type: string, callKey: string, attempt?: number): string =>
  attempt === undefined ? `${type}:${callKey}` : `${type}:${callKey}:${attempt}`

type E<A> = Effect.Effect<A, SqlError.SqlError>

export class EventStore extends Context.Service<
  EventStore,
  {
    readonly append: (runId: string, type: string, data: unknown) => E<void>
    /** `log` events for lines a run logged, in order; `truncated` adds the event that says later lines are not streamed. */
    readonly appendLogs: (runId: string, lines: ReadonlyArray<LoggedLine>, truncated: boolean) => E<void>
    /** The run's events after the event numbered `after` (decimal; "0" for all), oldest first, at most `limit`. */
    readonly after: (runId: string, after: string, limit: number) => E<ReadonlyArray<StoredEvent>>
  }
>()("codemode/server/EventStore") {}
