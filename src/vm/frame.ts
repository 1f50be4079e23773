/**
 * The VM's run state, as plain data: environment records (the captured part of the scope chain) and frames. A
 * frame is either a script frame (a code object, its pc, its registers followed by its operand stack, its
 * environment, `this`, the active function, `new.target`, the argument list) or a native frame driving a
 * built-in's Task (see runtime/task.ts). Frames live in the VM's own array, never on the host stack; a suspended
 * generator or async function keeps its frame in its generator object until it is resumed.
 */
import { chargeMemory, Cost } from "../runtime/memory.ts"
import type { CodeObject } from "../bytecode/code.ts"
import { ActivationKind } from "../runtime/activation.ts"
import type { ThrowCompletion } from "../runtime/completion.ts"
import type { ForInIterator } from "../runtime/for-in.ts"
import type { IteratorRecord } from "../runtime/iteration.ts"
import type { JSObject, PrivateName } from "../runtime/object.ts"
import type { Task } from "../runtime/task.ts"
import { EMPTY, type Empty, type Value } from "../runtime/value.ts"

/**
 * A fresh array of `size` copies of `fill`, copied from a template kept per size: every call and every scope entry
 * makes one, and `new Array(n).fill(v)` costs several times a copy of a packed array (it was the largest single
 * item in the profile of a callback-heavy program). The templates are built with push, so they and their copies
 * hold generic elements from the start: no elements-kind transitions (and polymorphism) as values of any type land.
 * Only small sizes get a template, so the host keeps a bounded amount whatever sizes programs use.
 */
const filled = <T>(templates: Array<Array<T> | undefined>, fill: T, size: number): Array<T> => {
  let t = templates[size]
  if (t === undefined) {
    t = []
    for (let i = 0; i < size; i++) t.push(fill)
    if (size <= maxTemplateSize) templates[size] = t
    else return t
  }
  return t.slice()
}

const maxTemplateSize = 256

const undefinedTemplates: Array<Array<Slot> | undefined> = []
const emptyTemplates: Array<Array<Value | Empty> | undefined> = []

/** Registers and operand stack of a new frame, all undefined. */
export const newRegisters = (size: number): Slot[] => filled(undefinedTemplates, undefined, size)

/** Binding slots of a new scope, all uninitialized. */
export const uninitializedSlots = (size: number): Array<Value | Empty> => filled(emptyTemplates, EMPTY, size)

/** A declarative environment record holding the captured bindings of one scope (EMPTY: uninitialized). */
export class Environment {
  readonly slots: Array<Value | Empty | PrivateName>
  readonly parent: Environment | null
  constructor(slots: Array<Value | Empty | PrivateName>, parent: Environment | null) {
    chargeMemory(Cost.environment + Cost.element * slots.length)
    this.slots = slots
    this.parent = parent
  }
}

export type { ForInIterator }

/** What a register or operand stack slot can hold. */
export type Slot = Value | Empty | PrivateName | IteratorRecord | ForInIterator | Environment

/** The kinds of activations (runtime/activation.ts), and native frames driving a built-in's Task. */
export const FrameKind = { ...ActivationKind, Native: 5 } as const
export type FrameKind = (typeof FrameKind)[keyof typeof FrameKind]

/**
 * frames[i], or undefined below the bottom frame. Never frames[-1]: V8 takes a read at a negative index for a
 * named-property miss, which turns the inline cache of that read megamorphic, so every later read there (each
 * Return's look at its caller) became a generic keyed lookup.
 */
export const frameAt = (frames: ReadonlyArray<Frame>, i: number): Frame | undefined => (i >= 0 ? frames[i] : undefined)

export class Frame {
  /** Not readonly, nor are `func` and `newTarget`: a returned frame serves the next call of its code (machine.ts `spare`). */
  kind: FrameKind
  readonly code: CodeObject | undefined
  pc = 0
  readonly regs: Slot[]
  sp: number
  env: Environment | null
  func: JSObject | undefined
  thisValue: Value
  newTarget: Value
  readonly args: ReadonlyArray<Value> | undefined
  /** The generator or async activation this frame belongs to. */
  activation: JSObject | undefined = undefined
  /** Native frames: the built-in's Task, and what to send into it next. */
  readonly task: Task<Value> | undefined
  resumeValue: Value = undefined
  resumeThrow: ThrowCompletion | undefined = undefined
  /** Native frames: the Task's result is not delivered (the instruction pushes nothing). */
  discardResult = false
  /** Suspended frames: where to resume (machine.ts SuspendKind). */
  suspendKind = 0

  constructor(
    kind: FrameKind,
    code: CodeObject | undefined,
    regs: Slot[],
    env: Environment | null,
    func: JSObject | undefined,
    thisValue: Value,
    newTarget: Value,
    args: ReadonlyArray<Value> | undefined,
    task: Task<Value> | undefined,
  ) {
    chargeMemory(Cost.environment + Cost.element * regs.length)
    this.kind = kind
    this.code = code
    this.regs = regs
    this.sp = code === undefined ? 0 : code.registerCount
    this.env = env
    this.func = func
    this.thisValue = thisValue
    this.newTarget = newTarget
    this.args = args
    this.task = task
  }
}
