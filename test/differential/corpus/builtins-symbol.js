// Symbol: the function (no `new`), descriptions, the global registry, well-known symbols, Symbol.prototype, and
// conversions that must throw.

// === symbol-basic
const a = Symbol("x")
const b = Symbol("x")
return [typeof a, a === b, a.toString(), String(b), a.description, Symbol().description === undefined, Symbol("").description]

// === symbol-description-coercion
return [Symbol(1).description, Symbol(null).description, Symbol({ toString: () => "obj" }).description, Symbol(undefined).toString()]

// === symbol-new-throws
try {
  new Symbol()
} catch (e) {
  return [e.name, e.message]
}

// === symbol-for-registry
const a = Symbol.for("app")
const b = Symbol.for("app")
return [a === b, Symbol.keyFor(a), String(Symbol.keyFor(Symbol("app"))), a.description, Symbol.for().description, Symbol.keyFor(Symbol.for(undefined)), String(Symbol.keyFor(Symbol.iterator))]

// === symbol-key-for-non-symbol
try {
  Symbol.keyFor("app")
} catch (e) {
  return [e.name, e.message]
}

// === well-known-symbols
const names = ["asyncIterator", "hasInstance", "isConcatSpreadable", "iterator", "match", "matchAll", "replace", "search", "species", "split", "toPrimitive", "toStringTag", "unscopables"]
return names.map((n) => {
  const d = Object.getOwnPropertyDescriptor(Symbol, n)
  return [n, typeof Symbol[n], Symbol[n].description, d.writable, d.enumerable, d.configurable]
})

// === symbol-as-property-key
const s = Symbol("k")
const o = { [s]: 1, regular: 2 }
return [o[s], Object.keys(o), JSON.stringify(o), s in o, Object.getOwnPropertySymbols(o).length, Reflect.ownKeys(o).length]

// === symbol-to-string-tag-and-primitive
const s = Symbol("t")
const d = Object.getOwnPropertyDescriptor(Symbol.prototype, Symbol.toPrimitive)
return [Object.prototype.toString.call(s), Symbol.prototype[Symbol.toStringTag], s[Symbol.toPrimitive]() === s, d.writable, d.configurable, Symbol.prototype[Symbol.toPrimitive].name]

// === symbol-conversions-throw
const s = Symbol("c")
const out = []
for (const f of [() => s + "", () => `${s}`, () => +s, () => s * 2, () => String(s), () => s.toString(), () => !!s]) {
  try {
    out.push(String(f()))
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === symbol-wrapper-object
const s = Symbol("w")
const o = Object(s)
return [typeof o, o.valueOf() === s, o.description, o.toString(), o == s, Object.prototype.toString.call(o), o instanceof Symbol]

// === symbol-prototype-methods-bad-this
const out = []
for (const f of [() => Symbol.prototype.toString.call("x"), () => Symbol.prototype.valueOf.call({}), () => Object.getOwnPropertyDescriptor(Symbol.prototype, "description").get.call(1)]) {
  try {
    f()
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === symbol-function-shape
return [Symbol.length, Symbol.name, typeof Symbol.prototype, Symbol.prototype.constructor === Symbol, Object.getOwnPropertyNames(Symbol.prototype).sort(), Symbol.for.length, Symbol.keyFor.length]

// === symbol-in-collections
const s = Symbol("m")
const m = new Map([[s, 1]])
const set = new Set([s, s])
return [m.get(s), set.size, [s].includes(s), [s].indexOf(s)]

// === symbol-iterator-protocol
const o = {
  *[Symbol.iterator]() {
    yield 1
    yield 2
  },
}
return [...o]

// === symbol-to-primitive-custom
const money = {
  [Symbol.toPrimitive](hint) {
    return hint === "number" ? 42 : hint === "string" ? "forty-two" : "default"
  },
}
return [+money, `${money}`, money + "", money * 2]

// === symbol-is-concat-spreadable
const arrayLike = { length: 2, 0: "a", 1: "b", [Symbol.isConcatSpreadable]: true }
const arr = [1, 2]
arr[Symbol.isConcatSpreadable] = false
return [[0].concat(arrayLike), [0].concat(arr).length]

// === symbol-description-getter-shape
const d = Object.getOwnPropertyDescriptor(Symbol.prototype, "description")
return [typeof d.get, String(d.set), d.enumerable, d.configurable, d.get.name]

// === symbol-unique-keys-in-object
const a = Symbol("same")
const b = Symbol("same")
const o = { [a]: 1, [b]: 2 }
return Object.getOwnPropertySymbols(o).map((s) => o[s])

// === symbol-registry-string-keys
const k = Symbol.for(123)
return [Symbol.keyFor(k), typeof Symbol.keyFor(k), Symbol.for("123") === k]
