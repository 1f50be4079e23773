/**
 * What the tree-walker knows about the program it runs, computed once and shared by every evaluation of every run
 * of the same checked program (`programOf`): the scope analysis and binding layout, and one `FunctionCode` per
 * function node — the static facts a function object is created from (src/language/static-semantics.ts), the same
 * the compiler bakes into its code objects; which nodes contain a suspension point of their function (the rest can
 * run on the synchronous evaluator); and the closures the synchronous evaluator compiled. None of it refers to a
 * realm's objects (a run's tagged template objects are its machine's).
 */
import type { ESTree } from "meriyah"
import type { FunctionInfo, ScopeAnalysis } from "../language/scope.ts"
import {
  classHasInstanceElements,
  expectedArgumentCount,
  type FunctionKindName,
  type FunctionRole,
  functionKindOf,
  roleOf,
  type SourceRange,
} from "../language/static-semantics.ts"
import type { FunctionShape } from "../runtime/function-create.ts"
import type { SourceLocation } from "../runtime/realm.ts"
import { forEachChild } from "../language/walk.ts"
import { Layout } from "./environment.ts"

type ClassNode = ESTree.ClassDeclaration | ESTree.ClassExpression

/** The tree-walker's code object: a function node and what the function object is made from. */
export interface FunctionCode extends FunctionShape {
  /** The function node; a PropertyDefinition (field initializer), a StaticBlock, or the class (implicit constructor). */
  readonly node: ESTree.Node
  /** Undefined for an implicit class constructor. */
  readonly fi: FunctionInfo | undefined
  readonly role: FunctionRole
  readonly functionKind: FunctionKindName
  /** Source range (Function.prototype.toString); the start also locates errors before the first expression. */
  readonly sourceOffset: number
  readonly sourceEnd: number
  /** Class constructors: the class, whether its instances get elements, whether it extends something. */
  readonly classNode: ClassNode | undefined
  readonly hasInstanceElements: boolean
  /** The synchronous evaluator's compiled body (plain.ts), once the function has been called on the host stack. */
  compiledBody: unknown
}

/** What the tree-walker needs of a checked program (src/language's CheckedProgram). */
export interface InterpreterProgram {
  readonly ast: ESTree.Program
  readonly source: string
  readonly strict: boolean
  locate(offset: number): SourceLocation
}

export class Program {
  readonly source: string
  readonly locate: (offset: number) => SourceLocation
  readonly analysis: ScopeAnalysis
  readonly layout: Layout
  readonly main: FunctionCode
  private readonly codes = new Map<ESTree.Node, FunctionCode>()
  /** The synchronous evaluator's compiled closures (plain.ts), per node. */
  readonly compiled = new Map<ESTree.Node, unknown>()
  /** Nodes containing a suspension point of their own function (await, yield, for await, async generator return). */
  private readonly suspending = new Set<ESTree.Node>()
  /**
   * The `await` expressions, calls and loops at which the host generators and closures evaluating a body hold no
   * value of its own (`markHoldingNothing`).
   */
  private readonly holdingNothing = new Set<ESTree.Node>()

  constructor(program: InterpreterProgram, analysis: ScopeAnalysis) {
    this.source = program.source
    // Named first: a function literal assigned straight to a property is made in old space (docs/internals.md).
    const locate = (offset: number): SourceLocation => program.locate(offset)
    this.locate = locate
    this.analysis = analysis
    this.layout = new Layout(analysis)
    const fi = analysis.program
    this.main = {
      node: program.ast,
      fi,
      role: "program",
      functionKind: "async",
      strict: fi.strict,
      length: 0,
      name: "",
      sourceOffset: 0,
      sourceEnd: 0,
      classNode: undefined,
      hasInstanceElements: false,
      compiledBody: undefined,
    }
    markSuspending(program.ast, this.suspending, false)
    markHoldingNothing(program.ast, this.holdingNothing)
  }

