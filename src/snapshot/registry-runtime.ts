/**
 * Heap classes of the shared runtime (src/runtime) and the VM (src/vm), with the shapes of their fields: how
 * each is saved, checked and rebuilt. Field lists are complete on purpose — the encoder refuses an instance with a
 * field not listed here, so a field added to a class without a line here fails the snapshot tests at once instead
 * of being silently dropped from saved runs.
 */
import type { CodeObject } from "../compiler/code.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { Caps } from "../runtime/caps.ts"
import { ErrorObject } from "../runtime/errors.ts"
import { BoundFunction, NativeFunction, ScriptFunction } from "../runtime/function-object.ts"
import { AsyncFromSyncIterator, GeneratorObject } from "../runtime/generator.ts"
import { JSObject, PrivateName } from "../runtime/object.ts"
import { PrimitiveWrapper } from "../runtime/primitive-wrapper.ts"
import { PromiseObject } from "../runtime/promise.ts"
import { SymbolValue } from "../runtime/value.ts"
import { Environment, Frame, FrameKind } from "../vm/frame.ts"
import { FastArrayRecord } from "../vm/operations.ts"
import type { RestoreContext } from "./context.ts"
import { SnapshotError } from "./errors.ts"
import { PROPERTIES, type HeapClass } from "./heap-codec.ts"
import { dict, inst, lit, map, nul, opt, or, rec, tuple, type Shape } from "./shape.ts"
import {
  arr,
  bool,
  capability,
  int,
  iteratorRecord,
  nat,
  obj,
  objOrNull,
  optObj,
  primitive,
  privateElement,
  propertyKey,
  reaction,
  slot,
  sourceLocation,
  str,
  value,
  valueOrEmpty,
} from "./value-shapes.ts"

type Fields = ReadonlyArray<readonly [string, Shape]>
type Entry = HeapClass<RestoreContext>

/** The fields every JSObject has (object.ts). */
export const objectFields: Fields = [
  ["proto", objOrNull],
  ["extensible", bool],
  ["properties", PROPERTIES],
  ["kind", str],
  ["privateElements", opt(map(inst("PrivateName"), privateElement))],
]

/** A JSObject subclass: the object's fields, then its own. */
export const objectClass = (
  name: string,
  ctor: Entry["ctor"],
  own: Fields = [],
  extra: Omit<Entry, "name" | "ctor" | "fields"> = {},
): Entry => ({ name, ctor, fields: [...objectFields, ...own], ...extra })

const MAX_ARRAY_LENGTH = 2 ** 32 - 1

/** A proto chain, bound-function chain or environment chain that loops would hang the engine: refuse it. */
const loops = <T>(start: T, next: (x: T) => T | null | undefined): boolean => {
  // Floyd's cycle detection: O(chain) time, O(1) space, whatever the input.
  let slow: T | null | undefined = start
  let fast: T | null | undefined = start
  for (;;) {
    fast = fast === null || fast === undefined ? fast : next(fast)
    fast = fast === null || fast === undefined ? fast : next(fast)
    slow = slow === null || slow === undefined ? slow : next(slow)
    if (fast === null || fast === undefined) return false
    if (fast === slow) return true
  }
}

const validateObject = (o: JSObject): string | undefined => (loops(o, (x) => x.proto) ? "its prototype chain is a cycle" : undefined)

const codeObject: Shape = (v, w) => {
  if (typeof v !== "object" || v === null || !("bytecode" in v)) throw new SnapshotError(`${w}: not a code object`)
}

export const errorFields: Fields = [
  ["location", opt(sourceLocation)],
  ["stack", opt(rec({ value }))],
  ["hostDiagnostic", opt(rec({ kind: str, message: str, path: opt(str) }))],
]

const restoreNative = (f: NativeFunction, ctx: RestoreContext): void => {
  const impl = ctx.natives.get(f.nativeId)
  if (impl === undefined) throw new Error(`unknown built-in function ${f.nativeId}`)
  Object.assign(f, { impl, isTaskImpl: impl.constructor.name === "GeneratorFunction" })
}

export const nativeFunctionFields: Fields = [
  ["nativeId", str],
  ["constructable", bool],
  ["slots", opt(dict(or(value, arr(value))))],
]

