/**
 * The interruptible matcher (src/intrinsics/regexp-matcher) against V8: every pattern × input is matched by both,
 * as a global scan from lastIndex 0 and as a sticky match at every lastIndex, and the match arrays (index,
 * captures, groups, indices) must be identical. Patterns are a hand-written list of the constructs and their
 * corner cases, plus a few hundred generated from a small grammar with a fixed seed.
 */
import { runInNewContext } from "node:vm"
import { describe, expect, it } from "vitest"
import { InterruptibleRegExp } from "../../src/intrinsics/regexp-matcher/index.ts"

/** V8's RegExp from a fresh context: the oracle. */
const V8RegExp = runInNewContext("RegExp") as RegExpConstructor

interface Execer {
  lastIndex: number
  exec(S: string): RegExpExecArray | null
}

const describeMatch = (m: RegExpExecArray | null): unknown =>
  m === null ? null : { index: m.index, captures: [...m], groups: m.groups === undefined ? undefined : { ...m.groups }, indices: m.indices === undefined ? undefined : { pairs: [...m.indices], groups: m.indices.groups === undefined ? undefined : { ...m.indices.groups } } }

/** Every match of a global scan, then one search and one sticky attempt from each lastIndex. */
const transcript = (make: (flags: string) => Execer, flags: string, input: string): unknown[] => {
  const out: unknown[] = []
  const scan = make(flags.replace("y", "") + (flags.includes("g") ? "" : "g"))
  scan.lastIndex = 0
  for (let k = 0; k <= input.length + 1; k++) {
    const m = scan.exec(input)
    out.push(describeMatch(m), scan.lastIndex)
    if (m === null) break
    if (m[0] === "") scan.lastIndex++
  }
  for (let i = 1; i <= input.length; i++) {
    scan.lastIndex = i
    out.push(describeMatch(scan.exec(input)), scan.lastIndex)
  }
  const sticky = make(flags.replace("g", "") + (flags.includes("y") ? "" : "y"))
  for (let i = 0; i <= input.length; i++) {
    sticky.lastIndex = i
    out.push(describeMatch(sticky.exec(input)), sticky.lastIndex)
  }
  return out
}

const agree = (source: string, flags: string, input: string): void => {
  const ours = transcript((f) => new InterruptibleRegExp(source, f), flags, input)
  const v8 = transcript((f) => new V8RegExp(source, f), flags, input)
  expect(ours, `/${source}/${flags} on ${JSON.stringify(input)}`).toEqual(v8)
}