  /**
   * Whether a body suspended at this `await`, calling at this call, or at the end of an iteration of this loop,
   * holds nothing the memory meter cannot see (machine.ts `holding`, `pollAt`).
   */
  holdsNothingAt(node: ESTree.AwaitExpression | ESTree.CallExpression | ESTree.Statement): boolean {
    return this.holdingNothing.has(node)
  }

  /** Whether evaluating `node` may suspend its function (else the synchronous evaluator can run it). */
  suspends(node: ESTree.Node): boolean {
    return this.suspending.has(node)
  }

  /**
   * The code of a function node (function, arrow, method, field initializer, static block), named `name`.
   * `sourceNode` is the text Function.prototype.toString shows: a method with its key, a class constructor as the
   * whole class (`classNode`).
   */
  code(node: ESTree.Node, name: string, classNode?: ClassNode, sourceNode: SourceRange = classNode ?? node): FunctionCode {
    let c = this.codes.get(node)
    if (c === undefined) {
      const fi = this.analysis.functions.get(node)
      if (fi === undefined) throw new Error(`codemode bug: no function info for ${node.type}`)
      c = {
        node,
        fi,
        role: roleOf(fi),
        functionKind: functionKindOf(fi),
        strict: fi.strict,
        length: expectedArgumentCount(fi.params),
        name,
        sourceOffset: sourceNode.start ?? 0,
        sourceEnd: sourceNode.end ?? 0,
        classNode,
        hasInstanceElements: classNode !== undefined && classHasInstanceElements(classNode),
        compiledBody: undefined,
      }
      this.codes.set(node, c)
    }
    return c
  }

  /** The implicit constructor of a class without one: empty, or `constructor(...args) { super(...args) }`. */
  implicitConstructor(node: ClassNode, name: string): FunctionCode {
    let c = this.codes.get(node)
    if (c === undefined) {
      c = {
        node,
        fi: undefined,
        role: node.superClass !== null ? "derivedConstructor" : "classConstructor",
        functionKind: "normal",
        strict: true,
        length: 0,
        name,
        sourceOffset: node.start ?? 0,
        sourceEnd: node.end ?? 0,
        classNode: node,
        hasInstanceElements: classHasInstanceElements(node),
        compiledBody: undefined,
      }
      this.codes.set(node, c)
    }
    return c
  }
}

/**
 * Marks the `await` expressions and calls at which a body holds no value in the host generators or closures
 * evaluating it, so everything it holds is in its activation (environment, arguments, `this`), which the memory
 * meter's measure reaches; and the loops at the end of whose iterations it holds none. Such an `await` or call is
 * a whole expression statement, a variable's initializer, the right side of an assignment to a name, or a
 * returned expression (an arrow's concise body too), or what is evaluated first in one (an object, a callee, a
 * left operand, a test: `f().length`, `(await p).x`); such a loop is a `while`,
 * `do` or `for (;;)` statement. Either sits in statements that hold nothing while their parts run: blocks, `if`,
 * those loops, labels, and the block of a `try`. Elsewhere a value evaluated before (an array element, an operand,
 * a `for of` iterator, a caught exception) waits in a host local, out of the measure's sight.
 */
function markHoldingNothing(node: ESTree.Node, out: Set<ESTree.Node>): void {
  if (node.type === "Program") for (const s of node.body) statementHoldingNothing(s as ESTree.Statement, out)
  if (node.type === "FunctionDeclaration" || node.type === "FunctionExpression" || node.type === "ArrowFunctionExpression") {
    const body = node.body
    if (body?.type === "BlockStatement") statementHoldingNothing(body, out)
    else if (body !== null && body !== undefined) expressionHoldingNothing(body, out)
  }
  forEachChild(node, (child) => markHoldingNothing(child, out))
}

