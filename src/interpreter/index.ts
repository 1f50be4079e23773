/**
 * The "legacy" engine's API: a tree-walking evaluator of the checked AST, over the same runtime, intrinsics and
 * host boundary as the bytecode VM, with the same sans-I/O interface (src/host/run.ts `LoopEngine`): the host
 * constructs an `Interpreter` for a checked program and calls `run(stepBudget)` until it reports `completed` or
 * `threw`; `idle` means the program waits on promises only the host can settle; `yielded` means the step budget
 * ran out and `run` continues where it stopped. The engine never reads a clock; the host enforces time between
 * slices, except that ordinary code runs on the host stack and cannot stop at a step budget: there the engine calls
 * `interruptCheck`, which the host sets. Unlike the VM it cannot be snapshotted: a run lives as long as its host
 * generators.
 *
 * The program body is evaluated as an async function body called with `this` the global object, as a script's top
 * level sees it (strict or not). Its result is the promise's value when the body returns explicitly, else its
 * completion value (what a script would evaluate to).
 * Microtasks are drained with the runtime's `RunJob`, in the VM's order (which is V8's).
 */
import { analyzeScopes, NestingTooDeep } from "../language/scope.ts"
import { MakeFunction } from "../runtime/function-create.ts"
import type { GeneratorObject } from "../runtime/generator.ts"
import { type EngineStatus, InstallEngineHost, RefuseProgram, RunSlice } from "../runtime/engine.ts"
import type { PromiseObject } from "../runtime/promise.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Value } from "../runtime/value.ts"
import { Machine } from "./machine.ts"
import { type InterpreterProgram, Program } from "./program.ts"

export type InterpreterStatus = EngineStatus

export type { InterpreterProgram }

/**
 * The Program of each checked program still alive (host/program-cache.ts keeps the recent ones), made once: its
 * analysis, layout and compiled closures depend on the text alone, so runs of the same source share them, as VM runs
 * share their compilation (host/vm-compile.ts). A program too deeply nested to analyse is kept as the offset where
 * the analysis gave up.
 */
const programs = new WeakMap<InterpreterProgram, Program | number>()

const programOf = (checked: InterpreterProgram): Program | number => {
  let program = programs.get(checked)
  if (program === undefined) {
    try {
      program = new Program(checked, analyzeScopes(checked.ast, checked.strict))
    } catch (e) {
      if (!(e instanceof NestingTooDeep)) throw e
      program = e.offset
    }
    programs.set(checked, program)
  }
  return program
}

export class Interpreter {
  readonly realm: Realm
  private readonly machine: Machine | undefined
  private readonly promise: PromiseObject | undefined
  /** A program too deeply nested to analyse: reported as a thrown RangeError. */
  private readonly refused: Value | undefined
  /** Index of the next job to run in `realm.jobs`. */
  jobIndex = 0

  constructor(realm: Realm, checked: InterpreterProgram) {
    this.realm = realm
    const program = programOf(checked)
    if (typeof program === "number") {
      this.refused = RefuseProgram(realm, checked.locate(program))
      this.machine = undefined
      this.promise = undefined
      return
    }
    const machine = new Machine(realm, program)
    this.machine = machine
    this.refused = undefined
    InstallEngineHost(realm, () => machine.currentLocation(), program.source)
    const main = MakeFunction(realm, program.main, null)
    machine.pushScript(main, realm.globalObject, [], undefined)
    const activation = machine.frames[0]!.activation as GeneratorObject
    this.promise = activation.promise!
    // The host reads the outcome from the status; the program's own promise is never an unhandled rejection.
    this.promise.isHandled = true
  }

  /**
   * Called every so many steps where evaluation cannot return to the host (ordinary code runs on the host stack,
   * so `run` may not stop at its budget): the host sets it to throw a Termination once the time limit has passed.
   */
  get interruptCheck(): (() => void) | undefined {
    return this.machine?.interruptCheck
  }
  set interruptCheck(check: (() => void) | undefined) {
    if (this.machine !== undefined) this.machine.interruptCheck = check
  }

  /** Ends the current slice at the next step where evaluation can return to the host. */
  yieldSoon(): void {
    if (this.machine !== undefined) this.machine.steps = 0
  }

  /** Replaces the memory meter's count by a measure of the live heap (`Machine.pollAt` calls it where it can). */
  set measureLive(f: (() => void) | undefined) {
    if (this.machine !== undefined) this.machine.measureLive = f
  }

  /**
   * True between jobs when no suspended body holds values in host generators: everything the run holds is then
   * reachable from here.
   */
  quiescent(): boolean {
    return this.machine === undefined || (this.machine.frames.length === 0 && this.machine.holding === 0)
  }

  run(stepBudget: number): InterpreterStatus {
    const machine = this.machine
    if (machine === undefined) return { kind: "threw", value: this.refused }
    machine.steps = stepBudget
    return RunSlice(this.realm, this, machine, this.promise!, false, false)
  }
}
