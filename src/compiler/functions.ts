/**
 * Functions and classes. Each function node is compiled once into its own code object, whose prologue is
 * FunctionDeclarationInstantiation (https://tc39.es/ecma262/#sec-functiondeclarationinstantiation): the
 * function's environment (if a closure captures something), `this`/`new.target`/`arguments` when used, parameter
 * binding with defaults and patterns, the var environment, TDZ for lexical bindings, hoisted function
 * declarations. Registers 0..n-1 receive the arguments, so a simple parameter that no closure captures costs
 * nothing. Classes follow ClassDefinitionEvaluation (https://tc39.es/ecma262/#sec-runtime-semantics-classdefinitionevaluation):
 * field initializers and static blocks are compiled as methods called with the instance (or the class) as `this`.
 */
import type { ESTree } from "meriyah"
import { analyzeScopes, type Binding, FUNCTION_NESTING_WEIGHT, type FunctionInfo, MAX_NESTING, NestingTooDeep, type Scope } from "../language/scope.ts"
import {
  classHasInstanceElements,
  expectedArgumentCount,
  fieldInitializerName,
  functionKindOf,
  isAnonymousFunctionDefinition,
  methodSourceRange,
  roleOf,
  type SourceRange,
} from "../language/static-semantics.ts"
import { MethodKind, Op } from "../bytecode/opcodes.ts"
import type { CodeObject, CompiledProgram } from "../bytecode/code.ts"
import { type ClassInfo, FunctionCompiler, ProgramCompiler } from "./context.ts"
import { compileExpression, compileNamedExpression, compilePropertyKey, staticKey } from "./expressions.ts"
import { destructure } from "./patterns.ts"
import { compileDisposingStatements } from "./statements.ts"

type FunctionNode = ESTree.FunctionDeclaration | ESTree.FunctionExpression | ESTree.ArrowFunctionExpression

/** The input the compiler needs from a checked program. */
export interface ProgramSource {
  readonly ast: ESTree.Program
  readonly source: string
  readonly strict: boolean
}

export function compileProgram(program: ProgramSource): CompiledProgram {
  const analysis = analyzeScopes(program.ast, program.strict)
  const pc = new ProgramCompiler(analysis, program.source)
  const fi = analysis.program
  const id = pc.reserveId()
  const fc = new FunctionCompiler(pc, fi, { role: "program", functionKind: "async", strict: fi.strict, name: "", envChain: [], classInfo: undefined })
  compileBody(fc, fi, program.ast.body as ESTree.Statement[])
  const main = finish(fc, id, 0, 0, 0)
  pc.codes[id] = main
  return { codes: pc.codes, main }
}




/**
 * Compiles a nested function (or class element function) and returns its code id. `sourceNode` is the text
 * Function.prototype.toString shows (a method with its key, a class constructor as the whole class).
 */
export function compileFunctionNode(fc: FunctionCompiler, node: ESTree.Node, name: string, classInfo?: ClassInfo, sourceNode: SourceRange = node): number {
  const fi = fc.program.analysis.functions.get(node)
  if (fi === undefined) throw new Error(`codemode bug: no function info for ${node.type}`)
  fc.program.depth += FUNCTION_NESTING_WEIGHT
  if (fc.program.depth > MAX_NESTING) throw new NestingTooDeep(node.start ?? 0)
  try {
    return compileFunctionNodeInner(fc, fi, node, name, classInfo, sourceNode)
  } finally {
    fc.program.depth -= FUNCTION_NESTING_WEIGHT
  }
}

function compileFunctionNodeInner(fc: FunctionCompiler, fi: FunctionInfo, node: ESTree.Node, name: string, classInfo: ClassInfo | undefined, sourceNode: SourceRange): number {
  const id = fc.program.reserveId()
  const child = new FunctionCompiler(fc.program, fi, {
    role: roleOf(fi),
    functionKind: functionKindOf(fi),
    strict: fi.strict,
    name,
    envChain: fc.envChain,
    classInfo,
  })
  if (node.type === "PropertyDefinition") {
    // A field initializer: `return <value>`, the value named after the field.
    const def = node as ESTree.PropertyDefinition
    prologue(child, fi)
    const fieldName = fieldInitializerName(def)
    compileNamedExpression(child, def.value as ESTree.Expression, fieldName)
    child.emitFunctionEpilogue()
  } else if (node.type === "StaticBlock") {
    compileBody(child, fi, (node as ESTree.StaticBlock).body)
  } else {
    const f = node as FunctionNode
    if (f.body?.type === "BlockStatement") compileBody(child, fi, f.body.body)
    else {
      prologue(child, fi)
      compileExpression(child, f.body as ESTree.Expression)
      child.emitFunctionEpilogue()
    }
  }
  fc.program.codes[id] = finish(child, id, expectedArgumentCount(fi.params), sourceNode.start ?? 0, sourceNode.end ?? 0)
  return id
}

