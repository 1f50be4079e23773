/**
 * Statements (https://tc39.es/ecma262/#sec-ecmascript-language-statements-and-declarations), one function per
 * production. A statement's result is its completion: undefined for a normal completion, or a `Completion`
 * record for `break`, `continue` and `return`, which loops, switch, labels and try/finally consume on the way
 * out. Throws are host exceptions (ThrowCompletion); a try statement converts what it catches with
 * `toThrowCompletion`, so a Termination (timeout, cancellation) is never caught and runs no `finally`.
 *
 * Every statement that enters a scope leaves the activation's environment as it found it; a catch or finally
 * handler restores the environment of its try statement, whatever was left when the throw unwound.
 *
 * In the program body the statement completion value (what node:vm's script result would be) is tracked as the
 * compiler tracks it: expression statements set it, and statements whose completion is UpdateEmpty(..., undefined)
 * (if, loops, switch, try) reset it to undefined first; a finally block's normal completion does not replace it
 * (its abrupt completion does).
 */
import type { ESTree } from "meriyah"
import type { Scope } from "../language/scope.ts"
import { disposalOf, forInVarInitializer, headDisposalOf } from "../language/static-semantics.ts"
import { iterableSite } from "../language/call-printer.ts"
import { ThrowCompletion } from "../runtime/completion.ts"
import { ToBoolean } from "../runtime/conversions.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import type { IteratorRecord } from "../runtime/iteration.ts"
import { isTask, type Task } from "../runtime/task.ts"
import { EMPTY, type Empty, type Value } from "../runtime/value.ts"
import { Env } from "./environment.ts"
import { Evaluate, NamedEvaluation, unreachable } from "./expressions.ts"
import { ClassDefinitionEvaluation } from "./classes.ts"
import { FunctionDeclarationEvaluation, InstantiateFunctionDeclarations } from "./functions.ts"
import { AsyncIteratorClose, Await, GeneratorReturn } from "./generators.ts"
import { type Activation, type Eval, MAX_PLAIN_DEPTH, TICK } from "./machine.ts"
import { slow } from "./machine.ts"
import { StatementPlain } from "./plain.ts"
import { BindingInitialization, BindTarget } from "./patterns.ts"
import { PutBindingValue } from "./references.ts"
import { JSObject } from "../runtime/object.ts"
import { ForInIteratorOf, ForInNext } from "../runtime/for-in.ts"
import { AddDisposableResource, DisposeBegin, DisposeEnd, DisposeNext, DisposeRecordError, NewDisposeCapability } from "../runtime/dispose.ts"
import { AsyncIterReturnTask, GetAsyncIteratorTask, GetIteratorTask, IteratorCloseForThrow, IteratorCloseIfNotDone, iteratorStepFast, IterResultValueTask } from "../runtime/iterator-steps.ts"

/** An abrupt completion other than a throw. */
export class Completion {
  readonly type: "break" | "continue" | "return"
  readonly label: string | undefined
  readonly value: Value
  constructor(type: "break" | "continue" | "return", label: string | undefined, value: Value) {
    this.type = type
    this.label = label
    this.value = value
  }
}

/** The label set of a statement that is not a loop's body under labels. */
export const NO_LABELS: ReadonlyArray<string> = []

const BREAK = new Completion("break", undefined, undefined)
const CONTINUE = new Completion("continue", undefined, undefined)

export const BreakOrContinue = (node: ESTree.BreakStatement | ESTree.ContinueStatement): Completion =>
  node.type === "BreakStatement"
    ? node.label === null
      ? BREAK
      : new Completion("break", node.label.name, undefined)
    : node.label === null
      ? CONTINUE
      : new Completion("continue", node.label.name, undefined)

export const ReturnCompletion = (v: Value): Completion => new Completion("return", undefined, v)

export function* StatementList(a: Activation, list: ReadonlyArray<ESTree.Statement>): Eval<Completion | undefined> {
  for (const s of list) {
    const c = yield* Statement(a, s, NO_LABELS)
    if (c !== undefined) return c
  }
  return undefined
}

