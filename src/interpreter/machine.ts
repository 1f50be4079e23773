/**
 * The tree-walker's frame stack. Evaluation is written as host generators (`Eval`): a function body is one
 * generator that walks the AST and `yield`s an `EngineRequest` whenever it calls a function, exactly as the
 * runtime's Tasks do. The machine keeps the frames of those generators in its own array, not on the host stack:
 * a call pushes a frame, a return pops it and sends the result into the frame below. So sandbox recursion costs
 * no host stack (runaway recursion is a catchable RangeError at `Caps.maxCallDepth`, as in the VM), a generator
 * or async function suspends by taking its frame off the stack into its generator object, and the run can stop
 * at a step budget between any two requests and continue later.
 *
 * Besides the runtime's requests (`call`, `construct`, `generatorResume`), an evaluation yields two of its own:
 * `suspend` (yield, await, generator start: take this frame off the stack and hand a value to the frame below) and
 * `tick` (a loop iteration or call spent the step budget: let `run` return `yielded`).
 *
 * Ordinary functions take a faster road: their bodies run on the host stack through the synchronous evaluator
 * (plain.ts), as a "plain" frame, and so do await-free parts of async and generator bodies. A plain evaluation
 * cannot suspend, so it answers requests itself: calls recurse on the host stack while `plainDepth` is below
 * MAX_PLAIN_DEPTH, and past it (or for a generator, an async function, a native Task) a nested loop runs the
 * frames above a barrier until the callee completes or suspends. Inside such deep loops evaluation stays in
 * generators, so the host stack stays bounded however deep the sandbox recursion goes. A plain evaluation cannot
 * stop at a step budget either: every `POLL_STEPS` steps it calls `interruptCheck`, which the host sets to throw a
 * `Termination` when the time is up.
 *
 * What a frame's end does — settle an async function's promise, finish a generator, replace a constructor's
 * result — is the runtime's (runtime/activation.ts), shared with the VM, and call depth is counted as the VM counts
 * it (script frames and built-ins' Tasks that reached user code), so both engines behave alike.
 */
import { chargeMemory, Cost } from "../runtime/memory.ts"
import { ActivationKind, ActivationKindOf, ActivationReturn, ActivationThrow, Invoke, type Invoker, isHostObject, TakeSuspendedBody } from "../runtime/activation.ts"
import { Caps } from "../runtime/caps.ts"
import { ThrowCompletion, throwRangeError } from "../runtime/completion.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import { CheckNotClassConstructorCall, OrdinaryCallBindThis, OrdinaryCreateThisForConstruct } from "../runtime/function-create.ts"
import { ScriptFunction } from "../runtime/function-object.ts"
import { type GeneratorObject, NewAsyncFunctionActivation } from "../runtime/generator.ts"
import { JSObject } from "../runtime/object.ts"
import { describeValue } from "../runtime/operations.ts"
import { type Job, RunJob } from "../runtime/promise.ts"
import type { DisposeCapability } from "../runtime/dispose.ts"
import type { Realm, SourceLocation } from "../runtime/realm.ts"
import { type EngineRequest, isTask, type Task } from "../runtime/task.ts"
import type { Empty, Value } from "../runtime/value.ts"
import type { ESTree } from "meriyah"
import type { Env } from "./environment.ts"
import type { FunctionCode, Program } from "./program.ts"
import { FunctionBody } from "./functions.ts"
import { PlainBody } from "./plain.ts"

/**
 * Take the running frame off the stack (yield, await, generator start) and hand `deliver` to the frame below.
 * `holdsNothing`: the suspended evaluation holds no value outside its activation (else `Machine.holding` counts it).
 */
export interface Suspend {
  readonly kind: "suspend"
  readonly deliver: Value
  readonly holdsNothing?: boolean
}
/** The step budget is spent: let `run` return. */
export const TICK = { kind: "tick" } as const
/** A runtime Task reached user code (its `first` request): run it on a native frame from here on, as the VM does. */
export interface SlowTask {
  readonly kind: "task"
  readonly task: Task<unknown>
  readonly first: EngineRequest
}
export type Request = EngineRequest | Suspend | SlowTask | typeof TICK

