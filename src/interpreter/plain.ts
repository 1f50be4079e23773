/**
 * The synchronous evaluator: the common productions as plain functions, for ordinary function bodies and the
 * await-free parts of async and generator bodies. Host generators cost an allocation and a resumption per node;
 * these functions cost a call. They are the generator productions' fast paths, not a second semantics: each one
 * evaluates its operands in the same order, sets the same source offsets, and uses the same helpers for what
 * happens next (binaryFast, getElementFast, putFast, storeRef...). Any slow path that may run user code (an
 * accessor, a coercion, a built-in's Task) is the generator production or the runtime Task, driven to completion
 * by the machine (`m.drive`), and every production not handled here falls back to its generator (`Evaluate`,
 * `Statement` with `generator` set) the same way. Calls go through `Machine.callSync`, which recurses on the host stack only as
 * deep as MAX_PLAIN_DEPTH.
 */
import type { ESTree } from "meriyah"
import { calleeText, fieldInitializerName, isAnonymousFunctionDefinition, staticKey } from "../language/static-semantics.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { checkStringLength } from "../runtime/caps.ts"
import { ThrowCompletion, throwTypeError } from "../runtime/completion.ts"
import { ToBoolean, ToNumeric, ToPropertyKey, ToString, ToStringPrimitive, TypeOf } from "../runtime/conversions.ts"
import { IsCallable, IsConstructor, NativeFunction } from "../runtime/function-object.ts"
import { JSObject } from "../runtime/object.ts"
import { CreateDataPropertyOrThrow, GetV } from "../runtime/operations.ts"
import type { PropertyKey, Value } from "../runtime/value.ts"
import { getFast, GetValueTask, propertyKeyFast, PutValueTask } from "../vm/operations.ts"
import { BreakOrContinue, NO_LABELS, ReturnCompletion, type Completion, copyEnv, enterBlockScope, loopContinues, resetCompletion, Statement } from "./statements.ts"
import { Evaluate, pushElement } from "./expressions.ts"
import {
  bindSimpleParameters,
  enterFunctionScope,
  finishInstantiation,
  FunctionDeclarationInstantiation,
  FunctionEpilogue,
  ImplicitConstructorBody,
  InstantiateFunction,
  returnValue,
} from "./functions.ts"
import { type Activation, isHostObject } from "./machine.ts"
import { binaryFast, BinaryOperationSlow, increment, NumericUnary, toNumericPrimitive } from "./operators.ts"
import { type Expr, getElementFast, loadRef, MISS, putFast, RefKind, storeRef } from "./references.ts"
import { ClassDefinitionEvaluation } from "./classes.ts"

// --- Function bodies ----------------------------------------------------------------------------------------------

/** The body of an ordinary (not async, not generator) function, on the host stack. */
export const PlainFunctionBody = (a: Activation): Value => {
  const m = a.m
  const code = a.code
  const fi = code.fi
  if (fi === undefined) return m.drive(ImplicitConstructorBody(a))
  if (fi.hasSimpleParameterList && !(code.role === "classConstructor" && code.hasInstanceElements)) {
    enterFunctionScope(a, fi)
    bindSimpleParameters(a, fi)
    finishInstantiation(a, fi)
  } else m.drive(FunctionDeclarationInstantiation(a, fi))
  const node = code.node
  let v: Value
  switch (node.type) {
    case "PropertyDefinition": {
      const def = node as ESTree.PropertyDefinition
      v = namedEvaluation(a, def.value as ESTree.Expression, fieldInitializerName(def))
      break
    }
    case "StaticBlock":
      v = returnValue(StatementListPlain(a, (node as ESTree.StaticBlock).body))
      break
    default: {
      const body = (node as ESTree.FunctionExpression | ESTree.ArrowFunctionExpression).body
      v = body?.type === "BlockStatement" ? returnValue(StatementListPlain(a, body.body)) : EvaluatePlain(a, body as ESTree.Expression)
    }
  }
  return FunctionEpilogue(a, v)
}

