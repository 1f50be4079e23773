/**
 * A grammar of random programs for the differential fuzzer, as fast-check arbitraries of source text (so a failing
 * program shrinks). Every program terminates and calls no tools: loops run at most three times, a function may
 * only call the functions declared before it (no recursion by name), `for-of` walks a fresh array or a generator.
 * It stays within what docs/language.md supports, avoiding what is non-deterministic there (Math.random, clocks).
 *
 * Shape: top-level `let v0..v3`; then functions of growing level (f0 plain, g0 generator, a0 async, K0/K1 classes,
 * f1 calling them all); then top-level statements; then `return __show([v0, v1, v2, v3])` (prelude.ts).
 */
import fc from "fast-check"

type Arb = fc.Arbitrary<string>

/** Where code is generated: what it may call, and which statements and operators are legal there. */
interface Ctx {
  /** Callables declared before this code: 0 none, 1 f0, 2 + g0 a0, 3 + K0 K1, 4 + f1. */
  readonly level: number
  readonly inFunction: boolean
  readonly inGenerator: boolean
  readonly inAsync: boolean
  readonly inLoop: boolean
  /** A method of a class: `this`, and `super` in K1. */
  readonly inMethod: "" | "base" | "derived"
  /** Nesting depth of blocks, which names the block's own bindings (t<depth>, i<depth>, n<depth>, l<depth>). */
  readonly depth: number
  /** The `t<depth>` bindings in scope. */
  readonly ts: ReadonlyArray<string>
  /** Loop counters in scope: readable, never assigned (loops must end). */
  readonly counters?: ReadonlyArray<string>
}

const key = (c: Ctx): string =>
  `${c.level}${+c.inFunction}${+c.inGenerator}${+c.inAsync}${+c.inLoop}${c.inMethod}${c.depth}:${c.ts.join(",")}:${(c.counters ?? []).join(",")}`

const TOP: Ctx = { level: 4, inFunction: false, inGenerator: false, inAsync: true, inLoop: false, inMethod: "", depth: 0, ts: [] }

const VARS = ["v0", "v1", "v2", "v3"]

const join = (...parts: Array<Arb>): Arb => fc.tuple(...parts).map((p) => p.join(""))
const lit = (...values: Array<string>): Arb => fc.constantFrom(...values)

// --- Expressions ----------------------------------------------------------------------------------------------

const NUMBERS = ["0", "1", "2", "3", "(-1)", "0.5", "NaN", "(-0)", "Infinity", "1e21", "(2 ** 53)", "0x10", "255"]
const STRINGS = ['""', '"a"', '"ab"', '"0"', '"1"', '"x y"', '"length"', '"constructor"', '"é😀"', "'u1'"]
const OTHER = ["true", "false", "null", "undefined", "0n", "1n", "(-2n)", "Symbol.iterator", "Symbol('s')", "[]", "{}", "[1, , 3]", "/a(b)?/g", "/x/y"]

/** Names readable here: the program's variables, then whatever this context binds. */
const names = (c: Ctx): Array<string> => {
  const out = [...VARS]
  if (c.inFunction) out.push("p0", "p1")
  out.push(...c.ts)
  if (c.inMethod !== "") out.push("this")
  return out
}

/** Names assignable here (not loop counters, not `this`). */
const assignable = (c: Ctx): Array<string> => names(c).filter((n) => n !== "this")
const readable = (c: Ctx): Array<string> => [...names(c), ...(c.counters ?? [])]

/** An expression as the object of `.x` or `(...)`: a name as is, anything else in parentheses (`(1).x`). */
const operand = (x: string): string => (/^[A-Za-z_$][\w$]*$/.test(x) ? x : `(${x})`)
const dot = (e: Arb): Arb => e.map(operand)

const leaf = (c: Ctx): Arb =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...readable(c)) },
    { weight: 2, arbitrary: lit(...NUMBERS) },
    { weight: 2, arbitrary: lit(...STRINGS) },
    { weight: 1, arbitrary: lit(...OTHER) },
  )

