/**
 * The synchronous evaluator: the common productions compiled, once per node, to host closures that evaluate them
 * without generators, for ordinary function bodies and the await-free parts of async and generator bodies. A
 * closure is built from the node's children's closures, so evaluating it costs calls, not a dispatch on the node
 * type and a generator per node. The closures are the generator productions' fast paths, not a second semantics:
 * each evaluates its operands in the same order, sets the same source offsets, and uses the same helpers for what
 * happens next (binaryFast, getElementFast, putFast, storeRef...). A slow path that may run user code (an
 * accessor, a coercion, a built-in's Task) is the runtime Task or the generator production, driven to completion
 * by the machine (`m.slow`, `m.drive`), and a production not handled here compiles to a closure that runs its
 * generator (`Evaluate`, `Statement` with `generator` set) the same way. Calls go through `Machine.callSync`,
 * which recurses on the host stack only while `plainDepth` is below MAX_PLAIN_DEPTH; a body counts for more than
 * one level when its syntax nests deeply (`PlainBody`'s weight), so the host stack stays bounded either way.
 */
import type { ESTree } from "meriyah"
import { forEachChild } from "../language/walk.ts"
import {
  disposalOf,
  fieldInitializerName,
  forInVarInitializer,
  headDisposalOf,
  isAnonymousFunctionDefinition,
  recordKeys,
  staticKey,
} from "../language/static-semantics.ts"
import { calleeText, iterableSite } from "../language/call-printer.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { checkStringLength } from "../runtime/caps.ts"
import { PollStringWork } from "../runtime/interrupt.ts"
import { ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { ToBoolean, ToNumeric, ToString, ToStringPrimitive, TypeOf } from "../runtime/conversions.ts"
import { MakeFunction } from "../runtime/function-create.ts"
import { IsCallable, IsConstructor, NativeFunction, ScriptFunction } from "../runtime/function-object.ts"
import { chargeMemory, Cost } from "../runtime/memory.ts"
import { JSObject } from "../runtime/object.ts"
import { literalShape, MAX_SHAPE_KEYS } from "../runtime/property-store.ts"
import { CreateDataPropertyOrThrow, GetV } from "../runtime/operations.ts"
import { getFast, GetValueTask, MISS, PutValueTask } from "../runtime/references.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import { ForInIteratorOf, ForInNext } from "../runtime/for-in.ts"
import type { IteratorRecord } from "../runtime/iteration.ts"
import { fastArrayRecord, GetIteratorTask, IteratorCloseForThrow, IteratorCloseIfNotDone, iteratorStepFast } from "../runtime/iterator-steps.ts"
import { isTask, type Task } from "../runtime/task.ts"
import { EMPTY, type Empty, type Value } from "../runtime/value.ts"
import { ClassDefinitionEvaluation } from "./classes.ts"
import { Env, recordOf, type Ref, tdzError } from "./environment.ts"
import { Evaluate, pushElement } from "./expressions.ts"
import {
  bindPseudo,
  bindSimpleParameters,
  enterFunctionScope,
  finishInstantiation,
  FunctionDeclarationEvaluation,
  FunctionDeclarationInstantiation,
  FunctionEpilogue,
  ImplicitConstructorBody,
  InstantiateFunctionDeclarations,
  returnValue,
} from "./functions.ts"
import { type Activation, isHostObject, MAX_PLAIN_DEPTH } from "./machine.ts"
import { BindingInitialization } from "./patterns.ts"
import { binaryFast, BinaryOperationSlow, increment, NumericUnary, toNumericPrimitive } from "./operators.ts"
import type { FunctionCode, Program } from "./program.ts"
import { type Expr, getElementFast, loadRef, putFast, RefKind, storeRef } from "./references.ts"
import {
  BreakOrContinue,
  type Completion,
  copyEnv,
  enterBlockScope,
  loopContinues,
  NO_LABELS,
  DisposingStatementList,
  resetCompletion,
  ReturnCompletion,
  Statement,
} from "./statements.ts"

type Code = (a: Activation) => Value
type StatementCode = (a: Activation) => Completion | undefined

// --- Entry points -------------------------------------------------------------------------------------------------

export const EvaluatePlain = (a: Activation, node: Expr): Value => expression(a.program, node)(a)

export const StatementPlain = (a: Activation, node: ESTree.Statement, labels: ReadonlyArray<string>): Completion | undefined =>
  statement(a.program, node, labels)(a)

/** A function body compiled for the host stack, and how much host stack one activation of it may take. */
interface CompiledBody {
  readonly run: Code
  /** Counted in `plainDepth`: 1, plus 1 per 16 levels of nested syntax (deeply nested code recurses deeper). */
  readonly weight: number
}

/** The compiled body of an ordinary (not async, not generator) function. */
export const PlainBody = (p: Program, code: FunctionCode): CompiledBody => {
  let body = code.compiledBody as CompiledBody | undefined
  if (body === undefined) {
    body = { run: functionBody(p, code), weight: 1 + (nestingDepth(code.node) >> 4) }
    code.compiledBody = body
  }
  return body
}

/** How deep the syntax of a function's own body nests (nested functions excluded: they run as calls). */
const nestingDepth = (node: ESTree.Node): number => {
  let max = 0
  const visit = (n: ESTree.Node, depth: number): void => {
    if (depth > max) max = depth
    forEachChild(n, (child) => {
      if (child.type === "FunctionExpression" || child.type === "ArrowFunctionExpression" || child.type === "FunctionDeclaration") return
      visit(child, depth + 1)
    })
  }
  forEachChild(node, (child) => visit(child, 1))
  return max
}

const expression = (p: Program, node: Expr): Code => {
  let c = p.compiled.get(node) as Code | undefined
  if (c === undefined) {
    c = compileExpression(p, node)
    p.compiled.set(node, c)
  }
  return c
}

/** A statement's labels are those of the labelled statements directly around it: the same on every evaluation. */
const statement = (p: Program, node: ESTree.Statement, labels: ReadonlyArray<string>): StatementCode => {
  let c = p.compiled.get(node) as StatementCode | undefined
  if (c === undefined) {
    c = compileStatement(p, node, labels)
    p.compiled.set(node, c)
  }
  return c
}

const functionBody = (p: Program, code: FunctionCode): Code => {
  const fi = code.fi
  if (fi === undefined) return (a) => a.m.drive(ImplicitConstructorBody(a))
  const simple = fi.hasSimpleParameterList && !(code.role === "classConstructor" && code.hasInstanceElements)
  const node = code.node
  let run: Code
  switch (node.type) {
    case "PropertyDefinition": {
      const def = node as ESTree.PropertyDefinition
      run = namedEvaluation(p, def.value as ESTree.Expression, fieldInitializerName(def))
      break
    }
    case "StaticBlock":
      run = bodyStatements(p, (node as ESTree.StaticBlock).body)
      break
    default: {
      const body = (node as ESTree.FunctionExpression | ESTree.ArrowFunctionExpression).body
      if (body?.type === "BlockStatement") run = bodyStatements(p, body.body)
      else run = expression(p, body as ESTree.Expression)
    }
  }
  const fl = p.layout.functionLayout(fi)
  const paramSlots = fl.paramSlots
  if (simple && paramSlots !== undefined && fi.bodyScope === fi.scope) {
    // FunctionDeclarationInstantiation of a simple parameter list, with what it finds worked out once.
    const template = fl.template
    // A scope that declares nothing gets no record (and has no parameters or declarations to bind).
    if (template === undefined) return (a) => FunctionEpilogue(a, run(a))
    const scope = fi.scope
    const hasPseudo = fl.pseudo.length > 0
    const n = paramSlots.length
    const lastParamStart = n > 0 ? (fi.params[n - 1]!.start ?? 0) : 0
    const hasDeclarations = scope.functionDeclarations.length > 0
    return (a) => {
      const slots = template.slice()
      const env = new Env(scope, slots, a.env)
      a.env = env
      if (hasPseudo) bindPseudo(a, fi, env)
      if (n > 0) {
        const args = a.args
        for (let i = 0; i < n; i++) slots[paramSlots[i]!] = args[i]
        a.offset = lastParamStart
      }
      if (hasDeclarations) InstantiateFunctionDeclarations(a, scope)
      return FunctionEpilogue(a, run(a))
    }
  }
  return (a) => {
    if (simple) {
      enterFunctionScope(a, fi)
      bindSimpleParameters(a, fi)
      finishInstantiation(a, fi)
    } else a.m.drive(FunctionDeclarationInstantiation(a, fi))
    return FunctionEpilogue(a, run(a))
  }
}

/** A function body's statements; one that declares `using` is left to the generator evaluator (disposal). */
const bodyStatements = (p: Program, list: ReadonlyArray<ESTree.Statement>): Code => {
  if (disposalOf(list) !== undefined) return (a) => returnValue(a.m.drive(DisposingStatementList(a, list)))
  const only = list.length === 1 ? list[0] : undefined
  if (only?.type === "ReturnStatement" && only.argument !== null && only.argument !== undefined) {
    // `{ return e }`: the value itself, without a return completion to unwrap.
    const start = only.start ?? 0
    const value = expression(p, only.argument)
    return (a) => {
      a.offset = start
      return value(a)
    }
  }
  const run = statementList(p, list)
  return (a) => returnValue(run(a))
}

// --- Helpers shared by the closures -------------------------------------------------------------------------------

/** A binding's record slot, read (the TDZ checked when the analysis says it must be). */
const readBinding = (env: Env | null, ref: Ref): Value => {
  const v = recordOf(env, ref).slots[ref.slot]
  if (v === EMPTY && ref.checked) return tdzError(ref.binding.name)
  return v as Value
}

const readGlobal = (a: Activation, name: string): Value => {
  const v = loadRef(a, null, name)
  return v !== MISS ? v : a.m.slow(GetV(a.realm, a.realm.globalObject, name))
}

const store = (a: Activation, ref: Ref | null, name: string, v: Value, init: boolean): void => {
  const t = storeRef(a, ref, name, v, init)
  if (t !== undefined) a.m.slow(t)
}

const getField = (a: Activation, base: Value, key: string): Value => {
  const v = getFast(a.realm, base, key)
  return v !== MISS ? v : a.m.slow(GetV(a.realm, base, key))
}

const getElement = (a: Activation, base: Value, key: Value): Value => {
  const v = getElementFast(a.realm, base, key)
  return v !== MISS ? v : a.m.slow(GetValueTask(a.realm, base, key))
}

const binary = (a: Activation, op: string, l: Value, r: Value): Value => {
  const v = binaryFast(op, l, r)
  return v !== MISS ? v : a.m.drive(BinaryOperationSlow(a, op, l, r))
}

const toNumeric = (a: Activation, v: Value): number | bigint => (v instanceof JSObject ? a.m.slow(ToNumeric(a.realm, v)) : toNumericPrimitive(v))

/**
 * CallFunction, on the host stack. `holdsNothing`: the caller holds no value in host closures while the call runs
 * (program.ts `holdsNothingAt`), which the callee's frame records for the memory meter (machine.ts `pollAt`).
 */
export const callValue = (a: Activation, f: Value, thisArg: Value, args: ReadonlyArray<Value>, callee: Expr | string, holdsNothing = false): Value => {
  const m = a.m
  m.steps--
  if (f instanceof ScriptFunction && f.functionKind === "normal" && m.plainDepth < MAX_PLAIN_DEPTH) return m.runPlain(f, thisArg, args, undefined, holdsNothing)
  if (f instanceof NativeFunction && !f.isTaskImpl) {
    const r = f.impl(a.realm, thisArg, args, undefined, f)
    PollStringWork(a.realm, thisArg, args[0], r)
    return isHostObject(r) ? m.runTask(r as Task<Value>) : (r as Value)
  }
  if (!IsCallable(f)) throwTypeError(`${typeof callee === "string" ? callee : calleeText(callee)} is not a function`)
  if (!holdsNothing) return m.callSync(f, thisArg, args, undefined)
  m.callerHoldsNothing = true
  try {
    return m.callSync(f, thisArg, args, undefined)
  } finally {
    m.callerHoldsNothing = false
  }
}

const fallback = (node: Expr): Code => (a) => a.m.drive(Evaluate(a, node, true))

const hasSpread = (list: ReadonlyArray<ESTree.Node | null>): boolean => list.some((e) => e !== null && e.type === "SpreadElement")

/** `o.x` or `o[k]`: no super, no private name, no `?.`. */
const isSimpleMember = (m: ESTree.MemberExpression): boolean => m.object.type !== "Super" && m.property.type !== "PrivateIdentifier" && !m.optional

/** An object literal property that is a plain `key: value` (not computed, not a method, not `__proto__:`). */
const isPlainProperty = (prop: ESTree.ObjectLiteralElementLike): boolean =>
  prop.type === "Property" && prop.kind === "init" && !prop.method && !prop.computed && (prop.shorthand || staticKey(prop.key) !== "__proto__")

// --- Expressions --------------------------------------------------------------------------------------------------

function compileExpression(p: Program, node: Expr): Code {
  const start = node.start ?? 0
  switch (node.type) {
    case "Literal": {
      if ("regex" in node && node.regex !== undefined) return fallback(node)
      const v = "bigint" in node && typeof node.bigint === "string" ? BigInt(node.bigint) : (node.value as Value)
      return (a) => {
        a.offset = start
        return v
      }
    }
    case "Identifier":
      return identifier(p, node)
    case "ThisExpression":
    case "MetaProperty": {
      const ref = p.layout.ref(node)!
      return (a) => {
        a.offset = start
        return readBinding(a.env, ref)
      }
    }
    case "FunctionExpression":
    case "ArrowFunctionExpression": {
      const code = p.code(node, node.type === "FunctionExpression" && node.id !== null ? node.id.name : "")
      return (a) => {
        a.offset = start
        return MakeFunction(a.realm, code, a.env)
      }
    }
    case "MemberExpression":
      return isSimpleMember(node) ? member(p, node) : fallback(node)
    case "CallExpression":
      if (node.optional || node.callee.type === "Super" || node.callee.type === "ChainExpression" || hasSpread(node.arguments)) return fallback(node)
      if (node.callee.type === "MemberExpression" && !isSimpleMember(node.callee)) return fallback(node)
      return call(p, node)
    case "NewExpression":
      return hasSpread(node.arguments) ? fallback(node) : construct(p, node)
    case "BinaryExpression":
    case "LogicalExpression":
      return binaryChain(p, node)
    case "UnaryExpression":
      return node.operator === "delete" ? fallback(node) : unary(p, node)
    case "UpdateExpression":
      if (node.argument.type === "MemberExpression" && !isSimpleMember(node.argument)) return fallback(node)
      return update(p, node)
    case "AssignmentExpression": {
      const op = node.operator
      if (op === "&&=" || op === "||=" || op === "??=") return fallback(node)
      if (node.left.type === "Identifier" || (node.left.type === "MemberExpression" && isSimpleMember(node.left))) return assignment(p, node)
      return fallback(node)
    }
    case "ConditionalExpression": {
      const test = expression(p, node.test)
      const consequent = expression(p, node.consequent)
      const alternate = expression(p, node.alternate)
      return (a) => {
        a.offset = start
        return ToBoolean(test(a)) ? consequent(a) : alternate(a)
      }
    }
    case "SequenceExpression": {
      const list = node.expressions.map((e) => expression(p, e))
      return (a) => {
        a.offset = start
        let v: Value = undefined
        for (const e of list) v = e(a)
        return v
      }
    }
    case "TemplateLiteral":
      return template(p, node)
    case "ArrayExpression":
      return hasSpread(node.elements) ? fallback(node) : array(p, node)
    case "ObjectExpression":
      return node.properties.every(isPlainProperty) ? object(p, node) : fallback(node)
    default:
      return fallback(node)
  }
}

function identifier(p: Program, node: ESTree.Identifier): Code {
  const start = node.start ?? 0
  const name = node.name
  const ref = p.layout.ref(node)
  if (ref !== null) {
    return (a) => {
      a.offset = start
      return readBinding(a.env, ref)
    }
  }
  // These globals are non-writable and non-configurable.
  const constant = name === "undefined" ? undefined : name === "NaN" ? NaN : name === "Infinity" ? Infinity : MISS
  if (constant !== MISS) {
    return (a) => {
      a.offset = start
      return constant
    }
  }
  return (a) => {
    a.offset = start
    return readGlobal(a, name)
  }
}

/** Reads the binding an identifier denotes without evaluating the identifier as an expression (no location). */
function bindingValue(p: Program, node: ESTree.Identifier): Code {
  const name = node.name
  const ref = p.layout.ref(node)
  if (ref !== null) return (a) => readBinding(a.env, ref)
  return (a) => readGlobal(a, name)
}

/** NamedEvaluation: an anonymous function or class gets `name`. */
function namedEvaluation(p: Program, node: ESTree.Expression, name: string): Code {
  if (!isAnonymousFunctionDefinition(node)) return expression(p, node)
  const start = node.start ?? 0
  if (node.type === "ClassExpression") {
    return (a) => {
      a.offset = start
      return a.m.drive(ClassDefinitionEvaluation(a, node, name))
    }
  }
  const code = p.code(node, name)
  return (a) => {
    a.offset = start
    return MakeFunction(a.realm, code, a.env)
  }
}

// --- Property access and calls --------------------------------------------------------------------------------

function member(p: Program, node: ESTree.MemberExpression): Code {
  const start = node.start ?? 0
  const propertyStart = node.property.start ?? 0
  const object = expression(p, node.object as ESTree.Expression)
  if (node.computed) {
    const key = expression(p, node.property)
    return (a) => {
      a.offset = start
      const base = object(a)
      a.offset = propertyStart
      return getElement(a, base, key(a))
    }
  }
  const name = (node.property as ESTree.Identifier).name
  return (a) => {
    a.offset = start
    const base = object(a)
    a.offset = propertyStart
    return getField(a, base, name)
  }
}

/** ArgumentListEvaluation without spread. */
function argumentList(p: Program, list: ReadonlyArray<ESTree.Expression | ESTree.SpreadElement>): (a: Activation) => Value[] {
  const codes = list.map((e) => expression(p, e as ESTree.Expression))
  switch (codes.length) {
    case 0:
      return () => []
    case 1: {
      const c0 = codes[0] as Code
      return (a) => [c0(a)]
    }
    case 2: {
      const c0 = codes[0] as Code
      const c1 = codes[1] as Code
      return (a) => {
        const v0 = c0(a)
        return [v0, c1(a)]
      }
    }
    default:
      return (a) => {
        const out: Value[] = new Array(codes.length)
        for (let i = 0; i < codes.length; i++) out[i] = (codes[i] as Code)(a)
        return out
      }
  }
}

function call(p: Program, node: ESTree.CallExpression): Code {
  const start = node.start ?? 0
  const callee = node.callee as Expr
  const args = argumentList(p, node.arguments)
  const holdsNothing = p.holdsNothingAt(node)
  if (callee.type === "MemberExpression") {
    const calleeStart = callee.start ?? 0
    const propertyStart = callee.property.start ?? 0
    const object = expression(p, callee.object as ESTree.Expression)
    const key = callee.computed ? expression(p, callee.property) : undefined
    const name = callee.computed ? "" : (callee.property as ESTree.Identifier).name
    return (a) => {
      a.offset = start
      a.offset = calleeStart
      const base = object(a)
      a.offset = propertyStart
      const f = key !== undefined ? getElement(a, base, key(a)) : getField(a, base, name)
      a.offset = start
      const values = args(a)
      a.offset = start
      return callValue(a, f, base, values, callee, holdsNothing)
    }
  }
  const fn = expression(p, callee)
  return (a) => {
    a.offset = start
    const f = fn(a)
    a.offset = start
    const values = args(a)
    a.offset = start
    return callValue(a, f, undefined, values, callee, holdsNothing)
  }
}

function construct(p: Program, node: ESTree.NewExpression): Code {
  const start = node.start ?? 0
  const callee = node.callee as Expr
  const fn = expression(p, callee)
  const args = argumentList(p, node.arguments)
  return (a) => {
    a.offset = start
    const C = fn(a)
    const values = args(a)
    a.offset = start
    a.m.steps--
    if (!IsConstructor(C)) return throwTypeError(`${calleeText(callee)} is not a constructor`)
    if (C instanceof NativeFunction && !C.isTaskImpl) {
      const r = C.impl(a.realm, undefined, values, C, C)
      return isHostObject(r) ? a.m.runTask(r as Task<Value>) : (r as Value)
    }
    return a.m.callSync(C, undefined, values, C)
  }
}

// --- Operators ------------------------------------------------------------------------------------------------

type Link = (a: Activation, v: Value) => Value

/** Binary and logical operators; a left-nested spine is compiled iteratively, so long chains do not recurse. */
function binaryChain(p: Program, node: ESTree.BinaryExpression | ESTree.LogicalExpression): Code {
  const start = node.start ?? 0
  const spine: Array<ESTree.BinaryExpression | ESTree.LogicalExpression> = []
  let bottom: Expr = node
  while (bottom.type === "BinaryExpression" || bottom.type === "LogicalExpression") {
    if (bottom.type === "BinaryExpression" && bottom.left.type === "PrivateIdentifier") break
    spine.push(bottom)
    bottom = bottom.left as Expr
  }
  const first = bottom === node ? fallback(node) : bottom.type === "BinaryExpression" ? fallback(bottom) : expression(p, bottom)
  if (bottom === node) return first
  if (node.type === "BinaryExpression" && spine.length === 1) return binaryPair(node.operator, start, first, expression(p, node.right as Expr))
  const links: Link[] = []
  for (let i = spine.length - 1; i >= 0; i--) links.push(link(p, spine[i] as ESTree.BinaryExpression | ESTree.LogicalExpression))
  // Short chains unrolled: a loop over the links measured slower (arith loop's `(acc + i * 3 - (i >> 1)) % m`).
  const [l0, l1, l2] = links as [Link, Link | undefined, Link | undefined]
  if (l1 === undefined) {
    return (a) => {
      a.offset = start
      return l0(a, first(a))
    }
  }
  if (l2 === undefined) {
    return (a) => {
      a.offset = start
      return l1(a, l0(a, first(a)))
    }
  }
  if (links.length === 3) {
    return (a) => {
      a.offset = start
      return l2(a, l1(a, l0(a, first(a))))
    }
  }
  return (a) => {
    a.offset = start
    let v = first(a)
    for (const l of links) v = l(a, v)
    return v
  }
}

/** One link of a chain: `v op right`. */
function link(p: Program, node: ESTree.BinaryExpression | ESTree.LogicalExpression): Link {
  const start = node.start ?? 0
  const right = expression(p, node.right as Expr)
  const op = node.operator
  if (node.type === "LogicalExpression") {
    return (a, v) => {
      a.offset = start
      if (op === "&&" ? !ToBoolean(v) : op === "||" ? ToBoolean(v) : v !== undefined && v !== null) return v
      return right(a)
    }
  }
  return numberLink(op, start, right) ?? anyLink(op, start, right)
}

/*
 * The common arithmetic and comparison operators, each with its number-and-number case inline (no dispatch on the
 * operator at run time); anything else goes to `binary`. Locations are set as `link` sets them.
 */

/** `left op right` for a single binary operator (not part of a longer chain). */
function binaryPair(op: string, start: number, left: Code, right: Code): Code {
  switch (op) {
    case "+":
      return (a) => {
        a.offset = start
        const l = left(a)
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l + r : binary(a, op, l, r)
      }
    case "-":
      return (a) => {
        a.offset = start
        const l = left(a)
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l - r : binary(a, op, l, r)
      }
    case "*":
      return (a) => {
        a.offset = start
        const l = left(a)
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l * r : binary(a, op, l, r)
      }
    case "<":
      return (a) => {
        a.offset = start
        const l = left(a)
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l < r : binary(a, op, l, r)
      }
    case ">":
      return (a) => {
        a.offset = start
        const l = left(a)
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l > r : binary(a, op, l, r)
      }
    case "===":
      return (a) => {
        a.offset = start
        const l = left(a)
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l === r : binary(a, op, l, r)
      }
    default: {
      const l0 = numberLink(op, start, right) ?? anyLink(op, start, right)
      return (a) => {
        a.offset = start
        return l0(a, left(a))
      }
    }
  }
}

/** `v op right` in a chain, for the operators with a number case inline; undefined for the rest. */
function numberLink(op: string, start: number, right: Code): Link | undefined {
  switch (op) {
    case "+":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l + r : binary(a, op, l, r)
      }
    case "-":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l - r : binary(a, op, l, r)
      }
    case "*":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l * r : binary(a, op, l, r)
      }
    case "<":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l < r : binary(a, op, l, r)
      }
    case ">":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l > r : binary(a, op, l, r)
      }
    case "===":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l === r : binary(a, op, l, r)
      }
    case "/":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l / r : binary(a, op, l, r)
      }
    case "%":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l % r : binary(a, op, l, r)
      }
    case "<=":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l <= r : binary(a, op, l, r)
      }
    case ">=":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l >= r : binary(a, op, l, r)
      }
    case "!==":
      return (a, l) => {
        a.offset = start
        const r = right(a)
        a.offset = start
        return typeof l === "number" && typeof r === "number" ? l !== r : binary(a, op, l, r)
      }
    default:
      return undefined
  }
}

