// Spread in array literals, calls, `new` and object literals; rest parameters.

// === array-spread
const a = [1, 2]
const b = [0, ...a, 3, ...a]
return b

// === array-spread-strings-and-iterables
function* g() { yield "x"; yield "y" }
return [[..."héllo"], [...g()], [...new Set([1, 1, 2])], [...new Map([[1, 2]])]]

// === array-spread-holes-become-undefined
const sparse = [1, , 3]
const dense = [...sparse]
return [dense.length, 1 in sparse, 1 in dense, dense[1] === undefined]

// === array-spread-non-iterable-throws
try {
  return [...{ a: 1 }]
} catch (e) {
  return e.name
}

// === array-spread-null-throws
try {
  return [...null]
} catch (e) {
  return e.name
}

// === call-spread
function f(a, b, c = "c?", d = "d?") { return [a, b, c, d] }
const args = [2, 3]
return [f(...args), f(1, ...args, 4), f(...[1], ...[2], ...[]), Math.max(...[4, 9, 2])]

// === call-spread-evaluation-order
const log = []
const it = (name, vals) => ({
  *[Symbol.iterator]() { log.push("iter " + name); yield* vals },
})
function f(...xs) { return xs }
const r = f(...it("a", [1]), (log.push("mid"), 2), ...it("b", [3]))
return [r, log]

// === new-spread
class P {
  constructor(...xs) { this.xs = xs }
}
return new P(...[1, 2], 3).xs

// === object-spread
const a = { x: 1, y: 2 }
const b = { ...a, y: 3, z: 4 }
const c = { y: 0, ...a }
return [b, c]

// === object-spread-getters-invoked
let calls = 0
const src = { get v() { calls++; return "got" } }
const copy = { ...src }
const d = Object.getOwnPropertyDescriptor(copy, "v")
return [copy.v, calls, "value" in d, typeof d.get]

// === object-spread-null-undefined-primitives
return [{ ...null }, { ...undefined }, { ...1 }, { ..."ab" }, { ...[5, 6] }, { ...true }]

// === object-spread-own-enumerable-only
const proto = { inherited: 1 }
const o = Object.create(proto, { own: { value: 2, enumerable: true }, hidden: { value: 3, enumerable: false } })
return { ...o }

// === object-spread-symbols-copied
const s = Symbol("s")
const copy = { ...{ [s]: 1, a: 2 } }
return [copy[s], Object.getOwnPropertySymbols(copy).length, copy.a]

// === object-spread-does-not-call-setters
const log = []
const target = { set x(v) { log.push(v) } }
const merged = { ...target, ...{ x: 1 } }
return [log, merged.x, Object.getOwnPropertyDescriptor(merged, "x").value]

// === object-spread-order-of-keys
return Object.keys({ b: 1, ...{ a: 1, 2: 0, c: 1 }, b: 2, 1: 0 })

// === rest-parameters
function f(a = "none", ...rest) { return [a, rest, Array.isArray(rest)] }
return [f(), f(1), f(1, 2, 3)]

// === rest-parameters-length
function f(a, b, ...c) {}
function g(...args) {}
function h(a, b = 1, c) {}
return [f.length, g.length, h.length]

// === rest-with-arguments
function f(a, ...rest) { return [arguments.length, rest.length] }
return f(1, 2, 3)

// === spread-large-array
const big = Array.from({ length: 1000 }, (_, i) => i)
const copy = [...big, ...big]
function sum(...xs) { let s = 0; for (const x of xs) s += x; return s }
return [copy.length, sum(...big)]

// === spread-arguments-object
function f() { return [...arguments] }
return f(1, "two", 3)

// === spread-string-surrogate-pairs
const s = "a😀b"
return [s.length, [...s].length, [...s][1] === "😀"]

// === spread-uses-iterator-not-indices
const arr = [1, 2, 3]
arr[Symbol.iterator] = function* () { yield "custom" }
return [...arr]
