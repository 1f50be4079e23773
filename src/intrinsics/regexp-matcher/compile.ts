/**
 * Compiles a parsed pattern into code for the backtracking machine in exec.ts. Each construct follows its
 * CompileSubpattern / CompileAtom rule (https://tc39.es/ecma262/#sec-compilesubpattern) with the `direction`
 * parameter: inside a lookbehind the items of a sequence are matched right to left, characters are read before
 * the position, and a group records its end before its start.
 *
 * Machine memory ("slots"): two per capture (start, end; -1 when unset), then registers of the quantifiers,
 * groups and lookarounds. Every write is undone on backtracking (exec.ts keeps a trail).
 */
import { atomTest, type CharTest, StringsTest, wordCharTest } from "./charset.ts"
import type { Node, Pattern } from "./parse.ts"

export const Op = {
  /** dir, code: one character equal to code. */
  Char: 0,
  /** dir, test: one character the test accepts. */
  Test: 1,
  /** dir, test, min, max: a greedy loop over one single-character atom, kept as one choice point. */
  Star: 2,
  /** multiline */
  LineStart: 3,
  /** multiline */
  LineEnd: 4,
  /** negated, test */
  WordBoundary: 5,
  /** target */
  Jump: 6,
  /** target: try the next instruction, and the target on backtracking. */
  Split: 7,
  /** slot: slot = position */
  SetPosition: 8,
  /** slot */
  SetZero: 9,
  /** from, to: clear the captures from..to (slots) */
  Reset: 10,
  /** dir, capture, slot: the group's other end is in slot */
  Capture: 11,
  /** counter, min, max, greedy, exit */
  Repeat: 12,
  /** counter, start, min, loop */
  RepeatEnd: 13,
  /** dir, ignoreCase, n, capture × n */
  Backref: 14,
  /** negative, slot, end */
  Look: 15,
  /** negative, slot */
  LookEnd: 16,
  Match: 17,
  /** dir, strings, maxLength: a class of strings, longest match first */
  Strings: 18,
  /** dir, test, min, max: a lazy loop over one single-character atom, kept as one choice point. */
  LazyStar: 19,
} as const

export interface Program {
  readonly code: ReadonlyArray<number>
  readonly tests: ReadonlyArray<CharTest>
  readonly strings: ReadonlyArray<StringsTest>
  readonly slots: number
  readonly captureCount: number
  readonly unicode: boolean
  readonly unicodeSets: boolean
  /** A code unit every match starts with, to find candidate positions with indexOf. */
  readonly firstChar: string | undefined
  /** Otherwise a test every match's first character passes, to skip positions without starting the machine. */
  readonly firstTest: CharTest | undefined
  /** Every match starts at the input's start (`^` without `m`): a search tries one position. */
  readonly anchored: boolean
}