/** `v op right` for any binary operator. */
function anyLink(op: string, start: number, right: Code): Link {
  return (a, l) => {
    a.offset = start
    const r = right(a)
    a.offset = start
    return binary(a, op, l, r)
  }
}

function unary(p: Program, node: ESTree.UnaryExpression): Code {
  const start = node.start ?? 0
  const arg = node.argument
  const op = node.operator
  if (op === "typeof" && arg.type === "Identifier") {
    const name = arg.name
    if (p.layout.ref(arg) === null) {
      return (a) => {
        a.offset = start
        const prop = a.realm.globalObject.lookup(name)
        if (prop === undefined) return "undefined"
        return TypeOf(prop.accessor ? a.m.slow(GetV(a.realm, a.realm.globalObject, name)) : prop.value)
      }
    }
    const read = bindingValue(p, arg)
    return (a) => {
      a.offset = start
      return TypeOf(read(a))
    }
  }
  if (op === "-" && arg.type === "Literal" && typeof arg.value === "number") {
    const v = -arg.value
    return (a) => {
      a.offset = start
      return v
    }
  }
  const operand = expression(p, arg)
  switch (op) {
    case "typeof":
      return (a) => {
        a.offset = start
        return TypeOf(operand(a))
      }
    case "void":
      return (a) => {
        a.offset = start
        operand(a)
        return undefined
      }
    case "!":
      return (a) => {
        a.offset = start
        return !ToBoolean(operand(a))
      }
    default:
      return (a) => {
        a.offset = start
        const v = operand(a)
        if (typeof v === "number") return op === "-" ? -v : op === "+" ? v : ~v
        return a.m.drive(NumericUnary(a, op as "-" | "+" | "~", v))
      }
  }
}