function statementHoldingNothing(node: ESTree.Statement, out: Set<ESTree.Node>): void {
  switch (node.type) {
    case "ExpressionStatement":
      return expressionHoldingNothing(node.expression, out)
    case "VariableDeclaration":
      if (node.kind !== "let" && node.kind !== "const" && node.kind !== "var") return
      for (const d of node.declarations) if (d.id.type === "Identifier" && d.init !== null && d.init !== undefined) expressionHoldingNothing(d.init, out)
      return
    case "ReturnStatement":
      if (node.argument !== null && node.argument !== undefined) expressionHoldingNothing(node.argument, out)
      return
    case "BlockStatement":
      for (const s of node.body) statementHoldingNothing(s, out)
      return
    case "IfStatement":
      statementHoldingNothing(node.consequent, out)
      if (node.alternate !== null && node.alternate !== undefined) statementHoldingNothing(node.alternate, out)
      return
    case "WhileStatement":
    case "DoWhileStatement":
    case "ForStatement":
      out.add(node)
      return statementHoldingNothing(node.body, out)
    case "LabeledStatement":
      return statementHoldingNothing(node.body, out)
    case "TryStatement":
      return statementHoldingNothing(node.block, out)
    default:
      return
  }
}

function expressionHoldingNothing(node: ESTree.Node, out: Set<ESTree.Node>): void {
  switch (node.type) {
    case "CallExpression":
      out.add(node)
      if (node.callee.type !== "Super") expressionHoldingNothing(node.callee.type === "MemberExpression" ? node.callee.object : node.callee, out)
      return
    case "AwaitExpression":
      out.add(node)
      return expressionHoldingNothing(node.argument, out)
    case "AssignmentExpression":
      if (node.operator === "=" && node.left.type === "Identifier") expressionHoldingNothing(node.right, out)
      return
    // What is evaluated first, before anything is held: an object, a left operand, a test, an argument.
    case "MemberExpression":
      if (node.object.type !== "Super") expressionHoldingNothing(node.object, out)
      return
    case "BinaryExpression":
    case "LogicalExpression":
      if (node.left.type !== "PrivateIdentifier") expressionHoldingNothing(node.left, out)
      return
    case "UnaryExpression":
      return expressionHoldingNothing(node.argument, out)
    case "ConditionalExpression":
      return expressionHoldingNothing(node.test, out)
    case "SequenceExpression":
      return expressionHoldingNothing(node.expressions[0]!, out)
    default:
      return
  }
}

/**
 * Marks the nodes under `node` that contain a suspension point of the function being walked; nested functions are
 * walked as functions of their own (a class's heritage and computed keys belong to the enclosing function).
 */
function markSuspending(node: ESTree.Node, out: Set<ESTree.Node>, asyncGenerator: boolean): boolean {
  switch (node.type) {
    case "FunctionDeclaration":
    case "FunctionExpression":
    case "ArrowFunctionExpression": {
      const inner = node.async && node.type !== "ArrowFunctionExpression" && node.generator
      for (const p of node.params) markSuspending(p, out, inner)
      if (node.body !== null && node.body !== undefined) markSuspending(node.body, out, inner)
      return false
    }
    case "ClassDeclaration":
    case "ClassExpression": {
      let found = node.superClass !== null && markSuspending(node.superClass, out, asyncGenerator)
      for (const el of node.body.body) {
        if (el.type === "StaticBlock") {
          markSuspending(el, out, false)
          continue
        }
        if ((el.type === "MethodDefinition" || el.type === "PropertyDefinition") && el.computed && el.key !== null) {
          if (markSuspending(el.key, out, asyncGenerator)) found = true
        }
        if (el.type === "MethodDefinition") markSuspending(el.value, out, asyncGenerator)
        else if (el.type === "PropertyDefinition" && el.value !== null) markSuspending(el.value, out, false)
      }
      if (found) out.add(node)
      return found
    }
    default:
      break
  }
  let found =
    node.type === "AwaitExpression" ||
    node.type === "YieldExpression" ||
    (node.type === "ForOfStatement" && node.await) ||
    // Leaving the scope of an `await using` awaits.
    (node.type === "VariableDeclaration" && node.kind === "await using") ||
    (node.type === "ReturnStatement" && asyncGenerator)
  forEachChild(node, (child) => {
    if (markSuspending(child, out, asyncGenerator)) found = true
  })
  if (found) out.add(node)
  return found
}
