// Regular expression literals used from the language: test, exec, match, replace, split, flags, lastIndex.
// (The RegExp library in depth belongs to the built-ins corpus.)

// === literal-test
return [/ab+c/.test("xabbbcx"), /^ab+c$/.test("xabcx"), /a.c/i.test("A-C"), /\d{3}/.test("12")]

// === exec-groups
const m = /(\d+)-(\d+)/.exec("range 10-20 end")
return [m[0], m[1], m[2], m.index, m.length]

// === exec-no-match-null
return /z/.exec("abc")

// === named-groups
const m = /(?<year>\d{4})-(?<month>\d{2})/.exec("on 2024-05")
return [m.groups.year, m.groups.month, Object.keys(m.groups)]

// === global-lastindex-loop
const re = /o/g
const found = []
let m
while ((m = re.exec("foo boo")) !== null) found.push([m.index, re.lastIndex])
return [found, re.lastIndex]

// === sticky-flag
const re = /a/y
const r = [re.test("aab"), re.lastIndex, re.test("aab"), re.lastIndex, re.test("aab"), re.lastIndex]
return r

// === regex-literal-new-object-each-evaluation
const make = () => /x/g
const a = make()
const b = make()
a.lastIndex = 5
return [a === b, b.lastIndex]

// === replace-string-and-patterns
return [
  "a-b-c".replace("-", "+"),
  "a-b-c".replace(/-/g, "+"),
  "john smith".replace(/(\w+) (\w+)/, "$2, $1"),
  "abc".replace(/b/, "[$&]"),
  "abc".replace(/b/, "[$`|$']"),
  "x".replace(/x/, "$$"),
]

// === replace-named-group-reference
return "2024-05-06".replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, "$<d>/$<m>/$<y>")

// === replace-with-function
const calls = []
const r = "a1b22c333".replace(/\d+/g, (match, offset) => {
  calls.push([match, offset])
  return `<${match.length}>`
})
return [r, calls]

// === replace-all
return ["a.b.c".replaceAll(".", "/"), "aaa".replaceAll(/a/g, "b")]

// === replace-all-non-global-throws
try {
  return "aaa".replaceAll(/a/, "b")
} catch (e) {
  return e.name
}

// === match-and-match-all
const s = "x1 y22 z333"
const all = [...s.matchAll(/([a-z])(\d+)/g)].map((m) => [m[1], m[2], m.index])
return [s.match(/\d+/g), s.match(/q/), s.match(/(\d)(\d)/).slice(), all]

// === split-with-regex
return ["a, b,c ,d".split(/\s*,\s*/), "a1b2c3".split(/\d/), "a1b2c3".split(/(\d)/), "abc".split(/(?:)/u)]

// === flags-and-source
const re = /a+b/gimsuy
return [re.source, re.flags, re.global, re.ignoreCase, re.multiline, re.dotAll, re.unicode, re.sticky]

// === multiline-and-dotall
const s = "one\ntwo"
return [/^two$/.test(s), /^two$/m.test(s), /one.two/.test(s), /one.two/s.test(s)]

// === character-classes
return ["a1_ B-".match(/\w/g).join(""), "a1_ B-".match(/\W/g).join(""), " \t\n".match(/\s/g).length, "x9".match(/\D/)[0]]

// === lookaround
return ["price: $42".match(/(?<=\$)\d+/)[0], "foobar foobaz".match(/foo(?!bar)\w+/)[0], "a1b2".replace(/\d(?=b)/, "#")]

// === backreference
return [/(\w)\1/.test("hello"), /(\w)\1/.test("helo"), "abab".replace(/(ab)\1/, "X"), /(?<q>['"]).*?\k<q>/.exec(`say "hi" now`)[0]]

// === unicode-flag
return ["😀".length, /^.$/.test("😀"), /^.$/u.test("😀"), /\u{1F600}/u.test("😀")]

// === quantifiers-greedy-lazy
return ["<a><b>".match(/<.+>/)[0], "<a><b>".match(/<.+?>/)[0], "aaaa".match(/a{2,3}/)[0], "aaaa".match(/a{2,3}?/)[0]]

// === regex-in-conditionals
const classify = (s) => (/^\d+$/.test(s) ? "int" : /^\d*\.\d+$/.test(s) ? "float" : "other")
return ["42", "3.14", ".5", "x1"].map(classify)

// === test-with-global-flag-state
const re = /a/g
return [re.test("a"), re.test("a"), re.test("a")]

// === search
return ["hello world".search(/o/), "hello".search(/z/), "Hello".search(/h/i)]