// --- Expressions --------------------------------------------------------------------------------------------------

export const EvaluatePlain = (a: Activation, node: Expr): Value => {
  a.offset = node.start ?? a.offset
  switch (node.type) {
    case "Literal":
      if ("regex" in node && node.regex !== undefined) break
      if ("bigint" in node && typeof node.bigint === "string") return BigInt(node.bigint)
      return node.value as Value
    case "Identifier":
      return identifier(a, node)
    case "ThisExpression":
      return loadRef(a, a.program.layout.ref(node), "this") as Value
    case "MetaProperty":
      return loadRef(a, a.program.layout.ref(node), "new.target") as Value
    case "FunctionExpression":
    case "ArrowFunctionExpression":
      return InstantiateFunction(a, node, node.type === "FunctionExpression" && node.id !== null ? node.id.name : "")
    case "MemberExpression":
      if (!isSimpleMember(node) || node.optional) break
      return member(a, node)
    case "CallExpression":
      if (node.optional || node.callee.type === "Super" || node.callee.type === "ChainExpression" || hasSpread(node.arguments)) break
      if (node.callee.type === "MemberExpression" && (!isSimpleMember(node.callee) || node.callee.optional)) break
      return call(a, node)
    case "NewExpression":
      if (hasSpread(node.arguments)) break
      return construct(a, node)
    case "BinaryExpression":
    case "LogicalExpression":
      return binaryChain(a, node)
    case "UnaryExpression":
      if (node.operator === "delete") break
      return unary(a, node)
    case "UpdateExpression":
      if (node.argument.type === "MemberExpression" && !isSimpleMember(node.argument)) break
      return update(a, node)
    case "AssignmentExpression": {
      const op = node.operator
      if (op === "&&=" || op === "||=" || op === "??=") break
      if (node.left.type === "Identifier" || (node.left.type === "MemberExpression" && isSimpleMember(node.left))) return assignment(a, node)
      break
    }
    case "ConditionalExpression":
      return ToBoolean(EvaluatePlain(a, node.test)) ? EvaluatePlain(a, node.consequent) : EvaluatePlain(a, node.alternate)
    case "SequenceExpression": {
      let v: Value = undefined
      for (const e of node.expressions) v = EvaluatePlain(a, e)
      return v
    }
    case "TemplateLiteral":
      return template(a, node)
    case "ArrayExpression":
      if (hasSpread(node.elements)) break
      return array(a, node)
    case "ObjectExpression":
      if (!node.properties.every(isPlainProperty)) break
      return object(a, node)
    default:
      break
  }
  return a.m.drive(Evaluate(a, node, true))
}

const hasSpread = (list: ReadonlyArray<ESTree.Node | null>): boolean => list.some((e) => e !== null && e.type === "SpreadElement")

/** `o.x` or `o[k]`: no super, no private name. */
const isSimpleMember = (m: ESTree.MemberExpression): boolean => m.object.type !== "Super" && m.property.type !== "PrivateIdentifier"

/** An object literal property that is a plain `key: value` (not computed, not a method, not `__proto__:`). */
const isPlainProperty = (p: ESTree.ObjectLiteralElementLike): boolean =>
  p.type === "Property" && p.kind === "init" && !p.method && !p.computed && (p.shorthand || staticKey(p.key) !== "__proto__")

const identifier = (a: Activation, node: ESTree.Identifier): Value => {
  const ref = a.program.layout.ref(node)
  if (ref === null) {
    if (node.name === "undefined") return undefined
    if (node.name === "NaN") return NaN
    if (node.name === "Infinity") return Infinity
  }
  const v = loadRef(a, ref, node.name)
  return v !== MISS ? v : a.m.slow(GetV(a.realm, a.realm.globalObject, node.name))
}