/**
 * The base and key of `o.x` / `o[k]` as an assignment target (PrepareMember), evaluated one after the other:
 * `key` is undefined for `o.x`, whose key is `name`. The key stays unconverted: the get and the put each convert it
 * (see PropertyRef.key).
 */
interface Target {
  readonly object: Code
  readonly key: Code | undefined
  readonly name: string
}

const target = (p: Program, m: ESTree.MemberExpression): Target => ({
  object: expression(p, m.object as ESTree.Expression),
  key: m.computed ? expression(p, m.property) : undefined,
  name: m.computed ? "" : (m.property as ESTree.Identifier).name,
})

const put = (a: Activation, m: ESTree.MemberExpression, base: Value, key: Value, v: Value): void => {
  a.offset = m.start ?? a.offset
  if (!putFast(a.realm, m.computed ? RefKind.Elem : RefKind.Field, base, key, v)) a.m.slow(PutValueTask(a.realm, base, key, v, a.code.strict))
}

function assignment(p: Program, node: ESTree.AssignmentExpression): Code {
  const start = node.start ?? 0
  const left = node.left as ESTree.Identifier | ESTree.MemberExpression
  const op = node.operator
  const binaryOp = op.slice(0, -1)
  if (left.type === "Identifier") {
    const ref = p.layout.ref(left)
    const name = left.name
    if (op === "=") {
      const value = namedEvaluation(p, node.right, name)
      return (a) => {
        a.offset = start
        const v = value(a)
        store(a, ref, name, v, false)
        return v
      }
    }
    const current = bindingValue(p, left)
    const right = expression(p, node.right)
    return (a) => {
      a.offset = start
      const l = current(a)
      const r = right(a)
      a.offset = start
      const v = binary(a, binaryOp, l, r)
      store(a, ref, name, v, false)
      return v
    }
  }
  const { object, key: keyCode, name: keyName } = target(p, left)
  const right = expression(p, node.right)
  if (op === "=") {
    return (a) => {
      a.offset = start
      const base = object(a)
      const key = keyCode === undefined ? keyName : keyCode(a)
      const v = right(a)
      put(a, left, base, key, v)
      return v
    }
  }
  return (a) => {
    a.offset = start
    const base = object(a)
    const key = keyCode === undefined ? keyName : keyCode(a)
    const l = getElement(a, base, key)
    const r = right(a)
    a.offset = start
    const v = binary(a, binaryOp, l, r)
    put(a, left, base, key, v)
    return v
  }
}

