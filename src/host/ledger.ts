/**
 * The calls a run has admitted (spec "Results": "`toolCalls` retains admitted calls in order, including after
 * failure"; "Execution Limits": `maxToolCalls` counts admitted tool calls, and search counts too). Tool functions
 * and `search` admit their calls here synchronously, at the moment the program makes them, so the order is the
 * program's and a call over the limit is refused before it reaches the host: the run ends with
 * `ToolCallLimitExceeded` (an uncatchable Termination, so `try/catch` cannot swallow it). A call that never
 * reaches the host — an unknown tool, input that cannot be copied — is not admitted.
 */
import { Termination } from "../runtime/completion.ts"
import type { Realm, SourceLocation } from "../runtime/realm.ts"
import type { ToolCall } from "./result.ts"

export class CallLedger {
  readonly runId: string
  readonly maxToolCalls: number | undefined
  readonly toolCalls: ToolCall[] = []
  /** Where each admitted call was made, for the location of the error it may fail with. */
  readonly locations = new Map<number, SourceLocation>()
  constructor(runId: string, maxToolCalls: number | undefined) {
    this.runId = runId
    this.maxToolCalls = maxToolCalls
  }

  /** Admits a call to `path`, or ends the run when the limit is reached. */
  admit(realm: Realm, path: string): { readonly callId: number; readonly key: string } {
    if (this.maxToolCalls !== undefined && this.toolCalls.length >= this.maxToolCalls) {
      throw new Termination({
        kind: "ToolCallLimitExceeded",
        message: `The program exceeded the limit of ${this.maxToolCalls} tool call${this.maxToolCalls === 1 ? "" : "s"} (call to ${path})`,
      })
    }
    const callId = ++realm.lastCallId
    const key = `${this.runId}:${callId}`
    this.toolCalls.push({ path, key })
    const location = realm.host.currentLocation()
    if (location !== undefined) this.locations.set(callId, location)
    return { callId, key }
  }
}
