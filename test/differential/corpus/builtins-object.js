// Object constructor, statics and Object.prototype: property order, descriptors, integrity levels, prototypes,
// toString tags, legacy accessors, and the errors V8 throws for bad arguments.

// === object-constructor-forms
const o = {}
return [typeof Object(), Object(o) === o, typeof Object(1), Object(null) !== null, typeof new Object("s"), Object("ab").length]

// === object-keys-order
const o = { b: 1, 2: "two", a: 2, 1: "one", [Symbol("s")]: 3, "-1": 4, "01": 5 }
return Object.keys(o)

// === object-keys-array-and-string
return [Object.keys([5, 6, , 8]), Object.keys("hey"), Object.keys(42), Object.values("ab"), Object.entries([7])]

// === object-keys-null-throws
return Object.keys(null)

// === object-values-entries
const o = { x: 1, y: [2], z: "3" }
Object.defineProperty(o, "hidden", { value: 9, enumerable: false })
return [Object.values(o), Object.entries(o)]

// === object-entries-getter-order
const log = []
const o = {
  get a() {
    log.push("a")
    return 1
  },
  get b() {
    log.push("b")
    delete this.c
    return 2
  },
  c: 3,
}
return [Object.entries(o), log]

// === object-assign-basic
const target = { a: 1 }
const r = Object.assign(target, { b: 2 }, null, undefined, { a: 3, c: [4] }, "xy")
return [r === target, r]

// === object-assign-getters-setters
const log = []
const target = {
  set v(x) {
    log.push("set " + x)
  },
}
const src = {
  get v() {
    log.push("get")
    return 42
  },
}
Object.assign(target, src)
return log

// === object-assign-symbols-and-nonenumerable
const s = Symbol("k")
const src = { [s]: 1, a: 2 }
Object.defineProperty(src, "h", { value: 3, enumerable: false })
const t = Object.assign({}, src)
return [t[s], t.a, "h" in t, Object.getOwnPropertySymbols(t).length]

// === object-assign-readonly-target-throws
const t = Object.freeze({ a: 1 })
try {
  Object.assign(t, { a: 2 })
  return "no throw"
} catch (e) {
  return [e.name, t.a]
}

// === object-assign-null-target
return Object.assign(null, {})

// === object-create-with-properties
const proto = { greet() { return "hi " + this.name } }
const o = Object.create(proto, { name: { value: "ann", enumerable: true }, hidden: { value: 1 } })
return [o.greet(), Object.keys(o), Object.getPrototypeOf(o) === proto, Object.getOwnPropertyDescriptor(o, "hidden")]

// === object-create-null
const o = Object.create(null)
o.x = 1
return [Object.getPrototypeOf(o), "toString" in o, Object.keys(o)]

// === object-create-bad-proto
try {
  Object.create(5)
} catch (e) {
  return [e.name, e.message]
}

// === define-property-defaults
const o = {}
Object.defineProperty(o, "x", { value: 1 })
return Object.getOwnPropertyDescriptor(o, "x")

// === define-property-accessor
const o = {}
let store = 0
Object.defineProperty(o, "v", {
  get() {
    return store * 2
  },
  set(x) {
    store = x
  },
  enumerable: true,
  configurable: true,
})
o.v = 5
const d = Object.getOwnPropertyDescriptor(o, "v")
return [o.v, typeof d.get, typeof d.set, d.enumerable, d.configurable, "value" in d]

// === define-property-redefine-nonconfigurable
const o = {}
Object.defineProperty(o, "x", { value: 1 })
const results = []
try {
  Object.defineProperty(o, "x", { value: 2 })
} catch (e) {
  results.push(e.name, e.message)
}
Object.defineProperty(o, "x", { value: 1 })
results.push(o.x)
return results

// === define-property-writable-to-readonly
const o = {}
Object.defineProperty(o, "x", { value: 1, writable: true })
Object.defineProperty(o, "x", { value: 2, writable: false })
try {
  Object.defineProperty(o, "x", { writable: true })
} catch (e) {
  return [o.x, e.name]
}

// === define-property-non-object
return Object.defineProperty(1, "x", { value: 1 })

// === define-property-bad-descriptor
try {
  Object.defineProperty({}, "x", { get() {}, value: 1 })
} catch (e) {
  return e.name
}

