import { describe, expect, it } from "vitest"
import { run, sameAsV8 } from "./helpers.ts"

describe("functions and bindings", () => {
  it("closures, hoisting, TDZ, shadowing", async () => {
    await sameAsV8([
      `function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } return fib(20)`,
      `function counter() { let n = 0; return { inc: () => ++n, get: () => n } } const c = counter(); c.inc(); c.inc(); return c.get()`,
      `function f() { return g(); function g() { return "hoisted" } } return f()`,
      `const before = typeof x; var x = 1; return [before, x]`,
      `try { y; let y = 1 } catch (e) { return [e.constructor.name, e.message] }`,
      `try { const f = () => z; f(); let z = 1 } catch (e) { return e.message }`,
      `let z = 1; { try { z = z + 1; let z } catch (e) { return e.message } }`,
      `try { let a = a } catch (e) { return e.message }`,
      `const c = 1; try { c = 2 } catch (e) { return [e.constructor.name, e.message] }`,
      `const c = 1; try { c++ } catch (e) { return e.message }`,
      `var x = 1; { let x = 2; { const x = 3 } } return x`,
      `let x = "outer"; function f() { return x } { let x = "inner"; return f() }`,
      `function f(x) { var x; return x } return f(3)`,
      `function f(a) { function a() {} return typeof a } return f(1)`,
      `function f(a, b = () => a) { var a = 2; return [a, b()] } return f(1)`,
      `function f(a = b, b = 1) { return a } try { return f() } catch (e) { return e.message }`,
      `function f(a, b = a + 1, ...c) { return [a, b, c] } return [f(1), f(1, 5, 6, 7), f.length, ((a, b = 1, c) => 0).length]`,
      `function f({ a, b } = { a: 1, b: 2 }, [c] = [3]) { return a + b + c } return [f(), f({ a: 10, b: 20 }, [30])]`,
      `function f(a, a2) { return arguments.length + arguments[0] + arguments[1] } return [f(10, 20), f(1)]`,
      `function f() { return Array.from(arguments) } return f(1, 2, 3)`,
      `const f = function g() { return typeof g }; return [f(), typeof g]`,
      `const f = function g() { g = 1; return typeof g }; return f()`,
      `const f = function g() { "use strict"; g = 1 }; try { f() } catch (e) { return e.message }`,
      `let f = function () {}; let g; g = () => {}; const o = { m() {}, ["c" + 1]: () => {}, k: class {} }; return [f.name, g.name, (() => {}).name, o.m.name, o.c1.name, o.k.name]`,
      `function outer() { const a = 1; return function mid() { const b = 2; return function inner() { return a + b } } } return outer()()()`,
    ])
  })

  it("this binding", async () => {
    await sameAsV8([
      `function f() { "use strict"; return this } function g() { return typeof this } return [f(), g(), f.call(5), typeof g.call(5)]`,
      `const o = { f() { return this } }; const f = o.f; return [o.f() === o, f() === globalThis]`,
      `const o = { v: 1, f() { return [1].map(() => this.v) } }; return o.f()`,
      `function F(x) { this.x = x } F.prototype.get = function () { return this.x }; const f = new F(3); return [f.get(), f instanceof F, F.prototype.constructor === F]`,
      `function F() { return 5 } function G() { return { g: 1 } } return [typeof new F(), new G()]`,
      `function F() { return new.target === F } return [new F() instanceof F, F()]`,
      `const B = function () { this.b = 1 }.bind({ x: 1 }); return [new B().b, typeof new B()]`,
      `function f(a, b) { return [this.x, a, b] } const g = f.bind({ x: 1 }, 2); return [g(3), g.call({ x: 9 }, 4), g.length, g.name]`,
    ])
    // The program's top-level `this` is the global object, as a script's is, in strict code too.
    for (const strict of ["", `"use strict";`]) {
      expect(run(`${strict} return [this === globalThis, (() => this)() === globalThis]`)).toEqual([true, true])
    }
  })

  it("globals: reads, typeof, sloppy creation, strict errors", async () => {
    await sameAsV8([
      `return typeof undeclaredVar`,
      `try { undeclaredVar } catch (e) { return [e.constructor.name, e.message] }`,
      `undeclared2 = 7; return [globalThis.undeclared2, undeclared2]`,
      `"use strict"; try { undeclared3 = 1 } catch (e) { return [e.constructor.name, e.message] }`,
      `globalThis.gv = 1; gv++; return gv`,
      `var v = 1; return globalThis.v`,
      `return [typeof undefined, NaN, Infinity, typeof globalThis]`,
    ])
  })

  it("a returned frame serves the next call or construct of its code", async () => {
    await sameAsV8([
      // Calls and constructs of one function, interleaved: each sees its own this, new.target and result.
      `function F(x) { if (new.target) this.x = x; else return [typeof this, x] } const out = []; for (let i = 0; i < 3; i++) { out.push(new F(i), F(i)) } return out.map((v) => JSON.stringify(v))`,
      `class A { constructor(id) { this.id = id; this.seen = new.target === A } } const xs = []; for (let i = 0; i < 4; i++) xs.push(new A(i)); return [xs.map((a) => a.id), xs.every((a) => a.seen), new Set(xs).size]`,
      `function R(o) { this.v = 1; if (o) return o } const a = new R(); const b = new R({ own: true }); const c = new R(); return [a.v, b.own, b.v, c.v, a !== c]`,
      `class B { constructor(v) { this.v = v } } class D extends B { constructor(v) { super(v * 2); this.d = true } } const out = []; for (let i = 0; i < 3; i++) { out.push(new D(i), new B(i)) } return out.map((o) => [o.constructor.name, o.v, o.d])`,
      `function P(a, b) { let t = a; { let u = b; this.f = () => t + u } } const ps = [new P(1, 2), new P(10, 20)]; return ps.map((p) => p.f())`,
      `class C { constructor() { this.n = 1 } } try { C() } catch (e) { return [e.constructor.name, new C().n] }`,
    ])
  })

  it("sandbox safety: no host eval", () => {
    expect(run(`return ({}).constructor.constructor("return process")()`)).toEqual({
      threw: "EvalError: Code generation from strings disallowed for this context",
    })
    expect(run(`return (function* () {}).constructor("yield 1")`)).toEqual({
      threw: "EvalError: Code generation from strings disallowed for this context",
    })
    expect(run(`return (async () => {}).constructor("return 1")`)).toEqual({
      threw: "EvalError: Code generation from strings disallowed for this context",
    })
  })
})
