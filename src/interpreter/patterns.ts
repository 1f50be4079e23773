/**
 * Assignment and destructuring (https://tc39.es/ecma262/#sec-assignment-operators,
 * #sec-destructuring-binding-patterns, #sec-destructuring-assignment): simple, compound and logical assignment,
 * `++`/`--`, and binding or assigning patterns in declarations, parameters, catch clauses and for-in/of heads.
 * Array patterns drive the iterator protocol and close the iterator when the pattern throws or completes early.
 * In destructuring assignment a member target's reference is evaluated before the value is fetched, as the spec
 * orders it.
 */
import type { ESTree } from "meriyah"
import { staticKey } from "../language/static-semantics.ts"
import { arrayPatternSite, destructureSite, patternPropertySite, type PatternSource } from "../language/call-printer.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { toThrowCompletion } from "../runtime/errors.ts"
import type { IteratorRecord } from "../runtime/iteration.ts"
import { notDestructurableMessage } from "../runtime/not-destructurable.ts"
import type { NotIterableSite } from "../runtime/not-iterable.ts"
import { JSObject } from "../runtime/object.ts"
import { CopyDataProperties } from "../runtime/operations.ts"
import { isTask, type Task } from "../runtime/task.ts"
import { EMPTY, type Empty, type PropertyKey, type Value } from "../runtime/value.ts"
import { ToBoolean } from "../runtime/conversions.ts"
import { GetIteratorTask, IteratorCloseForThrow, IteratorCloseIfNotDone, IteratorRest, iteratorStepFast } from "../runtime/iterator-steps.ts"
import { Evaluate, NamedEvaluation } from "./expressions.ts"
import { GeneratorReturn } from "./generators.ts"
import type { Activation, Eval } from "./machine.ts"
import { slow } from "./machine.ts"
import { BinaryOperation, increment, ToNumericValue } from "./operators.ts"
import {
  GetBindingValue,
  GetElement,
  GetField,
  GetMember,
  PrepareMember,
  PutBindingValue,
  PutMember,
  ToPropertyKeyValue,
} from "./references.ts"

type Target = ESTree.Pattern | ESTree.Expression | ESTree.Parameter

// --- Assignment -----------------------------------------------------------------------------------------------

const shortCircuits = (op: string, v: Value): boolean =>
  op === "&&=" ? !ToBoolean(v) : op === "||=" ? ToBoolean(v) : v !== undefined && v !== null

export function* AssignmentExpression(a: Activation, node: ESTree.AssignmentExpression): Eval<Value> {
  const left = node.left
  const op = node.operator
  const layout = a.program.layout
  if (op === "=") {
    if (left.type === "Identifier") {
      const v = yield* NamedEvaluation(a, node.right, left.name)
      yield* PutBindingValue(a, layout.ref(left), left.name, v, false)
      return v
    }
    if (left.type === "MemberExpression") {
      const r = yield* PrepareMember(a, left)
      const v = yield* Evaluate(a, node.right)
      return yield* PutMember(a, left, r, v)
    }
    const v = yield* Evaluate(a, node.right)
    yield* BindingInitialization(a, left as ESTree.Pattern, v, false, node.right)
    return v
  }
  const logical = op === "&&=" || op === "||=" || op === "??="
  if (left.type === "Identifier") {
    const ref = layout.ref(left)
    const current = yield* GetBindingValue(a, ref, left.name)
    let v: Value
    if (logical) {
      if (shortCircuits(op, current)) return current
      v = yield* NamedEvaluation(a, node.right, left.name)
    } else {
      const r = yield* Evaluate(a, node.right)
      a.offset = node.start ?? a.offset
      v = yield* BinaryOperation(a, op.slice(0, -1), current, r)
    }
    yield* PutBindingValue(a, ref, left.name, v, false)
    return v
  }
  if (left.type !== "MemberExpression") throw new Error(`codemode bug: compound assignment to ${left.type}`)
  const ref = yield* PrepareMember(a, left)
  const current = yield* GetMember(a, ref)
  if (logical) {
    if (shortCircuits(op, current)) return current
    return yield* PutMember(a, left, ref, yield* Evaluate(a, node.right))
  }
  const r = yield* Evaluate(a, node.right)
  a.offset = node.start ?? a.offset
  return yield* PutMember(a, left, ref, yield* BinaryOperation(a, op.slice(0, -1), current, r))
}

export function* UpdateExpression(a: Activation, node: ESTree.UpdateExpression): Eval<Value> {
  const delta = node.operator === "++" ? 1 : -1
  const arg = node.argument
  if (arg.type === "Identifier") {
    const ref = a.program.layout.ref(arg)
    const old = yield* ToNumericValue(a, yield* GetBindingValue(a, ref, arg.name))
    const v = increment(old, delta)
    yield* PutBindingValue(a, ref, arg.name, v, false)
    return node.prefix ? v : old
  }
  if (arg.type !== "MemberExpression") throw new Error(`codemode bug: update of ${arg.type}`)
  const ref = yield* PrepareMember(a, arg)
  const old = yield* ToNumericValue(a, yield* GetMember(a, ref))
  const v = increment(old, delta)
  yield* PutMember(a, arg, ref, v)
  return node.prefix ? v : old
}

// --- Destructuring --------------------------------------------------------------------------------------------

/**
 * Binds (`init`) or assigns `value` to a pattern. `source`: where the value comes from, named in V8's messages
 * ("Cannot destructure property 'a' of 'x' as it is undefined."); `site`: what V8 names if an array pattern's
 * value is not iterable, when not its source (decided only for an array pattern: most targets are names).
 */