/** Pushes a closure of a function expression, arrow or method (`sourceNode`: a method's whole definition). */
export function compileFunctionExpression(
  fc: FunctionCompiler,
  node: ESTree.FunctionExpression | ESTree.ArrowFunctionExpression,
  name: string,
  sourceNode: ESTree.Node = node,
): void {
  const id = compileFunctionNode(fc, node, name, undefined, sourceNode)
  fc.emit(Op.Closure, id)
}

/** Creates the closures of a scope's hoisted function declarations. */
export function instantiateFunctionDeclarations(fc: FunctionCompiler, scope: Scope): void {
  for (const decl of scope.functionDeclarations) {
    const id = compileFunctionNode(fc, decl, decl.id?.name ?? "")
    fc.emit(Op.Closure, id)
    fc.store(fc.resolution(decl.id!), decl.id!.name, true)
  }
}

function compileBody(fc: FunctionCompiler, fi: FunctionInfo, body: ReadonlyArray<ESTree.Statement>): void {
  prologue(fc, fi)
  // The completion value is only needed if the body can reach its end (it does not end with `return`).
  if (fc.role === "program" && body[body.length - 1]?.type !== "ReturnStatement") {
    fc.completionReg = fc.allocReg()
    fc.emit(Op.Undefined)
    fc.emit(Op.StoreReg, fc.completionReg)
  }
  compileDisposingStatements(fc, body)
  if (fc.asm.depth < 0) fc.asm.depth = 0
  if (fc.completionReg !== undefined) {
    fc.emit(Op.LoadReg, fc.completionReg)
    fc.emit(Op.SetProgramCompletion)
  }
  fc.emit(Op.Undefined)
  fc.emitFunctionEpilogue()
}

/** https://tc39.es/ecma262/#sec-functiondeclarationinstantiation */
function prologue(fc: FunctionCompiler, fi: FunctionInfo): void {
  const params = fi.params
  const restIndex = params.findIndex((p) => p.type === "RestElement")
  fc.reserveParams(restIndex >= 0 ? restIndex : params.length)
  fc.mayPushBlockEnvs = fc.program.hasBlockEnvs(fi)
  if (fc.role === "classConstructor" && fc.classInfo?.hasInstanceElements === true) {
    // [[Construct]] of a base class initializes fields before the body (and its parameters) run.
    fc.emit(Op.LoadFrameFunction)
    fc.emit(Op.LoadFrameThis)
    fc.emit(Op.InitInstanceElements)
  }
  const paramRegs = new Map<Binding, number>()
  if (!fi.hasParameterExpressions && fi.hasSimpleParameterList) {
    params.forEach((p, i) => {
      const b = fi.scope.bindings.get((p as ESTree.Identifier).name)
      if (b !== undefined && !b.captured) paramRegs.set(b, i)
    })
  }
  fc.enterScope(fi.scope, paramRegs)
  const pseudo = (name: "this" | "new.target" | "function-object" | "arguments", load: () => void): void => {
    const b = fi.pseudo(name)
    if (b === undefined) return
    load()
    fc.storeBinding(b, false)
  }
  if (fi.kind !== "derivedConstructor") pseudo("this", () => fc.emit(Op.LoadFrameThis))
  pseudo("new.target", () => fc.emit(Op.LoadFrameNewTarget))
  pseudo("function-object", () => fc.emit(Op.LoadFrameFunction))
  pseudo("arguments", () => {
    fc.needsArgs = true
    fc.argumentsMap = fi.mappedParameters()?.map((b) => {
      if (b === undefined) return -1
      const st = fc.storageOf(b)
      if (st.kind !== "env" || st.scope !== fi.scope) throw new Error("codemode bug: a mapped parameter is not in the function's environment")
      return st.slot
    })
    fc.emit(Op.CreateArguments)
  })
  for (const b of fi.scope.bindings.values()) {
    if (b.kind !== "callee") continue
    fc.emit(Op.LoadFrameFunction)
    fc.storeBinding(b, false)
  }
  params.forEach((p, i) => {
    fc.enter(p)
    try {
      if (p.type === "Identifier") {
        const b = fi.scope.bindings.get(p.name)
        if (b !== undefined && paramRegs.get(b) === i) return
        fc.emit(Op.LoadReg, i)
        destructure(fc, p, true)
      } else if (p.type === "RestElement") {
        fc.needsArgs = true
        fc.emit(Op.CreateRest, i)
        destructure(fc, p.argument, true)
      } else {
        fc.emit(Op.LoadReg, i)
        destructure(fc, p, true, "parameter")
      }
    } finally {
      fc.leave()
    }
  })
  if (fi.bodyScope !== fi.scope) {
    fc.enterScope(fi.bodyScope)
    for (const b of fi.bodyScope.bindings.values()) {
      if (b.kind !== "var" && b.kind !== "function") continue
      if (b.initFromParam !== undefined) fc.loadBinding(b.initFromParam, false)
      else fc.emit(Op.Undefined)
      fc.storeBinding(b, false)
    }
  }
  instantiateFunctionDeclarations(fc, fi.bodyScope)
  if (fc.isGenerator) fc.emit(Op.GeneratorStart)
}