/** An evaluation: a host generator yielding requests; it is sent results (or a `Resumption` after a suspend). */
export type Eval<T> = Generator<Request, T, Value>

/** What a suspended body is resumed with (generatorResume). */
export interface Resumption {
  readonly mode: "next" | "throw" | "return"
  readonly value: Value
}

/**
 * The kinds of activations (runtime/activation.ts), native frames driving a built-in's Task, and barriers: the
 * bottom of a nested loop, to which the nested call's result is delivered.
 */
export const FrameKind = { ...ActivationKind, Native: 5, Barrier: 6 } as const
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind]

/** The state of one evaluation of a function body (an ECMAScript execution context). */
export class Activation {
  readonly m: Machine
  readonly program: Program
  readonly realm: Realm
  readonly code: FunctionCode
  env: Env | null
  /** Where evaluation is (a source offset), for errors created now: the VM's pc, as a position. */
  offset: number
  readonly func: ScriptFunction
  readonly thisValue: Value
  readonly newTarget: JSObject | undefined
  readonly args: ReadonlyArray<Value>
  /** The program body's completion value (statement completion, as a script's). */
  completion: Value = undefined
  /** The dispose capabilities of the scopes being evaluated that declare `using`, innermost last. */
  disposeCaps: DisposeCapability[] | undefined = undefined
  frame!: Frame
  constructor(m: Machine, code: FunctionCode, func: ScriptFunction, thisValue: Value, newTarget: JSObject | undefined, args: ReadonlyArray<Value>) {
    chargeMemory(Cost.environment + Cost.element * args.length)
    this.m = m
    this.program = m.program
    this.realm = m.realm
    this.code = code
    this.env = func.env as Env | null
    this.offset = code.sourceOffset
    this.func = func
    this.thisValue = thisValue
    this.newTarget = newTarget
    this.args = args
  }
  /** The generator or async activation of this call. */
  get generator(): GeneratorObject {
    return this.frame.activation as GeneratorObject
  }
}

export class Frame {
  readonly kind: FrameKind
  /** Undefined for a plain frame (running on the host stack) and a barrier. */
  readonly task: Eval<unknown> | undefined
  /** Script frames: the activation (for locations). */
  readonly scope: Activation | undefined
  /** The generator or async activation this frame belongs to. */
  activation: GeneratorObject | undefined = undefined
  /** Construct frames: the object a non-object result is replaced by. */
  readonly constructThis: Value
  resumeValue: unknown = undefined
  resumeThrow: ThrowCompletion | undefined = undefined
  /** The result is not delivered to the frame below (jobs). */
  discardResult = false
  /** Suspended while its host generators hold values the memory meter cannot see (counted in `Machine.holding`). */
  holds = false
  /** Called from a call at which its caller holds no value in host closures (`Machine.pollAt`). */
  callerHoldsNothing = false
  constructor(kind: FrameKind, task: Eval<unknown> | undefined, scope: Activation | undefined, constructThis: Value) {
    this.kind = kind
    this.task = task
    this.scope = scope
    this.constructThis = constructThis
  }
}

/** Plain evaluations nested on the host stack before calls go through a nested loop. */
export const MAX_PLAIN_DEPTH = 96
/** Steps between two `interruptCheck` calls where evaluation cannot return to the host. */
const POLL_STEPS = 10_000
/** The same while the memory meter waits for a measure: the next loop that can take one comes soon. */
const PRESSURE_POLL_STEPS = 256