export function* BindingInitialization(
  a: Activation,
  node: Target,
  value: Value,
  init: boolean,
  source?: PatternSource,
  site?: NotIterableSite,
): Eval<void> {
  a.offset = node.start ?? a.offset
  switch (node.type) {
    case "Identifier":
      return yield* PutBindingValue(a, a.program.layout.ref(node), node.name, value, init)
    case "ObjectPattern":
      return yield* ObjectPattern(a, node, value, init, source)
    case "ArrayPattern":
      return yield* ArrayPattern(a, node, value, init, site ?? arrayPatternSite(source, init))
    case "AssignmentPattern":
      if (value === undefined) value = yield* DefaultValue(a, node.left, node.right as ESTree.Expression)
      return yield* BindingInitialization(a, node.left, value, init, source === "parameter" ? "parameterDefault" : undefined)
    case "MemberExpression":
      return yield* BindTarget(a, node, value)
    default:
      throw new Error(`codemode bug: ${node.type} as a destructuring target`)
  }
}

function* DefaultValue(a: Activation, target: Target, value: ESTree.Expression): Eval<Value> {
  if (target.type === "Identifier") return yield* NamedEvaluation(a, value, target.name)
  return yield* Evaluate(a, value)
}

/** One element of a pattern: evaluate the target reference, fetch the value, apply the default, store. */
function* element(a: Activation, target: Target, init: boolean, getValue: () => Eval<Value>, site?: NotIterableSite): Eval<void> {
  let def: ESTree.Expression | undefined
  if (target.type === "AssignmentPattern") {
    def = target.right as ESTree.Expression
    target = target.left
  }
  const member = !init && target.type === "MemberExpression" ? target : undefined
  const ref = member !== undefined ? yield* PrepareMember(a, member) : undefined
  let v = yield* getValue()
  if (def !== undefined && v === undefined) v = yield* DefaultValue(a, target, def)
  if (member !== undefined) yield* PutMember(a, member, ref!, v)
  else yield* BindingInitialization(a, target, v, init, undefined, site)
}

function* ObjectPattern(a: Activation, node: ESTree.ObjectPattern, value: Value, init: boolean, source: PatternSource | undefined): Eval<void> {
  // RequireObjectCoercible, with V8's message naming the first property and the source.
  if (value === undefined || value === null) throwTypeError(notDestructurableMessage(destructureSite(node, source), value))
  const excluded: PropertyKey[] = []
  for (const p of node.properties) {
    if (p.type === "RestElement") {
      const target = p.argument
      const member = !init && target.type === "MemberExpression" ? target : undefined
      const ref = member !== undefined ? yield* PrepareMember(a, member) : undefined
      const rest = new JSObject(a.realm.ObjectPrototype)
      yield* slow(CopyDataProperties(a.realm, rest, value, excluded))
      if (member !== undefined) yield* PutMember(a, member, ref!, rest)
      else yield* BindingInitialization(a, target, rest, init)
      continue
    }
    const site = p.value.type === "ArrayPattern" ? patternPropertySite(source) : undefined
    if (p.computed) {
      const key = yield* ToPropertyKeyValue(a, yield* Evaluate(a, p.key))
      excluded.push(key)
      yield* element(a, p.value, init, () => GetElement(a, value, key as Value), site)
    } else {
      const name = staticKey(p.key)
      excluded.push(name)
      yield* element(a, p.value, init, () => GetField(a, value, name), site)
    }
  }
}

/** IteratorStepValue for destructuring: the next value, undefined once done. */
function* IterStep(a: Activation, record: IteratorRecord): Eval<Value> {
  const step = iteratorStepFast(a.realm, record)
  const v = isTask(step) ? yield* slow(step as Task<Value | Empty>) : (step as Value | Empty)
  return v === EMPTY ? undefined : v
}

function* ArrayPattern(a: Activation, node: ESTree.ArrayPattern, value: Value, init: boolean, site: NotIterableSite | undefined): Eval<void> {
  const realm = a.realm
  const record = (yield* slow(GetIteratorTask(realm, value, site))) as unknown as IteratorRecord
  const env = a.env
  try {
    for (const el of node.elements) {
      if (el === null) yield* IterStep(a, record)
      else if (el.type === "RestElement") {
        const target = el.argument
        const member = !init && target.type === "MemberExpression" ? target : undefined
        const ref = member !== undefined ? yield* PrepareMember(a, member) : undefined
        const rest = yield* slow(IteratorRest(realm, record))
        if (member !== undefined) yield* PutMember(a, member, ref!, rest)
        else yield* BindingInitialization(a, target, rest, init)
      } else {
        yield* element(a, el, init, () => IterStep(a, record))
      }
    }
  } catch (e) {
    // A return resumption leaves the pattern without closing the iterator (as the VM does).
    if (e instanceof GeneratorReturn) throw e
    const tc = toThrowCompletion(realm, e)
    a.env = env
    if (record.done) throw tc
    yield* slow(IteratorCloseForThrow(realm, record, tc.value))
  }
  yield* slow(IteratorCloseIfNotDone(realm, record))
}

/** A for-in/of head that is an assignment target. */
export function* BindTarget(a: Activation, target: Target, value: Value): Eval<void> {
  if (target.type !== "MemberExpression") return yield* BindingInitialization(a, target, value, false)
  const ref = yield* PrepareMember(a, target)
  yield* PutMember(a, target, ref, value)
}