/** Evaluates a statement; as `Evaluate` does, what cannot suspend goes to the synchronous evaluator. */
export function* Statement(a: Activation, node: ESTree.Statement, labels: ReadonlyArray<string>, generator?: boolean): Eval<Completion | undefined> {
  if (generator !== true && a.m.plainDepth < MAX_PLAIN_DEPTH && !a.program.suspends(node)) return StatementPlain(a, node, labels)
  a.offset = node.start ?? a.offset
  switch (node.type) {
    case "ExpressionStatement": {
      const v = yield* Evaluate(a, node.expression)
      if (a.code.role === "program") a.completion = v
      return undefined
    }
    case "BlockStatement":
      return yield* BlockStatement(a, node, node.body)
    case "EmptyStatement":
    case "DebuggerStatement":
      return undefined
    case "FunctionDeclaration":
      FunctionDeclarationEvaluation(a, node)
      return undefined
    case "VariableDeclaration":
      yield* VariableDeclaration(a, node)
      return undefined
    case "ClassDeclaration": {
      const F = yield* ClassDefinitionEvaluation(a, node, node.id?.name ?? "")
      if (node.id !== null) yield* PutBindingValue(a, a.program.layout.ref(node.id), node.id.name, F, true)
      return undefined
    }
    case "IfStatement":
      return yield* IfStatement(a, node)
    case "ReturnStatement": {
      if (node.argument === null) return ReturnCompletion(undefined)
      // An async generator awaits a returned expression; a bare `return` does not await (ReturnStatement step 3).
      let v = yield* Evaluate(a, node.argument)
      if (a.code.functionKind === "asyncGenerator") v = yield* Await(a, v)
      return ReturnCompletion(v)
    }
    case "ThrowStatement":
      throw new ThrowCompletion(yield* Evaluate(a, node.argument))
    case "TryStatement":
      return yield* TryStatement(a, node)
    case "LabeledStatement":
      return yield* LabeledStatement(a, node, labels)
    case "BreakStatement":
    case "ContinueStatement":
      return BreakOrContinue(node)
    case "WhileStatement":
      return yield* WhileStatement(a, node, labels)
    case "DoWhileStatement":
      return yield* DoWhileStatement(a, node, labels)
    case "ForStatement":
      return yield* ForStatement(a, node, labels)
    case "ForInStatement":
    case "ForOfStatement":
      return yield* ForInOfStatement(a, node, labels)
    case "SwitchStatement":
      return yield* SwitchStatement(a, node, labels)
    case "WithStatement":
      throw new Error("codemode bug: `with` reached the interpreter")
    default:
      return unreachable(node)
  }
}

/** UpdateEmpty(stmt, undefined): the statement's completion is at least undefined. */
export const resetCompletion = (a: Activation): void => {
  if (a.code.role === "program") a.completion = undefined
}

/** Enters a block-like scope: its record, then its hoisted function declarations. */
export const enterBlockScope = (a: Activation, scope: Scope): void => {
  a.env = a.program.layout.enter(scope, a.env)
  InstantiateFunctionDeclarations(a, scope)
}

function* BlockStatement(a: Activation, node: ESTree.Node, body: ReadonlyArray<ESTree.Statement>): Eval<Completion | undefined> {
  const scope = a.program.analysis.scopes.get(node)
  if (scope === undefined) return yield* StatementList(a, body)
  const outer = a.env
  enterBlockScope(a, scope)
  const c = yield* DisposingStatementList(a, body)
  a.env = outer
  return c
}

/** A statement list whose `using` declarations (if any) are disposed when it is left. */
export function* DisposingStatementList(a: Activation, list: ReadonlyArray<ESTree.Statement>): Eval<Completion | undefined> {
  const disposal = disposalOf(list)
  if (disposal === undefined) return yield* StatementList(a, list)
  return yield* WithDisposal(a, disposal === "async", StatementList(a, list))
}

/**
 * Evaluates `body` with `capability` as the innermost dispose capability (its scope's `using` declarations add
 * to it), then DisposeResources (https://tc39.es/proposal-explicit-resource-management/#sec-disposeresources)
 * however it was left; `async`: disposal awaits (`await using`).
 */
function* WithDisposal(a: Activation, async: boolean, body: Eval<Completion | undefined>, capability = NewDisposeCapability()): Eval<Completion | undefined> {
  const caps = (a.disposeCaps ??= [])
  caps.push(capability)
  let c: Completion | undefined
  let thrown: ThrowCompletion | undefined
  try {
    c = yield* body
  } catch (e) {
    if (e instanceof GeneratorReturn) c = new Completion("return", undefined, e.value)
    else thrown = toThrowCompletion(a.realm, e)
  } finally {
    caps.pop()
  }
  DisposeBegin(capability, thrown !== undefined, thrown?.value)
  for (;;) {
    const next = yield* slow(DisposeNext(a.realm, capability))
    if (next === EMPTY) break
    if (!async) throw new Error("codemode bug: a sync dispose capability has something to await")
    try {
      yield* Await(a, next)
    } catch (e) {
      DisposeRecordError(a.realm, capability, toThrowCompletion(a.realm, e).value)
    }
  }
  DisposeEnd(capability)
  if (thrown !== undefined) throw thrown
  return c
}

