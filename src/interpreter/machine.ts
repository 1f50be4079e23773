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
 * Frame kinds and what their completion does follow the VM's machine (src/vm/machine.ts) one for one, so both
 * engines settle promises, finish generators and count call depth alike.
 */
import { Caps } from "../runtime/caps.ts"
import { ThrowCompletion, throwRangeError, throwTypeError } from "../runtime/completion.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import { CheckNotClassConstructorCall, OrdinaryCallBindThis, OrdinaryCreateThisForConstruct } from "../runtime/function-create.ts"
import { BoundFunction, NativeFunction, ScriptFunction } from "../runtime/function-object.ts"
import { AsyncGeneratorBodyCompleted, GeneratorObject, NewAsyncFunctionActivation } from "../runtime/generator.ts"
import { CreateIterResultObject } from "../runtime/iteration.ts"
import { JSObject } from "../runtime/object.ts"
import { describeValue } from "../runtime/operations.ts"
import { FulfillPromise, RejectPromise, ResolvePromise, type PromiseObject } from "../runtime/promise.ts"
import type { Realm, SourceLocation } from "../runtime/realm.ts"
import type { EngineRequest, Task } from "../runtime/task.ts"
import { type Empty, SymbolValue, type Value } from "../runtime/value.ts"
import type { Env } from "./environment.ts"
import type { FunctionCode, Program } from "./program.ts"
import { FunctionBody } from "./functions.ts"
import { PlainFunctionBody } from "./plain.ts"