/** [source, flags, inputs] */
const HANDWRITTEN: ReadonlyArray<readonly [string, string, ReadonlyArray<string>]> = [
  // Backreferences, numbered and named, forward and inside lookbehind.
  ["(a)\\1", "", ["aa", "xaab", "a"]],
  ["(a+)\\1", "", ["aaaaa", "aaa", "b"]],
  ["(a)?\\1b", "", ["b", "aab", "ab"]],
  ["\\1(a)", "", ["aa", "a"]],
  ["(a\\1)", "", ["aa", "a"]],
  ["(?:(a)|b)\\1", "", ["aa", "bb", "b", "ba"]],
  ["(?<x>a|b)\\k<x>", "", ["abba", "aa", "ab"]],
  ["(?<x>a)|(?<x>b)", "", ["a", "b", "c"]],
  ["(?:(?<x>a)|(?<x>b))\\k<x>", "", ["aa", "bb", "ab"]],
  ["(a)|b\\1", "", ["b", "ab"]],
  ["(?<=\\1(a))b", "", ["aab", "ab"]],
  ["(?<=(a)\\1)b", "", ["aab", "ab"]],
  ["(\\w)\\1+", "i", ["aAa", "Bbb", "abc", "ſS"]],
  ["(.)\\1", "iu", ["ſS", "Kk", "\u212Ak", "ǅǆ", "xX"]],
  ["(.)\\1", "i", ["ſS", "\u212Ak", "ß\u1E9E", "Σς"]],
  ["^(a+)+\\1?$", "", ["aaaa", "aaab", ""]],
  ["(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10", "", ["abcdefghijj", "abcdefghija0"]],
  ["(a)\\10", "", ["a\u0008", "a10"]],
  ["(a)\\2", "", ["a\u0002", "a2"]],
  ["\\8\\9", "", ["89"]],
  ["\\0\\01\\012\\0123\\377\\400", "", ["\u0000\u0001\n\n3\u00ff 0"]],
  ["\\k", "", ["k"]],
  ["\\k<a>(?<a>x)", "", ["x", "k<a>x"]],
  // Lookarounds.
  ["(?=(a+))a*b\\1", "", ["baaabac", "aab"]],
  ["(?=(a+))", "", ["baaabac"]],
  ["(?!(a))\\w", "", ["ab", "ba"]],
  ["(.)(?!\\1)", "", ["aabbc", "aa"]],
  ["(?<=a)b", "", ["ab", "cb", "abab"]],
  ["(?<!a)b", "", ["ab", "cb", "bb"]],
  ["(?<=(\\d+)(\\d+))$", "", ["1053"]],
  ["(?<=(\\d+?)(\\d+?))$", "", ["1053"]],
  ["(?<=^|,)\\w+", "", ["a,bb,,c"]],
  ["(?<=(?<!b)a)c", "", ["bac", "aac", "ac"]],
  ["(?<=a(?=b)b)c", "", ["abc", "ac"]],
  ["(?<=\\b)x", "", ["a x", "ax"]],
  ["(?<=([ab])+)c", "", ["abac"]],
  ["(?<=(a|ab))c", "", ["abc", "ac"]],
  ["(?=a)*b", "", ["ab", "b"]],
  ["(?=a){2}a", "", ["a", "b"]],
  ["(?!a)?b", "", ["b"]],
  ["^(?=.*\\d)(?=.*[a-z]).{4,}$", "", ["abc1", "abcd", "12345a"]],
  ["(?<!\\d)\\d{2}(?!\\d)", "", ["1 22 333 44"]],
  ["(?<=\\$)\\d+(\\.\\d*)?", "", ["cost $10.50 or $3"]],
  // Quantifiers: greedy, lazy, counted, empty checks, capture resets.
  ["(a*)+", "", ["b", "aa"]],
  ["(a*)*", "", ["b", "aa"]],
  ["(a*?)+?b", "", ["aab"]],
  ["(a|b)*?c", "", ["ababc"]],
  ["(z)((a+)?(b+)?(c))*", "", ["zaacbbbcac"]],
  ["(a)|\\1b", "", ["b"]],
  ["(?:a|())*", "", ["aa"]],
  ["(?:()|a)*", "", ["aa"]],
  ["(a?)*?b", "", ["ab"]],
  ["((a)|b)+", "", ["ab", "ba"]],
  ["(?:(a)|(b))+", "", ["ab", "ba", "aba"]],
  ["a{2,3}", "", ["aaaaaaa"]],
  ["a{2,3}?", "", ["aaaaaaa"]],
  ["a{2}", "", ["aaaaa"]],
  ["a{2,}", "", ["aaaaa", "a"]],
  ["(?:a{0,2}){3}b", "", ["aaaab"]],
  ["(?:(a)|b){2,4}", "", ["abab", "bbba"]],
  ["(a{0,20}b{0,20}){2}", "", ["aabbaab"]],
  ["a{,5}", "", ["a{,5}"]],
  ["a{1", "", ["a{1"]],
  ["x{1}{", "", ["x{"]],
  ["]", "", ["]"]],
  ["}", "", ["}"]],
  ["(?:)", "", ["", "a"]],
  ["|a", "", ["a"]],
  ["a|", "", ["a", "b"]],
  ["(|a)+", "", ["a"]],
  // Alternation order and backtracking into groups.
  ["(a|ab)(c|bcd)(d*)", "", ["abcd"]],
  ["((a)|(ab))((c)|(bc))", "", ["abc"]],
  ["(?:a|ab)(?:c|bcd)", "", ["abcd"]],
  // Anchors, multiline, word boundaries, dot.
  ["^a", "m", ["a\na\r\na\u2028a"]],
  ["a$", "m", ["a\na\r\na\u2029"]],
  ["^$", "m", ["\n\n", ""]],
  ["\\bfoo\\b", "i", ["FOO foo xfoo foo_"]],
  ["\\B\\w", "", ["ab cd"]],
  ["\\b", "iu", ["ſ a \u212A"]],
  ["\\w+", "iu", ["ſK\u212A x"]],
  ["\\W", "iu", ["ſ!\u212A"]],
  [".+", "", ["a\nb\u2028c\rd"]],
  [".+", "s", ["a\nb\u2028c\rd"]],
  ["(?s:.)+(?m:^)", "", ["a\nb"]],
  // Case-insensitive, classes and escapes.
  ["[a-z]+", "i", ["ABC déf ſ \u212A"]],
  ["[a-z]+", "iu", ["ABC déf ſ \u212A"]],
  ["[^a-z]+", "i", ["abcDEF123"]],
  ["\\u00e5", "i", ["\u00c5 \u212B"]],
  ["\\u00e5", "iu", ["\u00c5 \u212B"]],
  ["σ", "i", ["Σς"]],
  ["[\\d-z]+", "", ["12-z"]],
  ["[\\b]", "", ["\b"]],
  ["[\\cA\\c_\\c1]", "", ["\u0001\u001f\u0011"]],
  ["\\c", "", ["\\c"]],
  ["\\c1", "", ["\\c1"]],
  ["\\cJ", "", ["\n"]],
  ["\\x4", "", ["x4"]],
  ["\\u12", "", ["u12"]],
  ["[\\x41-\\x43]+", "", ["ABCD"]],
  ["\\s+\\S", "", [" \t\u00a0\ufeffx"]],
  ["\\d\\D", "", ["1a2 "]],
  ["[[]", "", ["["]],
  ["[]a]", "", ["]a"]],
  ["[^]a", "", ["\na"]],
  ["[]", "", ["a"]],
  ["(?i:a)b", "", ["Ab AB"]],
  ["(?-i:a)b", "i", ["aB AB"]],
  ["(?i:[a-c]\\w)", "", ["BX"]],
  // V8 under v: a class is case-folded by the flags of the group opened last before it.
  ["(?i:a)[b]", "v", ["aB", "ab"]],
  ["(?i:a)x|\\P{Ll}", "v", ["É", "e"]],
  ["(?i:a)x|(?:[a])", "v", ["A", "a"]],
  ["(?i:(?-i:a))x|[a]", "v", ["A", "a"]],
  ["(?i:a)\\W", "v", ["aſ", "a!"]],
  ["(?-i:a)\\w", "iv", ["aſ"]],
  ["(?-i:a)x|\\W", "iv", ["s", "k", "a", "ſ", "!"]],
  ["(?i:a)x|\\w", "v", ["ſ", "a"]],
  ["(?i:a)x|[\\w]", "v", ["ſ", "!"]],
  ["(?-i:a)x|[^\\W]", "iv", ["ſ", "a"]],
  ["(?-i:a)x|\\p{Lu}", "iv", ["é", "É"]],
  // Unicode mode.
  ["\\u{1F600}.", "u", ["x😀😀y"]],
  [".", "u", ["😀a\ud800\udc00\ud800"]],
  [".", "", ["😀"]],
  ["[😀-😂]", "u", ["😁x"]],
  ["\\p{L}+", "u", ["héllo wörld 1"]],
  ["\\P{L}+", "u", ["héllo wörld 1"]],
  ["\\p{Script=Greek}+", "u", ["abc αβγ"]],
  ["\\p{Lu}", "iu", ["aB"]],
  ["(?<=😀)a", "u", ["😀a"]],
  ["(?<=.)a", "u", ["😀a"]],
  ["(?<=.)a", "", ["😀a"]],
  ["^.$", "u", ["😀", "\ud800"]],
  ["\\ud83d\\ude00", "u", ["😀"]],
  ["\\ud83d", "u", ["😀\ud83d"]],
  ["(.)\\1", "u", ["😀😀"]],
  // V8 also tries a search between the halves of a pair, where only an empty match can start.
  ["(?!😀)", "u", ["😀x", "x😀", "😀"]],
  ["(?!\\u{1F600})x*", "u", ["😀😁a"]],
  ["(?=\\ude00)|(?<=\\ud83d)", "u", ["😀"]],
  ["[\\p{L}--[a-z]]+", "v", ["abcDEF"]],
  ["[\\w&&[a-c]]+", "v", ["abcd"]],
  ["[[a-z]--[aeiou]]+", "vi", ["bcdAE"]],
  ["\\p{Emoji}", "v", ["a😀"]],
  // Classes of strings (v flag): longest string first, shorter ones on backtracking.
  ["[\\q{abc|ab}]c", "v", ["abc", "abcc"]],
  ["[\\q{abc|ab|a}]+c", "v", ["abababc", "aac"]],
  ["^[\\q{ab|a}]b$", "v", ["ab", "abb"]],
  ["\\p{RGI_Emoji}+", "v", ["hi 👩🏻‍❤️‍💋‍👨🏼 🏴󠁧󠁢󠁥󠁮󠁧󠁿 x 1️⃣ 😀😁"]],
  ["[\\p{RGI_Emoji}--\\q{😀}]", "v", ["😀😁"]],
  ["(?<=[\\q{ab|b}])c", "v", ["abc", "bc", "c"]],
  ["(?<=^[\\q{ab|a}]b)c", "v", ["abc", "abbc"]],
  ["[\\q{}a]*b", "v", ["aab", "b"]],
  ["[\\q{AB|c}]", "vi", ["ab C"]],
  ["([\\q{ab|a}])\\1", "v", ["aba", "abab", "aa"]],
  // Indices, sticky.
  ["(?<first>a)(b)?", "d", ["ab", "a"]],
  ["(?<=(?<x>a))b", "d", ["ab"]],
  ["a", "y", ["baa"]],
  ["(a)\\1", "y", ["aaaa"]],
  // Where a search may start: anchors and the first characters of alternatives.
  ["^a|^b", "i", ["ab", "ba", "ca"]],
  ["(?:^|,)x", "i", ["x,x", "ax,x"]],
  ["^x", "mi", ["a\nx\nX"]],
  ["error|warn(ing)?", "i", ["no ERROR, a Warning", "none"]],
  ["(?:a|b)c|d", "i", ["xbcxd", "ac"]],
  // Generic realistic patterns that carry a flag the linear engine refuses.
  ["^[\\w.+-]+@[\\w-]+\\.[\\w.]+$", "i", ["Jo.e@Example.com", "bad@"]],
  ["(\\d{4})-(\\d{2})-(\\d{2})", "d", ["on 2024-01-31 and 1999-12-01"]],
  ["<(\\w+)>.*?</\\1>", "", ["<a>x</a><b>y</c>"]],
  ["(['\"])(.*?)\\1", "", ["say 'hi' and \"bye\""]],
  ["\\b(\\w+)\\s+\\1\\b", "i", ["the The cat cat"]],
]

