/**
 * Expressions (https://tc39.es/ecma262/#sec-ecmascript-language-expressions): `Evaluate` dispatches on the node
 * type to one function per production, each returning the expression's value. Calls, `new`, `super(...)`, member
 * access and optional chains are in calls.ts, assignment and destructuring in patterns.ts, classes in classes.ts.
 *
 * Every production sets the activation's source offset where the compiler places a location, in the same order,
 * so an error created anywhere gets the same line:column on both engines. Left-nested chains of binary and
 * logical operators are evaluated iteratively, so a 10,000-term `a + a + ...` does not recurse on the host stack.
 */
import type { ESTree } from "meriyah"
import { isAnonymousFunctionDefinition, staticKey } from "../language/static-semantics.ts"
import { iterableSite } from "../language/call-printer.ts"
import type { NotIterableSite } from "../runtime/not-iterable.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { checkStringLength } from "../runtime/caps.ts"
import { throwReferenceError } from "../runtime/completion.ts"
import { ToBoolean, ToObject, TypeOf } from "../runtime/conversions.ts"
import { CopyDataProperties, CreateDataPropertyOrThrow, GetV, throwNotInOperand } from "../runtime/operations.ts"
import { SetFunctionName } from "../runtime/function-create.ts"
import { NativeFunction } from "../runtime/function-object.ts"
import { JSObject, type PrivateName } from "../runtime/object.ts"
import type { PropertyKey, Value } from "../runtime/value.ts"
import { CreateTemplateObject } from "../runtime/template-object.ts"
import { iteratorStepFast, SpreadTask } from "../runtime/iterator-steps.ts"
import { deleteProperty, DeleteTask, propertyKeyFast } from "../runtime/references.ts"
import { CallExpression, calleeAndThis, ChainExpression, chainOperandOf, MemberExpression, NewExpression, SHORT } from "./calls.ts"
import { ClassDefinitionEvaluation, DefineMethodProperty, MethodKind } from "./classes.ts"
import { CallFunction, InstantiateFunction } from "./functions.ts"
import { Await, Yield, YieldStar } from "./generators.ts"
import { type Activation, type Eval, MAX_PLAIN_DEPTH } from "./machine.ts"
import { slow } from "./machine.ts"
import { EvaluatePlain } from "./plain.ts"
import { binaryFast, BinaryOperationSlow, NumericUnary, ToStringValue } from "./operators.ts"
import { AssignmentExpression, UpdateExpression } from "./patterns.ts"
import { type Expr, GetBindingValue, loadRef, MISS, privateNameOf, ToPropertyKeyValue } from "./references.ts"

/**
 * Evaluates an expression. What cannot suspend goes to the synchronous evaluator while there is room on the host
 * stack; `generator` forces the generator production (the synchronous evaluator's fallback for rare productions).
 */