function update(p: Program, node: ESTree.UpdateExpression): Code {
  const start = node.start ?? 0
  const delta = node.operator === "++" ? 1 : -1
  const prefix = node.prefix
  const arg = node.argument
  if (arg.type === "Identifier") {
    const ref = p.layout.ref(arg)
    const name = arg.name
    const current = bindingValue(p, arg)
    return (a) => {
      a.offset = start
      const old = toNumeric(a, current(a))
      const v = increment(old, delta)
      store(a, ref, name, v, false)
      return prefix ? v : old
    }
  }
  const m = arg as ESTree.MemberExpression
  const { object, key: keyCode, name: keyName } = target(p, m)
  return (a) => {
    a.offset = start
    const base = object(a)
    const key = keyCode === undefined ? keyName : keyCode(a)
    const old = toNumeric(a, getElement(a, base, key))
    const v = increment(old, delta)
    put(a, m, base, key, v)
    return prefix ? v : old
  }
}

// --- Literals -----------------------------------------------------------------------------------------------------

function template(p: Program, node: ESTree.TemplateLiteral): Code {
  const start = node.start ?? 0
  const head = (node.quasis[0] as ESTree.TemplateElement).value.cooked ?? ""
  const parts = node.expressions.map((e, i) => ({ code: expression(p, e as ESTree.Expression), tail: (node.quasis[i + 1] as ESTree.TemplateElement).value.cooked ?? "" }))
  return (a) => {
    a.offset = start
    let s = head
    for (const part of parts) {
      const v = part.code(a)
      const sub = v instanceof JSObject ? a.m.slow(ToString(a.realm, v)) : typeof v === "string" ? v : ToStringPrimitive(v)
      checkStringLength(s.length + sub.length)
      s += sub
      if (part.tail !== "") {
        checkStringLength(s.length + part.tail.length)
        s += part.tail
      }
    }
    return s
  }
}

