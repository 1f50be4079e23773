/**
 * The service's run logic — `Runs` and everything behind it, without HTTP — over a given store, with the
 * scripted executor (fake-executor.ts), in-process notifications and a webhook receiver on loopback for durable
 * tools. Built inside `it.layer`, its clock is the test's `TestClock`: its timers (the idle suspend, the fake's
 * `sleep` steps, lease renewal and the sweep) move only when a test adjusts it. Leases are long, so no run is
 * taken over while a test holds the clock.
 */
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ServerConfig } from "../../../src/server/config.ts"
import { Metrics } from "../../../src/server/metrics.ts"
import { Notifications } from "../../../src/server/notifications.ts"
import { ToolRegistry } from "../../../src/server/registry.ts"
import { RowSeal } from "../../../src/server/row-seal.ts"
import { Runs } from "../../../src/server/runs.ts"
import type { CallStore } from "../../../src/server/store/calls.ts"
import type { EventStore } from "../../../src/server/store/events.ts"
import type { IdempotencyStore } from "../../../src/server/store/idempotency.ts"
import type { KeyStore } from "../../../src/server/store/keys.ts"
import type { RunStore } from "../../../src/server/store/runs.ts"
import type { ToolStore } from "../../../src/server/store/tools.ts"
import { Webhooks } from "../../../src/server/webhooks.ts"
import * as Fake from "../fake-executor.ts"

export const IDLE_SUSPEND_MS = 1000
/** Rows are sealed here as in a service with a snapshot key (row-seal.ts). */
export const SEAL_KEY = "logic-tests-seal-key"

type Stores = RunStore | CallStore | EventStore | ToolStore | KeyStore | IdempotencyStore

export const service = <E>(store: Layer.Layer<Stores, E>) =>
  Runs.layer.pipe(
    Layer.provideMerge(
      Layer.mergeAll(ToolRegistry.layer, Webhooks.layer, Notifications.layerMemory, Fake.layer, Layer.succeed(RowSeal, RowSeal.make(SEAL_KEY))).pipe(
        Layer.provideMerge(Layer.merge(Metrics.layer, store)),
      ),
    ),
    Layer.provideMerge(ServerConfig.layer),
    Layer.provide(
      ConfigProvider.layer(
        ConfigProvider.fromUnknown({
          CODEMODE_REPLICA_ID: "logic",
          CODEMODE_LEASE_MS: "600000",
          CODEMODE_POLL_MS: "1000",
          CODEMODE_IDLE_SUSPEND_MS: String(IDLE_SUSPEND_MS),
          CODEMODE_CONTROL_TIMEOUT_MS: "5000",
          CODEMODE_DRAIN_MS: "0",
          CODEMODE_WEBHOOK_ALLOW: "127.0.0.1",
        }),
      ),
    ),
  )

/** Waits in real time (the service's clock is the TestClock) until `f` answers something, for I/O to land. */
export const eventually = <A, E, R>(f: Effect.Effect<A | undefined, E, R>, timeoutMs = 10_000): Effect.Effect<A, E | Error, R> =>
  Effect.gen(function* () {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const a = yield* f
      if (a !== undefined) return a
      if (Date.now() > deadline) return yield* Effect.fail(new Error(`timed out waiting; last: ${JSON.stringify(a)}`))
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
    }
  })
