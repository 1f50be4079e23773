/**
 * The engine's half of a snapshot: everything under the realm and the VM, as one encoded heap whose root is
 * `{ realm, vm, host }` — the realm's run-time state (symbol registry, rejection tracking, queued host calls, call
 * counter, logs, Math.random's state), the VM's state (vm/state.ts), and whatever heap values the host keeps about the run (the
 * promises of calls in flight). Intrinsics, code objects and well-known symbols are externals; intrinsics the
 * program changed are patches (realm-diff.ts).
 *
 * `decodeEngine` restores into a realm the host has just built the same way as the saved one (fresh intrinsics,
 * its tools and search installed, `nameReachable` applied) and a program compiled again from the saved source.
 */
import type { CodeObject, CompiledProgram } from "../bytecode/code.ts"
import { NativeClosures } from "../runtime/builtin.ts"
import { Caps } from "../runtime/caps.ts"
import { NativeFunction, type NativeImpl } from "../runtime/function-object.ts"
import type { JSObject } from "../runtime/object.ts"
import type { Realm } from "../runtime/realm.ts"
import { SymbolValue, WellKnownSymbols } from "../runtime/value.ts"
import { FrameKind, type Frame } from "../vm/frame.ts"
import type { Vm, VmProgram } from "../vm/index.ts"
import { restoreVm, vmState, type VmState } from "../vm/state.ts"
import { instructionStartsOf, type RestoreContext } from "./context.ts"
import { SnapshotError } from "./errors.ts"
import { decodeHeap, encodeHeap, type EncodedHeap, type HeapRegistry } from "./heap-codec.ts"
import { changedIntrinsics } from "./realm-diff.ts"
import { inst, map, opt, rec, refine, set, tuple, uint32, type Shape } from "./shape.ts"
import { arr, callable, job, nat, obj, str, value } from "./value-shapes.ts"

/** The realm's state besides its intrinsics (runtime/realm.ts). */
interface RealmState {
  readonly symbolRegistry: Realm["symbolRegistry"]
  readonly unhandledRejections: Realm["unhandledRejections"]
  readonly pendingPromises: number
  readonly hostCalls: Realm["hostCalls"]
  readonly lastCallId: number
  readonly logs: Realm["logs"]
  readonly randomState: Realm["randomState"]
}

interface EngineRoot {
  readonly realm: RealmState
  readonly vm: VmState | undefined
  readonly host: unknown
}

const WELL_KNOWN = new Map<string, SymbolValue>(Object.values(WellKnownSymbols).map((s) => [s.wellKnownName!, s]))

const hostCall = rec({ callId: nat, path: str, args: arr(value), capability: rec({ promise: inst("PromiseObject"), resolve: callable, reject: callable }) })

const rootShape = (host: Shape): Shape =>
  rec({
    realm: rec({
      symbolRegistry: map(str, inst("SymbolValue")),
      unhandledRejections: set(obj),
      pendingPromises: nat,
      hostCalls: arr(hostCall),
      lastCallId: nat,
      logs: arr(str),
      randomState: tuple(uint32, uint32, uint32, uint32),
    }),
    vm: opt(
      rec({
        // The bottom frame is the program body or an async body an await resumed: a throw always has a place to land.
        frames: refine(arr(inst("Frame"), Caps.maxCallDepth), (frames: ReadonlyArray<Frame>) =>
          frames.length === 0 || frames[0]!.kind === FrameKind.Async || frames[0]!.kind === FrameKind.AsyncGenerator ? undefined : "bad bottom frame",
        ),
        jobs: arr(job),
        templates: map(str, obj),
        programCompletion: opt(rec({ value })),
        promise: inst("PromiseObject"),
      }),
    ),
    host,
  })

const isCode = (o: object, codes: ReadonlyArray<CodeObject>): o is CodeObject => {
  const id = (o as { id?: unknown }).id
  return typeof id === "number" && codes[id] === o
}

/**
 * Encodes the engine state of a run. `pristine` is a realm built exactly as the live one was and never run: the
 * reference that says which intrinsics changed.
 */
