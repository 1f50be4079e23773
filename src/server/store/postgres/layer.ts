/**
 * The Postgres store: every storage contract of the service over one Postgres client. This folder holds every
 * SQL statement of the service (the schema itself is in `migrations/`).
 */
import * as Layer from "effect/Layer"
import * as Calls from "./calls.ts"
import * as Events from "./events.ts"
import * as Idempotency from "./idempotency.ts"
import * as Keys from "./keys.ts"
import * as Runs from "./runs.ts"
import * as Tools from "./tools.ts"

export const layer = Layer.mergeAll(Runs.layer, Calls.layer, Events.layer, Tools.layer, Keys.layer, Idempotency.layer)
