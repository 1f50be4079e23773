/**
 * Property access, calls and optional chains (https://tc39.es/ecma262/#sec-property-accessors,
 * #sec-function-calls, #sec-new-operator, #sec-super-keyword, #sec-optional-chains). A call evaluates its callee
 * as a reference so that `o.m()` calls with `this` = o; arguments with spread are collected through the iterator
 * protocol. Inside an optional chain a nullish `?.` operand short-circuits the whole chain: the productions
 * return `SHORT` and the chain's value is undefined.
 */
import { checkArgumentCount } from "../runtime/caps.ts"
import type { ESTree } from "meriyah"
import { staticKey } from "../language/static-semantics.ts"
import { calleeText, spreadArgumentSite } from "../language/call-printer.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { throwReferenceError, throwTypeError } from "../runtime/completion.ts"
import { IsConstructor, NativeFunction, ScriptFunction } from "../runtime/function-object.ts"
import type { JSObject } from "../runtime/object.ts"
import { EMPTY, type Value } from "../runtime/value.ts"
import { checkSuperConstructor } from "../runtime/class-elements.ts"
import { SuperGetTask } from "../runtime/references.ts"
import { recordOf } from "./environment.ts"
import { Evaluate, pushElement, Spread } from "./expressions.ts"
import { CallFunction, InitializeElements } from "./functions.ts"
import type { Activation, Eval } from "./machine.ts"
import { slow } from "./machine.ts"
import { type Expr, GetElement, GetField, GetPrivate, loadRef, privateNameOf, superBase } from "./references.ts"

/** An optional chain short-circuited. */
export const SHORT: unique symbol = Symbol("short")
export type Short = typeof SHORT

const isNullish = (v: Value): boolean => v === undefined || v === null

/** `a?.b...`: the chain's value, undefined when it short-circuits. */
export function* ChainExpression(a: Activation, node: ESTree.ChainExpression): Eval<Value> {
  const inner = node.expression
  const v = inner.type === "CallExpression" ? yield* CallExpression(a, inner, true) : yield* MemberExpression(a, inner, true)
  return v === SHORT ? undefined : v
}

/** An operand of a member or call: inside a chain, a member or call continues the same chain. */
export function* chainOperandOf(a: Activation, node: Expr, chain: boolean): Eval<Value | Short> {
  if (chain && node.type === "MemberExpression") {
    a.offset = node.start ?? a.offset
    return yield* MemberExpression(a, node, true)
  }
  if (chain && node.type === "CallExpression") {
    a.offset = node.start ?? a.offset
    return yield* CallExpression(a, node, true)
  }
  return yield* Evaluate(a, node)
}

export function* MemberExpression(a: Activation, node: ESTree.MemberExpression, chain: boolean): Eval<Value | Short> {
  if (node.object.type === "Super") {
    const { func, thisValue } = superBase(a, node.object)
    const key = node.computed ? yield* Evaluate(a, node.property as ESTree.Expression) : staticKey(node.property)
    return yield* slow(SuperGetTask(a.realm, func, thisValue, key))
  }
  const base = yield* chainOperandOf(a, node.object as Expr, chain)
  if (base === SHORT) return SHORT
  if (node.optional && isNullish(base)) return SHORT
  a.offset = node.property.start ?? a.offset
  if (node.property.type === "PrivateIdentifier") return yield* GetPrivate(a, base, privateNameOf(a, node.property))
  if (node.computed) return yield* GetElement(a, base, yield* Evaluate(a, node.property))
  return yield* GetField(a, base, (node.property as ESTree.Identifier).name)
}

/** Evaluates a callee as a reference: `[this, f]`, or SHORT. */
export function* calleeAndThis(a: Activation, callee: Expr, chain: boolean): Eval<[Value, Value] | Short> {
  if (callee.type === "ChainExpression" && callee.expression.type === "MemberExpression" && callee.expression.object.type !== "Super") {
    // `(a?.b)()` still calls with `this` = a.
    const r = yield* calleeAndThis(a, callee.expression, true)
    return r === SHORT ? [undefined, undefined] : r
  }
  if (callee.type === "MemberExpression") {
    a.offset = callee.start ?? a.offset
    if (callee.object.type === "Super") {
      const refs = a.program.analysis.superReferences.get(callee.object)!
      const thisValue = loadRef(a, a.program.layout.refOf(refs.thisValue), "this") as Value
      return [thisValue, (yield* MemberExpression(a, callee, false)) as Value]
    }
    const base = yield* chainOperandOf(a, callee.object as Expr, chain)
    if (base === SHORT) return SHORT
    if (callee.optional && isNullish(base)) return SHORT
    a.offset = callee.property.start ?? a.offset
    if (callee.property.type === "PrivateIdentifier") return [base, yield* GetPrivate(a, base, privateNameOf(a, callee.property))]
    if (callee.computed) return [base, yield* GetElement(a, base, yield* Evaluate(a, callee.property))]
    return [base, yield* GetField(a, base, (callee.property as ESTree.Identifier).name)]
  }
  const f = yield* chainOperandOf(a, callee, chain)
  if (f === SHORT) return SHORT
  return [undefined, f]
}

