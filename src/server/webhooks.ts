/**
 * `Webhooks`: the outbound call of a webhook tool (issue 6 "Webhook calls"). The service POSTs
 * `{ type: "call", key, runId, path, input }` to the tool's URL, signed per Standard Webhooks (`signing.ts`), and
 * a 2xx reply `{ output }` is the tool's result. Any other reply, a timeout or an unreachable host is a
 * `WebhookError` with a message that says which tool, which URL and what went wrong — the program sees it as
 * the tool's failure. Every failure says whether repeating the request could help (`retryable`: network errors,
 * timeouts, 5xx and 429); only `idempotent` tools are repeated, with exponential backoff, and always with the
 * same `webhook-id` (the call key) so the receiver can tell a retry from a new call. Redirects are not followed,
 * loopback/private/link-local addresses are refused unless allowed, and both bodies have size limits
 * (`outbound.ts`, issue 7 "Outbound safety").
 */
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { ServerConfig } from "./config.ts"
import { deeperThan, MAX_DATA_DEPTH } from "./json-guard.ts"
import { Metrics } from "./metrics.ts"
import { retryFailures } from "./retry.ts"
import type { ToolRow } from "./store/tools.ts"
import { AddressRefused, check, InvalidAllowList, policy, post, ReplyTimedOut, ReplyTooLarge, type Policy } from "./outbound.ts"
import { headers as signatureHeaders } from "./signing.ts"

export class WebhookError extends Data.TaggedError("WebhookError")<{
  readonly path: string
  readonly reason: "Unreachable" | "Timeout" | "Status" | "InvalidReply" | "Refused" | "TooLarge"
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
  const code = (cause as { code?: unknown })?.code
  if (typeof code === "string") return code
  const inner = (cause as { cause?: { code?: string } })?.cause
  if (typeof inner?.code === "string") return inner.code
  const name = cause instanceof Error ? cause.name : ""
  return name === "AbortError" || name === "TimeoutError" ? name : "network error"
}

/** Between a webhook's attempts: 100 ms, doubled each time, jittered. */
const BACKOFF = Schedule.exponential("100 millis", 2).pipe(Schedule.jittered)

export class Webhooks extends Context.Service<
  Webhooks,
  {
    /** Calls the tool once (or, for an idempotent tool, until a non-retryable outcome or the retries run out). */
    readonly call: (tool: ToolRow, call: WebhookCall) => Effect.Effect<unknown, WebhookError>
    /** Starts a durable call: `{ type: "start", …, callbackUrl }`; answers the reply's `data`. */
    readonly start: (tool: ToolRow, call: WebhookCall & { readonly callbackUrl: string }) => Effect.Effect<unknown, WebhookError>
    /** Tells a durable tool its started call's run was cancelled: `{ type: "cancel", key, data }`. */
    readonly cancel: (tool: ToolRow, call: { readonly key: string; readonly data: unknown }) => Effect.Effect<void, WebhookError>
    /** Why a tool URL may not be registered (it reaches a forbidden address), or undefined. */
    readonly checkUrl: (url: string) => Effect.Effect<string | undefined>
    readonly policy: Policy
  }
