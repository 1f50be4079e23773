// Symbols and the well-known symbols that hook into the language: Symbol.iterator, asyncIterator, toPrimitive,
// hasInstance, toStringTag, species, isConcatSpreadable; symbol identity, descriptions and registry.

// === symbol-identity-and-description
const a = Symbol("d")
const b = Symbol("d")
return [a === b, a.description, Symbol().description === undefined, a.toString(), typeof a]

// === symbol-registry
const a = Symbol.for("app.key")
const b = Symbol.for("app.key")
return [a === b, Symbol.keyFor(a), Symbol.keyFor(Symbol("local")) === undefined, a === Symbol("app.key")]

// === symbol-not-constructor
try {
  new Symbol()
  return "constructed"
} catch (e) {
  return e.name
}

// === symbol-as-property-key
const s = Symbol("secret")
const o = { visible: 1, [s]: 2 }
return [o[s], Object.keys(o), JSON.stringify(o), Object.getOwnPropertySymbols(o).length, s in o]

// === symbol-implicit-string-conversion-throws
const s = Symbol("x")
const out = []
for (const f of [() => s + "", () => `${s}`, () => s * 1]) {
  try {
    f()
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
out.push(String(s), s.description)
return out

// === symbol-iterator-custom
class Range {
  constructor(n) { this.n = n }
  *[Symbol.iterator]() {
    for (let i = 0; i < this.n; i++) yield i
  }
}
const r = new Range(3)
const [a, b] = r
return [[...r], a, b, Array.from(r)]

// === symbol-iterator-on-builtins
const it = [1, 2][Symbol.iterator]()
const sit = "ab"[Symbol.iterator]()
return [it.next().value, it.next().value, it.next().done, sit.next().value, typeof Map.prototype[Symbol.iterator]]

// === symbol-iterator-non-callable-throws
const o = { [Symbol.iterator]: 5 }
try {
  return [...o]
} catch (e) {
  return e.name
}

// === symbol-async-iterator
const src = {
  async *[Symbol.asyncIterator]() {
    yield "x"
    yield "y"
  },
}
const out = []
for await (const v of src) out.push(v)
return out

// === symbol-async-iterator-preferred-over-iterator
const src = {
  *[Symbol.iterator]() { yield "sync" },
  async *[Symbol.asyncIterator]() { yield "async" },
}
const out = []
for await (const v of src) out.push(v)
for (const v of src) out.push(v)
return out

// === to-primitive-hints
const hints = []
const o = {
  [Symbol.toPrimitive](hint) {
    hints.push(hint)
    return hint === "number" ? 42 : hint === "string" ? "str" : "default"
  },
}
return [+o, `${o}`, o + "", o * 2, o == "default", String(o), [o] + "", hints]

// === to-primitive-overrides-valueof
const o = {
  [Symbol.toPrimitive]() { return 1 },
  valueOf() { return 2 },
  toString() { return "3" },
}
return [o + 0, `${o}`, o > 0.5]

// === to-primitive-returning-object-throws
const o = { [Symbol.toPrimitive]() { return {} } }
try {
  return o + 1
} catch (e) {
  return e.name
}

// === ordinary-to-primitive-both-objects-throws
const o = { valueOf() { return {} }, toString() { return {} } }
try {
  return `${o}`
} catch (e) {
  return e.name
}

// === has-instance
class Odd {
  static [Symbol.hasInstance](x) { return typeof x === "number" && x % 2 === 1 }
}
const Duck = { [Symbol.hasInstance]: (o) => typeof o.quack === "function" }
return [1 instanceof Odd, 2 instanceof Odd, { quack() {} } instanceof Duck, {} instanceof Duck]

// === has-instance-result-coerced
const Truthy = { [Symbol.hasInstance]: () => "yes" }
const Falsy = { [Symbol.hasInstance]: () => 0 }
return [null instanceof Truthy, {} instanceof Falsy]

// === to-string-tag
class Custom {
  get [Symbol.toStringTag]() { return "CustomTag" }
}
const o = { [Symbol.toStringTag]: "Literal" }
return [Object.prototype.toString.call(new Custom()), String(o), Object.prototype.toString.call([]), Object.prototype.toString.call(null), Object.prototype.toString.call(function* () {}())]

// === to-string-tag-builtins
return [Map.prototype[Symbol.toStringTag], Promise.prototype[Symbol.toStringTag], Symbol.prototype[Symbol.toStringTag], Object.prototype.toString.call(Promise.resolve())]

// === species-for-array-subclass
class MyArray extends Array {
  static get [Symbol.species]() { return Array }
}
const m = MyArray.from([1, 2, 3])
const mapped = m.map((x) => x)
const filtered = m.filter(Boolean)
return [m instanceof MyArray, mapped instanceof MyArray, mapped instanceof Array, filtered instanceof MyArray]

// === species-for-promise-subclass
class P extends Promise {
  static get [Symbol.species]() { return Promise }
}
const p = P.resolve(1)
const t = p.then((x) => x)
return [p instanceof P, t instanceof P, t instanceof Promise, await t]

// === is-concat-spreadable
const arrayLike = { length: 2, 0: "a", 1: "b", [Symbol.isConcatSpreadable]: true }
const arr = [3, 4]
arr[Symbol.isConcatSpreadable] = false
const r = [1, 2].concat(arrayLike, arr)
return [r.length, r[2], r[3], Array.isArray(r[4])]

// === well-known-symbols-are-symbols
return [Symbol.iterator, Symbol.asyncIterator, Symbol.hasInstance, Symbol.toPrimitive, Symbol.toStringTag, Symbol.species].map((s) => [typeof s, s.description])

// === symbol-property-enumeration
const s = Symbol("s")
const o = { a: 1, [s]: 2 }
const forIn = []
for (const k in o) forIn.push(k)
return [forIn, Object.entries(o), Reflect.ownKeys(o).length, Object.assign({}, o)[s]]

// === symbol-wrapper-object
const s = Symbol("w")
const w = Object(s)
return [typeof w, w instanceof Symbol, w.valueOf() === s, w.description]

// === symbol-as-weakmap-key-not-needed-map-key
const s = Symbol("k")
const m = new Map([[s, "v"]])
return [m.get(s), m.has(Symbol("k"))]

// === symbol-description-on-registry
const r = Symbol.for("shared")
return [r.description, r.toString(), Symbol.for().description]

// === iterator-return-called-on-destructure-short
const log = []
const src = {
  [Symbol.iterator]() {
    return {
      next() { log.push("next"); return { value: 1, done: false } },
      return() { log.push("return"); return { done: true } },
    }
  },
}
const [x] = src
return [x, log]