const BINARY = ["+", "-", "*", "/", "%", "**", "==", "===", "!=", "!==", "<", ">", "<=", ">=", "&", "|", "^", "<<", ">>", ">>>", "&&", "||", "??", "in", "instanceof"]
const UNARY = ["-", "+", "!", "~", "typeof ", "void "]

/** Methods called on arbitrary values: `(receiver).name(args)`; `f` marks an argument that is a callback. */
const METHODS: ReadonlyArray<readonly [string, number, boolean?]> = [
  ["join", 1], ["slice", 2], ["concat", 1], ["indexOf", 1], ["includes", 1], ["at", 1], ["push", 1], ["pop", 0],
  ["shift", 0], ["unshift", 1], ["reverse", 0], ["fill", 1], ["flat", 0], ["keys", 0], ["entries", 0], ["toString", 0],
  ["map", 0, true], ["filter", 0, true], ["find", 0, true], ["some", 0, true], ["every", 0, true], ["forEach", 0, true],
  ["reduce", 1, true], ["sort", 0, true], ["flatMap", 0, true], ["findLast", 0, true], ["toSorted", 0, true],
  ["toFixed", 1], ["toUpperCase", 0], ["trim", 0], ["split", 1], ["replace", 2], ["replaceAll", 2], ["charCodeAt", 1],
  ["padStart", 1], ["startsWith", 1], ["codePointAt", 1], ["localeCompare", 1], ["valueOf", 0], ["hasOwnProperty", 1],
  ["get", 1], ["set", 2], ["has", 1], ["add", 1], ["delete", 1], ["then", 0, true], ["next", 1], ["return", 1],
  ["description", -1], ["size", -1], ["length", -1], ["name", -1], ["message", -1], ["done", -1], ["value", -1],
]

/** Built-in functions called with arbitrary arguments. */
const BUILTINS: ReadonlyArray<readonly [string, number]> = [
  ["Object.keys", 1], ["Object.entries", 1], ["Object.assign", 2], ["Object.freeze", 1], ["Object.getPrototypeOf", 1],
  ["Object.fromEntries", 1], ["Object.defineProperty", 3], ["Object.create", 1], ["Object.is", 2], ["Object.groupBy", 2],
  ["Array.from", 1], ["Array.of", 2], ["Array.isArray", 1], ["JSON.stringify", 1], ["JSON.parse", 1], ["String", 1],
  ["Number", 1], ["Boolean", 1], ["BigInt", 1], ["parseInt", 2], ["parseFloat", 1], ["isNaN", 1], ["Math.max", 2],
  ["Math.floor", 1], ["Math.abs", 1], ["Math.sign", 1], ["Symbol", 1], ["Symbol.for", 1], ["Promise.resolve", 1],
  ["Promise.reject", 1], ["Promise.all", 1], ["Promise.allSettled", 1], ["Promise.race", 1], ["Reflect.ownKeys", 1],
  ["Reflect.has", 2], ["Reflect.get", 2], ["String.raw", 1], ["Number.isInteger", 1],
  ["encodeURIComponent", 1], ["Iterator.from", 1], ["Error", 1], ["Array.prototype.slice.call", 1],
]

const CONSTRUCTORS = ["Map", "Set", "Error", "TypeError", "RangeError", "Array", "Object", "Number", "String", "WeakMap", "Uint8Array"]

/** A user error whose message is compared verbatim. */
const userError: Arb = fc
  .tuple(lit("Error", "TypeError", "RangeError", "SyntaxError"), fc.nat(9))
  .map(([type, n]) => `new ${type}("u${n}")`)

