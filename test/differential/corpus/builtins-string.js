// The String built-ins: constructor and statics, every String.prototype method, coercions of `this` and of
// arguments, unicode (surrogates, code points, normalization), replacement templates and the caps.

// === ctor-conversions
return [String(), String(1), String(null), String(undefined), String(true), String([1, [2, 3]]), String({}), String(-0), String(1e21), String(Symbol("s")), String(10n)]

// === ctor-new-wraps
const s = new String("ab")
return [typeof s, s.length, s[1], s instanceof String, Object.keys(s), s.valueOf(), s + "c", JSON.stringify(s), typeof String("x")]

// === ctor-new-symbol-throws
try {
  new String(Symbol("x"))
} catch (e) {
  return e.name
}

// === ctor-subclass
class Str extends String {
  shout() { return this.toUpperCase() + "!" }
}
const s = new Str("hi")
return [s.shout(), s.length, s instanceof String, String(s)]

// === ctor-tostring-order
const log = []
const o = { toString() { log.push("toString"); return "T" }, valueOf() { log.push("valueOf"); return "V" } }
return [String(o), `${o}`, o + "", log]

// === fromCharCode
return [String.fromCharCode(72, 105), String.fromCharCode(), String.fromCharCode(0x1F600).length, String.fromCharCode(65536 + 65), String.fromCharCode("66", 67.9), String.fromCharCode(-1).charCodeAt(0)]

// === fromCodePoint
return [String.fromCodePoint(0x1F600).length, String.fromCodePoint(97, 98), String.fromCodePoint(), String.fromCodePoint("65")]

// === fromCodePoint-invalid-throws
const out = []
for (const cp of [-1, 1.5, 0x110000, NaN, Infinity, "x"]) {
  try {
    String.fromCodePoint(cp)
  } catch (e) {
    out.push(e.name + ": " + e.message)
  }
}
return out

// === raw
return [String.raw`a\nb${1 + 1}c`, String.raw({ raw: ["x", "y", "z"] }, 1, 2, 3), String.raw({ raw: "abc" }, "-", "+"), String.raw({ raw: [] }), String.raw({ raw: { length: 1, 0: "only" } }, 9)]

// === raw-bad-template-throws
try {
  String.raw({})
} catch (e) {
  return e.name
}

// === at-charAt-charCodeAt-codePointAt
const s = "a😀b"
return [s.at(0), s.at(-1), String(s.at(9)), s.charAt(1).charCodeAt(0), s.charAt(9), String(s.charCodeAt(9)), s.charCodeAt(1), s.codePointAt(1), s.codePointAt(2), String(s.codePointAt(4)), s.charAt(), s.at("1").length]

// === concat
return ["a".concat("b", 1, null, undefined, [2, 3]), "".concat(), String.prototype.concat.call(1, 2)]

// === endsWith-startsWith
const s = "hello world"
return [s.startsWith("hello"), s.startsWith("world", 6), s.startsWith(""), s.startsWith("h", -5), s.startsWith("d", 99), s.endsWith("world"), s.endsWith("hello", 5), s.endsWith("o", -1), s.endsWith(""), s.endsWith("d", Infinity), "abc".startsWith(undefined), "undefined".startsWith()]

// === startsWith-regexp-throws
const out = []
for (const m of ["startsWith", "endsWith", "includes"]) {
  try {
    "abc"[m](/a/)
  } catch (e) {
    out.push(e.name + ": " + e.message)
  }
}
const re = /a/
re[Symbol.match] = false
out.push("/a/".startsWith(re))
return out

// === includes-indexOf-lastIndexOf
const s = "canal banana"
return [s.includes("nan"), s.includes("nan", 10), s.indexOf("an"), s.indexOf("an", 4), s.indexOf(""), s.indexOf("", 99), s.indexOf("x"), s.lastIndexOf("an"), s.lastIndexOf("an", 5), s.lastIndexOf("an", -5), s.lastIndexOf(""), s.lastIndexOf("a", NaN), s.indexOf("a", -3), "aaa".lastIndexOf("a", 0.5)]