export function* VariableDeclaration(a: Activation, node: ESTree.VariableDeclaration): Eval<void> {
  for (const d of node.declarations) {
    let v: Value
    if (d.init === null) {
      if (node.kind === "var") continue
      v = undefined
    } else if (d.id.type === "Identifier") v = yield* NamedEvaluation(a, d.init, d.id.name)
    else v = yield* Evaluate(a, d.init)
    if (node.kind === "using" || node.kind === "await using") {
      const capability = a.disposeCaps?.[a.disposeCaps.length - 1]
      if (capability === undefined) throw new Error("codemode bug: a using declaration outside a disposing scope")
      yield* slow(AddDisposableResource(a.realm, capability, v, node.kind === "using" ? "sync-dispose" : "async-dispose"))
    }
    yield* BindingInitialization(a, d.id, v, true, d.init ?? undefined)
  }
}

function* IfStatement(a: Activation, node: ESTree.IfStatement): Eval<Completion | undefined> {
  resetCompletion(a)
  if (ToBoolean(yield* Evaluate(a, node.test))) return yield* Statement(a, node.consequent, NO_LABELS)
  if (node.alternate === null) return undefined
  return yield* Statement(a, node.alternate, NO_LABELS)
}

function* LabeledStatement(a: Activation, node: ESTree.LabeledStatement, labels: ReadonlyArray<string>): Eval<Completion | undefined> {
  const all = [...labels, node.label.name]
  const body = node.body
  switch (body.type) {
    case "WhileStatement":
    case "DoWhileStatement":
    case "ForStatement":
    case "ForInStatement":
    case "ForOfStatement":
    case "LabeledStatement":
      return yield* Statement(a, body, all)
    default: {
      const c = yield* Statement(a, body, NO_LABELS)
      if (c !== undefined && c.type === "break" && c.label !== undefined && all.includes(c.label)) return undefined
      return c
    }
  }
}

/** How a loop goes on after its body completed with `c`: "next" iteration, "exit" normally, or propagate. */
export const loopContinues = (c: Completion | undefined, labels: ReadonlyArray<string>): "next" | "exit" | Completion => {
  if (c === undefined) return "next"
  if (c.type === "return") return c
  const own = c.label === undefined || labels.includes(c.label)
  if (!own) return c
  return c.type === "continue" ? "next" : "exit"
}

function* WhileStatement(a: Activation, node: ESTree.WhileStatement, labels: ReadonlyArray<string>): Eval<Completion | undefined> {
  resetCompletion(a)
  const m = a.m
  while (ToBoolean(yield* Evaluate(a, node.test))) {
    const next = loopContinues(yield* Statement(a, node.body, NO_LABELS), labels)
    if (next === "exit") return undefined
    if (next !== "next") return next
    if (--m.steps <= 0) yield TICK
  }
  return undefined
}

function* DoWhileStatement(a: Activation, node: ESTree.DoWhileStatement, labels: ReadonlyArray<string>): Eval<Completion | undefined> {
  resetCompletion(a)
  const m = a.m
  for (;;) {
    const next = loopContinues(yield* Statement(a, node.body, NO_LABELS), labels)
    if (next === "exit") return undefined
    if (next !== "next") return next
    if (!ToBoolean(yield* Evaluate(a, node.test))) return undefined
    if (--m.steps <= 0) yield TICK
  }
}

/** CreatePerIterationEnvironment: a copy of the loop's record, so closures capture each iteration's bindings. */
export const copyEnv = (a: Activation): void => {
  const env = a.env as Env
  a.env = new Env(env.scope, env.slots.slice(), env.parent)
}

function* ForStatement(a: Activation, node: ESTree.ForStatement, labels: ReadonlyArray<string>): Eval<Completion | undefined> {
  resetCompletion(a)
  const scope = a.program.analysis.scopes.get(node)
  const perIteration = scope !== undefined && scope.hasCaptured && node.init?.type === "VariableDeclaration" && node.init.kind === "let"
  const outer = a.env
  if (scope !== undefined) a.env = a.program.layout.enter(scope, outer)
  const disposal = headDisposalOf(node.init)
  try {
    if (disposal === undefined) return yield* ForLoop(a, node, labels, perIteration)
    return yield* WithDisposal(a, disposal === "async", ForLoop(a, node, labels, perIteration))
  } finally {
    a.env = outer
  }
}