/** Take the running frame off the stack (yield, await, generator start) and hand `deliver` to the frame below. */
export interface Suspend {
  readonly kind: "suspend"
  readonly deliver: Value
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

export const FrameKind = {
  /** Ordinary call; also derived constructors, whose body computes their own result. */
  Normal: 0,
  /** [[Construct]] of a base constructor: a non-object result is replaced by `this`. */
  Construct: 1,
  Generator: 2,
  Async: 3,
  AsyncGenerator: 4,
  Native: 5,
  /** The bottom of a nested loop: what is delivered to it is the nested call's result. */
  Barrier: 6,
} as const
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
  frame!: Frame
  constructor(m: Machine, code: FunctionCode, func: ScriptFunction, thisValue: Value, newTarget: JSObject | undefined, args: ReadonlyArray<Value>) {
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

export class Machine {
  readonly realm: Realm
  readonly program: Program
  readonly frames: Frame[] = []
  /** Steps left in the current slice. */
  steps = 0
  /** Plain evaluations and nested loops currently on the host stack. */
  plainDepth = 0
  /** Barriers on the frame stack (not calls: left out of the call depth). */
  private barriers = 0
  /** Native Tasks driven on the host stack (calls: counted in the call depth). */
  private hostTasks = 0
  /** Set by the host: throws a Termination when the run must stop (see `poll`). */
  interruptCheck: (() => void) | undefined = undefined
  /** Set when the program body reaches its end without `return`: its completion value. */
  programCompletion: { readonly value: Value } | undefined = undefined

  constructor(realm: Realm, program: Program) {
    this.realm = realm
    this.program = program
  }

  /** Runs frames until the stack is empty (false) or the step budget is spent (true). */
  execute(): boolean {
    const frames = this.frames
    for (;;) {
      const frame = frames[frames.length - 1]
      if (frame === undefined) return false
      if (this.steps <= 0) return true
      this.step(frame)
    }
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
    const activation = frame.activation
    switch (frame.kind) {
      case FrameKind.Normal:
        return this.deliver(v)
      case FrameKind.Native:
        if (!frame.discardResult) this.deliver(v)
        return
      case FrameKind.Construct:
        return this.deliver(v instanceof JSObject ? v : frame.constructThis)
      case FrameKind.Generator:
        activation!.state = "completed"
        return this.deliver(CreateIterResultObject(this.realm, v, true))
      case FrameKind.Async: {
        const promise = activation!.promise!
        if (!(v instanceof JSObject)) {
          FulfillPromise(this.realm, promise, v)
          return this.deliver(promise)
        }
        this.pushTask(resolveAndReturn(this.realm, promise, v))
        return
      }
      case FrameKind.AsyncGenerator:
        this.pushTask(AsyncGeneratorBodyCompleted(this.realm, activation!, { kind: "next", value: v }) as Task<Value>)
        return
    }
  }

  /** A frame's body threw. */
  private completeAbruptly(frame: Frame, tc: ThrowCompletion): void {
    const activation = frame.activation
    switch (frame.kind) {
      case FrameKind.Generator:
        activation!.state = "completed"
        return this.throwInto(tc)
      case FrameKind.Async:
        RejectPromise(this.realm, activation!.promise!, tc.value)
        return this.deliver(activation!.promise!)
      case FrameKind.AsyncGenerator:
        this.pushTask(AsyncGeneratorBodyCompleted(this.realm, activation!, { kind: "throw", value: tc.value }) as Task<Value>)
        return
      default:
        return this.throwInto(tc)
    }
  }

  // --- Calls --------------------------------------------------------------------------------------------------

  private checkDepth(): void {
    if (this.frames.length - this.barriers + this.hostTasks >= Caps.maxCallDepth) throwRangeError("Maximum call stack size exceeded")
  }

  /** The step budget ran out where evaluation cannot return to the host: ask the host, then go on. */
  poll(): void {
    this.steps = POLL_STEPS
    this.interruptCheck?.()
  }

  /**
   * [[Call]] (newTarget undefined) or [[Construct]] of any function: pushes a frame, or calls a plain built-in at
   * once and delivers its result.
   */
  invoke(f: Value, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): void {
    for (;;) {
      if (f instanceof ScriptFunction) {
        if (newTarget !== undefined && !f.constructable) return throwTypeError(`${describeValue(f)} is not a constructor`)
        return this.pushScript(f, thisArg, args, newTarget)
      }
      if (f instanceof NativeFunction) {
        if (newTarget !== undefined && !f.constructable) return throwTypeError(`${describeValue(f)} is not a constructor`)
        const result = f.impl(this.realm, newTarget === undefined ? thisArg : undefined, args, newTarget, f)
        if (f.isTaskImpl || isHostObject(result)) this.pushTask(result as Task<Value>)
        else this.deliver(result as Value)
        return
      }
      if (f instanceof BoundFunction) {
        args = f.boundArgs.length === 0 ? args : [...f.boundArgs, ...args]
        if (newTarget === undefined) thisArg = f.boundThis
        else if (newTarget === f) newTarget = f.target
        f = f.target
        continue
      }
      return throwTypeError(`${describeValue(f)} is not a ${newTarget === undefined ? "function" : "constructor"}`)
    }
  }

  /** Calls `f` as a frame: at once on the host stack when it is an ordinary function and there is room. */
  pushScript(f: ScriptFunction, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): void {
    if (f.functionKind === "normal" && this.plainDepth < MAX_PLAIN_DEPTH) this.deliver(this.runPlain(f, thisArg, args, newTarget))
    else this.pushFrame(f, thisArg, args, newTarget)
  }

  /** The activation and frame of a call of `f` (PrepareForOrdinaryCall, OrdinaryCallBindThis). */
  private prepareCall(f: ScriptFunction, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined, task: boolean): Frame {
    this.checkDepth()
    if (newTarget === undefined) CheckNotClassConstructorCall(f)
    const code = f.code as FunctionCode
    let kind: FrameKind = FrameKind.Normal
    let thisValue: Value = thisArg
    let constructThis: Value = undefined
    if (newTarget !== undefined) {
      if (f.constructorKind === "base") {
        kind = FrameKind.Construct
        thisValue = constructThis = OrdinaryCreateThisForConstruct(this.realm, newTarget)
      } else thisValue = undefined
    } else thisValue = OrdinaryCallBindThis(this.realm, f, thisArg)
    switch (f.functionKind) {
      case "generator":
        kind = FrameKind.Generator
        break
      case "async":
        kind = FrameKind.Async
        break
      case "asyncGenerator":
        kind = FrameKind.AsyncGenerator
        break
      default:
        break
    }
    const activation = new Activation(this, code, f, thisValue, newTarget, args)
    const frame = new Frame(kind, task ? FunctionBody(activation) : undefined, activation, constructThis)
    activation.frame = frame
    if (kind === FrameKind.Async) frame.activation = NewAsyncFunctionActivation(this.realm)
    return frame
  }

  /** Pushes a frame evaluating the body of `f` as a generator. `newTarget` is undefined for [[Call]]. */
  private pushFrame(f: ScriptFunction, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): void {
    this.frames.push(this.prepareCall(f, thisArg, args, newTarget, true))
  }

  /** Runs an ordinary function's body on the host stack; its return value (the object, for a base [[Construct]]). */
  private runPlain(f: ScriptFunction, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Value {
    const frame = this.prepareCall(f, thisArg, args, newTarget, false)
    const frames = this.frames
    frames.push(frame)
    this.plainDepth++
    if (--this.steps <= 0) this.poll()
    let v: Value
    try {
      v = PlainFunctionBody(frame.scope!)
    } catch (e) {
      // Converted while the frame is still on top: a new error gets this frame's location.
      const tc = toThrowCompletion(this.realm, e)
      frames.pop()
      this.plainDepth--
      throw tc
    }
    frames.pop()
    this.plainDepth--
    if (frame.kind === FrameKind.Construct && !(v instanceof JSObject)) return frame.constructThis
    return v
  }

  // --- Answering requests on the host stack (plain evaluation) -------------------------------------------------

  /** [[Call]] or [[Construct]] of any function, to completion, for a plain evaluation. */
  callSync(f: Value, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Value {
    for (;;) {
      if (f instanceof ScriptFunction) {
        if (newTarget !== undefined && !f.constructable) return throwTypeError(`${describeValue(f)} is not a constructor`)
        if (f.functionKind === "normal" && this.plainDepth < MAX_PLAIN_DEPTH) return this.runPlain(f, thisArg, args, newTarget)
        const g = f
        const t = thisArg
        const a = args
        const n = newTarget
        return this.runNested(() => this.pushFrame(g, t, a, n))
      }
      if (f instanceof NativeFunction) {
        if (newTarget !== undefined && !f.constructable) return throwTypeError(`${describeValue(f)} is not a constructor`)
        const result = f.impl(this.realm, newTarget === undefined ? thisArg : undefined, args, newTarget, f)
        if (f.isTaskImpl || isHostObject(result)) return this.runTask(result as Task<Value>)
        return result as Value
      }
      if (f instanceof BoundFunction) {
        args = f.boundArgs.length === 0 ? args : [...f.boundArgs, ...args]
        if (newTarget === undefined) thisArg = f.boundThis
        else if (newTarget === f) newTarget = f.target
        f = f.target
        continue
      }
      return throwTypeError(`${describeValue(f)} is not a ${newTarget === undefined ? "function" : "constructor"}`)
    }
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
      case "call":
        return this.callSync(req.f, req.thisArg, req.args, undefined)
      case "construct":
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
      frames.splice(frames.lastIndexOf(barrier), 1)
      this.barriers--
      this.plainDepth--
    }
    if (barrier.resumeThrow !== undefined) throw barrier.resumeThrow
    return barrier.resumeValue as Value
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
    const frame = gen.engineState as Frame | undefined
    if (frame === undefined) throw new Error("codemode bug: resuming a generator that is not suspended")
    this.checkDepth()
    gen.engineState = undefined
    gen.state = "executing"
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

/**
 * A native's result that is not a sandbox value: a Task returned by a built-in written as a plain function that
 * returns a generator (NativeFunction.isTaskImpl only recognizes generator functions).
 */
export const isHostObject = (v: unknown): boolean => typeof v === "object" && v !== null && !(v instanceof JSObject) && !(v instanceof SymbolValue)

function* resolveAndReturn(realm: Realm, promise: PromiseObject, v: Value): Task<Value> {
  yield* ResolvePromise(realm, promise, v)
  return promise
}

