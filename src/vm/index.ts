/**
 * The bytecode VM's API, sans-I/O: the host constructs a `Vm` for a checked program and calls `run(stepBudget)`
 * repeatedly. A slice runs frames and drains the realm's job queue (promise reactions, via runtime/promise.ts
 * RunJob on a native frame) until the program's promise has settled and nothing is runnable (`completed` /
 * `threw`), nothing is runnable but the promise is pending (`idle`: the host settles promises, which enqueues
 * jobs, and calls `run` again), or the step budget is spent (`yielded`). The VM never reads a clock; the host
 * enforces time between slices.
 *
 * The program body is compiled as an async function body and called with `this` undefined. Its result is the
 * promise's value when the body returns explicitly, else its completion value (what a script would evaluate to).
 */
import type { ESTree } from "meriyah"
import { compileProgram } from "../compiler/functions.ts"
import type { CodeObject, CompiledProgram } from "../compiler/code.ts"
import { NestingTooDeep } from "../language/scope.ts"
import { ScriptFunction } from "../runtime/function-object.ts"
import type { GeneratorObject } from "../runtime/generator.ts"
import { CreateErrorObject } from "../runtime/errors.ts"
import { RunJob, type PromiseObject } from "../runtime/promise.ts"
import type { Realm, SourceLocation } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import type { Value } from "../runtime/value.ts"
import { Machine } from "./machine.ts"
import { MakeFunction } from "./operations.ts"

export type VmStatus =
  | { readonly kind: "completed"; readonly value: Value }
  | { readonly kind: "threw"; readonly value: Value }
  | { readonly kind: "idle" }
  | { readonly kind: "yielded" }

/** What the VM needs of a checked program (src/language's CheckedProgram). */
export interface VmProgram {
  readonly ast: ESTree.Program
  readonly source: string
  readonly strict: boolean
  locate(offset: number): SourceLocation
}

/** A saved run to continue (vm/state.ts `restoreVm`): the recompiled program, and what to put in the machine. */
export interface RestoredVm {
  readonly compiled: CompiledProgram
  /** Installs the saved frames and machine state; returns the program's promise. */
  attach(machine: Machine): PromiseObject
}

/** Processed jobs are dropped from the queue's head in batches of this many. */
const JOB_COMPACTION = 1024

export class Vm {
  readonly realm: Realm
  private readonly machine: Machine | undefined
  private readonly promise: PromiseObject | undefined
  /** A program the compiler refused (nesting too deep): reported as a thrown RangeError. */
  private readonly refused: Value | undefined
  /** Index of the next job to run in `realm.jobs`. */
  private jobIndex = 0

  /** `restored` (vm/state.ts): continue a saved run instead of starting the program body. */
  constructor(realm: Realm, program: VmProgram, restored?: RestoredVm) {
    this.realm = realm
    let compiled: CompiledProgram
    try {
      compiled = restored?.compiled ?? compileProgram(program)
    } catch (e) {
      // Nesting past the compiler's limit, or (a backstop) a host stack overflow while compiling.
      const overflow = e instanceof RangeError && /call stack/i.test(e.message)
      if (!(e instanceof NestingTooDeep) && !overflow) throw e
      const location = program.locate(e instanceof NestingTooDeep ? e.offset : 0)
      realm.host = { ...realm.host, currentLocation: () => location }
      this.refused = CreateErrorObject(realm, "RangeError", "Maximum call stack size exceeded")
      this.machine = undefined
      this.promise = undefined
      return
    }
    const machine = new Machine(realm, compiled, (offset) => program.locate(offset))
    this.machine = machine
    this.refused = undefined
    realm.host = {
      ...realm.host,
      currentLocation: () => machine.currentLocation(),
      functionSourceText: (f) => {
        if (!(f instanceof ScriptFunction)) return undefined
        const code = f.code as CodeObject
        return code.sourceEnd > code.sourceOffset ? program.source.slice(code.sourceOffset, code.sourceEnd) : undefined
      },
    }
    if (restored !== undefined) {
      this.promise = restored.attach(machine)
      return
    }
    const main = MakeFunction(realm, compiled.main, null)
    machine.pushScript(main, undefined, [], 0, 0, undefined)
    const activation = machine.frames[0]!.activation as GeneratorObject
    this.promise = activation.promise!
    // The host reads the outcome from the status; the program's own promise is never an unhandled rejection.
    this.promise.isHandled = true
  }

  run(stepBudget: number): VmStatus {
    const machine = this.machine
    if (machine === undefined) return { kind: "threw", value: this.refused }
    const realm = this.realm
    machine.steps = stepBudget
    for (;;) {
      if (machine.execute()) return { kind: "yielded" }
      const jobs = realm.jobs
      if (this.jobIndex < jobs.length) {
        const job = jobs[this.jobIndex++]!
        if (this.jobIndex >= JOB_COMPACTION) {
          jobs.splice(0, this.jobIndex)
          this.jobIndex = 0
        }
        machine.pushTask(RunJob(realm, job) as Task<Value>, true)
        continue
      }
      jobs.length = 0
      this.jobIndex = 0
      const promise = this.promise!
      if (promise.state === "fulfilled") {
        const completion = machine.programCompletion
        return { kind: "completed", value: completion === undefined ? promise.result : completion.value }
      }
      if (promise.state === "rejected") return { kind: "threw", value: promise.result }
      return { kind: "idle" }
    }
  }
}
