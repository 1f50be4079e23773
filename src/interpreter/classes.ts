/**
 * Classes (https://tc39.es/ecma262/#sec-runtime-semantics-classdefinitionevaluation): the class scope with its
 * private names and inner binding, the heritage, the constructor and prototype, methods and accessors (public and
 * private, static and instance), fields (instance fields recorded on the constructor and initialized by
 * InitializeInstanceElements; static fields defined once the class exists) and static blocks, in the element
 * order the compiler uses. Field initializers and static blocks are functions of their own (functions.ts).
 */
import type { ESTree } from "meriyah"
import { staticKey } from "../language/static-semantics.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { MakeFunction, SetFunctionName } from "../runtime/function-create.ts"
import { IsConstructor, type ScriptFunction } from "../runtime/function-object.ts"
import { JSObject, PrivateName } from "../runtime/object.ts"
import { CreateDataPropertyOrThrow, DefinePropertyOrThrow, describeValue } from "../runtime/operations.ts"
import { Property } from "../runtime/property.ts"
import type { PropertyKey, Value } from "../runtime/value.ts"
import { PrivateElementAdd } from "../vm/operations.ts"
import { Evaluate, PropertyKeyOf } from "./expressions.ts"
import { CallFunction, InstantiateFunction } from "./functions.ts"
import type { Activation, Eval } from "./machine.ts"
import { GetField, privateNameOf, ToPropertyKeyValue } from "./references.ts"

type ClassNode = ESTree.ClassDeclaration | ESTree.ClassExpression

export const MethodKind = { Method: 0, Getter: 1, Setter: 2 } as const
export type MethodKind = (typeof MethodKind)[keyof typeof MethodKind]

/** Defines a method or accessor property (DefineMethod): home object, name, then the property. */
export const DefineMethodProperty = (obj: JSObject, key: PropertyKey, fn: ScriptFunction, kind: MethodKind, enumerable: boolean): void => {
  fn.homeObject = obj
  SetFunctionName(fn, key, kind === MethodKind.Getter ? "get" : kind === MethodKind.Setter ? "set" : undefined)
  if (kind === MethodKind.Method) DefinePropertyOrThrow(obj, key, { value: fn, writable: true, enumerable, configurable: true })
  else if (kind === MethodKind.Getter) DefinePropertyOrThrow(obj, key, { get: fn, enumerable, configurable: true })
  else DefinePropertyOrThrow(obj, key, { set: fn, enumerable, configurable: true })
}

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
    if (superclass !== null && !IsConstructor(superclass)) throwTypeError(`Class extends value ${describeValue(superclass)} is not a constructor or null`)
    protoParent = superclass === null ? null : yield* GetField(a, superclass, "prototype")
  }
  const elements = node.body.body
  const ctor = elements.find((el): el is ESTree.MethodDefinition => el.type === "MethodDefinition" && el.kind === "constructor")
  const ctorCode = ctor !== undefined ? a.program.code(ctor.value, name, node) : a.program.implicitConstructor(node, name)
  // ClassCreate: the prototype's parent and the constructor's parent from the heritage.
  let protoP: JSObject | null = realm.ObjectPrototype
  let ctorParent: JSObject = realm.FunctionPrototype
  if (derived && superclass !== null) {
    if (!(protoParent instanceof JSObject) && protoParent !== null) {
      throwTypeError(`Class extends value does not have valid prototype property ${describeValue(protoParent)}`)
    }
    protoP = protoParent as JSObject | null
    ctorParent = superclass as JSObject
  } else if (derived) protoP = null
  const proto = new JSObject(protoP)
  const F = MakeFunction(realm, ctorCode, a.env, ctorParent)
  F.isClassConstructor = true
  F.constructorKind = derived ? "derived" : "base"
  F.homeObject = proto
  F.properties.set("prototype", Property.data(proto, false, false, false))
  proto.properties.set("constructor", Property.data(F, true, false, true))

  const staticElements: Array<() => Eval<void>> = []
  for (const el of elements) {
    a.offset = el.start ?? a.offset
    if (el.type === "MethodDefinition") {
      if (el.kind === "constructor") continue
      const kind = el.kind === "get" ? MethodKind.Getter : el.kind === "set" ? MethodKind.Setter : MethodKind.Method
      if (el.key?.type === "PrivateIdentifier") {
        const P = privateNameOf(a, el.key)
        const fn = InstantiateFunction(a, el.value, `#${el.key.name}`)
        addPrivateMethod(F, P, fn, kind, el.static)
        continue
      }
      const key = yield* PropertyKeyOf(a, el.key as ESTree.Expression, el.computed)
      const fn = InstantiateFunction(a, el.value, el.computed ? "" : staticKey(el.key as ESTree.Expression))
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

/** Records a private method or accessor: on the class for instances, or at once on the class itself (static). */
const addPrivateMethod = (F: ScriptFunction, P: PrivateName, fn: ScriptFunction, kind: MethodKind, isStatic: boolean): void => {
  fn.homeObject = isStatic ? F : (F.properties.get("prototype")?.value as JSObject)
  SetFunctionName(fn, P, kind === MethodKind.Getter ? "get" : kind === MethodKind.Setter ? "set" : undefined)
  const get = kind === MethodKind.Getter ? fn : undefined
  const set = kind === MethodKind.Setter ? fn : undefined
  if (isStatic) {
    const existing = F.privateElements?.get(P)
    if (kind === MethodKind.Method) PrivateElementAdd(F, P, { kind: "method", value: fn, get: undefined, set: undefined })
    else if (existing !== undefined && existing.kind === "accessor") {
      F.privateElements!.set(P, { kind: "accessor", value: undefined, get: get ?? existing.get, set: set ?? existing.set })
    } else PrivateElementAdd(F, P, { kind: "accessor", value: undefined, get, set })
    return
  }
  const i = F.privateMethods.findIndex((pm) => pm.name === P)
  if (kind === MethodKind.Method) F.privateMethods.push({ name: P, kind: "method", value: fn, get: undefined, set: undefined })
  else if (i >= 0) {
    const existing = F.privateMethods[i]!
    F.privateMethods[i] = { name: P, kind: "accessor", value: undefined, get: get ?? existing.get, set: set ?? existing.set }
  } else F.privateMethods.push({ name: P, kind: "accessor", value: undefined, get, set })
}
