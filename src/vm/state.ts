/**
 * The VM's part of a run's state, as data (ARCHITECTURE principle 3): the frame stack, the jobs not yet run, the
 * tagged-template cache, the program's completion value and its promise. Everything else a run needs hangs from
 * the realm. `vmState` reads it from a live `Vm`; `restoreVm` builds a `Vm` around a decoded one and the program
 * recompiled from the same source — code objects are deterministic and referenced by id, so the saved frames
 * find their bytecode again.
 *
 * A state can be taken only at a step boundary where no native frame is on the stack: a native frame drives a
 * built-in's Task, a host generator that cannot be saved (`liveNativeFrame`). The host waits for such a boundary
 * before it suspends (docs/internals.md, "Snapshots").
 */
import type { CompiledProgram } from "../bytecode/code.ts"
import type { JSObject } from "../runtime/object.ts"
import type { Job, PromiseObject } from "../runtime/promise.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Value } from "../runtime/value.ts"
import type { Frame } from "./frame.ts"
import { Vm, type VmProgram } from "./index.ts"

export interface VmState {
  readonly frames: ReadonlyArray<Frame>
  /** Jobs queued and not yet run, oldest first. */
  readonly jobs: ReadonlyArray<Job>
  readonly templates: ReadonlyMap<string, JSObject>
  readonly programCompletion: { readonly value: Value } | undefined
  /** The program body's promise: the run ends when it settles. */
  readonly promise: PromiseObject
}

/** The state of `vm`, or undefined when it has none to save (the compiler refused the program: it ends at once). */
export const vmState = (vm: Vm): VmState | undefined => {
  const machine = vm["machine"]
  const promise = vm["promise"]
  if (machine === undefined || promise === undefined) return undefined
  return {
    frames: machine.frames,
    jobs: vm.realm.jobs.slice(vm["jobIndex"]),
    templates: machine.templates,
    programCompletion: machine.programCompletion,
    promise,
  }
}

/** True while a native (built-in Task) frame is on the stack: no state can be taken until it returns. */
export const liveNativeFrame = (vm: Vm): boolean => {
  const machine = vm["machine"]
  return machine !== undefined && machine.frames.some((f) => f.task !== undefined)
}

/**
 * A Vm continuing `state` in `realm`, whose jobs are replaced by the saved ones. `compiled` is `program` compiled
 * again (the decoder needed its code objects first).
 */
export const restoreVm = (realm: Realm, program: VmProgram, compiled: CompiledProgram, state: VmState): Vm => {
  realm.jobs.length = 0
  for (const job of state.jobs) realm.jobs.push(job)
  return new Vm(realm, program, compiled, {
    attach: (machine) => {
      for (const frame of state.frames) machine.frames.push(frame)
      for (const [k, v] of state.templates) machine.templates.set(k, v)
      machine.programCompletion = state.programCompletion
      return state.promise
    },
  })
}