export const encodeEngine = <Ctx>(
  registry: HeapRegistry<Ctx>,
  realm: Realm,
  vm: Vm,
  host: unknown,
  pristine: Realm,
): EncodedHeap => {
  const codes = (vm["machine"]?.program.codes ?? []) as ReadonlyArray<CodeObject>
  const root: EngineRoot = {
    realm: {
      symbolRegistry: realm.symbolRegistry,
      unhandledRejections: realm.unhandledRejections,
      pendingPromises: realm.pendingPromises,
      hostCalls: realm.hostCalls,
      lastCallId: realm.lastCallId,
      logs: realm.logs,
      randomState: realm.randomState,
    },
    vm: vmState(vm),
    host,
  }
  const externals = (o: object): string | undefined => {
    const name = realm.intrinsicNames.get(o as JSObject)
    if (name !== undefined) return name
    if (o instanceof SymbolValue) return o.wellKnownName !== undefined && WELL_KNOWN.get(o.wellKnownName) === o ? o.wellKnownName : undefined
    return isCode(o, codes) ? `code:${o.id}` : undefined
  }
  return encodeHeap(registry, root, externals, changedIntrinsics(registry, realm, pristine))
}

/** The closures of the runtime and the built-ins of a template, by nativeId: the same for every fork of it. */
const templateNatives = new WeakMap<object, ReadonlyMap<string, NativeImpl>>()

const nativesOfIntrinsics = (intrinsics: Iterable<JSObject>, into: Map<string, NativeImpl>): Map<string, NativeImpl> => {
  for (const o of intrinsics) if (o instanceof NativeFunction && !into.has(o.nativeId)) into.set(o.nativeId, o.impl)
  return into
}

/**
 * Every built-in behaviour a saved function may name: the host's, the closures of the runtime, the realm's
 * built-ins (a fork's twins share their template objects' behaviours), in that order of precedence.
 */
const nativesOf = (realm: Realm, extra: ReadonlyMap<string, NativeImpl>): RestoreContext["natives"] => {
  const template = realm.fork?.template
  let base: ReadonlyMap<string, NativeImpl> = NativeClosures
  if (template !== undefined) {
    base = templateNatives.get(template) ?? nativesOfIntrinsics(template.entries.keys(), new Map(NativeClosures))
    templateNatives.set(template, base)
  }
  const own = nativesOfIntrinsics(realm.ownIntrinsics.values(), new Map())
  return { get: (id) => extra.get(id) ?? base.get(id) ?? own.get(id) }
}

export interface DecodedEngine {
  readonly vm: Vm
  readonly host: unknown
}

/**
 * Restores a saved engine state into `realm` (fresh, prepared as the saved one was). `hostShape` checks the host's
 * part of the root; `hostContext` is what the host's own heap classes need to rebuild themselves. Throws only
 * SnapshotError.
 */
export const decodeEngine = (
  registry: HeapRegistry<RestoreContext>,
  heap: unknown,
  realm: Realm,
  program: VmProgram,
  compiled: CompiledProgram,
  hostShape: Shape,
  hostContext: unknown,
  hostNatives: ReadonlyMap<string, NativeImpl> = new Map(),
): DecodedEngine => {
  const codes = compiled.codes
  const starts = new Map<CodeObject, Uint8Array>()
  const ctx: RestoreContext = {
    natives: nativesOf(realm, hostNatives),
    codes: new Set(codes),
    host: hostContext,
    instructionStarts: (code) => {
      let s = starts.get(code)
      if (s === undefined) starts.set(code, (s = instructionStartsOf(code)))
      return s
    },
    checker: registry.checker(),
    acyclic: new Map(),
  }
  const externals = (name: string): object | undefined => {
    if (name.startsWith("%")) return realm.findIntrinsic(name)
    if (name.startsWith("code:")) {
      const id = Number(name.slice(5))
      return Number.isInteger(id) ? codes[id] : undefined
    }
    return WELL_KNOWN.get(name)
  }
  const root = decodeHeap(registry, heap, externals, rootShape(hostShape), ctx) as EngineRoot
  const r = root.realm
  for (const [k, s] of r.symbolRegistry) realm.symbolRegistry.set(k, s)
  for (const p of r.unhandledRejections) realm.unhandledRejections.add(p)
  realm.pendingPromises = r.pendingPromises
  for (const c of r.hostCalls) realm.hostCalls.push(c)
  realm.lastCallId = r.lastCallId
  for (const line of r.logs) realm.logs.push(line)
  realm.randomState = [...r.randomState]
  if (root.vm === undefined) throw new SnapshotError("the snapshot holds no VM state")
  return { vm: restoreVm(realm, program, compiled, root.vm), host: root.host }
}
