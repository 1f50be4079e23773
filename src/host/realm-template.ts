/**
 * The realms runs use: forks of one template per process (runtime/realm-fork.ts), built on first use and named
 * for snapshots, so a run pays for the few built-ins it touches instead of building them all.
 */
import { createRealm } from "../intrinsics/index.ts"
import type { Realm } from "../runtime/realm.ts"
import { RealmTemplate } from "../runtime/realm-fork.ts"
import { nameByPath } from "../snapshot/realm-names.ts"

let template: RealmTemplate | undefined

const templateRealm = (): RealmTemplate => {
  if (template !== undefined) return template
  return (template = new RealmTemplate(createRealm(), nameByPath))
}

/** A fresh realm with every intrinsic and nothing else, isolated from every other. */
export const newRealm = (): Realm => templateRealm().fork()