export const runtimeClasses: ReadonlyArray<Entry> = [
  objectClass("JSObject", JSObject, [], { validate: validateObject }),
  objectClass(
    "ArrayObject",
    ArrayObject,
    [
      ["elements", or(nul, arr(valueOrEmpty, Caps.maxArrayStorage))],
      ["length", nat],
      ["lengthWritable", bool],
    ],
    {
      validate: (a: ArrayObject) =>
        a.length > MAX_ARRAY_LENGTH
          ? "length out of range"
          : a.elements !== null && a.elements.length > a.length
            ? "more elements than its length"
            : validateObject(a),
    },
  ),
  objectClass("PrimitiveWrapper", PrimitiveWrapper, [["primitive", primitive]], { validate: validateObject }),
  objectClass("ErrorObject", ErrorObject, errorFields, { validate: validateObject }),
  objectClass(
    "PromiseObject",
    PromiseObject,
    [
      ["state", lit("pending", "fulfilled", "rejected")],
      ["result", value],
      ["fulfillReactions", arr(reaction)],
      ["rejectReactions", arr(reaction)],
      ["isHandled", bool],
    ],
    { validate: validateObject },
  ),
  objectClass("NativeFunction", NativeFunction, nativeFunctionFields, {
    transient: ["impl", "isTaskImpl"],
    restore: restoreNative,
    validate: validateObject,
  }),
  objectClass(
    "ScriptFunction",
    ScriptFunction,
    [
      ["code", codeObject],
      ["env", or(nul, inst("Environment"))],
      ["functionKind", lit("normal", "generator", "async", "asyncGenerator")],
      ["thisMode", lit("lexical", "strict", "global")],
      ["strict", bool],
      ["constructable", bool],
      ["isClassConstructor", bool],
      ["constructorKind", lit("base", "derived")],
      ["homeObject", optObj],
      ["fields", arr(rec({ name: or(propertyKey, inst("PrivateName")), initializer: opt(inst("ScriptFunction")) }))],
      [
        "privateMethods",
        arr(rec({ name: inst("PrivateName"), kind: lit("method", "accessor"), value: optObj, get: optObj, set: optObj })),
      ],
      ["boundThis", valueOrEmpty],
    ],
    {
      validate: (f: ScriptFunction, ctx) => (ctx.codes.has(f.code as CodeObject) ? validateObject(f) : "its code is not the program's"),
    },
  ),
  objectClass(
    "BoundFunction",
    BoundFunction,
    [
      ["target", obj],
      ["boundThis", value],
      ["boundArgs", arr(value)],
    ],
    {
      validate: (f: BoundFunction) =>
        !f.target.isCallable() ? "its target is not callable" : loops<JSObject>(f, (x) => (x instanceof BoundFunction ? x.target : null)) ? "its target chain is a cycle" : validateObject(f),
    },
  ),
  objectClass(
    "GeneratorObject",
    GeneratorObject,
    [
      ["brand", lit("Generator", "AsyncGenerator", "AsyncFunction")],
      ["state", lit("suspendedStart", "suspendedYield", "executing", "awaiting-return", "completed")],
      ["engineState", opt(inst("Frame"))],
      ["queue", arr(rec({ completion: rec({ kind: lit("next", "throw", "return"), value }), capability }))],
      ["promise", opt(inst("PromiseObject"))],
      ["awaitHandlers", opt(tuple(obj, obj))],
    ],
    { validate: validateObject },
  ),
  objectClass("AsyncFromSyncIterator", AsyncFromSyncIterator, [["syncIteratorRecord", iteratorRecord]], { validate: validateObject }),
  {
    name: "SymbolValue",
    ctor: SymbolValue,
    fields: [
      ["description", opt(str)],
      ["wellKnownName", opt(str)],
    ],
    // Well-known symbols are externals; a saved one is a program's own symbol or a registry one (`Symbol.for`).
    validate: (s: SymbolValue) => (s.wellKnownName === undefined || s.wellKnownName.startsWith("for:") ? undefined : "a well-known symbol saved by value"),
  },
  { name: "PrivateName", ctor: PrivateName, fields: [["description", str]] },
  {
    name: "Environment",
    ctor: Environment,
    fields: [
      ["slots", arr(or(valueOrEmpty, inst("PrivateName")))],
      ["parent", or(nul, inst("Environment"))],
    ],
    validate: (e: Environment) => (loops(e, (x) => x.parent) ? "its parent chain is a cycle" : undefined),
  },
  {
    name: "Frame",
    ctor: Frame,
    fields: [
      ["kind", lit(FrameKind.Normal, FrameKind.Construct, FrameKind.Generator, FrameKind.Async, FrameKind.AsyncGenerator)],
      ["code", codeObject],
      ["pc", nat],
      ["regs", arr(slot)],
      ["sp", nat],
      ["env", or(nul, inst("Environment"))],
      ["func", optObj],
      ["thisValue", valueOrEmpty],
      ["newTarget", value],
      ["args", opt(arr(value))],
      ["activation", optObj],
      // Only script frames are ever saved (vm/state.ts): a native frame holds a host generator.
      ["task", (v, w) => void (v === undefined || fail(`${w}: a native frame cannot be restored`))],
      ["resumeValue", value],
      ["resumeThrow", (v, w) => void (v === undefined || fail(`${w}: a pending native throw cannot be restored`))],
      ["discardResult", bool],
      ["suspendKind", lit(0, 1, 2)],
    ],
    validate: (f: Frame, ctx) => {
      const code = f.code as CodeObject
      if (!ctx.codes.has(code)) return "its code is not the program's"
      if (f.regs.length !== code.registerCount + code.maxStack) return "its registers do not fit its code"
      if (f.sp < code.registerCount || f.sp > f.regs.length) return "its stack pointer is out of range"
      if (f.pc > code.bytecode.length || ctx.instructionStarts(code)[f.pc] !== 1) return "its pc is not an instruction boundary"
      return undefined
    },
  },
  {
    name: "FastArrayRecord",
    ctor: FastArrayRecord,
    fields: [
      ["iterator", inst("ArrayObject")],
      ["nextMethod", value],
      ["done", bool],
      ["index", int],
    ],
  },
]

const fail = (message: string): never => {
  throw new SnapshotError(message)
}
