/**
 * Classes (https://tc39.es/ecma262/#sec-runtime-semantics-classdefinitionevaluation): the class scope with its
 * private names and inner binding, the heritage, the constructor and prototype, methods and accessors (public and
 * private, static and instance), fields (instance fields recorded on the constructor and initialized by
 * InitializeInstanceElements; static fields defined once the class exists) and static blocks, in the element
 * order the compiler uses. Field initializers and static blocks are functions of their own (functions.ts).
 */
import type { ESTree } from "meriyah"
import { methodSourceRange, staticKey } from "../language/static-semantics.ts"
import {
  CheckClassHeritage,
  ClassCreate,
  DefineMethodProperty,
  DefinePrivateMethod,
  MethodKind,
  PrivateElementAdd,
} from "../runtime/class-elements.ts"
import { MakeFunction } from "../runtime/function-create.ts"
import type { ScriptFunction } from "../runtime/function-object.ts"
import { PrivateName } from "../runtime/object.ts"
import { CreateDataPropertyOrThrow } from "../runtime/operations.ts"
import type { PropertyKey, Value } from "../runtime/value.ts"
import { Evaluate, PropertyKeyOf } from "./expressions.ts"
import { CallFunction, InstantiateFunction } from "./functions.ts"
import type { Activation, Eval } from "./machine.ts"
import { GetField, privateNameOf, ToPropertyKeyValue } from "./references.ts"

type ClassNode = ESTree.ClassDeclaration | ESTree.ClassExpression

export { DefineMethodProperty, MethodKind }

/** ClassDefinitionEvaluation; the class constructor. */
export function* ClassDefinitionEvaluation(a: Activation, node: ClassNode, name: string): Eval<Value> {
  const realm = a.realm
  const layout = a.program.layout
  const scope = a.program.analysis.scopes.get(node)
  if (scope === undefined) throw new Error("codemode bug: class without a scope")
  const outer = a.env
  a.env = layout.enter(scope, outer)
  for (const b of scope.bindings.values()) {
    if (b.kind === "private") a.env!.slots[layout.slot(b)] = new PrivateName(b.name)
  }
  const derived = node.superClass !== null
  let superclass: Value = undefined
  let protoParent: Value = undefined
  if (node.superClass !== null) {
    superclass = yield* Evaluate(a, node.superClass)
    CheckClassHeritage(superclass)
    protoParent = superclass === null ? null : yield* GetField(a, superclass, "prototype")
  }
  const elements = node.body.body
  const ctor = elements.find((el): el is ESTree.MethodDefinition => el.type === "MethodDefinition" && el.kind === "constructor")
  const ctorCode = ctor !== undefined ? a.program.code(ctor.value, name, node) : a.program.implicitConstructor(node, name)
  const env = a.env
  const { F, proto } = ClassCreate(realm, derived, superclass, protoParent, (ctorParent) => MakeFunction(realm, ctorCode, env, ctorParent))

  const staticElements: Array<() => Eval<void>> = []
  for (const el of elements) {
    a.offset = el.start ?? a.offset
    if (el.type === "MethodDefinition") {
      if (el.kind === "constructor") continue
      const kind = el.kind === "get" ? MethodKind.Getter : el.kind === "set" ? MethodKind.Setter : MethodKind.Method
      if (el.key?.type === "PrivateIdentifier") {
        const P = privateNameOf(a, el.key)
        const fn = InstantiateFunction(a, el.value, `#${el.key.name}`, methodSourceRange(el, a.program.source))
        DefinePrivateMethod(F, P, fn, kind, el.static)
        continue
      }
      const key = yield* PropertyKeyOf(a, el.key as ESTree.Expression, el.computed)
      const fn = InstantiateFunction(a, el.value, el.computed ? "" : staticKey(el.key as ESTree.Expression), methodSourceRange(el, a.program.source))
      DefineMethodProperty(el.static ? F : proto, key, fn, kind, false)
    } else if (el.type === "PropertyDefinition") {
      const key: PropertyKey | PrivateName =
        el.key.type === "PrivateIdentifier"
          ? privateNameOf(a, el.key)
          : el.computed
            ? yield* ToPropertyKeyValue(a, yield* Evaluate(a, el.key as ESTree.Expression))
            : staticKey(el.key as ESTree.Expression)
      if (!el.static) {
        const init = el.value === null ? undefined : InstantiateFunction(a, el, "")
        if (init !== undefined) init.homeObject = proto
        F.fields.push({ name: key, initializer: init })
        continue
      }
      const env = a.env
      staticElements.push(function* () {
        let value: Value = undefined
        if (el.value !== null) value = yield* callWithClassAsThis(a, MakeFunction(realm, a.program.code(el, ""), env), F)
        if (key instanceof PrivateName) PrivateElementAdd(F, key, { kind: "field", value, get: undefined, set: undefined })
        else CreateDataPropertyOrThrow(F, key, value)
      })
    } else if (el.type === "StaticBlock") {
      const env = a.env
      staticElements.push(function* () {
        yield* callWithClassAsThis(a, MakeFunction(realm, a.program.code(el, ""), env), F)
      })
    } else {
      throw new Error(`codemode bug: class element ${(el as ESTree.Node).type}`)
    }
  }
  const inner = node.id === null ? undefined : scope.bindings.get(node.id.name)
  if (inner !== undefined) a.env!.slots[layout.slot(inner)] = F
  for (const run of staticElements) yield* run()
  a.env = outer
  return F
}

/** Calls a static field initializer or static block with the class as `this` (and home object). */
function* callWithClassAsThis(a: Activation, fn: ScriptFunction, F: ScriptFunction): Eval<Value> {
  fn.homeObject = F
  return yield* CallFunction(a, fn, F, [], "(intermediate value)")
}