// === isWellFormed-toWellFormed
const lone = "a\uD800b"
return [lone.isWellFormed(), "a😀".isWellFormed(), lone.toWellFormed().charCodeAt(1), "\uDC00x".toWellFormed().charCodeAt(0), "ok".toWellFormed()]

// === localeCompare
return ["a".localeCompare("b"), "b".localeCompare("a"), "a".localeCompare("a"), "a".localeCompare("B"), "résumé".localeCompare("resume"), ["ä", "a", "z"].sort((x, y) => x.localeCompare(y)), "10".localeCompare("9"), "10".localeCompare("9", undefined, { numeric: true }), "a".localeCompare("A", undefined, { sensitivity: "base" })]

// === match-string-and-regexp
return ["abc".match("b").index, "a.c".match(".")[0], "abcabc".match(/b/g), "x".match(/y/), "aBc".match(/b/i)[0], String("abc".match())]

// === match-result-shape
const m = "2024-05".match(/(\d+)-(\d+)/)
return [m.length, m[0], m[1], m[2], m.index, m.input, String(m.groups), Object.keys(m)]

// === matchAll
const s = "a1b2c3"
const all = [...s.matchAll(/[a-z](\d)/g)].map((m) => [m[0], m[1], m.index])
const str = [..."x.y.z".matchAll(".")].map((m) => m.index)
return [all, str]

// === matchAll-non-global-throws
try {
  "abc".matchAll(/b/)
} catch (e) {
  return [e.name, e.message]
}

// === normalize
const s = "\u0041\u030A"
return [s.normalize().length, s.normalize("NFD").length, "\u00C5".normalize("NFD").length, "ﬁ".normalize("NFKC"), "ﬁ".normalize("NFC"), s.normalize(undefined).length]

// === normalize-bad-form-throws
try {
  "a".normalize("nfc")
} catch (e) {
  return [e.name, e.message]
}

// === padStart-padEnd
return ["5".padStart(3, "0"), "abc".padStart(10, "123"), "abc".padStart(2), "abc".padStart(6), "abc".padEnd(6, "-="), "abc".padEnd(5, ""), "x".padEnd(3, undefined), "x".padStart(-1, "a"), "x".padStart("4", 12)]

// === repeat
return ["ab".repeat(3), "x".repeat(0), "".repeat(100), "a".repeat(2.9), "a".repeat("2"), "".repeat(2 ** 40)]

// === repeat-invalid-throws
const out = []
for (const n of [-1, Infinity, -Infinity]) {
  try {
    "a".repeat(n)
  } catch (e) {
    out.push(e.name + ": " + e.message)
  }
}
return out

// === repeat-too-long-throws
try {
  "abc".repeat(2 ** 29)
} catch (e) {
  return [e.name, e.message]
}

// === padStart-too-long-throws
try {
  "a".padStart(2 ** 30, "x")
} catch (e) {
  return e.name
}

// === replace-string-patterns
return [
  "aaa".replace("a", "b"),
  "abc".replace("", "_"),
  "abc".replace("x", "y"),
  "abc".replace("b", "[$&]"),
  "abc".replace("b", "[$`|$']"),
  "abc".replace("b", "$$"),
  "abc".replace("b", "$1"),
  "abc".replace("b", "$<n>"),
  "abc".replace("b", "$"),
  "abc".replace("c", "$'"),
]

// === replace-function
const calls = []
const r = "hello world".replace("o", (m, off, str) => { calls.push([m, off, str.length]); return m.toUpperCase() })
return [r, calls, "abc".replace("b", () => 42), "abc".replace("b", () => undefined)]

// === replace-regexp-templates
return [
  "john smith".replace(/(\w+)\s(\w+)/, "$2 $1"),
  "abc".replace(/(b)/, "$0$00$01$1$10$2$"),
  "abcdefghijkl".replace(/(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)/, "$11-$10-$1$12"),
  "2024-05-06".replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, "$<d>/$<m>/$<y>"),
  "abc".replace(/(?<x>b)/, "[$<x>][$<y>][$<x]"),
  "aaa".replace(/a/g, "$&$&"),
]

// === replace-regexp-function-args
const calls = []
"x1y22".replace(/(?<d>\d+)|(z)/g, (...args) => { calls.push(JSON.stringify(args.map((a) => (a === undefined ? "U" : a)))); return "" })
return calls

