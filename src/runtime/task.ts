/**
 * "May run user code" made visible in the types. An abstract operation that can reach user code (a getter, a
 * `valueOf`, a callback) is a generator returning `Task<T>`: instead of calling a function natively it yields an
 * `EngineRequest`, and the engine runs that call on its own stack (the VM as a frame, the tree-walker by recursion)
 * and sends the result back. Throws come back through `generator.throw(ThrowCompletion)`. Operations that cannot
 * reach user code are plain functions. Use `yield*` to call a Task from a Task.
 */
import type { JSObject } from "./object.ts"
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

/** Runs a Task that is known not to call user code (all its requests are answered by `answer`). */
export const runTask = <T>(task: Task<T>, answer: (req: EngineRequest) => Value): T => {
  let step = task.next()
  while (!step.done) step = task.next(answer(step.value))
  return step.value
}

const GeneratorPrototype = Object.getPrototypeOf(function* () {}).prototype as object

/** True when a native function's result is a Task to drive rather than a value. */
export const isTask = (v: unknown): v is Task<Value> =>
  typeof v === "object" && v !== null && Object.getPrototypeOf(Object.getPrototypeOf(v)) === GeneratorPrototype
