/**
 * Authentication of `/v1` (issue 6: "when CODEMODE_API_KEY is set, every /v1 request needs
 * `Authorization: Bearer <key>`"). The middleware decides the request's `Tenant`: one tenant, "default", until
 * API keys bound to tenants arrive (issue 7), at which point this is the only file that changes.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash, timingSafeEqual } from "node:crypto"
import { Authorization, Tenant, Unauthorized } from "./api.ts"
import { ServerConfig } from "./config.ts"

export const DEFAULT_TENANT = "default"

// Hash both sides so the comparison is constant-time whatever the lengths.
const digest = (s: string): Buffer => createHash("sha256").update(s).digest()

export const layer: Layer.Layer<Authorization, never, ServerConfig> = Layer.effect(
  Authorization,
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const expected = Option.map(config.apiKey, (key) => digest(Redacted.value(key)))
    return Authorization.of({
      bearer: (handler, { credential }) => {
        if (Option.isSome(expected)) {
          const given = Redacted.value(credential)
          if (given === "" || !timingSafeEqual(digest(given), expected.value)) {
            return Effect.fail(
              new Unauthorized({
                error: {
                  kind: "Unauthorized",
                  message: given === "" ? "This server needs Authorization: Bearer <api key>" : "Invalid API key",
                },
              }),
            )
          }
        }
        return Effect.provideService(handler, Tenant, DEFAULT_TENANT)
      },
    })
  }),
)
