import { describe, expect, it } from "vitest"
import { run, sameAsV8 } from "./helpers.ts"

describe("statements", () => {
  it("loops, labels, switch", async () => {
    await sameAsV8([
      `let s = 0; for (let i = 0; i < 10; i++) { if (i % 2) continue; s += i } return s`,
      `const r = []; outer: for (let i = 0; i < 3; i++) { for (let j = 0; j < 3; j++) { if (j == 1) continue outer; if (i == 2) break outer; r.push([i, j]) } } return r`,
      `let i = 0; do { i++ } while (i < 5); while (i < 10) i += 2; return i`,
      `label: { break label; } return "ok"`,
      `a: b: for (;;) { for (;;) { break a } } return 1`,
      `function sw(v) { const r = []; switch (v) { case 1: r.push(1); case 2: r.push(2); break; default: r.push("d"); case 3: r.push(3) } return r } return [sw(1), sw(2), sw(3), sw(9)]`,
      `const r = []; switch (2) { case (r.push("t1"), 1): break; case (r.push("t2"), 2): r.push("hit"); break; case (r.push("t3"), 3): } return r`,
      `switch (1) { case 1: let x = "a"; case 2: try { x } catch (e) { return [x, "ok"] } } return "end"`,
      `function f(v) { switch (v) { case 2: let x; default: return typeof x } } try { return f(1) } catch (e) { return e.message }`,
      `const fs = []; for (let i = 0; i < 3; i++) fs.push(() => i); return fs.map((f) => f())`,
      `const fs = []; for (let i = 0; i < 6; i++) { fs.push(() => i); i++ } return fs.map((f) => f())`,
      `const fs = []; for (var i = 0; i < 3; i++) fs.push(() => i); return fs.map((f) => f())`,
      `const fs = []; for (const k in { a: 1, b: 2 }) fs.push(() => k); for (const v of [3, 4]) fs.push(() => v); return fs.map((f) => f())`,
      `try { for (let x of x) {} } catch (e) { return [e.constructor.name, e.message] }`,
      // Updates for their effect, negated tests and branches that land on a loop's jump back.
      `const log = []; const o = { get n() { log.push("get"); return { valueOf() { log.push("valueOf"); return 1 } } }, set n(v) { log.push(v) } }; o.n++; o["n"]--; const a = [1n]; a[0]++; return [log, String(a[0])]`,
      `let s = 0; const r = []; for (const x of [1, 2, 3, 4]) { if (!(x % 2)) continue; if (!!x) s += x; else r.push(x) } let i = 0; while (!(i > 3)) i++; return [s, r, i, !i ? "a" : "b"]`,
      `let n = 0; for (const x of [1, 2, 3]) { if (x > 1) { n += x } else { n-- } } return n`,
    ])
  })

  it("for-in enumerates own then inherited enumerable keys, skipping shadowed and deleted ones", async () => {
    await sameAsV8([
      `const r = []; for (const k in { b: 1, a: 2, 2: 0, 1: 0, __proto__: { c: 3, a: 0, [Symbol()]: 1 } }) r.push(k); return r`,
      `const r = []; const o = { a: 1, b: 2, c: 3 }; for (const k in o) { r.push(k); delete o.b } return r`,
      `const r = []; const p = { x: 1 }; const o = Object.create(p, { x: { value: 1, enumerable: false } }); for (const k in o) r.push(k); return r`,
      `const r = []; for (const k in [7, , 9]) r.push(k); for (const k in "ab") r.push(k); for (const k in null) r.push(k); for (const k in 5) r.push(k); return r`,
      `const o = {}; const r = []; for (o.k in { a: 1, b: 2 }) r.push(o.k); return r`,
    ])
  })

  it("for-of closes iterators on break, return and throw, not when exhausted", async () => {
    await sameAsV8([
      `const log = []; const it = { [Symbol.iterator]() { let i = 0; return { next: () => ({ done: i >= 3, value: i++ }), return() { log.push("ret"); return {} } } } }; for (const x of it) { if (x == 1) break } for (const x of it) {} function f() { for (const x of it) return x } f(); try { for (const x of it) throw 1 } catch {} return log`,
      `const it = { [Symbol.iterator]() { return { next: () => ({ done: false, value: 1 }), return() { throw new Error("from return") } } } }; try { for (const x of it) break } catch (e) { return e.message }`,
      `const it = { [Symbol.iterator]() { return { next: () => ({ done: false, value: 1 }), return() { throw new Error("from return") } } } }; try { for (const x of it) throw new Error("body") } catch (e) { return e.message }`,
      `const it = { [Symbol.iterator]() { return { next: () => 5 } } }; try { for (const x of it) {} } catch (e) { return e.message }`,
      `const r = []; for (const [k, v] of new Map([[1, "a"], [2, "b"]])) r.push(k + v); for (const c of "héllo") r.push(c); return r`,
      `const a = [1, 2, 3]; const r = []; for (const x of a) { r.push(x); if (a.length < 5) a.push(x * 10) } return r`,
    ])
  })

  it("try/catch/finally completions and return overrides", async () => {
    await sameAsV8([
      `function f() { try { return 1 } finally { r.push("f") } } const r = []; return [f(), r]`,
      `function f() { try { throw 1 } catch (e) { return e + 1 } finally { } } return f()`,
      `function f() { try { return "a" } finally { return "b" } } return f()`,
      `function f() { try { throw new Error("x") } finally { return "swallowed" } } return f()`,
      `function f() { for (const x of [1, 2, 3]) { try { if (x == 2) return x } finally { } } } return f()`,
      `function f() { const r = []; for (const x of [1, 2, 3]) { try { if (x == 2) break; r.push(x) } finally { r.push("f" + x) } } return r } return f()`,
      `function f() { const r = []; for (let i = 0; i < 3; i++) { try { try { if (i == 1) continue; r.push(i) } finally { r.push("in" + i) } } finally { r.push("out" + i) } } return r } return f()`,
      `function f() { let i = 0; while (true) { try { i++; if (i > 2) return i } finally { if (i < 5) continue } } } return f()`,
      `function f() { try { try { throw new Error("a") } finally { throw new Error("b") } } catch (e) { return e.message } } return f()`,
      `function f() { try { throw 1 } catch { return "no binding" } } return f()`,
      `function f() { try { throw { a: 1, b: [2] } } catch ({ a, b: [c] }) { return a + c } } return f()`,
      `const e = "outer"; try { throw "inner" } catch (e) { var e2 = e } return [e, e2]`,
    ])
  })

  it("tracks the program's completion value when there is no return", () => {
    expect(run(`let x = 1; x + 1`)).toBe(2)
    expect(run(`if (true) { 5 } else { 6 }`)).toBe(5)
    expect(run(`7; if (false) { 5 }`)).toBe(undefined)
    expect(run(`for (let i = 0; i < 3; i++) i * 2`)).toBe(4)
    expect(run(`1; while (false) {}`)).toBe(undefined)
    expect(run(`try { 1 } finally { 2 }`)).toBe(1)
    expect(run(`try { throw 1 } catch (e) { e + 10 }`)).toBe(11)
    expect(run(`3; var v = 1; let w = 2; function f() {}`)).toBe(3)
    expect(run(`"a"; { "b" }`)).toBe("b")
    expect(run(`const o = { a: 1 }; o`)).toEqual({ a: 1 })
    expect(run(`x: { 1; break x; }`)).toBe(1)
    expect(run(`switch (1) { case 1: "one" }`)).toBe("one")
    expect(run(`await Promise.resolve(9)`)).toBe(9)
    expect(run(`Promise.resolve(9)`)).toEqual({})
    expect(run(`return 5; 6`)).toBe(5)
  })

  it("throw of any value", () => {
    expect(run(`throw 42`)).toEqual({ threw: 42 })
    expect(run(`throw { code: 1 }`)).toEqual({ threw: { code: 1 } })
    expect(run(`throw new RangeError("r")`)).toEqual({ threw: "RangeError: r" })
  })
})
