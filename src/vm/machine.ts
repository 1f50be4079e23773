/**
 * The machine: the VM's frame stack and everything that moves between frames without recursing on the host
 * stack. Calls push frames; returns and throws pop them and deliver the result (or the exception) to the frame
 * below, which is a script frame (the value lands on its operand stack, the exception goes to its handler table)
 * or a native frame (the value is sent into its Task with `next`, the exception with `throw`). Built-ins that may
 * run user code are Tasks driven by native frames; each `EngineRequest` they yield becomes a pushed frame.
 * Generators and async functions suspend by taking their frame off the stack into their generator object, and
 * resume through the `generatorResume` request.
 *
 * Steps (QuickJS's interrupt counter): every call and every backward jump costs one; when the budget runs out the
 * machine stops between two instructions with all state in its frames, and `execute` continues from there.
 */
import type { CodeObject, CompiledProgram } from "../bytecode/code.ts"
import { sourceOffsetAt } from "../bytecode/code.ts"
import {
  ActivationKindOf,
  ActivationReturn,
  ActivationThrow,
  Invoke,
  type Invoker,
  isHostObject,
  TakeSuspendedBody,
} from "../runtime/activation.ts"
import { Caps } from "../runtime/caps.ts"
import { throwRangeError, ThrowCompletion } from "../runtime/completion.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import {
  CheckNotClassConstructorCall,
  CreateGeneratorObject,
  OrdinaryCallBindThis,
  OrdinaryCreateThisForConstruct,
} from "../runtime/function-create.ts"
import { ScriptFunction } from "../runtime/function-object.ts"
import {
  type GeneratorObject,
  NewAsyncFunctionActivation,
} from "../runtime/generator.ts"
import { JSObject } from "../runtime/object.ts"
import { describeValue } from "../runtime/operations.ts"
import type { Realm, SourceLocation } from "../runtime/realm.ts"
import { StepTask } from "../runtime/step-task.ts"
import { CallbackRequest, type EngineRequest, isTask, type Task } from "../runtime/task.ts"
import type { Empty, Value } from "../runtime/value.ts"
import { Frame, frameAt, FrameKind, newRegisters, type Slot } from "./frame.ts"
import { runFrame } from "./interpreter.ts"
import { ResumeMode } from "../bytecode/opcodes.ts"

/** Where a suspended frame resumes: at the start, after a Yield (value + mode), after an Await (value or throw). */
export const SuspendKind = { Start: 0, Yield: 1, Await: 2 } as const

export class Machine {
  readonly realm: Realm
  readonly program: CompiledProgram
  readonly frames: Frame[] = []
  /** Steps left in the current slice. */
  steps = 0
  /** Tagged template objects, per code object and site. */
  readonly templates = new Map<string, JSObject>()
  /** Set when the program body reaches its end without `return`: its completion value. */
  programCompletion: { readonly value: Value } | undefined = undefined
  readonly locate: (offset: number) => SourceLocation
  /**
   * The frame of the ordinary call or base-constructor [[Construct]] that returned last: nothing else refers to a
   * returned frame, so the next such call of the same code (map's callback, once per element; the second call of
   * `fib(n - 1) + fib(n - 2)`; `new Account(...)` in a loop) runs in it instead of a new frame and registers.
   * Frames with an arguments list are left alone (it may outlive them).
   */
  private spare: Frame | undefined = undefined

  constructor(realm: Realm, program: CompiledProgram, locate: (offset: number) => SourceLocation) {
    this.realm = realm
    this.program = program
    this.locate = locate
  }

  /** Runs frames until the stack is empty (false) or the step budget is spent (true). */
  execute(): boolean {
    const frames = this.frames
    for (;;) {
      const frame = frameAt(frames, frames.length - 1)
      if (frame === undefined) return false
      if (this.steps <= 0) return true
      if (frame.task !== undefined) this.stepNative(frame)
      else runFrame(this, frame)
    }
  }

