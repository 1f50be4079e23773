/**
 * The realms runs use: forks of one template per process (runtime/realm-fork.ts), built on first use and named
 * for snapshots, so a run pays for the few built-ins it touches instead of building them all. The template holds
 * the host's built-ins that are the same in every run (`search`, `require`, the modules of built-in globals): a
 * run fills in only what is its own (realm-setup.ts), and they reach the run's tools and ledger through its realm
 * (sandbox-tools.ts `toolsHostOf`).
 */
import { createRealm } from "../intrinsics/index.ts"
import { Property } from "../runtime/property.ts"
import type { Realm } from "../runtime/realm.ts"
import { RealmTemplate } from "../runtime/realm-fork.ts"
import { nameByPath } from "../snapshot/realm-names.ts"
import { installBuiltinModules } from "./modules.ts"
import { TOOLS_GLOBAL } from "./path.ts"
import { installSearch } from "./search-global.ts"

/**
 * A realm with every intrinsic and the host's built-ins, as the template is made. `tools` is set aside first, as
 * each run's tree is installed in its place: the globals keep the order they had when every run installed all of
 * them (`tools`, `search`, `require`...).
 */
export const createHostRealm = (): Realm => {
  const realm = createRealm()
  realm.globalObject.properties.set(TOOLS_GLOBAL, Property.data(undefined, true, false, true))
  installSearch(realm)
  installBuiltinModules(realm)
  return realm
}

let template: RealmTemplate | undefined

const templateRealm = (): RealmTemplate => {
  if (template !== undefined) return template
  return (template = new RealmTemplate(createHostRealm(), nameByPath))
}

/** A fresh realm with every intrinsic and the host's built-ins and nothing else, isolated from every other. */
export const newRealm = (): Realm => templateRealm().fork()
