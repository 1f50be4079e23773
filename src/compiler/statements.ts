/**
 * Statements (https://tc39.es/ecma262/#sec-ecmascript-language-statements-and-declarations), one function per
 * production. Loops keep their state (iterators, for-in enumerators, switch discriminants) in registers, so the
 * operand stack is empty at every statement boundary and `break`/`continue` never need to unwind it. `finally`
 * blocks are compiled once: every way into them (normal completion, throw, break/continue/return through them)
 * records a completion kind in a register and the end of the block dispatches on it.
 *
 * In the program body the statement completion value (what node:vm's script result would be) is tracked in a
 * register: expression statements store into it, and statements whose completion is UpdateEmpty(..., undefined)
 * (if, loops, switch, try) reset it to undefined first.
 */
import type { ESTree } from "meriyah"
import type { Scope } from "../language/scope.ts"
import { disposalOf, forInVarInitializer, headDisposalOf } from "../language/static-semantics.ts"
import { iterableSite } from "../language/call-printer.ts"
import { Op, unreachable } from "../bytecode/opcodes.ts"
import { CompletionKind, type ControlEntry, type FunctionCompiler } from "./context.ts"
import { compileEffect, compileExpression, compileJumpIfFalse, compileNamedExpression, siteConstant } from "./expressions.ts"
import { compileClass, instantiateFunctionDeclarations } from "./functions.ts"
import { bindTarget, destructure } from "./patterns.ts"

export function compileStatements(fc: FunctionCompiler, list: ReadonlyArray<ESTree.Statement>): void {
  for (const s of list) compileStatement(fc, s, [])
}

export function compileStatement(fc: FunctionCompiler, node: ESTree.Statement, labels: ReadonlyArray<string>): void {
  fc.enterStatement(node)
  try {
    statement(fc, node, labels)
  } finally {
    fc.leave()
  }
}

function statement(fc: FunctionCompiler, node: ESTree.Statement, labels: ReadonlyArray<string>): void {
  switch (node.type) {
    case "ExpressionStatement":
      if (fc.completionReg === undefined) return compileEffect(fc, node.expression)
      compileExpression(fc, node.expression)
      fc.emit(Op.StoreReg, fc.completionReg)
      return
    case "BlockStatement":
      return BlockStatement(fc, node, node.body)
    case "EmptyStatement":
    case "DebuggerStatement":
      return
    case "VariableDeclaration":
      return VariableDeclaration(fc, node)
    case "FunctionDeclaration": {
      // Instantiated when its scope is entered; a sloppy block-level function also sets its Annex B var binding.
      const v = fc.program.analysis.annexBFunctions.get(node)
      if (v === undefined) return
      fc.load(fc.resolution(node.id!), node.id!.name)
      fc.storeBinding(v, false)
      return
    }
    case "ClassDeclaration": {
      compileClass(fc, node, node.id?.name ?? "")
      if (node.id !== null) fc.store(fc.resolution(node.id), node.id.name, true)
      else fc.emit(Op.Pop)
      return
    }
    case "IfStatement":
      return IfStatement(fc, node)
    case "ReturnStatement":
      // An async generator awaits a returned expression; a bare `return` does not await (ReturnStatement step 3).
      if (node.argument === null) fc.emit(Op.Undefined)
      else {
        compileExpression(fc, node.argument)
        if (fc.functionKind === "asyncGenerator") {
          fc.emit(Op.AwaitPrepare)
          fc.emit(Op.Await)
        }
      }
      fc.emitReturn()
      return
    case "ThrowStatement":
      compileExpression(fc, node.argument)
      fc.emit(Op.Throw)
      return
    case "TryStatement":
      return TryStatement(fc, node)
    case "LabeledStatement":
      return LabeledStatement(fc, node, labels)
    case "BreakStatement":
    case "ContinueStatement":
      return BreakOrContinue(fc, node)
    case "WhileStatement":
      return WhileStatement(fc, node, labels)
    case "DoWhileStatement":
      return DoWhileStatement(fc, node, labels)
    case "ForStatement":
      return ForStatement(fc, node, labels)
    case "ForInStatement":
    case "ForOfStatement":
      return ForInOfStatement(fc, node, labels)
    case "SwitchStatement":
      return SwitchStatement(fc, node, labels)
    case "WithStatement":
      throw new Error("codemode bug: `with` reached the compiler")
    default:
      return unreachable(node)
  }
}