export const compile = (pattern: Pattern): Program => {
  const code: number[] = []
  const tests: CharTest[] = []
  const strings: StringsTest[] = []
  let slots = 2 * (pattern.captureCount + 1)
  const register = (): number => slots++
  const testIndex = (t: CharTest): number => {
    let k = tests.indexOf(t)
    if (k < 0) k = tests.push(t) - 1
    return k
  }
  const { unicode, unicodeSets } = pattern

  const emit = (node: Node, dir: 1 | -1): void => {
    switch (node.type) {
      case "empty":
        return
      case "atom":
        if (node.atom.kind === "char") code.push(Op.Char, dir, node.atom.code)
        else if (node.atom.kind === "strings") {
          code.push(Op.Strings, dir, strings.push(new StringsTest(node.atom.source, node.atom.ignoreCase)) - 1, node.atom.maxLength)
        }
        else code.push(Op.Test, dir, testIndex(atomTest(node.atom, unicode, unicodeSets)))
        return
      case "seq":
        if (dir === 1) for (const item of node.items) emit(item, dir)
        else for (let k = node.items.length - 1; k >= 0; k--) emit(node.items[k]!, dir)
        return
      case "alt": {
        const single = singleCharacter(node)
        if (single !== undefined) {
          code.push(Op.Test, dir, testIndex(single))
          return
        }
        const jumps: number[] = []
        node.alts.forEach((alt, k) => {
          const last = k === node.alts.length - 1
          const split = code.length
          if (!last) code.push(Op.Split, 0)
          emit(alt, dir)
          if (!last) {
            code.push(Op.Jump, 0)
            jumps.push(code.length - 1)
            code[split + 1] = code.length
          }
        })
        for (const j of jumps) code[j] = code.length
        return
      }
      case "group": {
        const other = register()
        code.push(Op.SetPosition, other)
        emit(node.body, dir)
        code.push(Op.Capture, dir, node.index, other)
        return
      }
      case "repeat":
        return emitRepeat(node, dir)
      case "look": {
        const slot = register()
        const look = code.length
        code.push(Op.Look, node.negative ? 1 : 0, slot, 0)
        emit(node.body, node.behind ? -1 : 1)
        code.push(Op.LookEnd, node.negative ? 1 : 0, slot)
        code[look + 3] = code.length
        return
      }
      case "backref":
        code.push(Op.Backref, dir, node.ignoreCase ? 1 : 0, node.indices.length, ...node.indices)
        return
      case "lineStart":
        code.push(Op.LineStart, node.multiline ? 1 : 0)
        return
      case "lineEnd":
        code.push(Op.LineEnd, node.multiline ? 1 : 0)
        return
      case "wordBoundary":
        code.push(Op.WordBoundary, node.negated ? 1 : 0, testIndex(wordCharTest(node.ignoreCase, unicodeSets)))
        return
    }
  }

  // RepeatMatcher (https://tc39.es/ecma262/#sec-runtime-semantics-repeatmatcher-abstract-operation).
  const emitRepeat = (node: Extract<Node, { type: "repeat" }>, dir: 1 | -1): void => {
    if (node.max === 0) return
    const body = node.body
    const single = singleCharacter(body)
    if (single !== undefined) {
      // One character per iteration: no captures to reset and no empty iteration, so the loop needs no counter.
      code.push(node.greedy ? Op.Star : Op.LazyStar, dir, testIndex(single), node.min, node.max)
      return
    }
    const counter = register()
    const start = register()
    code.push(Op.SetZero, counter)
    const loop = code.length
    code.push(Op.Repeat, counter, node.min, node.max, node.greedy ? 1 : 0, 0)
    code.push(Op.SetPosition, start)
    if (node.lastCapture >= node.firstCapture) code.push(Op.Reset, 2 * node.firstCapture, 2 * node.lastCapture + 2)
    emit(body, dir)
    code.push(Op.RepeatEnd, counter, start, node.min, loop)
    code[loop + 5] = code.length
  }

  /**
   * The test of a node that always matches exactly one character: an atom, or an alternation of such atoms
   * (`(?:a|b)`), whose order cannot matter since every alternative ends at the same place.
   */
  const singleCharacter = (node: Node): CharTest | undefined => {
    if (node.type === "atom") {
      if (node.atom.kind === "strings") return undefined
      return node.atom.kind === "char" ? charTest(node.atom.code) : atomTest(node.atom, unicode, unicodeSets)
    }
    if (node.type !== "alt") return undefined
    const parts: CharTest[] = []
    for (const alt of node.alts) {
      const part = singleCharacter(alt)
      if (part === undefined) return undefined
      parts.push(part)
    }
    return union(parts)
  }

  const charTests = new Map<number, CharTest>()
  const charTest = (c: number): CharTest => {
    let t = charTests.get(c)
    if (t === undefined) charTests.set(c, (t = (x) => x === c))
    return t
  }

  emit(pattern.root, 1)
  code.push(Op.Match)
  const first = firstAtom(pattern.root)?.atom
  const firstIsUnit = first?.kind === "char" && first.code <= 0xffff && !(first.code >= 0xd800 && first.code <= 0xdfff)
  /** A test every match's first character passes (a union over alternatives), or undefined. */
  const leadingTest = (node: Node): CharTest | undefined => {
    switch (node.type) {
      case "atom":
        return singleCharacter(node)
      case "seq":
        return node.items.length > 0 ? leadingTest(node.items[0]!) : undefined
      case "group":
        return leadingTest(node.body)
      case "repeat":
        return node.min > 0 ? leadingTest(node.body) : undefined
      case "alt": {
        const parts = node.alts.map(leadingTest)
        return parts.every((part) => part !== undefined) ? union(parts) : undefined
      }
      default:
        return undefined
    }
  }
  return {
    code,
    tests,
    strings,
    slots,
    captureCount: pattern.captureCount,
    unicode,
    unicodeSets,
    firstChar: firstIsUnit ? String.fromCharCode(first.code) : undefined,
    firstTest: firstIsUnit ? undefined : leadingTest(pattern.root),
    anchored: anchored(pattern.root),
  }
}

/** The atom every match starts with (forward), if the pattern has one. */
const firstAtom = (node: Node): Extract<Node, { type: "atom" }> | undefined => {
  switch (node.type) {
    case "atom":
      return node.atom.kind === "strings" ? undefined : node
    case "seq":
      return node.items.length > 0 ? firstAtom(node.items[0]!) : undefined
    case "group":
      return firstAtom(node.body)
    case "repeat":
      return node.min > 0 ? firstAtom(node.body) : undefined
    default:
      return undefined
  }
}

const anchored = (node: Node): boolean => {
  switch (node.type) {
    case "lineStart":
      return !node.multiline
    case "seq":
      return node.items.length > 0 && anchored(node.items[0]!)
    case "group":
      return anchored(node.body)
    case "alt":
      return node.alts.every(anchored)
    default:
      return false
  }
}

const union = (parts: ReadonlyArray<CharTest>): CharTest => {
  if (parts.length === 1) return parts[0]!
  if (parts.length === 2) {
    const [a, b] = parts as [CharTest, CharTest]
    return (c) => a(c) || b(c)
  }
  return (c) => parts.some((part) => part(c))
}
