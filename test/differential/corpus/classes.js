// Classes: constructors, methods, accessors, fields and static members, static blocks, private names (#x, #m(),
// accessors, `#x in o`), inheritance and super, extending built-ins, class expressions, TDZ of class bindings,
// and calling a class without `new`.

// === class-basic
class Point {
  constructor(x, y) {
    this.x = x
    this.y = y
  }
  norm1() { return Math.abs(this.x) + Math.abs(this.y) }
}
const p = new Point(3, -4)
return [p.x, p.y, p.norm1(), typeof Point, p instanceof Point]

// === class-methods-non-enumerable
class C {
  m() {}
  static s() {}
}
const c = new C()
c.own = 1
const keys = []
for (const k in c) keys.push(k)
return [keys, Object.keys(C.prototype), Object.getOwnPropertyNames(C.prototype)]

// === class-call-without-new-throws
class C {}
try {
  C()
  return "called"
} catch (e) {
  return e.name
}

// === class-fields
let counter = 0
class C {
  a = 1
  b = this.a + 1
  c
  id = ++counter;
  ["comp" + "uted"] = "yes"
}
const x = new C()
const y = new C()
return [x.a, x.b, "c" in x, x.c === undefined, x.id, y.id, x.computed]

// === class-fields-order-vs-constructor
const log = []
class C {
  f = log.push("field")
  constructor() {
    log.push("constructor")
  }
}
new C()
return log

// === class-field-arrow-binds-this
class Button {
  label = "ok"
  onClick = () => this.label
}
const { onClick } = new Button()
return onClick()

// === class-fields-are-own-properties
class C {
  x = 1
  m() {}
}
const c = new C()
return [Object.hasOwn(c, "x"), Object.hasOwn(c, "m"), Object.keys(c)]

// === static-fields-and-methods
class C {
  static count = 0
  static base = 10
  static derived = C.base * 2
  static inc() { return ++this.count }
}
C.inc()
C.inc()
return [C.count, C.derived, typeof C.inc, new C().inc === undefined]

// === static-block
const log = []
class C {
  static x = 1
  static {
    log.push("static block, x=" + this.x)
    this.y = this.x + 1
  }
  static z = 3
  static {
    log.push("second block, z=" + C.z)
  }
}
return [log, C.y]

// === static-block-private-access
let read
class C {
  static #secret = 42
  static {
    read = () => C.#secret
  }
}
return read()

