/**
 * The pattern grammar of https://tc39.es/ecma262/#sec-patterns, with Annex B's web-compatibility rules when neither
 * `u` nor `v` is set (https://tc39.es/ecma262/#sec-regular-expressions-patterns), parsed into a tree the
 * interruptible matcher compiles. V8 has already accepted the pattern (its SyntaxError texts are the ones programs
 * see), so this parser only has to read valid patterns the way V8 reads them; what it cannot read it refuses.
 *
 * Single-character atoms (a character class, `\d`, `\p{…}`, a literal under `i`) keep their source text: the
 * matcher asks V8 whether one character matches that atom alone (charset.ts), which gives V8's exact Unicode,
 * case-folding and property tables without copying them.
 */
import { SandboxError } from "../../runtime/completion.ts"

/** Flags that modifiers `(?ims-ims:…)` can change locally. */
export interface LocalFlags {
  readonly ignoreCase: boolean
  readonly multiline: boolean
  readonly dotAll: boolean
}

export type Atom =
  /** One character equal to `code` (code point in unicode mode, code unit otherwise), case-sensitively. */
  | { readonly kind: "char"; readonly code: number }
  /** Any character but a line terminator (or any character at all with `dotAll`). */
  | { readonly kind: "dot"; readonly dotAll: boolean }
  /** `\d \D \s \S \w \W` outside `i`+unicode, where their sets are fixed. */
  | { readonly kind: "builtin"; readonly letter: "d" | "D" | "s" | "S" | "w" | "W" }
  /** Anything else that matches one character: its source text, tested by V8 with these flags. */
  | { readonly kind: "host"; readonly source: string; readonly ignoreCase: boolean; readonly dotAll: boolean }
  /**
   * A `v`-flag class that can match strings (`\q{…}`, `\p{RGI_Emoji}`): the longest match first, then shorter ones
   * on backtracking, each at most `maxLength` code units, tested by V8.
   */
  | { readonly kind: "strings"; readonly source: string; readonly ignoreCase: boolean; readonly maxLength: number }

export type Node =
  | { readonly type: "empty" }
  | { readonly type: "atom"; readonly atom: Atom }
  | { readonly type: "seq"; readonly items: ReadonlyArray<Node> }
  | { readonly type: "alt"; readonly alts: ReadonlyArray<Node> }
  /** A capturing group (`index` ≥ 1). */
  | { readonly type: "group"; readonly index: number; readonly body: Node }
  | {
      readonly type: "repeat"
      readonly body: Node
      readonly min: number
      readonly max: number
      readonly greedy: boolean
      /** Captures inside the body, reset at every iteration: indices first..last (inclusive), none when last < first. */
      readonly firstCapture: number
      readonly lastCapture: number
    }
  | { readonly type: "look"; readonly behind: boolean; readonly negative: boolean; readonly body: Node }
  /** `\n` or `\k<name>`: with duplicate named groups, the group of that name that participated. */
  | { readonly type: "backref"; readonly indices: ReadonlyArray<number>; readonly ignoreCase: boolean }
  | { readonly type: "lineStart"; readonly multiline: boolean }
  | { readonly type: "lineEnd"; readonly multiline: boolean }
  | { readonly type: "wordBoundary"; readonly negated: boolean; readonly ignoreCase: boolean }

export interface Pattern {
  readonly root: Node
  /** Capturing groups, not counting the whole match. */
  readonly captureCount: number
  /** Group names in order of first appearance, each with the indices that carry it. */
  readonly names: ReadonlyArray<readonly [string, ReadonlyArray<number>]>
  readonly unicode: boolean
  readonly unicodeSets: boolean
}

export const refuse = (what: string): never => {
  throw new SandboxError("SyntaxError", `Invalid regular expression: ${what} is not supported by the interruptible matcher`)
}

/** The properties of strings (v flag): classes that can match several characters. */
const STRING_PROPERTIES = /\\[pP]\{(Basic_Emoji|Emoji_Keycap_Sequence|RGI_Emoji(_Modifier_Sequence|_Flag_Sequence|_Tag_Sequence|_ZWJ_Sequence)?)\}/