/** A for statement from its initialization on, in its scope. */
function* ForLoop(a: Activation, node: ESTree.ForStatement, labels: ReadonlyArray<string>, perIteration: boolean): Eval<Completion | undefined> {
  const m = a.m
  if (node.init !== null) {
    if (node.init.type === "VariableDeclaration") yield* VariableDeclaration(a, node.init)
    else yield* Evaluate(a, node.init)
  }
  if (perIteration) copyEnv(a)
  for (;;) {
    if (node.test !== null && !ToBoolean(yield* Evaluate(a, node.test))) return undefined
    const next = loopContinues(yield* Statement(a, node.body, NO_LABELS), labels)
    if (next === "exit") return undefined
    if (next !== "next") return next
    if (perIteration) copyEnv(a)
    if (node.update !== null) yield* Evaluate(a, node.update)
    if (--m.steps <= 0) yield TICK
  }
}

function* ForInOfStatement(a: Activation, node: ESTree.ForInStatement | ESTree.ForOfStatement, labels: ReadonlyArray<string>): Eval<Completion | undefined> {
  resetCompletion(a)
  const realm = a.realm
  const layout = a.program.layout
  const scope = a.program.analysis.scopes.get(node)
  const outer = a.env
  const init = forInVarInitializer(node)
  if (init !== undefined) {
    const v = yield* NamedEvaluation(a, init.value, init.id.name)
    yield* PutBindingValue(a, layout.ref(init.id), init.id.name, v, false)
  }
  // The right-hand side is evaluated with the loop's bindings in their TDZ.
  if (scope !== undefined) a.env = layout.enter(scope, outer)
  const rhs = yield* Evaluate(a, node.right)
  a.env = outer
  if (node.type === "ForInStatement") {
    const it = ForInIteratorOf(realm, rhs)
    for (;;) {
      const key = ForInNext(it)
      if (key === undefined) return undefined
      const next = loopContinues(yield* ForBody(a, node, scope, key), labels)
      a.env = outer
      if (next === "exit") return undefined
      if (next !== "next") return next
      if (--a.m.steps <= 0) yield TICK
    }
  }
  const isAwait = node.await
  const site = iterableSite(node.right, isAwait ? "forAwait" : "forOf")
  const record = (isAwait ? yield* slow(GetAsyncIteratorTask(realm, rhs, site)) : yield* slow(GetIteratorTask(realm, rhs, site))) as unknown as IteratorRecord
  for (;;) {
    let v: Value | Empty
    if (!isAwait) {
      const step = iteratorStepFast(realm, record)
      v = isTask(step) ? yield* slow(step as Task<Value | Empty>) : (step as Value | Empty)
    } else {
      const result = yield { kind: "call", f: record.nextMethod as JSObject, thisArg: record.iterator, args: [] }
      v = yield* slow(IterResultValueTask(yield* Await(a, result)))
    }
    if (v === EMPTY) return undefined
    let c: Completion | undefined
    try {
      c = yield* ForBody(a, node, scope, v)
    } catch (e) {
      a.env = outer
      if (e instanceof GeneratorReturn) {
        c = new Completion("return", undefined, e.value)
      } else {
        const tc = toThrowCompletion(realm, e)
        if (isAwait) yield* AsyncIteratorCloseOnThrow(a, record, tc)
        else yield* slow(IteratorCloseForThrow(realm, record, tc.value))
        throw tc
      }
    }
    a.env = outer
    const next = loopContinues(c, labels)
    if (next === "next") {
      if (--a.m.steps <= 0) yield TICK
      continue
    }
    // Leaving the loop early (break, return, an outer label) closes the iterator.
    if (isAwait) yield* AsyncIteratorClose(a, record)
    else yield* slow(IteratorCloseIfNotDone(realm, record))
    return next === "exit" ? undefined : next
  }
}

