// The Array built-ins: constructor and statics, every Array.prototype method, holes, array-likes, species,
// callbacks that throw or mutate, frozen targets, sort stability and comparators, and the caps.

// === ctor-forms
return [Array().length, Array(3).length, new Array(3).length, Array(1, 2), new Array("3"), Array.of(7).length, new Array(0).length]

// === ctor-invalid-length-throws
const out = []
for (const n of [-1, 1.5, 2 ** 32, NaN, Infinity]) {
  try {
    new Array(n)
    out.push("ok")
  } catch (e) {
    out.push(e.name + ": " + e.message)
  }
}
return out

// === ctor-called-without-new-and-holes
const a = Array(3)
return [a.length, 0 in a, Object.keys(a).length, String(a), a.join("-")]

// === ctor-subclass
class Stack extends Array {
  peek() { return this[this.length - 1] }
}
const s = new Stack()
s.push(1, 2, 3)
const m = s.map((x) => x * 2)
return [s.peek(), s.length, s instanceof Stack, Array.isArray(s), m instanceof Stack, m.peek(), Stack.from([5]).peek()]

// === isArray
return [Array.isArray([]), Array.isArray({ length: 0 }), Array.isArray(Array.prototype), Array.isArray("abc"), Array.isArray(new Array(2)), Array.isArray()]

// === of-basic
return [Array.of(), Array.of(1, 2, 3), Array.of(undefined).length, Array.of.length]

// === of-with-custom-constructor
function C(n) { this.made = n }
const r = Array.of.call(C, "a", "b")
return [r instanceof C, r.made, r.length, r[0], r[1]]

// === from-iterables
return [Array.from("héllo"), Array.from(new Set([1, 2, 2, 3])), Array.from(new Map([[1, "a"]])), Array.from([1, , 3]).map(String)]

// === from-array-like-and-mapper
const r = Array.from({ length: 3, 0: "a", 2: "c" }, (v, i) => `${i}:${v}`)
return [r, Array.from({ length: 2 }, function () { return this.k }, { k: 9 })]

// === from-string-surrogates
return Array.from("a😀b").length

// === from-iterator-closed-when-mapper-throws
let closed = 0
const iterable = {
  [Symbol.iterator]() {
    let i = 0
    return { next: () => ({ value: i++, done: false }), return() { closed++; return {} } }
  },
}
try {
  Array.from(iterable, (v) => { if (v === 2) throw new Error("boom"); return v })
} catch (e) {
  return [e.message, closed]
}

// === from-non-callable-mapper-throws
try {
  Array.from([1], 5)
} catch (e) {
  return e.name
}

// === from-length-coercion
return [Array.from({ length: "2", 0: 1, 1: 2 }), Array.from({ length: -5 }), Array.from({ length: 2.7 }).length, Array.from(5)]

// === at
const a = [1, 2, 3]
return [a.at(0), a.at(-1), a.at(-3), String(a.at(3)), String(a.at(-4)), a.at("1"), a.at(1.7), a.at(NaN)]

// === at-array-like
return Array.prototype.at.call({ length: 2, 0: "x", 1: "y" }, -1)

// === concat-basic
const a = [1, 2]
return [a.concat(3, [4, 5], [[6]]), a, [].concat(), a.concat("str", { x: 1 }).length]

// === concat-holes-preserved
const r = [1, , 3].concat([, 5])
return [r.length, 1 in r, 3 in r, r[4]]

// === concat-spreadable-symbol
const arrayLike = { length: 2, 0: "a", 1: "b", [Symbol.isConcatSpreadable]: true }
const arr = [1, 2]
arr[Symbol.isConcatSpreadable] = false
const r = [0].concat(arrayLike, arr)
return [r.length, r[1], r[2], Array.isArray(r[3])]

// === concat-species
class MyArr extends Array {}
const m = MyArr.from([1])
const c = m.concat([2])
return [c instanceof MyArr, c.length]

// === copyWithin
return [
  [1, 2, 3, 4, 5].copyWithin(0, 3),
  [1, 2, 3, 4, 5].copyWithin(0, 3, 4),
  [1, 2, 3, 4, 5].copyWithin(-2, -3, -1),
  [1, 2, 3, 4, 5].copyWithin(2, 0),
  [1, 2, 3, 4, 5].copyWithin(1, 2),
]

