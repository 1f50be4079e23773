/**
 * The heap codec: a run's state — an object graph of runtime, intrinsic and engine records — to JSON and back.
 * It is generic on purpose: every heap record is an instance of a registered class (or a host array, Map, Set,
 * plain record or byte array) and is encoded as its class name plus its own fields, so one traversal serves every
 * heap kind and a new kind needs only a registration (STYLE: "one method that lists the values it references").
 * Objects named in `externals` (intrinsics by spec name, code objects by id) are written as references and are
 * rebuilt by the decoder from the same build. Fields listed as transient (host caches, host functions derived from
 * an id) are skipped and rebuilt by the class's `restore` hook.
 *
 * Decoding never trusts its input: every tag, index and class name is checked and anything unexpected is a
 * `SnapshotError` naming what and where. No host function is ever created from snapshot data.
 */

export class SnapshotError extends Error {
  readonly _tag = "SnapshotError"
  constructor(message: string) {
    super(message)
    this.name = "SnapshotError"
  }
}

/** A heap class: how to create an empty instance, which fields to skip, how to rebuild them. */
export interface HeapClass {
  readonly name: string
  readonly prototype: object
  readonly transient?: ReadonlyArray<string>
  readonly restore?: (instance: Record<string, unknown>) => void
}

export type EncodedValue =
  | null
  | boolean
  | string
  | number
  | { readonly u: 1 } // undefined
  | { readonly n: "NaN" | "Infinity" | "-Infinity" | "-0" }
  | { readonly b: string } // bigint
  | { readonly r: number } // heap record
  | { readonly x: string } // external (intrinsic, code object, well-known symbol)

export type EncodedRecord =
  | { readonly c: string; readonly f: Record<string, EncodedValue> } // class instance or plain record ("Object")
  | { readonly c: "Array"; readonly a: ReadonlyArray<EncodedValue> }
  | { readonly c: "Map"; readonly m: ReadonlyArray<readonly [EncodedValue, EncodedValue]> }
  | { readonly c: "Set"; readonly s: ReadonlyArray<EncodedValue> }
  | { readonly c: "Bytes"; readonly d: string }
  | { readonly c: "Int32Array"; readonly d: ReadonlyArray<number> }

export interface EncodedHeap {
  readonly root: EncodedValue
  readonly records: ReadonlyArray<EncodedRecord>
}

const HOST_SYMBOL_PREFIX = "sym:"

export class HeapRegistry {
  readonly byName = new Map<string, HeapClass>()
  readonly byPrototype = new Map<object, HeapClass>()
  /** Host symbols used as sentinels (EMPTY, DONE...) by name. */
  readonly symbols = new Map<string, symbol>()
  readonly symbolNames = new Map<symbol, string>()

  register(c: HeapClass): this {
    if (this.byName.has(c.name)) throw new Error(`codemode bug: heap class ${c.name} registered twice`)
    this.byName.set(c.name, c)
    this.byPrototype.set(c.prototype, c)
    return this
  }
  registerSymbol(name: string, s: symbol): this {
    this.symbols.set(name, s)
    this.symbolNames.set(s, name)
    return this
  }
}

export const encodeHeap = (registry: HeapRegistry, root: unknown, externals: ReadonlyMap<object, string>): EncodedHeap => {
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
      case "number":
        if (Number.isNaN(v)) return { n: "NaN" }
        if (v === Infinity) return { n: "Infinity" }
        if (v === -Infinity) return { n: "-Infinity" }
        if (Object.is(v, -0)) return { n: "-0" }
        return v
      case "bigint":
        return { b: v.toString() }
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
    const external = externals.get(obj)
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

  const encodeRecord = (obj: object): EncodedRecord => {
    if (Array.isArray(obj)) return { c: "Array", a: obj.map(ref) }
    if (obj instanceof Map) return { c: "Map", m: [...obj].map(([k, v]) => [ref(k), ref(v)] as const) }
    if (obj instanceof Set) return { c: "Set", s: [...obj].map(ref) }
    if (obj instanceof Uint8Array) return { c: "Bytes", d: Buffer.from(obj.buffer, obj.byteOffset, obj.byteLength).toString("base64") }
    if (obj instanceof Int32Array) return { c: "Int32Array", d: Array.from(obj) }
    const proto = Object.getPrototypeOf(obj) as object | null
    const cls = proto === Object.prototype || proto === null ? undefined : registry.byPrototype.get(proto as object)
    if (cls === undefined && proto !== Object.prototype && proto !== null) {
      const name = (proto as { constructor?: { name?: string } }).constructor?.name ?? "?"
      throw new SnapshotError(`the run state holds an instance of ${name}, which cannot be saved`)
    }
    const skip = cls?.transient
    const f: Record<string, EncodedValue> = {}
    for (const key of Object.keys(obj)) {
      if (skip !== undefined && skip.includes(key)) continue
      f[key] = ref((obj as Record<string, unknown>)[key])
    }
    return { c: cls?.name ?? "Object", f }
  }

  const rootRef = ref(root)
  while (pending.length > 0) {
    const [obj, id] = pending.pop()!
    records[id] = encodeRecord(obj)
  }
  return { root: rootRef, records }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v)