// === replaceAll
return [
  "a.b.c".replaceAll(".", "/"),
  "aaa".replaceAll("a", "$&$&"),
  "abc".replaceAll("", "-"),
  "aaaa".replaceAll("aa", "b"),
  "xyz".replaceAll("q", "r"),
  "a-b-c".replaceAll(/-/g, (m, i) => i),
  "abab".replaceAll("ab", (m, i, s) => `${i}/${s.length}`),
]

// === replaceAll-non-global-throws
try {
  "abc".replaceAll(/b/, "x")
} catch (e) {
  return [e.name, e.message]
}

// === search
return ["abc".search("c"), "abc".search(/[bc]/), "abc".search(/x/), "a.c".search("."), "abc".search(), "ABC".search(/b/i)]

// === search-preserves-lastIndex
const re = /b/g
re.lastIndex = 2
const r = "abcb".search(re)
return [r, re.lastIndex]

// === slice-substring-substr
const s = "hello"
return [s.slice(1, 3), s.slice(-3), s.slice(3, 1), s.slice(-10, 2), s.substring(1, 3), s.substring(3, 1), s.substring(-5, 2), s.substring(NaN, 2), s.substr(1, 3), s.substr(-3, 2), s.substr(2), s.substr(1, -1), s.slice(), s.substring(), s.substr(NaN, Infinity)]

// === split-string-separators
return ["a,b,,c".split(","), "abc".split(""), "abc".split(), "a b c".split(" ", 2), "".split(","), "".split(""), "abc".split("abc"), "a,b".split(",", 0), "a,b,c".split(",", -1), "😀x".split("").length, "a1b".split(1)]

// === split-regexp
return ["a1b22c333d".split(/\d+/), "a,b;c".split(/[,;]/), "abc".split(/(b)/), "abc".split(/(x)?b/).map(String), "test".split(/(?:)/), "a,b,c".split(/,/, 2), "".split(/x/), "".split(/(?:)/), "A<B>bold</B>and<CODE>coded</CODE>".split(/<(\/)?([^<>]+)>/).length]

// === split-unicode-regexp
return ["😀😁".split(/(?:)/u).length, "😀😁".split(/(?:)/).length, "a😀b".split(/(?:)/u)]

// === toLowerCase-toUpperCase
return ["HeLLo".toLowerCase(), "straße".toUpperCase(), "İ".toLowerCase().length, "ǅ".toLowerCase(), "ǅ".toUpperCase(), "ΑΣ".toLowerCase(), "ß".toLocaleUpperCase(), "I".toLocaleLowerCase("tr"), "i".toLocaleUpperCase("tr-TR"), "ABC".toLocaleLowerCase(["en-US"])]

// === toLocaleLowerCase-bad-locale-throws
try {
  "a".toLocaleLowerCase("not a locale!")
} catch (e) {
  return e.name
}

// === trim-family
const s = "\t\n\v\f\r \u00a0\ufeff\u2028\u2029\u3000x y\u1680 "
return [s.trim(), s.trimStart().length, s.trimEnd().length, "\u200bx".trim().length, String.prototype.trimLeft === String.prototype.trimStart, String.prototype.trimRight === String.prototype.trimEnd, String.prototype.trimLeft.name, String.prototype.trimRight.name]

// === toString-valueOf
const out = [new String("x").toString(), "y".valueOf(), String.prototype.toString.call(Object("z"))]
for (const v of [1, {}, null]) {
  try {
    String.prototype.toString.call(v)
  } catch (e) {
    out.push(e.name)
  }
}
try {
  String.prototype.valueOf.call({})
} catch (e) {
  out.push(e.message)
}
return out

// === iterator-by-code-point
const s = "a😀\uD800b"
const it = s[Symbol.iterator]()
const first = it.next()
return [[...s].length, [...s].map((c) => c.length), first, Object.prototype.toString.call(it), typeof it[Symbol.iterator]]

// === iterator-done-stays-done
const it = "a"[Symbol.iterator]()
return [it.next().value, it.next().done, it.next().done, String(it.next().value)]