  /** The running script frame's source location (for errors created now). */
  currentLocation(): SourceLocation | undefined {
    for (let i = this.frames.length - 1; i >= 0; i--) {
      const f = this.frames[i] as Frame
      if (f.code !== undefined) return this.locate(sourceOffsetAt(f.code, Math.max(0, f.pc - 1)))
    }
    return undefined
  }

  // --- Delivering results and exceptions ----------------------------------------------------------------------

  /** Hands a result to the top frame: onto a script frame's stack, or into a native frame's Task. */
  deliver(v: Value | Empty): void {
    const f = frameAt(this.frames, this.frames.length - 1)
    if (f === undefined) return
    if (f.task !== undefined) f.resumeValue = v as Value
    else f.regs[f.sp++] = v
  }

  /** Throws into the top frame: its handler, or it completes abruptly and the throw continues below. */
  throwInto(tc: ThrowCompletion): void {
    const frames = this.frames
    for (;;) {
      const frame = frameAt(frames, frames.length - 1)
      if (frame === undefined) throw new Error(`codemode bug: uncaught throw out of the bottom frame: ${describeValue(tc.value)}`)
      if (frame.task !== undefined) {
        frame.resumeThrow = tc
        return
      }
      const code = frame.code as CodeObject
      const h = findHandler(code, frame.pc - 1)
      if (h >= 0) {
        const handlers = code.handlers
        frame.pc = handlers[h + 2] as number
        frame.sp = code.registerCount + (handlers[h + 3] as number)
        frame.regs[frame.sp++] = tc.value
        return
      }
      frames.pop()
      const r = ActivationThrow(this.realm, frame.kind, frame.activation as GeneratorObject | undefined, tc)
      if (r instanceof ThrowCompletion) continue
      if (isTask(r)) this.pushTask(r as Task<Value>)
      else this.deliver(r as Value)
      return
    }
  }

  /** The top script frame returns `v`. */
  returnFrom(frame: Frame, v: Value): void {
    this.frames.pop()
    if (frame.kind === FrameKind.Normal) return this.deliver(v)
    if (frame.kind === FrameKind.Native) throw new Error("codemode bug: return from a native frame")
    const r = ActivationReturn(this.realm, frame.kind, frame.activation as GeneratorObject | undefined, v, frame.thisValue)
    if (isTask(r)) this.pushTask(r as Task<Value>)
    else this.deliver(r as Value)
  }

  // --- Calls --------------------------------------------------------------------------------------------------

  private checkDepth(): void {
    if (this.frames.length >= Caps.maxCallDepth) throwRangeError("Maximum call stack size exceeded")
  }

  /**
   * Pushes a frame for a script function. The arguments are `src[start .. start+argc)` (a caller's stack or an
   * argument list). `newTarget` is undefined for [[Call]].
   */
  pushScript(f: ScriptFunction, thisArg: Value, src: ReadonlyArray<Slot>, start: number, argc: number, newTarget: JSObject | undefined): void {
    const spare = this.spare
    if (
      spare !== undefined &&
      spare.code === f.code &&
      f.functionKind === "normal" &&
      (newTarget === undefined ? !f.isClassConstructor : f.constructorKind === "base")
    ) {
      return this.reenter(spare, f, thisArg, src, start, argc, newTarget)
    }
    this.checkDepth()
    const code = f.code as CodeObject
    if (newTarget === undefined) CheckNotClassConstructorCall(f)
    const regs = newRegisters(code.registerCount + code.maxStack)
    const n = argc < code.paramCount ? argc : code.paramCount
    for (let i = 0; i < n; i++) regs[i] = src[start + i]
    const args = code.needsArgs ? (src.slice(start, start + argc) as Value[]) : undefined
    const thisValue = newTarget === undefined ? OrdinaryCallBindThis(this.realm, f, thisArg) : thisArg
    const kind: FrameKind = ActivationKindOf(f, newTarget)
    const frame = new Frame(kind, code, regs, f.env as Frame["env"], f, thisValue, newTarget, args, undefined)
    if (kind === FrameKind.Async) frame.activation = NewAsyncFunctionActivation(this.realm)
    this.frames.push(frame)
  }

