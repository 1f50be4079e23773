/**
 * The live size of a run's heap: every value reachable from its roots (the realm, the engine's frames), estimated
 * as the memory meter charges it (runtime/memory.ts), with each host object counted once. It is how the memory
 * budget becomes a budget of live memory: between two of these measures the meter adds up allocations, and a
 * measure replaces the sum by what is still reachable, so garbage stops counting (a mark phase without a sweep).
 *
 * It walks the host objects the runtime is made of generically (their own enumerable fields, arrays, Maps, Sets,
 * buffers), so a new kind of runtime object needs no code here. What it cannot see it does not count: the locals of
 * host functions running when it is called, so the host calls it only where none hold run values (between slices).
 * Strings are counted at every place they are held (a string has no identity to count it once by), which
 * over-counts shared strings and never under-counts copies. The program's compiled form is the same whatever the
 * program does at run time and is left out (fields named in STATIC_FIELDS, parser nodes).
 */

/**
 * Fields that hold the program's code (bytecode, AST, scope analysis), the process's template realm (a fork's
 * `template`, runtime/realm-fork.ts) or the keys objects share with every run (a property store's `shape`,
 * runtime/property-store.ts), not run data.
 */
const STATIC_FIELDS = new Set(["code", "program", "ast", "analysis", "layout", "locate", "source", "node", "template", "shape"])

/*
 * Maps and Sets are read with the intrinsic methods: a subclass may override them (a fork's lazily copied property
 * maps copy on iteration, a sealed template's throw), and measuring must neither change nor fail a run.
 */
const mapSize = Object.getOwnPropertyDescriptor(Map.prototype, "size")!.get!
const mapForEach = Map.prototype.forEach
const setSize = Object.getOwnPropertyDescriptor(Set.prototype, "size")!.get!
const setForEach = Set.prototype.forEach

const STRING_HEADER = 16
const OBJECT_HEADER = 24
const FIELD = 8
const ARRAY_HEADER = 16
const ELEMENT = 8
/** A host Map or Set: the object and its initial table; then each entry's share of a table at its fullest. */
const TABLE_HEADER = 160
const MAP_ENTRY = 48
const SET_ENTRY = 32
const OPAQUE = 64

const isParserNode = (o: Record<string, unknown>): boolean => typeof o["type"] === "string" && typeof o["start"] === "number"

/** Bytes reachable from `roots`; `budget` bounds the work: past that many bytes the walk stops and returns it. */
export const measureHeap = (roots: ReadonlyArray<unknown>, budget = Number.MAX_SAFE_INTEGER): number => {
  const seen = new Set<object>()
  const stack: unknown[] = [...roots]
  let size = 0
  while (stack.length > 0 && size <= budget) {
    const v = stack.pop()
    switch (typeof v) {
      case "string":
        size += STRING_HEADER + 2 * v.length
        continue
      case "bigint":
        size += STRING_HEADER + Math.ceil(bitLength(v) / 64) * 8
        continue
      case "object":
      case "function":
        break
      default:
        continue
    }
    if (v === null) continue
    const o = v as object
    if (seen.has(o)) continue
    seen.add(o)
    if (typeof o === "function" || o instanceof WeakMap || o instanceof WeakSet || o instanceof Promise) {
      size += OPAQUE
    } else if (Array.isArray(o)) {
      size += ARRAY_HEADER + ELEMENT * o.length
      for (let i = 0; i < o.length; i++) {
        const e = o[i]
        if (typeof e === "object" || typeof e === "string" || typeof e === "bigint" || typeof e === "function") stack.push(e)
      }
    } else if (o instanceof Map) {
      size += TABLE_HEADER + MAP_ENTRY * (mapSize.call(o) as number)
      mapForEach.call(o, (e: unknown, k: unknown) => stack.push(k, e))
    } else if (o instanceof Set) {
      size += TABLE_HEADER + SET_ENTRY * (setSize.call(o) as number)
      setForEach.call(o, (e: unknown) => stack.push(e))
    } else if (o instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && o instanceof SharedArrayBuffer)) {
      size += OPAQUE + o.byteLength
    } else if (ArrayBuffer.isView(o)) {
      size += OPAQUE
      stack.push(o.buffer)
    } else {
      const r = o as Record<string, unknown>
      if (isParserNode(r)) continue
      size += OBJECT_HEADER
      for (const k in r) {
        size += FIELD
        if (STATIC_FIELDS.has(k)) continue
        const e = r[k]
        if (typeof e === "object" || typeof e === "string" || typeof e === "bigint" || typeof e === "function") stack.push(e)
      }
    }
  }
  return size
}

const bitLength = (n: bigint): number => {
  const a = n < 0n ? -n : n
  return a === 0n ? 0 : a.toString(16).length * 4
}