function finish(fc: FunctionCompiler, id: number, length: number, sourceOffset: number, sourceEnd: number): CodeObject {
  const paramCount = fc.fi === undefined ? 0 : paramCountOf(fc.fi)
  const registerCount = Math.max(fc.registerCount, paramCount)
  const { bytecode, handlers, locations, maxStack } = fc.asm.finish(paramCount, registerCount)
  return {
    id,
    name: fc.functionName,
    role: fc.role,
    functionKind: fc.functionKind,
    strict: fc.strict,
    length,
    paramCount,
    registerCount,
    maxStack,
    needsArgs: fc.needsArgs,
    argumentsMap: fc.argumentsMap,
    bytecode,
    constants: fc.asm.constants,
    handlers,
    locations,
    sourceOffset,
    sourceEnd,
    propertyCache: undefined,
  }
}

const paramCountOf = (fi: FunctionInfo): number => {
  const restIndex = fi.params.findIndex((p) => p.type === "RestElement")
  return restIndex >= 0 ? restIndex : fi.params.length
}

// --- Classes ------------------------------------------------------------------------------------------------------

/** ClassDefinitionEvaluation; pushes the class constructor. */
export function compileClass(fc: FunctionCompiler, node: ESTree.ClassDeclaration | ESTree.ClassExpression, name: string): void {
  const scope = fc.program.analysis.scopes.get(node)
  if (scope === undefined) throw new Error("codemode bug: class without a scope")
  fc.enterScope(scope)
  for (const b of scope.bindings.values()) {
    if (b.kind !== "private") continue
    fc.emit(Op.NewPrivateName, fc.name(b.name))
    fc.storeBinding(b, false)
  }
  const derived = node.superClass !== null
  if (node.superClass !== null) {
    compileExpression(fc, node.superClass)
    fc.emit(Op.CheckClassHeritage)
    fc.emit(Op.Dup)
    const isNull = fc.label()
    fc.jump(Op.JumpIfNullishPeek, isNull)
    fc.emit(Op.GetField, fc.name("prototype"))
    fc.place(isNull)
  } else {
    fc.emit(Op.Undefined)
    fc.emit(Op.Undefined)
  }
  const elements = node.body.body
  const classInfo: ClassInfo = {
    hasInstanceElements: classHasInstanceElements(node),
  }
  const ctor = elements.find((el): el is ESTree.MethodDefinition => el.type === "MethodDefinition" && el.kind === "constructor")
  const ctorId = ctor !== undefined ? compileFunctionNode(fc, ctor.value, name, classInfo, node) : implicitConstructor(fc, derived, classInfo, name, node)
  fc.emit(Op.ClassCreate, ctorId, derived ? 1 : 0)
  const F = fc.allocReg()
  const proto = fc.allocReg()
  fc.emit(Op.StoreReg, proto)
  fc.emit(Op.StoreReg, F)
  const staticElements: Array<() => void> = []
  for (const el of elements) {
    fc.enter(el)
    try {
      if (el.type === "MethodDefinition") {
        if (el.kind === "constructor") continue
        const kind = el.kind === "get" ? MethodKind.Getter : el.kind === "set" ? MethodKind.Setter : MethodKind.Method
        if (el.key?.type === "PrivateIdentifier") {
          fc.emit(Op.LoadReg, F)
          fc.load(fc.resolution(el.key), `#${el.key.name}`)
          fc.emit(Op.Closure, compileFunctionNode(fc, el.value, `#${el.key.name}`, undefined, methodSourceRange(el, fc.program.source)))
          fc.emit(Op.ClassPrivateMethod, kind | (el.static ? STATIC : 0))
          fc.emit(Op.Pop)
          continue
        }
        fc.emit(Op.LoadReg, el.static ? F : proto)
        compilePropertyKey(fc, el.key as ESTree.Expression, el.computed)
        fc.emit(Op.Closure, compileFunctionNode(fc, el.value, el.computed ? "" : staticKey(el.key as ESTree.Expression), undefined, methodSourceRange(el, fc.program.source)))
        fc.emit(Op.DefineMethod, kind)
        fc.emit(Op.Pop)
      } else if (el.type === "PropertyDefinition") {
        const pushKey = fieldKey(fc, el)
        const init = el.value === null ? undefined : compileFunctionNode(fc, el, "")
        if (!el.static) {
          fc.emit(Op.LoadReg, F)
          pushKey()
          if (init === undefined) fc.emit(Op.Undefined)
          else fc.emit(Op.Closure, init)
          fc.emit(Op.ClassField)
          fc.emit(Op.Pop)
          continue
        }
        staticElements.push(() => {
          fc.emit(Op.LoadReg, F)
          pushKey()
          if (init === undefined) fc.emit(Op.Undefined)
          else callWithClassAsThis(fc, init, F)
          fc.emit(el.key.type === "PrivateIdentifier" ? Op.DefinePrivateField : Op.DefineElem)
          fc.emit(Op.Pop)
        })
      } else if (el.type === "StaticBlock") {
        const block = compileFunctionNode(fc, el, "")
        staticElements.push(() => {
          callWithClassAsThis(fc, block, F)
          fc.emit(Op.Pop)
        })
      } else {
        throw new Error(`codemode bug: class element ${el.type}`)
      }
    } finally {
      fc.leave()
    }
  }
  const inner = node.id === null ? undefined : scope.bindings.get(node.id.name)
  if (inner !== undefined) {
    fc.emit(Op.LoadReg, F)
    fc.storeBinding(inner, false)
  }
  for (const emitStatic of staticElements) emitStatic()
  fc.emit(Op.LoadReg, F)
  fc.exitScope(scope)
  fc.freeReg(F)
  fc.freeReg(proto)
}

