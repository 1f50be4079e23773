// The RegExp built-ins: constructor forms, flags and their accessors, exec/test/toString, lastIndex with g and y,
// named groups, match indices (d), the Symbol.match/matchAll/replace/search/split protocol (and subclasses that
// override exec), RegExp.escape, syntax errors.

// === ctor-forms
const re = /ab/gi
return [String(new RegExp("a+b", "g")), String(RegExp("x")), String(new RegExp(re)), String(new RegExp(re, "m")), RegExp(re) === re, new RegExp(re) === re, String(new RegExp()), String(new RegExp(undefined, "g")), String(new RegExp("/"))]

// === ctor-from-regexp-like
const like = { [Symbol.match]: true, source: "q+", flags: "i" }
const r = new RegExp(like)
const same = { [Symbol.match]: true, constructor: RegExp }
return [String(r), RegExp(same) === same, String(new RegExp(like, "g"))]

// === ctor-bad-pattern-throws
const out = []
for (const p of ["(", "[", "a**", "(?<n>a)(?<n>b)", "\\", "x{2,1}"]) {
  try {
    new RegExp(p)
    out.push("ok")
  } catch (e) {
    out.push(e.name + ": " + e.message)
  }
}
return out

// === ctor-bad-flags-throws
const out = []
for (const f of ["gg", "x", "uv", "G"]) {
  try {
    new RegExp("a", f)
  } catch (e) {
    out.push(e.name + ": " + e.message)
  }
}
return out

// === ctor-coerces-pattern-and-flags
return [String(new RegExp(1)), String(new RegExp(null)), String(new RegExp({ toString() { return "z" } }, { toString() { return "y" } })), new RegExp(["a", "b"]).source]

// === flags-accessors
const re = /x/dgimsuy
const v = /x/v
return [re.flags, re.global, re.ignoreCase, re.multiline, re.dotAll, re.unicode, re.sticky, re.hasIndices, re.unicodeSets, v.unicodeSets, v.unicode, v.flags, /x/.flags]

// === flags-canonical-order
return [new RegExp("a", "yusmigd").flags, String(new RegExp("a", "ysg"))]

// === prototype-accessors-on-prototype
return [String(RegExp.prototype.global), RegExp.prototype.source, RegExp.prototype.flags, String(RegExp.prototype), Object.prototype.toString.call(RegExp.prototype)]

// === accessors-on-non-regexp-throw
const out = []
const desc = (n) => Object.getOwnPropertyDescriptor(RegExp.prototype, n).get
for (const n of ["global", "source", "sticky"]) {
  try {
    desc(n).call({})
  } catch (e) {
    out.push(e.name)
  }
}
try {
  desc("flags").call(1)
} catch (e) {
  out.push(e.name)
}
out.push(desc("flags").call({ global: 1, sticky: "y", hasIndices: 0, dotAll: true }))
return out

