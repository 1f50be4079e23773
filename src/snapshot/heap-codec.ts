/**
 * The heap codec: a run's state — an object graph of runtime, intrinsic and engine records — to JSON and back.
 * It is generic on purpose: every heap record is an instance of a registered class (or a host array, Map, Set,
 * plain record or byte array) and is encoded as its class name plus its fields in the order the registry declares
 * them, so one traversal serves every heap kind and a new kind needs only a registration (STYLE: "one method that
 * lists the values it references"). Objects named in `externals` (intrinsics by spec name, code objects by id,
 * well-known symbols) are written as references and rebuilt by the decoder from the same build; an external the
 * run changed is written as a *patch*, its fields copied onto the decoder's fresh twin ("built-ins are saved by
 * name and only their changes are copied"). Fields listed as transient (host functions derived from an id, host
 * context) are skipped and rebuilt by the class's `restore` hook.
 *
 * An object's own properties are inlined into its record (`[key, flags, value]` or `[key, flags, get, set]`), as
 * property records belong to exactly one object; that keeps a typical snapshot a few kilobytes.
 *
 * Decoding never trusts its input: every tag, index, class name and field is checked against the registry's
 * shapes (shape.ts), and anything unexpected is a `SnapshotError` naming what and where. No host function is ever
 * created from snapshot data: transient functions come from tables built into the package, looked up by id.
 */
import { Property } from "../runtime/property.ts"
import { PropertyStore } from "../runtime/property-store.ts"
import type { PropertyKey } from "../runtime/value.ts"
import { ForkedProperties } from "../runtime/realm-fork.ts"
import { SnapshotError } from "./errors.ts"
import { base64ToBytes, bytesToBase64, numberTag, taggedNumber } from "./json-scalars.ts"
import { check, type Checker, type Shape } from "./shape.ts"

export { SnapshotError }

/** A heap class: its fields (in encoding order, with their shapes), which to skip, how to rebuild them. */
export interface HeapClass<Ctx = unknown> {
  readonly name: string
  readonly ctor: abstract new (...args: never) => object
  readonly fields: ReadonlyArray<readonly [string, Shape]>
  readonly transient?: ReadonlyArray<string>
  /**
   * Values saved in place of some fields' own: what the instance holds but no later step can read (a frame's stack
   * slots above its top) is left out, and `restore` gives it back.
   */
  readonly saved?: (instance: never) => Readonly<Record<string, unknown>>
  /** Rebuilds transient fields of a decoded instance (not of a patched external, which keeps its own). */
  readonly restore?: (instance: never, ctx: Ctx) => void
  /** Checks what shapes cannot (ranges, invariants between fields); returns the problem, if any. */
  readonly validate?: (instance: never, ctx: Ctx) => string | undefined
}

/** The shape marker of a JSObject's `properties`, which the codec inlines. */
export const PROPERTIES: Shape = () => {}

export type EncodedValue =
  | null
  | boolean
  | string
  | number
  | { readonly u: 1 } // undefined
  | { readonly n: "NaN" | "Infinity" | "-Infinity" | "-0" }
  | { readonly b: string } // bigint, hexadecimal (linear to parse, unlike decimal)
  | { readonly r: number } // heap record
  | { readonly x: string } // external (intrinsic, code object, host symbol)

export type EncodedRecord =
  | { readonly c: string; readonly f: ReadonlyArray<unknown> } // registered class instance
  | { readonly p: string; readonly f: ReadonlyArray<unknown> } // patch of an external
  | { readonly a: ReadonlyArray<EncodedValue> }
  | { readonly m: ReadonlyArray<EncodedValue> } // Map: key, value, key, value...
  | { readonly s: ReadonlyArray<EncodedValue> }
  | { readonly d: string } // Uint8Array, base64
  | { readonly i: ReadonlyArray<number> } // Int32Array
  | { readonly o: Readonly<Record<string, EncodedValue>> } // plain record

