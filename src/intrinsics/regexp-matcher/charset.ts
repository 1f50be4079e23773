/**
 * Does one character match a single-character atom? Fixed sets (`\d`, `\s`, `\w`, `.`) are answered here; every
 * other atom (a class, a property escape, a literal under `i`) is answered by V8 itself, by testing the one
 * character against the atom alone (`^(?:atom)$` with the pattern's i/s/u/v flags), so Unicode case folding,
 * property tables and `v`-flag set operations are exactly V8's. Such a test is a short, linear host call; its
 * answers are remembered per atom, so a long input costs one host call per distinct character.
 */
import type { Atom } from "./parse.ts"

export type CharTest = (c: number) => boolean

const isLineTerminator = (c: number): boolean => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029

const isDecimal = (c: number): boolean => c >= 0x30 && c <= 0x39

export const isAsciiWordChar = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || isDecimal(c) || c === 0x5f

// https://tc39.es/ecma262/#sec-white-space and #sec-line-terminators
const isWhiteSpace = (c: number): boolean =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff

const BUILTIN: Record<"d" | "D" | "s" | "S" | "w" | "W", CharTest> = {
  d: isDecimal,
  D: (c) => !isDecimal(c),
  s: isWhiteSpace,
  S: (c) => !isWhiteSpace(c),
  w: isAsciiWordChar,
  W: (c) => !isAsciiWordChar(c),
}

const PAGE_BITS = 8

/**
 * Remembered answers outlive runs, so all atoms together keep at most MAX_PAGES pages (4 MiB); past that every
 * atom forgets its answers (a new generation) and asks V8 again.
 */
const MAX_PAGES = 1 << 14
let pagesInUse = 0
let generation = 0

/** An atom answered by V8, with its answers kept per 256-character page. */
class HostAtom {
  private readonly re: RegExp
  private pages: Array<Int8Array | undefined> = []
  private generation = generation
  private readonly unicode: boolean
  constructor(source: string, flags: string, unicode: boolean) {
    this.re = new RegExp(`^(?:${source})$`, flags)
    this.unicode = unicode
  }
  readonly test = (c: number): boolean => {
    if (this.generation !== generation) {
      this.pages = []
      this.generation = generation
    }
    const page = c >>> PAGE_BITS
    let known = this.pages[page]
    if (known === undefined) {
      if (++pagesInUse > MAX_PAGES) {
        generation++
        pagesInUse = 1
        this.pages = []
        this.generation = generation
      }
      known = this.pages[page] = new Int8Array(1 << PAGE_BITS)
    }
    const slot = c & ((1 << PAGE_BITS) - 1)
    let answer = known[slot]!
    if (answer === 0) {
      answer = this.re.test(this.unicode ? String.fromCodePoint(c) : String.fromCharCode(c)) ? 1 : 2
      known[slot] = answer
    }
    return answer === 1
  }
}

const MAX_HOST_ATOMS = 2048
/** Process-wide: the same atom in many patterns (or the same pattern compiled again) shares its answers. */
const hostAtoms = new Map<string, HostAtom>()

const hostAtom = (source: string, ignoreCase: boolean, dotAll: boolean, unicode: boolean, unicodeSets: boolean): HostAtom => {
  const flags = (ignoreCase ? "i" : "") + (dotAll ? "s" : "") + (unicodeSets ? "v" : unicode ? "u" : "")
  const key = `${flags}/${source}`
  let atom = hostAtoms.get(key)
  if (atom === undefined) {
    if (hostAtoms.size >= MAX_HOST_ATOMS) hostAtoms.delete(hostAtoms.keys().next().value!)
    atom = new HostAtom(source, flags, unicode)
    hostAtoms.set(key, atom)
  }
  return atom
}

export const atomTest = (atom: Atom, unicode: boolean, unicodeSets: boolean): CharTest => {
  switch (atom.kind) {
    case "char": {
      const code = atom.code
      return (c) => c === code
    }
    case "dot":
      return atom.dotAll ? () => true : (c) => !isLineTerminator(c)
    case "builtin":
      return BUILTIN[atom.letter]
    case "host":
      return hostAtom(atom.source, atom.ignoreCase, atom.dotAll, unicode, unicodeSets).test
    case "strings":
      throw new Error("a class of strings is not a single-character atom")
  }
}

/** IsWordChar (https://tc39.es/ecma262/#sec-iswordchar): under `i` with unicode, characters that fold into \w. */
export const wordCharTest = (ignoreCaseUnicode: boolean, unicodeSets: boolean): CharTest =>
  ignoreCaseUnicode ? hostAtom("\\w", true, false, true, unicodeSets).test : isAsciiWordChar

/** Canonicalize(a) = Canonicalize(b) (https://tc39.es/ecma262/#sec-runtime-semantics-canonicalize-ch), by V8. */
export const caseEquals = (a: number, b: number, unicode: boolean, unicodeSets: boolean): boolean => {
  if (a === b) return true
  const source = unicode ? `\\u{${a.toString(16)}}` : `\\u${a.toString(16).padStart(4, "0")}`
  return hostAtom(source, true, false, unicode, unicodeSets).test(b)
}

/** A `v`-flag class of strings, asked of V8: does S[from, to) match it as a whole; its longest match at a position. */
export class StringsTest {
  private readonly whole: RegExp
  private readonly sticky: RegExp
  constructor(source: string, ignoreCase: boolean) {
    const flags = ignoreCase ? "iv" : "v"
    this.whole = new RegExp(`^(?:${source})$`, flags)
    this.sticky = new RegExp(`(?:${source})`, flags + "y")
  }
  matches(S: string, from: number, to: number): boolean {
    return this.whole.test(S.slice(from, to))
  }
  /** The length of the longest match at pos (the spec tries the longest strings first), or -1. */
  longestAt(S: string, pos: number): number {
    this.sticky.lastIndex = pos
    const m = this.sticky.exec(S)
    return m === null ? -1 : m[0].length
  }
}