/** Calls of the program's own functions that are visible at `level`. */
const userCall = (c: Ctx, e: Arb, args: Arb): Array<Arb> => {
  const out: Array<Arb> = []
  if (c.level >= 1) out.push(join(lit("f0("), args, lit(")")))
  if (c.level >= 2) {
    out.push(join(lit("[...g0("), args, lit(")]")), join(lit("g0("), args, lit(")")))
    out.push(c.inAsync ? join(lit("(await a0("), args, lit("))")) : join(lit("a0("), args, lit(")")))
    out.push(join(lit("ag0("), args, lit(")")), join(lit("ag0("), args, lit(").next("), e, lit(")")))
  }
  if (c.level >= 3) {
    out.push(join(lit("new K1("), args, lit(")")), join(lit("new K0("), args, lit(").m("), e, lit(")")))
    out.push(join(lit("K1.s("), e, lit(")")), join(lit("new K1("), args, lit(").m("), e, lit(")")))
    out.push(join(lit("new K1("), args, lit(").acc")), join(lit("[...new K1("), args, lit(").gen("), e, lit(")]")))
    out.push(join(lit("K0.has("), e, lit(")")), lit("K0.count", "new K1().f"))
  }
  if (c.level >= 4) out.push(join(lit("f1("), args, lit(")")))
  return out
}

const memo = new Map<string, Arb>()

export function expression(c: Ctx, size: number): Arb {
  const k = `e${key(c)}:${size}`
  let arb = memo.get(k)
  if (arb === undefined) {
    arb = size <= 0 ? leaf(c) : fc.constant(null).chain(() => buildExpression(c, size))
    memo.set(k, arb)
  }
  return arb
}

function buildExpression(c: Ctx, size: number): Arb {
  const e = expression(c, size - 1)
  const small = expression(c, Math.max(0, size - 2))
  const args = fc.array(fc.oneof({ weight: 4, arbitrary: small }, { weight: 1, arbitrary: small.map((x) => `...${x}`) }), { maxLength: 3 }).map((a) => a.join(", "))
  const target = fc.constantFrom(...assignable(c))
  const callback = arrow(c, size - 1)
  const options: Array<Arb> = [
    leaf(c),
    join(lit("("), e, fc.constantFrom(...BINARY).map((o) => ` ${o} `), e, lit(")")),
    join(lit("("), fc.constantFrom(...UNARY), e, lit(")")),
    join(lit("("), e, lit(" ? "), e, lit(" : "), e, lit(")")),
    join(lit("["), args, lit("]")),
    objectLiteral(c, size - 1),
    join(dot(e), lit("."), lit("a", "b", "length", "x", "constructor", "size")),
    join(dot(e), lit("?."), lit("a", "b", "length", "x")),
    join(dot(e), lit("["), e, lit("]")),
    join(dot(e), lit("?.["), small, lit("]")),
    fc.tuple(fc.constantFrom(...METHODS), e, fc.array(small, { maxLength: 2 }), callback).map(([[name, n, cb], recv, as, f]) => {
      if (n < 0) return `${operand(recv)}.${name}`
      const list = (cb === true ? [f, ...as.slice(0, n)] : as.slice(0, n)).join(", ")
      return `${operand(recv)}.${name}(${list})`
    }),
    fc.tuple(fc.constantFrom(...BUILTINS), fc.array(small, { minLength: 3, maxLength: 3 })).map(([[name, n], as]) => `${name}(${as.slice(0, n).join(", ")})`),
    fc.tuple(fc.constantFrom(...CONSTRUCTORS), args).map(([name, a]) => `new ${name}(${a})`),
    join(lit("("), target, lit(" = ", " += ", " -= ", " ??= ", " ||= ", " &&= ", " **= ", " |= "), e, lit(")")),
    join(lit("("), target, lit("++", "--"), lit(")")),
    join(lit("("), target, lit("."), lit("a", "b"), lit(" = ", " += "), e, lit(")")),
    join(lit("("), target, lit("["), small, lit("] = "), e, lit(")")),
    join(lit("(["), target, lit(", "), target, lit("] = "), e, lit(")")),
    join(lit("({ a: "), target, lit(", ...("), target, lit(").r } = "), e, lit(")")),
    join(lit("`a${"), e, lit("}b${"), small, lit("}`")),
    join(lit("((s, ...v) => s.raw.join(\"|\") + v.length + s.length)`x${"), e, lit("}y`")),
    callback,
    join(lit("("), callback, lit(")("), args, lit(")")),
    join(lit("(([x, , y = "), small, lit(", ...r] = []) => [x, y, r])("), e, lit(")")),
    join(lit("(({ a, b: { c } = {}, ...r }) => [a, c, r])("), e, lit(")")),
    join(lit("(function () { return [this === undefined, typeof arguments, arguments.length, new.target] })("), args, lit(")")),
    join(lit("new (class extends "), lit("Array", "Map", "Error", "Object"), lit(" { x = "), small, lit(" })("), args, lit(")")),
    join(lit("(typeof "), target, lit(")")),
    join(lit("(async (p0) => "), expression({ ...c, inFunction: true, inGenerator: false, inAsync: true, inLoop: false }, size - 1), lit(")("), small, lit(")")),
    join(dot(e), lit("?.("), args, lit(")")),
    join(lit("({ [Symbol.toPrimitive](h) { return "), small, lit(" + h } })")),
    join(lit("({ toJSON() { return "), small, lit(" } })")),
    join(lit("({ __proto__: "), small, lit(", a: "), small, lit(" })")),
    join(lit("new (class Q { static [\"x\" + "), small, lit("] = 1; #p = "), small, lit("; static { this.y = "), small, lit(" } get p() { return this.#p } })().p")),
    join(lit("(delete "), dot(e), lit(".a)")),
    join(lit("("), e, lit(", "), e, lit(")")),
    userError,
    ...userCall(c, e, args),
  ]
  if (c.inAsync) options.push(join(lit("(await "), e, lit(")")))
  if (c.inGenerator) options.push(join(lit("(yield "), e, lit(")")), join(lit("(yield* "), lit("["), args, lit("])")))
  if (c.inMethod === "derived") options.push(lit("super.m(1)", "super.acc"), join(lit("(super.acc = "), e, lit(")")))
  return fc.oneof(...options)
}

