import { describe, expect, it } from "vitest"
import { run, sameAsV8 } from "./helpers.ts"

describe("async functions", () => {
  it("await, errors, thenables", async () => {
    await sameAsV8([
      `async function f() { await null; return 1 } return await f()`,
      `async function f() { throw new Error("x") } try { await f() } catch (e) { return e.message }`,
      `async function f() { return Promise.resolve(3) } return [await f(), f() instanceof Promise]`,
      `const thenable = { then(r) { r(42) } }; return await thenable`,
      `let n = 0; const t = { get then() { n++; return undefined } }; const v = await t; return [v === t, n]`,
      `const t = { then(r, j) { j(new Error("rejected thenable")) } }; try { await t } catch (e) { return e.message }`,
      `async function f() { try { await Promise.reject(new Error("r")) } catch (e) { return "caught " + e.message } finally { log.push("fin") } } const log = []; return [await f(), log]`,
      `const arr = [1, 2, 3]; return await Promise.all(arr.map(async (x) => { await null; return x * 2 }))`,
      `class A { async m() { await null; return this.v } v = 4 } return await new A().m()`,
      `async function f(a = await0()) { return a } function await0() { throw new Error("param") } const p = f(); try { await p } catch (e) { return [p instanceof Promise, e.message] }`,
      `const r = await Promise.race([new Promise(() => {}), Promise.resolve(1)]); return r`,
      `let s = 0; for (let i = 0; i < 100; i++) s += await i; return s`,
    ])
  })

  it("microtask ordering matches V8", async () => {
    await sameAsV8([
      `const log = []; async function a() { log.push(1); await undefined; log.push(3) } a(); log.push(2); await null; await null; return log`,
      `const order = []; async function a() { order.push("a1"); await b(); order.push("a2") } async function b() { order.push("b1") } a().then(() => order.push("then")); order.push("sync"); await null; await null; await null; await null; return order`,
      `const order = []; const p = Promise.resolve(); (async () => { await p; order.push(1) })(); p.then(() => order.push(2)); await null; await null; return order`,
      `const log = []; Promise.resolve().then(() => log.push("p1")).then(() => log.push("p2")).then(() => log.push("p3")); (async () => { log.push("a0"); await null; log.push("a1"); await null; log.push("a2") })(); for (let i = 0; i < 5; i++) await null; return log`,
      `const log = []; async function f() { return Promise.resolve(1) } f().then(() => log.push("f")); Promise.resolve().then(() => log.push("a")).then(() => log.push("b")).then(() => log.push("c")).then(() => log.push("d")); for (let i = 0; i < 6; i++) await null; return log`,
      `const log = []; const thenable = { then(r) { log.push("then"); r(1) } }; (async () => { await thenable; log.push("after") })(); Promise.resolve().then(() => log.push("p1")).then(() => log.push("p2")).then(() => log.push("p3")); for (let i = 0; i < 5; i++) await null; return log`,
    ])
  })

  it("async generators and for await", async () => {
    await sameAsV8([
      `async function* g() { yield 1; yield 2 } const r = []; for await (const v of g()) r.push(v); return r`,
      `const r = []; for await (const v of [Promise.resolve(1), 2]) r.push(v); return r`,
      `async function* g() { try { yield 1; yield 2 } finally { log.push("fin") } } const log = []; for await (const x of g()) { log.push(x); break } return log`,
      `async function* g() { yield 1; await null; yield 2; return 3 } const it = g(); return [await it.next(), await it.next(), await it.next(), await it.next()]`,
      `async function* g() { yield 1 } const it = g(); const p1 = it.next(); const p2 = it.next(); const p3 = it.return(7); return [await p1, await p2, await p3]`,
      `async function* g() { yield* [1, 2]; yield* (async function* () { yield 3 })() } const r = []; for await (const v of g()) r.push(v); return r`,
      `async function* g() { yield Promise.resolve(5) } return (await g().next()).value`,
      `const log = []; async function* g() { log.push("start"); yield 1 } const it = g(); log.push("created"); await it.next(); return log`,
      `const o = { async *g() { yield 1 } }; const r = []; for await (const x of o.g()) r.push(x); return r`,
      `async function* g() { throw new Error("in gen") } try { await g().next() } catch (e) { return e.message }`,
      `async function* g() { yield 1 } const it = g(); await it.next(); await it.next(); return [await it.next(), await it.return(4), await it.throw(new Error("x")).catch((e) => e.message)]`,
      `async function* g() { try { yield 1 } finally { await null; log.push("cleanup") } } const log = []; const it = g(); await it.next(); await it.return(); return log`,
      `const log = []; async function* g() { log.push("a"); yield 1; log.push("b"); yield 2 } const it = g(); it.next().then(() => log.push("n1")); it.next().then(() => log.push("n2")); Promise.resolve().then(() => log.push("p")); for (let i = 0; i < 6; i++) await null; return log`,
      `const it = { [Symbol.asyncIterator]() { let i = 0; return { next: async () => ({ value: i, done: i++ > 2 }), return: async () => { log.push("ret"); return {} } } } }; const log = []; for await (const v of it) { log.push(v); if (v === 1) break } return log`,
      `try { for await (const x of 5) {} } catch (e) { return e.constructor.name }`,
    ])
  })

  it("top-level await", () => {
    expect(run(`const v = await new Promise((r) => r(5)); return v * 2`)).toBe(10)
    expect(run(`await Promise.reject(new TypeError("no"))`)).toEqual({ threw: "TypeError: no" })
  })
})