const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39
const isOctal = (c: number): boolean => c >= 0x30 && c <= 0x37
const hexValue = (c: number): number =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 0x37 : c >= 0x61 && c <= 0x66 ? c - 0x57 : -1
const isAsciiLetter = (c: number): boolean => (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a

/** A literal character as host source text (for atoms tested by V8). */
const literalSource = (code: number, unicode: boolean): string =>
  unicode ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`

export const parsePattern = (source: string, flags: string): Pattern => {
  const unicodeSets = flags.includes("v")
  const unicode = unicodeSets || flags.includes("u")
  const { captureCount, groupNames } = scanGroups(source, unicodeSets)
  const hasNamedGroups = groupNames.length > 0
  let pos = 0
  let captureIndex = 0
  const names = new Map<string, number[]>()

  const peek = (offset = 0): number => {
    const i = pos + offset
    return i < source.length ? source.charCodeAt(i) : -1
  }
  const eat = (ch: string): boolean => {
    if (source.startsWith(ch, pos)) {
      pos += ch.length
      return true
    }
    return false
  }
  /** The next source character: a code point in unicode mode (surrogate pairs are one character there). */
  const nextChar = (): number => {
    const cp = unicode ? source.codePointAt(pos)! : source.charCodeAt(pos)
    pos += cp > 0xffff ? 2 : 1
    return cp
  }
  const readDecimal = (): number => {
    let n = 0
    while (isDigit(peek())) n = Math.min(n * 10 + (source.charCodeAt(pos++) - 0x30), 2 ** 53)
    return n
  }
  const readHex = (count: number): number => {
    let v = 0
    for (let k = 0; k < count; k++) {
      const h = hexValue(peek(k))
      if (h < 0) return -1
      v = v * 16 + h
    }
    pos += count
    return v
  }

  const disjunction = (flags: LocalFlags): Node => {
    const alts = [alternative(flags)]
    while (eat("|")) alts.push(alternative(flags))
    return alts.length === 1 ? alts[0]! : { type: "alt", alts }
  }

  const alternative = (flags: LocalFlags): Node => {
    const items: Node[] = []
    while (pos < source.length && peek() !== 0x7c /* | */ && peek() !== 0x29 /* ) */) items.push(term(flags))
    return items.length === 0 ? { type: "empty" } : items.length === 1 ? items[0]! : { type: "seq", items }
  }

  const term = (flags: LocalFlags): Node => {
    const capturesBefore = captureIndex
    const c = peek()
    if (c === 0x5e /* ^ */) {
      pos++
      return { type: "lineStart", multiline: flags.multiline }
    }
    if (c === 0x24 /* $ */) {
      pos++
      return { type: "lineEnd", multiline: flags.multiline }
    }
    if (c === 0x5c /* \ */ && (peek(1) === 0x62 || peek(1) === 0x42) /* b B */) {
      pos += 2
      return { type: "wordBoundary", negated: peek(-1) === 0x42, ignoreCase: flags.ignoreCase && unicode }
    }
    let node: Node
    let quantifiable = true
    if (c === 0x28 /* ( */) {
      const group = parenthesized(flags)
      node = group.node
      quantifiable = group.quantifiable
    } else {
      node = { type: "atom", atom: atom(flags) }
      if (node.atom.kind === "char" && node.atom.code === -1) node = backrefOrOctal(flags)
    }
    return quantifiable ? quantifier(node, capturesBefore) : node
  }

  const quantifier = (body: Node, capturesBefore: number): Node => {
    const start = pos
    let min: number
    let max: number
    const c = peek()
    if (c === 0x2a /* * */) [min, max] = [0, Infinity]
    else if (c === 0x2b /* + */) [min, max] = [1, Infinity]
    else if (c === 0x3f /* ? */) [min, max] = [0, 1]
    else if (c === 0x7b /* { */ && isDigit(peek(1))) {
      pos++
      min = readDecimal()
      max = min
      if (eat(",")) max = isDigit(peek()) ? readDecimal() : Infinity
      if (!eat("}")) {
        // Annex B: a `{` that does not make a quantifier is a literal (V8 accepted the pattern, so not unicode).
        pos = start
        return body
      }
      pos--
    } else return body
    pos++
    const greedy = !eat("?")
    return { type: "repeat", body, min, max, greedy, firstCapture: capturesBefore + 1, lastCapture: captureIndex }
  }

  const parenthesized = (flags: LocalFlags): { node: Node; quantifiable: boolean } => {
    pos++
    if (eat("?")) {
      if (eat(":")) return { node: closeGroup(groupBody(flags)), quantifiable: true }
      if (eat("=") || eat("!")) {
        const negative = peek(-1) === 0x21
        // Annex B lets a lookahead take a quantifier outside unicode mode.
        return { node: closeGroup({ type: "look", behind: false, negative, body: groupBody(flags) }), quantifiable: !unicode }
      }
      if (eat("<=") || eat("<!")) {
        const negative = peek(-1) === 0x21
        return { node: closeGroup({ type: "look", behind: true, negative, body: groupBody(flags) }), quantifiable: false }
      }
      if (eat("<")) {
        const end = source.indexOf(">", pos)
        const name = groupName(source.slice(pos, end))
        pos = end + 1
        const index = ++captureIndex
        const list = names.get(name)
        if (list === undefined) names.set(name, [index])
        else list.push(index)
        return { node: closeGroup({ type: "group", index, body: groupBody(flags) }), quantifiable: true }
      }
      return { node: closeGroup(groupBody(modifiers(flags))), quantifiable: true }
    }
    const index = ++captureIndex
    return { node: closeGroup({ type: "group", index, body: groupBody(flags) }), quantifiable: true }
  }

  /**
   * NON-SPEC (V8 compatibility): with the v flag, V8 case-folds a class (or \p, \w…) by the flags of the group
   * opened last before it, not of the group it is in: `(?i:a)[b]` matches "aB".
   */
  let classIgnoreCase = flags.includes("i")
  const groupBody = (flags: LocalFlags): Node => {
    classIgnoreCase = flags.ignoreCase
    return disjunction(flags)
  }
  /**
   * NON-SPEC (V8 compatibility): under v, V8 builds `\w` / `\W` with the flags of the group opened last, then
   * case-folds the set again by the flags in scope: so after `(?-i:…)` under `iv`, `\W` also matches s, S, k and K
   * (the ASCII letters that fold together with ſ and the Kelvin sign).
   */
  const vWordEscape = (letter: "w" | "W", flags: LocalFlags): Atom => {
    const plain = { ...flags, ignoreCase: false }
    const folded = { ...flags, ignoreCase: true }
    if (letter === "w") return flags.ignoreCase || classIgnoreCase ? hostAtom("\\w", folded) : { kind: "builtin", letter }
    if (classIgnoreCase) return hostAtom("\\W", folded)
    return flags.ignoreCase ? hostAtom("\\W|[sSkK]", plain) : { kind: "builtin", letter }
  }

  /** The flags a class or class escape is read with. */
  const classFlags = (flags: LocalFlags): LocalFlags => (unicodeSets ? { ...flags, ignoreCase: classIgnoreCase } : flags)

  const closeGroup = (node: Node): Node => {
    if (!eat(")")) refuse("this group")
    return node
  }

  /** `(?ims-ims:`: the flags of the group's body. */
  const modifiers = (flags: LocalFlags): LocalFlags => {
    const colon = source.indexOf(":", pos)
    const [on = "", off = ""] = source.slice(pos, colon).split("-")
    pos = colon + 1
    const value = (letter: string, current: boolean): boolean => (on.includes(letter) ? true : off.includes(letter) ? false : current)
    return {
      ignoreCase: value("i", flags.ignoreCase),
      multiline: value("m", flags.multiline),
      dotAll: value("s", flags.dotAll),
    }
  }

  /** Group names may be written with `\u` escapes; V8 has checked they are identifiers. */
  const groupName = (raw: string): string =>
    raw.replace(/\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g, (_, braced: string | undefined, four: string | undefined) =>
      String.fromCodePoint(parseInt(braced ?? four!, 16)))

  /**
   * One atom. A decimal escape `\1`… is returned as the marker `{ kind: "char", code: -1 }` with pos on the
   * backslash, because whether it is a backreference needs the group count (Annex B reads `\8` or `\12` in a
   * pattern with fewer groups as characters).
   */
  const atom = (flags: LocalFlags): Atom => {
    const start = pos
    const c = peek()
    if (c === 0x2e /* . */) {
      pos++
      return { kind: "dot", dotAll: flags.dotAll }
    }
    if (c === 0x5b /* [ */) return classAtom(classFlags(flags), start)
    if (c !== 0x5c /* \ */) return literal(nextChar(), flags)
    pos++
    const e = peek()
    if (e >= 0x31 && e <= 0x39) {
      pos = start
      return { kind: "char", code: -1 }
    }
    if (e === 0x6b /* k */ && (unicode || hasNamedGroups)) {
      pos++
      return { kind: "char", code: -1 }
    }
    if ("dDsSwW".includes(String.fromCharCode(e))) {
      pos++
      const letter = String.fromCharCode(e) as "d" | "D" | "s" | "S" | "w" | "W"
      if (letter === "w" || letter === "W") {
        if (unicodeSets) return vWordEscape(letter, flags)
        if (flags.ignoreCase && unicode) return hostAtom(`\\${letter}`, flags)
      }
      return { kind: "builtin", letter }
    }
    if ((e === 0x70 || e === 0x50) /* p P */ && unicode) {
      const end = source.indexOf("}", pos)
      pos = end + 1
      const text = source.slice(start, pos)
      if (unicodeSets && STRING_PROPERTIES.test(text)) return stringsAtom(text, classFlags(flags))
      return hostAtom(text, classFlags(flags))
    }
    const code = characterEscape(false)
    if (code < 0) {
      // Annex B: `\c` not followed by a letter is a backslash; the `c` is read next as itself.
      pos = start + 1
      return literal(0x5c, flags)
    }
    return literal(code, flags)
  }

  const literal = (code: number, flags: LocalFlags): Atom =>
    flags.ignoreCase ? hostAtom(literalSource(code, unicode), flags) : { kind: "char", code }

  /** Its longest string: the longest `\q{…}` alternative, or any emoji sequence (at most 15 code units today). */
  const stringsAtom = (text: string, flags: LocalFlags): Atom => {
    let maxLength = STRING_PROPERTIES.test(text) ? 32 : 2
    for (const [, body] of text.matchAll(/\\q\{((?:\\.|[^}])*)\}/g)) {
      for (const alt of body!.split("|")) maxLength = Math.max(maxLength, alt.length + 2)
    }
    return { kind: "strings", source: text, ignoreCase: flags.ignoreCase, maxLength }
  }

  const hostAtom = (text: string, flags: LocalFlags): Atom => ({ kind: "host", source: text, ignoreCase: flags.ignoreCase, dotAll: flags.dotAll })

  /**
   * A CharacterEscape after the backslash (https://tc39.es/ecma262/#prod-CharacterEscape with Annex B), or -1
   * for a `\c` that is not followed by a control letter. `inClass`: Annex B's `\c` digit / underscore in classes.
   */
  const characterEscape = (inClass: boolean): number => {
    const e = nextChar()
    switch (e) {
      case 0x66: return 0x0c // f
      case 0x6e: return 0x0a // n
      case 0x72: return 0x0d // r
      case 0x74: return 0x09 // t
      case 0x76: return 0x0b // v
      case 0x63: { // c
        const l = peek()
        if (isAsciiLetter(l) || (inClass && !unicode && (isDigit(l) || l === 0x5f))) {
          pos++
          return l % 32
        }
        pos--
        return -1
      }
      case 0x30: // 0
        if (!unicode && isOctal(peek())) return legacyOctal(0)
        return 0
      case 0x78: { // x
        const v = readHex(2)
        return v < 0 ? 0x78 : v
      }
      case 0x75: { // u
        if (unicode && peek() === 0x7b /* { */) {
          const end = source.indexOf("}", pos)
          const v = parseInt(source.slice(pos + 1, end), 16)
          pos = end + 1
          return v
        }
        const v = readHex(4)
        if (v < 0) return 0x75
        if (unicode && v >= 0xd800 && v <= 0xdbff && peek() === 0x5c && peek(1) === 0x75) {
          const save = pos
          pos += 2
          const low = readHex(4)
          if (low >= 0xdc00 && low <= 0xdfff) return (v - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000
          pos = save
        }
        return v
      }
      default:
        if (!unicode && isOctal(e)) return legacyOctal(e - 0x30)
        // IdentityEscape (including Annex B's `\8`, `\9`, `\k` without named groups, `\p` outside unicode).
        return e
    }
  }

  /** LegacyOctalEscapeSequence after its first digit. */
  const legacyOctal = (first: number): number => {
    let v = first
    const more = first <= 3 ? 2 : 1
    for (let k = 0; k < more && isOctal(peek()); k++) v = v * 8 + (source.charCodeAt(pos++) - 0x30)
    return v
  }

  const backrefOrOctal = (flags: LocalFlags): Node => {
    // pos is on the backslash of `\N` or just after `\k`.
    if (source.charCodeAt(pos - 1) === 0x6b /* k */ && source.charCodeAt(pos) === 0x3c /* < */) {
      const end = source.indexOf(">", pos)
      const name = groupName(source.slice(pos + 1, end))
      pos = end + 1
      const indices = groupNames.flatMap(([n, i]) => (n === name ? [i] : []))
      if (indices.length === 0) refuse(`\\k<${name}>`)
      return { type: "backref", indices, ignoreCase: flags.ignoreCase }
    }
    const start = pos
    pos++
    const n = readDecimal()
    if (n >= 1 && n <= captureCount) return { type: "backref", indices: [n], ignoreCase: flags.ignoreCase }
    // Annex B: not a group number, so the escape is a legacy octal sequence or an identity escape (`\8`, `\9`).
    pos = start + 1
    const d = source.charCodeAt(pos++)
    const code = isOctal(d) ? legacyOctal(d - 0x30) : d
    return { type: "atom", atom: literal(code, flags) }
  }

  /** A class is one atom tested by V8 on each character; only its extent is read here. */
  const classAtom = (flags: LocalFlags, start: number): Atom => {
    let depth = 0
    while (pos < source.length) {
      const c = source.charCodeAt(pos)
      if (c === 0x5c) {
        pos += 2
        continue
      }
      pos++
      if (c === 0x5b && (depth === 0 || unicodeSets)) depth++
      else if (c === 0x5d && --depth === 0) break
    }
    const text = source.slice(start, pos)
    if (unicodeSets && (STRING_PROPERTIES.test(text) || /\\q\{/.test(text))) return stringsAtom(text, flags)
    if (!flags.ignoreCase && !unicode && text === "[^]") return { kind: "dot", dotAll: true }
    return hostAtom(text, flags)
  }

  const root = disjunction({ ignoreCase: flags.includes("i"), multiline: flags.includes("m"), dotAll: flags.includes("s") })
  if (pos !== source.length) refuse("this pattern")
  return { root, captureCount, names: [...names], unicode, unicodeSets }
}

/** Capturing groups and their names, in order: Annex B's decimal escapes depend on the total. */
const scanGroups = (source: string, unicodeSets: boolean): { captureCount: number; groupNames: Array<readonly [string, number]> } => {
  let count = 0
  const groupNames: Array<readonly [string, number]> = []
  let inClass = 0
  for (let i = 0; i < source.length; i++) {
    const c = source[i]
    if (c === "\\") i++
    else if (c === "[" && (inClass === 0 || unicodeSets)) inClass++
    else if (c === "]" && inClass > 0) inClass--
    else if (c === "(" && inClass === 0) {
      if (source[i + 1] !== "?") count++
      else if (source[i + 2] === "<" && source[i + 3] !== "=" && source[i + 3] !== "!") {
        count++
        const end = source.indexOf(">", i)
        const raw = source.slice(i + 3, end)
        groupNames.push([raw.replace(/\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g, (_, b: string | undefined, f: string | undefined) =>
          String.fromCodePoint(parseInt(b ?? f!, 16))), count])
      }
    }
  }
  return { captureCount: count, groupNames }
}