function array(p: Program, node: ESTree.ArrayExpression): Code {
  const start = node.start ?? 0
  const elements = node.elements.map((e) => (e === null ? undefined : expression(p, e as ESTree.Expression)))
  return (a) => {
    a.offset = start
    const arr = new ArrayObject(a.realm.ArrayPrototype, [])
    for (const e of elements) {
      if (e === undefined) arr.length++
      else pushElement(arr, e(a))
    }
    return arr
  }
}

function object(p: Program, node: ESTree.ObjectExpression): Code {
  const start = node.start ?? 0
  const props = (node.properties as ReadonlyArray<ESTree.Property>).map((prop) => {
    const name = staticKey(prop.key)
    return { start: prop.start ?? 0, name, value: namedEvaluation(p, prop.value as ESTree.Expression, name) }
  })
  const keys = recordKeys(node, MAX_SHAPE_KEYS)
  if (keys.length === props.length) {
    // Every key at once (as the VM's NewRecord): nothing sees the object before its last value is in.
    const shape = literalShape(keys)
    return (a) => {
      a.offset = start
      const obj = new JSObject(a.realm.ObjectPrototype)
      chargeMemory(Cost.property * props.length)
      obj.adoptShape(shape)
      for (let i = 0; i < props.length; i++) {
        const prop = props[i]!
        a.offset = prop.start
        obj.setSlotAt(i, prop.value(a))
      }
      return obj
    }
  }
  return (a) => {
    a.offset = start
    const obj = new JSObject(a.realm.ObjectPrototype)
    for (const prop of props) {
      a.offset = prop.start
      CreateDataPropertyOrThrow(obj, prop.name, prop.value(a))
    }
    return obj
  }
}