// === private-fields
class Counter {
  #n = 0
  inc() { return ++this.#n }
  get value() { return this.#n }
}
const c = new Counter()
c.inc()
c.inc()
return [c.value, Object.keys(c), "#n" in c, JSON.stringify(c)]

// === private-methods
class C {
  #double(x) { return x * 2 }
  run(x) { return this.#double(x) + 1 }
}
return new C().run(5)

// === private-accessors
class Temp {
  #c = 0
  get #f() { return this.#c * 9 / 5 + 32 }
  set #f(v) { this.#c = (v - 32) * 5 / 9 }
  setF(v) { this.#f = v; return this }
  readF() { return this.#f }
  readC() { return this.#c }
}
const t = new Temp().setF(212)
return [t.readC(), t.readF()]

// === private-static-method
class C {
  static #helper() { return "helped" }
  static run() { return C.#helper() }
}
return C.run()

// === private-in-operator
class C {
  #brand
  static isC(o) { return #brand in o }
}
return [C.isC(new C()), C.isC({}), C.isC(Object.create(C.prototype))]

// === private-access-wrong-object-throws
class C {
  #x = 1
  static read(o) { return o.#x }
}
try {
  return C.read({})
} catch (e) {
  return e.name
}

// === private-in-on-primitive-throws
class C {
  #x
  static test(v) { return #x in v }
}
try {
  return C.test(1)
} catch (e) {
  return e.name
}

// === private-names-per-class
class A {
  #v = "A"
  static get(o) { return o.#v }
}
class B extends A {
  #v = "B"
  static get(o) { return o.#v }
}
const b = new B()
return [A.get(b), B.get(b)]

// === private-method-not-writable
class C {
  #m() {}
  tryWrite() {
    try {
      this.#m = 1
      return "written"
    } catch (e) {
      return e.name
    }
  }
}
return new C().tryWrite()

// === private-getter-only-write-throws
class C {
  get #g() { return 1 }
  tryWrite() {
    try {
      this.#g = 2
      return "written"
    } catch (e) {
      return e.name
    }
  }
}
return new C().tryWrite()

// === private-field-added-twice-throws
class Base {
  constructor(o) { return o }
}
class Stamp extends Base {
  #stamp = "s"
  static has(o) { return #stamp in o }
}
const o = {}
new Stamp(o)
try {
  new Stamp(o)
  return "twice"
} catch (e) {
  return [e.name, Stamp.has(o)]
}

// === accessors
class Rect {
  constructor(w, h) {
    this.w = w
    this.h = h
  }
  get area() { return this.w * this.h }
  set size(s) { this.w = s; this.h = s }
  static get kind() { return "rect" }
}
const r = new Rect(2, 3)
const before = r.area
r.size = 5
return [before, r.area, Rect.kind, Object.keys(r)]

// === inheritance-and-super-method
class Animal {
  constructor(name) { this.name = name }
  speak() { return `${this.name} makes a sound` }
}
class Dog extends Animal {
  speak() { return super.speak() + " (woof)" }
}
const d = new Dog("Rex")
return [d.speak(), d instanceof Animal, Object.getPrototypeOf(Dog) === Animal]

// === super-constructor-args
class A {
  constructor(...args) { this.args = args }
}
class B extends A {
  constructor(x) {
    super(x, x * 2)
    this.extra = true
  }
}
const b = new B(3)
return [b.args, b.extra]

// === this-before-super-throws
class A {}
class B extends A {
  constructor() {
    this.x = 1
    super()
  }
}
try {
  new B()
  return "no error"
} catch (e) {
  return e.name
}

// === missing-super-call-throws
class A {}
class B extends A {
  constructor() {}
}
try {
  new B()
  return "no error"
} catch (e) {
  return e.name
}

// === super-called-twice-throws
class A {}
class B extends A {
  constructor() {
    super()
    try {
      super()
    } catch (e) {
      this.err = e.name
    }
  }
}
return new B().err

// === derived-default-constructor-forwards-args
class A {
  constructor(a, b) { this.sum = a + b }
}
class B extends A {}
return new B(2, 3).sum

// === derived-constructor-return-object
class A {}
class B extends A {
  constructor() {
    super()
    return { replaced: true }
  }
}
const b = new B()
return [b.replaced, b instanceof B]

// === super-property-access-and-static
class A {
  static who() { return "A static" }
  get g() { return "A getter" }
}
class B extends A {
  static who() { return super.who() + " via B" }
  get g() { return super.g + " via B" }
}
return [B.who(), new B().g]

// === super-in-object-literal
const base = { hello() { return "base hello" } }
const derived = {
  __proto__: base,
  hello() { return super.hello() + " + derived" },
}
return derived.hello()

// === super-property-set
class A {
  set v(x) { this._fromA = x }
}
class B extends A {
  setIt() { super.v = 5; return this._fromA }
}
return new B().setIt()

// === super-method-this-is-derived
class A {
  who() { return this.constructor.name }
}
class B extends A {
  who() { return "B:" + super.who() }
}
return new B().who()

// === field-initializers-after-super
const log = []
class A {
  constructor() { log.push("A ctor, field=" + this.f) }
}
class B extends A {
  f = (log.push("B field"), "set")
  constructor() {
    super()
    log.push("B ctor, field=" + this.f)
  }
}
new B()
return log

// === class-expression-name-binding
const Outer = class Inner {
  which() { return Inner === Outer }
  static n() { return Inner.name }
}
return [Outer.name, new Outer().which(), Outer.n(), typeof Inner]

// === anonymous-class-expression-name
const A = class {}
const o = { B: class {} }
return [A.name, o.B.name, (class {}).name]

// === class-name-binding-is-const-inside
class C {
  static tryRename() {
    try {
      C = null
      return "renamed"
    } catch (e) {
      return e.name
    }
  }
}
return C.tryRename()

// === class-declaration-tdz
function make() { return new C() }
let r
try {
  make()
} catch (e) {
  r = e.name
}
class C {}
return [r, make() instanceof C]

// === class-tdz-before-declaration
let r
try {
  r = typeof K
} catch (e) {
  r = e.name
}
class K {}
return r

// === class-heritage-sees-tdz-of-own-name
try {
  class X extends X {}
  return "no error"
} catch (e) {
  return e.name
}

// === extends-null-prototype
class N extends null {
  constructor() { return Object.create(N.prototype) }
}
const n = new N()
return [Object.getPrototypeOf(N.prototype) === null, n instanceof N]

// === extends-non-constructor-throws
try {
  class X extends 5 {}
  return "no error"
} catch (e) {
  return e.name
}

// === extends-function-constructor
function Legacy(v) { this.v = v }
Legacy.prototype.get = function () { return this.v }
class Modern extends Legacy {
  get2() { return this.get() * 2 }
}
const m = new Modern(21)
return [m.get(), m.get2(), m instanceof Legacy]

// === extends-error
class HttpError extends Error {
  constructor(status, msg) {
    super(msg)
    this.name = "HttpError"
    this.status = status
  }
}
const e = new HttpError(404, "not found")
return [e instanceof HttpError, e instanceof Error, e.name, e.message, e.status, String(e)]

// === extends-error-thrown
class MyErr extends Error {
  get name() { return "MyErr" }
}
throw new MyErr("bad")

// === extends-array
class Stack extends Array {
  peek() { return this[this.length - 1] }
}
const s = new Stack()
s.push(1, 2, 3)
const mapped = s.map((x) => x * 2)
return [s.length, s.peek(), Array.isArray(s), s instanceof Stack, mapped instanceof Stack, mapped.peek(), [...s]]

// === extends-array-length-behaviour
class L extends Array {}
const l = new L()
l[5] = "x"
const len1 = l.length
l.length = 2
return [len1, l.length, l.slice() instanceof L]

// === extends-map
class DefaultMap extends Map {
  constructor(def) {
    super()
    this.def = def
  }
  get(k) { return this.has(k) ? super.get(k) : this.def }
}
const m = new DefaultMap(0)
m.set("a", 1)
return [m.get("a"), m.get("b"), m.size, m instanceof Map, [...m.keys()]]

// === extends-builtin-with-super-args
class Tagged extends Set {
  constructor(items) {
    super(items)
    this.tag = "t"
  }
}
const t = new Tagged([1, 2, 2])
return [t.size, t.has(2), t.tag]

// === class-accessor-pair-and-static-inheritance
class A {
  static make() { return new this() }
  get kind() { return "A" }
}
class B extends A {
  get kind() { return "B" }
}
return [A.make().kind, B.make().kind, B.make() instanceof B]

// === class-methods-are-strict
class C {
  m() {
    try {
      undeclaredInStrict = 1
      return "assigned"
    } catch (e) {
      return e.name
    }
  }
}
return new C().m()

// === class-computed-method-names
const prefix = "get"
const sym = Symbol("s")
class C {
  [prefix + "One"]() { return 1 }
  static [`${prefix}Two`]() { return 2 }
  [sym]() { return "symbol method" }
}
return [new C().getOne(), C.getTwo(), new C()[sym]()]

// === class-generator-and-async-methods
class C {
  *gen() { yield 1; yield 2 }
  async am() { return "async" }
  static *sgen() { yield "s" }
}
const c = new C()
return [[...c.gen()], await c.am(), [...C.sgen()]]

// === instanceof-with-symbol-hasinstance-static
class Even {
  static [Symbol.hasInstance](n) { return n % 2 === 0 }
}
return [2 instanceof Even, 3 instanceof Even]

// === class-prototype-not-writable
class C {}
const d = Object.getOwnPropertyDescriptor(C, "prototype")
return [d.writable, d.enumerable, d.configurable]

// === class-constructor-property
class C {}
return [C.prototype.constructor === C, new C().constructor === C, Object.keys(C.prototype).length]

// === class-getter-setter-on-prototype
class C {
  get x() { return 1 }
}
const d = Object.getOwnPropertyDescriptor(C.prototype, "x")
return [typeof d.get, d.set === undefined, d.enumerable, d.configurable]

// === class-private-static-field-inherited-access-throws
class A {
  static #p = 1
  static read() { return this.#p }
}
class B extends A {}
try {
  return [A.read(), B.read()]
} catch (e) {
  return e.name
}

// === mixins
const Serializable = (Base) => class extends Base {
  serialize() { return JSON.stringify(this) }
}
const Named = (Base) => class extends Base {
  constructor(...a) {
    super(...a)
    this.name = "named"
  }
}
class Thing {
  constructor() { this.v = 1 }
}
class Both extends Serializable(Named(Thing)) {}
return new Both().serialize()
