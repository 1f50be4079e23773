/**
 * Callable objects. `NativeFunction` is a built-in whose behaviour is host code (`NativeImpl`), named by a stable
 * `nativeId` so a snapshot can refer to it; per-call state a built-in closes over (promise resolvers, bound
 * iterators) lives in `slots`, as data. `ScriptFunction` is a function the program defined; its `code` and `env`
 * belong to the engine that created it (bytecode and scope chain for the VM, AST and environment for the
 * tree-walker), everything the spec says about it is here. `BoundFunction` is the bound function exotic object.
 * Calling any of them is the engine's job (see task.ts): the runtime never calls user code itself.
 */
import { JSObject, type PrivateName } from "./object.ts"
import type { Realm } from "./realm.ts"
import type { Task } from "./task.ts"
import type { PropertyKey, Value } from "./value.ts"

/**
 * A built-in's behaviour. `newTarget` is undefined for [[Call]] and the new.target for [[Construct]]. A built-in
 * that may run user code is a generator function and returns a Task.
 */
export type NativeImpl = (
  realm: Realm,
  thisArg: Value,
  args: ReadonlyArray<Value>,
  newTarget: JSObject | undefined,
  self: NativeFunction,
) => Value | Task<Value>

export class NativeFunction extends JSObject {
  readonly nativeId: string
  readonly impl: NativeImpl
  readonly isTaskImpl: boolean
  readonly constructable: boolean
  /** Internal slots of a built-in closure ([[Promise]], [[AlreadyResolved]]...). Values only, so it serializes. */
  slots: Record<string, Value | ReadonlyArray<Value> | boolean> | undefined

  constructor(proto: JSObject | null, nativeId: string, impl: NativeImpl, constructable: boolean) {
    super(proto)
    this.kind = "Function"
    this.nativeId = nativeId
    this.impl = impl
    this.isTaskImpl = impl.constructor.name === "GeneratorFunction"
    this.constructable = constructable
    this.slots = undefined
  }
  override isCallable(): boolean {
    return true
  }
  override isConstructor(): boolean {
    return this.constructable
  }
}

export type FunctionKind = "normal" | "generator" | "async" | "asyncGenerator"
export type ThisMode = "lexical" | "strict" | "global"

/** https://tc39.es/ecma262/#sec-classfielddefinition-record-specification-type */
export interface ClassFieldDefinition {
  readonly name: PropertyKey | PrivateName
  readonly initializer: ScriptFunction | undefined
}

/** A private method or accessor installed on every instance ([[PrivateMethods]]). */
export interface PrivateMethodDefinition {
  readonly name: PrivateName
  readonly kind: "method" | "accessor"
  readonly value: JSObject | undefined
  readonly get: JSObject | undefined
  readonly set: JSObject | undefined
}

/** https://tc39.es/ecma262/#sec-ecmascript-function-objects */
export class ScriptFunction extends JSObject {
  /** Engine-owned: the compiled function (VM) or its AST node (tree-walker). */
  readonly code: unknown
  /** Engine-owned: the scope the function closes over. */
  readonly env: unknown
  readonly functionKind: FunctionKind
  readonly thisMode: ThisMode
  readonly strict: boolean
  constructable: boolean
  isClassConstructor = false
  constructorKind: "base" | "derived" = "base"
  homeObject: JSObject | undefined = undefined
  fields: ClassFieldDefinition[] = []
  privateMethods: PrivateMethodDefinition[] = []
  /** For arrow functions and class field initializers that close over `this`: captured by the engine. */
  boundThis: Value = undefined

  constructor(
    proto: JSObject | null,
    code: unknown,
    env: unknown,
    functionKind: FunctionKind,
    thisMode: ThisMode,
    strict: boolean,
    constructable: boolean,
  ) {
    super(proto)
    this.kind = "Function"
    this.code = code
    this.env = env
    this.functionKind = functionKind
    this.thisMode = thisMode
    this.strict = strict
    this.constructable = constructable
  }
  override isCallable(): boolean {
    return true
  }
  override isConstructor(): boolean {
    return this.constructable
  }
}

/** https://tc39.es/ecma262/#sec-bound-function-exotic-objects */
export class BoundFunction extends JSObject {
  readonly target: JSObject
  readonly boundThis: Value
  readonly boundArgs: ReadonlyArray<Value>
  constructor(proto: JSObject | null, target: JSObject, boundThis: Value, boundArgs: ReadonlyArray<Value>) {
    super(proto)
    this.kind = "Function"
    this.target = target
    this.boundThis = boundThis
    this.boundArgs = boundArgs
  }
  override isCallable(): boolean {
    return true
  }
  override isConstructor(): boolean {
    return this.target.isConstructor()
  }
}

export const IsCallable = (v: Value): v is JSObject => v instanceof JSObject && v.isCallable()
export const IsConstructor = (v: Value): v is JSObject => v instanceof JSObject && v.isConstructor()