/** One iteration of a for-in/of body: bind the value to the head, then run the body. */
function* ForBody(a: Activation, node: ESTree.ForInStatement | ESTree.ForOfStatement, scope: Scope | undefined, v: Value): Eval<Completion | undefined> {
  const left = node.left
  if (left.type === "VariableDeclaration") {
    if (scope !== undefined) a.env = a.program.layout.enter(scope, a.env)
    const disposal = headDisposalOf(left)
    if (disposal !== undefined) {
      // Each iteration's resource is disposed after its body (ForIn/OfBodyEvaluation step 3.o).
      const capability = NewDisposeCapability()
      yield* slow(AddDisposableResource(a.realm, capability, v, disposal === "sync" ? "sync-dispose" : "async-dispose"))
      yield* BindingInitialization(a, (left.declarations[0] as ESTree.VariableDeclarator).id, v, true, "forDeclaration")
      return yield* WithDisposal(a, disposal === "async", Statement(a, node.body, NO_LABELS), capability)
    }
    yield* BindingInitialization(a, (left.declarations[0] as ESTree.VariableDeclarator).id, v, left.kind !== "var", "forDeclaration")
  } else {
    yield* BindTarget(a, left as ESTree.Pattern, v)
  }
  return yield* Statement(a, node.body, NO_LABELS)
}

/** AsyncIteratorClose with a throw completion: call `return`, await it, ignore any failure, rethrow. */
function* AsyncIteratorCloseOnThrow(a: Activation, record: IteratorRecord, tc: ThrowCompletion): Eval<never> {
  try {
    const result = yield* slow(AsyncIterReturnTask(a.realm, record))
    if (result !== EMPTY) yield* Await(a, result)
  } catch (e) {
    if (e instanceof GeneratorReturn) throw e
    toThrowCompletion(a.realm, e)
  }
  throw tc
}

function* SwitchStatement(a: Activation, node: ESTree.SwitchStatement, labels: ReadonlyArray<string>): Eval<Completion | undefined> {
  resetCompletion(a)
  const disc = yield* Evaluate(a, node.discriminant)
  const scope = a.program.analysis.scopes.get(node)
  const outer = a.env
  if (scope !== undefined) enterBlockScope(a, scope)
  try {
    let start = -1
    for (let i = 0; i < node.cases.length; i++) {
      const test = (node.cases[i] as ESTree.SwitchCase).test
      if (test === null) continue
      if (disc === (yield* Evaluate(a, test))) {
        start = i
        break
      }
    }
    if (start < 0) start = node.cases.findIndex((c) => c.test === null)
    if (start < 0) return undefined
    for (let i = start; i < node.cases.length; i++) {
      const c = yield* StatementList(a, (node.cases[i] as ESTree.SwitchCase).consequent)
      if (c === undefined) continue
      if (c.type === "break" && (c.label === undefined || labels.includes(c.label))) return undefined
      return c
    }
    return undefined
  } finally {
    a.env = outer
  }
}

function* TryStatement(a: Activation, node: ESTree.TryStatement): Eval<Completion | undefined> {
  resetCompletion(a)
  const realm = a.realm
  const env = a.env
  let c: Completion | undefined
  let thrown: ThrowCompletion | undefined
  try {
    c = yield* Statement(a, node.block, NO_LABELS)
  } catch (e) {
    if (e instanceof GeneratorReturn) {
      if (node.finalizer === null) throw e
      c = new Completion("return", undefined, e.value)
    } else {
      const tc = toThrowCompletion(realm, e)
      a.env = env
      if (node.handler === null) thrown = tc
      else {
        try {
          c = yield* CatchClause(a, node.handler, tc.value)
        } catch (e2) {
          if (e2 instanceof GeneratorReturn) {
            if (node.finalizer === null) throw e2
            c = new Completion("return", undefined, e2.value)
          } else thrown = toThrowCompletion(realm, e2)
        }
      }
    }
  }
  a.env = env
  if (node.finalizer === null) {
    if (thrown !== undefined) throw thrown
    return c
  }
  // The finally block's own normal completion does not replace the statement's completion value; an abrupt one
  // carries the finally block's value (UpdateEmpty(F, undefined)).
  const saved = a.completion
  resetCompletion(a)
  const f = yield* Statement(a, node.finalizer, NO_LABELS)
  if (f !== undefined) return f
  a.completion = saved
  if (thrown !== undefined) throw thrown
  return c
}

function* CatchClause(a: Activation, node: ESTree.CatchClause, thrown: Value): Eval<Completion | undefined> {
  const scope = a.program.analysis.scopes.get(node)
  const outer = a.env
  if (scope !== undefined) enterBlockScope(a, scope)
  if (node.param !== null) yield* BindingInitialization(a, node.param, thrown, true, "catch")
  const c = yield* DisposingStatementList(a, node.body.body)
  a.env = outer
  return c
}