// --- Statements ---------------------------------------------------------------------------------------------------

function statementList(p: Program, list: ReadonlyArray<ESTree.Statement>): StatementCode {
  const codes = list.map((s) => statement(p, s, NO_LABELS))
  if (codes.length === 1) return codes[0] as StatementCode
  return (a) => {
    for (const c of codes) {
      const r = c(a)
      if (r !== undefined) return r
    }
    return undefined
  }
}

function compileStatement(p: Program, node: ESTree.Statement, labels: ReadonlyArray<string>): StatementCode {
  const start = node.start ?? 0
  switch (node.type) {
    case "ExpressionStatement": {
      const e = expression(p, node.expression)
      return (a) => {
        a.offset = start
        const v = e(a)
        if (a.code.role === "program") a.completion = v
        return undefined
      }
    }
    case "BlockStatement": {
      if (disposalOf(node.body) !== undefined) break
      const scope = p.analysis.scopes.get(node)
      const list = statementList(p, node.body)
      if (scope === undefined) {
        return (a) => {
          a.offset = start
          return list(a)
        }
      }
      return (a) => {
        a.offset = start
        const outer = a.env
        enterBlockScope(a, scope)
        const c = list(a)
        a.env = outer
        return c
      }
    }
    case "EmptyStatement":
      return (a) => {
        a.offset = start
        return undefined
      }
    case "FunctionDeclaration":
      return (a) => {
        a.offset = start
        FunctionDeclarationEvaluation(a, node)
        return undefined
      }
    case "VariableDeclaration": {
      const declare = declaration(p, node)
      if (declare === undefined) break
      return (a) => {
        a.offset = start
        declare(a)
        return undefined
      }
    }
    case "IfStatement": {
      const test = expression(p, node.test)
      const consequent = statement(p, node.consequent, NO_LABELS)
      const alternate = node.alternate === null ? undefined : statement(p, node.alternate, NO_LABELS)
      return (a) => {
        a.offset = start
        resetCompletion(a)
        if (ToBoolean(test(a))) return consequent(a)
        return alternate === undefined ? undefined : alternate(a)
      }
    }
    case "ReturnStatement": {
      const arg = node.argument === null ? undefined : expression(p, node.argument)
      return (a) => {
        a.offset = start
        return ReturnCompletion(arg === undefined ? undefined : arg(a))
      }
    }
    case "ThrowStatement": {
      const arg = expression(p, node.argument)
      return (a) => {
        a.offset = start
        throw new ThrowCompletion(arg(a))
      }
    }
    case "BreakStatement":
    case "ContinueStatement": {
      const c = BreakOrContinue(node)
      return (a) => {
        a.offset = start
        return c
      }
    }
    case "WhileStatement":
      return whileLoop(p, node, labels)
    case "ForStatement":
      return forLoop(p, node, labels) ?? ((a) => a.m.drive(Statement(a, node, labels, true)))
    case "ForOfStatement":
    case "ForInStatement": {
      const loop = forInOfLoop(p, node, labels)
      if (loop !== undefined) return loop
      break
    }
    default:
      break
  }
  return (a) => a.m.drive(Statement(a, node, labels, true))
}