// === define-property-getter-not-function
return Object.defineProperty({}, "x", { get: 5 })

// === define-property-key-coercion
const o = {}
const key = { toString: () => "fromObj" }
Object.defineProperty(o, key, { value: 1, enumerable: true })
Object.defineProperty(o, 7, { value: 2, enumerable: true })
return Object.keys(o)

// === define-property-array-length
const a = [1, 2, 3, 4]
Object.defineProperty(a, "length", { value: 2 })
const r = [a.length, a]
Object.defineProperty(a, "length", { writable: false })
try {
  "use strict"
  a.push(9)
} catch (e) {
  r.push(e.name)
}
return r

// === define-property-array-length-invalid
try {
  Object.defineProperty([], "length", { value: -1 })
} catch (e) {
  return e.name
}

// === define-properties
const o = Object.defineProperties({}, { a: { value: 1, enumerable: true }, b: { get: () => 2, enumerable: true } })
return [o.a, o.b, Object.keys(o)]

// === define-properties-bad
try {
  Object.defineProperties({}, { a: 5 })
} catch (e) {
  return [e.name, e.message]
}

// === get-own-property-descriptor-primitive
return [Object.getOwnPropertyDescriptor("abc", 1), Object.getOwnPropertyDescriptor("abc", "length"), Object.getOwnPropertyDescriptor({}, "x") === undefined]

// === get-own-property-descriptors
const o = { a: 1, get b() { return 2 } }
const d = Object.getOwnPropertyDescriptors(o)
return [Object.keys(d), d.a, typeof d.b.get, d.b.set === undefined]

// === get-own-property-names
const o = { b: 1, a: 2, 10: 0, 2: 0 }
Object.defineProperty(o, "z", { value: 1 })
return [Object.getOwnPropertyNames(o), Object.getOwnPropertyNames([1, 2]), Object.getOwnPropertyNames("hi")]

// === get-own-property-symbols
const a = Symbol("a")
const b = Symbol.for("b")
const o = { [b]: 1, x: 2, [a]: 3 }
return Object.getOwnPropertySymbols(o).map(String)

// === get-prototype-of-primitives
return [
  Object.getPrototypeOf(1) === Number.prototype,
  Object.getPrototypeOf("s") === String.prototype,
  Object.getPrototypeOf(true) === Boolean.prototype,
  Object.getPrototypeOf(Object.prototype),
  Object.getPrototypeOf(function () {}) === Function.prototype,
]

// === get-prototype-of-undefined
return Object.getPrototypeOf(undefined)

// === set-prototype-of
const proto = { hello() { return "hello" } }
const o = Object.setPrototypeOf({}, proto)
return [o.hello(), Object.setPrototypeOf(1, null), Object.getPrototypeOf(Object.setPrototypeOf({}, null))]

// === set-prototype-of-cycle
const a = {}
const b = Object.create(a)
try {
  Object.setPrototypeOf(a, b)
} catch (e) {
  return [e.name, e.message]
}

// === set-prototype-of-non-extensible
const o = Object.preventExtensions({})
const r = [Object.setPrototypeOf(o, Object.prototype) === o]
try {
  Object.setPrototypeOf(o, {})
} catch (e) {
  r.push(e.name)
}
return r

// === set-prototype-of-bad-proto
return Object.setPrototypeOf({}, 5)

// === freeze-basics
const o = Object.freeze({ a: 1, nested: { b: 2 } })
o.a = 5
o.c = 1
o.nested.b = 3
delete o.a
return [o, Object.isFrozen(o), Object.isFrozen(o.nested), Object.isSealed(o), Object.isExtensible(o)]

// === freeze-strict-assignment-throws
"use strict"
const o = Object.freeze({ a: 1 })
const out = []
try {
  o.a = 2
} catch (e) {
  out.push(e.name)
}
try {
  o.b = 2
} catch (e) {
  out.push(e.name)
}
try {
  delete o.a
} catch (e) {
  out.push(e.name)
}
return out

