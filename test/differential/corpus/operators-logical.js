// Logical operators, nullish coalescing, optional chaining, and logical assignment: values returned,
// short-circuiting, and how many times each operand is evaluated.

// === and-or-return-operands
return [1 && 2, 0 && 2, "" || "d", "a" || "b", null || undefined || 0, 1 && null && 3, !0, !!"", !![]]

// === short-circuit-evaluation
const log = []
const t = (v) => { log.push(v); return v }
t(0) && t(1)
t(1) || t(2)
t(3) && t(4) && t(0) && t(5)
t(null) || t(0) || t(6)
return log

// === nullish-coalescing
return [null ?? "d", undefined ?? "d", 0 ?? "d", "" ?? "d", false ?? "d", NaN ?? "d"].map(String)

// === nullish-short-circuit
const log = []
const t = (v) => { log.push(String(v)); return v }
const r = [t(1) ?? t(2), t(null) ?? t(3), t(undefined) ?? t(null) ?? t(4)]
return [r, log]

// === nullish-with-parens
return [(null || undefined) ?? "x", (0 ?? 1) || 2, null ?? (0 || 5)]

// === optional-chaining-member
const o = { a: { b: { c: 1 } }, n: null }
return [o?.a?.b?.c, o.n?.b ?? "short", o.x?.y?.z ?? "short2", o?.["a"]?.["b"]?.c]

// === optional-chaining-call
const o = { f() { return "called" }, g: null }
return [o.f?.(), o.g?.() ?? "no g", o.h?.() ?? "no h", o.missing?.deep.call() ?? "chain short"]

// === optional-chaining-short-circuits-whole-chain
let count = 0
const o = null
const r = o?.a.b.c(count++)
return [r === undefined, count]

// === optional-chaining-this
const o = {
  v: 42,
  get() { return this.v },
}
return [o.get?.(), o?.get(), (o?.get)()]

// === optional-call-on-non-function-throws
const o = { f: 5 }
try {
  return o.f?.()
} catch (e) {
  return e.name
}

// === optional-chaining-with-private-and-index
const arr = null
const m = { list: [1, 2, 3] }
return [arr?.[0], m.list?.[1], m.map?.get("x")].map((v) => (v === undefined ? "undef" : v))

// === delete-optional-chain
const o = { a: { b: 1 } }
const r1 = delete o?.a?.b
const r2 = delete o.x?.y
return [r1, r2, o]

// === logical-and-assign
let a = 1
let b = 0
a &&= 5
b &&= 5
return [a, b]

// === logical-or-assign
let a = 0
let b = "kept"
a ||= "set"
b ||= "not set"
return [a, b]

// === nullish-assign
let a = null
let b = 0
let c
a ??= "A"
b ??= "B"
c ??= "C"
return [a, b, c]

// === logical-assign-short-circuit-no-set
const log = []
const o = {
  get v() { log.push("get"); return 1 },
  set v(x) { log.push("set " + x) },
}
o.v ||= 2
o.v &&= 3
o.v ??= 4
return log

// === logical-assign-evaluates-rhs-lazily
let n = 0
let x = 1
x ||= ++n
x ??= ++n
let y = 0
y ||= ++n
return [x, y, n]

// === logical-assign-on-elements
const a = [null, 0, 1]
a[0] ??= "n"
a[1] ||= "z"
a[2] &&= "t"
return a

// === not-operator-truthiness-table
const vals = [0, -0, "", "0", " ", null, undefined, NaN, [], {}, 0n, 1n, false, "false"]
return vals.map((v) => (v ? 1 : 0)).join("")

// === conditional-operator
const f = (n) => (n > 0 ? "pos" : n < 0 ? "neg" : "zero")
return [f(3), f(-2), f(0), true ? 1 : 0, "" ? "t" : "f"]

// === conditional-evaluates-one-branch
const log = []
const t = (v) => { log.push(v); return v }
const r = t(true) ? t("a") : t("b")
return [r, log]

// === mixing-and-or-precedence
return [1 || 0 && 0, (1 || 0) && 0, 0 && 1 || 2, false || null && 1]

// === optional-chaining-on-primitives
const s = "abc"
const n = 5
return [s?.length, n?.toFixed?.(1), s?.toUpperCase()]