export const decodeHeap = (registry: HeapRegistry, heap: unknown, externals: ReadonlyMap<string, object>): unknown => {
  if (!isRecord(heap) || !Array.isArray(heap.records)) throw new SnapshotError("heap: expected { root, records }")
  const encoded = heap.records as unknown[]
  // Pass 1: allocate every record so references can be cyclic.
  const objects: object[] = encoded.map((r, i) => {
    if (!isRecord(r) || typeof r.c !== "string") throw new SnapshotError(`heap record ${i}: malformed`)
    switch (r.c) {
      case "Array":
        if (!Array.isArray(r.a)) throw new SnapshotError(`heap record ${i}: array without items`)
        return []
      case "Map":
        return new Map()
      case "Set":
        return new Set()
      case "Bytes":
        if (typeof r.d !== "string") throw new SnapshotError(`heap record ${i}: bytes without data`)
        return new Uint8Array(Buffer.from(r.d, "base64"))
      case "Int32Array":
        if (!Array.isArray(r.d) || !r.d.every((n) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31)) {
          throw new SnapshotError(`heap record ${i}: bad Int32Array`)
        }
        return Int32Array.from(r.d as number[])
      case "Object":
        return {}
      default: {
        const cls = registry.byName.get(r.c)
        if (cls === undefined) throw new SnapshotError(`heap record ${i}: unknown class ${r.c}`)
        return Object.create(cls.prototype) as object
      }
    }
  })

  const value = (v: unknown, where: string): unknown => {
    if (v === null || typeof v === "boolean" || typeof v === "string") return v
    if (typeof v === "number") {
      if (!Number.isFinite(v)) throw new SnapshotError(`${where}: non-finite number literal`)
      return v
    }
    if (!isRecord(v)) throw new SnapshotError(`${where}: malformed value`)
    if ("u" in v) return undefined
    if ("n" in v) {
      switch (v.n) {
        case "NaN":
          return NaN
        case "Infinity":
          return Infinity
        case "-Infinity":
          return -Infinity
        case "-0":
          return -0
      }
      throw new SnapshotError(`${where}: bad number tag`)
    }
    if ("b" in v) {
      if (typeof v.b !== "string" || !/^-?\d+$/.test(v.b) || v.b.length > 400_000) throw new SnapshotError(`${where}: bad bigint`)
      return BigInt(v.b)
    }
    if ("r" in v) {
      const id = v.r
      if (typeof id !== "number" || !Number.isInteger(id) || id < 0 || id >= objects.length) {
        throw new SnapshotError(`${where}: reference ${String(id)} out of range`)
      }
      return objects[id]
    }
    if ("x" in v) {
      if (typeof v.x !== "string") throw new SnapshotError(`${where}: bad external`)
      if (v.x.startsWith(HOST_SYMBOL_PREFIX)) {
        const s = registry.symbols.get(v.x.slice(HOST_SYMBOL_PREFIX.length))
        if (s === undefined) throw new SnapshotError(`${where}: unknown host symbol ${v.x}`)
        return s
      }
      const o = externals.get(v.x)
      if (o === undefined) throw new SnapshotError(`${where}: unknown built-in ${v.x}`)
      return o
    }
    throw new SnapshotError(`${where}: unknown value tag`)
  }

  // Pass 2: fill them in.
  encoded.forEach((r, i) => {
    const rec = r as Record<string, unknown>
    const obj = objects[i]!
    const where = `heap record ${i} (${String(rec.c)})`
    switch (rec.c) {
      case "Array":
        for (const [j, item] of (rec.a as unknown[]).entries()) (obj as unknown[]).push(value(item, `${where}[${j}]`))
        return
      case "Map":
        if (!Array.isArray(rec.m)) throw new SnapshotError(`${where}: map without entries`)
        for (const e of rec.m as unknown[]) {
          if (!Array.isArray(e) || e.length !== 2) throw new SnapshotError(`${where}: bad map entry`)
          ;(obj as Map<unknown, unknown>).set(value(e[0], where), value(e[1], where))
        }
        return
      case "Set":
        if (!Array.isArray(rec.s)) throw new SnapshotError(`${where}: set without items`)
        for (const e of rec.s as unknown[]) (obj as Set<unknown>).add(value(e, where))
        return
      case "Bytes":
      case "Int32Array":
        return
      default: {
        if (!isRecord(rec.f)) throw new SnapshotError(`${where}: fields missing`)
        const target = obj as Record<string, unknown>
        for (const [k, fv] of Object.entries(rec.f)) {
          if (k === "__proto__" && rec.c !== "Object") throw new SnapshotError(`${where}: bad field name`)
          Object.defineProperty(target, k, { value: value(fv, `${where}.${k}`), writable: true, enumerable: true, configurable: true })
        }
      }
    }
  })
  // Pass 3: rebuild transient fields, now that the graph is complete.
  encoded.forEach((r, i) => {
    const cls = registry.byName.get((r as { c: string }).c)
    if (cls?.restore === undefined) return
    try {
      cls.restore(objects[i] as Record<string, unknown>)
    } catch (e) {
      if (e instanceof SnapshotError) throw e
      throw new SnapshotError(`heap record ${i} (${cls.name}): ${e instanceof Error ? e.message : String(e)}`)
    }
  })
  return value((heap as { root: unknown }).root, "root")
}