/** UpdateEmpty(stmt, undefined): the statement's completion is at least undefined. */
function resetCompletion(fc: FunctionCompiler): void {
  if (fc.completionReg === undefined) return
  fc.emit(Op.Undefined)
  fc.emit(Op.StoreReg, fc.completionReg)
}

function BlockStatement(fc: FunctionCompiler, node: ESTree.Node, body: ReadonlyArray<ESTree.Statement>): void {
  const scope = fc.program.analysis.scopes.get(node)
  if (scope !== undefined) enterBlockScope(fc, scope)
  compileDisposingStatements(fc, body)
  if (scope !== undefined) fc.exitScope(scope)
}

/** A statement list whose `using` declarations (if any) are disposed when it is left. */
export function compileDisposingStatements(fc: FunctionCompiler, list: ReadonlyArray<ESTree.Statement>): void {
  const disposal = disposalOf(list)
  if (disposal === undefined) compileStatements(fc, list)
  else withDisposal(fc, disposal === "async", () => compileStatements(fc, list))
}

export function enterBlockScope(fc: FunctionCompiler, scope: Scope): void {
  fc.enterScope(scope)
  instantiateFunctionDeclarations(fc, scope)
}

function VariableDeclaration(fc: FunctionCompiler, node: ESTree.VariableDeclaration): void {
  for (const d of node.declarations) {
    if (d.init === null) {
      if (node.kind === "var") continue
      fc.emit(Op.Undefined)
    } else if (d.id.type === "Identifier") {
      compileNamedExpression(fc, d.init, d.id.name)
    } else {
      compileExpression(fc, d.init)
    }
    if (node.kind === "using" || node.kind === "await using") addDisposable(fc, node.kind === "await using")
    destructure(fc, d.id, true, d.init ?? undefined)
  }
}

/** A `using` value on the stack joins the innermost dispose capability (AddDisposableResource). */
function addDisposable(fc: FunctionCompiler, async: boolean): void {
  const capability = fc.disposeCaps[fc.disposeCaps.length - 1]
  if (capability === undefined) throw new Error("codemode bug: a using declaration outside a disposing scope")
  fc.emit(Op.LoadReg, capability)
  fc.emit(Op.AddDisposable, async ? 1 : 0)
}

function IfStatement(fc: FunctionCompiler, node: ESTree.IfStatement): void {
  resetCompletion(fc)
  const otherwise = fc.label()
  compileJumpIfFalse(fc, node.test, otherwise)
  compileStatement(fc, node.consequent, [])
  if (node.alternate === null) {
    fc.place(otherwise)
    return
  }
  const end = fc.label()
  fc.jump(Op.Jump, end)
  fc.place(otherwise)
  compileStatement(fc, node.alternate, [])
  fc.place(end)
}

function LabeledStatement(fc: FunctionCompiler, node: ESTree.LabeledStatement, labels: ReadonlyArray<string>): void {
  const all = [...labels, node.label.name]
  const body = node.body
  if (
    body.type === "WhileStatement" ||
    body.type === "DoWhileStatement" ||
    body.type === "ForStatement" ||
    body.type === "ForInStatement" ||
    body.type === "ForOfStatement" ||
    body.type === "LabeledStatement"
  ) {
    compileStatement(fc, body, all)
    return
  }
  const entry: ControlEntry = {
    kind: "breakable",
    labels: all,
    isLoop: false,
    unlabeledBreak: false,
    breakLabel: fc.label(),
    continueLabel: undefined,
    breakEnvDepth: fc.envChain.length,
    continueEnvDepth: fc.envChain.length,
  }
  fc.control.push(entry)
  compileStatement(fc, body, [])
  fc.control.pop()
  fc.place(entry.breakLabel)
}

function BreakOrContinue(fc: FunctionCompiler, node: ESTree.BreakStatement | ESTree.ContinueStatement): void {
  const isBreak = node.type === "BreakStatement"
  const label = node.label?.name
  for (let i = fc.control.length - 1; i >= 0; i--) {
    const c = fc.control[i] as ControlEntry
    if (c.kind !== "breakable") continue
    const matches = label === undefined ? (isBreak ? c.unlabeledBreak : c.isLoop) : c.labels.includes(label) && (isBreak || c.isLoop)
    if (!matches) continue
    const target = isBreak ? c.breakLabel : c.continueLabel
    if (target === undefined) throw new Error("codemode bug: continue target missing")
    // `continue` stays inside its own for-of/for-await loop: that loop's iterator (the entry just above it) stays open.
    const keepsOwnIterator = !isBreak && fc.control[i + 1]?.kind === "iterator"
    fc.exitTo(keepsOwnIterator ? i + 1 : i, isBreak ? c.breakEnvDepth : c.continueEnvDepth, false, () => fc.jump(Op.Jump, target))
    return
  }
  throw new Error(`codemode bug: no target for ${node.type}`)
}

