/**
 * A YAML writer and reader for JSON data, enough for `openapi.yaml` and no more. `stringify` writes block-style
 * YAML 1.2 (maps and lists by indentation, strings plain when that is unambiguous and JSON-quoted otherwise,
 * lists of lists in JSON flow style); `parse` reads back exactly that subset, so the OpenAPI route test can read
 * the committed file without a YAML dependency. Anything outside the subset is a thrown `SyntaxError` naming the
 * line, never a guess.
 */

export type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const PLAIN_KEY = /^[A-Za-z0-9_$][A-Za-z0-9_$.\/-]*$/
// Plain scalars: must not look like another type, start with an indicator, or contain ": " / " #".
const PLAIN_VALUE = /^[A-Za-z_\/$][A-Za-z0-9_ .,;()`'\/$<>=+*|?!-]*$/
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i

// Keys that YAML would read as numbers (response codes such as 200) are quoted so they stay strings.
const key = (k: string): string =>
  PLAIN_KEY.test(k) && !RESERVED.test(k) && !/^[0-9.+-]/.test(k) ? k : JSON.stringify(k)

const scalar = (v: null | boolean | number | string): string => {
  if (typeof v !== "string") return v === null ? "null" : String(v)
  return PLAIN_VALUE.test(v) && !RESERVED.test(v) && !v.endsWith(" ") && !v.includes(": ") && !v.includes(" #")
    ? v
    : JSON.stringify(v)
}

const isEmpty = (v: Json): boolean =>
  Array.isArray(v) ? v.length === 0 : typeof v === "object" && v !== null && Object.keys(v).length === 0

const inline = (v: Json): string | undefined => {
  if (v === null || typeof v !== "object") return scalar(v)
  if (isEmpty(v)) return Array.isArray(v) ? "[]" : "{}"
  return undefined
}

const lines = (v: Json, indent: string, out: Array<string>): void => {
  if (Array.isArray(v)) {
    for (const item of v as ReadonlyArray<Json>) {
      const one = inline(item)
      if (one !== undefined) out.push(`${indent}- ${one}`)
      else if (Array.isArray(item)) out.push(`${indent}- ${JSON.stringify(item)}`)
      else {
        const nested: Array<string> = []
        lines(item, indent + "  ", nested)
        out.push(`${indent}- ${nested[0]!.slice(indent.length + 2)}`, ...nested.slice(1))
      }
    }
    return
  }
  for (const [k, item] of Object.entries(v as { readonly [key: string]: Json })) {
    const one = inline(item)
    if (one !== undefined) out.push(`${indent}${key(k)}: ${one}`)
    else {
      out.push(`${indent}${key(k)}:`)
      lines(item, indent + "  ", out)
    }
  }
}

/** Writes JSON data as block YAML, ending with a newline. */
export const stringify = (value: Json): string => {
  const one = inline(value)
  if (one !== undefined) return `${one}\n`
  const out: Array<string> = []
  lines(value, "", out)
  return out.join("\n") + "\n"
}

interface Line {
  readonly indent: number
  readonly text: string
  readonly number: number
}

const fail = (line: Line | undefined, message: string): never => {
  throw new SyntaxError(line === undefined ? `YAML: ${message} at end of input` : `YAML line ${line.number}: ${message}`)
}

const readScalar = (text: string, line: Line): Json => {
  if (text.startsWith('"') || text.startsWith("[") || text.startsWith("{")) {
    try {
      return JSON.parse(text) as Json
    } catch {
      return fail(line, `invalid quoted or flow value ${text}`)
    }
  }
  if (text === "null" || text === "~") return null
  if (text === "true") return true
  if (text === "false") return false
  if (/^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/.test(text)) return Number(text)
  return text
}

/** Splits `key: rest` (the key plain or JSON-quoted); undefined when the text is not a map entry. */
const splitEntry = (text: string, line: Line): [string, string] | undefined => {
  if (text.startsWith('"')) {
    const end = /^"(?:[^"\\]|\\.)*"/.exec(text)
    if (end === null) return fail(line, "unterminated quoted key")
    const rest = text.slice(end[0].length)
    if (rest !== ":" && !rest.startsWith(": ")) return undefined
    return [JSON.parse(end[0]) as string, rest.slice(1).trim()]
  }
  const m = /^([^\s"'#:\[\]{}][^:]*?):(?: (.*))?$/.exec(text)
  return m === null ? undefined : [m[1]!, (m[2] ?? "").trim()]
}

const readBlock = (all: ReadonlyArray<Line>, start: number, indent: number): [Json, number] => {
  const first = all[start]
  if (first === undefined || first.indent !== indent) return fail(first, `expected a block at indentation ${indent}`)
  if (first.text === "-" || first.text.startsWith("- ")) {
    const out: Array<Json> = []
    let i = start
    while (i < all.length && all[i]!.indent === indent && (all[i]!.text === "-" || all[i]!.text.startsWith("- "))) {
      const line = all[i]!
      const rest = line.text.slice(2)
      if (rest === "") return fail(line, "empty list item")
      if (splitEntry(rest, line) !== undefined && !rest.startsWith("[") && !rest.startsWith("{")) {
        // A map that starts on the dash line: re-read it as a block two columns deeper.
        const shifted: Array<Line> = [{ indent: indent + 2, text: rest, number: line.number }]
        let j = i + 1
        while (j < all.length && all[j]!.indent > indent) shifted.push(all[j++]!)
        const [value, used] = readBlock(shifted, 0, indent + 2)
        if (used !== shifted.length) return fail(shifted[used], "unexpected indentation")
        out.push(value)
        i = j
      } else {
        out.push(readScalar(rest, line))
        i++
      }
    }
    return [out, i]
  }
  const out: Record<string, Json> = {}
  let i = start
  while (i < all.length && all[i]!.indent === indent) {
    const line = all[i]!
    const entry = splitEntry(line.text, line)
    if (entry === undefined) return fail(line, "expected `key: value`")
    const [k, rest] = entry
    if (Object.hasOwn(out, k)) return fail(line, `duplicate key ${k}`)
    if (rest !== "") {
      out[k] = readScalar(rest, line)
      i++
    } else {
      const next = all[i + 1]
      if (next === undefined || next.indent <= indent) return fail(next, `key ${k} has no value`)
      const [value, end] = readBlock(all, i + 1, next.indent)
      out[k] = value
      i = end
    }
  }
  return [out, i]
}

/** Reads YAML written by `stringify` (block maps and lists, plain or JSON-quoted scalars, JSON flow values). */
export const parse = (text: string): Json => {
  const all: Array<Line> = []
  text.split("\n").forEach((raw, n) => {
    if (raw.trim() === "" || raw.trimStart().startsWith("#")) return
    const indent = raw.length - raw.trimStart().length
    if (raw.slice(0, indent).includes("\t")) fail({ indent, text: raw, number: n + 1 }, "tabs are not allowed in indentation")
    all.push({ indent, text: raw.trimEnd().slice(indent), number: n + 1 })
  })
  if (all.length === 0) return null
  if (all.length === 1 && splitEntry(all[0]!.text, all[0]!) === undefined && !all[0]!.text.startsWith("- ")) {
    return readScalar(all[0]!.text, all[0]!)
  }
  const [value, end] = readBlock(all, 0, all[0]!.indent)
  if (end !== all.length) fail(all[end], "unexpected indentation")
  return value
}