export class Machine {
  readonly realm: Realm
  readonly program: Program
  readonly frames: Frame[] = []
  /** Steps left in the current slice. */
  steps = 0
  /** Plain evaluations and nested loops currently on the host stack. */
  plainDepth = 0
  /**
   * Bodies suspended (at an `await` or `yield`) with values in their host generators: the memory meter's measure
   * cannot see those, so it waits until none is left (index.ts `quiescent`). One never resumed keeps it waiting:
   * the count then only adds up, which errs towards ending the run.
   */
  holding = 0
  /** Set by a call whose caller holds nothing (plain.ts `callValue`) for the frame it makes. */
  callerHoldsNothing = false
  /** Set by the host when the run has a memory budget: replaces the meter's count by a measure of the live heap. */
  measureLive: (() => void) | undefined = undefined
  /** Barriers on the frame stack (not calls: left out of the call depth). */
  private barriers = 0
  /** Native Tasks driven on the host stack (calls: counted in the call depth). */
  private hostTasks = 0
  /** Set by the host: throws a Termination when the run must stop (see `poll`). */
  interruptCheck: (() => void) | undefined = undefined
  /** Set when the program body reaches its end without `return`: its completion value. */
  programCompletion: { readonly value: Value } | undefined = undefined
  /** Tagged template objects, per site (GetTemplateObject's [[TemplateMap]]): the realm's, so the run's. */
  readonly templates = new Map<ESTree.Node, JSObject>()

  constructor(realm: Realm, program: Program) {
    this.realm = realm
    this.program = program
  }

  /** Steps the top frame while there is one and budget is left; true when it stopped for the budget. */
  execute(): boolean {
    const frames = this.frames
    while (frames.length > 0) {
      if (this.steps <= 0) return true
      this.step(frames[frames.length - 1] as Frame)
    }
    return false
  }