function loopEntry(fc: FunctionCompiler, labels: ReadonlyArray<string>, breakEnvDepth: number, continueEnvDepth: number) {
  return {
    kind: "breakable" as const,
    labels,
    isLoop: true,
    unlabeledBreak: true,
    breakLabel: fc.label(),
    continueLabel: fc.label(),
    breakEnvDepth,
    continueEnvDepth,
  }
}

function WhileStatement(fc: FunctionCompiler, node: ESTree.WhileStatement, labels: ReadonlyArray<string>): void {
  resetCompletion(fc)
  const entry = loopEntry(fc, labels, fc.envChain.length, fc.envChain.length)
  const top = fc.label()
  fc.place(top)
  compileJumpIfFalse(fc, node.test, entry.breakLabel)
  fc.control.push(entry)
  compileStatement(fc, node.body, [])
  fc.control.pop()
  fc.place(entry.continueLabel)
  fc.jump(Op.Jump, top)
  fc.place(entry.breakLabel)
}

function DoWhileStatement(fc: FunctionCompiler, node: ESTree.DoWhileStatement, labels: ReadonlyArray<string>): void {
  resetCompletion(fc)
  const entry = loopEntry(fc, labels, fc.envChain.length, fc.envChain.length)
  const top = fc.label()
  fc.place(top)
  fc.control.push(entry)
  compileStatement(fc, node.body, [])
  fc.control.pop()
  fc.place(entry.continueLabel)
  compileExpression(fc, node.test)
  fc.jump(Op.JumpIfTrue, top)
  fc.place(entry.breakLabel)
}

function ForStatement(fc: FunctionCompiler, node: ESTree.ForStatement, labels: ReadonlyArray<string>): void {
  resetCompletion(fc)
  const scope = fc.program.analysis.scopes.get(node)
  const perIteration = scope !== undefined && fc.program.isMaterialized(scope) && node.init?.type === "VariableDeclaration" && node.init.kind === "let"
  if (scope !== undefined) fc.enterScope(scope)
  const disposal = headDisposalOf(node.init)
  if (disposal === undefined) ForLoop(fc, node, labels, perIteration)
  else withDisposal(fc, disposal === "async", () => ForLoop(fc, node, labels, perIteration))
  if (scope !== undefined) fc.exitScope(scope)
}

/** A for statement from its initialization on, in its scope. */
function ForLoop(fc: FunctionCompiler, node: ESTree.ForStatement, labels: ReadonlyArray<string>, perIteration: boolean): void {
  if (node.init !== null) {
    if (node.init.type === "VariableDeclaration") VariableDeclaration(fc, node.init)
    else compileEffect(fc, node.init)
  }
  if (perIteration) fc.emit(Op.CopyEnv)
  const entry = loopEntry(fc, labels, fc.envChain.length, fc.envChain.length)
  const top = fc.label()
  fc.place(top)
  if (node.test !== null) {
    compileJumpIfFalse(fc, node.test, entry.breakLabel)
  }
  fc.control.push(entry)
  compileStatement(fc, node.body, [])
  fc.control.pop()
  fc.place(entry.continueLabel)
  if (perIteration) fc.emit(Op.CopyEnv)
  if (node.update !== null) compileEffect(fc, node.update)
  fc.jump(Op.Jump, top)
  fc.place(entry.breakLabel)
}