export interface EncodedHeap {
  readonly root: EncodedValue
  readonly records: ReadonlyArray<EncodedRecord>
}

const HOST_SYMBOL_PREFIX = "sym:"

// Property flags, inlined in the owner's record.
const WRITABLE = 1
const ENUMERABLE = 2
const CONFIGURABLE = 4
const ACCESSOR = 8

export class HeapRegistry<Ctx = unknown> {
  readonly byName = new Map<string, HeapClass<Ctx>>()
  readonly byPrototype = new Map<object, HeapClass<Ctx>>()
  /** Host symbols used as sentinels (EMPTY...) by name. */
  readonly symbols = new Map<string, symbol>()
  readonly symbolNames = new Map<symbol, string>()

  register(c: HeapClass<Ctx>): this {
    if (this.byName.has(c.name)) throw new Error(`codemode bug: heap class ${c.name} registered twice`)
    if (this.byPrototype.has(c.ctor.prototype as object)) throw new Error(`codemode bug: heap class ${c.name} registered under two names`)
    const proto = c.ctor.prototype as object
    if (proto instanceof Array || proto instanceof Map || proto instanceof Set || proto instanceof Uint8Array || proto instanceof Int32Array) {
      throw new Error(`codemode bug: heap class ${c.name} is a collection, which the codec encodes as such`)
    }
    // The decoder stores fields with plain assignments, which a setter or read-only property up the chain would catch.
    for (const [name] of c.fields) {
      for (let p = c.ctor.prototype as object | null; p !== null; p = Object.getPrototypeOf(p) as object | null) {
        const d = Object.getOwnPropertyDescriptor(p, name)
        if (d !== undefined && !(d.writable ?? false)) throw new Error(`codemode bug: heap class ${c.name}'s field ${name} is an accessor or read-only on its prototype`)
      }
    }
    this.byName.set(c.name, c)
    this.byPrototype.set(c.ctor.prototype as object, c)
    return this
  }
  registerSymbol(name: string, s: symbol): this {
    this.symbols.set(name, s)
    this.symbolNames.set(s, name)
    return this
  }
  /** The registered class of an instance (its exact prototype), or undefined. */
  classOf(o: object): HeapClass<Ctx> | undefined {
    const proto = Object.getPrototypeOf(o) as object | null
    return proto === null ? undefined : this.byPrototype.get(proto)
  }
  checker(): Checker {
    return {
      seen: new Map(),
      isInstance: (v, name) => {
        const c = this.byName.get(name)
        return c !== undefined && typeof v === "object" && v !== null && v instanceof (c.ctor as unknown as new () => object)
      },
    }
  }
}

/** The fields and transient fields of each class: an instance with any other own field cannot be saved. */
const knownFieldsOf = new WeakMap<HeapClass<never>, ReadonlySet<string>>()

const knownFields = <Ctx>(cls: HeapClass<Ctx>): ReadonlySet<string> => {
  let known = knownFieldsOf.get(cls as HeapClass<never>)
  if (known === undefined) knownFieldsOf.set(cls as HeapClass<never>, (known = new Set([...cls.fields.map(([n]) => n), ...(cls.transient ?? [])])))
  return known
}

const isPlain = (o: object): boolean => {
  const proto = Object.getPrototypeOf(o) as object | null
  return proto === Object.prototype || proto === null
}

/**
 * Encodes the graph under `root`. `externals` names objects rebuilt by the decoder; those listed in `patches` also
 * have their fields saved. Throws SnapshotError for anything that cannot be saved (a host function, an
 * unregistered class or field), naming it.
 */
