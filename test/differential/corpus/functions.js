// Functions: closures, default parameters (scope and order), `arguments`, `this` binding rules, `new` (object
// return override), new.target, call/apply/bind, function properties (name, length).

// === closure-counter
function counter() {
  let n = 0
  return { inc: () => ++n, get: () => n }
}
const a = counter()
const b = counter()
a.inc()
a.inc()
b.inc()
return [a.get(), b.get()]

// === closure-shared-environment
function make() {
  let v = 0
  const set = (x) => { v = x }
  const get = () => v
  return [set, get]
}
const [set, get] = make()
set(42)
return get()

// === closure-captures-loop-let
const fns = []
for (let i = 0; i < 3; i++) {
  let j = i * 10
  fns.push(() => [i, j])
}
return fns.map((f) => f())

// === closure-over-parameter
const adder = (x) => (y) => x + y
const add5 = adder(5)
return [add5(1), add5(10), adder(1)(1)]

// === iife
const r = (function (x) { return x * 2 })(21)
const s = ((x) => x + 1)(1)
return [r, s]

// === recursion-closure-memo
const memo = new Map()
const fib = (n) => {
  if (n < 2) return n
  if (memo.has(n)) return memo.get(n)
  const v = fib(n - 1) + fib(n - 2)
  memo.set(n, v)
  return v
}
return fib(50)

// === default-params-basic
function f(a, b = 2, c = a + b) { return [a, b, c] }
return [f(1), f(1, 5), f(1, undefined, 0), f(1, null)]

// === default-params-evaluated-per-call
let n = 0
function f(x = ++n) { return x }
return [f(), f(), f(10), f(), n]

// === default-params-fresh-object
function f(arr = []) { arr.push(1); return arr.length }
return [f(), f(), f()]

// === default-param-scope-not-body
const x = "outer"
function f(a = () => x) {
  const x = "inner"
  return a()
}
return f()

// === default-param-sees-earlier-params-only
function f(a, b = a * 2, c = () => a + b) {
  a = 100
  return [b, c()]
}
return f(1)

// === default-param-can-call-function
const def = () => "computed"
function f(v = def()) { return v }
return [f(), f("given")]

// === arguments-length-and-index
function f() { return [arguments.length, arguments[0] ?? "none", arguments[2] ?? "none"] }
return [f("a", "b", "c"), f()]

// === arguments-not-array
function f() {
  return [Array.isArray(arguments), typeof arguments, Array.prototype.slice.call(arguments, 1), Object.prototype.toString.call(arguments)]
}
return f(1, 2, 3)

// === arguments-with-fewer-params
function f(a) { return [a, arguments.length, arguments[1]] }
return f(1, 2)

// === arguments-unmapped-with-defaults
function f(a = 0) {
  a = 99
  return [a, arguments[0]]
}
return f(1)

// === arguments-in-arrow-is-lexical
function outer() {
  const inner = () => arguments[0]
  return inner("ignored")
}
return outer("outer-arg")

// === arguments-iterable
function f() {
  const out = []
  for (const a of arguments) out.push(a)
  return out
}
return f(3, 2, 1)

// === this-method-call
const o = {
  name: "o",
  who() { return this.name },
}
const p = { name: "p", who: o.who }
return [o.who(), p.who(), o["who"]()]

// === this-arrow-lexical
const o = {
  v: 1,
  m() {
    const arrow = () => this.v
    return arrow()
  },
  n() {
    return [1, 2].map(() => this.v)
  },
}
return [o.m(), o.n()]

// === this-lost-in-strict-class-method
class C {
  m() { return this === undefined }
}
const m = new C().m
return m()

// === this-call-apply
function who(greeting, punct) { return greeting + " " + this.name + punct }
const o = { name: "o" }
return [who.call(o, "hi", "!"), who.apply(o, ["hey", "?"]), who.apply({ name: "x" }, [])]

// === this-call-primitive-strict
class C {
  static f() { return typeof this }
}
return [C.f.call(5), C.f.call("s"), C.f.call(undefined), C.f.call(null)]

// === bind-this-and-partial
function f(a, b, c) { return [this.k, a, b, c] }
const bound = f.bind({ k: "K" }, 1)
return [bound(2, 3), bound.length, bound.name]

// === bind-cannot-rebind
function f() { return this.v }
const b1 = f.bind({ v: 1 })
const b2 = b1.bind({ v: 2 })
return [b1(), b2(), b1.call({ v: 3 })]

