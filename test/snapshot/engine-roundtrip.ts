/**
 * Round-trip mode for tests that drive the VM directly, without the host (test/vm/helpers.ts `runToEnd`): the
 * program runs in slices of a few steps that also stop between jobs, and at every slice boundary where no native
 * frame is live its engine state is saved to bytes and restored into a fresh realm, where the run continues.
 */
import { compileProgram } from "../../src/compiler/functions.ts"
import { compileForVm } from "../../src/host/vm-compile.ts"
import { createRealm } from "../../src/intrinsics/index.ts"
import { checkProgram } from "../../src/language/index.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { decodeEngine, encodeEngine } from "../../src/snapshot/engine-state.ts"
import { fromBytes, toBytes } from "../../src/snapshot/format.ts"
import { nameReachable } from "../../src/snapshot/realm-names.ts"
import { makeRegistry } from "../../src/snapshot/registry.ts"
import { any } from "../../src/snapshot/shape.ts"
import { Vm, type VmStatus } from "../../src/vm/index.ts"
import { liveNativeFrame } from "../../src/vm/state.ts"

const registry = makeRegistry()
const fresh = (): Realm => {
  const realm = createRealm()
  nameReachable(realm)
  return realm
}
let pristine: Realm | undefined

export const runWithRoundtrips = (source: string, maxSlices = 200_000): { status: VmStatus; realm: Realm } => {
  const checked = checkProgram(source)
  if (!checked.ok) throw new Error(`front end: ${checked.diagnostic.kind}: ${checked.diagnostic.message}`)
  pristine ??= fresh()
  let realm = fresh()
  let vm = new Vm(realm, checked.program, compileForVm(checked.program))
  let gap = 1
  let since = 0
  for (let i = 0; i < maxSlices; i++) {
    const status = vm.run(16, true)
    if (status.kind !== "yielded") return { status, realm }
    if (liveNativeFrame(vm) || ++since < gap) continue
    const heap = encodeEngine(registry, realm, vm, null, pristine)
    const state = fromBytes(toBytes({ format: 1, build: "test", run: null, heap }))
    realm = fresh()
    vm = decodeEngine(registry, state.heap, realm, checked.program, compileProgram(checked.program), any, undefined).vm
    since = 0
    gap = Math.min(gap * 2, 64)
  }
  throw new Error("program did not finish")
}
