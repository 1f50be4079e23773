/**
 * A VM run as the host holds it: the engine (realm and Vm), the call ledger, the calls not yet settled with their
 * host-side state, the inbox of outcomes not yet delivered, and the active time used. It is the unit that is saved
 * to a `Snapshot` (`captureSession`) and rebuilt from one (`restoreSession`) into a fresh realm prepared exactly as
 * the original was (realm-setup.ts `prepareRealm`, with names for every object a fresh realm holds). A session is mutable: in round-trip mode the loop swaps its realm, Vm and ledger for
 * the restored ones at every save point while the calls' fibers live on.
 */
import type { HostCallRequest, Realm } from "../runtime/realm.ts"
import { buildId } from "../snapshot/build-id.ts"
import type { RestoreContext } from "../snapshot/context.ts"
import { decodeEngine, encodeEngine } from "../snapshot/engine-state.ts"
import { SnapshotError } from "../snapshot/errors.ts"
import { checkEnvelope, FORMAT_VERSION, fromBytes, type Snapshot } from "../snapshot/format.ts"
import { fromSignedBytes, signSnapshot, verifySnapshot } from "../snapshot/signature.ts"
import { MemoryMeter } from "../runtime/memory.ts"
import type { HeapRegistry } from "../snapshot/heap-codec.ts"
import { arr, check, inst, rec } from "../snapshot/shape.ts"
import { callable, nat, str, value } from "../snapshot/value-shapes.ts"
import { Vm, type VmProgram } from "../vm/index.ts"
import { DataError, type DataValue } from "./data.ts"
import { plainToWire, wireToPlain } from "./extension-values.ts"
import { CallLedger } from "./ledger.ts"
import { validateLimits, type Limits } from "./limits.ts"
import { checkCached } from "./program-cache.ts"
import { newRunState, prepareRealm, type RealmSetup } from "./realm-setup.ts"
import { newEntry, type CallEntry, type RunState } from "./run-state.ts"
import type { ExtensionRun } from "./sandbox-extensions.ts"
import type { HostContext } from "./snapshot-classes.ts"
import { savedRunShape, type SavedCall, type SavedRun } from "./saved-run.ts"
import type { ToolEntry } from "./tree.ts"
import { compileForVm } from "./vm-compile.ts"

/** What every run of one VM runtime shares, built once by `CodeMode.make`. */
export interface VmContext extends RealmSetup {
  readonly limits: Limits
  /** The tool a call's path (`tools.orders.lookup`) names. */
  readonly toolAt: (expression: string) => ToolEntry | undefined
  readonly registry: HeapRegistry<RestoreContext>
  /** A realm prepared as every run's is and never run: what "only changed built-ins are saved" compares with. */
  readonly pristine: () => Realm
  /** CODEMODE_ROUNDTRIP: save and restore the run at every host call and every few steps. */
  readonly roundtrip: boolean
  /** Steps per slice (run.ts SLICE_STEPS; smaller in benchmarks that stop programs at a precise point). */
  readonly sliceSteps: number
  /** The size of the heap of a fresh realm of this runtime (the pristine one): what the memory meter does not count. */
  readonly memoryBaseline: () => number
  /** `snapshotKey`: states are signed when saved and must be when resumed (snapshot/signature.ts). */
  readonly snapshotKey: Uint8Array | undefined
  /** `CodeMode.make`'s `seed`: every new run's Math.random seed, unless the program is given its own. */
  readonly seed: string | undefined
}

export interface Session extends RunState {
  readonly source: string
  readonly program: VmProgram
  vm: Vm
}

/** A realm as every VM run gets it (realm-setup.ts), named for snapshots. */
export const prepareVmRealm = (ctx: VmContext, ledger: CallLedger, now: (() => number) | undefined, extensions?: ExtensionRun) =>
  prepareRealm(ctx, ledger, now, true, extensions)

/** A fresh session for a checked program. Throws what the VM's constructor throws (a compiler bug). */
export const newSession = (
  ctx: VmContext,
  program: VmProgram,
  runId: string,
  bindings: ReadonlyArray<readonly [string, DataValue]>,
  now: () => number,
  seed: string | undefined,
): Session => {
  const run = newRunState(ctx, ctx.limits, runId, bindings, now, seed, true)
  return { ...run, source: program.source, program, vm: new Vm(run.realm, program, compileForVm(program)) }
}

/** The saved state of a call: an idempotent call in flight is saved as queued (it runs again on resume). */
const savedState = (e: CallEntry): SavedCall["state"] => {
  switch (e.state) {
    case "queued":
      return "queued"
    case "started":
      return "started"
    case "settled":
      return "settled"
    default:
      return "running"
  }
}

/**
 * The whole state of a session as a Snapshot. Throws SnapshotError when something in it cannot be saved. For a
 * suspend (`forSuspend`), calls still running are idempotent ones (anything else blocked the suspend): they are
 * saved as queued, to run again on resume; a round trip saves them as running, their fibers living on.
 */