function ForInOfStatement(fc: FunctionCompiler, node: ESTree.ForInStatement | ESTree.ForOfStatement, labels: ReadonlyArray<string>): void {
  resetCompletion(fc)
  const isOf = node.type === "ForOfStatement"
  const isAwait = isOf && node.await
  const scope = fc.program.analysis.scopes.get(node)
  const init = forInVarInitializer(node)
  if (init !== undefined) {
    compileNamedExpression(fc, init.value, init.id.name)
    fc.store(fc.resolution(init.id), init.id.name, false)
  }
  // The right-hand side is evaluated with the loop's bindings in their TDZ.
  if (scope !== undefined) fc.enterScope(scope)
  compileExpression(fc, node.right)
  if (scope !== undefined) fc.exitScope(scope)
  const iterReg = fc.allocReg()
  if (!isOf) fc.emit(Op.ForInPrepare)
  else fc.emit(isAwait ? Op.GetAsyncIterator : Op.GetIterator, siteConstant(fc, iterableSite(node.right, isAwait ? "forAwait" : "forOf")), 1)
  fc.emit(Op.StoreReg, iterReg)
  const savedEnv = isOf ? fc.saveEnvForHandler() : undefined
  const loopDepth = fc.envChain.length
  const iterationEnv = scope !== undefined && fc.program.isMaterialized(scope) ? 1 : 0
  const entry = loopEntry(fc, labels, loopDepth, loopDepth + iterationEnv)
  fc.control.push(entry)
  if (isOf) fc.control.push({ kind: "iterator", iterReg, async: isAwait })
  const top = fc.label()
  fc.place(top)
  if (!isOf) fc.jump(Op.ForInStep, entry.breakLabel, iterReg)
  else if (!isAwait) {
    fc.emit(Op.ForOfStep, iterReg)
    fc.jump(Op.JumpIfDone, entry.breakLabel)
  } else {
    fc.emit(Op.LoadReg, iterReg)
    fc.emit(Op.IterNextCall)
    fc.emit(Op.AwaitPrepare)
    fc.emit(Op.Await)
    fc.emit(Op.IterResultValue)
    fc.jump(Op.JumpIfDone, entry.breakLabel)
  }
  // The value is on the stack; from here until the next step an abrupt completion closes the iterator.
  const bodyStart = fc.asm.pc
  const left = node.left
  const disposal = headDisposalOf(left)
  if (left.type === "VariableDeclaration" && scope !== undefined) fc.enterScope(scope)
  if (left.type === "VariableDeclaration" && disposal !== undefined) {
    // Each iteration's resource is disposed after its body (ForIn/OfBodyEvaluation step 3.o).
    const capability = newDisposeCapability(fc)
    addDisposable(fc, disposal === "async")
    destructure(fc, (left.declarations[0] as ESTree.VariableDeclarator).id, true, "forDeclaration")
    disposeOnExit(fc, capability, disposal === "async", () => compileStatement(fc, node.body, []))
    fc.disposeCaps.pop()
    fc.freeReg(capability)
  } else {
    if (left.type === "VariableDeclaration") destructure(fc, (left.declarations[0] as ESTree.VariableDeclarator).id, left.kind !== "var", "forDeclaration")
    else bindTarget(fc, left as ESTree.Pattern)
    compileStatement(fc, node.body, [])
  }
  fc.place(entry.continueLabel)
  if (scope !== undefined && left.type === "VariableDeclaration") fc.exitScope(scope)
  fc.jump(Op.Jump, top)
  const bodyEnd = fc.asm.pc
  if (isOf) {
    fc.control.pop()
    const onThrow = fc.label()
    fc.asm.handler(bodyStart, bodyEnd, onThrow, 0)
    fc.place(onThrow)
    fc.restoreEnvInHandler(savedEnv)
    if (isAwait) asyncIteratorCloseOnThrow(fc, iterReg, savedEnv)
    else {
      fc.emit(Op.LoadReg, iterReg)
      fc.emit(Op.IterCloseForThrow)
    }
  }
  fc.control.pop()
  fc.place(entry.breakLabel)
  fc.freeReg(iterReg)
}

/** AsyncIteratorClose with a throw completion: call `return`, await it, ignore any failure, rethrow. */
function asyncIteratorCloseOnThrow(fc: FunctionCompiler, iterReg: number, savedEnv: number | undefined): void {
  const exc = fc.allocReg()
  fc.emit(Op.StoreReg, exc)
  const start = fc.asm.pc
  const none = fc.label()
  fc.emit(Op.LoadReg, iterReg)
  fc.emit(Op.AsyncIterReturn)
  fc.jump(Op.JumpIfDone, none)
  fc.emit(Op.AwaitPrepare)
  fc.emit(Op.Await)
  fc.emit(Op.Pop)
  const end = fc.asm.pc
  fc.place(none)
  fc.emit(Op.LoadReg, exc)
  fc.emit(Op.Throw)
  const swallow = fc.label()
  fc.asm.handler(start, end, swallow, 0)
  fc.place(swallow)
  fc.restoreEnvInHandler(savedEnv)
  fc.emit(Op.Pop)
  fc.emit(Op.LoadReg, exc)
  fc.emit(Op.Throw)
  fc.freeReg(exc)
}

