/**
 * `Webhooks`: the outbound call of a webhook tool (issue 6 "Webhook calls"). The service POSTs
 * `{ type: "call", key, runId, path, input }` to the tool's URL, signed per Standard Webhooks (`signing.ts`), and
 * a 2xx reply `{ output }` is the tool's result. Any other reply, a timeout or an unreachable host is a
 * `WebhookError` with a message that says which tool, which URL and what went wrong — the program sees it as
 * the tool's failure. Every failure says whether repeating the request could help (`retryable`: network errors,
 * timeouts, 5xx and 429); only `idempotent` tools are repeated, with exponential backoff, and always with the
 * same `webhook-id` (the call key) so the receiver can tell a retry from a new call. Redirects are not followed.
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { ServerConfig } from "./config.ts"
import type { ToolRow } from "./registry.ts"
import { headers as signatureHeaders } from "./signing.ts"

/** Replies above this size are refused rather than buffered. */
export const MAX_REPLY_BYTES = 10 * 1024 * 1024

export class WebhookError extends Data.TaggedError("WebhookError")<{
  readonly path: string
  readonly reason: "Unreachable" | "Timeout" | "Status" | "InvalidReply"
  readonly retryable: boolean
  readonly detail: string
  readonly status?: number
}> {
  override get message(): string {
    return `Webhook tool ${this.path} failed: ${this.detail}`
  }
}

export interface WebhookCall {
  readonly key: string
  readonly runId: string
  readonly input: unknown
}

/** The URL as messages show it: no credentials, query or fragment (they may hold tokens). */
export const displayUrl = (url: string): string => {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    return "(invalid url)"
  }
}

const snippet = (text: string): string => {
  const t = text.trim().replace(/\s+/g, " ")
  return t.length > 200 ? `${t.slice(0, 200)}…` : t
}

/** What went wrong on the network, without echoing the URL (fetch's own messages include it). */
const describeNetworkError = (cause: unknown): string => {
  const inner = (cause as { cause?: { code?: string } })?.cause
  if (typeof inner?.code === "string") return inner.code
  const name = cause instanceof Error ? cause.name : ""
  return name === "AbortError" || name === "TimeoutError" ? name : "network error"
}

export class Webhooks extends Context.Service<
  Webhooks,
  {
    /** Calls the tool once (or, for an idempotent tool, until a non-retryable outcome or the retries run out). */
    readonly call: (tool: ToolRow, call: WebhookCall) => Effect.Effect<unknown, WebhookError>
  }
>()("codemode/server/Webhooks") {
  static readonly layer: Layer.Layer<Webhooks, never, ServerConfig> = Layer.effect(
    Webhooks,
    Effect.gen(function* () {
      const config = yield* ServerConfig

      const attempt = (tool: ToolRow, body: string, key: string, timeoutMs: number) => {
        const where = displayUrl(tool.url)
        return Effect.gen(function* () {
          const fail = (reason: WebhookError["reason"], retryable: boolean, detail: string, status?: number) =>
            new WebhookError({ path: tool.path, reason, retryable, detail, ...(status === undefined ? {} : { status }) })
          const seconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          const response = yield* Effect.tryPromise({
            try: (signal) =>
              fetch(tool.url, {
                method: "POST",
                body,
                redirect: "manual",
                signal,
                headers: {
                  "content-type": "application/json",
                  "user-agent": "codemode-webhooks",
                  ...signatureHeaders(tool.secret, key, seconds, body),
                },
              }),
            catch: (cause) => fail("Unreachable", true, `POST ${where} could not be reached: ${describeNetworkError(cause)}`),
          })
          const text = yield* Effect.tryPromise({
            try: () => response.text(),
            catch: (cause) => fail("Unreachable", true, `POST ${where}: the reply broke off: ${describeNetworkError(cause)}`),
          })
          const status = response.status
          if (status < 200 || status > 299) {
            const retryable = status >= 500 || status === 429
            const body = text === "" ? "" : `: ${snippet(text)}`
            return yield* fail("Status", retryable, `POST ${where} answered ${status}${body}`, status)
          }
          if (text.length > MAX_REPLY_BYTES) {
            return yield* fail("InvalidReply", false, `POST ${where} replied with more than ${MAX_REPLY_BYTES} bytes`)
          }
          let reply: unknown
          try {
            reply = text === "" ? undefined : JSON.parse(text)
          } catch {
            return yield* fail("InvalidReply", false, `POST ${where} replied ${status} with a body that is not JSON: ${snippet(text)}`)
          }
          if (typeof reply !== "object" || reply === null || Array.isArray(reply)) {
            return yield* fail("InvalidReply", false, `POST ${where} replied ${status} without a JSON object { output }`)
          }
          return (reply as { output?: unknown }).output
        }).pipe(
          Effect.timeoutOrElse({
            duration: timeoutMs,
            orElse: () =>
              Effect.fail(
                new WebhookError({
                  path: tool.path,
                  reason: "Timeout",
                  retryable: true,
                  detail: `POST ${where} did not answer within ${timeoutMs} ms`,
                }),
              ),
          }),
        )
      }

      const call = Effect.fn("Webhooks.call")(function* (tool: ToolRow, call: WebhookCall) {
        const body = JSON.stringify({ type: "call", key: call.key, runId: call.runId, path: tool.path, input: call.input ?? null })
        const once = attempt(tool, body, call.key, tool.timeoutMs ?? config.webhookTimeoutMs)
        if (tool.mode !== "idempotent" || config.webhookRetries === 0) return yield* once
        return yield* once.pipe(
          Effect.retry({
            schedule: Schedule.exponential("100 millis", 2).pipe(Schedule.jittered),
            times: config.webhookRetries,
            while: (e) => e.retryable,
          }),
        )
      })

      return Webhooks.of({ call })
    }),
  )
}
