import { describe, it } from "vitest"
import { sameAsV8 } from "./helpers.ts"

describe("generators", () => {
  it("next, return, throw, finally", async () => {
    await sameAsV8([
      `function* g() { const x = yield 1; r.push(x); yield* [10, 20]; return 5 } const r = []; const it = g(); return [it.next(), it.next("a"), it.next(), it.next(), it.next(), r]`,
      `function* g() { try { yield 1 } catch (e) { yield "caught " + e } } const it = g(); return [it.next(), it.throw("x"), it.next()]`,
      `function* g() { try { yield 1; yield 2 } finally { yield "f" } } const it = g(); return [it.next(), it.return(9), it.next(), it.next()]`,
      `function* g() { try { yield 1 } finally { return "override" } } const it = g(); it.next(); return [it.return(9), it.next()]`,
      `function* g() { yield 1 } const it = g(); return [it.return(5), it.next()]`,
      `function* g() { yield 1 } const it = g(); try { it.throw(new Error("e")) } catch (e) { return [e.message, it.next()] }`,
      `let r = []; function* g() { try { yield 1; yield 2 } finally { r.push("cleanup") } } for (const v of g()) { r.push(v); break } return r`,
      `function* g() { r.push("start"); yield 1 } const r = []; const it = g(); r.push("created"); it.next(); return r`,
      `function* g(a, b = a * 2) { yield a + b } return g(1).next().value`,
      `function* g() { yield this.x } return g.call({ x: 5 }).next().value`,
      `function* g() { const it = yield; } const it = g(); it.next(); try { it.next.call({}) } catch (e) { return e.constructor.name }`,
      `function* g() { it.next() } const it = g(); try { it.next() } catch (e) { return [e.constructor.name, e.message] }`,
      `function* g() { throw new Error("boom") } const it = g(); try { it.next() } catch (e) { return [e.message, it.next()] }`,
      `const it = (function* () { const a = yield; const b = yield; return a + b })(); it.next(); it.next(1); return it.next(2)`,
      `function* fib() { let [a, b] = [0, 1]; for (;;) { yield a; [a, b] = [b, a + b] } } const r = []; for (const v of fib()) { if (v > 50) break; r.push(v) } return r`,
      `const g = function* () {}; return [typeof g().next, Object.prototype.toString.call(g()), g.prototype !== undefined, Object.getPrototypeOf(g()) === g.prototype, g() instanceof g]`,
      `class C { *[Symbol.iterator]() { yield 1; yield 2 } } return [...new C()]`,
      `const o = { *gen() { yield super.toString !== undefined } }; return o.gen().next().value`,
      `function* g() { yield 1; yield 2; yield 3 } const [a, ...rest] = g(); return [a, rest]`,
      `function* g() { let i = 0; while (true) yield i++ } const [a, b] = g(); return [a, b]`,
    ])
  })

  it("yield* delegation", async () => {
    await sameAsV8([
      `function* inner() { const x = yield 1; return x * 2 } function* outer() { const r = yield* inner(); yield r } const it = outer(); return [it.next(), it.next(21), it.next()]`,
      `function* inner() { try { yield 1 } finally { log.push("inner-finally") } } function* outer() { yield* inner() } const log = []; const it = outer(); it.next(); return [it.return(3), log]`,
      `function* inner() { try { yield 1 } catch (e) { yield "inner caught " + e } } function* outer() { yield* inner() } const it = outer(); it.next(); return [it.throw("x"), it.next()]`,
      `function* g() { yield* "ab"; yield* new Set([1]) } return [...g()]`,
      `const it = { [Symbol.iterator]() { return { next: (v) => ({ value: v, done: false }) } } }; function* g() { yield* it } const i = g(); i.next("a"); return [i.next("b"), i.next("c")]`,
      `const inner = { [Symbol.iterator]() { return { next: () => ({ value: 1, done: false }), return: undefined } } }; function* g() { yield* inner } const i = g(); i.next(); try { i.throw(new Error("t")) } catch (e) { return e.message }`,
      `const inner = { [Symbol.iterator]() { return { next: () => ({ value: 1, done: false }) } } }; function* g() { yield* inner } const i = g(); i.next(); return i.return(7)`,
      `function* g() { yield* 5 } try { g().next() } catch (e) { return e.message }`,
    ])
  })
})
