/**
 * Heap classes of the shared runtime (src/runtime) and the VM (src/vm), with the shapes of their fields: how
 * each is saved, checked and rebuilt. Field lists are complete on purpose — the encoder refuses an instance with a
 * field not listed here, so a field added to a class without a line here fails the snapshot tests at once instead
 * of being silently dropped from saved runs.
 */
import type { CodeObject } from "../bytecode/code.ts"
import { MappedArgumentsObject, UNMAPPED } from "../runtime/arguments-object.ts"
import { ArrayObject } from "../runtime/array-object.ts"
import { DisposeCapability } from "../runtime/dispose.ts"
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
import { closureSlots } from "./closure-slots.ts"
import { PROPERTIES, type HeapClass } from "./heap-codec.ts"
import { check, dict, inst, lit, map, mismatch, nullable, opt, or, rec, tuple, type Shape } from "./shape.ts"
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

const STORE_FIELDS = ["shape", "slot0", "slot1", "slot2", "slot3", "rest"]

/** A JSObject subclass: the object's fields, then its own; its own checks, then the object's (its proto chain). */
export const objectClass = (
  name: string,
  ctor: Entry["ctor"],
  own: Fields = [],
  extra: Omit<Entry, "name" | "ctor" | "fields"> = {},
): Entry => {
  const check = extra.validate as ((o: JSObject, ctx: RestoreContext) => string | undefined) | undefined
  return {
    name,
    ctor,
    fields: [...objectFields, ...own],
    ...extra,
    // The object's own property store (property-store.ts): saved as `properties`, rebuilt from them.
    transient: [...STORE_FIELDS, ...(extra.transient ?? [])],
    validate: (o: JSObject, ctx: RestoreContext) => check?.(o, ctx) ?? validateObject(o, ctx),
  }
}

const MAX_ARRAY_LENGTH = 2 ** 32 - 1

/**
 * A proto chain, bound-function chain or environment chain that loops would hang the engine: refuse it. Each walk
 * stops at an object already known to be on an acyclic chain (per kind), so checking every object of a long chain
 * costs the chain's length once, not its square.
 */
const acyclic = <T extends object>(kind: string, start: T, next: (x: T) => T | null | undefined, ctx: RestoreContext): boolean => {
  let known = ctx.acyclic.get(kind)
  if (known === undefined) ctx.acyclic.set(kind, (known = new Set()))
  const path = new Set<T>()
  for (let x: T | null | undefined = start; x !== null && x !== undefined && !known.has(x); x = next(x)) {
    if (path.has(x)) return false
    path.add(x)
  }
  for (const x of path) known.add(x)
  return true
}

const validateObject = (o: JSObject, ctx: RestoreContext): string | undefined =>
  acyclic("proto", o, (x) => x.proto, ctx) ? undefined : "its prototype chain is a cycle"

const codeObject: Shape = (v, w) => {
  if (typeof v !== "object" || v === null || !("bytecode" in v)) mismatch(`${w}: not a code object`)
}

export const errorFields: Fields = [
  ["location", opt(sourceLocation)],
  ["stack", opt(rec({ value }))],
  ["hostDiagnostic", opt(rec({ kind: str, message: str, path: opt(str) }))],
]

/** A built-in closure's slots, checked by kind (closure-slots.ts); other built-ins keep none of their own. */
const validateNative = (f: NativeFunction, ctx: RestoreContext): string | undefined => {
  const shape = closureSlots.get(f.nativeId)
  if (shape !== undefined) check(shape, f.slots, "slots", ctx.checker)
  return undefined
}

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

/** The activation a generator, async or async-generator frame belongs to. */
const FRAME_BRANDS: Record<number, GeneratorObject["brand"] | undefined> = {
  [FrameKind.Generator]: "Generator",
  [FrameKind.Async]: "AsyncFunction",
  [FrameKind.AsyncGenerator]: "AsyncGenerator",
}