const store = (a: Activation, node: ESTree.Identifier, v: Value, init: boolean): void => {
  const t = storeRef(a, a.program.layout.ref(node), node.name, v, init)
  if (t !== undefined) a.m.slow(t)
}

export const namedEvaluation = (a: Activation, node: ESTree.Expression, name: string): Value => {
  if (!isAnonymousFunctionDefinition(node)) return EvaluatePlain(a, node)
  a.offset = node.start ?? a.offset
  if (node.type === "ClassExpression") return a.m.drive(ClassDefinitionEvaluation(a, node, name))
  return InstantiateFunction(a, node, name)
}

// --- Property access and calls --------------------------------------------------------------------------------

const getField = (a: Activation, base: Value, key: string): Value => {
  const v = getFast(a.realm, base, key)
  return v !== MISS ? v : a.m.slow(GetV(a.realm, base, key))
}

const getElement = (a: Activation, base: Value, key: Value): Value => {
  const v = getElementFast(a.realm, base, key)
  return v !== MISS ? v : a.m.slow(GetValueTask(a.realm, base, key))
}

const member = (a: Activation, node: ESTree.MemberExpression): Value => {
  const base = EvaluatePlain(a, node.object as ESTree.Expression)
  a.offset = node.property.start ?? a.offset
  if (node.computed) return getElement(a, base, EvaluatePlain(a, node.property))
  return getField(a, base, (node.property as ESTree.Identifier).name)
}

const call = (a: Activation, node: ESTree.CallExpression): Value => {
  const callee = node.callee as Expr
  let thisArg: Value = undefined
  let f: Value
  if (callee.type === "MemberExpression") {
    a.offset = callee.start ?? a.offset
    thisArg = EvaluatePlain(a, callee.object as ESTree.Expression)
    a.offset = callee.property.start ?? a.offset
    f = callee.computed ? getElement(a, thisArg, EvaluatePlain(a, callee.property)) : getField(a, thisArg, (callee.property as ESTree.Identifier).name)
  } else f = EvaluatePlain(a, callee)
  a.offset = node.start ?? a.offset
  const args = argumentList(a, node.arguments as ReadonlyArray<ESTree.Expression>)
  a.offset = node.start ?? a.offset
  return callValue(a, f, thisArg, args, callee)
}

const argumentList = (a: Activation, list: ReadonlyArray<ESTree.Expression>): Value[] => {
  const args: Value[] = new Array(list.length)
  for (let i = 0; i < list.length; i++) args[i] = EvaluatePlain(a, list[i] as ESTree.Expression)
  return args
}

/** CallFunction, on the host stack. */
export const callValue = (a: Activation, f: Value, thisArg: Value, args: ReadonlyArray<Value>, callee: Expr | string): Value => {
  const m = a.m
  m.steps--
  if (f instanceof NativeFunction && !f.isTaskImpl) {
    const r = f.impl(a.realm, thisArg, args, undefined, f)
    return isHostObject(r) ? m.runTask(r as never) : (r as Value)
  }
  if (!IsCallable(f)) throwTypeError(`${typeof callee === "string" ? callee : calleeText(callee)} is not a function`)
  return m.callSync(f, thisArg, args, undefined)
}

const construct = (a: Activation, node: ESTree.NewExpression): Value => {
  const C = EvaluatePlain(a, node.callee as ESTree.Expression)
  const args = argumentList(a, node.arguments as ReadonlyArray<ESTree.Expression>)
  a.offset = node.start ?? a.offset
  a.m.steps--
  if (!IsConstructor(C)) return throwTypeError(`${calleeText(node.callee as Expr)} is not a constructor`)
  if (C instanceof NativeFunction && !C.isTaskImpl) {
    const r = C.impl(a.realm, undefined, args, C, C)
    return isHostObject(r) ? a.m.runTask(r as never) : (r as Value)
  }
  return a.m.callSync(C, undefined, args, C)
}

// --- Operators ------------------------------------------------------------------------------------------------

