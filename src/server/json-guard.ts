/**
 * Limits on the JSON the service takes from outside (request bodies, webhook replies) and stores in Postgres.
 *
 * - Depth: data a program can use is at most 32 levels deep (the library's limit), and the Postgres driver
 *   overflows the stack encoding a few thousand levels. Tool outputs, durable `data` and completions deeper than
 *   `MAX_DATA_DEPTH` are refused with a clear message instead of failing somewhere inside a run.
 * - Tool schemas: the catalog renders every `$ref` inline (a recursive one once), so a schema whose references
 *   fan out (`a` → two refs to `b` → two refs to `c` …) renders in exponential time and would block the process.
 *   `schemaRefusal` walks a schema the way the renderer does, with a budget, and refuses one that exceeds it.
 * - Text Postgres cannot store: `jsonb` refuses U+0000 and unpaired surrogates (`\ud800`) anywhere in a value.
 *   `storable` replaces them with U+FFFD, so a program that returns or logs such a string still has its outcome
 *   saved.
 */

/** Tool outputs, durable data and completions nested deeper than this are refused. */
export const MAX_DATA_DEPTH = 64

/** A tool schema (as a JSON document) nested deeper than this is refused. */
export const MAX_SCHEMA_DEPTH = 128

/** The most schema nodes rendering one tool schema may visit, and how deep, `$ref`s expanded. */
export const MAX_SCHEMA_NODES = 100_000
export const MAX_EXPANDED_DEPTH = 512

/** Whether a JSON value nests arrays/objects more than `max` levels (iterative: safe on any depth). */
export const deeperThan = (value: unknown, max: number): boolean => {
  const stack: Array<readonly [unknown, number]> = [[value, 0]]
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!
    if (typeof v !== "object" || v === null) continue
    if (depth >= max) return true
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === "object" && child !== null) stack.push([child, depth + 1])
    }
  }
  return false
}

/** Keywords whose values are data, not schemas: the renderer prints them as literals. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "example"])
/** Definitions are rendered only where a `$ref` points into them. */
const DEFINITIONS = new Set(["$defs", "definitions"])

/** A JSON object: not null, not an array. */
export const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const resolve = (root: unknown, ref: string): unknown => {
  if (ref === "#") return root
  if (!ref.startsWith("#/")) return undefined
  let node: unknown = root
  for (const raw of ref.slice(2).split("/")) {
    let key: string
    try {
      key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~")
    } catch {
      return undefined
    }
    if (!isObject(node)) return undefined
    node = node[key]
  }
  return isObject(node) ? node : undefined
}

/** Why a tool schema would be too costly to render, or undefined. */
export const schemaRefusal = (label: string, schema: unknown): string | undefined => {
  let visited = 0
  const expanding = new Set<string>()
  const tooLarge = `The ${label} schema is too large to render: its $refs expand to more than ${MAX_SCHEMA_NODES} schemas or ${MAX_EXPANDED_DEPTH} levels`
  // Recursion is bounded by MAX_EXPANDED_DEPTH, so this cannot overflow the stack.
  const visit = (node: unknown, depth: number): string | undefined => {
    if (typeof node !== "object" || node === null) return undefined
    if (++visited > MAX_SCHEMA_NODES || depth > MAX_EXPANDED_DEPTH) return tooLarge
    if (Array.isArray(node)) {
      for (const item of node) {
        const why = visit(item, depth + 1)
        if (why !== undefined) return why
      }
      return undefined
    }
    const record = node as Record<string, unknown>
    const ref = record["$ref"]
    if (typeof ref === "string" && !expanding.has(ref)) {
      const target = resolve(schema, ref)
      if (target !== undefined) {
        expanding.add(ref)
        const why = visit(target, depth + 1)
        expanding.delete(ref)
        if (why !== undefined) return why
      }
    }
    for (const [key, child] of Object.entries(record)) {
      if (DATA_KEYWORDS.has(key) || DEFINITIONS.has(key)) continue
      const why = visit(child, depth + 1)
      if (why !== undefined) return why
    }
    return undefined
  }
  // Definitions are documents of their own (a schema may nest them deeply even if nothing refers to them).
  if (deeperThan(schema, MAX_SCHEMA_DEPTH)) return `The ${label} schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels`
  return visit(schema, 0)
}

/** A JSON escape Postgres `jsonb` refuses: U+0000, or a surrogate that is not part of a pair. */
const UNSTORABLE = /(?<!\\)((?:\\\\)*)\\u(?:0000|d[89a-f][0-9a-f]{2})/gi

/**
 * The value with every string (and key) Postgres `jsonb` cannot store made storable: U+0000 and unpaired
 * surrogates become U+FFFD. `JSON.stringify` writes exactly those as `\u` escapes (a well-formed pair is written
 * as the character itself), so the check is one scan of the text; values that need no change are returned as is.
 */
export const storable = <A>(value: A): A => {
  let text: string | undefined
  try {
    text = JSON.stringify(value)
  } catch {
    return value // not JSON (too deep, a BigInt): the driver reports it
  }
  if (text === undefined || !text.includes("\\u")) return value
  UNSTORABLE.lastIndex = 0
  if (!UNSTORABLE.test(text)) return value
  return JSON.parse(text.replace(UNSTORABLE, "$1\\ufffd")) as A
}
