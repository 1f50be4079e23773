/**
 * Authentication of `/v1` (issue 7 "Tenants and keys"). The middleware decides the request's `Tenant`:
 *
 * - `Authorization: Bearer <CODEMODE_API_KEY>` is the single-tenant shortcut: tenant "default".
 * - `Authorization: Bearer <key>` with a key made by `codemode keys create --tenant NAME`: that tenant.
 * - Without a bearer key the server is open (tenant "default") only while it has no `CODEMODE_API_KEY` and no
 *   valid API key; otherwise 401. An unknown key on an open server is let through as "default" (as before keys).
 *
 * Every store and registry query filters by the tenant decided here, so a tenant sees only its own runs, calls,
 * tools, namespaces and events (test/service/tenants.test.ts).
 *
 * A key found valid is trusted for TRUSTED_MS without asking the database again: a request with a key would
 * otherwise cost one more round trip and transaction before its own. Revoking a key notifies every replica
 * (store/postgres/keys.ts), which stop trusting all the keys they hold at once; a revocation they do not hear of
 * (a lost notice, a row changed behind the service's back) takes effect within TRUSTED_MS.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as PubSub from "effect/PubSub"
import * as Redacted from "effect/Redacted"
import { createHash, timingSafeEqual } from "node:crypto"
import { Unauthorized, Unavailable } from "./api.ts"
import { Authorization, Tenant } from "./endpoints.ts"
import { ServerConfig } from "./config.ts"
import { Kept } from "./kept.ts"
import { ApiKeys, hashKey } from "./keys.ts"
import { Notifications } from "./notifications.ts"

export const DEFAULT_TENANT = "default"

// Hash both sides so the comparison is constant-time whatever the lengths.
const digest = (s: string): Buffer => createHash("sha256").update(s).digest()

const unauthorized = (message: string) => new Unauthorized({ error: { kind: "Unauthorized", message } })

/** How long a key found valid is trusted without asking the database (anyActive's "none" is kept as long: keys.ts). */
const TRUSTED_MS = 1000
/** Keys trusted at most, by their hash; the least recently used goes first. */
const KEYS_TRUSTED = 10_000

export const layer: Layer.Layer<Authorization, never, ServerConfig | ApiKeys | Notifications> = Layer.effect(
  Authorization,
  Effect.gen(function* () {
    const config = yield* ServerConfig
    const keys = yield* ApiKeys
    let trusted = new Kept<string, { readonly tenant: string; readonly until: number }>(KEYS_TRUSTED)
    const revocations = yield* (yield* Notifications).subscribe
    yield* Effect.forever(
      Effect.flatMap(PubSub.take(revocations), (notice) => Effect.sync(() => void (notice.type === "keys" && (trusted = new Kept(KEYS_TRUSTED))))),
    ).pipe(Effect.forkScoped)
    const expected = Option.map(config.apiKey, (key) => digest(Redacted.value(key)))
    const isShortcut = (given: string) => Option.isSome(expected) && timingSafeEqual(digest(given), expected.value)

    const tenantFor = Effect.fnUntraced(function* (given: string) {
      if (given !== "") {
        if (isShortcut(given)) return DEFAULT_TENANT
        const hash = hashKey(given)
        const now = yield* Clock.currentTimeMillis
        const held = trusted.given(hash)
        if (held !== undefined && now < held.until) return held.tenant
        // The cache a revocation replaces while this read is under way is not the one this key goes into.
        const into = trusted
        const tenant = yield* keys.tenantOf(given)
        if (tenant !== undefined) return into.keep(hash, { tenant, until: now + TRUSTED_MS }).tenant
      }
      if (Option.isNone(expected) && !(yield* keys.anyActive)) return DEFAULT_TENANT
      return yield* unauthorized(given === "" ? "This server needs Authorization: Bearer <api key>" : "Invalid API key")
    })

    return Authorization.of({
      bearer: (handler, { credential }) =>
        tenantFor(Redacted.value(credential)).pipe(
          Effect.catchTag("SqlError", (e) =>
            Effect.logError("could not check an API key", e).pipe(
              Effect.andThen(Effect.fail(new Unavailable({ error: { kind: "DatabaseUnavailable", message: "The database is unavailable; try again" } }))),
            ),
          ),
          Effect.flatMap((tenant) => Effect.provideService(handler, Tenant, tenant)),
        ),
    })
  }),
)