export const captureSession = (ctx: VmContext, s: Session, activeMs: number, forSuspend: boolean): Snapshot => {
  // States are saved where no native frame is live: the heap can be measured, and the state keeps its live size.
  s.realm.memory?.measure([s.realm, s.vm], ctx.memoryBaseline())
  const entries = [...s.calls.values()]
  // A round trip keeps the extensions' host values alive, as it keeps the calls' fibers.
  const kept = forSuspend ? encodeExtensionValues(s.extensions) : { extensions: [], values: [] }
  const run: SavedRun = {
    runId: s.runId,
    source: s.source,
    limits: { ...s.limits },
    ...(s.realm.memory === undefined ? {} : { memoryBytes: s.realm.memory.used }),
    activeMs,
    extensions: kept.extensions,
    extensionValues: kept.values,
    toolCalls: [...s.ledger.toolCalls],
    locations: [...s.ledger.locations].map(([id, loc]) => [id, loc.line, loc.column] as const),
    calls: entries.map((e) => ({
      callId: e.callId,
      state: forSuspend && e.state === "running" ? "queued" : savedState(e),
      ...(e.data === undefined ? {} : { data: e.data }),
    })),
    inbox: [...s.inbox],
  }
  const heap = encodeEngine(ctx.registry, s.realm, s.vm, { calls: entries.map((e) => e.request) }, ctx.pristine())
  const snapshot: Snapshot = { format: FORMAT_VERSION, build: buildId(), run, heap }
  return ctx.snapshotKey === undefined ? snapshot : signSnapshot(snapshot, ctx.snapshotKey)
}

/**
 * The host values extension calls returned, as their extensions' `snapshot.encode` makes them plain data. A value
 * of an extension without hooks is left out: its functions throw a TypeError after the resume. A hook that throws
 * or gives something else than JSON values and Uint8Arrays makes the state unsavable (SnapshotError).
 */
const encodeExtensionValues = (run: ExtensionRun): { extensions: string[]; values: Array<readonly [number, string, DataValue]> } => {
  const names = new Set<string>()
  const values: Array<readonly [number, string, DataValue]> = []
  for (const [id, { extension, value }] of run.values) {
    const hooks = run.byName.get(extension)?.snapshot
    if (hooks === undefined) continue
    let data: unknown
    try {
      data = hooks.encode(value)
    } catch (e) {
      throw new SnapshotError(`extension ${extension}: snapshot.encode failed: ${e instanceof Error ? e.message : String(e)}`)
    }
    try {
      values.push([id, extension, plainToWire(data)])
    } catch (e) {
      if (!(e instanceof DataError)) throw e
      throw new SnapshotError(`extension ${extension}: snapshot.encode returned data that is not plain: ${e.message}`)
    }
    names.add(extension)
  }
  return { extensions: [...names].sort(), values }
}

/** The saved values back, through their extensions' `snapshot.decode` (SnapshotError when that is not possible). */
const decodeExtensionValues = (run: ExtensionRun, saved: SavedRun, lastCallId: number): void => {
  for (const name of saved.extensions) {
    if (run.byName.get(name)?.snapshot === undefined) {
      throw new SnapshotError(`the snapshot needs extensions this runtime lacks: ${name}, with snapshot hooks to decode the values it saved`)
    }
  }
  for (const [id, extension, data] of saved.extensionValues) {
    const hooks = saved.extensions.includes(extension) ? run.byName.get(extension)?.snapshot : undefined
    if (hooks === undefined || id < 1 || id > lastCallId || run.values.has(id)) throw new SnapshotError(`the snapshot's value ${id} of extension ${extension} is stray`)
    let plain: unknown
    try {
      plain = wireToPlain(data)
    } catch (e) {
      if (!(e instanceof DataError)) throw e
      throw new SnapshotError(`the snapshot's value ${id} of extension ${extension} is malformed: ${e.message}`)
    }
    let value: unknown
    try {
      value = hooks.decode(plain)
    } catch (e) {
      throw new SnapshotError(`extension ${extension}: snapshot.decode failed: ${e instanceof Error ? e.message : String(e)}`)
    }
    run.values.set(id, { extension, value })
  }
}

/** Each limit the runtime sets, as the lower of the saved one and the runtime's. */
const capLimits = (saved: Limits, own: Limits): Limits => {
  const capped: Record<string, number | undefined> = { ...saved }
  for (const [name, max] of Object.entries(own) as Array<[keyof Limits, number | undefined]>) {
    if (max === undefined) continue
    const v = saved[name]
    capped[name] = v === undefined ? max : Math.min(v, max)
  }
  return capped as Limits
}

