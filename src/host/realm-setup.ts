/**
 * The realm every run gets, on either engine: a fork of the process's template realm (realm-template.ts, which
 * holds `search`, `require` and the built-in modules), the program's clock, the `tools` global, the extensions'
 * globals and their modules. A VM realm also gets
 * names for every object it holds (snapshot/realm-names.ts), which a snapshot refers to: a resumed run's realm is
 * prepared by this same function, so that the names match. `newRunState` is the rest of a new run's set-up, the
 * same for both engines.
 */
import { newRealm } from "./realm-template.ts"
import { MemoryMeter } from "../runtime/memory.ts"
import type { Realm } from "../runtime/realm.ts"
import { nameReachable } from "../snapshot/realm-names.ts"
import { installBindings } from "./bindings.ts"
import type { DataValue } from "./data.ts"
import type { Extension } from "./extension.ts"
import type { Hooks } from "./hooks.ts"
import { CallLedger } from "./ledger.ts"
import type { Limits } from "./limits.ts"
import { seedRealm } from "./random-seed.ts"
import type { RunState } from "./run-state.ts"
import { installModules } from "./modules.ts"
import { ExtensionRun, installExtensions } from "./sandbox-extensions.ts"
import { installTools, type ToolsHost } from "./sandbox-tools.ts"
import type { ToolIndex } from "./tree.ts"

/** What a runtime puts in each of its realms, fixed by `CodeMode.make`. */
export interface RealmSetup {
  readonly index: ToolIndex
  readonly hooks: Hooks | undefined
  readonly extensions: ReadonlyArray<Extension<unknown>>
}

export interface PreparedRealm {
  readonly realm: Realm
  readonly toolsHost: ToolsHost
  readonly extensions: ExtensionRun
}

/**
 * A realm as every run of `setup` gets it. `now` is the program's clock (`Date.now()`), the Effect clock of the
 * run so that TestClock governs it too; `named` names its objects for snapshots; `extensions` is the run's side of
 * its extensions when it already has one (a round trip keeps it).
 */
export const prepareRealm = (
  setup: RealmSetup,
  ledger: CallLedger,
  now: (() => number) | undefined,
  named: boolean,
  extensions: ExtensionRun = new ExtensionRun(setup.extensions, setup.hooks),
): PreparedRealm => {
  const realm = newRealm()
  if (now !== undefined) realm.host = { ...realm.host, now }
  const toolsHost: ToolsHost = { realm, index: setup.index, ledger }
  installTools(toolsHost)
  installModules(realm, installExtensions(realm, extensions, ledger))
  if (named) nameReachable(realm)
  return { realm, toolsHost, extensions }
}

/**
 * A new run's state, on either engine: its ledger (keys `<runId>:<callId>`), its realm prepared as above with
 * Math.random seeded by `seed` and the bindings as globals, a memory meter when `limits` has a budget, and no calls yet.
 */
export const newRunState = (
  setup: RealmSetup,
  limits: Limits,
  runId: string,
  bindings: ReadonlyArray<readonly [string, DataValue]>,
  now: () => number,
  seed: string | undefined,
  named: boolean,
): RunState => {
  const ledger = new CallLedger(runId, limits.maxToolCalls)
  const { realm, extensions } = prepareRealm(setup, ledger, now, named)
  seedRealm(realm, seed)
  installBindings(realm, bindings)
  if (limits.maxMemoryBytes !== undefined) realm.memory = new MemoryMeter(limits.maxMemoryBytes)
  return { runId, limits, realm, ledger, extensions, calls: new Map(), inbox: [], activeMs: 0 }
}