  /** The running script frame's source location (for errors created now). */
  currentLocation(): SourceLocation | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const scope = (this.frames[i] as Frame).scope
      if (scope !== undefined) return this.program.locate(scope.offset)
    }
    return undefined
  }

  // --- Running a frame --------------------------------------------------------------------------------------

  /** Resumes the top frame until its next request, and handles that request or its completion. */
  private step(frame: Frame): void {
    let r: IteratorResult<Request, unknown>
    try {
      const t = frame.resumeThrow
      if (t !== undefined) {
        frame.resumeThrow = undefined
        r = frame.task!.throw(t)
      } else {
        const v = frame.resumeValue
        frame.resumeValue = undefined
        r = frame.task!.next(v as Value)
      }
    } catch (e) {
      // Converted while the frame is still on top: a new error gets this frame's location.
      const tc = toThrowCompletion(this.realm, e)
      this.frames.pop()
      this.completeAbruptly(frame, tc)
      return
    }
    if (r.done === true) {
      this.frames.pop()
      this.complete(frame, r.value as Value)
      return
    }
    const req = r.value
    try {
      switch (req.kind) {
        case "suspend":
          this.frames.pop()
          if (req.holdsNothing !== true) {
            frame.holds = true
            this.holding++
          }
          ;(frame.activation as GeneratorObject).engineState = frame
          this.deliver(req.deliver)
          return
        case "tick":
          return
        case "task": {
          const native = this.pushTask(req.task as Task<Value>)
          try {
            this.request(req.first)
          } catch (e) {
            native.resumeThrow = toThrowCompletion(this.realm, e)
          }
          return
        }
        default:
          return this.request(req)
      }
    } catch (e) {
      frame.resumeThrow = toThrowCompletion(this.realm, e)
    }
  }

  /** Runs a runtime request of the top frame: a call or construct pushes a frame, a resume puts one back. */
  private request(req: EngineRequest): void {
    switch (req.kind) {
      case "call":
        this.steps--
        return this.invoke(req.f, req.thisArg, req.args, undefined)
      case "construct":
        this.steps--
        return this.invoke(req.f, undefined, req.args, req.newTarget)
      case "generatorResume":
        return this.resumeGenerator(req.generator as GeneratorObject, req.mode, req.value)
    }
  }

  /** Hands a result to the top frame. */
  deliver(v: Value | Empty): void {
    const f = this.frames[this.frames.length - 1]
    if (f !== undefined) f.resumeValue = v
  }

  /** Throws into the top frame. */
  private throwInto(tc: ThrowCompletion): void {
    const f = this.frames[this.frames.length - 1]
    if (f === undefined) throw new Error(`codemode bug: uncaught throw out of the bottom frame: ${describeValue(tc.value)}`)
    f.resumeThrow = tc
  }

  /** A frame's body returned `v`. */
  private complete(frame: Frame, v: Value): void {
    if (frame.kind === FrameKind.Native) {
      if (!frame.discardResult) this.deliver(v)
      return
    }
    const r = ActivationReturn(this.realm, frame.kind, frame.activation, v, frame.constructThis)
    if (isTask(r)) this.pushTask(r as Task<Value>)
    else this.deliver(r as Value)
  }

  /** A frame's body threw. */
  private completeAbruptly(frame: Frame, tc: ThrowCompletion): void {
    const r = ActivationThrow(this.realm, frame.kind, frame.activation, tc)
    if (r instanceof ThrowCompletion) this.throwInto(r)
    else if (isTask(r)) this.pushTask(r as Task<Value>)
    else this.deliver(r as Value)
  }

  // --- Calls --------------------------------------------------------------------------------------------------

  private checkDepth(): void {
    if (this.frames.length - this.barriers + this.hostTasks >= Caps.maxCallDepth) throwRangeError("Maximum call stack size exceeded")
  }

  /** The step budget ran out where evaluation cannot return to the host: ask the host, then go on. */
  poll(): void {
    this.steps = this.realm.memory?.pressure === true ? PRESSURE_POLL_STEPS : POLL_STEPS
    this.interruptCheck?.()
  }

  /**
   * `poll` at the end of an iteration of a loop of `a` that holds nothing (program.ts `holdsNothingAt`), where the
   * memory meter may measure inside a synchronous stretch: when `a` is the running frame, no body is suspended
   * holding values, no built-in's Task runs on the host stack, and every frame below was called from a call at
   * which its caller holds nothing, everything the run holds is reachable from the frames (runtime/memory.ts).
   */
  pollAt(a: Activation): void {
    this.poll()
    if (this.realm.memory?.pressure !== true || this.measureLive === undefined) return
    const frames = this.frames
    if (this.holding > 0 || this.hostTasks > 0 || frames[frames.length - 1]?.scope !== a) return
    for (let i = 0; i < frames.length; i++) {
      const f = frames[i]!
      if (f.kind === FrameKind.Native || (i > 0 && f.kind !== FrameKind.Barrier && !f.callerHoldsNothing)) return
    }
    this.measureLive()
  }

  /** [[Call]] (newTarget undefined) or [[Construct]] of any function: pushes a frame, or delivers a built-in's result. */
  invoke(f: Value, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): void {
    Invoke(this.realm, f, thisArg, args, newTarget, undefined, this.frameInvoker)
  }

  private readonly frameInvoker: Invoker<void> = {
    script: (f, thisArg, args, newTarget) => this.pushScript(f, thisArg, args, newTarget),
    native: (result, isTask) => (isTask ? void this.pushTask(result as Task<Value>) : this.deliver(result as Value)),
  }

  /** Calls `f` as a frame: at once on the host stack when it is an ordinary function and there is room. */
  pushScript(f: ScriptFunction, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): void {
    if (f.functionKind === "normal" && this.plainDepth < MAX_PLAIN_DEPTH) this.deliver(this.runPlain(f, thisArg, args, newTarget))
    else this.pushFrame(f, thisArg, args, newTarget)
  }

  /** The activation and frame of a call of `f` (PrepareForOrdinaryCall, OrdinaryCallBindThis). */
  private prepareCall(f: ScriptFunction, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined, task: boolean, callerHoldsNothing: boolean): Frame {
    this.checkDepth()
    if (newTarget === undefined) CheckNotClassConstructorCall(f)
    const code = f.code as FunctionCode
    const kind: FrameKind = ActivationKindOf(f, newTarget)
    const constructThis = kind === FrameKind.Construct ? OrdinaryCreateThisForConstruct(this.realm, newTarget!) : undefined
    const thisValue = newTarget === undefined ? OrdinaryCallBindThis(this.realm, f, thisArg) : constructThis
    const activation = new Activation(this, code, f, thisValue, newTarget, args)
    const frame = new Frame(kind, task ? FunctionBody(activation) : undefined, activation, constructThis)
    frame.callerHoldsNothing = callerHoldsNothing || this.callerHoldsNothing
    this.callerHoldsNothing = false
    activation.frame = frame
    if (kind === FrameKind.Async) frame.activation = NewAsyncFunctionActivation(this.realm)
    return frame
  }

  /** Pushes a frame evaluating the body of `f` as a generator. `newTarget` is undefined for [[Call]]. */
  private pushFrame(f: ScriptFunction, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): void {
    this.frames.push(this.prepareCall(f, thisArg, args, newTarget, true, false))
  }

  /**
   * Runs an ordinary function's body on the host stack; its return value (the object, for a base [[Construct]]).
   * `callerHoldsNothing`: as `Machine.callerHoldsNothing`, for this call.
   */
  runPlain(f: ScriptFunction, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined, callerHoldsNothing = false): Value {
    const frame = this.prepareCall(f, thisArg, args, newTarget, false, callerHoldsNothing)
    const body = PlainBody(this.program, frame.scope!.code)
    const frames = this.frames
    frames.push(frame)
    this.plainDepth += body.weight
    let v: Value
    try {
      if (--this.steps <= 0) this.poll()
      v = body.run(frame.scope!)
    } catch (e) {
      // Converted while the frame is still on top: a new error gets this frame's location.
      throw toThrowCompletion(this.realm, e)
    } finally {
      if (frames[frames.length - 1] === frame) frames.pop()
      else {
        const i = frames.lastIndexOf(frame)
        if (i >= 0) frames.length = i
      }
      this.plainDepth -= body.weight
    }
    if (frame.kind === FrameKind.Construct && !(v instanceof JSObject)) return frame.constructThis
    return v
  }

  // --- Answering requests on the host stack (plain evaluation) -------------------------------------------------

  /** [[Call]] or [[Construct]] of any function, to completion, for a plain evaluation. */
  callSync(f: Value, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Value {
    // The common case first, as `Invoke` and `syncInvoker` would decide it.
    if (f instanceof ScriptFunction && f.functionKind === "normal" && this.plainDepth < MAX_PLAIN_DEPTH && (newTarget === undefined || f.constructable)) {
      return this.runPlain(f, thisArg, args, newTarget)
    }
    return Invoke(this.realm, f, thisArg, args, newTarget, undefined, this.syncInvoker)
  }

  private readonly syncInvoker: Invoker<Value> = {
    script: (f, thisArg, args, newTarget) =>
      f.functionKind === "normal" && this.plainDepth < MAX_PLAIN_DEPTH
        ? this.runPlain(f, thisArg, args, newTarget)
        : this.runNested(() => this.pushFrame(f, thisArg, args, newTarget)),
    native: (result, isTask) => (isTask ? this.runTask(result as Task<Value>) : (result as Value)),
  }

  /** Runs a built-in's Task to completion on the host stack (counted as a call, as the VM's native frame is). */
  runTask<T>(task: Task<T>): T {
    this.checkDepth()
    this.hostTasks++
    try {
      return this.drive(task as unknown as Eval<T>)
    } finally {
      this.hostTasks--
    }
  }

  /** Drives an evaluation (or a Task) that cannot suspend to completion, answering its requests on the host stack. */
  drive<T>(task: Eval<T>): T {
    return this.finish(task, task.next(undefined))
  }

  /** A runtime Task's slow path: inline until it reaches user code, then counted as a call, as the VM's native frame. */
  slow<T>(task: Task<T>): T {
    const r = task.next()
    if (r.done === true) return r.value
    return this.slowFrom(task, r)
  }

  private slowFrom<T>(task: Task<T>, r: IteratorResult<Request, T>): T {
    this.checkDepth()
    this.hostTasks++
    try {
      return this.finish(task as unknown as Eval<T>, r)
    } finally {
      this.hostTasks--
    }
  }

  private finish<T>(task: Eval<T>, r: IteratorResult<Request, T>): T {
    for (;;) {
      if (r.done === true) return r.value
      let v: Value = undefined
      let thrown: ThrowCompletion | undefined
      try {
        v = this.answer(r.value)
      } catch (e) {
        thrown = toThrowCompletion(this.realm, e)
      }
      r = thrown !== undefined ? task.throw(thrown) : task.next(v)
    }
  }

  private answer(req: Request): Value {
    switch (req.kind) {
      case "task":
        return this.slowFrom(req.task as Task<Value>, { done: false, value: req.first })
      // A call is a step, of a built-in too: a Task calling built-ins in a loop (`new Set(a)` adding each element)
      // must reach the time check as the VM's frames do.
      case "call":
        if (--this.steps <= 0) this.poll()
        return this.callSync(req.f, req.thisArg, req.args, undefined)
      case "construct":
        if (--this.steps <= 0) this.poll()
        return this.callSync(req.f, undefined, req.args, req.newTarget)
      case "generatorResume": {
        const gen = req.generator as GeneratorObject
        return this.runNested(() => this.resumeGenerator(gen, req.mode, req.value))
      }
      case "tick":
        this.poll()
        return undefined
      case "suspend":
        throw new Error("codemode bug: a plain evaluation suspended")
    }
  }

  /**
   * Runs the frames `push` pushes in a loop of their own, above a barrier, until what is delivered to the barrier
   * (the call's result, or the value a suspending body hands its caller) — its result.
   */
  private runNested(push: () => void): Value {
    const frames = this.frames
    const barrier = new Frame(FrameKind.Barrier, undefined, undefined, undefined)
    frames.push(barrier)
    this.barriers++
    this.plainDepth++
    try {
      push()
      for (;;) {
        const top = frames[frames.length - 1] as Frame
        if (top === barrier) break
        if (this.steps <= 0) this.poll()
        this.step(top)
      }
    } finally {
      // Normally the barrier is on top; after a host failure, frames left above it are abandoned.
      const i = frames.lastIndexOf(barrier)
      if (i >= 0) frames.length = i
      this.barriers--
      this.plainDepth--
    }
    if (barrier.resumeThrow !== undefined) throw barrier.resumeThrow
    return barrier.resumeValue as Value
  }

  /** Starts a job at the bottom of the stack (RunJob on a native frame, its result discarded). */
  runJob(job: Job): void {
    this.pushTask(RunJob(this.realm, job) as Task<Value>, true)
  }

  /** Pushes a native frame driving `task`; its result is delivered to the frame below (unless discarded). */
  pushTask(task: Task<Value | Empty>, discardResult = false): Frame {
    this.checkDepth()
    const frame = new Frame(FrameKind.Native, task as Eval<unknown>, undefined, undefined)
    frame.discardResult = discardResult
    this.frames.push(frame)
    return frame
  }

  // --- Generators and async functions ---------------------------------------------------------------------------

  private resumeGenerator(gen: GeneratorObject, mode: "next" | "throw" | "return", value: Value): void {
    const frame = TakeSuspendedBody(gen, () => this.checkDepth()) as Frame
    if (frame.holds) {
      frame.holds = false
      this.holding--
    }
    // Whoever resumes it is not the call that made it.
    frame.callerHoldsNothing = false
    this.frames.push(frame)
    frame.resumeValue = { mode, value } satisfies Resumption
  }
}

/** Runs a runtime Task inline until it reaches user code; from then on as a native frame (counted, as in the VM). */
export function* slow<T>(task: Task<T>): Eval<T> {
  const r = task.next()
  if (r.done === true) return r.value
  return (yield { kind: "task", task, first: r.value }) as T
}

export { isHostObject }