export function* Evaluate(a: Activation, node: Expr, generator?: boolean): Eval<Value> {
  if (generator !== true && a.m.plainDepth < MAX_PLAIN_DEPTH && !a.program.suspends(node)) return EvaluatePlain(a, node)
  a.offset = node.start ?? a.offset
  switch (node.type) {
    case "Literal":
      return yield* Literal(a, node)
    case "Identifier": {
      const ref = a.program.layout.ref(node)
      if (ref === null) {
        // These globals are non-writable and non-configurable.
        if (node.name === "undefined") return undefined
        if (node.name === "NaN") return NaN
        if (node.name === "Infinity") return Infinity
      }
      const v = loadRef(a, ref, node.name)
      return v !== MISS ? v : yield* slow(GetV(a.realm, a.realm.globalObject, node.name))
    }
    case "ThisExpression":
      return loadRef(a, a.program.layout.ref(node), "this") as Value
    case "TemplateLiteral":
      return yield* TemplateLiteral(a, node)
    case "TaggedTemplateExpression":
      return yield* TaggedTemplate(a, node)
    case "ArrayExpression":
      return yield* ArrayLiteral(a, node)
    case "ObjectExpression":
      return yield* ObjectLiteral(a, node)
    case "FunctionExpression":
    case "ArrowFunctionExpression":
      return InstantiateFunction(a, node, node.type === "FunctionExpression" && node.id !== null ? node.id.name : "")
    case "ClassExpression":
      return yield* ClassDefinitionEvaluation(a, node, node.id?.name ?? "")
    case "MemberExpression":
      return (yield* MemberExpression(a, node, false)) as Value
    case "ChainExpression":
      return yield* ChainExpression(a, node)
    case "CallExpression":
      return (yield* CallExpression(a, node, false)) as Value
    case "NewExpression":
      return yield* NewExpression(a, node)
    case "UpdateExpression":
      return yield* UpdateExpression(a, node)
    case "UnaryExpression":
      return yield* UnaryExpression(a, node)
    case "BinaryExpression":
    case "LogicalExpression":
      return yield* BinaryChain(a, node)
    case "ConditionalExpression":
      if (ToBoolean(yield* Evaluate(a, node.test))) return yield* Evaluate(a, node.consequent)
      return yield* Evaluate(a, node.alternate)
    case "AssignmentExpression":
      return yield* AssignmentExpression(a, node)
    case "SequenceExpression": {
      let v: Value = undefined
      for (const e of node.expressions) v = yield* Evaluate(a, e)
      return v
    }
    case "AwaitExpression":
      return yield* Await(a, yield* Evaluate(a, node.argument), a.program.holdsNothingAt(node))
    case "YieldExpression":
      if (node.delegate) return yield* YieldStar(a, yield* Evaluate(a, node.argument as ESTree.Expression), node.argument as ESTree.Expression)
      return yield* Yield(a, node.argument === null || node.argument === undefined ? undefined : yield* Evaluate(a, node.argument))
    case "MetaProperty":
      return loadRef(a, a.program.layout.ref(node), "new.target") as Value
    default:
      return notAnExpression(node)
  }
}

/** What the parser may put where an expression goes but no expression evaluates to (exhaustiveness checked). */
const notAnExpression = (
  node: ESTree.PrivateIdentifier | ESTree.Super | ESTree.SpreadElement | ESTree.ImportExpression | ESTree.JSXElement | ESTree.JSXFragment,
): never => {
  throw new Error(`codemode bug: ${node.type} in expression position`)
}

export const unreachable = (node: never): never => {
  throw new Error(`codemode bug: unexpected ${(node as { type?: string }).type ?? String(node)}`)
}

/** NamedEvaluation: an anonymous function or class gets `name`. */
export function* NamedEvaluation(a: Activation, node: ESTree.Expression, name: string): Eval<Value> {
  if (!isAnonymousFunctionDefinition(node)) return yield* Evaluate(a, node)
  a.offset = node.start ?? a.offset
  if (node.type === "ClassExpression") return yield* ClassDefinitionEvaluation(a, node, name)
  return InstantiateFunction(a, node, name)
}

function* Literal(a: Activation, node: ESTree.Literal): Eval<Value> {
  if ("regex" in node && node.regex !== undefined) {
    const RegExpCtor = a.realm.intrinsic("%RegExp%")
    const args = [node.regex.pattern, node.regex.flags]
    if (RegExpCtor instanceof NativeFunction && !RegExpCtor.isTaskImpl) return RegExpCtor.impl(a.realm, undefined, args, RegExpCtor, RegExpCtor) as Value
    return yield { kind: "construct", f: RegExpCtor, args, newTarget: RegExpCtor }
  }
  if ("bigint" in node && typeof node.bigint === "string") return BigInt(node.bigint)
  return node.value as Value
}

// --- Literals ---------------------------------------------------------------------------------------------------