export const encodeHeap = <Ctx>(
  registry: HeapRegistry<Ctx>,
  root: unknown,
  externals: (o: object) => string | undefined,
  patches: Iterable<object> = [],
): EncodedHeap => {
  const records: EncodedRecord[] = []
  const ids = new Map<object, number>()
  const pending: Array<[object, number]> = []

  const ref = (v: unknown): EncodedValue => {
    switch (typeof v) {
      case "undefined":
        return { u: 1 }
      case "boolean":
      case "string":
        return v
      case "number": {
        const n = numberTag(v)
        return n === undefined ? v : { n }
      }
      case "bigint":
        return { b: v.toString(16) }
      case "symbol": {
        const name = registry.symbolNames.get(v)
        if (name === undefined) throw new SnapshotError(`unregistered host symbol ${String(v)} in the run state`)
        return { x: HOST_SYMBOL_PREFIX + name }
      }
      case "function":
        throw new SnapshotError("a host function is reachable from the run state")
    }
    if (v === null) return null
    const obj = v as object
    const external = externals(obj)
    if (external !== undefined) return { x: external }
    let id = ids.get(obj)
    if (id === undefined) {
      id = records.length
      ids.set(obj, id)
      records.push(undefined as unknown as EncodedRecord)
      pending.push([obj, id])
    }
    return { r: id }
  }

  const properties = (value: unknown): unknown[] => {
    const props = value instanceof ForkedProperties ? value.materialize() : value
    if (!(props instanceof PropertyStore)) throw new SnapshotError("an object's properties are not a PropertyStore")
    const out: unknown[] = []
    for (const key of props.keys()) {
      const p = props.read(key)
      if (!(p instanceof Property)) {
        out.push(ref(key), WRITABLE | ENUMERABLE | CONFIGURABLE, ref(p))
        continue
      }
      const flags = (p.writable ? WRITABLE : 0) | (p.enumerable ? ENUMERABLE : 0) | (p.configurable ? CONFIGURABLE : 0)
      if (p.accessor) out.push(ref(key), flags | ACCESSOR, ref(p.get), ref(p.set))
      else out.push(ref(key), flags, ref(p.value))
    }
    return out
  }

  const fieldsOf = (obj: object, cls: HeapClass<Ctx>): unknown[] => {
    const o = obj as Record<string, unknown>
    const known = knownFields(cls)
    for (const k of Object.keys(o)) {
      if (!known.has(k)) {
        const extra = Object.keys(o).filter((k) => !known.has(k))
        throw new SnapshotError(`${cls.name} has fields the snapshot registry does not know: ${extra.join(", ")}`)
      }
    }
    const fields = cls.fields
    const saved = cls.saved?.(obj as never)
    const out: unknown[] = new Array(fields.length)
    for (let j = 0; j < fields.length; j++) {
      const [name, shape] = fields[j]!
      out[j] = shape === PROPERTIES ? properties(o[name]) : ref(saved !== undefined && name in saved ? saved[name] : o[name])
    }
    return out
  }

  const encodeRecord = (obj: object): EncodedRecord => {
    if (Array.isArray(obj)) {
      const a: EncodedValue[] = new Array(obj.length)
      for (let i = 0; i < obj.length; i++) a[i] = ref(obj[i])
      return { a }
    }
    // Most records are instances of registered classes, found by their exact prototype (none is a collection).
    const cls = registry.classOf(obj)
    if (cls !== undefined) return { c: cls.name, f: fieldsOf(obj, cls) }
    if (obj instanceof Map) {
      const m: EncodedValue[] = []
      for (const [k, v] of obj) m.push(ref(k), ref(v))
      return { m }
    }
    if (obj instanceof Set) return { s: [...obj].map(ref) }
    if (obj instanceof Uint8Array) return { d: bytesToBase64(obj) }
    if (obj instanceof Int32Array) return { i: Array.from(obj) }
    if (!isPlain(obj)) {
      const name = (Object.getPrototypeOf(obj) as { constructor?: { name?: string } }).constructor?.name ?? "?"
      throw new SnapshotError(`the run state holds an instance of ${name}, which cannot be saved`)
    }
    const o: Record<string, EncodedValue> = {}
    for (const key of Object.keys(obj)) o[key] = ref((obj as Record<string, unknown>)[key])
    return { o }
  }

  for (const obj of patches) {
    const name = externals(obj)
    const cls = registry.classOf(obj)
    if (name === undefined || cls === undefined) throw new Error("codemode bug: a patch of an object that is not a registered external")
    const at = records.length
    records.push(undefined as unknown as EncodedRecord)
    records[at] = { p: name, f: fieldsOf(obj, cls) }
  }
  const rootRef = ref(root)
  while (pending.length > 0) {
    const [obj, id] = pending.pop()!
    records[id] = encodeRecord(obj)
  }
  return { root: rootRef, records }
}

