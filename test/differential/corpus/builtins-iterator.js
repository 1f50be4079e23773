// The Iterator built-ins: the abstract Iterator constructor, Iterator.from, the helper methods (lazy map, filter,
// take, drop, flatMap and the eager reduce, toArray, forEach, some, every, find), closing of underlying
// iterators, the helper objects' generator-like state, and the accessors on Iterator.prototype.

// === iterator-constructor-abstract
const out = []
try {
  new Iterator()
} catch (e) {
  out.push(e.name)
}
try {
  Iterator()
} catch (e) {
  out.push(e.name)
}
class Count extends Iterator {
  constructor() { super(); this.n = 0 }
  next() { return this.n < 3 ? { value: this.n++, done: false } : { value: undefined, done: true } }
}
const c = new Count()
out.push(c instanceof Iterator, c.map((x) => x * 2).toArray())
return out

// === prototype-chain
const arrayIterProto = Object.getPrototypeOf([][Symbol.iterator]())
return [Object.getPrototypeOf(arrayIterProto) === Iterator.prototype, typeof Iterator.prototype[Symbol.iterator], Iterator.prototype[Symbol.iterator].call(5), Object.getPrototypeOf(Object.getPrototypeOf((function* () {})())) === Object.getPrototypeOf((function* () {}).prototype)]

// === map-filter-take-drop
const it = () => [1, 2, 3, 4, 5, 6].values()
return [it().map((x) => x * 10).toArray(), it().filter((x) => x % 2).toArray(), it().take(2).toArray(), it().drop(4).toArray(), it().drop(1).take(2).map((x, i) => [x, i]).toArray(), it().take(0).toArray(), it().drop(Infinity).toArray()]

// === flatMap
const r = ["a b", "c"].values().flatMap((s) => s.split(" ")).toArray()
const r2 = [1, 2].values().flatMap((x) => new Set([x, x * 10])).toArray()
const r3 = [1, 2].values().flatMap((x, i) => [[x, i]]).toArray()
return [r, r2, r3]

// === flatMap-rejects-strings
try {
  ;[1].values().flatMap(() => "ab").toArray()
} catch (e) {
  return e.name
}

// === eager-methods
const it = () => [1, 2, 3, 4].values()
return [it().reduce((a, b) => a + b), it().reduce((a, b) => a + b, 10), it().reduce((acc, x, i) => acc + i, ""), it().some((x) => x > 3), it().every((x) => x > 0), it().find((x) => x > 2), String(it().find((x) => x > 9)), it().toArray()]

// === forEach-counter
const seen = []
const r = ["a", "b"].values().forEach((v, i) => seen.push(v + i))
return [String(r), seen]

// === reduce-empty-throws
try {
  [].values().reduce((a, b) => a + b)
} catch (e) {
  return [e.name, e.message]
}

// === laziness-order
const log = []
const src = {
  i: 0,
  next() { log.push("next" + this.i); return this.i < 3 ? { value: this.i++, done: false } : { value: undefined, done: true } },
  __proto__: Iterator.prototype,
}
const mapped = src.map((x) => { log.push("map" + x); return x })
log.push("created")
const first = mapped.next()
log.push("got " + first.value)
return log

// === helper-result-shape-and-tag
const h = [1].values().map((x) => x)
const r = h.next()
return [Object.keys(r), r.value, r.done, Object.prototype.toString.call(h), h[Symbol.toStringTag], h[Symbol.iterator]() === h, Object.getOwnPropertyNames(Object.getPrototypeOf(h))]

// === helper-done-stays-done
const h = [1].values().filter(() => true)
return [h.next().value, h.next().done, h.next().done, String(h.next().value)]

// === take-closes-underlying
let closed = 0
const src = {
  next() { return { value: 1, done: false } },
  return() { closed++; return {} },
  __proto__: Iterator.prototype,
}
const r = src.take(2).toArray()
return [r, closed]

// === find-some-every-close
let closed = 0
const make = () => ({ i: 0, next() { return { value: this.i++, done: false } }, return() { closed++; return {} }, __proto__: Iterator.prototype })
const r = [make().find((x) => x === 3), make().some((x) => x > 2), make().every((x) => x < 2)]
return [r, closed]

// === return-closes-underlying
let closed = 0
const src = { next() { return { value: 1, done: false } }, return() { closed++; return {} }, __proto__: Iterator.prototype }
const h = src.map((x) => x)
const r1 = h.return()
const r2 = h.next()
const h2 = src.filter(() => true)
h2.next()
h2.return()
h2.return()
return [JSON.stringify(r1), JSON.stringify(r2), closed]

