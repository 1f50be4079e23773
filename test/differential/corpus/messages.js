// V8's wording of the TypeErrors that name an expression or describe a value: "x is not a function", and the many
// forms of "is not iterable", whose choice depends on the construct (src/language/call-printer.ts). A program that
// reads a message sees it, so each form is checked here on values of every type.

// === not-iterable-assignment-pattern
// An assigned array pattern names nothing: the message describes the value, whatever the source.
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
const x = 0, o = { p: 2 }, fn = () => 1
let a
return [
  msg(() => { [a] = 0 }), msg(() => { [a] = x }), msg(() => { [a] = undefined }), msg(() => { [a] = null }),
  msg(() => { [a] = {} }), msg(() => { [a] = true }), msg(() => { [a] = Symbol("s") }), msg(() => { [a] = 1n }),
  msg(() => { [a] = function () {} }), msg(() => { [a] = o.p }), msg(() => { [a] = fn() }), msg(() => { [a] = -0.5 }),
  msg(() => { [[a]] = [0] }), msg(() => { [[a]] = [null] }), msg(() => { for ([a] of [0]); }), msg(() => { [...a] = 5 }),
  msg(() => { [a = 1] = 5 }), msg(() => { a = [a] = 0 }), msg(() => { [o.x] = 5 }),
]

// === not-iterable-declaration
// A declaration names its initializer ("x is not iterable"), unless evaluating it ends on an operation with a
// position of its own in V8 (a property read, a method call, an operator, a comma): then it describes the value.
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
let x = 5, y
const o = { p: 5, n: null, f() { return 1 } }, f = () => 1, n = () => null
class C {}
const tag = () => 1
return [
  msg(() => { const [b] = x }), msg(() => { const [b] = 0 }), msg(() => { const [b] = null }), msg(() => { const [b] = undefined }),
  msg(() => { const [b] = true }), msg(() => { const [b] = f() }), msg(() => { const [b] = n() }), msg(() => { const [b] = new C() }),
  msg(() => { const [b] = {} }), msg(() => { const [b] = { a: 1, b: 2 } }), msg(() => { const [b] = Symbol() }), msg(() => { const [b] = 1n }),
  msg(() => { const [b] = -x }), msg(() => { const [b] = !x }), msg(() => { const [b] = void 0 }), msg(() => { const [b] = x ? 1 : 2 }),
  msg(() => { const [b] = function () {} }), msg(() => { const [b] = this }), msg(() => { const [b] = /a/g }),
  msg(() => { const [b] = o.p }), msg(() => { const [b] = o.n }), msg(() => { const [b] = o["p"] }), msg(() => { const [b] = o.f() }),
  msg(() => { const [b] = o?.p }), msg(() => { const [b] = x + 1 }), msg(() => { const [b] = x + 1 + 2 }), msg(() => { const [b] = x && 5 }),
  msg(() => { const [b] = (0, x) }), msg(() => { const [b] = (x, y, 1) }), msg(() => { const [b] = (y = 5) }), msg(() => { const [b] = x++ }),
  msg(() => { const [b] = tag`a` }), msg(() => { let [b] = null }), msg(() => { var [b] = x }),
]