/** A declaration whose declarators all bind identifiers (undefined: the generator handles patterns). */
function declaration(p: Program, node: ESTree.VariableDeclaration): ((a: Activation) => void) | undefined {
  if (!node.declarations.every((d) => d.id.type === "Identifier") || node.kind === "using" || node.kind === "await using") return undefined
  const declarators = node.declarations
    .filter((d) => !(d.init === null && node.kind === "var"))
    .map((d) => {
      const id = d.id as ESTree.Identifier
      return { start: id.start ?? 0, name: id.name, ref: p.layout.ref(id), init: d.init === null ? undefined : namedEvaluation(p, d.init, id.name) }
    })
  return (a) => {
    for (const d of declarators) {
      const v = d.init === undefined ? undefined : d.init(a)
      a.offset = d.start
      store(a, d.ref, d.name, v, true)
    }
  }
}

function whileLoop(p: Program, node: ESTree.WhileStatement, labels: ReadonlyArray<string>): StatementCode {
  const start = node.start ?? 0
  const test = expression(p, node.test)
  const body = statement(p, node.body, NO_LABELS)
  const holdsNothing = p.holdsNothingAt(node)
  return (a) => {
    a.offset = start
    resetCompletion(a)
    const m = a.m
    while (ToBoolean(test(a))) {
      const next = loopContinues(body(a), labels)
      if (next === "exit") return undefined
      if (next !== "next") return next
      if (--m.steps <= 0) holdsNothing ? m.pollAt(a) : m.poll()
    }
    return undefined
  }
}

