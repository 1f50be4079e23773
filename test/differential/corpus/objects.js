// Objects: literals (shorthand, computed keys, accessors, __proto__), property attributes through
// Object.defineProperty, freeze/seal/preventExtensions, prototypes (create/get/setPrototypeOf), property
// enumeration order, and JSON.stringify/parse basics.

// === literal-shorthand-and-computed
const a = 1
const k = "key"
const o = { a, [k]: 2, [`${k}2`]: 3, [1 + 1]: "two", "quoted key": 4, 3.5: "num" }
return o

// === literal-duplicate-keys-last-wins
const o = { a: 1, b: 2, a: 3 }
return [o, Object.keys(o)]

// === literal-getter-setter
const o = {
  _v: 1,
  get v() { return this._v * 10 },
  set v(x) { this._v = x },
}
o.v = 5
return [o.v, o._v, Object.keys(o)]

// === literal-getter-only-assignment-strict-throws
const o = { get g() { return 1 } }
class C {
  static write(obj) {
    try {
      obj.g = 2
      return "written"
    } catch (e) {
      return e.name
    }
  }
}
return [C.write(o), o.g]

// === literal-proto-key
const proto = { inherited: true }
const o = { __proto__: proto, own: 1 }
const p = { ["__proto__"]: "just a key" }
return [o.inherited, Object.getPrototypeOf(o) === proto, Object.keys(o), Object.keys(p), Object.getPrototypeOf(p) === Object.prototype]

// === literal-fields-then-the-rest
// Leading plain fields are made at once; what follows (a repeat, a spread, a computed key, a method, __proto__)
// is added to that object one by one.
const proto = { inherited: "yes" }
const src = { s1: 1, a: "from spread" }
const k = "computed"
const a = { a: 1, b: 2, a: 3, c: 4 }
const b = { a: 1, b: 2, ...src, [k]: 5, c: 6 }
const c = { x: 1, y: 2, __proto__: proto, z: 3 }
const d = { x: 1, m() { return this.x }, y: 2 }
const e = { __proto__, w: 1 }
var __proto__ = "shorthand is a plain key"
return [a, Object.keys(a), b, Object.keys(b), Object.keys(c), c.inherited, d.m(), Object.keys(d), e, Object.keys(e), Object.getPrototypeOf(e) === Object.prototype]

// === literal-fields-many-keys
// Past four keys the values leave the object for an array; past thirty-two the object becomes a dictionary.
const make = (i) => ({ k0: i, k1: i + 1, k2: i + 2, k3: i + 3, k4: i + 4, k5: i + 5 })
const small = make(0)
small.k6 = "added"
small.k7 = "added too"
delete small.k2
const big = {}
const keys = []
for (let i = 0; i < 40; i++) keys.push("p" + i)
const literal40 = { p0: 0, p1: 1, p2: 2, p3: 3, p4: 4, p5: 5, p6: 6, p7: 7, p8: 8, p9: 9, p10: 10, p11: 11, p12: 12, p13: 13, p14: 14, p15: 15, p16: 16, p17: 17, p18: 18, p19: 19, p20: 20, p21: 21, p22: 22, p23: 23, p24: 24, p25: 25, p26: 26, p27: 27, p28: 28, p29: 29, p30: 30, p31: 31, p32: 32, p33: 33, p34: 34, p35: 35, p36: 36, p37: 37, p38: 38, p39: 39 }
for (const key of keys) big[key] = literal40[key]
return [small, Object.keys(small), make(10), JSON.stringify(literal40) === JSON.stringify(big), Object.keys(literal40).length, literal40.p39, literal40.p31, literal40.p32]

// === literal-fields-attributes-and-order
// A literal's fields are plain writable, enumerable, configurable data properties, in source order (indices first).
const o = { b: 1, 2: "two", a: undefined, 1: "one", "x y": [1], nested: { in: { deep: true } } }
Object.defineProperty(o, "b", { writable: false })
o.b = 5
const fn = { f: function () {}, g: () => 1, h: class {} }
return [Object.keys(o), o.b, Object.getOwnPropertyDescriptor(o, "a"), Object.getOwnPropertyDescriptor(o, "b"), fn.f.name, fn.g.name, fn.h.name, Object.isFrozen(Object.freeze({ p: 1, q: 2 }))]

// === literal-fields-value-throws-or-awaits
// The object is made once all leading values are known: a value that throws leaves nothing behind, one that awaits
// keeps the ones before it.
let made = 0
const count = () => ++made
let caught
try {
  const o = { a: count(), b: count(), c: (() => { throw new Error("mid-literal") })(), d: count() }
  caught = o
} catch (e) {
  caught = e.message
}
const later = { a: count(), b: await Promise.resolve(count()), c: count() }
return [caught, made, later]

