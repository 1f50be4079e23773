// Template literals and tagged templates: substitution, coercion, nesting, raw strings, and the identity of
// the strings array per call site.

// === template-basic
const name = "World"
const n = 3
return [`Hello ${name}!`, `${n} + ${n} = ${n + n}`, `${""}`, `plain`]

// === template-coercion
const o = { toString() { return "O" }, valueOf() { return 1 } }
return [`${null}`, `${undefined}`, `${[1, [2, 3]]}`, `${{}}`, `${o}`, `${true}`, `${1n}`, `${-0}`]

// === template-symbol-throws
try {
  return `${Symbol("s")}`
} catch (e) {
  return e.name
}

// === template-multiline-and-escapes
const s = `line1
line2\ttab \`tick\` \${not} \u0041 \x42`
return s

// === template-nested
const items = ["a", "b"]
return `<ul>${items.map((i) => `<li>${i.toUpperCase()}</li>`).join("")}</ul>`

// === template-expression-order
const log = []
const t = (v) => { log.push(v); return v }
const s = `${t(1)}-${t(2)}-${t(3)}`
return [s, log]

// === tagged-basic
function tag(strings, ...values) {
  return { strings: [...strings], values }
}
const x = 1
return tag`a${x}b${x + 1}c`

// === tagged-raw
function tag(strings) {
  return [strings.raw[0], strings[0], strings.raw.length]
}
return tag`\n\t\\x`

// === tagged-invalid-escape-cooked-undefined
function tag(strings) {
  return [strings[0] === undefined, strings.raw[0]]
}
return tag`\unicode and \xZZ`

// === string-raw
return [String.raw`\n${1 + 1}\t`, String.raw({ raw: ["x", "y", "z"] }, 1, 2, 3)]

// === tagged-strings-array-identity-per-site
function tag(strings) { return strings }
const seen = []
for (let i = 0; i < 3; i++) seen.push(tag`same ${i} site`)
const other = tag`same ${0} site`
return [seen[0] === seen[1], seen[1] === seen[2], seen[0] === other]

// === tagged-strings-frozen
function tag(strings) { return [Object.isFrozen(strings), Object.isFrozen(strings.raw), Array.isArray(strings)] }
return tag`x${1}y`

// === tagged-member-this
const obj = {
  prefix: ">",
  tag(strings, ...vals) { return this.prefix + strings.join("|") + vals.join(",") },
}
return obj.tag`a${1}b${2}c`

// === tagged-returns-anything
const fn = (s) => (v) => s[0] + v
return fn`hello `("world")

// === tagged-call-chain
function t1(s) { return (s2) => s[0] + "+" + s2[0] }
return t1`first``second`

// === tagged-values-not-coerced
function tag(strings, ...values) { return values.map((v) => typeof v) }
return tag`${1}${"s"}${{}}${null}${undefined}${() => 1}`

// === template-with-ternary-and-calls
const count = (n) => `${n} item${n === 1 ? "" : "s"}`
return [count(0), count(1), count(2)]

// === template-tostring-called
let calls = 0
const o = { toString() { calls++; return "o" } }
const s = `${o}${o}`
return [s, calls]

// === template-in-object-key
const k = "key"
const o = { [`${k}_1`]: 1, [`${k}_${1 + 1}`]: 2 }
return Object.keys(o)

// === tagged-template-line-continuation
function tag(s) { return [s[0], s.raw[0]] }
return tag`a\
b`