function SwitchStatement(fc: FunctionCompiler, node: ESTree.SwitchStatement, labels: ReadonlyArray<string>): void {
  resetCompletion(fc)
  compileExpression(fc, node.discriminant)
  const disc = fc.allocReg()
  fc.emit(Op.StoreReg, disc)
  const scope = fc.program.analysis.scopes.get(node)
  if (scope !== undefined) enterBlockScope(fc, scope)
  const entry: ControlEntry = {
    kind: "breakable",
    labels,
    isLoop: false,
    unlabeledBreak: true,
    breakLabel: fc.label(),
    continueLabel: undefined,
    breakEnvDepth: fc.envChain.length,
    continueEnvDepth: fc.envChain.length,
  }
  const caseLabels = node.cases.map(() => fc.label())
  node.cases.forEach((c, i) => {
    if (c.test === null) return
    fc.emit(Op.LoadReg, disc)
    compileExpression(fc, c.test)
    fc.emit(Op.StrictEq)
    fc.jump(Op.JumpIfTrue, caseLabels[i]!)
  })
  const defaultIndex = node.cases.findIndex((c) => c.test === null)
  fc.jump(Op.Jump, defaultIndex >= 0 ? caseLabels[defaultIndex]! : entry.breakLabel)
  fc.control.push(entry)
  node.cases.forEach((c, i) => {
    fc.place(caseLabels[i]!)
    compileStatements(fc, c.consequent)
  })
  fc.control.pop()
  fc.place(entry.breakLabel)
  if (scope !== undefined) fc.exitScope(scope)
  fc.freeReg(disc)
}

function TryStatement(fc: FunctionCompiler, node: ESTree.TryStatement): void {
  resetCompletion(fc)
  const savedEnv = fc.saveEnvForHandler()
  const tryCatch = (): void => {
    const tryStart = fc.asm.pc
    compileStatement(fc, node.block, [])
    const tryEnd = fc.asm.pc
    if (node.handler === null) return
    const after = fc.label()
    fc.jump(Op.Jump, after)
    const onThrow = fc.label()
    fc.asm.handler(tryStart, tryEnd, onThrow, 0)
    fc.place(onThrow)
    fc.restoreEnvInHandler(savedEnv)
    CatchClause(fc, node.handler)
    fc.place(after)
  }
  if (node.finalizer === null) return tryCatch()
  withFinally(fc, savedEnv, tryCatch, () => {
    // The finally block's own normal completion does not replace the statement's completion value; an abrupt one
    // (break, continue) carries the finally block's value (UpdateEmpty(F, undefined)).
    const savedCompletion = fc.completionReg === undefined ? undefined : fc.allocReg()
    if (savedCompletion !== undefined) {
      fc.emit(Op.LoadReg, fc.completionReg!)
      fc.emit(Op.StoreReg, savedCompletion)
      resetCompletion(fc)
    }
    compileStatement(fc, node.finalizer!, [])
    if (savedCompletion !== undefined) {
      fc.emit(Op.LoadReg, savedCompletion)
      fc.emit(Op.StoreReg, fc.completionReg!)
      fc.freeReg(savedCompletion)
    }
  })
}

/**
 * `body` protected by `finalizer`, a finally block: every way out of the body — its normal end, a throw, a
 * break/continue/return through it — records a completion kind in `kindReg` (the thrown or returned value in
 * `valueReg`), runs the finalizer, and then carries on as the body would have.
 */