// === copyWithin-holes-and-array-like
const a = [1, , 3, 4]
a.copyWithin(2, 0)
const o = Array.prototype.copyWithin.call({ length: 5, 3: 1 }, 0, 3)
return [a.length, 2 in a, 3 in a, a[2], JSON.stringify(o)]

// === entries-keys-values
const a = ["a", , "c"]
return [[...a.entries()].map(String), [...a.keys()], [...a.values()].map(String), a[Symbol.iterator] === a.values]

// === array-iterator-live-length
const a = [1, 2]
const it = a.values()
const out = [it.next().value]
a.push(3)
out.push(it.next().value, it.next().value, it.next().done)
a.push(4)
out.push(it.next().done)
return out

// === array-iterator-to-string-tag
const it = [].values()
return [Object.prototype.toString.call(it), typeof it.next, it[Symbol.iterator]() === it, Object.getPrototypeOf(Object.getPrototypeOf(it)) === Object.getPrototypeOf(Object.getPrototypeOf((function* () {})()).__proto__)]

// === every-some
const a = [1, 2, 3]
return [a.every((x) => x > 0), a.every((x) => x > 1), a.some((x) => x > 2), a.some((x) => x > 3), [].every(() => false), [].some(() => true)]

// === every-some-skip-holes
const seen = []
;[1, , 3].every((x, i) => { seen.push(i); return true })
;[1, , 3].some((x, i) => { seen.push(i); return false })
return seen

// === every-short-circuits
let calls = 0
;[1, 2, 3, 4].every((x) => { calls++; return x < 2 })
return calls

// === fill
return [
  new Array(3).fill(0),
  [1, 2, 3, 4].fill(9, 1, 3),
  [1, 2, 3].fill(7, -2),
  [1, 2, 3].fill(7, 5),
  [1, 2, 3].fill(7, NaN, NaN),
  Array.prototype.fill.call({ length: 2 }, "x"),
]

// === fill-shares-object
const a = new Array(2).fill({})
a[0].x = 1
return a[1].x

// === filter
const a = [1, 2, 3, 4, 5, , 7]
return [a.filter((x) => x % 2), a.filter((x, i, arr) => arr === a && i > 4), a.filter(() => true).length]

// === filter-this-arg-and-array-like
const r = Array.prototype.filter.call({ length: 3, 0: 5, 1: 6, 2: 7 }, function (x) { return x > this.min }, { min: 5 })
return r

// === find-findIndex-findLast-findLastIndex
const a = [5, 12, 8, 130, 44]
return [a.find((x) => x > 10), a.findIndex((x) => x > 10), a.findLast((x) => x > 10), a.findLastIndex((x) => x > 10), String(a.find((x) => x > 1000)), a.findIndex((x) => x > 1000), a.findLastIndex(() => false)]

// === find-visits-holes
const seen = []
;[1, , 3].find((x, i) => { seen.push([i, String(x)]); return false })
;[1, , 3].findLast((x, i) => { seen.push([i, String(x)]); return false })
return seen

// === flat
return [
  [1, [2, [3, [4]]]].flat(),
  [1, [2, [3, [4]]]].flat(2),
  [1, [2, [3, [4]]]].flat(Infinity),
  [1, [2, [3]]].flat(0),
  [1, , [2, , 3]].flat(),
  [[1], [2]].flat(-1).length,
]

// === flatMap
return [
  [1, 2, 3].flatMap((x) => [x, x * 10]),
  [1, 2].flatMap((x) => [[x]]),
  ["a b", "c"].flatMap((s) => s.split(" ")),
  [1, 2].flatMap((x) => x),
]

// === flatMap-non-callable-throws
try {
  ;[1].flatMap(null)
} catch (e) {
  return e.name
}

// === forEach-order-holes-this
const out = []
;[10, , 30].forEach(function (v, i, arr) { out.push([v, i, arr.length, this.tag]) }, { tag: "t" })
return out

// === forEach-returns-undefined-and-length-fixed
const a = [1, 2]
const seen = []
const r = a.forEach((x) => { seen.push(x); if (a.length < 5) a.push(x + 10) })
return [String(r), seen, a]

// === forEach-deleted-elements-skipped
const a = [1, 2, 3, 4]
const seen = []
a.forEach((x, i) => { seen.push(x); if (i === 0) delete a[2] })
return seen

// === forEach-callback-throws
let count = 0
try {
  ;[1, 2, 3].forEach((x) => { count++; if (x === 2) throw new RangeError("stop") })
} catch (e) {
  return [e.name, count]
}