  /** An ordinary call's or a base constructor's frame has returned and been popped: it may serve the next call of its code. */
  returned(frame: Frame): void {
    if (frame.args === undefined && (frame.newTarget === undefined || frame.kind === FrameKind.Construct)) this.spare = frame
  }

  /** pushScript for an ordinary [[Call]] or a base [[Construct]] of `f` into `frame`, a returned frame of the same code (see `spare`). */
  private reenter(frame: Frame, f: ScriptFunction, thisArg: Value, src: ReadonlyArray<Slot>, start: number, argc: number, newTarget: JSObject | undefined): void {
    this.checkDepth()
    this.spare = undefined
    frame.kind = newTarget === undefined ? FrameKind.Normal : FrameKind.Construct
    frame.newTarget = newTarget
    // A base constructor's `this` is its new object, which binding `this` as for a call leaves as it is.
    this.rerun(frame, f, thisArg, src, start, argc)
    this.frames.push(frame)
  }

  /** Starts `frame` over as a new ordinary call of `f`, whose previous call it ran. */
  private rerun(frame: Frame, f: ScriptFunction, thisArg: Value, src: ReadonlyArray<Slot>, start: number, argc: number): void {
    const code = frame.code as CodeObject
    const regs = frame.regs
    const n = argc < code.paramCount ? argc : code.paramCount
    for (let i = 0; i < n; i++) regs[i] = src[start + i]
    // A loop, not fill: on a few registers the builtin's entry costs more than the stores. Only the registers: the
    // operand stack above them is written before it is read (the verifier's depths) and is not saved (sp bounds it).
    for (let i = n, end = code.registerCount; i < end; i++) regs[i] = undefined
    frame.pc = 0
    frame.sp = code.registerCount
    // A frame that serves call after call soon lives in V8's old generation, where every store of a pointer into
    // it calls the write barrier's stub: the next callback of a loop finds the same function, scope and `this`.
    const env = f.env as Frame["env"]
    if (frame.env !== env) frame.env = env
    if (frame.func !== f) frame.func = f
    const thisValue = OrdinaryCallBindThis(this.realm, f, thisArg)
    if (frame.thisValue !== thisValue) frame.thisValue = thisValue
  }

  /** Pushes a native frame driving `task`; its result is delivered to the frame below (unless discarded). */
  pushTask(task: Task<Value | Empty>, discardResult = false): Frame {
    this.checkDepth()
    const frame = new Frame(FrameKind.Native, undefined, [], null, undefined, undefined, undefined, undefined, task as Task<Value>)
    frame.discardResult = discardResult
    this.frames.push(frame)
    return frame
  }

  /**
   * Runs `task` inline until its first request. Returns its result if it finished without one; otherwise pushes a
   * native frame for it, issues the request, and returns PENDING (the result is delivered later). The caller has
   * saved its frame's pc and sp.
   */
  startTask(task: Task<Value | Empty>, discardResult = false): Value | Empty | typeof PENDING {
    const r = task.next()
    if (r.done === true) return r.value
    const frame = this.pushTask(task, discardResult)
    this.steps--
    try {
      this.request(r.value)
    } catch (e) {
      frame.resumeThrow = toThrowCompletion(this.realm, e)
    }
    return PENDING
  }

  /**
   * [[Call]] (newTarget undefined) or [[Construct]] of any function with an argument list: pushes a frame, or
   * calls a plain built-in at once and delivers its result.
   */
  invoke(f: Value, thisArg: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined, calleeText?: string): void {
    Invoke(this.realm, f, thisArg, args, newTarget, calleeText, this.invoker)
  }

