// typeof, void, the comma operator, delete, in, and instanceof.

// === typeof-all-kinds
class C {}
return [typeof 1, typeof "s", typeof true, typeof undefined, typeof null, typeof {}, typeof [], typeof function () {},
  typeof (() => 1), typeof C, typeof Symbol(), typeof 1n, typeof NaN, typeof new Number(1), typeof async function () {},
  typeof function* () {}]

// === typeof-precedence
return [typeof 1 + 1, typeof (1 + 1), typeof typeof 1, typeof !1]

// === void-operator
let n = 0
const r = void n++
return [r === undefined, n, void 0 === undefined, typeof void "x"]

// === comma-operator
let a = 1
const r = (a++, a++, a * 10)
const seq = []
for (let i = 0, j = 10; i < j; i += 3, j -= 3) seq.push([i, j])
return [r, a, seq]

// === comma-in-return
function f() {
  let x = 0
  return x++, x++, x
}
return f()

// === delete-own-property
const o = { a: 1, b: 2 }
const r = delete o.a
return [r, o, "a" in o, Object.keys(o)]

// === delete-missing-and-inherited
const proto = { inherited: 1 }
const o = Object.create(proto)
return [delete o.missing, delete o.inherited, o.inherited]

// === delete-array-element-leaves-hole
const a = [1, 2, 3]
delete a[1]
return [a.length, 1 in a, a.map((x) => x * 2).length, Object.keys(a)]

// === delete-non-configurable-strict
// Class bodies are strict: deleting a non-configurable property throws there.
class C {
  static run() {
    const o = {}
    Object.defineProperty(o, "x", { value: 1, configurable: false })
    try {
      delete o.x
      return "deleted"
    } catch (e) {
      return [e.name, o.x]
    }
  }
}
return C.run()

// === delete-returns-true-for-non-references
return [delete 1, delete (1 + 2), delete "x"]

// === delete-computed-key
const o = { k1: 1, k2: 2, k3: 3 }
for (const k of ["k1", "k3"]) delete o[k]
return o

// === in-operator
const o = { a: undefined }
const arr = [10, 20]
return ["a" in o, "b" in o, "toString" in o, 0 in arr, 2 in arr, "length" in arr, 1 in { 1: "x" }]

// === in-operator-symbol-key
const s = Symbol("k")
const o = { [s]: 1 }
return [s in o, Symbol("k") in o]

// === in-on-primitive-throws
try {
  return "length" in "abc"
} catch (e) {
  return e.name
}

// === in-prototype-chain
function F() {}
F.prototype.p = 1
const f = new F()
return ["p" in f, Object.hasOwn(f, "p"), "constructor" in f]

// === instanceof-basic
class A {}
class B extends A {}
const b = new B()
return [b instanceof B, b instanceof A, b instanceof Object, new A() instanceof B, [] instanceof Array, [] instanceof Object]

// === instanceof-primitives
return [1 instanceof Number, "s" instanceof String, new Number(1) instanceof Number, null instanceof Object]

// === instanceof-function-prototype
function F() {}
const f = new F()
const before = f instanceof F
F.prototype = {}
return [before, f instanceof F, new F() instanceof F]

// === instanceof-non-callable-throws
try {
  return {} instanceof {}
} catch (e) {
  return e.name
}

// === instanceof-object-create
const proto = {}
function F() {}
F.prototype = proto
const o = Object.create(proto)
return [o instanceof F, Object.create(null) instanceof Object]

// === instanceof-arrow-throws
const arrow = () => {}
try {
  return {} instanceof arrow
} catch (e) {
  return e.name
}

// === typeof-member-of-undefined-throws
const o = undefined
try {
  return typeof o.x
} catch (e) {
  return e.name
}

// === grouping-and-evaluation-order
const log = []
const t = (v) => { log.push(v); return v }
const r = t(1) + t(2) * (t(3) - t(4))
return [r, log]

// === assignment-evaluation-order
const log = []
const o = {}
const key = (k) => { log.push("key " + k); return k }
const val = (v) => { log.push("val " + v); return v }
o[key("a")] = o[key("b")] = val(1)
return [o, log]

// === assignment-returns-rhs
let a, b, c
a = b = c = 5
const o = {}
const r = (o.x = 7)
return [a, b, c, r]

// === member-access-on-null-throws
const o = null
try {
  return o.prop
} catch (e) {
  return e.name
}

// === member-assignment-on-undefined-throws
let u
try {
  u.x = 1
} catch (e) {
  return e.name
}
return "no error"

// === property-on-primitive-ignored-read
const s = "abc"
return [s.length, s[1], (5).constructor === Number, true.toString()]