/**
 * Where a value is, for an error: `base` followed by `sep` and `part` (`base[part]` when `sep` is "["). Made into a
 * string only when there is an error: a state has thousands of values and rarely an error.
 */
const at = (base: string, sep: string, part: unknown): string => (sep === "[" ? `${base}[${String(part)}]` : `${base}${sep}${String(part)}`)

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

/** At most this many hex digits in a bigint (the VM's own cap on BigInt size is far below). */
const MAX_BIGINT_DIGITS = 1 << 20

/**
 * Decodes a heap, checks every record against the registry's shapes and `rootShape`, runs the classes' `validate`
 * and `restore` hooks, and returns the root. `externals` resolves names to the fresh objects of the decoding side.
 */
export const decodeHeap = <Ctx>(
  registry: HeapRegistry<Ctx>,
  heap: unknown,
  externals: (name: string) => object | undefined,
  rootShape: Shape,
  ctx: Ctx,
): unknown => {
  if (!isRecord(heap) || !Array.isArray(heap.records) || !("root" in heap)) throw new SnapshotError("heap: expected { root, records }")
  const encoded = heap.records as unknown[]
  const classes: Array<HeapClass<Ctx> | undefined> = new Array(encoded.length)
  const patched = new Set<object>()

  // Pass 1: allocate every record (or find the external a patch applies to), so references can be cyclic.
  const objects: object[] = encoded.map((r, i) => {
    if (!isRecord(r)) throw new SnapshotError(`heap record ${i}: malformed`)
    if ("c" in r) {
      const cls = typeof r.c === "string" ? registry.byName.get(r.c) : undefined
      if (cls === undefined) throw new SnapshotError(`heap record ${i}: unknown class ${JSON.stringify(r.c)}`)
      if (!Array.isArray(r.f)) throw new SnapshotError(`heap record ${i} (${cls.name}): fields missing`)
      classes[i] = cls
      return Object.create(cls.ctor.prototype as object) as object
    }
    if ("p" in r) {
      const target = typeof r.p === "string" ? externals(r.p) : undefined
      if (target === undefined) throw new SnapshotError(`heap record ${i}: patch of an unknown built-in ${JSON.stringify(r.p)}`)
      const cls = registry.classOf(target)
      if (cls === undefined || !Array.isArray(r.f)) throw new SnapshotError(`heap record ${i}: bad patch of ${String(r.p)}`)
      if (patched.has(target)) throw new SnapshotError(`heap record ${i}: ${String(r.p)} patched twice`)
      patched.add(target)
      classes[i] = cls
      return target
    }
    if ("a" in r) {
      if (!Array.isArray(r.a)) throw new SnapshotError(`heap record ${i}: array without items`)
      return []
    }
    if ("m" in r) {
      if (!Array.isArray(r.m) || r.m.length % 2 !== 0) throw new SnapshotError(`heap record ${i}: bad map entries`)
      return new Map()
    }
    if ("s" in r) {
      if (!Array.isArray(r.s)) throw new SnapshotError(`heap record ${i}: set without items`)
      return new Set()
    }
    if ("d" in r) {
      const bytes = base64ToBytes(r.d)
      if (bytes === undefined) throw new SnapshotError(`heap record ${i}: bad bytes`)
      return bytes
    }
    if ("i" in r) {
      if (!Array.isArray(r.i) || !r.i.every((n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31)) {
        throw new SnapshotError(`heap record ${i}: bad Int32Array`)
      }
      return Int32Array.from(r.i as number[])
    }
    if ("o" in r) {
      if (!isRecord(r.o)) throw new SnapshotError(`heap record ${i}: bad record`)
      return {}
    }
    throw new SnapshotError(`heap record ${i}: unknown record tag`)
  })

  /** A value as decoded; `at(base, sep, part)` says where it is. */
  const value = (v: unknown, base: string, sep: string, part: unknown): unknown => {
    if (v === null || typeof v === "boolean" || typeof v === "string") return v
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw new SnapshotError(`${at(base, sep, part)}: non-finite number literal`)
      return v
    }
    if (!isRecord(v)) throw new SnapshotError(`${at(base, sep, part)}: malformed value`)
    if ("u" in v) return undefined
    if ("n" in v) {
      const n = taggedNumber(v.n)
      if (n === undefined) throw new SnapshotError(`${at(base, sep, part)}: bad number tag`)
      return n
    }
    if ("b" in v) {
      if (typeof v.b !== "string" || !/^-?[0-9a-f]+$/.test(v.b) || v.b.length > MAX_BIGINT_DIGITS) throw new SnapshotError(`${at(base, sep, part)}: bad bigint`)
      return v.b.startsWith("-") ? -BigInt(`0x${v.b.slice(1)}`) : BigInt(`0x${v.b}`)
    }
    if ("r" in v) {
      const id = v.r
      if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= objects.length) {
        throw new SnapshotError(`${at(base, sep, part)}: reference ${String(id)} out of range`)
      }
      return objects[id]
    }
    if ("x" in v) {
      if (typeof v.x !== "string") throw new SnapshotError(`${at(base, sep, part)}: bad external`)
      if (v.x.startsWith(HOST_SYMBOL_PREFIX)) {
        const s = registry.symbols.get(v.x.slice(HOST_SYMBOL_PREFIX.length))
        if (s === undefined) throw new SnapshotError(`${at(base, sep, part)}: unknown host symbol ${v.x}`)
        return s
      }
      const o = externals(v.x)
      if (o === undefined) throw new SnapshotError(`${at(base, sep, part)}: unknown built-in ${v.x}`)
      return o
    }
    throw new SnapshotError(`${at(base, sep, part)}: unknown value tag`)
  }

  const checker = registry.checker()
  /** Fills `owner`, an object being restored and its own property store, with the properties `flat` lists. */
  const properties = (owner: PropertyStore, flat: unknown, where: string): PropertyStore => {
    if (!Array.isArray(flat)) throw new SnapshotError(`${where}: properties are not a list`)
    const out = owner
    out.clear()
    for (let i = 0; i < flat.length; ) {
      const key = value(flat[i], where, " key", "")
      const flags = flat[i + 1]
      if (typeof flags !== "number" || !Number.isInteger(flags) || flags < 0 || flags > 15) throw new SnapshotError(`${where}: bad property flags`)
      if (typeof key !== "string" && !checker.isInstance(key, "SymbolValue")) throw new SnapshotError(`${where}: bad property key`)
      const k = key as PropertyKey
      if (out.has(k)) throw new SnapshotError(`${where}: duplicate property ${String(key)}`)
      const w = (flags & WRITABLE) !== 0
      const e = (flags & ENUMERABLE) !== 0
      const c = (flags & CONFIGURABLE) !== 0
      // A property holds a sandbox value (an accessor, functions or nothing): nothing else may reach a program.
      if ((flags & ACCESSOR) !== 0) {
        if (i + 4 > flat.length || w) throw new SnapshotError(`${where}: bad accessor property`)
        const get = value(flat[i + 2], where, ".get", "")
        const set = value(flat[i + 3], where, ".set", "")
        if ((get !== undefined && !checker.isInstance(get, "JSObject")) || (set !== undefined && !checker.isInstance(set, "JSObject"))) {
          throw new SnapshotError(`${where}: bad accessor`)
        }
        out.set(k, Property.accessorOf(get as never, set as never, e, c))
        i += 4
      } else {
        if (i + 3 > flat.length) throw new SnapshotError(`${where}: truncated property`)
        const v = value(flat[i + 2], where, "[", key)
        if (typeof v === "object" && v !== null && !checker.isInstance(v, "JSObject") && !checker.isInstance(v, "SymbolValue")) {
          throw new SnapshotError(`${where}: a property holds something that is not a sandbox value`)
        }
        if (typeof v === "symbol") throw new SnapshotError(`${where}: a property holds a host symbol`)
        if (w && e && c) out.add(k, v as never)
        else out.set(k, Property.data(v as never, w, e, c))
        i += 3
      }
    }
    return out
  }

  // Pass 2: fill them in.
  for (let i = 0; i < encoded.length; i++) {
    const rec = encoded[i] as Record<string, unknown>
    const obj = objects[i]!
    const cls = classes[i]
    if (cls !== undefined) {
      const where = `heap record ${i} (${"p" in rec ? String(rec.p) : cls.name})`
      const f = rec.f as unknown[]
      const fields = cls.fields
      if (f.length !== fields.length) throw new SnapshotError(`${where}: expected ${fields.length} fields, got ${f.length}`)
      const o = obj as Record<string, unknown>
      for (let j = 0; j < fields.length; j++) {
        const [name, shape] = fields[j]!
        o[name] = shape === PROPERTIES ? properties(obj as PropertyStore, f[j], `${where}.${name}`) : value(f[j], where, ".", name)
      }
      continue
    }
    const where = `heap record ${i}`
    if ("a" in rec) {
      const items = rec.a as unknown[]
      const out = obj as unknown[]
      for (let j = 0; j < items.length; j++) out.push(value(items[j], where, "[", j))
    } else if ("m" in rec) {
      const m = rec.m as unknown[]
      for (let j = 0; j < m.length; j += 2) (obj as Map<unknown, unknown>).set(value(m[j], where, "", ""), value(m[j + 1], where, "", ""))
    } else if ("s" in rec) {
      for (const e of rec.s as unknown[]) (obj as Set<unknown>).add(value(e, where, "", ""))
    } else if ("o" in rec) {
      for (const [k, fv] of Object.entries(rec.o as Record<string, unknown>)) {
        // Keys come from the input: a key like "__proto__" must make an own property, never set the prototype.
        Object.defineProperty(obj, k, { value: value(fv, where, ".", k), writable: true, enumerable: true, configurable: true })
      }
    }
  }

  // Pass 3: shapes, then the classes' own checks and rebuilds, now that the graph is complete.
  encoded.forEach((_, i) => {
    const cls = classes[i]
    if (cls === undefined) return
    const where = `heap record ${i} (${cls.name})`
    const o = objects[i] as Record<string, unknown>
    for (const [name, shape] of cls.fields) if (shape !== PROPERTIES) check(shape, o[name], `${where}.${name}`, checker)
  })
  const root = value((heap as { root: unknown }).root, "root", "", "")
  check(rootShape, root, "root", checker)
  const hook = (run: (cls: HeapClass<Ctx>, o: object, i: number) => void): void =>
    encoded.forEach((_, i) => {
      const cls = classes[i]
      if (cls === undefined) return
      try {
        run(cls, objects[i]!, i)
      } catch (e) {
        if (e instanceof SnapshotError) throw e
        throw new SnapshotError(`heap record ${i} (${cls.name}): ${e instanceof Error ? e.message : String(e)}`)
      }
    })
  hook((cls, o, i) => {
    if (cls.restore !== undefined && !("p" in (encoded[i] as object))) cls.restore(o as never, ctx)
  })
  hook((cls, o, i) => {
    const problem = cls.validate?.(o as never, ctx)
    if (problem !== undefined) throw new SnapshotError(`heap record ${i} (${cls.name}): ${problem}`)
  })
  return root
}