// === forEach-non-callable-throws
const out = []
for (const cb of [undefined, null, 1, "f", {}]) {
  try {
    ;[1].forEach(cb)
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === includes
const a = [1, 2, NaN, undefined, -0]
return [a.includes(2), a.includes(NaN), a.includes(undefined), a.includes(0), a.includes(2, 2), a.includes(1, -10), [1, , 3].includes(undefined), a.includes("2")]

// === indexOf-lastIndexOf
const a = [1, 2, 3, 2, 1]
return [a.indexOf(2), a.indexOf(2, 2), a.indexOf(2, -2), a.indexOf(9), a.lastIndexOf(2), a.lastIndexOf(2, 2), a.lastIndexOf(2, -3), a.lastIndexOf(1, -6), [NaN].indexOf(NaN), [, undefined].indexOf(undefined), [1, 2].lastIndexOf(2, undefined)]

// === indexOf-strict-equality
const o = {}
return [[o, {}].indexOf(o), ["1", 1].indexOf(1), [0].indexOf(-0), [null].indexOf(undefined)]

// === join
return [[1, 2, 3].join(), [1, 2, 3].join(""), [1, [2, 3]].join(";"), [null, undefined, 1].join("-"), [].join(), [1].join(undefined), new Array(3).join("ab"), [1, 2].join({ toString() { return "+" } })]

// === join-cyclic
const a = [1, 2]
a.push(a)
const b = [a, 3]
a.push(b)
return [a.join("|"), String(a), b.toString()]

// === join-array-like
return Array.prototype.join.call({ length: 3, 0: "a", 2: "c" }, "/")

// === join-element-tostring-throws
try {
  ;[1, { toString() { throw new TypeError("no") } }].join()
} catch (e) {
  return e.message
}

// === keys-of-sparse
return [...Array(3).keys()]

// === map
const a = [1, , 3]
const r = a.map((x, i) => x * i)
return [r.length, 1 in r, r[2], ["1", "2", "3"].map(Number), [1, 2].map(function () { return this.v }, { v: "t" })]

// === map-array-like
return Array.prototype.map.call({ length: 2, 0: "a", 1: "b" }, (s) => s.toUpperCase())

// === map-string-this
return Array.prototype.map.call("abc", (c) => c + c)

// === map-callback-mutation
const a = [1, 2, 3]
return a.map((x, i) => { if (i === 0) { a[1] = 20; a.push(4) } return x })

// === map-species-null-and-undefined
const a = [1, 2]
a.constructor = { [Symbol.species]: null }
const b = [1, 2]
b.constructor = undefined
return [Array.isArray(a.map((x) => x)), b.map((x) => x + 1)]

// === map-species-not-constructor-throws
const a = [1]
a.constructor = { [Symbol.species]: 5 }
try {
  a.map((x) => x)
} catch (e) {
  return e.name
}

// === pop-push
const a = [1, 2]
const r = [a.push(3, 4), a.pop(), a.pop(), a.length, a.push(), [].pop()]
return [r.map(String), a]

// === push-array-like
const o = { length: 1, 0: "a" }
const n = Array.prototype.push.call(o, "b", "c")
const e = {}
Array.prototype.push.call(e, 1)
return [n, o.length, o[2], e.length, e[0]]

// === pop-array-like-and-string-length
const o = { length: "2", 0: "a", 1: "b" }
const v = Array.prototype.pop.call(o)
return [v, o.length, 1 in o]

// === push-frozen-throws
const a = Object.freeze([1])
try {
  a.push(2)
} catch (e) {
  return [e.name, a.length]
}

// === pop-non-writable-length-throws
const a = [1, 2]
Object.defineProperty(a, "length", { writable: false })
try {
  a.pop()
} catch (e) {
  return [e.name, a.length, String(a[1]), 1 in a]
}

// === push-huge-array-like-throws
try {
  Array.prototype.push.call({ length: 2 ** 53 - 1 }, 1)
} catch (e) {
  return e.name
}

// === reduce-reduceRight
const a = [1, 2, 3, 4]
return [a.reduce((s, x) => s + x), a.reduce((s, x) => s + x, 10), a.reduceRight((s, x) => s + x, ""), [[1, 2], [3]].reduce((acc, x) => acc.concat(x), []), [5].reduce((a, b) => a + b), [].reduce((a, b) => a + b, "init")]

// === reduce-args-and-holes
const calls = []
;[, 1, , 2].reduce((acc, x, i, arr) => { calls.push([acc, x, i, arr.length]); return acc + x })
;[, 1, , 2, ,].reduceRight((acc, x, i) => { calls.push([acc, x, i]); return acc + x }, 0)
return calls

// === reduce-empty-throws
const out = []
for (const f of [() => [].reduce((a, b) => a), () => [, ,].reduceRight((a, b) => a), () => [].reduce(1)]) {
  try {
    f()
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === reverse
const a = [1, 2, 3]
const r = a.reverse()
const h = [1, , 3, , ]
h.reverse()
return [r === a, a, [].reverse(), h.length, 0 in h, 1 in h, 2 in h, h[1], h[3]]

// === reverse-array-like
const o = { length: 3, 0: "a", 2: "c", 5: "x" }
Array.prototype.reverse.call(o)
return JSON.stringify(o)

// === shift-unshift
const a = [1, 2, 3]
const r = [a.shift(), a.unshift(0, 0.5), a.length, String([].shift())]
return [r, a]

// === shift-unshift-holes
const a = [, 1, , 2]
const first = a.shift()
const b = [1, , 3]
b.unshift("x")
return [String(first), a.length, 0 in a, 1 in a, b.length, 2 in b, b[3]]

// === shift-array-like
const o = { length: 3, 0: "a", 1: "b" }
const v = Array.prototype.shift.call(o)
return [v, JSON.stringify(o)]

// === unshift-array-like
const o = { length: 2, 0: "a", 1: "b" }
const n = Array.prototype.unshift.call(o, "z")
return [n, JSON.stringify(o)]

// === shift-frozen-throws
try {
  Object.freeze([1, 2]).shift()
} catch (e) {
  return e.name
}

// === slice
const a = [1, 2, 3, 4, 5]
return [a.slice(), a.slice(2), a.slice(-2), a.slice(1, -1), a.slice(3, 1), a.slice(-10, 2), a.slice(1.5, 3.9), a.slice(NaN), a.slice(undefined, undefined)]

// === slice-holes-and-array-like
const r = [1, , 3, , 5].slice(1, 4)
const o = Array.prototype.slice.call({ length: 3, 0: "a", 2: "c" })
return [r.length, 0 in r, 1 in r, 2 in r, o.length, 1 in o, Array.isArray(o)]

// === slice-arguments
function f() { return Array.prototype.slice.call(arguments, 1) }
return f(1, 2, 3)

// === splice-basic
const a = [1, 2, 3, 4, 5]
const removed = a.splice(1, 2)
const b = [1, 2, 3]
const r2 = b.splice(1, 0, "x", "y")
const c = [1, 2, 3, 4]
const r3 = c.splice(-2)
const d = [1, 2, 3]
const r4 = d.splice()
const e = [1, 2, 3]
const r5 = e.splice(1, 1, "a", "b", "c")
return [removed, a, r2, b, r3, c, r4, d, r5, e]

// === splice-coercions
const a = [1, 2, 3, 4, 5]
const r = a.splice("1", "2")
const b = [1, 2, 3]
const r2 = b.splice(1, undefined)
const c = [1, 2, 3]
const r3 = c.splice(undefined)
const d = [1, 2, 3]
const r4 = d.splice(1, -5)
return [r, a, r2, b, r3, c, r4, d]

// === splice-holes
const a = [1, , 3, , 5]
const r = a.splice(1, 2, "x")
return [r.length, 0 in r, r[1], a.length, 0 in a, 1 in a, 2 in a, a[1]]

// === splice-array-like
const o = { length: 4, 0: "a", 1: "b", 2: "c", 3: "d" }
const r = Array.prototype.splice.call(o, 1, 2, "X")
return [r, JSON.stringify(o)]

// === splice-large-shift
const a = Array.from({ length: 2000 }, (_, i) => i)
a.splice(10, 1500, "x")
return [a.length, a[9], a[10], a[11], a[a.length - 1]]

// === toReversed-toSorted-toSpliced-with
const a = [3, 1, 2]
return [a.toReversed(), a.toSorted(), a.toSorted((x, y) => y - x), a.toSpliced(1, 1, "a", "b"), a.with(0, 9), a.with(-1, 9), a]

// === change-array-by-copy-holes
const a = [1, , 3]
return [a.toReversed().map(String), 1 in a.toReversed(), a.toSorted().map(String), a.toSpliced(0, 0).map(String), 1 in a.toSpliced(0, 0), a.with(0, 0).map(String)]

// === with-out-of-range-throws
const out = []
for (const i of [3, -4, Infinity]) {
  try {
    ;[1, 2, 3].with(i, 0)
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === toSorted-array-like
return Array.prototype.toSorted.call({ length: 3, 0: "b", 1: "a", 2: "c" })

// === sort-default-is-string-order
return [[10, 9, 1, 100, 25].sort(), ["b", "a", "C", "B"].sort(), [true, false, "s", 2].sort(), [-1, -2, 0, 3].sort()]

// === sort-numeric-comparator
return [[10, 9, 1, 100, 25].sort((a, b) => a - b), [10, 9, 1, 100, 25].sort((a, b) => b - a), [0.5, -1, 3e3, 2].sort((a, b) => a - b)]

// === sort-stable-objects
const people = [
  { n: "a", age: 30 }, { n: "b", age: 25 }, { n: "c", age: 30 }, { n: "d", age: 25 }, { n: "e", age: 30 },
  { n: "f", age: 20 }, { n: "g", age: 25 }, { n: "h", age: 30 }, { n: "i", age: 20 }, { n: "j", age: 25 },
  { n: "k", age: 30 }, { n: "l", age: 25 }, { n: "m", age: 30 }, { n: "n", age: 20 }, { n: "o", age: 25 },
]
return people.sort((x, y) => x.age - y.age).map((p) => p.n).join("")

// === sort-stable-large
const items = Array.from({ length: 500 }, (_, i) => ({ k: (i * 7919) % 13, i }))
items.sort((a, b) => a.k - b.k)
let stable = true
for (let i = 1; i < items.length; i++) {
  if (items[i - 1].k === items[i].k && items[i - 1].i > items[i].i) stable = false
}
return [stable, items[0].i, items[499].k, items.slice(0, 5).map((x) => x.i)]

// === sort-undefined-and-holes
const a = [3, undefined, , 1, undefined, , 2]
a.sort()
const b = ["b", undefined, "a"]
b.sort((x, y) => (x < y ? 1 : -1))
return [a.length, a.slice(0, 5).map(String), 5 in a, 6 in a, b.map(String)]

// === sort-comparator-never-sees-undefined
const seen = []
;[2, undefined, 1, undefined].sort((a, b) => { seen.push(typeof a, typeof b); return a - b })
return seen.every((t) => t === "number")

// === sort-comparator-returns-non-numbers
return [
  [3, 1, 2].sort(() => 0),
  [3, 1, 2].sort((a, b) => (a > b ? "1" : "-1")),
  [3, 1, 2].sort(() => NaN),
  [3, 1, 2].sort((a, b) => ({ valueOf() { return a - b } })),
]

// === sort-boolean-comparator-keeps-order
return [3, 1, 2].sort((a, b) => a > b)

// === sort-default-calls-toString
const o = (v) => ({ v, toString() { return String(v) } })
return [o(10), o(9), o(1)].sort().map((x) => x.v)

// === sort-comparator-throws
const a = [3, 2, 1]
try {
  a.sort(() => { throw new Error("cmp") })
} catch (e) {
  return [e.message, a.length]
}

// === sort-bad-comparator-throws
const out = []
for (const c of [null, 1, "x", {}]) {
  try {
    ;[2, 1].sort(c)
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === sort-array-like
const o = { length: 4, 0: "d", 1: "b", 3: "a", 9: "z" }
Array.prototype.sort.call(o)
return JSON.stringify(o)

// === sort-localeCompare-comparator
return ["b", "a", "c", "A"].sort((x, y) => x.localeCompare(y))

// === sort-strings-code-units
return ["\u{1F600}", "\uFFFF", "a", "Z", "é"].sort().map((s) => s.codePointAt(0))

// === sort-frozen-throws
try {
  Object.freeze([2, 1]).sort()
} catch (e) {
  return e.name
}

// === sort-symbols
const out = []
try {
  ;[Symbol("a"), 1].sort()
} catch (e) {
  out.push(e.name)
}
out.push([Symbol("only")].sort().length)
return out

// === toLocaleString
return [[1, "a", null, undefined, [2, 3]].toLocaleString(), [{ toLocaleString() { return "L" } }].toLocaleString(), [1234.5].toLocaleString()]

// === toString-and-fallback
const o = { length: 1, 0: "x", join: 5 }
return [[1, [2, 3]].toString(), Array.prototype.toString.call({ join() { return "J" } }), Array.prototype.toString.call(o), String([null])]

// === unscopables
const u = Array.prototype[Symbol.unscopables]
return [Object.getPrototypeOf(u), Object.keys(u), u.at, "map" in u]

// === property-lengths-and-names
const names = ["at", "concat", "copyWithin", "fill", "find", "flat", "flatMap", "includes", "indexOf", "join", "lastIndexOf", "map", "push", "reduce", "slice", "sort", "splice", "toSpliced", "unshift", "with"]
return names.map((n) => `${Array.prototype[n].name}/${Array.prototype[n].length}`)

// === prototype-property-order
return Object.getOwnPropertyNames(Array.prototype)

// === prototype-is-array
return [Array.isArray(Array.prototype), Array.prototype.length, Object.prototype.toString.call(Array.prototype)]

// === species-getter
class A extends Array {
  static get [Symbol.species]() { return Array }
}
const a = A.from([1, 2, 3])
return [a instanceof A, a.map((x) => x) instanceof A, a.filter(Boolean).constructor === Array, Array[Symbol.species] === Array]

// === length-assignment-truncates
const a = [1, 2, 3, 4]
a.length = 2
const b = [1]
b.length = 3
return [a, b.length, 1 in b, JSON.stringify(b)]

// === length-invalid-assignment-throws
try {
  const a = []
  a.length = -1
} catch (e) {
  return e.name
}

// === holes-in-operations
const a = [, "b", , "d"]
return [
  Object.keys(a),
  a.map((x) => x + "!").length,
  a.filter(() => true),
  a.indexOf(undefined),
  a.includes(undefined),
  a.findIndex((x) => x === undefined),
  a.join("-"),
  [...a].map(String),
]

// === holes-prototype-elements-visible
Array.prototype[1] = "proto"
try {
  const a = [0, , 2]
  return [a[1], a.indexOf("proto"), a.map((x) => x).length, a.join(), a.filter((x) => x === "proto").length]
} finally {
  delete Array.prototype[1]
}

// === getters-on-array-like
const log = []
const o = {
  length: 3,
  get 0() { log.push("get0"); return "a" },
  get 2() { log.push("get2"); return "c" },
}
const r = Array.prototype.map.call(o, (x) => x.toUpperCase())
return [log, r.length, 1 in r, r[2]]

// === length-getter-called-once
let n = 0
const o = { get length() { n++; return 2 }, 0: "a", 1: "b" }
Array.prototype.forEach.call(o, () => {})
Array.prototype.indexOf.call(o, "b")
return n

// === length-valueOf-coercion
const o = { length: { valueOf() { return 2 } }, 0: "x", 1: "y", 2: "z" }
return Array.prototype.slice.call(o)

// === generic-on-string-object
const s = new String("abc")
return [Array.prototype.join.call(s, "-"), Array.prototype.indexOf.call(s, "c"), Array.prototype.reverse.call("x").valueOf()]

// === generic-mutation-on-string-throws
try {
  Array.prototype.reverse.call("abc")
} catch (e) {
  return e.name
}

// === methods-on-null-throw
const out = []
for (const m of ["map", "forEach", "join", "slice", "push", "sort", "at", "includes"]) {
  try {
    Array.prototype[m].call(null, () => {})
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === methods-on-primitives
return [Array.prototype.map.call(5, (x) => x).length, Array.prototype.concat.call(1, 2).length, typeof Array.prototype.concat.call(1, 2)[0]]

// === spread-and-destructure-with-methods
const [first, ...rest] = [3, 1, 2].sort()
return [first, rest, Math.max(...[4, 9, 2])]

// === nested-callbacks
const grid = [[1, 2], [3, 4]]
return grid.map((row, i) => row.map((v, j) => v * (i + j))).flat().reduce((a, b) => a + b)

// === array-of-arrays-sort-by-key
const rows = [["b", 2], ["a", 2], ["c", 1], ["d", 3]]
return rows.sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))

// === group-count-pattern
const words = ["apple", "avocado", "banana", "blueberry", "cherry"]
const counts = words.reduce((acc, w) => { acc[w[0]] = (acc[w[0]] || 0) + 1; return acc }, {})
return counts

// === large-sparse-operations-fast
const a = new Array(1e6)
a[5] = 1
a[999999] = 2
let calls = 0
a.forEach(() => calls++)
return [calls, a.indexOf(2), a.lastIndexOf(1), a.filter(() => true), a.map((x) => x * 2).length, a.reduce((s, x) => s + x)]

// === fromAsync-basic
const r1 = await Array.fromAsync([1, Promise.resolve(2), 3])
const r2 = await Array.fromAsync({ length: 2, 0: Promise.resolve("a"), 1: "b" })
async function* gen() { yield 1; yield 2 }
const r3 = await Array.fromAsync(gen(), (x) => x * 10)
return [r1, r2, r3]

// === fromAsync-mapper-awaited
const r = await Array.fromAsync([1, 2], async (x, i) => x + i)
return r

// === fromAsync-rejections
const out = []
try {
  await Array.fromAsync([1, Promise.reject(new Error("bad"))])
} catch (e) {
  out.push(e.message)
}
try {
  await Array.fromAsync([1], 5)
} catch (e) {
  out.push(e.name)
}
const p = Array.fromAsync(null)
out.push(p instanceof Promise)
try {
  await p
} catch (e) {
  out.push(e.name)
}
return out

// === fromAsync-tick-order
const log = []
const p = Array.fromAsync([1, 2, 3]).then(() => log.push("done"))
const q = Array.fromAsync({ length: 2, 0: 1, 1: 2 }).then(() => log.push("arraylike"))
let chain = Promise.resolve()
for (let i = 1; i <= 10; i++) chain = chain.then(() => log.push(i))
await Promise.all([p, q, chain])
return log

// === fromAsync-closes-sync-iterator-on-rejection
let closed = false
const iterable = {
  [Symbol.iterator]() {
    return { next() { return { value: Promise.reject("no"), done: false } }, return() { closed = true; return {} } }
  },
}
const r = await Array.fromAsync(iterable).catch((e) => "rejected " + e)
return [r, closed]

// === fromAsync-async-iterator-closed-when-mapper-throws
let returned = false
const it = {
  [Symbol.asyncIterator]() {
    return {
      next() { return Promise.resolve({ value: 1, done: false }) },
      return() { returned = true; return Promise.resolve({ done: true }) },
    }
  },
}
const r = await Array.fromAsync(it, () => { throw new Error("map") }).catch((e) => e.message)
return [r, returned]

// === sort-comparator-call-sequence-small
const log = []
;[5, 1, 4, 2, 3, 9, 0].sort((a, b) => { log.push(`${a}${b}`); return a - b })
return log.join(" ")

// === sort-inconsistent-comparator-small-matches-v8
const a = Array.from({ length: 40 }, (_, i) => (i * 17) % 23)
a.sort((x, y) => ((x * 7 + y * 3) % 5) - 2)
return a

// === sort-descending-run-reversed
const log = []
const r = [9, 7, 5, 3, 1, 2].sort((a, b) => { log.push(a - b); return a - b })
return [r, log.length]

// === push-hits-prototype-setter
const log = []
Object.defineProperty(Array.prototype, "0", { set(v) { log.push("set " + v) }, get() { return "proto" }, configurable: true })
try {
  const a = []
  a.push("x")
  return [log, a.length, Object.keys(a), a[0]]
} finally {
  delete Array.prototype[0]
}

// === from-uses-patched-array-iterator
const ArrayIteratorProto = Object.getPrototypeOf([][Symbol.iterator]())
const original = ArrayIteratorProto.next
ArrayIteratorProto.next = function () {
  const r = original.call(this)
  if (!r.done) r.value = r.value * 100
  return r
}
try {
  return [Array.from([1, 2]), [...[3]]]
} finally {
  ArrayIteratorProto.next = original
}

// === from-uses-own-iterator-property
const a = [1, 2, 3]
a[Symbol.iterator] = function* () { yield "own" }
return Array.from(a)

// === forEach-length-zeroed-inside
const a = [1, 2, 3, 4]
const seen = []
a.forEach((x) => { seen.push(x); a.length = 0 })
return [seen, a.length]

// === sort-with-accessor-elements
const a = [3, 1, 2]
let reads = 0
Object.defineProperty(a, 1, { get() { reads++; return 10 }, set(v) { this._v = v }, configurable: true, enumerable: true })
a.sort((x, y) => x - y)
return [a[0], a[2], reads > 0, a._v]

// === splice-with-accessor-element
const a = [1, 2, 3, 4]
Object.defineProperty(a, 2, { get() { return "g" }, configurable: true, enumerable: true })
const removed = a.splice(1, 1)
return [removed, a.length, a[1], Object.getOwnPropertyDescriptor(a, 1).value]

// === concat-length-getter-on-spreadable
let reads = 0
const o = { [Symbol.isConcatSpreadable]: true, get length() { reads++; return 2 }, 0: "a", 1: "b" }
return [[].concat(o, o), reads]

// === copyWithin-frozen-throws
try {
  Object.freeze([1, 2, 3]).copyWithin(0, 1)
} catch (e) {
  return e.name
}

// === unshift-non-extensible-throws
const a = Object.preventExtensions([1, 2])
try {
  a.unshift(0)
} catch (e) {
  return [e.name, a.length]
}

// === pop-push-sealed-and-non-extensible
const out = []
const sealed = Object.seal([1, 2])
try {
  sealed.pop()
} catch (e) {
  out.push(e.name, sealed.length)
}
const fixed = Object.preventExtensions([1, 2])
out.push(fixed.pop(), fixed.length)
try {
  fixed.push(3)
} catch (e) {
  out.push(e.name, fixed.length)
}
return out

// === queue-pattern-push-shift
const q = []
const out = []
for (let i = 0; i < 50; i++) {
  q.push(i, i * 2)
  out.push(q.shift())
}
return [out.slice(-5), q.length, q.slice(0, 3)]

// === from-array-like-gains-elements-while-mapping
const src = { length: 6 }
const seen = []
const r = Array.from(src, (v, i) => {
  seen.push(v)
  if (i === 1) src[3] = "own"
  if (i === 2) Object.prototype[4] = "inherited"
  if (i === 4) Object.defineProperty(Object.prototype, 5, { get() { return "getter " + (this === src) }, configurable: true })
  return i
})
delete Object.prototype[4]
delete Object.prototype[5]
return [r, seen]

// === from-array-like-with-inherited-elements
const proto = { 1: "p" }
const src = Object.create(proto)
src.length = 3
const dict = { length: 3, x: 1 }
delete dict.x
dict[2] = "d"
return [Array.from(src, (v) => v), Array.from(dict), Array.prototype.map.call(src, (v) => v + "!")]

// === map-result-keeps-holes-when-source-shrinks
const a = [1, , 3, 4, 5]
const r = a.map((x, i) => { if (i === 2) a.length = 3; return x * 2 })
const frozen = Object.freeze([1, 2])
return [r.length, Object.keys(r), 1 in r, 3 in r, r, frozen.map((x) => x + 1), Array.from({ length: 3 }).length]

// === sort-and-toSorted-holes-and-undefined-with-comparator
const a = [3, undefined, , 1, , undefined, 2, , ]
const b = a.slice()
a.sort((x, y) => x - y)
const c = b.toSorted((x, y) => y - x)
return [a.length, Object.keys(a), a.map(String), c.length, Object.keys(c), c.map(String), b.length, Object.keys(b)]

// === sort-comparator-mutates-the-array
const shape = (a) => [a.length, Object.keys(a).join(), a.map(String).join()]
const deleting = [5, 3, 9, 1, 7, 2]
deleting.sort((x, y) => { delete deleting[0]; delete deleting[5]; return x - y })
const growing = [5, 3, 9, 1]
let pushed = 0
growing.sort((x, y) => { if (pushed++ < 2) growing.push(100 + pushed); return x - y })
const shrinking = [5, 3, 9, 1, 4]
shrinking.sort((x, y) => { shrinking.length = 2; return x - y })
const long = Array.from({ length: 300 }, (_, i) => (i * 37) % 101)
long.sort((x, y) => { if (x === 50) long.length = 400; return x - y })
return [shape(deleting), shape(growing), shape(shrinking), long.length, long.slice(0, 5), 350 in long]

// === filter-source-fills-its-holes-and-grows
const a = [1, 2, , , 5]
a.length = 8
const r = a.filter((x, i) => { if (i === 0) { a[3] = 4; a[6] = 7; a[7] = 8; a.push(9) } return x !== 2 })
class Keep extends Array {}
const k = Keep.from([1, 2, 3, 4]).filter((x) => x > 1)
return [r, r.length, Object.keys(r), a.length, k instanceof Keep, k.length, [...k], [].filter(() => true).length]