interface Alphabet {
  readonly atoms: ReadonlyArray<string>
  readonly flags: ReadonlyArray<string>
  /** What may follow `(?`. */
  readonly groups: ReadonlyArray<string>
}

const ASCII: Alphabet = {
  atoms: ["a", "b", "A", ".", "\\w", "\\d", "[ab]", "[^a]", "\\s", "ſ", "[a-c]"],
  flags: ["", "", "i", "m", "s", "u", "iu", "d", "g", "y"],
  groups: ["=", "!", "<=", "<!", "i:", "-i:", "m:", "s:"],
}

/** Case folding corners (long s, Kelvin sign, final sigma), surrogates and property escapes. */
const UNICODE: Alphabet = {
  atoms: ["ſ", "s", "K", "\\u212A", "σ", "Σ", "é", "😀", ".", "\\w", "\\W", "[😀-😂]", "\\p{L}", "\\P{Ll}", "[^\\p{Lu}]", "[a-zé]", "\\u{1F600}", "\\ud83d", "[\\w--s]", "[\\p{L}&&\\p{Lu}]"],
  flags: ["iu", "u", "v", "iv", "i", "", "iuy", "ivd"],
  // Not `(?i:`: in one process V8 was seen to answer /(?i:K)/u differently (not matching "k") after compiling
  // many other patterns, so it cannot be the oracle there; the hand-written list covers modifiers.
  groups: ["=", "!", "<=", "<!", "m:", "s:"],
}