function forLoop(p: Program, node: ESTree.ForStatement, labels: ReadonlyArray<string>): StatementCode | undefined {
  const start = node.start ?? 0
  const init = node.init
  let initialize: ((a: Activation) => void) | undefined
  if (init !== null && init.type === "VariableDeclaration") {
    initialize = declaration(p, init)
    if (initialize === undefined) return undefined
  } else if (init !== null) {
    const e = expression(p, init)
    initialize = (a) => void e(a)
  }
  const scope = p.analysis.scopes.get(node)
  const perIteration = scope !== undefined && scope.hasCaptured && init?.type === "VariableDeclaration" && init.kind === "let"
  const test = node.test === null ? undefined : expression(p, node.test)
  const updateCode = node.update === null ? undefined : expression(p, node.update)
  const body = statement(p, node.body, NO_LABELS)
  const holdsNothing = p.holdsNothingAt(node)
  return (a) => {
    a.offset = start
    resetCompletion(a)
    const m = a.m
    const outer = a.env
    if (scope !== undefined) a.env = a.program.layout.enter(scope, outer)
    try {
      if (initialize !== undefined) initialize(a)
      if (perIteration) copyEnv(a)
      for (;;) {
        if (test !== undefined && !ToBoolean(test(a))) return undefined
        const next = loopContinues(body(a), labels)
        if (next === "exit") return undefined
        if (next !== "next") return next
        if (perIteration) copyEnv(a)
        if (updateCode !== undefined) updateCode(a)
        if (--m.steps <= 0) holdsNothing ? m.pollAt(a) : m.poll()
      }
    } finally {
      a.env = outer
    }
  }
}

/**
 * `for (let|const|var x of/in e)` over a synchronous iterator, without disposal or an Annex B initializer (undefined:
 * the generator handles the rest). As ForInOfStatement: the right side sees the loop's bindings in their TDZ, each
 * iteration binds in a fresh record, and leaving early or by a throw closes the iterator.
 */
function forInOfLoop(p: Program, node: ESTree.ForOfStatement | ESTree.ForInStatement, labels: ReadonlyArray<string>): StatementCode | undefined {
  const left = node.left
  if ((node.type === "ForOfStatement" && node.await) || left.type !== "VariableDeclaration" || headDisposalOf(left) !== undefined) return undefined
  if (forInVarInitializer(node) !== undefined) return undefined
  const start = node.start ?? 0
  const scope = p.analysis.scopes.get(node)
  const id = (left.declarations[0] as ESTree.VariableDeclarator).id
  const init = left.kind !== "var"
  let bind: (a: Activation, v: Value) => void
  if (id.type === "Identifier") {
    const ref = p.layout.ref(id)
    const name = id.name
    bind = (a, v) => store(a, ref, name, v, init)
  } else bind = (a, v) => a.m.drive(BindingInitialization(a, id, v, init, "forDeclaration"))
  const right = expression(p, node.right)
  const body = statement(p, node.body, NO_LABELS)
  /** One iteration: bind `v` in the iteration's record, run the body; the environment is restored after. */
  const iteration = (a: Activation, outer: Env | null, v: Value): Completion | undefined => {
    if (scope !== undefined) a.env = a.program.layout.enter(scope, outer)
    bind(a, v)
    return body(a)
  }
  if (node.type === "ForInStatement") {
    return (a) => {
      a.offset = start
      resetCompletion(a)
      const outer = a.env
      if (scope !== undefined) a.env = a.program.layout.enter(scope, outer)
      const rhs = right(a)
      a.env = outer
      const it = ForInIteratorOf(a.realm, rhs)
      const m = a.m
      for (;;) {
        const key = ForInNext(it)
        if (key === undefined) return undefined
        let c: Completion | undefined
        try {
          c = iteration(a, outer, key)
        } finally {
          a.env = outer
        }
        const next = loopContinues(c, labels)
        if (next === "exit") return undefined
        if (next !== "next") return next
        if (--m.steps <= 0) m.poll()
      }
    }
  }
  const site = iterableSite(node.right, "forOf")
  return (a) => {
    a.offset = start
    resetCompletion(a)
    const realm = a.realm
    const outer = a.env
    if (scope !== undefined) a.env = a.program.layout.enter(scope, outer)
    const rhs = right(a)
    a.env = outer
    const m = a.m
    const record = fastArrayRecord(realm, rhs) ?? (m.slow(GetIteratorTask(realm, rhs, site)) as unknown as IteratorRecord)
    for (;;) {
      const step = iteratorStepFast(realm, record)
      const v = isTask(step) ? m.slow(step as Task<Value | Empty>) : (step as Value | Empty)
      if (v === EMPTY) return undefined
      let c: Completion | undefined
      try {
        c = iteration(a, outer, v)
      } catch (e) {
        a.env = outer
        const tc = toThrowCompletion(realm, e)
        m.slow(IteratorCloseForThrow(realm, record, tc.value))
        throw tc
      }
      a.env = outer
      const next = loopContinues(c, labels)
      if (next === "next") {
        if (--m.steps <= 0) m.poll()
        continue
      }
      // Leaving the loop early (break, return, an outer label) closes the iterator.
      m.slow(IteratorCloseIfNotDone(realm, record))
      return next === "exit" ? undefined : next
    }
  }
}