// === literal-method-and-computed-accessor
const name = "dyn"
const o = {
  get [name]() { return "got " + name },
  method() { return "m" },
}
return [o.dyn, o.method()]

// === define-property-defaults
const o = {}
Object.defineProperty(o, "x", { value: 1 })
const d = Object.getOwnPropertyDescriptor(o, "x")
return [d.value, d.writable, d.enumerable, d.configurable, Object.keys(o), JSON.stringify(o)]

// === define-property-accessor
const o = { _n: 0 }
Object.defineProperty(o, "n", {
  get() { return this._n },
  set(v) { this._n = v * 2 },
  enumerable: true,
})
o.n = 4
return [o.n, Object.keys(o)]

// === define-property-non-writable-strict-throws
const o = {}
Object.defineProperty(o, "ro", { value: 1, writable: false, configurable: true })
class C {
  static write(obj) {
    try {
      obj.ro = 2
      return "written"
    } catch (e) {
      return e.name
    }
  }
}
return [C.write(o), o.ro]

// === define-property-redefine-non-configurable-throws
const o = {}
Object.defineProperty(o, "x", { value: 1, configurable: false })
try {
  Object.defineProperty(o, "x", { value: 2 })
  return "redefined"
} catch (e) {
  return [e.name, o.x]
}

// === define-property-invalid-descriptor-throws
try {
  Object.defineProperty({}, "x", { value: 1, get() { return 1 } })
  return "defined"
} catch (e) {
  return e.name
}

// === define-properties-and-descriptors
const o = Object.defineProperties({}, {
  a: { value: 1, enumerable: true },
  b: { get() { return 2 }, enumerable: false },
})
const ds = Object.getOwnPropertyDescriptors(o)
return [Object.keys(o), ds.a.writable, typeof ds.b.get, o.b]

// === freeze
const o = Object.freeze({ a: 1, nested: { b: 2 } })
class C {
  static tryAll(obj) {
    const out = []
    for (const f of [() => { obj.a = 9 }, () => { obj.c = 1 }, () => { delete obj.a }]) {
      try {
        f()
        out.push("ok")
      } catch (e) {
        out.push(e.name)
      }
    }
    return out
  }
}
const results = C.tryAll(o)
o.nested.b = 3
return [results, o.a, o.nested.b, Object.isFrozen(o), Object.isFrozen(o.nested)]

// === seal
const o = Object.seal({ a: 1 })
class C {
  static tryAll(obj) {
    const out = []
    for (const f of [() => { obj.a = 9 }, () => { obj.c = 1 }, () => { delete obj.a }]) {
      try {
        f()
        out.push("ok")
      } catch (e) {
        out.push(e.name)
      }
    }
    return out
  }
}
return [C.tryAll(o), o.a, Object.isSealed(o), Object.isFrozen(o)]

// === prevent-extensions
const o = Object.preventExtensions({ a: 1 })
delete o.a
return [Object.isExtensible(o), Reflect.set(o, "b", 1), "b" in o, "a" in o, Reflect.defineProperty(o, "c", { value: 1 })]

// === freeze-array
const a = Object.freeze([1, 2, 3])
class C {
  static push(arr) {
    try {
      arr.push(4)
      return "pushed"
    } catch (e) {
      return e.name
    }
  }
}
return [C.push(a), a.length, Object.isFrozen(a)]

// === object-create
const proto = { greet() { return "hi " + this.name } }
const o = Object.create(proto, { name: { value: "o", enumerable: true } })
const bare = Object.create(null)
bare.k = 1
return [o.greet(), Object.getPrototypeOf(o) === proto, Object.keys(o), Object.getPrototypeOf(bare) === null, "toString" in bare, Object.keys(bare)]

// === set-prototype-of
const a = { who() { return "a" } }
const b = { who() { return "b" } }
const o = Object.setPrototypeOf({}, a)
const r1 = o.who()
Object.setPrototypeOf(o, b)
return [r1, o.who(), Object.getPrototypeOf(o) === b]

// === set-prototype-cycle-throws
const a = {}
const b = Object.create(a)
try {
  Object.setPrototypeOf(a, b)
  return "cycle created"
} catch (e) {
  return e.name
}

// === proto-accessor
const p = { x: 1 }
const o = {}
o.__proto__ = p
return [o.x, o.__proto__ === p, ({}).__proto__ === Object.prototype]

// === prototype-chain-lookup-and-shadowing
const grand = { a: "grand a", b: "grand b" }
const parent = Object.create(grand)
parent.b = "parent b"
const child = Object.create(parent)
child.c = "child c"
return [child.a, child.b, child.c, Object.hasOwn(child, "a"), "a" in child]

// === assignment-creates-own-shadow
const proto = { v: 1 }
const o = Object.create(proto)
o.v = 2
return [o.v, proto.v, Object.hasOwn(o, "v")]

