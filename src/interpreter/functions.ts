/**
 * Function bodies: FunctionDeclarationInstantiation (https://tc39.es/ecma262/#sec-functiondeclarationinstantiation)
 * — the function's environment, `this`/`new.target`/`arguments` and the active function when some code uses
 * them, parameters with defaults and patterns, the separate var environment, hoisted function declarations —
 * then the body, and the return value (checked by a derived constructor). Generators suspend once their
 * parameters are bound and hand their generator object to the caller. Field initializers and static blocks are
 * function bodies of their own, called with the instance (or the class) as `this`, and implicit class
 * constructors are evaluated here without an AST of their own.
 *
 * Calls from sandbox code go through `CallFunction`: a plain built-in runs at once; anything else is a `call`
 * request the machine runs as a frame.
 */
import type { ESTree } from "meriyah"
import type { FunctionInfo, Scope } from "../language/scope.ts"
import { fieldInitializerName, type SourceRange } from "../language/static-semantics.ts"
import { calleeText } from "../language/call-printer.ts"
import { PollStringWork } from "../runtime/interrupt.ts"
import { ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { CreateArgumentsObject, CreateGeneratorObject, MakeFunction } from "../runtime/function-create.ts"
import { IsCallable, NativeFunction, type ScriptFunction } from "../runtime/function-object.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { JSObject } from "../runtime/object.ts"
import type { Task } from "../runtime/task.ts"
import type { Empty, Value } from "../runtime/value.ts"
import { checkSuperConstructor, DerivedConstructorResult, InitializeInstanceElements } from "../runtime/class-elements.ts"
import { type Env, recordOf } from "./environment.ts"
import { NamedEvaluation } from "./expressions.ts"
import { type Activation, type Eval, isHostObject, type Resumption } from "./machine.ts"
import { slow } from "./machine.ts"
import { BindingInitialization } from "./patterns.ts"
import { Completion, DisposingStatementList } from "./statements.ts"
import { type Expr, storeRef } from "./references.ts"
import { GeneratorReturn } from "./generators.ts"

/** Evaluates the body of the function `a` is an activation of; its result is the function's return value. */
export function* FunctionBody(a: Activation): Eval<Value> {
  const code = a.code
  const fi = code.fi
  if (fi === undefined) return yield* ImplicitConstructorBody(a)
  const node = code.node
  let value: Value = undefined
  switch (node.type) {
    case "PropertyDefinition": {
      yield* FunctionDeclarationInstantiation(a, fi)
      const def = node as ESTree.PropertyDefinition
      value = yield* NamedEvaluation(a, def.value as ESTree.Expression, fieldInitializerName(def))
      break
    }
    case "StaticBlock":
      yield* FunctionDeclarationInstantiation(a, fi)
      value = returnValue(yield* DisposingStatementList(a, (node as ESTree.StaticBlock).body))
      break
    case "Program": {
      yield* FunctionDeclarationInstantiation(a, fi)
      const c = yield* DisposingStatementList(a, (node as ESTree.Program).body as ESTree.Statement[])
      if (c instanceof Completion && c.type === "return") value = c.value
      else a.m.programCompletion = { value: a.completion }
      break
    }
    default: {
      const f = node as ESTree.FunctionExpression | ESTree.ArrowFunctionExpression
      if (fi.hasSimpleParameterList && a.code.role !== "classConstructor") {
        enterFunctionScope(a, fi)
        bindSimpleParameters(a, fi)
        finishInstantiation(a, fi)
      } else yield* FunctionDeclarationInstantiation(a, fi)
      if (fi.isGenerator) yield* GeneratorStart(a)
      try {
        if (f.body?.type === "BlockStatement") value = returnValue(yield* DisposingStatementList(a, f.body.body))
        else value = yield* Evaluate(a, f.body as ESTree.Expression)
      } catch (e) {
        // A generator resumed with `return` while suspended at a yield outside any try statement.
        if (!(e instanceof GeneratorReturn)) throw e
        value = e.value
      }
    }
  }
  return FunctionEpilogue(a, value)
}

export const returnValue = (c: Completion | undefined): Value => (c !== undefined && c.type === "return" ? c.value : undefined)

/** The final step of a return: a derived constructor checks its result (DerivedCtorReturn in the VM). */
export const FunctionEpilogue = (a: Activation, v: Value): Value => {
  if (a.code.role !== "derivedConstructor") return v
  const thisBinding = a.code.fi!.pseudo("this")
  if (thisBinding === undefined) throw new Error("codemode bug: derived constructor without a this binding")
  const ref = a.program.layout.bindingRef(thisBinding)
  return DerivedConstructorResult(v, recordOf(a.env, ref).slots[ref.slot] as Value | Empty)
}

// https://tc39.es/ecma262/#sec-functiondeclarationinstantiation
export function* FunctionDeclarationInstantiation(a: Activation, fi: FunctionInfo): Eval<void> {
  if (a.code.role === "classConstructor" && a.code.hasInstanceElements) {
    // [[Construct]] of a base class initializes fields before the body (and its parameters) run.
    yield* InitializeElements(a.func, a.thisValue)
  }
  enterFunctionScope(a, fi)
  if (fi.hasSimpleParameterList) bindSimpleParameters(a, fi)
  else {
    const params = fi.params
    for (let i = 0; i < params.length; i++) {
      const p = params[i] as ESTree.Parameter
      a.offset = p.start ?? a.offset
      if (p.type === "RestElement") {
        yield* BindingInitialization(a, p.argument, new ArrayObject(a.realm.ArrayPrototype, a.args.slice(i)), true)
      } else {
        yield* BindingInitialization(a, p, a.args[i], true, "parameter")
      }
    }
  }
  finishInstantiation(a, fi)
}

/** The function's record with `this`, `new.target`, `arguments`, the active function and its own name bound. */
export const enterFunctionScope = (a: Activation, fi: FunctionInfo): void => {
  const layout = a.program.layout
  const env = layout.enter(fi.scope, a.env)
  a.env = env
  if (env !== a.func.env) bindPseudo(a, fi, env!)
}

/** Fills in the pseudo-bindings of the function's fresh record `env`. */
export const bindPseudo = (a: Activation, fi: FunctionInfo, env: Env): void => {
  const layout = a.program.layout
  const slots = env.slots
  for (const { kind, slot } of layout.functionLayout(fi).pseudo) {
    switch (kind) {
      case "this":
        if (fi.kind !== "derivedConstructor") slots[slot] = a.thisValue
        break
      case "new.target":
        slots[slot] = a.newTarget
        break
      case "arguments": {
        const mapped = layout.argumentsMap(fi)
        slots[slot] = CreateArgumentsObject(a.realm, a.args, a.func, a.code.strict, mapped === undefined ? undefined : { env, slots: mapped })
        break
      }
      default:
        slots[slot] = a.func
    }
  }
}

/** Binds a parameter list of plain identifiers to the arguments (the function's record is current). */
export const bindSimpleParameters = (a: Activation, fi: FunctionInfo): void => {
  const params = fi.params as ReadonlyArray<ESTree.Identifier>
  const n = params.length
  if (n === 0) return
  const layout = a.program.layout
  const paramSlots = layout.functionLayout(fi).paramSlots
  if (paramSlots !== undefined) {
    const slots = a.env!.slots
    const args = a.args
    for (let i = 0; i < n; i++) slots[paramSlots[i]!] = args[i]
    a.offset = params[n - 1]!.start ?? a.offset
    return
  }
  for (let i = 0; i < n; i++) {
    const p = params[i] as ESTree.Identifier
    a.offset = p.start ?? a.offset
    const t = storeRef(a, layout.ref(p), p.name, a.args[i], true)
    if (t !== undefined) throw new Error("codemode bug: a parameter is a global")
  }
}

/** The separate var environment (when parameters have expressions) and the hoisted function declarations. */
export const finishInstantiation = (a: Activation, fi: FunctionInfo): void => {
  const layout = a.program.layout
  if (fi.bodyScope !== fi.scope) {
    a.env = layout.enter(fi.bodyScope, a.env)
    for (const b of fi.bodyScope.bindings.values()) {
      if (b.initFromParam === undefined) continue
      const from = layout.bindingRef(b.initFromParam)
      a.env!.slots[layout.slot(b)] = recordOf(a.env, from).slots[from.slot]
    }
  }
  InstantiateFunctionDeclarations(a, fi.bodyScope)
}

/** Creates the closures of a scope's hoisted function declarations (the scope's record is current). */
export const InstantiateFunctionDeclarations = (a: Activation, scope: Scope): void => {
  for (const decl of scope.functionDeclarations) {
    const id = decl.id as ESTree.Identifier
    const F = MakeFunction(a.realm, a.program.code(decl, id.name), a.env)
    storeRef(a, a.program.layout.ref(id), id.name, F, true)
  }
}

/**
 * Evaluating a function declaration: nothing (it was instantiated with its scope), except that a block-level
 * function of sloppy code sets its Annex B var binding to the block binding's current value (B.3.2.1).
 */
export const FunctionDeclarationEvaluation = (a: Activation, decl: ESTree.FunctionDeclaration): void => {
  const v = a.program.analysis.annexBFunctions.get(decl)
  if (v === undefined) return
  const layout = a.program.layout
  const from = layout.ref(decl.id!)!
  const to = layout.bindingRef(v)
  recordOf(a.env, to).slots[to.slot] = recordOf(a.env, from).slots[from.slot]
}

/** A generator's body starts: create the generator object and hand it to the caller. */
function* GeneratorStart(a: Activation): Eval<void> {
  const gen = CreateGeneratorObject(a.realm, a.func, a.code.functionKind === "asyncGenerator")
  a.frame.activation = gen
  const r = (yield { kind: "suspend", deliver: gen, holdsNothing: true }) as unknown as Resumption
  if (r.mode === "throw") throw new ThrowCompletion(r.value)
  if (r.mode === "return") throw new GeneratorReturn(r.value)
}

/** The body of an implicit class constructor (https://tc39.es/ecma262/#sec-runtime-semantics-classdefinitionevaluation step 14.a). */
export function* ImplicitConstructorBody(a: Activation): Eval<Value> {
  if (a.code.role === "derivedConstructor") {
    const parent = checkSuperConstructor(a.func)
    const result = (yield { kind: "construct", f: parent, args: a.args, newTarget: a.newTarget as JSObject }) as JSObject
    yield* InitializeElements(a.func, result)
    return result
  }
  if (a.code.hasInstanceElements) yield* InitializeElements(a.func, a.thisValue)
  return undefined
}

/** InitializeInstanceElements, unless the class defines no instance elements. */
export function* InitializeElements(F: ScriptFunction, O: Value): Eval<void> {
  if (F.fields.length === 0 && F.privateMethods.length === 0) return
  yield* slow(InitializeInstanceElements(O, F))
}

/** A closure of a function expression, arrow or method over the current environment (`sourceNode`: a method's whole definition). */
export const InstantiateFunction = (a: Activation, node: ESTree.Node, name: string, sourceNode: SourceRange = node): ScriptFunction =>
  MakeFunction(a.realm, a.program.code(node, name, undefined, sourceNode), a.env)

/**
 * Calls `f` from sandbox code: a plain built-in at once, anything else as a frame. `callee` names the callee in
 * "x is not a function".
 */
export function* CallFunction(a: Activation, f: Value, thisArg: Value, args: ReadonlyArray<Value>, callee: Expr | string): Eval<Value> {
  a.m.steps--
  if (f instanceof NativeFunction && !f.isTaskImpl) {
    const r = f.impl(a.realm, thisArg, args, undefined, f)
    PollStringWork(a.realm, thisArg, args[0], r)
    if (isHostObject(r)) return yield* slow(r as Task<Value>)
    return r as Value
  }
  if (!IsCallable(f)) throwTypeError(`${typeof callee === "string" ? callee : calleeText(callee)} is not a function`)
  return yield { kind: "call", f: f as JSObject, thisArg, args }
}


import { Evaluate } from "./expressions.ts"
