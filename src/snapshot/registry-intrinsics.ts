/**
 * Heap classes of the built-ins (src/intrinsics): the internal slots of Maps, Dates, RegExps, buffers, iterators,
 * URLs, encoders, console state... with the shapes of their fields. Like registry-runtime.ts, every field is
 * listed, and what can be derived from other fields (a collection's key index) is not saved but rebuilt, which
 * also makes it consistent by construction.
 */
import { ArrayBufferObject, DataViewObject, ElementInfoOf, TypedArrayObject } from "../intrinsics/bytes-objects.ts"
import { FromAsyncState } from "../intrinsics/array-from-async.ts"
import { DisposableStackObject } from "../intrinsics/disposable-stack.ts"
import { ConsoleObject } from "../intrinsics/console.ts"
import { DateObject } from "../intrinsics/date.ts"
import { DOMExceptionObject, TextDecoderObject, TextEncoderObject } from "../intrinsics/encoding.ts"
import { HeadersIteratorObject, HeadersObject } from "../intrinsics/headers.ts"
import {
  ArrayIteratorObject,
  IteratorHelperObject,
  RegExpStringIteratorObject,
  StringIteratorObject,
  WrapForValidIteratorObject,
} from "../intrinsics/iterator.ts"
import { CollectionIterator, KeyedCollection, MapObject, SetObject, WeakCollection } from "../intrinsics/map-set.ts"
import { MathObject } from "../intrinsics/math.ts"
import { RegExpObject } from "../intrinsics/regexp.ts"
import { URLObject, URLSearchParamsIteratorObject, URLSearchParamsObject } from "../intrinsics/url.ts"
import { EMPTY, type Value } from "../runtime/value.ts"
import type { RestoreContext } from "./context.ts"
import type { HeapClass } from "./heap-codec.ts"
import { errorFields, objectClass } from "./registry-runtime.ts"
import { bytes, inst, lit, map, nullable, num, opt, set, tuple } from "./shape.ts"
import { arr, bool, capability, int, iterationKind, nat, obj, optObj, str, value, valueOrEmpty } from "./value-shapes.ts"

type Entry = HeapClass<RestoreContext>

const collectionFields = [
  ["entryKeys", arr(valueOrEmpty)],
  ["entryValues", arr(value)],
  ["cursors", arr(inst("CollectionIterator"))],
] as const

/** The key index of a collection is derived from its keys: rebuilt, never trusted. */
const restoreCollection = (c: KeyedCollection): void => {
  const index = new Map<Value, number>()
  c.entryKeys.forEach((k, i) => {
    if (k === EMPTY) return
    if (index.has(k)) throw new Error("a key appears twice")
    index.set(k, i)
  })
  Object.assign(c, { index })
}

const collection = (name: string, ctor: Entry["ctor"]): Entry =>
  objectClass(name, ctor, collectionFields, {
    transient: ["index"],
    restore: restoreCollection,
    validate: (c: KeyedCollection) => (c.entryKeys.length !== c.entryValues.length ? "keys and values differ in length" : undefined),
  })