// === for-of-string
const out = []
for (const ch of "hé😀") out.push(ch)
return out

// === this-coercion-number-boolean
return [String.prototype.toUpperCase.call(true), String.prototype.slice.call(12345, 1, 3), String.prototype.split.call(1.5, "."), String.prototype.padStart.call(7, 3, "0"), String.prototype.at.call(123, -1)]

// === this-null-undefined-throw
const out = []
for (const m of ["trim", "slice", "indexOf", "split", "replace", "at", "padStart", "toUpperCase", "concat", "match", "normalize"]) {
  try {
    String.prototype[m].call(undefined, "a")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === this-object-tostring-called
const o = { toString() { return "Obj" } }
return [String.prototype.toUpperCase.call(o), String.prototype.charAt.call(o, 1), String.prototype.concat.call(o, "!")]

// === argument-coercion-order
const log = []
const a = { toString() { log.push("search"); return "b" } }
const p = { valueOf() { log.push("pos"); return 1 } }
const r = "abc".indexOf(a, p)
const that = { toString() { log.push("this"); return "xbx" } }
const r2 = String.prototype.includes.call(that, a, p)
return [r, r2, log]

// === symbol-argument-throws
const out = []
for (const f of [() => "a".indexOf(Symbol()), () => "a".concat(Symbol()), () => "a".padEnd(3, Symbol()), () => `${Symbol()}`]) {
  try {
    f()
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === html-methods
return ["x".anchor('a"b'), "x".bold(), "x".link("u"), "x".fontsize(3), "x".sub(), "x".big(), "x".fontcolor("red"), "x".italics()]

// === length-is-code-units
return ["😀".length, "é".length, "e\u0301".length, "\u0000".length, "".length]

// === index-access-and-immutability
const s = "abc"
const r = [s[0], s["1"], String(s[3]), String(s[-1]), Object.getOwnPropertyNames(s)]
try {
  "use strict"
  const t = new String("abc")
  t[0] = "z"
  r.push(t[0])
} catch (e) {
  r.push(e.name)
}
return r

// === string-object-own-keys
const s = new String("ab")
s.extra = 1
return [Object.keys(s), Object.getOwnPropertyNames(s), 0 in s, 5 in s, Object.getOwnPropertyDescriptor(s, "0")]

// === property-lengths-and-names
const names = ["at", "concat", "endsWith", "includes", "indexOf", "lastIndexOf", "padEnd", "padStart", "replace", "replaceAll", "slice", "split", "startsWith", "substring", "substr", "normalize", "localeCompare", "match", "matchAll"]
return names.map((n) => `${String.prototype[n].name}/${String.prototype[n].length}`).concat([String.length, String.fromCharCode.length, String.raw.length, String.prototype[Symbol.iterator].name])

// === prototype-property-order
return Object.getOwnPropertyNames(String.prototype)

// === prototype-is-string-object
return [String.prototype.length, String.prototype.valueOf(), Object.prototype.toString.call(String.prototype), String.prototype + "x"]

// === template-literal-methods
const name = "World"
return `Hello, ${name.toUpperCase()}! ${[1, 2].map((x) => x * 2).join("+")} = ${2 + 4}`.split(" ")

// === common-text-processing
const text = "The quick brown fox. The lazy dog! Quick?"
const words = text.toLowerCase().match(/[a-z]+/g)
const freq = {}
for (const w of words) freq[w] = (freq[w] || 0) + 1
const title = text.split(" ").map((w) => w[0].toUpperCase() + w.slice(1)).join(" ")
return [freq, title, text.replace(/\s+/g, " ").length, text.split(/[.!?]\s*/).filter(Boolean)]

// === csv-parsing
const csv = "name,age\nalice,30\nbob,25\n"
const [header, ...rows] = csv.trim().split("\n")
const keys = header.split(",")
return rows.map((r) => Object.fromEntries(r.split(",").map((v, i) => [keys[i], isNaN(v) ? v : Number(v)])))

// === string-comparison-and-sorting
return [["b", "B", "a", "10", "9", "_"].sort(), "a" < "b", "B" < "a", "10" < "9", "abc" < "abd", "" < "a"]

// === unicode-escapes-and-surrogates
const s = "\u{1F600}"
return [s.length, s.charCodeAt(0).toString(16), s.charCodeAt(1).toString(16), s.codePointAt(0).toString(16), s === "\uD83D\uDE00", [...s].length, s.split("").length]

// === replace-with-special-dollar-in-function-result
return "abc".replace("b", () => "$&")

// === replace-callable-object-searchValue
const searcher = { [Symbol.replace](s, r) { return `custom:${s}:${r}` } }
const splitter = { [Symbol.split](s, lim) { return [s, String(lim)] } }
const matcher = { [Symbol.match](s) { return ["m:" + s] } }
const finder = { [Symbol.search](s) { return 42 } }
return ["abc".replace(searcher, "x"), "abc".split(splitter), "abc".match(matcher), "abc".search(finder)]

// === split-limit-coercion
return ["a,b,c".split(",", "2"), "a,b,c".split(",", 2 ** 32 + 1), "a,b,c".split(",", null), "a,b,c".split(",", undefined)]

// === localeCompare-coerces-argument
return ["undefined".localeCompare(), "null".localeCompare(null), "1".localeCompare(1)]

// === long-string-building
let s = ""
for (let i = 0; i < 1000; i++) s += String.fromCharCode(97 + (i % 26))
return [s.length, s.slice(0, 30), s.split("a").length, s.lastIndexOf("z"), s.replaceAll("abc", "").length]

// === at-on-surrogate-pair
const s = "😀"
return [s.at(0).charCodeAt(0), s.at(-1).charCodeAt(0), s.at(0) + s.at(1) === s]

// === trim-does-not-remove-zero-width
return ["\u200b a \u200b".trim().length, "\u180ex\u180e".trim().length]

// === number-formatting-via-string-methods
const n = 1234567.891
const [int, frac] = n.toFixed(2).split(".")
return int.replace(/\B(?=(\d{3})+(?!\d))/g, ",") + "." + frac

// === padStart-for-table
const rows = [["a", 1], ["bbb", 22], ["cc", 333]]
return rows.map(([k, v]) => k.padEnd(5, ".") + String(v).padStart(4))

// === string-iterator-prototype-chain
const it = ""[Symbol.iterator]()
const proto = Object.getPrototypeOf(it)
return [Object.getOwnPropertyNames(proto), proto[Symbol.toStringTag], typeof Object.getPrototypeOf(proto)[Symbol.iterator]]

// === string-iterator-next-wrong-this-throws
const next = ""[Symbol.iterator]().next
try {
  next.call([].values())
} catch (e) {
  return e.name
}

// === split-regexp-captures-undefined
return "A<B>bold</B>and<CODE>coded</CODE>".split(/<(\/)?([^<>]+)>/).map((x) => (x === undefined ? "U" : x))

// === codePointAt-lone-surrogates
const s = "\uD800\uDC00\uDC00\uD800"
return [s.codePointAt(0), s.codePointAt(1), s.codePointAt(2), s.codePointAt(3), [...s].length]

// === includes-with-position-coercion
return ["abc".includes("a", "1"), "abc".includes("c", -Infinity), "abc".includes("", 100), "abc".includes()]

// === substring-with-objects
const start = { valueOf() { return 1 } }
const end = { toString() { return "3" } }
return ["abcdef".substring(start, end), "abcdef".slice(start, end), "abcdef".substr(start, end)]

// === raw-with-getter-and-substitution-coercion
const raw = { length: 3, 0: "a", 1: "b", get 2() { return "c" } }
return String.raw({ raw }, { toString() { return "1" } }, 2, 3)

// === patched-string-iterator-used-by-from-and-spread
const original = String.prototype[Symbol.iterator]
String.prototype[Symbol.iterator] = function* () { yield "patched" }
try {
  return [Array.from("ab"), [..."cd"]]
} finally {
  String.prototype[Symbol.iterator] = original
}

// === replace-string-searchValue-with-symbol-replace-on-prototype
String.prototype[Symbol.replace] = function () { return "hijacked" }
try {
  return ["abc".replace("b", "x"), "abc".replaceAll("b", "x")]
} finally {
  delete String.prototype[Symbol.replace]
}
