/**
 * Erasable TypeScript, by Node's own `stripTypeScriptTypes` in strip mode: types become whitespace of the same
 * UTF-16 length (non-ASCII type text becomes U+FEFF, also JS whitespace), so every offset and line break in the
 * stripped text matches the user's source and diagnostics need no source map. Syntax that would need code generation
 * (enum, namespace with values, parameter properties, `import =`, `export =`, `<T>x` assertions) is reported as
 * UnsupportedSyntax. The stripper has no location in its errors, so the construct is found by a keyword search over
 * the source with comments and string contents masked out; when that fails the caller falls back to where the
 * JavaScript parse stopped.
 *
 * The stripper parses a module, where top-level `return` is an error, so a program is tried bare first (that keeps
 * `import type`, which only a module allows) and then inside the async-function wrapper (that allows `return`). A
 * program with both import declarations and a top-level `return` fits neither: it is tried bare once more with every
 * `return` keyword written as `;` and spaces, which the stripper leaves alone and which are put back afterwards.
 */
import { stripTypeScriptTypes } from "node:module"
import { unsupported, type Problem } from "./diagnostics.ts"
import { unwrap, wrap } from "./wrapper.ts"

export type Stripped =
  | { readonly ok: true; readonly code: string }
  /** `problem` is set when the source is TypeScript that strip mode cannot erase; otherwise it is not TypeScript. */
  | { readonly ok: false; readonly problem?: Problem }

type Attempt = { readonly code: string } | { readonly unsupported: string } | { readonly invalid: string }

export function stripTypes(source: string): Stripped {
  const bare = attempt(source)
  if ("code" in bare && bare.code.length === source.length) return { ok: true, code: bare.code }
  if ("unsupported" in bare) return { ok: false, problem: describeUnsupported(bare.unsupported, source) }
  const wrapped = attempt(wrap(source))
  if ("code" in wrapped) {
    const code = unwrap(wrapped.code)
    return code.length === source.length ? { ok: true, code } : { ok: false }
  }
  if ("unsupported" in wrapped) return { ok: false, problem: describeUnsupported(wrapped.unsupported, source) }
  const returns = [...maskNonCode(source).matchAll(RETURN_KEYWORD)].map((m) => m.index)
  if (returns.length > 0) {
    let hidden = source
    for (const at of returns) hidden = hidden.slice(0, at) + ";     " + hidden.slice(at + 6)
    const modular = attempt(hidden)
    if ("code" in modular && modular.code.length === source.length) {
      let code = modular.code
      for (const at of returns) code = code.slice(0, at) + "return" + code.slice(at + 6)
      return { ok: true, code }
    }
  }
  return { ok: false }
}

/** `return` as a keyword: not a property name (`o.return`, `{ return: 1 }`) nor part of a longer name. */
const RETURN_KEYWORD = /(?<![.\p{ID_Continue}$])return(?![\p{ID_Continue}$]|\s*[:?])/gu

function attempt(text: string): Attempt {
  try {
    return { code: withoutExperimentalWarning(() => stripTypeScriptTypes(text, { mode: "strip" })) }
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown }
    const text = typeof message === "string" ? message : String(error)
    return code === "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX" ? { unsupported: text } : { invalid: text }
  }
}

// Node warns once per process that stripTypeScriptTypes is experimental; a host embedding codemode did not ask for
// that line on its stderr. Only that warning is dropped, and only during the call.
function withoutExperimentalWarning<T>(run: () => T): T {
  const original = process.emitWarning
  const filtered = function (this: unknown, warning: string | Error, ...rest: unknown[]): void {
    const text = typeof warning === "string" ? warning : warning.message
    if (text.includes("stripTypeScriptTypes")) return
    ;(original as (...args: unknown[]) => void).call(process, warning, ...rest)
  }
  process.emitWarning = filtered as typeof process.emitWarning
  try {
    return run()
  } finally {
    process.emitWarning = original
  }
}

interface UnsupportedConstruct {
  readonly matches: RegExp // against Node's message
  readonly message: string
  readonly find?: RegExp // against the masked source; group 1, if present, marks the construct
}

const CONSTRUCTS: ReadonlyArray<UnsupportedConstruct> = [
  {
    matches: /\benum\b/,
    message: "TypeScript `enum` declarations are not supported",
    find: /(?<!\bdeclare\s+(?:const\s+)?)\b(?:const\s+)?enum\s+[\p{ID_Start}$_\\]/u,
  },
  {
    // Node's message for `module M {}` also mentions `namespace`, so it is matched first.
    matches: /`module` keyword/,
    message: "TypeScript `module` declarations are not supported",
    find: /(?<!\bdeclare\s+)\bmodule\s+[\p{ID_Start}$_\\]/u,
  },
  {
    matches: /\bnamespace\b/,
    message: "TypeScript `namespace` declarations are not supported",
    find: /(?<!\bdeclare\s+)\bnamespace\s+[\p{ID_Start}$_\\]/u,
  },
  {
    matches: /parameter property/,
    message: "TypeScript parameter properties are not supported",
    find: /\bconstructor\s*\([^)]*?\b(public|private|protected|readonly|override)\s/,
  },
  {
    matches: /import equals/,
    message: "TypeScript `import =` declarations are not supported",
    find: /\bimport\s+(?:type\s+)?[\p{ID_Start}$_][\p{ID_Continue}$]*\s*=/u,
  },
  {
    matches: /export assignment/,
    message: "TypeScript `export =` assignments are not supported",
    find: /\bexport\s*=/,
  },
  {
    matches: /angle-bracket/,
    message: "TypeScript `<T>expr` type assertions are not supported; use `expr as T`",
  },
]

function describeUnsupported(nodeMessage: string, source: string): Problem {
  const construct = CONSTRUCTS.find((candidate) => candidate.matches.test(nodeMessage))
  if (construct === undefined) return unsupported(nodeMessage.replace(/ in strip-only mode$/, ""))
  const match = construct.find?.exec(maskNonCode(source))
  if (match === null || match === undefined) return unsupported(construct.message)
  const offset = match[1] === undefined ? match.index : match.index + match[0].lastIndexOf(match[1])
  return unsupported(construct.message, offset)
}

/**
 * The source with comment bodies and string/template text replaced by spaces (line breaks kept), so a keyword search
 * does not land inside them. Regular expression literals are not recognized; this only positions a diagnostic.
 */
export function maskNonCode(source: string): string {
  let out = ""
  let index = 0
  const blank = (from: number, to: number): string => source.slice(from, to).replace(/[^\n\r\u2028\u2029]/g, " ")
  while (index < source.length) {
    const char = source[index]
    const next = source[index + 1]
    let end = index + 1
    if (char === "/" && next === "/") {
      end = source.slice(index).search(/[\n\r\u2028\u2029]/)
      end = end === -1 ? source.length : index + end
    } else if (char === "/" && next === "*") {
      end = source.indexOf("*/", index + 2)
      end = end === -1 ? source.length : end + 2
    } else if (char === '"' || char === "'" || char === "`") {
      end = index + 1
      while (end < source.length && source[end] !== char) end += source[end] === "\\" ? 2 : 1
      end = Math.min(end + 1, source.length)
    } else {
      out += char
      index = end
      continue
    }
    out += blank(index, end)
    index = end
  }
  return out
}
