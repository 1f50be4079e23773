/**
 * The bytecode VM's API, sans-I/O: the host constructs a `Vm` for a checked program and its compiled code
 * (host/vm-compile.ts) and calls `run(stepBudget)` repeatedly. A slice runs frames and drains the realm's job queue (promise reactions, via runtime/promise.ts
 * RunJob on a native frame) until the program's promise has settled and nothing is runnable (`completed` /
 * `threw`), nothing is runnable but the promise is pending (`idle`: the host settles promises, which enqueues
 * jobs, and calls `run` again), or the step budget is spent (`yielded`). The VM never reads a clock; the host
 * enforces time between slices.
 *
 * The program body is compiled as an async function body and called with `this` the global object, as a script's
 * top level sees it (strict or not). Its result is the promise's value when the body returns explicitly, else its
 * completion value (what a script would evaluate to).
 */
import type { ESTree } from "meriyah"
import type { CompiledProgram } from "../bytecode/code.ts"
import { NativeFunction } from "../runtime/function-object.ts"
import type { GeneratorObject } from "../runtime/generator.ts"
import { RunJob, type Job, type PromiseObject } from "../runtime/promise.ts"
import type { Realm, SourceLocation } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { Value } from "../runtime/value.ts"
import { type EngineStatus, InstallEngineHost, RefuseProgram, RunSlice, type SliceMachine } from "../runtime/engine.ts"
import { Machine } from "./machine.ts"
import { MakeFunction } from "./operations.ts"

export type VmStatus = EngineStatus

/** What the VM needs of a checked program (src/language's CheckedProgram). */
export interface VmProgram {
  readonly ast: ESTree.Program
  readonly source: string
  readonly strict: boolean
  locate(offset: number): SourceLocation
}

/**
 * What the VM runs: the program's code objects, or the place where the compiler refused it (nesting too deep),
 * which the run reports as a thrown RangeError. The host compiles (host/vm-compile.ts `compileForVm`), so the VM
 * and the compiler share only the bytecode format (src/bytecode) and never import each other.
 */
export type VmCode = CompiledProgram | { readonly refusedAt: SourceLocation }

/** A saved run to continue (vm/state.ts `restoreVm`): what to put in the machine. */
export interface RestoredVm {
  /** Installs the saved frames and machine state; returns the program's promise. */
  attach(machine: Machine): PromiseObject
}

/** The async body a job resumes when it is an await's reaction (no capability, an Await closure as handler). */
const awaitReaction = (job: Job): { readonly activation: GeneratorObject; readonly mode: "next" | "throw"; readonly value: Value } | undefined => {
  if (job.kind !== "PromiseReactionJob" || job.reaction.capability !== undefined) return undefined
  const handler = job.reaction.handler
  if (!(handler instanceof NativeFunction)) return undefined
  const mode = handler.nativeId === "AwaitFulfilledFunction" ? "next" : handler.nativeId === "AwaitRejectedFunction" ? "throw" : undefined
  return mode === undefined ? undefined : { activation: handler.slots!.activation as GeneratorObject, mode, value: job.argument }
}

export class Vm {
  readonly realm: Realm
  private readonly machine: Machine | undefined
  private readonly promise: PromiseObject | undefined
  /** A program the compiler refused (nesting too deep): reported as a thrown RangeError. */
  private readonly refused: Value | undefined
  /** Index of the next job to run in `realm.jobs`. */
  jobIndex = 0

  /** `restored` (vm/state.ts): continue a saved run instead of starting the program body. */
  constructor(realm: Realm, program: VmProgram, code: VmCode, restored?: RestoredVm) {
    this.realm = realm
    if ("refusedAt" in code) {
      this.refused = RefuseProgram(realm, code.refusedAt)
      this.machine = undefined
      this.promise = undefined
      return
    }
    const compiled = code
    const machine = new Machine(realm, compiled, (offset) => program.locate(offset))
    this.machine = machine
    this.refused = undefined
    InstallEngineHost(realm, () => machine.currentLocation(), program.source)
    if (restored !== undefined) {
      this.promise = restored.attach(machine)
      return
    }
    const main = MakeFunction(realm, compiled.main, null)
    machine.pushScript(main, realm.globalObject, [], 0, 0, undefined)
    const activation = machine.frames[0]!.activation as GeneratorObject
    this.promise = activation.promise!
    // The host reads the outcome from the status; the program's own promise is never an unhandled rejection.
    this.promise.isHandled = true
  }

  /** Ends the current slice at the next step (the memory meter wants to measure at its boundary). */
  yieldSoon(): void {
    if (this.machine !== undefined) this.machine.steps = 0
  }

  /** `betweenJobs`: also stop (yielded) as soon as a job has run and the stack is empty, before the next job. */
  run(stepBudget: number, betweenJobs = false): VmStatus {
    const machine = this.machine
    if (machine === undefined) return { kind: "threw", value: this.refused }
    machine.steps = stepBudget
    const realm = this.realm
    const slice = new VmSlice(machine, realm)
    return RunSlice(realm, this, slice, this.promise!, betweenJobs, machine.frames.length > 0)
  }
}

/**
 * The machine as `RunSlice` drives it. A class, not an object literal: a literal with a getter gets an accessor of
 * its own each time, so V8 gives each one a new hidden class, allocated in old space. That class kept the run's
 * whole heap (the getter's closure holds the machine) alive through every young-generation GC until a full one:
 * scavenges of 30-120 ms promoting ~20 MB each, a third of a "1 + 1" run's CPU.
 */
class VmSlice implements SliceMachine {
  private readonly machine: Machine
  private readonly realm: Realm

  constructor(machine: Machine, realm: Realm) {
    this.machine = machine
    this.realm = realm
  }

  execute(): boolean {
    return this.machine.execute()
  }

  runJob(job: Job): void {
    // An await's reaction resumes its async body at once: no native frame is left on the stack (vm/state.ts).
    const resume = awaitReaction(job)
    if (resume !== undefined) this.machine.resumeGenerator(resume.activation, resume.mode, resume.value)
    else this.machine.pushTask(RunJob(this.realm, job) as Task<Value>, true)
  }

  get programCompletion(): { readonly value: Value } | undefined {
    return this.machine.programCompletion
  }
}