const binary = (a: Activation, op: string, l: Value, r: Value): Value => {
  const v = binaryFast(op, l, r)
  return v !== MISS ? v : a.m.drive(BinaryOperationSlow(a, op, l, r))
}

const binaryChain = (a: Activation, node: ESTree.BinaryExpression | ESTree.LogicalExpression): Value => {
  const left = node.left
  if (left.type !== "BinaryExpression" && left.type !== "LogicalExpression" && left.type !== "PrivateIdentifier") {
    // One link: no spine to walk.
    return link(a, node, EvaluatePlain(a, left))
  }
  const links: Array<ESTree.BinaryExpression | ESTree.LogicalExpression> = []
  let bottom: Expr = node
  while (bottom.type === "BinaryExpression" || bottom.type === "LogicalExpression") {
    if (bottom.type === "BinaryExpression" && bottom.left.type === "PrivateIdentifier") break
    links.push(bottom)
    bottom = bottom.left as Expr
  }
  let v = bottom.type === "BinaryExpression" ? a.m.drive(Evaluate(a, bottom, true)) : EvaluatePlain(a, bottom)
  for (let i = links.length - 1; i >= 0; i--) v = link(a, links[i] as ESTree.BinaryExpression | ESTree.LogicalExpression, v)
  return v
}

/** One link of a chain: `v op right`. */
const link = (a: Activation, node: ESTree.BinaryExpression | ESTree.LogicalExpression, v: Value): Value => {
  a.offset = node.start ?? a.offset
  if (node.type === "LogicalExpression") {
    const op = node.operator
    if (op === "&&" ? !ToBoolean(v) : op === "||" ? ToBoolean(v) : v !== undefined && v !== null) return v
    return EvaluatePlain(a, node.right)
  }
  const r = EvaluatePlain(a, node.right)
  a.offset = node.start ?? a.offset
  return binary(a, node.operator, v, r)
}

const unary = (a: Activation, node: ESTree.UnaryExpression): Value => {
  const arg = node.argument
  switch (node.operator) {
    case "typeof":
      if (arg.type === "Identifier" && a.program.layout.ref(arg) === null) {
        const p = a.realm.globalObject.lookup(arg.name)
        if (p === undefined) return "undefined"
        return TypeOf(p.accessor ? a.m.slow(GetV(a.realm, a.realm.globalObject, arg.name)) : p.value)
      }
      return TypeOf(EvaluatePlain(a, arg))
    case "void":
      EvaluatePlain(a, arg)
      return undefined
    case "!":
      return !ToBoolean(EvaluatePlain(a, arg))
    case "-":
      if (arg.type === "Literal" && typeof arg.value === "number") return -arg.value
    // falls through
    default: {
      const v = EvaluatePlain(a, arg)
      if (typeof v === "number") return node.operator === "-" ? -v : node.operator === "+" ? v : ~v
      return a.m.drive(NumericUnary(a, node.operator as "-" | "+" | "~", v))
    }
  }
}

const toNumeric = (a: Activation, v: Value): number | bigint => (v instanceof JSObject ? a.m.slow(ToNumeric(a.realm, v)) : toNumericPrimitive(v))

const toPropertyKey = (a: Activation, v: Value): PropertyKey => {
  const k = propertyKeyFast(v)
  return k !== MISS ? k : a.m.slow(ToPropertyKey(a.realm, v))
}

/** The base and key of `o.x` / `o[k]` as an assignment target (PrepareMember). */
const prepare = (a: Activation, m: ESTree.MemberExpression): [Value, PropertyKey] => {
  const base = EvaluatePlain(a, m.object as ESTree.Expression)
  if (!m.computed) return [base, (m.property as ESTree.Identifier).name]
  return [base, toPropertyKey(a, EvaluatePlain(a, m.property))]
}

