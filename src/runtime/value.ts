/**
 * Sandbox values. Primitives are host primitives (undefined, null, boolean, number, string, bigint) except Symbol,
 * which is a `SymbolValue` so that no host symbol (and no host prototype) is ever reachable from a program. Every
 * object is a `JSObject` from object.ts. Nothing else may flow through a register, a property or an argument.
 */
import type { JSObject } from "./object.ts"

/** https://tc39.es/ecma262/#sec-symbol-type — a primitive with identity; `description` is undefined or a string. */
export class SymbolValue {
  readonly description: string | undefined
  /** The spec name of a well-known symbol ("Symbol.iterator") or a registry key ("for:<key>"); lets snapshots name it. */
  readonly wellKnownName: string | undefined
  constructor(description: string | undefined, wellKnownName?: string) {
    this.description = description
    this.wellKnownName = wellKnownName
  }
}

export type Primitive = undefined | null | boolean | number | string | bigint | SymbolValue
export type Value = Primitive | JSObject
export type PropertyKey = string | SymbolValue

/** https://tc39.es/ecma262/#sec-ecmascript-data-types-and-values */
export type TypeTag = "Undefined" | "Null" | "Boolean" | "Number" | "String" | "BigInt" | "Symbol" | "Object"

export const isSymbol = (v: unknown): v is SymbolValue => v instanceof SymbolValue

/**
 * Whether `v` is one of the engine's markers (EMPTY, a lookup's miss, a Task's FINISHED...), all host symbols, which
 * no sandbox value is (a program's symbols are SymbolValues). Hot paths test the type rather than compare: V8 has
 * no pointer comparison for `v === EMPTY` over values of mixed types (objects, numbers and the marker), and calls
 * its generic StrictEqual builtin each time.
 */
export const isMarker = (v: unknown): v is symbol => typeof v === "symbol"

/** Marks an array hole in dense element storage and an uninitialized (TDZ) binding. Never a sandbox value. */
export const EMPTY: unique symbol = Symbol("empty")
export type Empty = typeof EMPTY

/** The well-known symbols, shared by every realm of the build: their identity is part of the snapshot format. */
export const WellKnownSymbols = {
  asyncIterator: new SymbolValue("Symbol.asyncIterator", "Symbol.asyncIterator"),
  hasInstance: new SymbolValue("Symbol.hasInstance", "Symbol.hasInstance"),
  isConcatSpreadable: new SymbolValue("Symbol.isConcatSpreadable", "Symbol.isConcatSpreadable"),
  iterator: new SymbolValue("Symbol.iterator", "Symbol.iterator"),
  match: new SymbolValue("Symbol.match", "Symbol.match"),
  matchAll: new SymbolValue("Symbol.matchAll", "Symbol.matchAll"),
  replace: new SymbolValue("Symbol.replace", "Symbol.replace"),
  search: new SymbolValue("Symbol.search", "Symbol.search"),
  species: new SymbolValue("Symbol.species", "Symbol.species"),
  split: new SymbolValue("Symbol.split", "Symbol.split"),
  toPrimitive: new SymbolValue("Symbol.toPrimitive", "Symbol.toPrimitive"),
  toStringTag: new SymbolValue("Symbol.toStringTag", "Symbol.toStringTag"),
  unscopables: new SymbolValue("Symbol.unscopables", "Symbol.unscopables"),
  dispose: new SymbolValue("Symbol.dispose", "Symbol.dispose"),
  asyncDispose: new SymbolValue("Symbol.asyncDispose", "Symbol.asyncDispose"),
} as const