/** ClassPrivateMethod flag: the element is static. */
export const STATIC = 8

/** Evaluates a field's key now (computed keys are evaluated in element order) and returns how to push it later. */
function fieldKey(fc: FunctionCompiler, el: ESTree.PropertyDefinition): () => void {
  const key = el.key
  if (key.type === "PrivateIdentifier") {
    const res = fc.resolution(key)
    return () => fc.load(res, `#${key.name}`)
  }
  if (!el.computed) {
    const c = fc.asm.constant(staticKey(key))
    return () => fc.emit(Op.Const, c)
  }
  compileExpression(fc, key)
  fc.emit(Op.ToPropertyKey)
  const reg = fc.allocReg()
  fc.emit(Op.StoreReg, reg)
  return () => fc.emit(Op.LoadReg, reg)
}

/** Calls a static field initializer or static block with the class as `this` (and home object). */
function callWithClassAsThis(fc: FunctionCompiler, codeId: number, F: number): void {
  fc.emit(Op.LoadReg, F)
  fc.emit(Op.Closure, codeId)
  fc.emit(Op.LoadReg, F)
  fc.emit(Op.SetHomeObject)
  fc.emit(Op.Call, 0, fc.asm.constant("(intermediate value)"))
}

/** The default constructor: empty, or `constructor(...args) { super(...args) }` without iterating args. */
function implicitConstructor(fc: FunctionCompiler, derived: boolean, classInfo: ClassInfo, name: string, classNode: ESTree.Node): number {
  const id = fc.program.reserveId()
  const child = new FunctionCompiler(fc.program, undefined, {
    role: derived ? "derivedConstructor" : "classConstructor",
    functionKind: "normal",
    strict: true,
    name,
    envChain: fc.envChain,
    classInfo,
  })
  if (derived) {
    child.needsArgs = true
    child.emit(Op.LoadFrameFunction)
    child.emit(Op.LoadFrameNewTarget)
    child.emit(Op.SuperCallForward)
    child.emit(Op.Dup)
    child.emit(Op.LoadFrameFunction)
    child.emit(Op.Swap)
    child.emit(Op.InitInstanceElements)
    child.emit(Op.Return)
  } else {
    if (classInfo.hasInstanceElements) {
      child.emit(Op.LoadFrameFunction)
      child.emit(Op.LoadFrameThis)
      child.emit(Op.InitInstanceElements)
    }
    child.emit(Op.Undefined)
    child.emit(Op.Return)
  }
  fc.program.codes[id] = finish(child, id, 0, classNode.start ?? 0, classNode.end ?? 0)
  return id
}

export { isAnonymousFunctionDefinition }