// === source-escaping
return [new RegExp("/").source, new RegExp("a\nb").source, new RegExp("").source, /\//.source, new RegExp("[/]").source, String(new RegExp("\u2028"))]

// === lastIndex-property
const re = /a/g
const d = Object.getOwnPropertyDescriptor(re, "lastIndex")
return [d.value, d.writable, d.enumerable, d.configurable, Object.keys(re), "lastIndex" in RegExp.prototype]

// === exec-basic
const m = /(\d+)-(\d+)?/.exec("x 12- y")
return [m[0], m[1], String(m[2]), m.index, m.input, m.length, String(m.groups), Object.keys(m)]

// === exec-null-and-coercion
return [/a/.exec("b"), /null/.exec(null)[0], /undefined/.exec()[0], /1/.exec(123).index]

// === exec-global-lastIndex
const re = /o/g
const out = []
let m
while ((m = re.exec("foo boo")) !== null) out.push([m.index, re.lastIndex])
return [out, re.lastIndex]

// === exec-sticky
const re = /a/y
const r = [re.test("aab"), re.lastIndex, re.test("aab"), re.lastIndex, re.test("aab"), re.lastIndex]
re.lastIndex = 1
r.push(re.exec("ba") !== null, re.lastIndex)
return r

// === exec-lastIndex-coercion-and-reset
const re = /a/g
re.lastIndex = "1"
const r1 = re.exec("aa").index
re.lastIndex = 99
const r2 = re.exec("aa")
const r3 = re.lastIndex
const nonGlobal = /a/
nonGlobal.lastIndex = 5
const r4 = nonGlobal.exec("aa").index
return [r1, r2, r3, r4, nonGlobal.lastIndex]

// === exec-lastIndex-valueOf-called
const log = []
const re = /b/
re.lastIndex = { valueOf() { log.push("valueOf"); return 0 } }
re.exec("abc")
return log

// === named-groups
const m = /(?<year>\d{4})-(?<month>\d{2})(?<day>-\d{2})?/.exec("on 2024-05")
return [m.groups.year, m.groups.month, String(m.groups.day), Object.keys(m.groups), Object.getPrototypeOf(m.groups) === null, "day" in m.groups]

// === indices-d-flag
const m = /(?<a>x)(y)?/d.exec("zxq")
return [m.indices[0], m.indices[1], String(m.indices[2]), m.indices.groups.a, Object.keys(m), Object.keys(m.indices)]

// === test-and-wrong-this
const out = [/a/.test("cat"), /^a/.test("cat"), /A/i.test("cat")]
try {
  RegExp.prototype.test.call(1, "")
} catch (e) {
  out.push(e.name)
}
out.push(RegExp.prototype.test.call({ exec: () => ({}) }, "x"))
try {
  RegExp.prototype.exec.call({}, "")
} catch (e) {
  out.push(e.name)
}
return out

// === toString-generic
return [String(/a\/b/g), RegExp.prototype.toString.call({ source: "S", flags: "F" }), /[/]/.toString()]

// === flags-modifiers-and-classes
return [/^b/m.test("a\nb"), /a.b/s.test("a\nb"), /a.b/.test("a\nb"), /\u{1F600}/u.test("😀"), /^.$/u.test("😀"), /^.$/.test("😀"), /[\p{L}]+/u.exec("héllo1")[0], /\bfoo\b/.test("a foo b")]

// === unicode-sets-v-flag
return [/[\p{L}--[a-z]]/v.test("a"), /[\p{L}--[a-z]]/v.test("A"), /[[a-z]&&[aeiou]]/v.exec("xyzoa")[0]]

// === lookbehind-and-backreferences
return ["$10 €20".match(/(?<=\$)\d+/)[0], "abab".match(/(ab)\1/)[0], /(?<q>["']).*?\k<q>/.exec(`say "hi" 'x'`)[0], "price: 42".replace(/(?<!\d)(\d+)/, "[$1]")]

// === match-global-and-empty
return ["aaa".match(/a*/g), "abc".match(/x*/g), "😀".match(/(?:)/gu).length, "😀".match(/(?:)/g).length, String("abc".match(/z/g))]

// === symbol-match-direct
const re = /b/g
return [RegExp.prototype[Symbol.match].call(re, "abcb"), re.lastIndex]

// === matchAll-protocol
const re = /a(\d)/g
re.lastIndex = 2
const it = re[Symbol.matchAll]("a1a2a3")
const res = [...it].map((m) => m[1])
return [res, re.lastIndex, Object.prototype.toString.call(re[Symbol.matchAll]("")), typeof it.next]

// === matchAll-non-global-regexp-symbol
const it = /a/[Symbol.matchAll]("aaa")
return [...it].length

// === replace-global-function-offsets
const calls = []
const r = "a1b22c333".replace(/\d+/g, (match, offset, string) => {
  calls.push([match, offset, string.length])
  return `<${match.length}>`
})
return [r, calls]

// === replace-empty-matches
return ["abc".replace(/(?:)/g, "-"), "😀".replace(/(?:)/gu, "-"), "aaa".replace(/a*?/g, "x"), "abc".replace(/$/, "!"), "abc".replace(/^/g, ">")]

// === replace-named-groups-function
const r = "k1=v1;k2=v2".replace(/(?<k>\w+)=(?<v>\w+)/g, (...args) => {
  const groups = args[args.length - 1]
  return `${groups.v}=${groups.k}`
})
return r

// === replace-sticky-and-lastIndex
const re = /a/y
re.lastIndex = 1
const r1 = "baa".replace(re, "X")
const r2 = re.lastIndex
const g = /a/g
g.lastIndex = 2
const r3 = "aaa".replace(g, "b")
return [r1, r2, r3, g.lastIndex]

// === replace-frozen-global-throws
const re = Object.freeze(/a/g)
try {
  "aa".replace(re, "b")
} catch (e) {
  return e.name
}

// === search-protocol
const re = /c/g
re.lastIndex = 3
return ["abcabc".search(re), re.lastIndex, RegExp.prototype[Symbol.search].call(/x/, "abc")]

// === split-protocol
return ["a1b2c".split(/\d/), "a1b2c".split(/(\d)/), "abc".split(/b/y), "a, b ,c".split(/\s*,\s*/), "abc".split(/(?=b)/), "one  two".split(/(\s)+/), RegExp.prototype[Symbol.split].call(/-/, "x-y-z", 2)]

// === subclass-overriding-exec
class Counting extends RegExp {
  constructor(...a) {
    super(...a)
    this.calls = 0
  }
  exec(s) {
    this.calls++
    return super.exec(s)
  }
}
const re = new Counting("o", "g")
const r1 = "foo".replace(re, "0")
const c1 = re.calls
const r2 = re.test("xo")
const r3 = "o-o".split(new Counting("-"))
const r4 = "moo".match(re)
return [r1, c1, r2, r3, r4, re.calls]

// === subclass-exec-returning-null
class Never extends RegExp {
  exec() { return null }
}
return [new Never("a").test("a"), "a".replace(new Never("a"), "b"), "a-b".split(new Never("-")), "aaa".match(new Never("a", "g"))]

// === exec-returning-bad-value-throws
const re = /a/
re.exec = () => 5
try {
  re.test("a")
} catch (e) {
  return e.name
}

// === species-for-split-and-matchAll
let constructed = 0
class Sp extends RegExp {
  static get [Symbol.species]() {
    constructed++
    return RegExp
  }
}
const re = new Sp("-", "g")
const parts = "a-b".split(re)
const all = [..."a-b-c".matchAll(re)].length
return [parts, all, constructed, RegExp[Symbol.species] === RegExp]

// === compile
const re = /a/g
re.lastIndex = 3
const r = re.compile("b+", "i")
return [r === re, String(re), re.lastIndex, re.test("BB")]

// === escape
return [RegExp.escape("a.b*c"), RegExp.escape("1+1=2"), RegExp.escape("(x)[y]{z}|/\\^$?"), RegExp.escape(" ,-=<>#&!%:;@~'`\""), RegExp.escape("\t\n\v\f\r"), RegExp.escape("\u00a0\u2028\ufeff"), RegExp.escape("_héllo"), RegExp.escape("\uD800"), RegExp.escape(""), RegExp.escape("😀")]

// === escape-usable-in-pattern
const needle = "a.b(c)?"
const re = new RegExp(RegExp.escape(needle), "g")
return ["xa.b(c)?y a.b(c)?".replace(re, "#"), re.test("axbc")]

// === escape-non-string-throws
try {
  RegExp.escape(1)
} catch (e) {
  return e.name
}

// === property-lengths-and-names
const p = RegExp.prototype
return [RegExp.length, p.exec.length, p.test.length, p[Symbol.replace].length, p[Symbol.split].length, p[Symbol.match].name, p[Symbol.matchAll].name, Object.getOwnPropertyNames(p), RegExp.escape.length]

// === case-insensitive-unicode
return [/\u212A/i.test("k"), /\u212A/iu.test("k"), /ß/i.test("SS"), /[a-z]/i.test("Z")]

// === regexp-in-string-methods-coercion
return ["a+b".split("+"), "aXbxc".split(/x/i), "1,2;3".split(/[,;]/).map(Number), "x".replace(/x/, "$'$`")]

// === email-like-validation
const re = /^[\w.+-]+@[\w-]+\.[\w.]+$/
return ["a@b.co", "bad@", "x.y+z@d-e.org", "no spaces@x.y"].map((s) => re.test(s))

// === extract-key-values
const text = "id=7; name=Ann; role=admin"
const out = {}
for (const m of text.matchAll(/(\w+)=(\w+)/g)) out[m[1]] = m[2]
return out

// === regexp-string-iterator-wrong-this
const next = "a".matchAll(/a/g).next
try {
  next.call({})
} catch (e) {
  return e.name
}

// === lastIndex-non-writable-exec-throws
const re = /a/g
Object.defineProperty(re, "lastIndex", { writable: false, value: 0 })
try {
  re.exec("a")
} catch (e) {
  return [e.name, re.lastIndex]
}

// === patched-exec-used-by-string-methods
const original = RegExp.prototype.exec
const log = []
RegExp.prototype.exec = function (s) {
  log.push(this.source)
  return original.call(this, s)
}
try {
  const r = ["a-b".replace(/-/, "+"), "a-b".split(/-/), "aXa".match(/a/g), "abc".search(/c/), /b/.test("abc")]
  return [r, log]
} finally {
  RegExp.prototype.exec = original
}

// === patched-flags-getter-used-by-replace
const desc = Object.getOwnPropertyDescriptor(RegExp.prototype, "flags")
Object.defineProperty(RegExp.prototype, "flags", { get() { return "g" }, configurable: true })
try {
  return ["aaa".replace(/a/y, "b"), "xaa".replace(/a/y, "b")]
} finally {
  Object.defineProperty(RegExp.prototype, "flags", desc)
}

// === lastIndex-valueOf-in-replace-and-match
const log = []
const re = /a/
re.lastIndex = { valueOf() { log.push("v"); return 0 } }
const r1 = "bab".replace(re, "X")
const g = /a/g
g.lastIndex = { valueOf() { log.push("g"); return 0 } }
const r2 = "aa".replace(g, "Y")
return [r1, r2, log, g.lastIndex]

// === non-writable-lastIndex-in-global-replace-throws
const re = /a/g
Object.defineProperty(re, "lastIndex", { value: 0, writable: false })
const out = []
try {
  "aa".replace(re, "b")
} catch (e) {
  out.push(e.name)
}
try {
  "aa".match(re)
} catch (e) {
  out.push(e.name)
}
out.push("a-b".split(/-/).length)
return out

// === species-constructor-called-for-split
const log = []
class R extends RegExp {
  constructor(p, f) {
    super(p, f)
    log.push(["new", String(p instanceof RegExp ? p.source : p), String(f)])
  }
}
const parts = "a1b2c".split(new R("\\d"))
return [parts, log]

// === sticky-replace-all-positions
const re = /a/gy
return ["aab".replace(re, "X"), "baa".replace(re, "X"), re.lastIndex]

// === replace-function-sees-lastIndex-zero
const re = /o/g
const seen = []
"foo".replace(re, () => { seen.push(re.lastIndex); return "0" })
return seen

// === match-all-iterator-independent-of-regexp
const re = /a/g
const it = "aaa".matchAll(re)
re.lastIndex = 2
const first = it.next().value.index
return [first, re.lastIndex, [...it].length]

// === split-with-captures-and-limit
return ["a1b2c3".split(/(\d)/, 3), "abc".split(/(?:)/, 2), "a,b,c".split(/(,)/, 4)]

// === replace-reads-global-and-unicode-like-v8
const log = []
const re = /a/g
for (const n of ["flags", "global", "unicode", "hasIndices"]) {
  Object.defineProperty(re, n, { get() { log.push(n); return n === "flags" ? "g" : n === "global" } })
}
const r = "aa".replace(re, "b")
const m = "aa".match(re)
const parts = "a-a".split(/-/)
return [r, m, parts, log]
