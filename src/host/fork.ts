/**
 * Forking a saved run (`runtime.fork`): the same state under another run id, with replacement outcomes for calls
 * that were in flight in it. The saved run is rewritten before it is restored, so everything restoring checks
 * (signature, shape, calls against the heap) holds for the fork as for a resume; the source is never changed.
 * Keys are `<runId>:<callId>`, so the fork's keys are its own: a call made again after the fork (a queued or
 * started one without a replacement) reaches its tool under the new run's key.
 */
import { SnapshotError } from "../snapshot/errors.ts"
import { DataError, hostToData } from "./data.ts"
import type { CallOutcome } from "./dispatch.ts"
import { failure } from "./host-failure.ts"
import type { Limits } from "./limits.ts"
import type { SavedRun } from "./saved-run.ts"

/**
 * How a call in flight in the forked state ends instead, keyed by its key in that state.
 *
 * @since 0.1.0
 * @category models
 */
export type ForkOutcome = { readonly ok: true; readonly value?: unknown } | { readonly ok: false; readonly error: { readonly message: string } }

/**
 * The options of `runtime.fork`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ForkOptions {
  /** The new run's id (a UUID when omitted). */
  readonly runId?: string
  readonly outcomes?: Readonly<Record<string, ForkOutcome>>
  /**
   * Limits for the fork in place of the saved run's, each one given (the others stay as saved; time and calls
   * used before the state still count). Checked at once (RangeError), as `CodeMode.make` checks its own.
   */
  readonly limits?: Limits
}

/** A replacement outcome as the run loop delivers outcomes; its path is filled in when the call is found. */
export type ForkReplacement = (path: string) => CallOutcome

/** Checks `outcomes` at once (TypeError), so that a bad one is the caller's error and not the run's. */
export const checkForkOutcomes = (outcomes: unknown): ReadonlyMap<string, ForkReplacement> => {
  const checked = new Map<string, ForkReplacement>()
  if (outcomes === undefined) return checked
  if (typeof outcomes !== "object" || outcomes === null || Array.isArray(outcomes)) throw new TypeError("outcomes must be an object keyed by call key")
  for (const [key, o] of Object.entries(outcomes)) {
    const where = `outcomes[${JSON.stringify(key)}]`
    if (typeof o !== "object" || o === null) throw new TypeError(`${where} must be { ok: true, value } or { ok: false, error: { message } }`)
    const { ok, value, error } = o as { ok?: unknown; value?: unknown; error?: unknown }
    if (ok === true) {
      let data
      try {
        data = hostToData(value)
      } catch (e) {
        if (e instanceof DataError) throw new TypeError(`${where}.value is not plain data: ${e.message}`)
        throw e
      }
      checked.set(key, () => ({ ok: true, value: data }))
    } else if (ok === false) {
      const message = (error as { message?: unknown } | undefined)?.message
      if (typeof message !== "string") throw new TypeError(`${where}.error.message must be a string`)
      checked.set(key, (path) => ({ ok: false, failure: failure("ToolFailure", message, { path }) }))
    } else {
      throw new TypeError(`${where}.ok must be true or false`)
    }
  }
  return checked
}

/**
 * `saved` under `runId`, with `outcomes` settling calls in flight (SnapshotError for a key that names none) and
 * `limits` in place of its own.
 */
export const forkSavedRun = (saved: SavedRun, runId: string, outcomes: ReadonlyMap<string, ForkReplacement>, limits: Limits = {}): SavedRun => {
  const prefix = `${saved.runId}:`
  const callIdOf = (key: string): number | undefined => {
    const id = key.startsWith(prefix) ? Number(key.slice(prefix.length)) : NaN
    return Number.isSafeInteger(id) ? id : undefined
  }
  const toolCalls = saved.toolCalls.map((c) => {
    const id = callIdOf(c.key)
    if (id === undefined) throw new SnapshotError(`the snapshot's call key ${c.key} is not of run ${saved.runId}`)
    return { path: c.path, key: `${runId}:${id}` }
  })
  const settling = new Map<number, CallOutcome>()
  for (const [key, replacement] of outcomes) {
    const id = callIdOf(key)
    const call = saved.calls.find((c) => c.callId === id)
    const made = saved.toolCalls.find((c) => c.key === key)
    if (id === undefined || made === undefined || call === undefined || (call.state !== "queued" && call.state !== "started")) {
      throw new SnapshotError(`outcomes: ${key} is not a tool call in flight in the snapshot`)
    }
    settling.set(id, replacement(made.path))
  }
  return {
    ...saved,
    runId,
    limits: { ...saved.limits, ...limits },
    toolCalls,
    calls: saved.calls.map((c) => (settling.has(c.callId) ? { callId: c.callId, state: "settled" as const } : c)),
    inbox: [...saved.inbox, ...[...settling].map(([callId, outcome]) => ({ callId, outcome }))],
  }
}