const hostRoot = rec({
  calls: arr(rec({ callId: nat, path: str, args: arr(value), capability: rec({ promise: inst("PromiseObject"), resolve: callable, reject: callable }) })),
})

/**
 * A session continuing `input` (a Snapshot, or its bytes), in a fresh realm of this runtime. Everything is checked;
 * anything wrong is a SnapshotError. `running` calls are accepted only for a round trip (`allowRunning`), whose fibers live on. A
 * `rewrite` changes the saved run after its shape is checked and before anything else is (a fork: host/fork.ts).
 */
export const restoreSession = (
  ctx: VmContext,
  input: unknown,
  now: () => number,
  allowRunning = false,
  live?: ExtensionRun,
  rewrite?: (saved: SavedRun) => SavedRun,
): { session: Session; saved: SavedRun } => {
  const key = ctx.snapshotKey
  const snapshot =
    input instanceof Uint8Array
      ? key === undefined
        ? fromBytes(input)
        : fromSignedBytes(input, key)
      : key === undefined
        ? checkEnvelope(input)
        : verifySnapshot(input, key)
  if (snapshot.build !== buildId()) {
    throw new SnapshotError(`the snapshot was saved by another build of codemode (${snapshot.build}; this is ${buildId()})`)
  }
  check(savedRunShape, snapshot.run, "run", ctx.registry.checker())
  const saved = rewrite === undefined ? (snapshot.run as SavedRun) : rewrite(snapshot.run as SavedRun)
  let limits: Limits
  try {
    limits = validateLimits(saved.limits)
  } catch (e) {
    throw new SnapshotError(`the snapshot's limits are invalid: ${e instanceof Error ? e.message : String(e)}`)
  }
  // An unsigned state may have been edited to raise its limits: this runtime's own limits bound them.
  if (ctx.snapshotKey === undefined) limits = capLimits(limits, ctx.limits)
  const checked = checkCached(saved.source)
  if (!checked.ok) throw new SnapshotError(`the snapshot's program does not compile: ${checked.diagnostic.message}`)
  let compiled
  try {
    compiled = compileForVm(checked.program)
  } catch (e) {
    throw new SnapshotError(`the snapshot's program does not compile: ${e instanceof Error ? e.message : String(e)}`)
  }
  if ("refusedAt" in compiled) throw new SnapshotError("the snapshot's program does not compile: it is nested too deeply")
  const ledger = new CallLedger(saved.runId, limits.maxToolCalls)
  for (const c of saved.toolCalls) ledger.toolCalls.push(c)
  for (const [id, line, column] of saved.locations) ledger.locations.set(id, { line, column })
  const { realm, toolsHost, extensions } = prepareVmRealm(ctx, ledger, now, live)
  if (limits.maxMemoryBytes !== undefined) realm.memory = new MemoryMeter(limits.maxMemoryBytes, saved.memoryBytes ?? 0)
  const hostContext: HostContext = { tools: toolsHost, extensions }
  const engine = decodeEngine(ctx.registry, snapshot.heap, realm, checked.program, compiled, hostRoot, hostContext)
  if (live === undefined) decodeExtensionValues(extensions, saved, realm.lastCallId)
  const requests = (engine.host as { calls: ReadonlyArray<HostCallRequest> }).calls
  const byId = new Map(requests.map((r) => [r.callId, r]))
  if (byId.size !== requests.length || byId.size !== saved.calls.length) throw new SnapshotError("the snapshot's calls do not match")
  const calls = new Map<number, CallEntry>()
  for (const c of saved.calls) {
    const request = byId.get(c.callId)
    if (request === undefined || calls.has(c.callId)) throw new SnapshotError(`call ${c.callId} of the snapshot is missing or repeated`)
    if (c.state === "running" && !allowRunning) throw new SnapshotError(`call ${c.callId} was running when the state was saved`)
    if (c.state === "started" && c.data === undefined) throw new SnapshotError(`durable call ${c.callId} has no data`)
    if (c.callId > realm.lastCallId) throw new SnapshotError(`call ${c.callId} was never admitted`)
    const entry = newEntry(request, saved.runId, c.state === "running" ? "running" : c.state)
    entry.data = c.data
    calls.set(c.callId, entry)
  }
  const delivered = new Set<number>()
  for (const { callId } of saved.inbox) {
    if (calls.get(callId)?.state !== "settled" || delivered.has(callId)) throw new SnapshotError(`the inbox holds a stray outcome for call ${callId}`)
    delivered.add(callId)
  }
  if (saved.calls.some((c) => c.state === "settled" && !delivered.has(c.callId))) throw new SnapshotError("a settled call has no outcome")
  const session: Session = {
    runId: saved.runId,
    source: saved.source,
    program: checked.program,
    limits,
    realm,
    vm: engine.vm,
    ledger,
    extensions,
    calls,
    inbox: [...saved.inbox],
    activeMs: saved.activeMs,
  }
  return { session, saved }
}
