/**
 * The heap registry of a build: every class whose instances a run's state may hold — runtime, built-ins, VM —
 * plus the host's own (tools), and the host symbols used as sentinels. The order of fields in each registration
 * is part of the format (covered by the build id). test/snapshot/registry.test.ts walks every class exported from
 * src/runtime, src/intrinsics, src/vm and src/host that extends JSObject and fails if one is missing here, so a
 * new heap kind cannot silently break snapshots.
 */
import { EMPTY } from "../runtime/value.ts"
import type { RestoreContext } from "./context.ts"
import { HeapRegistry, type HeapClass } from "./heap-codec.ts"
import { intrinsicClasses } from "./registry-intrinsics.ts"
import { runtimeClasses } from "./registry-runtime.ts"

export const makeRegistry = (extra: ReadonlyArray<HeapClass<RestoreContext>> = []): HeapRegistry<RestoreContext> => {
  const registry = new HeapRegistry<RestoreContext>()
  for (const c of [...runtimeClasses, ...intrinsicClasses, ...extra]) registry.register(c)
  registry.registerSymbol("EMPTY", EMPTY)
  return registry
}