function withFinally(
  fc: FunctionCompiler,
  savedEnv: number | undefined,
  body: () => void,
  finalizer: (kindReg: number, valueReg: number) => void,
): void {
  const fin = {
    kind: "finally" as const,
    entry: fc.label(),
    kindReg: fc.allocReg(),
    valueReg: fc.allocReg(),
    envDepth: fc.envChain.length,
    pending: [] as Array<{ readonly code: number; readonly continuation: () => void }>,
  }
  fc.control.push(fin)
  const tryStart = fc.asm.pc
  body()
  const protectedEnd = fc.asm.pc
  fc.control.pop()
  fc.emit(Op.Int, CompletionKind.Normal)
  fc.emit(Op.StoreReg, fin.kindReg)
  fc.jump(Op.Jump, fin.entry)
  const onThrow = fc.label()
  fc.asm.handler(tryStart, protectedEnd, onThrow, 0)
  fc.place(onThrow)
  fc.emit(Op.StoreReg, fin.valueReg)
  fc.emit(Op.Int, CompletionKind.Throw)
  fc.emit(Op.StoreReg, fin.kindReg)
  fc.restoreEnvInHandler(savedEnv)
  fc.place(fin.entry)
  finalizer(fin.kindReg, fin.valueReg)
  const afterThrow = fc.label()
  fc.emit(Op.LoadReg, fin.kindReg)
  fc.emit(Op.Int, CompletionKind.Throw)
  fc.emit(Op.StrictEq)
  fc.jump(Op.JumpIfFalse, afterThrow)
  fc.emit(Op.LoadReg, fin.valueReg)
  fc.emit(Op.Throw)
  fc.place(afterThrow)
  for (const p of fin.pending) {
    const next = fc.label()
    fc.emit(Op.LoadReg, fin.kindReg)
    fc.emit(Op.Int, p.code)
    fc.emit(Op.StrictEq)
    fc.jump(Op.JumpIfFalse, next)
    p.continuation()
    fc.place(next)
  }
  fc.freeReg(fin.kindReg)
  fc.freeReg(fin.valueReg)
}

/**
 * `body`, the code of a scope whose `using` declarations add resources to a new dispose capability, with those
 * resources disposed however the scope is left (DisposeResources, https://tc39.es/proposal-explicit-resource-management/#sec-disposeresources).
 * `async`: some are `await using`, so disposal awaits; a rejection joins the completion as a thrown error does.
 */
export function withDisposal(fc: FunctionCompiler, async: boolean, body: () => void): void {
  const capability = newDisposeCapability(fc)
  disposeOnExit(fc, capability, async, body)
  fc.disposeCaps.pop()
  fc.freeReg(capability)
}

/** A register holding a new dispose capability, which `using` declarations add to until it is popped. */
function newDisposeCapability(fc: FunctionCompiler): number {
  const capability = fc.allocReg()
  fc.emit(Op.NewDisposeCapability)
  fc.emit(Op.StoreReg, capability)
  fc.disposeCaps.push(capability)
  return capability
}

/** `body`, then DisposeResources of `capability` whatever way it is left. */
function disposeOnExit(fc: FunctionCompiler, capability: number, async: boolean, body: () => void): void {
  withFinally(fc, fc.saveEnvForHandler(), body, (kindReg, valueReg) => {
    fc.emit(Op.LoadReg, capability)
    fc.emit(Op.LoadReg, kindReg)
    fc.emit(Op.Int, CompletionKind.Throw)
    fc.emit(Op.StrictEq)
    fc.emit(Op.LoadReg, valueReg)
    fc.emit(Op.DisposeBegin)
    if (async) {
      const loop = fc.label()
      const done = fc.label()
      fc.place(loop)
      fc.emit(Op.LoadReg, capability)
      fc.emit(Op.DisposeNext)
      fc.jump(Op.JumpIfDone, done)
      const start = fc.asm.pc
      fc.emit(Op.AwaitPrepare)
      fc.emit(Op.Await)
      const stop = fc.asm.pc
      fc.emit(Op.Pop)
      fc.jump(Op.Jump, loop)
      const rejected = fc.label()
      fc.asm.handler(start, stop, rejected, 0)
      fc.place(rejected)
      fc.emit(Op.LoadReg, capability)
      fc.emit(Op.Swap)
      fc.emit(Op.DisposeRecordError)
      fc.jump(Op.Jump, loop)
      fc.place(done)
    } else {
      fc.emit(Op.LoadReg, capability)
      fc.emit(Op.DisposeNext)
      fc.emit(Op.Pop)
    }
    fc.emit(Op.LoadReg, capability)
    fc.emit(Op.DisposeEnd)
  })
}

function CatchClause(fc: FunctionCompiler, node: ESTree.CatchClause): void {
  const scope = fc.program.analysis.scopes.get(node)
  if (scope !== undefined) enterBlockScope(fc, scope)
  if (node.param === null) fc.emit(Op.Pop)
  else destructure(fc, node.param, true, "catch")
  compileDisposingStatements(fc, node.body.body)
  if (scope !== undefined) fc.exitScope(scope)
}