// === freeze-array
const a = Object.freeze([1, 2, 3])
const out = [Object.isFrozen(a)]
for (const f of [() => a.push(4), () => a.pop(), () => { a[0] = 9 }, () => a.sort()]) {
  try {
    f()
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
out.push(a)
return out

// === freeze-primitives
return [Object.freeze(1), Object.freeze("s"), Object.isFrozen(1), Object.isSealed("x"), Object.isExtensible(1), Object.preventExtensions(2)]

// === seal-basics
const o = Object.seal({ a: 1 })
o.a = 2
o.b = 3
delete o.a
return [o, Object.isSealed(o), Object.isFrozen(o), Object.getOwnPropertyDescriptor(o, "a")]

// === prevent-extensions
const o = Object.preventExtensions({ a: 1 })
o.b = 2
delete o.a
return [o, Object.isExtensible(o), Object.isSealed(o), Object.isFrozen(o)]

// === is-frozen-empty-non-extensible
return [Object.isFrozen(Object.preventExtensions({})), Object.isSealed(Object.preventExtensions({})), Object.isFrozen(Object.preventExtensions({ a: 1 }))]

// === object-is
return [Object.is(NaN, NaN), Object.is(0, -0), Object.is(-0, -0), Object.is("a", "a"), Object.is({}, {}), Object.is(null, undefined), Object.is()]

// === has-own
const o = Object.create({ inherited: 1 })
o.own = 2
return [Object.hasOwn(o, "own"), Object.hasOwn(o, "inherited"), Object.hasOwn("abc", 1), Object.hasOwn([1], "length"), Object.hasOwn(o, { toString: () => "own" })]

// === has-own-null
return Object.hasOwn(null, "x")

// === from-entries-basic
return [Object.fromEntries([["a", 1], ["b", [2]]]), Object.fromEntries(new Map([["m", 1]])), Object.fromEntries([])]

// === from-entries-key-coercion
const o = Object.fromEntries([[1, "one"], [{ toString: () => "obj" }, 2], [true, 3]])
return Object.keys(o)

// === from-entries-bad-entry
try {
  Object.fromEntries([1])
} catch (e) {
  return [e.name, e.message]
}

// === from-entries-not-iterable
return Object.fromEntries(5)

// === from-entries-closes-iterator
const log = []
const iterable = {
  [Symbol.iterator]() {
    let i = 0
    return {
      next() {
        i++
        return i === 1 ? { value: ["a", 1], done: false } : { value: "bad", done: false }
      },
      return() {
        log.push("closed")
        return {}
      },
    }
  },
}
try {
  Object.fromEntries(iterable)
} catch (e) {
  log.push(e.name)
}
return log

// === group-by
const g = Object.groupBy([1, 2, 3, 4, 5, 6], (n, i) => (n % 3 === 0 ? "fizz" : i < 2 ? "early" : "late"))
return [Object.getPrototypeOf(g), Object.keys(g), { ...g }]

// === group-by-string-and-keys
const g = Object.groupBy("hello", (c) => c)
const g2 = Object.groupBy([1.5, 2.5], (n) => n)
return [{ ...g }, Object.keys(g2)]

// === group-by-callback-throws
try {
  Object.groupBy([1], () => {
    throw new RangeError("cb")
  })
} catch (e) {
  return e.name
}

// === group-by-not-callable
return Object.groupBy([1], 5)

// === has-own-property-proto
const o = { a: 1 }
return [o.hasOwnProperty("a"), o.hasOwnProperty("toString"), Object.prototype.hasOwnProperty.call([1], 0), Object.prototype.hasOwnProperty.call("ab", "length")]

// === has-own-property-on-null
return Object.prototype.hasOwnProperty.call(null, "a")

// === is-prototype-of
const A = { }
const b = Object.create(A)
const c = Object.create(b)
return [A.isPrototypeOf(c), b.isPrototypeOf(A), Object.prototype.isPrototypeOf(c), Object.prototype.isPrototypeOf(1), Array.prototype.isPrototypeOf([])]

// === property-is-enumerable
const o = { a: 1 }
Object.defineProperty(o, "b", { value: 2 })
return [o.propertyIsEnumerable("a"), o.propertyIsEnumerable("b"), o.propertyIsEnumerable("toString"), [1].propertyIsEnumerable(0), [1].propertyIsEnumerable("length")]

// === to-string-tags
const ts = Object.prototype.toString
return [
  ts.call(undefined),
  ts.call(null),
  ts.call(1),
  ts.call("s"),
  ts.call(true),
  ts.call([]),
  ts.call({}),
  ts.call(() => {}),
  ts.call(new Error("x")),
  ts.call(new TypeError("x")),
  ts.call(new Date(0)),
  ts.call(/x/),
  ts.call(Symbol("q")),
  ts.call(10n),
  ts.call(new Map()),
  ts.call(new Set()),
  ts.call(Promise.resolve()),
  ts.call(JSON),
  ts.call(Math),
  ts.call(function* () {}),
  ts.call(async () => {}),
]

// === to-string-arguments
function f() {
  return Object.prototype.toString.call(arguments)
}
return f(1, 2)

// === to-string-custom-tag
class Money {
  get [Symbol.toStringTag]() {
    return "Money"
  }
}
const o = { [Symbol.toStringTag]: "Custom" }
const bad = { [Symbol.toStringTag]: 42 }
return [String(new Money()), `${o}`, Object.prototype.toString.call(bad), Object.prototype.toString.call(Object.assign([], { [Symbol.toStringTag]: "Arr" }))]

// === to-locale-string
const o = { toString() { return "custom" } }
return [o.toLocaleString(), {}.toLocaleString(), [1, "a"].toLocaleString === Array.prototype.toLocaleString]

// === value-of
const o = {}
return [o.valueOf() === o, typeof Object.prototype.valueOf.call(5), Object.prototype.valueOf.call("s") instanceof String]

// === value-of-null
return Object.prototype.valueOf.call(null)

// === proto-accessor
const o = { a: 1 }
const p = { b: 2 }
o.__proto__ = p
const r = [o.b, o.__proto__ === p, Object.getPrototypeOf(o) === p]
o.__proto__ = 5
r.push(Object.getPrototypeOf(o) === p)
const lit = { __proto__: null, x: 1 }
r.push(Object.getPrototypeOf(lit))
const desc = Object.getOwnPropertyDescriptor(Object.prototype, "__proto__")
r.push(typeof desc.get, typeof desc.set, desc.enumerable)
return r

// === proto-accessor-cycle
const a = {}
const b = { __proto__: a }
try {
  a.__proto__ = b
} catch (e) {
  return [e.name, e.message]
}

// === define-getter-legacy
const o = {}
o.__defineGetter__("x", () => 7)
o.__defineSetter__("y", function (v) {
  this.stored = v
})
o.y = 3
return [o.x, o.stored, typeof o.__lookupGetter__("x"), String(o.__lookupSetter__("x")), typeof Object.prototype.__lookupGetter__("__proto__"), Object.keys(o)]

// === object-prototype-own-names
return Object.getOwnPropertyNames(Object.prototype).sort()

// === object-statics-names
return Object.getOwnPropertyNames(Object).sort()

// === object-method-lengths
return ["assign", "create", "defineProperty", "defineProperties", "entries", "freeze", "fromEntries", "getOwnPropertyDescriptor", "groupBy", "hasOwn", "is", "keys", "setPrototypeOf"].map((k) => `${k}:${Object[k].length}`)

// === object-constructor-subclass
class Box extends Object {
  constructor(v) {
    super()
    this.v = v
  }
}
const b = new Box(3)
return [b.v, b instanceof Box, b instanceof Object, Object.getPrototypeOf(b) === Box.prototype]

// === keys-after-delete-and-readd
const o = { a: 1, b: 2, c: 3 }
delete o.a
o.a = 4
o[0] = "zero"
return [Object.keys(o), JSON.stringify(o)]

// === spread-vs-assign-getter
let calls = 0
const src = {
  get g() {
    calls++
    return calls
  },
}
const a = { ...src }
const b = Object.assign({}, src)
return [a.g, b.g, calls, Object.getOwnPropertyDescriptor(a, "g").value]

// === entries-large-object
const o = {}
for (let i = 0; i < 200; i++) o["k" + (i % 50)] = i
return [Object.keys(o).length, Object.values(o).reduce((s, v) => s + v, 0)]

// === integrity-sealed-array-length
const a = Object.seal([1, 2])
a[0] = 10
const r = []
try {
  a.push(3)
} catch (e) {
  r.push(e.name)
}
try {
  a.length = 0
} catch (e) {
  r.push(e.name)
}
return [a, r, Object.isSealed(a)]