// === not-iterable-for-of-and-spread
// for-of, for await and a spread in an array literal name the iterable, null and undefined alike; for-of and for
// await find neither an optional chain nor an n-ary operation. An async iteration V8 cannot name calls the
// missing method.
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
const amsg = async (f) => { try { await f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
let x = 5
const o = { p: 5, n: null, q: {} }, f = () => 1, n = () => null, k = "p"
class C {}
const sources = [
  ["x", () => x], ["null", () => null], ["undefined", () => undefined], ["o.p", () => o.p], ["o.n", () => o.n], ["o.z", () => o.z],
  ["o[k]", () => o[k]], ["f()", () => f()], ["n()", () => n()], ["{}", () => ({})], ["1n", () => 1n], ["Symbol()", () => Symbol()],
]
const out = []
for (const v of [5, null, undefined, {}, Symbol(), true]) {
  out.push(msg(() => { for (const b of v); }), msg(() => [...v]))
  out.push(await amsg(async () => { for await (const b of v); }))
}
out.push(
  msg(() => { for (const b of o.p); }), msg(() => [...o.p]), msg(() => { for (const b of o.z); }), msg(() => [...o.q.z]),
  msg(() => { for (const b of o[k]); }), msg(() => [...o["p"]]), msg(() => { for (const b of f()); }), msg(() => [...n()]),
  msg(() => { for (const b of new C()); }), msg(() => [...new C()]), msg(() => { for (const b of o?.p); }), msg(() => [...o?.p]),
  msg(() => { for (const b of x + 1); }), msg(() => [...x + 1]), msg(() => { for (const b of x + 1 + 2); }), msg(() => [...x + 1 + 2]),
  msg(() => { for (const b of (0, x)); }), msg(() => { for (const b of (x, x, 1)); }), msg(() => [...(x, x, 1)]), msg(() => [...-x]),
  msg(() => { for (const b of { a: 1 }); }), msg(() => [...{}]), msg(() => [...1n]), msg(() => { for (const b of function () {}); }),
  msg(() => [...(x ? 1 : 2)]), msg(() => [...(x && 5)]), msg(() => [...`a${x}`.length]), msg(() => [...[1, , 2][1]]),
)
out.push(
  await amsg(async () => { for await (const b of o.p); }), await amsg(async () => { for await (const b of f()); }),
  await amsg(async () => { for await (const b of new C()); }), await amsg(async () => { for await (const b of o?.p); }),
  await amsg(async () => { for await (const b of x + 1 + 2); }), await amsg(async () => { for await (const b of 1n); }),
)
return out

// === not-iterable-pattern-property
// An array pattern that is a property's value in the outermost object pattern names that pattern's source.
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
let a
const out = []
for (const p of [0, null, undefined, true, {}]) {
  const o = { p }
  const f = () => o
  out.push(
    msg(() => { ({ p: [a] } = o) }), msg(() => { const { p: [b] } = o }), msg(() => { ({ p: [a] } = { p }) }),
    msg(() => { ({ p: [a] } = f()) }), msg(() => { ({ ["p"]: [a] } = o) }), msg(() => { ({ q: a, p: [...a] } = o) }),
    msg(() => { ({ p: [a] = 1 } = o) }), msg(() => { ({ x: { p: [a] } } = { x: o }) }), msg(() => { [{ p: [a] }] = [o] }),
    msg(() => { for ({ p: [a] } of [o]); }), msg(() => { (({ p: [b] }) => b)(o) }), msg(() => { a = { p: [a] } = o }),
  )
}
return out

// === not-iterable-call-spread
// The only spread of an argument list, last, has V8's own message, and names the argument if it is null or
// undefined; any other spread argument describes the value, or names the callee of a call.
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
function g() {}
class C {}
const o = { p: null, f: () => 5 }, n = () => null, five = () => 5
const out = []
for (const v of [5, null, undefined, {}, Symbol()]) {
  out.push(msg(() => g(...v)), msg(() => g(1, ...v)), msg(() => g(...v, 1)), msg(() => g(...[], ...v)), msg(() => new g(...v)))
}
out.push(msg(() => g(...o.p)), msg(() => g(1, ...o.z)), msg(() => g(...n())), msg(() => g(...null)), msg(() => o.f?.(...null)))
out.push(msg(() => g(...five(), 1)), msg(() => g(...n(), 1)), msg(() => g(...o.f(), ...[])), msg(() => g(1, ...new C(), 2)), msg(() => g(...Symbol(), 1)))
return out

// === not-iterable-yield-star
// yield* names "(intermediate value)" when evaluating its operand ends on an operation with a position of its own;
// otherwise it describes the value, and an async generator calls the missing method.
const x = { p: 5, n: null }, f = () => 5
class C {}
let y = 5
const out = []
const sync = [
  function* () { yield* x }, function* () { yield* 5 }, function* () { yield* null }, function* () { yield* x.p },
  function* () { yield* x.n }, function* () { yield* x["p"] }, function* () { yield* f() }, function* () { yield* new C() },
  function* () { yield* -y }, function* () { yield* !y }, function* () { yield* (y = 5) }, function* () { yield* y++ },
  function* () { yield* (y, 5) }, function* () { yield* (y, y, 5) }, function* () { yield* y + 1 }, function* () { yield* y + 1 + 2 },
  function* () { yield* (y ? 1 : 2) }, function* () { yield* (y && 5) }, function* () { yield* {} }, function* () { yield* x?.p },
]
for (const g of sync) {
  try {
    g().next()
    out.push("no throw")
  } catch (e) {
    out.push(e.constructor.name + ": " + e.message)
  }
}
const asyncs = [
  async function* () { yield* x }, async function* () { yield* 5 }, async function* () { yield* null },
  async function* () { yield* x.p }, async function* () { yield* f() }, async function* () { yield* {} },
  async function* () { yield* y + 1 + 2 },
]
for (const g of asyncs) out.push(await g().next().then(() => "no throw", (e) => e.constructor.name + ": " + e.message))
return out

// === not-iterable-builtins-nullish
// Built-ins that iterate their argument say what V8 says of null and undefined.
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
return [
  msg(() => Array.from(null)), msg(() => Array.from()), msg(() => Array.from(undefined, (v) => v)), msg(() => Uint8Array.from(null)),
  msg(() => Object.fromEntries(null)), msg(() => Object.fromEntries()), msg(() => Object.groupBy(null, (v) => v)),
  msg(() => Map.groupBy(undefined, (v) => v)), msg(() => Object.groupBy(5, (v) => v)), msg(() => new Map(5)),
  await Promise.all(null).catch((e) => e.message), await Promise.race(undefined).catch((e) => e.message),
  await Array.fromAsync(null).catch((e) => e.message),
]

// === callee-text
// How V8 prints the expression it names: operators in parentheses, n-ary chains flat, string keys dotted, literals
// by value, optional chains and `super` as "(intermediate value)".
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
let x = 5, y
const o = { p: { q: 7 }, q: 1 }, f = () => 1
const s = { __proto__: { m() {} }, t() { return [msg(() => super.nope()), msg(() => { const { a } = super.nope })] } }
return [
  msg(() => (x + 1)()), msg(() => (x + 1 + 2)()), msg(() => (-x)()), msg(() => (0, x)()), msg(() => (x, y, 1)()),
  msg(() => (y = 5)()), msg(() => (x += 1)()), msg(() => (x ? 1 : 2)()), msg(() => (x && 5)()), msg(() => (x ?? 5)()),
  msg(() => (void 0)()), msg(() => (x++)()), msg(() => (++x)()), msg(() => (typeof x)()), msg(() => (delete o.z)()),
  msg(() => [1, 2]()), msg(() => []()), msg(() => [1, , 2]()), msg(() => `a${x}`()), msg(() => ({})()), msg(() => ({ a: 1 })()),
  msg(() => ({ a: 1 }).f()), msg(() => o["a b"]()), msg(() => o[x + 1]()), msg(() => o[1.5]()), msg(() => o[f()]()),
  msg(() => o.p?.z()), msg(() => (o?.p)()), msg(() => f()()), msg(() => new f()), msg(() => new ({ a: 1 })()),
  msg(() => /a/gi()), msg(() => 0x10()), msg(() => 1.5e21()), msg(() => (x instanceof Object)()), msg(() => ("s" in o)()),
  msg(() => { const { a } = null }), msg(() => { const { a } = o.z }), msg(() => { const { a } = o?.z }),
  msg(() => { const { a } = x ? null : null }), ...s.t(),
]

// === destructuring-nullish-sources
// Destructuring null or undefined names the source as V8 prints it: the expression, V8's internal variable for a
// catch parameter (.catch) or a for-of declaration (.for), a parameter default's conditional, a parameter's value
// by its type; a nested pattern or a for-of assignment head reports the failed property read.
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
const k = "a"
let a, b
const out = []
for (const v of [null, undefined]) {
  const o = { p: v }
  out.push(
    msg(() => { const { a } = v }), msg(() => { ({ a } = v) }), msg(() => { const { [k]: a } = v }), msg(() => { const {} = v }),
    msg(() => { try { throw v } catch ({ a }) {} }), msg(() => { try { throw v } catch ({}) {} }), msg(() => { try { throw v } catch ([a]) {} }),
    msg(() => { for (const { a } of [v]); }), msg(() => { for (var { a } of [v]); }), msg(() => { for (const [a] of [v]); }),
    msg(() => { for ({ a } of [v]); }), msg(() => { for ([a] of [v]); }), msg(() => { (({ a }) => a)(v) }), msg(() => { (({}) => 1)(v) }),
    msg(() => { (function ({ a } = v) {})() }), msg(() => { (function ([a] = v) {})() }), msg(() => { (([a]) => a)(v) }),
    msg(() => { const { p: { a } } = o }), msg(() => { ({ p: { a } } = o) }), msg(() => { const [{ a }] = [v] }), msg(() => { ({ p: { ...a } } = o) }),
    msg(() => { try { throw o } catch ({ p: [a] }) {} }), msg(() => { for (const { p: [a] } of [o]); }), msg(() => { (({ p: [a] }) => a)(o) }),
    msg(() => { (function ({ p: [a] } = o) {})() }), msg(() => { for (let { p: [a] } in { x: 1 }); }),
  )
}
const o = { p: 3 }
out.push(
  msg(() => { try { throw o } catch ({ p: [a] }) {} }), msg(() => { for (const { p: [a] } of [o]); }), msg(() => { for (const [a] of [3]); }),
  msg(() => { (({ p: [a] }) => a)(o) }), msg(() => { (function ({ p: [a] } = o) {})() }), msg(() => { (function ([a] = 3) {})() }),
)
class K { m({ p: [b] }) {} }
out.push(msg(() => new K().m({ p: null })), msg(() => { function* g({ p: [b] }) {} g({ p: undefined }) }))
return out

// === in-operator-not-object
// `key in v` where v is not an object: V8 prints both sides without running code, strings and bigints bare
// (found by the fuzzer, seed 41230001, program 41231025: `#h in ""`).
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
class K { #h; static has(o) { return #h in o } }
return [
  msg(() => "a" in ""), msg(() => "a" in "abc"), msg(() => "a" in 5), msg(() => "a" in null), msg(() => "a" in undefined),
  msg(() => "a" in Symbol("q")), msg(() => "a" in 1n), msg(() => "a" in true), msg(() => "a" in -0), msg(() => 1 in "ab"),
  msg(() => Symbol.iterator in "ab"), msg(() => ({}) in "ab"), msg(() => [1, 2] in "ab"), msg(() => new Map() in "ab"),
  msg(() => K.has("")), msg(() => K.has("xy")), msg(() => K.has(5)), msg(() => K.has(Symbol("s"))), msg(() => K.has(2n)),
  msg(() => Reflect.has("ab", "a")),
]

// === folded-literals
// V8's parser folds operators on literals into a literal and prints its value: `(-1).join` is "-1.join"
// (found by the fuzzer, seed 83390007, program 83393263); comparisons, commas and BigInts stay operators.
const msg = (f) => { try { f(); return "no throw" } catch (e) { return e.constructor.name + ": " + e.message } }
const x = 1
return [
  msg(() => (-1).join()), msg(() => (1 + 2).join()), msg(() => (!0).join()), msg(() => (~1).join()), msg(() => (+"1").join()),
  msg(() => (2 ** 3).join()), msg(() => (1 < 2).join()), msg(() => (-0).join()), msg(() => (1 / 0).join()), msg(() => (-1 + 2).join()),
  msg(() => (!"a").join()), msg(() => (!null).join()), msg(() => (1 - -1).join()), msg(() => ("a" + "b").join()), msg(() => (-1n).join()),
  msg(() => (7 / 2).join()), msg(() => (-x).join()), msg(() => (1, 2).join()), msg(() => { const [b] = -1 }), msg(() => { const [b] = 1 + 2 }),
  msg(() => { for (const b of 1 + 2); }), msg(() => [...!0]), msg(() => { function* g() { yield* -1 } g().next() }),
  msg(() => { function* g() { yield* 1 + 2 } g().next() }),
]
