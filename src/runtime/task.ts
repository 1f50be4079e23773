/**
 * "May run user code" made visible in the types. An abstract operation that can reach user code (a getter, a
 * `valueOf`, a callback) is a generator returning `Task<T>`: instead of calling a function natively it yields an
 * `EngineRequest`, and the engine runs that call on its own stack (the VM as a frame, the tree-walker by recursion)
 * and sends the result back. Throws come back through `generator.throw(ThrowCompletion)`. Operations that cannot
 * reach user code are plain functions. Use `yield*` to call a Task from a Task.
 */
import type { JSObject } from "./object.ts"
import { StepTask } from "./step-task.ts"
import type { Value } from "./value.ts"

export type EngineRequest =
  | { readonly kind: "call"; readonly f: JSObject; readonly thisArg: Value; readonly args: ReadonlyArray<Value> }
  | {
      readonly kind: "construct"
      readonly f: JSObject
      readonly args: ReadonlyArray<Value>
      readonly newTarget: JSObject
    }
  /** Resume a suspended generator or async-generator body (its state is engine-owned). */
  | {
      readonly kind: "generatorResume"
      readonly generator: JSObject
      readonly mode: "next" | "throw" | "return"
      readonly value: Value
    }

export type Task<T> = Generator<EngineRequest, T, Value>

/**
 * The `call` request a loop makes once per element (map's callback, sort's comparator): one object for the whole
 * loop, given each call's arguments by `with2`/`with3`/`with4`. They are kept in one list reused by every call
 * (`argv`, the first `argc` of it), which an engine that copies the arguments at once reads (the VM, into the
 * callee's registers); `args` makes a new list of them for the others, which may keep it. Engines act on a request
 * when it is yielded and keep nothing of it but `args`.
 */
export class CallbackRequest {
  readonly kind = "call"
  readonly f: JSObject
  readonly thisArg: Value
  readonly argv: Value[] = [undefined, undefined, undefined, undefined]
  argc = 0
  constructor(f: JSObject, thisArg: Value) {
    this.f = f
    this.thisArg = thisArg
  }
  get args(): ReadonlyArray<Value> {
    const v = this.argv
    switch (this.argc) {
      case 2:
        return [v[0], v[1]]
      case 3:
        return [v[0], v[1], v[2]]
      case 4:
        return [v[0], v[1], v[2], v[3]]
      default:
        return v.slice(0, this.argc)
    }
  }
  with2(a: Value, b: Value): EngineRequest {
    const argv = this.argv
    argv[0] = a
    argv[1] = b
    this.argc = 2
    return this
  }
  /** The last argument (the array a loop walks) is the same on every call: stored once, not once per call (a write barrier each). */
  with3(a: Value, b: Value, c: Value): EngineRequest {
    const argv = this.argv
    argv[0] = a
    argv[1] = b
    if (argv[2] !== c) argv[2] = c
    this.argc = 3
    return this
  }
  with4(a: Value, b: Value, c: Value, d: Value): EngineRequest {
    const argv = this.argv
    argv[0] = a
    argv[1] = b
    argv[2] = c
    if (argv[3] !== d) argv[3] = d
    this.argc = 4
    return this
  }
}

/** Runs a Task that is known not to call user code (all its requests are answered by `answer`). */
export const runTask = <T>(task: Task<T>, answer: (req: EngineRequest) => Value): T => {
  let step = task.next()
  while (!step.done) step = task.next(answer(step.value))
  return step.value
}

const GeneratorPrototype = Object.getPrototypeOf(function* () {}).prototype as object

/** True when a native function's result is a Task to drive rather than a value: a generator, or a StepTask. */
export const isTask = (v: unknown): v is Task<Value> =>
  typeof v === "object" && v !== null && (v instanceof StepTask || Object.getPrototypeOf(Object.getPrototypeOf(v)) === GeneratorPrototype)