  private readonly invoker: Invoker<void> = {
    script: (f, thisArg, args, newTarget) =>
      newTarget === undefined ? this.pushScript(f, thisArg, args, 0, args.length, undefined) : this.constructScript(f, args, newTarget),
    native: (result, isTask) => (isTask ? void this.pushTask(result as Task<Value>) : this.deliver(result as Value)),
  }

  /** [[Construct]] of a script function: a base constructor gets its `this` from newTarget.prototype. */
  constructScript(f: ScriptFunction, args: ReadonlyArray<Slot>, newTarget: JSObject, start = 0, argc = args.length): void {
    const thisArg = f.constructorKind === "base" ? OrdinaryCreateThisForConstruct(this.realm, newTarget) : undefined
    this.pushScript(f, thisArg, args, start, argc, newTarget)
  }

  /**
   * The top script frame, `frame`, an ordinary call made by `native`, the native frame below it, returns `v`: the
   * built-in's Task goes on to its next request at once. Returns the script frame now on top when the caller may run
   * it in place (the next callback of a `map`, or the frame that called the built-in once it is done), else undefined.
   */
  returnToNative(frame: Frame, native: Frame, v: Value): Frame | undefined {
    const task = native.task
    if (frame.args === undefined && (task === this.loopTask || task instanceof StepTask)) return this.nextCallback(frame, native, task as StepTask, v)
    this.frames.pop()
    this.returned(frame)
    native.resumeValue = v
    this.stepNative(native)
    return this.scriptOnTop()
  }

  /**
   * The StepTask and the request of the callback nextCallback ran last: seen again (the next comparison of a sort),
   * they are known without an `instanceof` each, which was the largest single cost of a comparator call.
   */
  private loopTask: StepTask | undefined = undefined
  private loopCall: CallbackRequest | undefined = undefined

  /** A built-in's Task has ended: the Machine must not keep it (and the arrays it holds) alive. */
  private endLoop(): void {
    if (this.loopTask !== undefined) {
      this.loopTask = undefined
      this.loopCall = undefined
    }
  }

  /**
   * returnToNative for a built-in's loop (StepTask, a callback per element or comparison): when its next request
   * calls the function that just returned, that call runs in the returned frame without leaving the stack.
   */
  private nextCallback(frame: Frame, native: Frame, task: StepTask, v: Value): Frame | undefined {
    const frames = this.frames
    let req: EngineRequest | undefined
    try {
      req = task.nextRequest(v)
    } catch (e) {
      frames.length -= 2
      this.endLoop()
      this.returned(frame)
      this.throwInto(toThrowCompletion(this.realm, e))
      return this.scriptOnTop()
    }
    if (req === undefined) {
      const r = task.last
      if (r.done === true) {
        frames.length -= 2
        this.spare = undefined
        this.endLoop()
        if (!native.discardResult) this.deliver(r.value)
        return this.scriptOnTop()
      }
      req = r.value
    }
    this.steps--
    if ((req === this.loopCall || req instanceof CallbackRequest) && (req as CallbackRequest).f === frame.func) {
      const call = req as CallbackRequest
      if (this.loopCall !== call) this.loopCall = call
      if (this.loopTask !== task) this.loopTask = task
      this.rerun(frame, call.f as ScriptFunction, call.thisArg, call.argv, 0, call.argc)
      return this.steps > 0 ? frame : undefined
    }
    frames.pop()
    this.returned(frame)
    try {
      this.request(req)
    } catch (e) {
      native.resumeThrow = toThrowCompletion(this.realm, e)
    }
    return this.scriptOnTop()
  }

  /** The top frame when it is a script frame the running loop may switch to in place (steps remain), else undefined. */
  scriptOnTop(): Frame | undefined {
    const top = frameAt(this.frames, this.frames.length - 1)
    return top !== undefined && top.task === undefined && this.steps > 0 ? top : undefined
  }