function* TemplateLiteral(a: Activation, node: ESTree.TemplateLiteral): Eval<Value> {
  let s = (node.quasis[0] as ESTree.TemplateElement).value.cooked ?? ""
  for (let i = 0; i < node.expressions.length; i++) {
    const sub = yield* ToStringValue(a, yield* Evaluate(a, node.expressions[i] as ESTree.Expression))
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

function* TaggedTemplate(a: Activation, node: ESTree.TaggedTemplateExpression): Eval<Value> {
  const [thisArg, f] = (yield* calleeAndThis(a, node.tag as Expr, false)) as [Value, Value]
  let template = a.m.templates.get(node)
  if (template === undefined) {
    template = CreateTemplateObject(a.realm, {
      kind: "template",
      cooked: node.quasi.quasis.map((q) => q.value.cooked ?? undefined),
      raw: node.quasi.quasis.map((q) => q.value.raw),
    })
    a.m.templates.set(node, template)
  }
  const args: Value[] = [template]
  for (const e of node.quasi.expressions) args.push(yield* Evaluate(a, e))
  return yield* CallFunction(a, f, thisArg, args, node.tag as Expr)
}

/** Appends an iterable's values to `arr` (spread in array literals and argument lists). */
export function* Spread(a: Activation, arr: ArrayObject, iterable: Value, site: NotIterableSite | undefined): Eval<void> {
  const realm = a.realm
  yield* slow(SpreadTask(realm, arr, iterable, site, (r) => iteratorStepFast(realm, r)))
}

/** ArrayPush: appends one element. */
export const pushElement = (arr: ArrayObject, v: Value): void => {
  if (!arr.setOwnElement(arr.length, v)) CreateDataPropertyOrThrow(arr, String(arr.length), v)
}

function* ArrayLiteral(a: Activation, node: ESTree.ArrayExpression): Eval<Value> {
  const arr = new ArrayObject(a.realm.ArrayPrototype, [])
  for (const e of node.elements) {
    if (e === null) arr.length++
    else if (e.type === "SpreadElement") yield* Spread(a, arr, yield* Evaluate(a, e.argument), iterableSite(e.argument))
    else pushElement(arr, yield* Evaluate(a, e))
  }
  return arr
}

/** A property key: a static name, or a computed key converted with ToPropertyKey. */
export function* PropertyKeyOf(a: Activation, key: ESTree.Expression, computed: boolean): Eval<PropertyKey> {
  if (!computed) return staticKey(key)
  return yield* ToPropertyKeyValue(a, yield* Evaluate(a, key))
}

function* ObjectLiteral(a: Activation, node: ESTree.ObjectExpression): Eval<Value> {
  const realm = a.realm
  const obj = new JSObject(realm.ObjectPrototype)
  for (const p of node.properties) {
    a.offset = p.start ?? a.offset
    if (p.type === "SpreadElement") {
      yield* slow(CopyDataProperties(realm, obj, yield* Evaluate(a, p.argument), []))
      continue
    }
    if (p.type !== "Property") throw new Error(`codemode bug: ${p.type} in an object literal`)
    if (p.kind === "get" || p.kind === "set" || p.method) {
      const key = yield* PropertyKeyOf(a, p.key, p.computed)
      const fn = InstantiateFunction(a, p.value, p.computed ? "" : staticKey(p.key), p)
      const kind = p.kind === "get" ? MethodKind.Getter : p.kind === "set" ? MethodKind.Setter : MethodKind.Method
      DefineMethodProperty(obj, key, fn, kind, true)
      continue
    }
    const value = p.value as ESTree.Expression
    if (!p.computed) {
      const name = staticKey(p.key)
      if (name === "__proto__" && !p.shorthand) {
        const proto = yield* Evaluate(a, value)
        if (proto instanceof JSObject || proto === null) obj.SetPrototypeOf(proto)
        continue
      }
      CreateDataPropertyOrThrow(obj, name, yield* NamedEvaluation(a, value, name))
      continue
    }
    const key = yield* PropertyKeyOf(a, p.key, true)
    const v = yield* Evaluate(a, value)
    if (isAnonymousFunctionDefinition(value)) SetFunctionName(v as JSObject, key)
    CreateDataPropertyOrThrow(obj, key, v)
  }
  return obj
}

// --- Operators --------------------------------------------------------------------------------------------------

function* UnaryExpression(a: Activation, node: ESTree.UnaryExpression): Eval<Value> {
  const arg = node.argument
  switch (node.operator) {
    case "typeof": {
      if (arg.type === "Identifier") {
        const ref = a.program.layout.ref(arg)
        if (ref === null) {
          const p = a.realm.globalObject.lookup(arg.name)
          if (p === undefined) return "undefined"
          return TypeOf(p.accessor ? yield* slow(GetV(a.realm, a.realm.globalObject, arg.name)) : p.value)
        }
        return TypeOf(yield* GetBindingValue(a, ref, arg.name))
      }
      return TypeOf(yield* Evaluate(a, arg))
    }
    case "delete":
      return yield* DeleteExpression(a, arg)
    case "void":
      yield* Evaluate(a, arg)
      return undefined
    case "!":
      return !ToBoolean(yield* Evaluate(a, arg))
    case "-":
      if (arg.type === "Literal" && typeof arg.value === "number") return -arg.value
      return yield* NumericUnary(a, "-", yield* Evaluate(a, arg))
    case "+":
    case "~":
      return yield* NumericUnary(a, node.operator, yield* Evaluate(a, arg))
    default:
      return unreachable(node.operator)
  }
}

function* DeleteExpression(a: Activation, arg: ESTree.Expression): Eval<Value> {
  const target = arg.type === "ChainExpression" ? arg.expression : arg
  if (target.type === "MemberExpression") {
    if (target.object.type === "Super") return throwReferenceError("Unsupported reference to 'super'")
    const chain = arg.type === "ChainExpression"
    const base = yield* chainOperandOf(a, target.object as Expr, chain)
    if (base === SHORT) return true
    if (target.optional && (base === undefined || base === null)) return true
    const key = target.computed ? yield* Evaluate(a, target.property as ESTree.Expression) : staticKey(target.property)
    return yield* DeleteProperty(a, base, key)
  }
  if (target.type === "Identifier") {
    if (a.program.layout.ref(target) !== null) return false
    return yield* DeleteProperty(a, a.realm.globalObject, target.name)
  }
  yield* Evaluate(a, target)
  return true
}

function* DeleteProperty(a: Activation, base: Value, key: Value): Eval<Value> {
  const obj = ToObject(a.realm, base)
  const k = propertyKeyFast(key)
  if (k !== MISS) return deleteProperty(obj, k, a.code.strict)
  return yield* slow(DeleteTask(a.realm, obj, key, a.code.strict))
}

/** Binary and logical operators; the left-nested spine is walked iteratively. */
function* BinaryChain(a: Activation, node: ESTree.BinaryExpression | ESTree.LogicalExpression): Eval<Value> {
  const links: Array<ESTree.BinaryExpression | ESTree.LogicalExpression> = []
  let left: Expr = node
  while ((left.type === "BinaryExpression" || left.type === "LogicalExpression") && !(left.type === "BinaryExpression" && left.left.type === "PrivateIdentifier")) {
    links.push(left)
    left = left.left as Expr
  }
  let v: Value
  if (left.type === "BinaryExpression") {
    // `#x in obj` at the bottom of the chain.
    const obj = yield* Evaluate(a, left.right)
    const P: PrivateName = privateNameOf(a, left.left as ESTree.PrivateIdentifier)
    if (!(obj instanceof JSObject)) return throwNotInOperand(P.description, obj)
    v = obj.privateElements?.has(P) === true
  } else {
    v = yield* Evaluate(a, left)
  }
  for (let i = links.length - 1; i >= 0; i--) {
    const link = links[i] as ESTree.BinaryExpression | ESTree.LogicalExpression
    a.offset = link.start ?? a.offset
    if (link.type === "LogicalExpression") {
      const op = link.operator
      if (op === "&&" ? !ToBoolean(v) : op === "||" ? ToBoolean(v) : v !== undefined && v !== null) continue
      v = yield* Evaluate(a, link.right)
    } else {
      const r = yield* Evaluate(a, link.right)
      a.offset = link.start ?? a.offset
      const fast = binaryFast(link.operator, v, r)
      v = fast !== MISS ? fast : yield* BinaryOperationSlow(a, link.operator, v, r)
    }
  }
  return v
}

