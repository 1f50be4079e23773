// Function.prototype.call/apply/bind/toString/[Symbol.hasInstance], the Function constructor's shape, bound
// functions (name, length, new), and receivers that are not functions.

// === call-basic
function f(a, b) {
  return [this === undefined ? "undef" : String(this.tag), a, String(b)]
}
return [f.call({ tag: "t" }, 1, 2), f.call(undefined, 3)]

// === call-sloppy-this-boxing
function f() {
  return [typeof this, this instanceof Number]
}
return f.call(5)

// === apply-basic
function sum() {
  let s = 0
  for (const x of arguments) s += x
  return s
}
return [sum.apply(null, [1, 2, 3]), sum.apply(null), sum.apply(null, { length: 2, 0: 5, 1: 6 }), Math.max.apply(Math, [4, 9, 2])]

// === apply-bad-args
function f() {}
try {
  f.apply(null, 5)
} catch (e) {
  return [e.name, e.message]
}

// === apply-on-non-function
try {
  Function.prototype.apply.call({}, null, [])
} catch (e) {
  return e.name
}

// === call-on-non-function
return Function.prototype.call.call(42)

// === bind-this-and-args
function f(a, b, c) {
  return [this.x, a, b, c]
}
const g = f.bind({ x: "X" }, 1)
const h = g.bind({ x: "ignored" }, 2)
return [g(2, 3), h(3), g.name, h.name, g.length, h.length]

// === bind-length-edge-cases
function three(a, b, c) {}
const inf = function () {}
Object.defineProperty(inf, "length", { value: Infinity })
const neg = function () {}
Object.defineProperty(neg, "length", { value: -5 })
const str = function () {}
Object.defineProperty(str, "length", { value: "7" })
return [three.bind(null, 1, 2, 3, 4).length, String(inf.bind().length), neg.bind().length, str.bind().length, three.bind(null, 1).length]

// === bind-name-edge-cases
const anon = (() => () => {})()
const sym = { [Symbol("s")]() {} }[Symbol.iterator]
const named = { [Symbol("desc")]: function () {} }
const f = Object.values(named)
const weird = function () {}
Object.defineProperty(weird, "name", { value: 42 })
return [anon.bind().name, weird.bind().name, Math.max.bind().name, (function () {}).bind().bind().name]

// === bind-new
function Point(x, y) {
  this.x = x
  this.y = y
}
Point.prototype.sum = function () {
  return this.x + this.y
}
const P = Point.bind({ ignored: true }, 10)
const p = new P(5)
return [p.sum(), p instanceof Point, p instanceof P, Object.getPrototypeOf(p) === Point.prototype, "prototype" in P]

// === bind-class
class A {
  constructor(v) {
    this.v = v
  }
}
const B = A.bind(null, 7)
const r = [new B().v]
try {
  B()
} catch (e) {
  r.push(e.name)
}
return r

// === bind-non-callable
try {
  Function.prototype.bind.call({})
} catch (e) {
  return [e.name, e.message]
}

// === bind-arrow-keeps-lexical-this
const obj = {
  v: 1,
  make() {
    return (() => this.v).bind({ v: 2 })
  },
}
return obj.make()()

// === to-string-native
return [Math.max.toString(), String(Object.keys), Function.prototype.toString.call(Array.prototype.map), String(Object.getOwnPropertyDescriptor(Map.prototype, "size").get)]

// === to-string-bound
function f() {}
return [f.bind().toString(), String(Math.min.bind(null))]

// === to-string-non-function
try {
  Function.prototype.toString.call({})
} catch (e) {
  return [e.name, e.message]
}

// === has-instance
function F() {}
const f = new F()
const hi = Function.prototype[Symbol.hasInstance]
const d = Object.getOwnPropertyDescriptor(Function.prototype, Symbol.hasInstance)
return [hi.call(F, f), hi.call(F, {}), hi.call({}, f), hi.call(F, 1), d.writable, d.configurable, d.enumerable, hi.name]

// === custom-has-instance
class Even {
  static [Symbol.hasInstance](n) {
    return n % 2 === 0
  }
}
return [2 instanceof Even, 3 instanceof Even]

// === instanceof-bound
function F() {}
const B = F.bind(null)
return [new F() instanceof B, {} instanceof B]

// === function-prototype-shape
const fp = Function.prototype
return [typeof fp, String(fp()), fp.length, fp.name, Object.getPrototypeOf(fp) === Object.prototype, Object.getOwnPropertyNames(fp).sort()]

// === function-prototype-caller-throws
function f() {}
try {
  return Function.prototype.caller
} catch (e) {
  return e.name
}

// === function-constructor-shape
return [typeof Function, Function.length, Function.name, Function.prototype.constructor === Function, (() => {}).constructor === Function, Object.getPrototypeOf(Function) === Function.prototype]

// === function-name-and-length
function f(a, b = 1, ...c) {}
const g = function (a, b) {}
const h = (x) => x
return [f.name, f.length, g.name, g.length, h.name, h.length, Object.getOwnPropertyDescriptor(f, "name").writable, Object.getOwnPropertyDescriptor(f, "length").configurable]

// === call-apply-chain
function f() {
  return this.n
}
return [f.call.call(f, { n: 1 }), Function.prototype.call.apply(f, [{ n: 2 }]), f.apply.call(f, { n: 3 })]

// === callback-throws-through-call
function thrower() {
  throw new SyntaxError("inner")
}
try {
  thrower.call(null)
} catch (e) {
  return [e.name, e.message]
}

// === method-lengths
const fp = Function.prototype
return [fp.call.length, fp.apply.length, fp.bind.length, fp.toString.length, fp[Symbol.hasInstance].length, fp.call.name, fp[Symbol.hasInstance].name]

// === apply-array-like-with-getters
const log = []
const arrayLike = {
  get length() {
    log.push("length")
    return 2
  },
  get 0() {
    log.push("0")
    return "a"
  },
  get 1() {
    log.push("1")
    return "b"
  },
}
function f(x, y) {
  return x + y
}
return [f.apply(null, arrayLike), log]