  /** Runs one step of the top native frame's Task. */
  private stepNative(frame: Frame): void {
    const task = frame.task as Task<Value>
    let r: IteratorResult<EngineRequest, Value>
    try {
      const t = frame.resumeThrow
      if (t !== undefined) {
        frame.resumeThrow = undefined
        r = task.throw(t)
      } else {
        const v = frame.resumeValue
        frame.resumeValue = undefined
        r = task.next(v)
      }
    } catch (e) {
      this.frames.pop()
      this.endLoop()
      this.throwInto(toThrowCompletion(this.realm, e))
      return
    }
    if (r.done === true) {
      this.frames.pop()
      this.spare = undefined
      this.endLoop()
      if (!frame.discardResult) this.deliver(r.value)
      return
    }
    this.steps--
    try {
      this.request(r.value)
    } catch (e) {
      frame.resumeThrow = toThrowCompletion(this.realm, e)
    }
  }

  private request(req: EngineRequest): void {
    switch (req.kind) {
      case "call": {
        // A built-in calling back into the program (map, sort's comparator...): straight to a frame.
        // A loop's request holds its arguments in a reused list: the frame copies them, so the list is not kept.
        const f = req.f
        if (f instanceof ScriptFunction) {
          if (req instanceof CallbackRequest) return this.pushScript(f, req.thisArg, req.argv, 0, req.argc, undefined)
          return this.pushScript(f, req.thisArg, req.args, 0, req.args.length, undefined)
        }
        return this.invoke(f, req.thisArg, req.args, undefined)
      }
      case "construct":
        return this.invoke(req.f, undefined, req.args, req.newTarget)
      case "generatorResume":
        return this.resumeGenerator(req.generator as GeneratorObject, req.mode, req.value)
    }
  }

  // --- Generators and async functions ---------------------------------------------------------------------------

  /** Takes the top frame off the stack into its activation; it resumes where `kind` says. */
  suspend(frame: Frame, kind: number): void {
    this.frames.pop()
    frame.suspendKind = kind
    ;(frame.activation as GeneratorObject).engineState = frame
  }

  /** Also used by the job loop (index.ts) to resume an async body straight from its await reaction. */
  resumeGenerator(gen: GeneratorObject, mode: "next" | "throw" | "return", value: Value): void {
    const frame = TakeSuspendedBody(gen, () => this.checkDepth()) as Frame
    this.frames.push(frame)
    switch (frame.suspendKind) {
      case SuspendKind.Start:
        return
      case SuspendKind.Yield:
        frame.regs[frame.sp++] = value
        frame.regs[frame.sp++] = mode === "next" ? ResumeMode.Next : mode === "throw" ? ResumeMode.Throw : ResumeMode.Return
        return
      default:
        if (mode === "throw") return this.throwInto(new ThrowCompletion(value))
        frame.regs[frame.sp++] = value
    }
  }

}

export const PENDING: unique symbol = Symbol("pending")

/**
 * An opcode's slow path, for both halves of the dispatch (interpreter.ts, interpreter-rare.ts): saves the frame's
 * pc/sp and starts `task` (Machine.startTask); its result, or PENDING.
 */
export const runSlow = (m: Machine, frame: Frame, pc: number, sp: number, task: Task<Value | Empty>, discard = false): Value | Empty | typeof PENDING => {
  frame.pc = pc
  frame.sp = sp
  return m.startTask(task, discard)
}

export { isHostObject }

/** The innermost handler covering `pc`, as an index into the handler table, or -1. */
const findHandler = (code: CodeObject, pc: number): number => {
  const h = code.handlers
  for (let i = 0; i < h.length; i += 4) {
    if (pc >= (h[i] as number) && pc < (h[i + 1] as number)) return i
  }
  return -1
}

/** A generator's body starts: create the generator object and hand it to the caller. */
export const startGenerator = (m: Machine, frame: Frame): void => {
  const gen = CreateGeneratorObject(m.realm, frame.func as ScriptFunction, frame.kind === FrameKind.AsyncGenerator)
  frame.activation = gen
  m.suspend(frame, SuspendKind.Start)
  m.deliver(gen)
}