const put = (a: Activation, m: ESTree.MemberExpression, base: Value, key: PropertyKey, v: Value): void => {
  a.offset = m.start ?? a.offset
  if (!putFast(m.computed ? RefKind.Elem : RefKind.Field, base, key, v)) a.m.slow(PutValueTask(a.realm, base, key as Value, v, a.code.strict))
}

const assignment = (a: Activation, node: ESTree.AssignmentExpression): Value => {
  const left = node.left as ESTree.Identifier | ESTree.MemberExpression
  const op = node.operator
  if (left.type === "Identifier") {
    let v: Value
    if (op === "=") v = namedEvaluation(a, node.right, left.name)
    else {
      const current = identifier(a, left)
      const r = EvaluatePlain(a, node.right)
      a.offset = node.start ?? a.offset
      v = binary(a, op.slice(0, -1), current, r)
    }
    store(a, left, v, false)
    return v
  }
  const [base, key] = prepare(a, left)
  let v: Value
  if (op === "=") v = EvaluatePlain(a, node.right)
  else {
    const current = getElement(a, base, key as Value)
    const r = EvaluatePlain(a, node.right)
    a.offset = node.start ?? a.offset
    v = binary(a, op.slice(0, -1), current, r)
  }
  put(a, left, base, key, v)
  return v
}

const update = (a: Activation, node: ESTree.UpdateExpression): Value => {
  const delta = node.operator === "++" ? 1 : -1
  const arg = node.argument
  if (arg.type === "Identifier") {
    const old = toNumeric(a, identifier(a, arg))
    const v = increment(old, delta)
    store(a, arg, v, false)
    return node.prefix ? v : old
  }
  const m = arg as ESTree.MemberExpression
  const [base, key] = prepare(a, m)
  const old = toNumeric(a, getElement(a, base, key as Value))
  const v = increment(old, delta)
  put(a, m, base, key, v)
  return node.prefix ? v : old
}

// --- Literals -----------------------------------------------------------------------------------------------------

const template = (a: Activation, node: ESTree.TemplateLiteral): Value => {
  let s = (node.quasis[0] as ESTree.TemplateElement).value.cooked ?? ""
  for (let i = 0; i < node.expressions.length; i++) {
    const v = EvaluatePlain(a, node.expressions[i] as ESTree.Expression)
    const sub = v instanceof JSObject ? a.m.slow(ToString(a.realm, v)) : typeof v === "string" ? v : ToStringPrimitive(v)
    checkStringLength(s.length + sub.length)
    s += sub
    const tail = (node.quasis[i + 1] as ESTree.TemplateElement).value.cooked ?? ""
    if (tail !== "") {
      checkStringLength(s.length + tail.length)
      s += tail
    }
  }
  return s
}

const array = (a: Activation, node: ESTree.ArrayExpression): Value => {
  const arr = new ArrayObject(a.realm.ArrayPrototype, [])
  for (const e of node.elements) {
    if (e === null) arr.length++
    else pushElement(arr, EvaluatePlain(a, e as ESTree.Expression))
  }
  return arr
}

const object = (a: Activation, node: ESTree.ObjectExpression): Value => {
  const obj = new JSObject(a.realm.ObjectPrototype)
  for (const p of node.properties as ReadonlyArray<ESTree.Property>) {
    a.offset = p.start ?? a.offset
    const name = staticKey(p.key)
    CreateDataPropertyOrThrow(obj, name, namedEvaluation(a, p.value as ESTree.Expression, name))
  }
  return obj
}

// --- Statements ---------------------------------------------------------------------------------------------------

export const StatementListPlain = (a: Activation, list: ReadonlyArray<ESTree.Statement>): Completion | undefined => {
  for (const s of list) {
    const c = StatementPlain(a, s, NO_LABELS)
    if (c !== undefined) return c
  }
  return undefined
}

