import { describe, it } from "vitest"
import { sameAsV8 } from "./helpers.ts"

describe("classes", () => {
  it("constructors, inheritance, super", async () => {
    await sameAsV8([
      `class A { constructor(x) { this.x = x } get p() { return this.x * 2 } static m() { return "m" } } class B extends A { constructor() { super(5); this.y = super.p } } const b = new B(); return [b.x, b.y, b.p, B.m(), b instanceof A, Object.getPrototypeOf(B) === A]`,
      `class A { constructor() { return { z: 1 } } } class B extends A { constructor() { super(); this.w = 2 } } return [new A(), new B()]`,
      `class A { m() { return "A" } static s() { return "sA" } } class B extends A { m() { return super.m() + "B" } static s() { return super.s() + "B" } } return [new B().m(), B.s()]`,
      `class A {} class B extends A { constructor() { } } try { new B() } catch (e) { return [e.constructor.name, e.message] }`,
      `class A {} class B extends A { constructor() { this.x = 1; super() } } try { new B() } catch (e) { return e.message }`,
      `class B extends Object { constructor() { super(); super() } } try { new B() } catch (e) { return e.message }`,
      `class B extends Object { constructor() { super(); return 1 } } try { new B() } catch (e) { return e.message }`,
      `class B extends Object { constructor() { const f = () => this; super(); return [f() === this] } } return new B()`,
      `class B extends Object { constructor() { const init = () => super(); init(); this.ok = true } } return new B()`,
      `class N extends null {} try { new N() } catch (e) { return [e.constructor.name, Object.getPrototypeOf(N.prototype)] }`,
      `try { class A extends A {} } catch (e) { return [e.constructor.name, e.message] }`,
      `try { class A extends 5 {} } catch (e) { return e.message }`,
      `function P() {} P.prototype = 3; try { class A extends P {} } catch (e) { return e.message }`,
      `class C {} try { C() } catch (e) { return e.message }`,
      `const A = class Named { who() { return Named.name } }; return [A.name, new A().who(), typeof Named]`,
      `class A { static create() { return new this() } } class B extends A {} return B.create() instanceof B`,
      `class A { get x() { return 1 } set x(v) {} static get y() { return 2 } } const d = Object.getOwnPropertyDescriptor(A.prototype, "x"); return [typeof d.get, typeof d.set, d.enumerable, A.y, Object.keys(A.prototype), Object.getOwnPropertyNames(A)]`,
      `const key = "dyn"; class A { [key]() { return 1 } static [key + "S"] = 2; ["computed" + 1] = 3 } return [new A().dyn(), A.dynS, new A().computed1, A.prototype.dyn.name]`,
      `class A { toString() { return "A!" } } return \`\${new A()}\` + new A()`,
      `class A { constructor() { this.k = new.target.name } } class B extends A {} return [new A().k, new B().k]`,
    ])
  })

  it("fields, static blocks, private names", async () => {
    await sameAsV8([
      `class A { x = 1; y = this.x + 1; static s = 2; static t = A.s + 1; static { this.u = this.t + 1 } } const a = new A(); return [a.x, a.y, A.s, A.t, A.u]`,
      `class A { constructor() { this.a = 1 } } class B extends A { b = this.a + 1 } return new B()`,
      `let order = []; class A { x = order.push("field"); constructor() { order.push("ctor") } } new A(); return order`,
      `class A { static x = () => this.name; f = function () {}; g = () => {} } return [A.x(), new A().f.name, new A().g.name]`,
      `class A { #p = 1; get p() { return this.#p } inc() { this.#p++; return this.#p } } const a = new A(); return [a.p, a.inc(), a.inc(), Object.keys(a)]`,
      `class A { #x = 1; static has(o) { return #x in o } } return [A.has(new A()), A.has({})]`,
      `class A { #m() { return 1 } get #a() { return 2 } set #a(v) { this.v = v } run() { this.#a = 5; return [this.#m(), this.#a, this.v] } } return new A().run()`,
      `class P { static #count = 0; static inc() { return ++P.#count } static #s() { return "s" } static s() { return P.#s() } } P.inc(); return [P.inc(), P.s()]`,
      `let read; class C { static #secret = 42; static { read = () => C.#secret } } return read()`,
      `class A { #x = 1; static get(o) { return o.#x } } try { A.get({}) } catch (e) { return [e.constructor.name, e.message] }`,
      `class A { #m() {} static set(o) { o.#m = 1 } } try { A.set(new A()) } catch (e) { return e.constructor.name }`,
      `class A { get #g() { return 1 } static set(o) { o.#g = 1 } } try { A.set(new A()) } catch (e) { return e.constructor.name }`,
      `class A { #x; static f(o) { return #x in o } } try { A.f(1) } catch (e) { return e.constructor.name }`,
      `class Base { constructor(o) { return o } } class Stamp extends Base { #s = 1; static has(o) { return #s in o } } const o = {}; new Stamp(o); try { new Stamp(o) } catch (e) { return [Stamp.has(o), e.constructor.name] }`,
      `function make() { return class { #x = 1; static read(o) { return o.#x } } } const A = make(); const B = make(); try { B.read(new A()) } catch (e) { return e.constructor.name }`,
      `class A { static #x = 1; static read() { return this.#x } } class B extends A {} try { B.read() } catch (e) { return e.constructor.name }`,
      `class A { #x = 1; clone() { const c = new A(); c.#x = this.#x + 1; return c.#x } } return new A().clone()`,
    ])
  })

  it("extending built-ins", async () => {
    await sameAsV8([
      `class E extends Error { constructor(m) { super(m); this.name = "E" } } try { throw new E("hi") } catch (e) { return [e.message, e instanceof E, e instanceof Error, e.name, String(e), Object.prototype.toString.call(e)] }`,
      `class M extends Map { get2(k) { return this.get(k) * 2 } } const m = new M([[1, 2]]); return [m.get2(1), m.size, m instanceof Map]`,
      `class Arr extends Array {} const a = new Arr(); a.push(1, 2); return [a.length, a instanceof Arr, Array.isArray(a), a.map((x) => x) instanceof Arr]`,
      `class P extends Promise {} const p = P.resolve(1); return [p instanceof P, await p]`,
    ])
  })
})
