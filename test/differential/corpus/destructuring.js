// Destructuring in every position: declarations, assignments, parameters, for-of heads, catch parameters;
// defaults, nesting, rest, holes, computed keys, and the errors of destructuring null/undefined.

// === array-basic
const [a, b, c] = [1, 2, 3]
return [a, b, c]

// === array-holes-and-missing
const [a, , b, c] = [1, 2, 3]
const [, , third] = "xyz"
return [a, b, c === undefined, third]

// === array-rest
const [first, ...rest] = [1, 2, 3, 4]
const [...all] = "hey"
const [x, ...empty] = [1]
return [first, rest, all, empty]

// === array-defaults
const [a = 1, b = 2, c = 3] = [undefined, null, 0]
return [a, b, c]

// === array-defaults-lazy
const log = []
const d = (v) => { log.push(v); return v }
const [a = d("a"), b = d("b")] = [undefined, "given"]
return [a, b, log]

// === array-default-refers-earlier
const [a = 1, b = a * 2, c = a + b] = []
return [a, b, c]

// === array-from-iterable
function* gen() { yield 1; yield 2; yield 3 }
const [a, b] = gen()
const [k, v] = new Map([["key", "value"]]).entries().next().value
const [s1, s2] = new Set(["p", "q"])
return [a, b, k, v, s1, s2]

// === array-closes-iterator
const log = []
const iterable = {
  [Symbol.iterator]() {
    let i = 0
    return {
      next() { log.push("next"); return { value: i++, done: false } },
      return() { log.push("return"); return {} },
    }
  },
}
const [a, b] = iterable
return [a, b, log]

// === array-from-non-iterable-throws
try {
  const [a] = {}
  return a
} catch (e) {
  return e.name
}

// === array-from-null-throws
try {
  const [a] = null
  return a
} catch (e) {
  return e.name
}

// === object-basic
const { a, b, missing } = { a: 1, b: 2 }
return [a, b, missing === undefined]

// === object-rename-and-default
const { a: x, b: y = 10, c: z = 20 } = { a: 1, c: null }
return [x, y, z]

// === object-nested
const { p: { q: [r, { s }] }, t: { u = "dflt" } = {} } = { p: { q: [1, { s: 2 }] } }
return [r, s, u]

// === object-rest
const { a, ...rest } = { a: 1, b: 2, c: 3 }
const { ...copy } = { x: 1, y: { z: 2 } }
return [a, rest, copy]

// === object-rest-excludes-inherited-and-nonenumerable
const proto = { inherited: 1 }
const o = Object.create(proto)
o.own = 2
Object.defineProperty(o, "hidden", { value: 3, enumerable: false })
const { ...r } = o
return r

// === object-computed-keys
const key = "dyn"
const { [key]: v, [`${key}2`]: w = "d", ["a" + 1]: z } = { dyn: 1, a1: 3 }
return [v, w, z]

// === object-from-primitive
const { length, 0: first } = "hello"
const { toFixed } = 5
return [length, first, typeof toFixed]

// === object-from-null-throws
try {
  const { a } = null
  return a
} catch (e) {
  return e.name
}

// === object-from-undefined-empty-pattern-throws
try {
  const {} = undefined
  return "no error"
} catch (e) {
  return e.name
}

// === object-getter-called-once
let calls = 0
const o = { get x() { calls++; return calls } }
const { x, x: y } = o
return [x, y, calls]

// === assignment-pattern-swap
let a = 1
let b = 2;
[a, b] = [b, a]
return [a, b]

// === assignment-pattern-to-members
const o = {}
const arr = [];
({ x: o.first, y: arr[0] } = { x: "X", y: "Y" });
[o.second, ...arr[1]] = [1, 2, 3]
return [o, arr]

// === assignment-pattern-returns-rhs
let a, b
const rhs = [1, 2]
const r = ([a, b] = rhs)
return [r === rhs, a, b]

// === assignment-object-pattern-parenthesized
let x, y
({ x, y = 5 } = { x: 1 })
return [x, y]

// === params-destructuring
function f({ a, b = 2 }, [c = 3, d = 4] = [], ...{ length }) {
  return [a, b, c, d, length]
}
return [f({ a: 1 }), f({ a: 1, b: 3 }, [5, 6], 7, 8)]

// === params-destructuring-default-object
function f({ x = 1, y = 2 } = {}) {
  return x + y
}
return [f(), f({ x: 10 }), f({ y: 0 })]

// === params-destructuring-undefined-throws
function f({ a }) {
  return a
}
try {
  return f()
} catch (e) {
  return e.name
}

// === arrow-params-destructuring
const pairs = [[1, "a"], [2, "b"]]
const objs = [{ n: 1, m: { k: "x" } }, { n: 2, m: { k: "y" } }]
return [pairs.map(([n, s]) => s + n), objs.map(({ n, m: { k } }) => k + n)]

// === for-of-head-destructuring
const out = []
for (const [k, v] of Object.entries({ a: 1, b: 2 })) out.push(k + v)
for (const { id, tags: [first = "none"] = [] } of [{ id: 1, tags: ["t"] }, { id: 2 }]) out.push(id + first)
return out

// === for-of-assignment-target
const o = {}
const out = []
for ([o.k, o.v] of [["a", 1], ["b", 2]]) out.push(o.k + o.v)
return [out, o]

// === for-in-head-destructuring
const out = []
for (const [first, ...rest] in { abc: 1, de: 2 }) out.push([first, rest.join("")])
return out

// === catch-param-destructuring
try {
  throw { code: 42, detail: { msg: "bad" } }
} catch ({ code, detail: { msg }, missing = "dflt" }) {
  return [code, msg, missing]
}

// === catch-param-array-destructuring
try {
  throw [1, 2, 3]
} catch ([a, , c]) {
  return [a, c]
}

// === catch-without-binding
let r = "none"
try {
  throw new Error("x")
} catch {
  r = "caught"
}
return r

// === nested-defaults-in-arrays-and-objects
const { a: [x = 1, { y = 2 } = {}] = [] } = {}
const { b: [p = 3, { q = 4 } = {}] = [] } = { b: [undefined, { q: 40 }] }
return [x, y, p, q]

// === destructuring-evaluation-order
const log = []
const src = {
  get a() { log.push("get a"); return undefined },
  get b() { log.push("get b"); return 2 },
}
const { a = (log.push("default a"), 1), b = (log.push("default b"), 0) } = src
return [a, b, log]

// === rest-element-must-be-last-iterates-fully
let count = 0
function* g() { while (count < 5) yield count++ }
const [a, ...rest] = g()
return [a, rest, count]

// === destructure-array-length-property
const { length, [length - 1]: last } = [10, 20, 30]
return [length, last]

// === destructure-symbol-key
const s = Symbol("s")
const { [s]: val } = { [s]: "sym" }
return val

// === destructure-default-function-name
const { f = function () {}, g = () => {}, h = class {} } = {}
return [f.name, g.name, h.name]
