/**
 * What both engines' entry points (src/vm/index.ts, src/interpreter/index.ts) share. `RunSlice` is one slice of a
 * run, for `run(stepBudget)`: run frames; when none is left, run the realm's next job (FIFO,
 * https://tc39.es/ecma262/#sec-jobs), or stop between two jobs when asked (a point where a run's state can be
 * saved); when no job is left either, report how the program stands — completed (its promise fulfilled; the value
 * is the body's completion value when it ran to its end without `return`), threw, or idle (waiting for the host to
 * settle a promise). `InstallEngineHost` tells the runtime where the engine is and what its functions' source
 * text is; `RefuseProgram` is the RangeError of a program nested too deeply to run.
 */
import { CreateErrorObject } from "./errors.ts"
import { ScriptFunction } from "./function-object.ts"
import type { Job, PromiseObject } from "./promise.ts"
import type { Realm, SourceLocation } from "./realm.ts"
import type { Value } from "./value.ts"

export type EngineStatus =
  | { readonly kind: "completed"; readonly value: Value }
  | { readonly kind: "threw"; readonly value: Value }
  | { readonly kind: "idle" }
  | { readonly kind: "yielded" }

/** Where the engine is in `realm.jobs`. */
export interface JobCursor {
  jobIndex: number
}

/** What a slice needs of an engine's frame stack. */
export interface SliceMachine {
  /** Runs frames until none is left (false) or the step budget is spent (true). */
  execute(): boolean
  /** Starts a job (usually `RunJob` on a native frame, its result discarded). */
  runJob(job: Job): void
  /** Set when the program body reached its end without `return`. */
  readonly programCompletion: { readonly value: Value } | undefined
}

/** Processed jobs are dropped from the queue's head in batches of this many. */
const JOB_COMPACTION = 1024

/** `ran`: something already ran in this slice (a job must not start before stopping when `betweenJobs`). */
export const RunSlice = (realm: Realm, cursor: JobCursor, machine: SliceMachine, promise: PromiseObject, betweenJobs: boolean, ran: boolean): EngineStatus => {
  for (;;) {
    if (machine.execute()) return { kind: "yielded" }
    const jobs = realm.jobs
    if (cursor.jobIndex < jobs.length) {
      // The memory meter wants to measure: between two jobs no host function holds run values (runtime/memory.ts).
      if ((betweenJobs || realm.memory?.pressure === true) && ran) return { kind: "yielded" }
      ran = true
      const job = jobs[cursor.jobIndex++]!
      if (cursor.jobIndex >= JOB_COMPACTION) {
        jobs.splice(0, cursor.jobIndex)
        cursor.jobIndex = 0
      }
      machine.runJob(job)
      continue
    }
    jobs.length = 0
    cursor.jobIndex = 0
    if (promise.state === "fulfilled") {
      const completion = machine.programCompletion
      return { kind: "completed", value: completion === undefined ? promise.result : completion.value }
    }
    if (promise.state === "rejected") return { kind: "threw", value: promise.result }
    return { kind: "idle" }
  }
}

/** An engine's code object's source range (the VM's CodeObject, the tree-walker's FunctionCode). */
interface SourceRange {
  readonly sourceOffset: number
  readonly sourceEnd: number
}

/** Installs the engine's answers to the runtime: the running code's location, and functions' source text. */
export const InstallEngineHost = (realm: Realm, currentLocation: () => SourceLocation | undefined, source: string): void => {
  realm.host = {
    ...realm.host,
    currentLocation,
    functionSourceText: (f) => {
      if (!(f instanceof ScriptFunction)) return undefined
      const code = f.code as SourceRange
      return code.sourceEnd > code.sourceOffset ? source.slice(code.sourceOffset, code.sourceEnd) : undefined
    },
  }
}

/** A program too deeply nested to analyse or compile: the RangeError it throws, located at `location`. */
export const RefuseProgram = (realm: Realm, location: SourceLocation): Value => {
  realm.host = { ...realm.host, currentLocation: () => location }
  return CreateErrorObject(realm, "RangeError", "Maximum call stack size exceeded")
}
