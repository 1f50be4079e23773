/**
 * `EventStore`: the contract for a run's history (table `events`), read back in the order it was written (by
 * event id, never by time: two events of one statement share their time). Run and call state changes write
 * their own events (`RunStore`, `CallStore`); this appends the rest and reads the history.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as SqlError from "effect/sql/SqlError"

export interface StoredEvent {
  readonly id: string
  readonly type: string
  readonly data: unknown
  readonly at: Date
}

type E<A> = Effect.Effect<A, SqlError.SqlError>

export class EventStore extends Context.Service<
  EventStore,
  {
    readonly append: (runId: string, type: string, data: unknown) => E<void>
    /** `log` events for lines a run logged, in order; `truncated` adds the event that says later lines are not streamed. */
    readonly appendLogs: (runId: string, lines: ReadonlyArray<string>, truncated: boolean) => E<void>
    /** The run's events after the event `after` (a decimal id; "0" for all), oldest first, at most `limit`. */
    readonly after: (runId: string, after: string, limit: number) => E<ReadonlyArray<StoredEvent>>
  }
>()("codemode/server/EventStore") {}
