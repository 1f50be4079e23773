/** Telling durable tools that a cancel settled their calls (their `cancel` webhook), wherever the cancel happened. */
import * as Effect from "effect/Effect"
import type { ToolRegistry } from "../registry.ts"
import type { CancelledCall } from "../store/runs.ts"
import type { Webhooks } from "../webhooks.ts"

export const tellCancelled =
  (registry: ToolRegistry["Service"], webhooks: Webhooks["Service"]) =>
  (tenant: string, cancelled: ReadonlyArray<CancelledCall>): Effect.Effect<void> =>
    cancelled.length === 0
      ? Effect.void
      : registry.resolve(tenant, null, false).pipe(
          Effect.flatMap((registrations) =>
            Effect.forEach(
              cancelled,
              (c) => {
                const tool = registrations.tools.find((t) => t.path === c.path)
                return tool === undefined
                  ? Effect.logWarning(`call ${c.key} was cancelled, but its tool ${c.path} is no longer registered`)
                  : webhooks.cancel(tool, { key: c.key, data: c.data })
              },
              { concurrency: "unbounded", discard: true },
            ),
          ),
          Effect.catch((e) => Effect.logWarning("could not tell durable tools that their calls were cancelled", e)),
        )
