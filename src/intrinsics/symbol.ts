/**
 * Symbol objects (https://tc39.es/ecma262/#sec-symbol-objects): the Symbol function (callable, not
 * constructible), the global registry (`Symbol.for` / `Symbol.keyFor` over `realm.symbolRegistry`), the well-known
 * symbols as non-writable statics, and Symbol.prototype. Symbols are `SymbolValue`s; a registered symbol carries
 * `for:<key>` as its snapshot name.
 */
import { defineAccessors, defineConstructor, defineMethods, defineValues } from "../runtime/builtin.ts"
import { throwTypeError } from "../runtime/completion.ts"
import { ToString } from "../runtime/conversions.ts"
import { JSObject } from "../runtime/object.ts"
import { describeValue } from "../runtime/operations.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import type { Realm } from "../runtime/realm.ts"
import type { Task } from "../runtime/task.ts"
import { SymbolValue, type Value, WellKnownSymbols } from "../runtime/value.ts"

// https://tc39.es/ecma262/#sec-symbol-description
function* Symbol_constructor(realm: Realm, _this: Value, args: ReadonlyArray<Value>, newTarget: JSObject | undefined): Task<Value> {
  if (newTarget !== undefined) return throwTypeError("Symbol is not a constructor")
  const description = args[0]
  const descString = description === undefined ? undefined : yield* ToString(realm, description)
  return new SymbolValue(descString)
}

// https://tc39.es/ecma262/#sec-symbol.for
function* Symbol_for(realm: Realm, _this: Value, args: ReadonlyArray<Value>): Task<Value> {
  const stringKey = yield* ToString(realm, args[0])
  const existing = realm.symbolRegistry.get(stringKey)
  if (existing !== undefined) return existing
  const newSymbol = new SymbolValue(stringKey, `for:${stringKey}`)
  realm.symbolRegistry.set(stringKey, newSymbol)
  return newSymbol
}

// https://tc39.es/ecma262/#sec-symbol.keyfor
const Symbol_keyFor = (realm: Realm, _this: Value, args: ReadonlyArray<Value>): Value => {
  const sym = args[0]
  if (!(sym instanceof SymbolValue)) return throwTypeError(`${describeValue(sym).replace(/^"(.*)"$/s, "$1")} is not a symbol`)
  // https://tc39.es/ecma262/#sec-keyforsymbol
  if (sym.description !== undefined && realm.symbolRegistry.get(sym.description) === sym) return sym.description
  return undefined
}

// https://tc39.es/ecma262/#sec-thissymbolvalue
const thisSymbolValue = (value: Value, method: string): SymbolValue => {
  if (value instanceof SymbolValue) return value
  if (value instanceof PrimitiveWrapper && value.primitive instanceof SymbolValue) return value.primitive
  return throwTypeError(`${method} requires that 'this' be a Symbol`)
}

// https://tc39.es/ecma262/#sec-symboldescriptivestring
export const SymbolDescriptiveString = (sym: SymbolValue): string => `Symbol(${sym.description ?? ""})`

// https://tc39.es/ecma262/#sec-symbol.prototype.tostring
const SymbolProto_toString = (_realm: Realm, thisArg: Value): Value =>
  SymbolDescriptiveString(thisSymbolValue(thisArg, "Symbol.prototype.toString"))

// https://tc39.es/ecma262/#sec-symbol.prototype.valueof
const SymbolProto_valueOf = (_realm: Realm, thisArg: Value): Value => thisSymbolValue(thisArg, "Symbol.prototype.valueOf")

// https://tc39.es/ecma262/#sec-symbol.prototype.description
const SymbolProto_description = (_realm: Realm, thisArg: Value): Value =>
  thisSymbolValue(thisArg, "Symbol.prototype.description").description

// https://tc39.es/ecma262/#sec-symbol.prototype-%symbol.toprimitive%
const SymbolProto_toPrimitive = (_realm: Realm, thisArg: Value): Value =>
  thisSymbolValue(thisArg, "Symbol.prototype [ @@toPrimitive ]")

export const install = (realm: Realm): void => {
  const proto = new JSObject(realm.ObjectPrototype)
  const SymbolCtor = defineConstructor(realm, "Symbol", Symbol_constructor, 0, proto)
  defineMethods(realm, SymbolCtor, "%Symbol%", [
    ["for", Symbol_for, 1],
    ["keyFor", Symbol_keyFor, 1],
  ])
  defineValues(
    SymbolCtor,
    Object.entries(WellKnownSymbols).map(([name, sym]) => [name, sym] as const),
  )
  defineMethods(realm, proto, "%Symbol.prototype%", [
    ["toString", SymbolProto_toString, 0],
    ["valueOf", SymbolProto_valueOf, 0],
  ])
  defineAccessors(realm, proto, "%Symbol.prototype%", [["description", SymbolProto_description, undefined]])
  defineValues(proto, [[WellKnownSymbols.toStringTag, "Symbol"]], { writable: false, enumerable: false, configurable: true })
  defineMethods(realm, proto, "%Symbol.prototype%", [[WellKnownSymbols.toPrimitive, SymbolProto_toPrimitive, 1]])
  // Symbol.prototype[@@toPrimitive] is { [[Writable]]: false, [[Enumerable]]: false, [[Configurable]]: true }.
  proto.properties.get(WellKnownSymbols.toPrimitive)!.writable = false
}