export const intrinsicClasses: ReadonlyArray<Entry> = [
  objectClass("DateObject", DateObject, [["dateValue", num]]),
  objectClass("RegExpObject", RegExpObject, [
    ["originalSource", str],
    ["originalFlags", str],
  ], {
    // The matcher is compiled from source and flags when first used: refuse what the host cannot compile now.
    validate: (r: RegExpObject) => {
      try {
        new RegExp(r.originalSource, r.originalFlags.replace(/[^dgimsuvy]/g, ""))
        return undefined
      } catch {
        return "its pattern does not compile"
      }
    },
  }),
  objectClass("URLObject", URLObject, [
    ["href", str],
    ["searchParams", opt(inst("URLSearchParamsObject"))],
  ]),
  objectClass("URLSearchParamsObject", URLSearchParamsObject, [
    ["list", arr(tuple(str, str))],
    ["url", opt(inst("URLObject"))],
  ]),
  objectClass("URLSearchParamsIteratorObject", URLSearchParamsIteratorObject, [
    ["target", inst("URLSearchParamsObject")],
    ["iterationKind", iterationKind],
    ["index", nat],
  ]),
  objectClass("WrapForValidIteratorObject", WrapForValidIteratorObject, [
    ["iterator", obj],
    ["nextMethod", value],
  ]),
  objectClass("IteratorHelperObject", IteratorHelperObject, [
    ["helperKind", lit("map", "filter", "take", "drop", "flatMap")],
    ["iterator", obj],
    ["nextMethod", value],
    ["fn", value],
    ["remaining", num],
    ["counter", num],
    ["inner", optObj],
    ["innerNext", value],
    ["state", lit("suspended-start", "suspended-yield", "executing", "completed")],
  ]),
  objectClass("ArrayIteratorObject", ArrayIteratorObject, [
    ["iterated", optObj],
    ["nextIndex", nat],
    ["iterationKind", iterationKind],
  ]),
  objectClass("StringIteratorObject", StringIteratorObject, [
    ["iterated", opt(str)],
    ["position", nat],
  ]),
  objectClass("RegExpStringIteratorObject", RegExpStringIteratorObject, [
    ["iteratingRegExp", obj],
    ["iteratedString", str],
    ["global", bool],
    ["fullUnicode", bool],
    ["done", bool],
  ]),
  objectClass("FromAsyncState", FromAsyncState, [
    ["promise", obj],
    ["resolve", value],
    ["reject", value],
    ["C", value],
    ["mapfn", value],
    ["thisArg", value],
    ["iterator", optObj],
    ["nextMethod", value],
    ["syncIterator", bool],
    ["arrayLike", optObj],
    ["len", nat],
    ["A", optObj],
    ["k", nat],
    ["phase", lit("start", "iter-next", "iter-mapped", "iter-closing", "iter-closing-sync", "al-value", "al-mapped", "settled")],
    ["closeReason", value],
  ]),
  objectClass("MathObject", MathObject, []),
  objectClass("DOMExceptionObject", DOMExceptionObject, [
    ...errorFields,
    ["exceptionName", str],
    ["exceptionMessage", str],
  ]),
  objectClass("TextEncoderObject", TextEncoderObject),
  objectClass("TextDecoderObject", TextDecoderObject, [
    ["encoding", str],
    ["fatal", bool],
    ["ignoreBOM", bool],
    ["doNotFlush", bool],
    ["bomSeen", bool],
    ["state", arr(int)],
  ]),
  objectClass("ArrayBufferObject", ArrayBufferObject, [
    ["data", nullable(bytes)],
    ["maxByteLength", opt(nat)],
  ], {
    validate: (b: ArrayBufferObject) =>
      b.data !== null && b.maxByteLength !== undefined && b.data.length > b.maxByteLength ? "larger than its maximum length" : undefined,
  }),
  objectClass("TypedArrayObject", TypedArrayObject, [
    ["typedArrayName", (v, w, c) => lit(...ElementInfoOf.keys())(v, w, c)],
    ["buffer", inst("ArrayBufferObject")],
    ["byteOffset", nat],
    ["arrayLength", opt(nat)],
  ], {
    validate: (t: TypedArrayObject) => (t.byteOffset % ElementInfoOf.get(t.typedArrayName)!.size !== 0 ? "misaligned offset" : undefined),
  }),
  objectClass("DataViewObject", DataViewObject, [
    ["buffer", inst("ArrayBufferObject")],
    ["byteOffset", nat],
    ["byteLength", opt(nat)],
  ]),
  objectClass("ConsoleObject", ConsoleObject, [
    ["groupIndentation", str],
    ["counts", map(str, num)],
    ["timers", set(str)],
  ]),
  objectClass("CollectionIterator", CollectionIterator, [
    ["collection", opt(inst("KeyedCollection"))],
    ["position", nat],
    ["iterationKind", iterationKind],
  ], {
    // A live walker is registered in its collection (compaction moves it): the two must agree.
    validate: (it: CollectionIterator) => (it.collection !== undefined && !it.collection.cursors.includes(it) ? "not registered in its collection" : undefined),
  }),
  collection("KeyedCollection", KeyedCollection),
  collection("MapObject", MapObject),
  collection("SetObject", SetObject),
  objectClass("WeakCollection", WeakCollection, [["data", map(value, value)]]),
  objectClass("HeadersObject", HeadersObject, [
    ["map", map(str, str)],
    ["cookies", arr(str)],
  ]),
  objectClass("DisposableStackObject", DisposableStackObject, [
    ["async", bool],
    ["state", lit("pending", "disposed")],
    ["capability", inst("DisposeCapability")],
    ["pending", opt(capability)],
  ]),
  objectClass("HeadersIteratorObject", HeadersIteratorObject, [
    ["target", inst("HeadersObject")],
    ["iterationKind", iterationKind],
    ["index", nat],
  ]),
]
