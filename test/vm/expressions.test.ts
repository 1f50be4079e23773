import { describe, expect, it } from "vitest"
import { run, sameAsV8 } from "./helpers.ts"

describe("expressions", () => {
  it("arithmetic, strings, comparison and coercion match V8", async () => {
    await sameAsV8([
      `return [1 + "2", "3" * "4", 2 ** 10, 7 % 3, -7 % 3, -7 >> 1, -7 >>> 28, 1 << 31, 5 / 0, -5 / 0, 0 / 0, 0.1 + 0.2]`,
      `return [~5, -(-3), +"", +"12px", +" 42 ", !!"", !!"0", 5 & 3, 5 | 3, 5 ^ 3, 2 ** -1, (-2) ** 2]`,
      `return [1 < 2 < 3, 3 > 2 > 1, "b" > "a", "10" < "9", 10 < 9, "10" < 9, null >= 0, undefined < 1, NaN <= NaN]`,
      `return [null == undefined, null === undefined, NaN == NaN, "1" == 1, 0 == "", [] == false, [1] == 1, ({}) == "[object Object]"]`,
      `return [typeof null, typeof function () {}, typeof class {}, typeof Symbol(), typeof {}, typeof [], typeof 1n, void 0]`,
      `const o = { valueOf() { return 10 } }; return [o + 1, o * 2, o > 5, +o, \`\${o}\`, o == 10]`,
      `const o = { [Symbol.toPrimitive](h) { return h } }; return [\`\${o}\`, o + "", +{ [Symbol.toPrimitive]: () => 7 }]`,
      `const o = { toString() { return "T" }, valueOf() { return {} } }; return [o + "", String(o), \`\${o}\`]`,
      `try { ({ valueOf() { return {} }, toString() { return {} } }) + 1 } catch (e) { return e.message }`,
      `let i = 0; const a = [i++, i++, ++i, i--, --i]; return [a, i]`,
      `return (1, 2, 3)`,
      `return [0 || "x", 1 && 2, null ?? 3, 0 ?? 3, "" || null || 0, 1 && 0 && 2]`,
      `let x = 1; x += 2; x **= 2; x ||= 5; let y = null; y ??= 7; let z = 1; z &&= 9; x -= 1; x <<= 1; x >>>= 1; return [x, y, z]`,
      `const o = {}; o.a ??= 1; o.a ??= 2; o.b ||= 3; o.c &&= 4; o["d"] = 5; return o`,
      `let n = 0; const o = { get p() { n++; return 1 }, set p(v) { n += 10 } }; o.p += 1; o.p ||= 5; o.p &&= 0; return n`,
      `const o = { n: 1 }; o.n++; ++o.n; o["n"] += 1; const k = "n"; o[k]--; return [o.n, o.n++, o.n, o[k]++, --o[k]]`,
      `try { Symbol() + "" } catch (e) { return e.message }`,
      `try { \`\${Symbol()}\` } catch (e) { return e.message }`,
      `return [String(Symbol("x")), Symbol("d").description, typeof Symbol.iterator]`,
    ])
  })

  it("an operator on two register operands (BinRegReg) matches V8 on every type and in its slow paths", async () => {
    await sameAsV8([
      `const ops = [(a, b) => a + b, (a, b) => a - b, (a, b) => a * b, (a, b) => a / b, (a, b) => a % b, (a, b) => a ** b,
        (a, b) => a << b, (a, b) => a >> b, (a, b) => a >>> b, (a, b) => a & b, (a, b) => a | b, (a, b) => a ^ b]
      const pairs = [[7, 3], [-7.5, 2], [2 ** 31, 1], [-0, 0], [NaN, 1], [1, "2"], ["8", 2], ["a", "b"], [5, null], [undefined, 1], [3, true]]
      return [ops.map((f) => pairs.map(([a, b]) => f(a, b))), ops.map((f, i) => (i === 8 ? "-" : f(3n, 2n)))]`,
      `const f = (a, b) => a >>> b; try { f(3n, 2n) } catch (e) { return [e.name, e.message] }`,
      `let calls = 0; const f = (a, b) => a - b + a * b
      const o = { valueOf() { calls++; return 4 } }
      return [f(o, 2), f(3, o), f(o, o), [o, 1, o].sort((a, b) => a - b).length, calls]`,
      `const f = (a, b) => a + b; return [f({ toString() { return "x" } }, 1), f([1], [2]), f(1, { valueOf: () => 2n })]`,
      `const f = (a, b) => a - b; try { f(1n, 1) } catch (e) { return [e.name, e.message] }`,
      `const f = (a, b) => a - b; try { f({ valueOf() { throw new RangeError("v") } }, 1) } catch (e) { return [e.name, e.message] }`,
      `try { a - b; let a = 1; let b = 2 } catch (e) { return [e.name, e.message] }`,
      `let s = 0; for (let i = 0; i < 5; i++) { const d = i; s = s - d + i * d } return s`,
    ])
  })

  it("a named property of a register binding (GetFieldReg) reads as GetField does, getters, primitives and errors included", async () => {
    await sameAsV8([
      `const rows = [{ price: 3, qty: 2 }, { price: 5, qty: 0 }]; return rows.map((r) => r.price * r.qty + r.missing)`,
      `let n = 0; const o = { get p() { n++; return this.q }, q: 7 }; const f = (x) => x.p + x.p; return [f(o), n, f(Object.create(o)), n]`,
      `const f = (s) => [s.length, s.constructor.name, s.toString === String.prototype.toString]; return [f("abc"), f(5).slice(1)]`,
      `const f = (x) => x.p; try { f(undefined) } catch (e) { return [e.name, e.message] }`,
      `const f = (x) => x.p; try { f(null) } catch (e) { return [e.name, e.message] }`,
      `const f = (x) => x.p; try { f({ get p() { throw new RangeError("g") } }) } catch (e) { return [e.name, e.message] }`,
      `try { a.p; let a = {} } catch (e) { return [e.name, e.message] }`,
      `const shapes = [{ p: 1 }, { q: 0, p: 2 }, [3], { p: 4 }]; const f = (x) => x.p; return shapes.map(f).concat(shapes.map((x) => x.length))`,
    ])
  })

  it("BigInt", () => {
    expect(run(`return [2n ** 64n, -5n / 2n, 5n % -3n, 1n << 3n, BigInt(10) === 10n, 10n > 5, 1n == 1, -(-3n), ~1n, typeof 1n]`)).toEqual([
      2n ** 64n,
      -2n,
      2n,
      8n,
      true,
      true,
      true,
      3n,
      -2n,
      "bigint",
    ])
    expect(run(`try { 1n + 1 } catch (e) { return e.message }`)).toBe("Cannot mix BigInt and other types, use explicit conversions")
    expect(run(`let b = 1n; b++; b += 2n; return b`)).toBe(4n)
  })

  it("objects and arrays", async () => {
    await sameAsV8([
      `const k = "z"; const o = { x: 1, get y() { return this.x + 1 }, set y(v) { this.x = v }, [k + 1]: 3, 2: "two", "s t": 4 }; o.y = 10; return [o.y, o.z1, Object.keys(o)]`,
      `const p = { a: 1 }; const o = { __proto__: p, b: 2 }; const q = { "__proto__": p }; const r = { ["__proto__"]: 5 }; return [o.a, Object.getPrototypeOf(q) === p, Object.keys(r)]`,
      `const __proto__ = 7; const o = { __proto__ }; return Object.keys(o)`,
      `const o = { a: 1 }; const copy = { ...o, b: 2, ...null, ...undefined, ..."hi", ...[9] }; return copy`,
      `const a = [1, , 3]; a[5] = 6; return [a.length, 1 in a, a[4], 4 in a, a.indexOf(6), a]`,
      `const a = []; a.length = 3; a.x = 1; return [a.length, Object.keys(a), [, ,].length, [1, ...[2, 3], , 4]]`,
      `const s = "abc"; return [s[1], s.at(-1), s.length, s["length"], s[5], "x".y]`,
      `const o = { a: { b: null } }; return [o?.a?.b?.c, o.x?.y.z, o.a.b ?? "d", delete o.a, o, delete o.zz]`,
      `const o = { v: 42, get() { return this.v } }; const n = null; return [o.get?.(), o?.get(), (o?.get)(), n?.get(), n?.["x"]]`,
      `const f = null; return [f?.(), f?.a.b.c(), typeof f?.x]`,
      `const o = { f() { return this } }; return [o.f() === o, o["f"]() === o, (0, o.f)() === undefined]`,
      `const a = [3, 1, 2]; return [...a, ...new Set([1, 1, 2]), ..."ab"].concat(Math.max(...a))`,
      `function f(...args) { return args } return f(...[1, 2], 3, ...new Set([4]), ...[])`,
      `return [Math.max.apply(null, [1, 5, 2]), Math.max.call(null, 1, 7), ((a, b) => a + b).bind(null, 1)(2)]`,
      `const o = { m() { return super.constructor === Object } }; return o.m()`,
      `const base = { greet() { return "base" } }; const o = { __proto__: base, greet() { return "o+" + super.greet() } }; return o.greet()`,
      `return ["a" in { a: 1 }, 0 in [1], "length" in [], Symbol.iterator in []]`,
      `try { "a" in 5 } catch (e) { return e.message }`,
      `function F() {} const f = new F(); return [f instanceof F, f instanceof Object, [] instanceof Array, Object.create(null) instanceof Object]`,
      `class Even { static [Symbol.hasInstance](n) { return n % 2 === 0 } } return [2 instanceof Even, 3 instanceof Even]`,
      `try { 1 instanceof 2 } catch (e) { return e.message }`,
    ])
  })

  it("templates", async () => {
    await sameAsV8([
      "const x = 1; return `a${x}b${x + 1}c${[1, 2]}d${{}}`",
      "const t = (s, ...v) => s.raw.join('|') + v.join(','); return t`a${1}b${2}c\\n`",
      "function tag(s) { return s } const a = []; for (let i = 0; i < 2; i++) a.push(tag`x`); return [a[0] === a[1], Object.isFrozen(a[0]), Object.isFrozen(a[0].raw), a[0].raw]",
      "function tag(s) { return s } return [tag`x` === tag`x`]",
      "const o = { f(s) { return this === o } }; return o.f`x`",
      "return (s => s[0] === undefined && s.raw[0] === '\\\\u{')`\\u{`",
    ])
  })

  it("regular expression literals are fresh objects", async () => {
    await sameAsV8([`const f = () => /x/g; const a = f(); a.lastIndex = 3; return [f().lastIndex, a !== f(), "xx".replace(/x/g, "y"), /a(b)/.exec("xab")[1]]`])
  })

  it("delete", async () => {
    await sameAsV8([
      `const o = { a: 1 }; return [delete o.a, delete o.b, "a" in o, delete o[0]]`,
      `"use strict"; const o = Object.freeze({ a: 1 }); try { delete o.a } catch (e) { return e.message }`,
      `const o = Object.freeze({ a: 1 }); return delete o.a`,
      `globalThis.gg = 1; return [delete globalThis.gg, typeof gg]`,
    ])
  })
})