export const runtimeClasses: ReadonlyArray<Entry> = [
  objectClass("JSObject", JSObject),
  objectClass(
    "ArrayObject",
    ArrayObject,
    [
      ["elements", nullable(arr(valueOrEmpty, Caps.maxArrayStorage))],
      ["length", nat],
      ["lengthWritable", bool],
    ],
    {
      validate: (a: ArrayObject, ctx) =>
        a.length > MAX_ARRAY_LENGTH
          ? "length out of range"
          : a.elements !== null && a.elements.length > a.length
            ? "more elements than its length"
            : undefined,
    },
  ),
  objectClass("PrimitiveWrapper", PrimitiveWrapper, [["primitive", primitive]]),
  objectClass(
    "MappedArgumentsObject",
    MappedArgumentsObject,
    [
      ["env", inst("Environment")],
      ["parameterMap", arr(int)],
    ],
    {
      validate: (o: MappedArgumentsObject) =>
        o.parameterMap.some((slot) => slot < UNMAPPED || slot >= o.env.slots.length) ? "its parameter map is out of range" : undefined,
    },
  ),
  objectClass("ErrorObject", ErrorObject, errorFields),
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
  ),
  objectClass("NativeFunction", NativeFunction, nativeFunctionFields, {
    transient: ["impl", "isTaskImpl"],
    restore: restoreNative,
    validate: validateNative,
  }),
  objectClass(
    "ScriptFunction",
    ScriptFunction,
    [
      ["code", codeObject],
      ["env", nullable(inst("Environment"))],
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
      validate: (f: ScriptFunction, ctx) => (ctx.codes.has(f.code as CodeObject) ? undefined : "its code is not the program's"),
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
      validate: (f: BoundFunction, ctx) =>
        !f.target.isCallable()
          ? "its target is not callable"
          : !acyclic<JSObject>("bound", f, (x) => (x instanceof BoundFunction ? x.target : null), ctx)
            ? "its target chain is a cycle"
            : undefined,
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
    { validate: (g: GeneratorObject) => ((g.brand === "AsyncFunction") !== (g.promise !== undefined) ? "its promise does not fit its brand" : undefined) },
  ),
  objectClass("AsyncFromSyncIterator", AsyncFromSyncIterator, [["syncIteratorRecord", iteratorRecord]]),
  objectClass("DisposeCapability", DisposeCapability, [
    ["resources", arr(rec({ value, hint: lit("sync-dispose", "async-dispose"), method: optObj }))],
    ["thrown", bool],
    ["value", value],
    ["changed", bool],
    ["needsAwait", bool],
    ["hasAwaited", bool],
  ]),
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
      ["slots", arr((v, w, c) => (v instanceof PrivateName ? undefined : valueOrEmpty(v, w, c)))],
      ["parent", nullable(inst("Environment"))],
    ],
    validate: (e: Environment, ctx) => (acyclic("env", e, (x) => x.parent, ctx) ? undefined : "its parent chain is a cycle"),
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
      ["env", nullable(inst("Environment"))],
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
    // Slots above the stack top are dead (popped values the VM does not clear): saving them would keep whatever they
    // last held alive in the snapshot.
    saved: (f: Frame) => ({ regs: f.regs.slice(0, f.sp) }),
    restore: (f: Frame) => {
      const code = f.code as CodeObject
      for (let n = code.registerCount + code.maxStack; f.regs.length < n; ) f.regs.push(undefined)
    },
    validate: (f: Frame, ctx) => {
      const code = f.code as CodeObject
      if (!ctx.codes.has(code)) return "its code is not the program's"
      const brand = FRAME_BRANDS[f.kind]
      const activation = f.activation
      // A generator's frame binds its parameters before its generator object exists (vm/machine.ts startGenerator).
      const bindingParams = activation === undefined && f.kind !== FrameKind.Async
      if (brand === undefined ? activation !== undefined : !bindingParams && (!(activation instanceof GeneratorObject) || activation.brand !== brand)) {
        return "its activation does not fit its kind"
      }
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

const fail = (message: string): never => mismatch(message)