export const StatementPlain = (a: Activation, node: ESTree.Statement, labels: ReadonlyArray<string>): Completion | undefined => {
  a.offset = node.start ?? a.offset
  switch (node.type) {
    case "ExpressionStatement": {
      const v = EvaluatePlain(a, node.expression)
      if (a.code.role === "program") a.completion = v
      return undefined
    }
    case "BlockStatement": {
      const scope = a.program.analysis.scopes.get(node)
      if (scope === undefined) return StatementListPlain(a, node.body)
      const outer = a.env
      enterBlockScope(a, scope)
      const c = StatementListPlain(a, node.body)
      a.env = outer
      return c
    }
    case "EmptyStatement":
    case "FunctionDeclaration":
      return undefined
    case "VariableDeclaration":
      if (!declaration(a, node)) break
      return undefined
    case "IfStatement":
      resetCompletion(a)
      if (ToBoolean(EvaluatePlain(a, node.test))) return StatementPlain(a, node.consequent, NO_LABELS)
      return node.alternate === null ? undefined : StatementPlain(a, node.alternate, NO_LABELS)
    case "ReturnStatement":
      return ReturnCompletion(node.argument === null ? undefined : EvaluatePlain(a, node.argument))
    case "ThrowStatement":
      throw new ThrowCompletion(EvaluatePlain(a, node.argument))
    case "BreakStatement":
    case "ContinueStatement":
      return BreakOrContinue(node)
    case "WhileStatement":
      return whileLoop(a, node, labels)
    case "ForStatement":
      return forLoop(a, node, labels)
    default:
      break
  }
  return a.m.drive(Statement(a, node, labels, true))
}

/** A declaration whose declarators all bind identifiers (false: the generator handles patterns). */
const declaration = (a: Activation, node: ESTree.VariableDeclaration): boolean => {
  if (!node.declarations.every((d) => d.id.type === "Identifier")) return false
  for (const d of node.declarations) {
    const id = d.id as ESTree.Identifier
    if (d.init === null && node.kind === "var") continue
    const v = d.init === null ? undefined : namedEvaluation(a, d.init, id.name)
    a.offset = id.start ?? a.offset
    store(a, id, v, true)
  }
  return true
}

const whileLoop = (a: Activation, node: ESTree.WhileStatement, labels: ReadonlyArray<string>): Completion | undefined => {
  resetCompletion(a)
  const m = a.m
  while (ToBoolean(EvaluatePlain(a, node.test))) {
    const next = loopContinues(StatementPlain(a, node.body, NO_LABELS), labels)
    if (next === "exit") return undefined
    if (next !== "next") return next
    if (--m.steps <= 0) m.poll()
  }
  return undefined
}

const forLoop = (a: Activation, node: ESTree.ForStatement, labels: ReadonlyArray<string>): Completion | undefined => {
  const scope = a.program.analysis.scopes.get(node)
  if (node.init !== null && node.init.type === "VariableDeclaration" && !node.init.declarations.every((d) => d.id.type === "Identifier")) {
    return a.m.drive(Statement(a, node, labels, true))
  }
  resetCompletion(a)
  const m = a.m
  const perIteration = scope !== undefined && scope.hasCaptured && node.init?.type === "VariableDeclaration" && node.init.kind === "let"
  const outer = a.env
  if (scope !== undefined) a.env = a.program.layout.enter(scope, outer)
  try {
    if (node.init !== null) {
      if (node.init.type === "VariableDeclaration") declaration(a, node.init)
      else EvaluatePlain(a, node.init)
    }
    if (perIteration) copyEnv(a)
    for (;;) {
      if (node.test !== null && !ToBoolean(EvaluatePlain(a, node.test))) return undefined
      const next = loopContinues(StatementPlain(a, node.body, NO_LABELS), labels)
      if (next === "exit") return undefined
      if (next !== "next") return next
      if (perIteration) copyEnv(a)
      if (node.update !== null) EvaluatePlain(a, node.update)
      if (--m.steps <= 0) m.poll()
    }
  } finally {
    a.env = outer
  }
}