/** ArgumentListEvaluation. */
export function* ArgumentList(a: Activation, args: ReadonlyArray<ESTree.Expression | ESTree.SpreadElement>): Eval<Value[]> {
  const out: Value[] = []
  if (args.length === 0) return out
  let spread: ArrayObject | undefined
  for (const arg of args) {
    if (arg.type === "SpreadElement") {
      spread ??= new ArrayObject(a.realm.ArrayPrototype, out)
      yield* Spread(a, spread, yield* Evaluate(a, arg.argument), spreadArgumentSite(args, arg))
    } else if (spread !== undefined) pushElement(spread, yield* Evaluate(a, arg))
    else out.push(yield* Evaluate(a, arg))
  }
  if (spread === undefined) return out
  return denseValues(spread)
}

const denseValues = (arr: ArrayObject): Value[] => {
  const out: Value[] = []
  const els = arr.elements
  if (els === null) throw new Error("codemode bug: argument list is not a dense array")
  checkArgumentCount(arr.length)
  for (let i = 0; i < arr.length; i++) {
    const v = i < els.length ? els[i] : EMPTY
    out.push(v === EMPTY ? undefined : (v as Value))
  }
  return out
}

export function* CallExpression(a: Activation, node: ESTree.CallExpression, chain: boolean): Eval<Value | Short> {
  const callee = node.callee
  if (callee.type === "Super") return yield* SuperCall(a, node)
  let thisArg: Value = undefined
  let f: Value
  if (callee.type === "Identifier") f = yield* Evaluate(a, callee)
  else {
    const r = yield* calleeAndThis(a, callee as Expr, chain)
    if (r === SHORT) return SHORT
    thisArg = r[0]
    f = r[1]
  }
  if (node.optional && isNullish(f)) return SHORT
  a.offset = node.start ?? a.offset
  const args = yield* ArgumentList(a, node.arguments)
  a.offset = node.start ?? a.offset
  if (f instanceof ScriptFunction) {
    a.m.steps--
    return yield { kind: "call", f, thisArg, args }
  }
  return yield* CallFunction(a, f, thisArg, args, callee as Expr)
}

export function* NewExpression(a: Activation, node: ESTree.NewExpression): Eval<Value> {
  const C = yield* Evaluate(a, node.callee as Expr)
  const args = yield* ArgumentList(a, node.arguments)
  a.offset = node.start ?? a.offset
  a.m.steps--
  if (!IsConstructor(C)) return throwTypeError(`${calleeText(node.callee as Expr)} is not a constructor`)
  if (C instanceof NativeFunction && !C.isTaskImpl) {
    const r = C.impl(a.realm, undefined, args, C, C)
    if (typeof r === "object" && r !== null && !("properties" in r)) return yield* (r as unknown as Eval<Value>)
    return r as Value
  }
  return yield { kind: "construct", f: C, args, newTarget: C }
}

/** `super(...args)`: construct the parent, bind `this`, initialize the instance's fields. */
function* SuperCall(a: Activation, node: ESTree.CallExpression): Eval<Value> {
  const refs = a.program.analysis.superReferences.get(node.callee)
  if (refs === undefined) throw new Error("codemode bug: unresolved super()")
  const layout = a.program.layout
  const func = loadRef(a, layout.refOf(refs.func), "%function-object") as Value
  const newTarget = loadRef(a, layout.refOf(refs.newTarget), "new.target") as JSObject
  const args = yield* ArgumentList(a, node.arguments)
  a.offset = node.start ?? a.offset
  const parent = checkSuperConstructor(func)
  a.m.steps--
  const result = (yield { kind: "construct", f: parent, args, newTarget }) as JSObject
  const thisRef = layout.refOf(refs.thisValue)
  if (thisRef === null) throw new Error("codemode bug: super() without a this binding")
  const record = recordOf(a.env, thisRef)
  if (record.slots[thisRef.slot] !== EMPTY) throwReferenceError("Super constructor may only be called once")
  record.slots[thisRef.slot] = result
  yield* InitializeElements(loadRef(a, layout.refOf(refs.func), "%function-object") as ScriptFunction, result)
  return result
}