// === callback-throw-closes
let closed = 0
const src = { next() { return { value: 1, done: false } }, return() { closed++; return {} }, __proto__: Iterator.prototype }
const out = []
for (const make of [() => src.map(() => { throw new Error("m") }).next(), () => src.forEach(() => { throw new Error("f") }), () => src.reduce(() => { throw new Error("r") }, 0)]) {
  try {
    make()
  } catch (e) {
    out.push(e.message)
  }
}
return [out, closed]

// === argument-validation-closes
let closed = 0
const src = { next() { return { value: 1, done: false } }, return() { closed++; return {} }, __proto__: Iterator.prototype }
const out = []
for (const f of [() => src.map(1), () => src.take(-1), () => src.drop(NaN), () => src.forEach("x"), () => src.take("abc")]) {
  try {
    f()
  } catch (e) {
    out.push(e.name)
  }
}
return [out, closed]

// === already-running-throws
let h
h = [1, 2].values().map(() => h.next())
try {
  h.next()
} catch (e) {
  return [e.name, e.message]
}

// === non-object-this-throws
const out = []
for (const m of ["map", "toArray", "reduce", "take"]) {
  try {
    Iterator.prototype[m].call(1, () => {})
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === from-wraps-and-passes-through
const arrIt = [1, 2].values()
const plain = { i: 0, next() { return this.i < 2 ? { value: this.i++, done: false } : { done: true } } }
const wrapped = Iterator.from(plain)
return [Iterator.from(arrIt) === arrIt, wrapped instanceof Iterator, wrapped.map((x) => x + 1).toArray(), Iterator.from("ab").toArray(), Iterator.from({ [Symbol.iterator]: () => [7].values() }).toArray()]

// === from-wrapper-return
let returned = 0
const plain = { next() { return { value: 1, done: false } }, return() { returned++; return { done: true, value: "r" } } }
const w = Iterator.from(plain)
const r = w.return()
const noReturn = Iterator.from({ next() { return { done: true } } })
return [r, returned, JSON.stringify(noReturn.return())]

// === from-invalid-throws
const out = []
for (const v of [1, null, undefined, true]) {
  try {
    Iterator.from(v)
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === accessors-on-prototype
const d1 = Object.getOwnPropertyDescriptor(Iterator.prototype, Symbol.toStringTag)
const d2 = Object.getOwnPropertyDescriptor(Iterator.prototype, "constructor")
const o = Object.create(Iterator.prototype)
o[Symbol.toStringTag] = "Mine"
o.constructor = 5
const out = [typeof d1.get, typeof d1.set, typeof d2.get, Iterator.prototype.constructor === Iterator, String(o), o.constructor, Object.getOwnPropertyDescriptor(o, "constructor").enumerable]
try {
  Iterator.prototype.constructor = 1
} catch (e) {
  out.push(e.name)
}
return out

// === generators-with-helpers
function* nat() {
  let i = 0
  while (true) yield i++
}
return nat().filter((x) => x % 3 === 0).map((x) => x * x).drop(1).take(4).toArray()

// === generator-closed-by-take
let finalized = false
function* g() {
  try {
    yield 1
    yield 2
    yield 3
  } finally {
    finalized = true
  }
}
const r = g().take(1).toArray()
return [r, finalized]

// === map-set-iterators-with-helpers
const m = new Map([["a", 1], ["b", 2]])
return [m.entries().map(([k, v]) => k + v).toArray(), new Set([1, 2, 3]).values().filter((x) => x > 1).toArray(), m.keys().reduce((a, k) => a + k, "")]

// === property-lengths-and-names
const p = Iterator.prototype
return [Object.getOwnPropertyNames(p), ["map", "filter", "take", "drop", "flatMap", "reduce", "toArray", "forEach", "some", "every", "find"].map((n) => `${p[n].name}/${p[n].length}`), Iterator.from.length, Iterator.length]

// === string-iterator-helpers
return "héllo😀".split("")[Symbol.iterator]().filter((c) => c !== "l").toArray().length

// === drop-take-limit-coercion
const it = () => [1, 2, 3, 4].values()
return [it().take("2").toArray(), it().drop(1.9).toArray(), it().take({ valueOf() { return 1 } }).toArray(), it().drop(0).toArray()]

// === helper-next-wrong-this
const h = [1].values().map((x) => x)
const out = []
try {
  h.next.call({})
} catch (e) {
  out.push(e.name)
}
try {
  h.return.call([].values())
} catch (e) {
  out.push(e.name)
}
return out

// === flatMap-return-closes-inner-and-outer
const log = []
const inner = () => ({ next() { return { value: "i", done: false } }, return() { log.push("inner"); return {} }, [Symbol.iterator]() { return this } })
const outer = { next() { return { value: 1, done: false } }, return() { log.push("outer"); return {} }, __proto__: Iterator.prototype }
const h = outer.flatMap(inner)
h.next()
h.return()
return log