>()("codemode/server/Webhooks") {
  static readonly layer: Layer.Layer<Webhooks, never, ServerConfig | Metrics> = Layer.effect(
    Webhooks,
    // One closure: every member shares the outbound policy and the signing of one request (`attempt`).
    Effect.gen(function* () {
      const config = yield* ServerConfig
      const metrics = yield* Metrics
      const outbound = yield* Effect.try({
        try: () => policy(config.webhookAllow),
        catch: (e) => (e instanceof InvalidAllowList ? e : new InvalidAllowList(String(e))),
      }).pipe(Effect.orDie)

      // The generator functions here are made once, not per call: one made per call gets a hidden class of its own,
      // and the runtime's calls into its generators stop being monomorphic.
      const attempt = Effect.fnUntraced(function* (tool: ToolRow, body: string, key: string, timeoutMs: number) {
        // Only failures name the URL: parsing it on every attempt cost 4-13 us (new URL, 200-20000 calls, process.cpuUsage).
        const where = () => displayUrl(tool.url)
        const fail = (reason: WebhookError["reason"], retryable: boolean, detail: string, status?: number) =>
          new WebhookError({ path: tool.path, reason, retryable, detail, ...(status === undefined ? {} : { status }) })
        const seconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
        if (Buffer.byteLength(body) > config.webhookMaxRequestBytes) {
          return yield* fail("TooLarge", false, `the request to ${where()} would be larger than ${config.webhookMaxRequestBytes} bytes`)
        }
        const response = yield* Effect.tryPromise({
          try: (signal) =>
            post(outbound, tool.url, body, {
              signal,
              timeoutMs,
              maxReplyBytes: config.webhookMaxReplyBytes,
              headers: {
                "content-type": "application/json",
                "user-agent": "codemode-webhooks",
                ...signatureHeaders(tool.previousSecret === undefined ? [tool.secret] : [tool.secret, tool.previousSecret], key, seconds, body),
              },
            }),
          catch: (cause) =>
            cause instanceof AddressRefused
              ? fail("Refused", false, `POST ${where()} refused: ${cause.message}`)
              : cause instanceof ReplyTimedOut
                ? fail("Timeout", true, `POST ${where()} did not answer within ${timeoutMs} ms`)
                : cause instanceof ReplyTooLarge
                  ? fail("InvalidReply", false, `POST ${where()} replied with more than ${config.webhookMaxReplyBytes} bytes`)
                  : fail("Unreachable", true, `POST ${where()} could not be reached: ${describeNetworkError(cause)}`),
        })
        const text = response.text
        const status = response.status
        if (status < 200 || status > 299) {
          const retryable = status >= 500 || status === 429
          const body = text === "" ? "" : `: ${snippet(text)}`
          return yield* fail("Status", retryable, `POST ${where()} answered ${status}${body}`, status)
        }
        let reply: unknown
        try {
          // An empty 2xx (a 204, say) is a tool that returns nothing: `{}`, no output.
          reply = text === "" ? {} : JSON.parse(text)
        } catch {
          return yield* fail("InvalidReply", false, `POST ${where()} replied ${status} with a body that is not JSON: ${snippet(text)}`)
        }
        if (typeof reply !== "object" || reply === null || Array.isArray(reply)) {
          return yield* fail("InvalidReply", false, `POST ${where()} replied ${status} without a JSON object { output }`)
        }
        if (deeperThan(reply, MAX_DATA_DEPTH + 1)) {
          return yield* fail("InvalidReply", false, `POST ${where()} replied ${status} with JSON nested deeper than ${MAX_DATA_DEPTH} levels`)
        }
        return reply as { readonly output?: unknown; readonly data?: unknown }
      })

      /** One attempt, timed into the latency histogram (by outcome: ok or the failure's reason). */
      const timed = Effect.fnUntraced(function* (tool: ToolRow, body: string, key: string, timeoutMs: number) {
        const started = yield* Clock.currentTimeMillis
        return yield* attempt(tool, body, key, timeoutMs).pipe(
          Effect.onExit((exit) =>
            Effect.flatMap(Clock.currentTimeMillis, (now) =>
              Effect.sync(() =>
                metrics.webhook(
                  (now - started) / 1000,
                  exit._tag === "Success" ? "ok" : (exit.cause.reasons.find((r) => r._tag === "Fail") as { error?: WebhookError } | undefined)?.error?.reason ?? "interrupted",
                ),
              ),
            ),
          ),
        )
      })

      const retries = { schedule: BACKOFF, times: config.webhookRetries, while: (e: WebhookError) => e.retryable }

      /** Sends one message to the tool, repeating it on retryable failures when `retry` says so. */
      const send = (tool: ToolRow, message: Record<string, unknown>, key: string, retry: boolean) => {
        // A durable tool's timeoutMs bounds its whole job; its `start` and `cancel` answer like any webhook.
        const answerMs = tool.mode === "durable" ? config.webhookTimeoutMs : (tool.timeoutMs ?? config.webhookTimeoutMs)
        const once = timed(tool, JSON.stringify(message), key, answerMs)
        if (!retry || config.webhookRetries === 0) return once
        return retryFailures(once, retries)
      }

      const call = Effect.fnUntraced(function* (tool: ToolRow, call: WebhookCall) {
        const message = { type: "call", key: call.key, runId: call.runId, path: tool.path, input: call.input ?? null }
        return (yield* send(tool, message, call.key, tool.mode === "idempotent")).output
      })

      // Durable tools: `start` and `cancel` carry the call key as webhook-id, so repeating them is safe.
      const start = Effect.fnUntraced(function* (tool: ToolRow, call: WebhookCall & { readonly callbackUrl: string }) {
        const message = { type: "start", key: call.key, runId: call.runId, path: tool.path, input: call.input ?? null, callbackUrl: call.callbackUrl }
        return (yield* send(tool, message, call.key, true)).data
      })

      const cancel = Effect.fnUntraced(function* (tool: ToolRow, call: { readonly key: string; readonly data: unknown }) {
        yield* send(tool, { type: "cancel", key: call.key, data: call.data ?? null }, call.key, true)
      })

      const checkUrl = (url: string) => Effect.promise(() => check(outbound, url))

      return Webhooks.of({ call, start, cancel, checkUrl, policy: outbound })
    }),
  )
}