// === inherited-setter-called-on-assignment
const log = []
const proto = { set v(x) { log.push("setter " + x) } }
const o = Object.create(proto)
o.v = 5
return [log, Object.hasOwn(o, "v")]

// === inherited-readonly-blocks-assignment
const proto = Object.defineProperty({}, "ro", { value: 1, writable: false })
const o = Object.create(proto)
class C {
  static write(obj) {
    try {
      obj.ro = 2
      return "written"
    } catch (e) {
      return e.name
    }
  }
}
return [C.write(o), o.ro, Object.hasOwn(o, "ro")]

// === key-order-integers-first
const o = { z: 1, 10: 1, b: 1, 1: 1, a: 1, 2: 1 }
o.y = 1
o[0] = 1
return Object.keys(o)

// === key-order-integer-like-strings
const o = {}
o["01"] = 1
o["1"] = 1
o["-0"] = 1
o["4294967294"] = 1
o["4294967295"] = 1
o["1.0"] = 1
o["3"] = 1
return Object.keys(o)

// === key-order-symbols-last
const s1 = Symbol("s1")
const s2 = Symbol("s2")
const o = { [s2]: 1, b: 1, [s1]: 1, 1: 1 }
return [Object.keys(o), Reflect.ownKeys(o).map(String)]

// === key-order-after-delete-and-readd
const o = { a: 1, b: 2, c: 3 }
delete o.a
o.a = 4
return Object.keys(o)

// === object-entries-values
const o = { x: 1, y: "two", 0: "zero" }
return [Object.entries(o), Object.values(o)]

// === object-assign
const target = { a: 1 }
const r = Object.assign(target, { b: 2 }, null, { a: 3, c: 4 }, "xy")
return [r === target, target]

// === object-from-entries
return Object.fromEntries([["a", 1], ["b", [2]], ["a", 3]])

// === json-stringify-basics
return [
  JSON.stringify({ a: 1, b: [1, "x", null], c: { d: true } }),
  JSON.stringify([undefined, () => 1, Symbol("s"), NaN, Infinity]),
  JSON.stringify({ u: undefined, f() {}, n: null }),
  JSON.stringify("q\"uote\n"),
  JSON.stringify(undefined) === undefined,
]

// === json-stringify-indent-and-replacer
const o = { a: 1, b: { c: 2 }, d: [1, 2] }
return [JSON.stringify(o, null, 2), JSON.stringify(o, ["a", "d"]), JSON.stringify(o, (k, v) => (typeof v === "number" ? v * 10 : v))]

// === json-stringify-tojson
const o = { toJSON(key) { return "custom:" + key } }
return [JSON.stringify(o), JSON.stringify({ nested: o }), JSON.stringify([o])]

// === json-stringify-cycle-throws
const o = {}
o.self = o
try {
  return JSON.stringify(o)
} catch (e) {
  return e.name
}

// === json-parse-basics
const v = JSON.parse('{"a":[1,2,{"b":null}],"c":"\\u0041","d":-1.5e2,"e":true}')
return [v, JSON.parse("3"), JSON.parse('"s"'), JSON.parse(" null ")]

// === json-parse-reviver
const v = JSON.parse('{"a":1,"b":{"c":2},"d":[3]}', (k, val) => (typeof val === "number" ? val + 100 : val))
return v

// === json-roundtrip-key-order
const src = { b: 1, 2: "two", a: [1, { z: 1, y: 2 }] }
return JSON.stringify(JSON.parse(JSON.stringify(src)))

// === property-access-with-various-keys
const o = {}
o[1] = "num"
o[true] = "bool"
o[null] = "null"
o[undefined] = "undef"
o[{}] = "object"
return [Object.keys(o), o["1"], o.true, o["[object Object]"]]

// === has-own-vs-in
const o = Object.create({ inherited: 1 })
o.own = undefined
return [Object.hasOwn(o, "own"), Object.hasOwn(o, "inherited"), "inherited" in o, o.hasOwnProperty("own")]

// === getter-on-prototype-this
const proto = {
  get full() { return this.first + " " + this.last },
}
const o = Object.create(proto)
o.first = "Ada"
o.last = "Lovelace"
return o.full

// === object-identity-and-equality
const a = { x: 1 }
const b = { x: 1 }
const m = new Map([[a, "a"]])
return [a === b, m.get(a), m.get(b) === undefined, JSON.stringify(a) === JSON.stringify(b)]

// === object-to-primitive-default
const o = {}
return [String(o), o + "", `${[]}`, String([1, [2, 3]]), String(Object.create(null, { toString: { value: () => "nullproto" } }))]

// === getters-in-spread-and-keys-order
const o = {
  get b() { return "b" },
  a: "a",
  get c() { return "c" },
}
return [Object.keys(o), Object.values(o), { ...o }]