// === bind-with-new-ignores-this
function P(a, b) {
  this.a = a
  this.b = b
}
const BP = P.bind({ ignored: true }, "x")
const p = new BP("y")
return [p.a, p.b, p instanceof P, p instanceof BP, "ignored" in p]

// === bind-arrow-ignores-this
const arrow = () => typeof this
const o = { m() { return arrow.bind({ x: 1 })() } }
return o.m() === arrow()

// === new-user-function
function Point(x, y) {
  this.x = x
  this.y = y
}
Point.prototype.sum = function () { return this.x + this.y }
const p = new Point(1, 2)
return [p.x, p.y, p.sum(), p.constructor === Point, Object.getPrototypeOf(p) === Point.prototype]

// === new-return-object-override
function A() {
  this.a = 1
  return { overridden: true }
}
function B() {
  this.b = 1
  return 42
}
function C() {
  this.c = 1
  return null
}
const show = (o) => [Object.getPrototypeOf(o) === Object.prototype, { ...o }]
return [show(new A()), show(new B()), show(new C())]

// === new-without-parens
function F() { this.v = "made" }
const f = new F
return f.v

// === new-target
function F() { return new.target === F }
function G() { return new.target === undefined }
const gCalled = G()
return [new F() instanceof F, gCalled, F()]

// === new-target-in-arrow-lexical
function F() {
  const arrow = () => new.target
  this.t = arrow() === F
}
return new F().t

// === new-target-subclass
class A {
  constructor() { this.target = new.target.name }
}
class B extends A {}
return [new A().target, new B().target]

// === function-name-inference
const a = function () {}
const b = () => {}
const o = { m() {}, n: function () {}, ["comp" + "uted"]: () => {}, get g() { return 1 } }
let c
c = function () {}
return [a.name, b.name, o.m.name, o.n.name, o.computed.name, c.name, Object.getOwnPropertyDescriptor(o, "g").get.name]

// === function-length
function a(x, y) {}
function b(x, y = 1, z) {}
function c(...r) {}
function d({ a }, [b]) {}
return [a.length, b.length, c.length, d.length, ((x) => x).length]

// === function-properties
function f() {}
f.custom = 1
f.count = (f.count ?? 0) + 1
return [f.custom, f.count, typeof f.prototype, Object.keys(f)]

// === arrow-no-prototype-no-new
const a = () => {}
try {
  new a()
} catch (e) {
  return [a.prototype === undefined, e.name]
}

// === method-shorthand-not-constructor
const o = { m() {} }
try {
  new o.m()
  return "constructed"
} catch (e) {
  return [e.name, o.m.prototype === undefined]
}

// === higher-order-compose
const compose = (...fns) => (x) => fns.reduceRight((acc, f) => f(acc), x)
const inc = (x) => x + 1
const dbl = (x) => x * 2
return [compose(inc, dbl)(5), compose(dbl, inc)(5), compose()(7)]

// === currying
const curry = (f) => {
  const c = (...args) => (args.length >= f.length ? f(...args) : (...more) => c(...args, ...more))
  return c
}
const add3 = curry((a, b, c) => a + b + c)
return [add3(1)(2)(3), add3(1, 2)(3), add3(1)(2, 3), add3(1, 2, 3)]

// === call-apply-with-arrays-and-arguments
function sum() {
  let s = 0
  for (let i = 0; i < arguments.length; i++) s += arguments[i]
  return s
}
function pass() { return sum.apply(null, arguments) }
return [sum.call(null, 1, 2, 3), pass(4, 5, 6), sum.apply(null, { length: 2, 0: 7, 1: 8 })]

// === function-hoisting-inside-function
function outer() {
  return typeof inner
  function inner() {}
}
return outer()

// === immediately-returned-closure-state
const gen = (() => {
  let id = 0
  return () => `id-${++id}`
})()
return [gen(), gen(), gen()]

// === callback-this-with-thisarg
const ctx = { factor: 3 }
return [1, 2].map(function (x) { return x * this.factor }, ctx)

// === getter-this-is-receiver
const proto = { get who() { return this.name } }
const o = Object.create(proto)
o.name = "child"
return o.who

// === deep-but-bounded-recursion
function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1) }
return depth(2000)

// === apply-non-function-throws
try {
  Function.prototype.call.call(1)
  return "no error"
} catch (e) {
  return e.name
}