/** A seeded generator of small patterns over the constructs the matcher implements. */
const generated = (count: number, seed: number, alphabet: Alphabet): Array<readonly [string, string]> => {
  // mulberry32
  let state = seed
  const rand = (n: number): number => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n)
  }
  const pick = <T>(xs: ReadonlyArray<T>): T => xs[rand(xs.length)]!
  const atoms = alphabet.atoms
  const quantifiers = ["", "", "", "*", "+", "?", "*?", "+?", "??", "{1,2}", "{2}", "{0,2}?"]
  let groups = 0
  const term = (depth: number): string => {
    const r = rand(12)
    if (depth > 0 && r < 3) return `(${alt(depth - 1)})${pick(quantifiers)}`.replace(/^\(/, () => (++groups, "("))
    if (depth > 0 && r === 3) return `(?:${alt(depth - 1)})${pick(quantifiers)}`
    if (depth > 0 && r === 4) return `(?${pick(alphabet.groups)}${alt(depth - 1)})`
    if (r === 5 && groups > 0) return `\\${1 + rand(groups)}`
    if (r === 6) return pick(["^", "$", "\\b", "\\B"])
    return pick(atoms) + pick(quantifiers)
  }
  const seq = (depth: number): string => {
    let s = ""
    for (let n = 1 + rand(3); n > 0; n--) s += term(depth)
    return s
  }
  const alt = (depth: number): string => (rand(4) === 0 ? `${seq(depth)}|${seq(depth)}` : seq(depth))
  const out: Array<readonly [string, string]> = []
  while (out.length < count) {
    groups = 0
    const source = alt(2)
    const flags = pick(alphabet.flags)
    try {
      new V8RegExp(source, flags)
    } catch {
      continue
    }
    out.push([source, flags]); if (process.env.H16R_SHOW) console.log("GEN", JSON.stringify(flags), source)
  }
  return out
}

const UNICODE_INPUTS = ["", "ſSs", "Kk\u212A", "σΣς", "éÉe", "😀😁a", "\ud83d", "\ude00\ud83d😀", "aé😀Σ", "ssſſKK"]

const INPUTS = ["", "a", "ab", "aab", "ba", "abab", "aAbB", "a1 b_", "bbb", "a\nb", "ſs", "ab12ba", "aaaa"]

describe("the interruptible matcher matches exactly as V8 does", () => {
  it.each(HANDWRITTEN)("/%s/%s", (source, flags, inputs) => {
    for (const input of inputs) agree(source, flags, input)
  })

  it("on 400 generated patterns × 13 inputs", () => {
    for (const [source, flags] of generated(400, 16, ASCII)) for (const input of INPUTS) agree(source, flags, input)
  })

  it("on 300 generated Unicode and case-insensitive patterns × 10 inputs", () => {
    for (const [source, flags] of generated(300, 7, UNICODE)) for (const input of UNICODE_INPUTS) agree(source, flags, input)
  })
})
