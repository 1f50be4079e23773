/**
 * The in-memory store: every storage contract over one set of tables in this process. A second implementation
 * of the contracts, for the service's logic tests (test/service/logic/) and nothing else: it is lost with the
 * process and shared by no other replica.
 */
import * as Layer from "effect/Layer"
import * as Calls from "./calls.ts"
import { MemoryDatabase } from "./database.ts"
import * as Events from "./events.ts"
import * as Idempotency from "./idempotency.ts"
import * as Keys from "./keys.ts"
import * as Runs from "./runs.ts"
import * as Tools from "./tools.ts"

export const layer = Layer.mergeAll(Runs.layer, Calls.layer, Events.layer, Tools.layer, Keys.layer, Idempotency.layer).pipe(
  Layer.provide(MemoryDatabase.layer),
)