function arrow(c: Ctx, size: number): Arb {
  const inner: Ctx = { ...c, inFunction: true, inGenerator: false, inAsync: false, inLoop: false }
  const plain: Ctx = { ...inner, inMethod: "" }
  return fc.oneof(
    join(lit("((p0, p1) => "), expression(inner, Math.max(0, size - 1)), lit(")")),
    join(lit("(function (p0, p1) { "), statements(plain, Math.max(0, size - 1)), lit(" })")),
  )
}

function objectLiteral(c: Ctx, size: number): Arb {
  const e = expression(c, Math.max(0, size - 1))
  const inner: Ctx = { ...c, inFunction: true, inGenerator: false, inAsync: false, inLoop: false, inMethod: "" }
  const ie = expression(inner, Math.max(0, size - 2))
  const member = fc.oneof(
    join(lit("a: ", "b: ", "x: ", "0: ", '"k": '), e),
    join(lit("["), e, lit("]: "), e),
    join(lit("..."), e),
    lit("v0", "v1"),
    join(lit("get a() { return "), ie, lit(" }")),
    join(lit("set a(p0) { v0 = p0 }")),
    join(lit("m(p0, p1) { "), statements(inner, Math.max(0, size - 2)), lit(" }")),
    join(lit("*[Symbol.iterator]() { yield "), ie, lit("; yield 2 }")),
    join(lit("toString() { return "), ie, lit(" }")),
    join(lit("valueOf() { return "), ie, lit(" }")),
    lit("then(r) { r(7) }"),
  )
  // After a spread, V8 defines accessors after the data properties (a documented difference): none there.
  const accessor = /^[gs]et a\(/
  const kept = (ms: Array<string>) => ms.filter((m, i) => !accessor.test(m) || !ms.slice(0, i).some((p) => p.startsWith("...")))
  return fc.array(member, { maxLength: 3 }).map((ms) => `({ ${kept(ms).join(", ")} })`)
}

// --- Statements -----------------------------------------------------------------------------------------------

export function statements(c: Ctx, size: number): Arb {
  const k = `s${key(c)}:${size}`
  let arb = memo.get(k)
  if (arb === undefined) {
    arb = fc.array(statement(c, size), { minLength: 1, maxLength: size <= 0 ? 2 : 4 }).map((s) => s.join("\n"))
    memo.set(k, arb)
  }
  return arb
}

function statement(c: Ctx, size: number): Arb {
  const k = `t${key(c)}:${size}`
  let arb = memo.get(k)
  if (arb === undefined) {
    arb = fc.constant(null).chain(() => buildStatement(c, size))
    memo.set(k, arb)
  }
  return arb
}

function buildStatement(c: Ctx, size: number): Arb {
  const e = expression(c, Math.min(size, 2))
  const target = fc.constantFrom(...assignable(c))
  const simple: Array<Arb> = [
    e.map((x) => `${x};`),
    join(target, lit(" = "), e, lit(";")),
    join(lit("console.log(__show("), e, lit("));")),
    join(lit("console.log("), lit('"at"', '"log"'), lit(", "), lit("1", '"s"', "typeof v0"), lit(");")),
  ]
  if (c.inFunction) simple.push(join(lit("return "), e, lit(";")), lit("return;"))
  if (c.inLoop) simple.push(lit("break;", "continue;"))
  if (size <= 0) return fc.oneof(...simple)
  const d = c.depth + 1
  const t = `t${d}`
  const inner: Ctx = { ...c, depth: d }
  const bound: Ctx = { ...inner, ts: [...c.ts, t] }
  const loop: Ctx = { ...inner, inLoop: true }
  const boundLoop: Ctx = { ...bound, inLoop: true }
  const body = statements(inner, size - 1)
  const boundBody = statements(bound, size - 1)
  const loopBody = statements(loop, size - 1)
  const boundLoopBody = statements(boundLoop, size - 1)
  const usingBody = statements({ ...inner, counters: [...(c.counters ?? []), t] }, size - 1)
  const compound: Array<Arb> = [
    join(lit(`{ let ${t} = `), e, lit(";\n"), boundBody, lit("\n}")),
    join(lit(`{ const ${t} = `), e, lit(";\n"), boundBody, lit("\n}")),
    join(lit("if ("), e, lit(") {\n"), body, lit("\n} else {\n"), body, lit("\n}")),
    join(lit(`for (let i${d} = 0; i${d} < `), lit("0", "1", "2", "3"), lit(`; i${d}++) {\n`), statements({ ...loop, counters: [...(c.counters ?? []), `i${d}`] }, size - 1), lit("\n}")),
    join(lit(`for (const ${t} of [`), e, lit(", "), e, lit("]) {\n"), boundLoopBody, lit("\n}")),
    join(lit(`for (const [${t}] of [[`), e, lit("]]) {\n"), boundLoopBody, lit("\n}")),
    join(lit(`for (const ${t} in `), e, lit(") {\n"), boundLoopBody, lit("\n}")),
    join(lit(`{ let n${d} = 2; while (n${d}-- > 0) {\n`), loopBody, lit("\n} }")),
    join(lit(`{ let n${d} = 2; do {\n`), loopBody, lit(`\n} while (n${d}-- > 0) }`)),
    join(lit(`l${d}: for (const ${t} of [1, 2]) { for (const u${d} of [3, 4]) { if (`), e, lit(`) continue l${d}; if (`), e, lit(`) break l${d}; `), boundBody, lit(" } }")),
    join(lit("switch ("), e, lit(") {\ncase "), leaf(c), lit(":\n"), body, lit("\ncase "), leaf(c), lit(":\n"), body, lit("\nbreak;\ndefault:\n"), body, lit("\n}")),
    join(lit("try {\n"), body, lit(`\n} catch (${t}) {\n__catch(${t});\n`), boundBody, lit("\n}")),
    join(lit("try {\n"), body, lit("\n} finally {\n"), body, lit("\n}")),
    join(lit("try {\n"), body, lit(`\n} catch ({ message: ${t} }) {\n__catch(__msg(${t}));\n`), boundBody, lit("\n} finally {\n"), body, lit("\n}")),
    join(lit("throw "), fc.oneof(userError, e), lit(";")),
    // A using binding is never assigned: V8 ignores an assignment to an `await using` one (spec.test.ts).
    join(lit(`{ using ${t} = { [Symbol.dispose]() { console.log("dispose ${t}") } };\n`), usingBody, lit("\n}")),
  ]
  if (c.inAsync) compound.push(join(lit(`{ await using ${t} = { async [Symbol.asyncDispose]() { console.log("async dispose ${t}") } };\n`), usingBody, lit("\n}")))
  if (c.level >= 2 && c.inAsync) compound.push(join(lit(`for await (const ${t} of g0(`), e, lit(")) {\n"), boundLoopBody, lit("\n}")))
  if (c.level >= 2) compound.push(join(lit(`for (const ${t} of g0(`), e, lit(")) {\n"), boundLoopBody, lit("\n}")))
  return fc.oneof({ weight: 3, arbitrary: fc.oneof(...simple) }, { weight: 2, arbitrary: fc.oneof(...compound) })
}

// --- Programs -------------------------------------------------------------------------------------------------

const fn = (level: number, kind: "plain" | "generator" | "async" | "method", method: Ctx["inMethod"] = ""): Ctx => ({
  level,
  inFunction: true,
  inGenerator: kind === "generator",
  inAsync: kind === "async",
  inLoop: false,
  inMethod: method,
  depth: 0,
  ts: [],
})

/** A whole program, with sizes small enough that most run in milliseconds on every engine. */
export const program = (size = 3): Arb => {
  const value = fc.oneof(lit(...NUMBERS), lit(...STRINGS), lit(...OTHER))
  const init = fc.oneof(
    value,
    fc.array(value, { maxLength: 3 }).map((a) => `[${a.join(", ")}]`),
    fc.tuple(value, value).map(([a, b]) => `{ a: ${a}, b: ${b} }`),
    fc.tuple(value, value).map(([a, b]) => `new Map([[${a}, ${b}]])`),
    fc.array(value, { maxLength: 3 }).map((a) => `new Set([${a.join(", ")}])`),
  )
  const body = (c: Ctx) => statements(c, size - 1)
  const params = lit("p0, p1", "p0 = v1, p1 = p0", "[p0, p1] = [1, 2]", "{ a: p0, ...p1 } = {}", "p0, ...p1")
  return fc
    .record({
      inits: fc.array(init, { minLength: 4, maxLength: 4 }),
      f0: fc.tuple(params, body(fn(0, "plain"))),
      g0: fc.tuple(params, body(fn(1, "generator"))),
      a0: fc.tuple(params, body(fn(1, "async"))),
      ag0: fc.tuple(params, body({ ...fn(1, "async"), inGenerator: true })),
      k1gen: body({ ...fn(2, "generator", "derived") }),
      k0ctor: body(fn(2, "method", "base")),
      k0m: body(fn(2, "method", "base")),
      k1m: body(fn(2, "method", "derived")),
      k1field: expression({ ...fn(2, "method", "derived"), inFunction: false }, 1),
      k1static: body(fn(2, "plain")),
      f1: fc.tuple(params, body(fn(3, "plain"))),
      top: fc.array(statements(TOP, size - 1), { minLength: 1, maxLength: 4 }),
    })
    .map(
      (p) => `let v0 = ${p.inits[0]}, v1 = ${p.inits[1]}, v2 = ${p.inits[2]}, v3 = ${p.inits[3]}
function f0(${p.f0[0]}) {
${p.f0[1]}
}
function* g0(${p.g0[0]}) {
${p.g0[1]}
}
async function a0(${p.a0[0]}) {
${p.a0[1]}
}
async function* ag0(${p.ag0[0]}) {
${p.ag0[1]}
}
class K0 {
  #h = 1
  static count = 0
  static { this.count = 0 }
  static has(o) { return #h in o }
  #pm() { return this.#h }
  constructor(p0, p1) {
K0.count++;
console.log(new.target.name);
${p.k0ctor}
  }
  m(p0, p1) {
${p.k0m}
  }
  get acc() { return this.#h }
  set acc(v) { this.#h = v }
}
class K1 extends K0 {
  f = ${p.k1field}
  static s(p0, p1) {
${p.k1static}
  }
  m(p0, p1) {
${p.k1m}
  }
  *gen(p0, p1) {
${p.k1gen}
  }
}
function f1(${p.f1[0]}) {
${p.f1[1]}
}
${p.top.map((s) => `try {\n${s}\n} catch (e) {\n__catch(e)\n}`).join("\n")}
return __show([v0, v1, v2, v3])`,
    )
}
