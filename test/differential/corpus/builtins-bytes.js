// Binary data: ArrayBuffer (fixed and resizable, slice, resize, transfer, detaching), the typed arrays (every
// constructor form, the integer-indexed exotic behaviour, every %TypedArray%.prototype method) and DataView.
// Errors are reported as "Name: message" strings so V8's wording is compared too.

// === ctor-length-forms
const out = []
for (const C of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array, Float16Array]) {
  const a = new C(3)
  out.push([C.name, a.length, a.byteLength, a.BYTES_PER_ELEMENT, C.BYTES_PER_ELEMENT, Array.from(a)])
}
out.push([new BigInt64Array(2).length, String(new BigUint64Array(2)[1])])
return out

// === ctor-length-coercions
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
return [
  new Uint8Array().length,
  new Uint8Array(undefined).length,
  new Uint8Array(null).length,
  new Uint8Array("4").length,
  new Uint8Array(2.9).length,
  new Uint8Array(NaN).length,
  new Uint8Array(false).length,
  t(() => new Uint8Array(-1)),
  t(() => new Uint8Array(-0.5).length),
  t(() => Uint8Array(2)),
  t(() => new (Object.getPrototypeOf(Uint8Array))()),
  t(() => Object.getPrototypeOf(Uint8Array)()),
]

// === ctor-from-array-conversions
return [
  Array.from(new Int8Array([127, 128, -129, 255, 256, 1.9, -1.9, NaN, Infinity])),
  Array.from(new Uint8Array([-1, 256, 257, 3.7, "12", true, null, undefined].map((x) => x))).map(String),
  Array.from(new Uint8ClampedArray([-5, 300, 1.5, 2.5, 0.5, 254.5, 255.5, NaN, "7"])),
  Array.from(new Int16Array([32768, -32769, 65535])),
  Array.from(new Uint16Array([-1, 65536])),
  Array.from(new Int32Array([2 ** 31, -(2 ** 31) - 1, 2 ** 32 + 5])),
  Array.from(new Uint32Array([-1, 2 ** 32, 1e10])),
  Array.from(new Float32Array([1.1, 0.1, 1e40, -1e-50])).map(String),
  Array.from(new Float64Array([1.1, -0, NaN])).map((x) => Object.is(x, -0) ? "-0" : String(x)),
  Array.from(new Float16Array([1.1, 65504, 65520, 1e-8, 6e-8, 0.333])).map(String),
]

// === ctor-bigint
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
return [
  Array.from(new BigInt64Array([1n, -1n, 2n ** 63n, 2n ** 64n + 3n])).map(String),
  Array.from(new BigUint64Array([-1n, 2n ** 64n, 5n])).map(String),
  Array.from(new BigInt64Array(["12", true])).map(String),
  t(() => new BigInt64Array([1])),
  t(() => new BigInt64Array(["x"])),
  t(() => new Uint8Array([1n])),
  t(() => new Uint8Array(new BigInt64Array(1))),
  t(() => new BigInt64Array(new Uint8Array(1))),
  Array.from(new BigUint64Array(new BigInt64Array([-2n]))).map(String),
]

// === ctor-from-typed-array
const src = new Float64Array([1.5, -2.5, 300, -0])
const a = new Int16Array(src)
const b = new Uint8Array(a)
const c = new Float64Array(src)
src[0] = 99
return [Array.from(a), Array.from(b), Array.from(c).map(String), Object.is(c[3], -0), a.buffer !== src.buffer, c[0]]

// === ctor-from-iterable
function* gen() { yield 1; yield "2"; yield 3.5 }
const s = new Set([5, 6, 5])
const m = new Map([[1, 2]])
return [
  Array.from(new Uint8Array(gen())),
  Array.from(new Uint8Array(s)),
  Array.from(new Float32Array("123")),
  Array.from(new Uint8Array({ [Symbol.iterator]: function* () { yield 9 } })),
  Array.from(new Uint8Array(m)),
]

// === ctor-from-array-like
const o = { length: 3, 0: 7, 2: "9" }
const u = new Uint8Array(o)
const log = []
const g = { get length() { log.push("len"); return 2 }, get 0() { log.push(0); return 1 }, get 1() { log.push(1); return 2 } }
const v = new Int8Array(g)
return [Array.from(u), Array.from(v), log, new Uint8Array({}).length, new Uint8Array({ length: "2" }).length]

// === ctor-from-buffer
const buf = new ArrayBuffer(16)
const whole = new Uint32Array(buf)
const part = new Uint16Array(buf, 4, 3)
const rest = new Uint8Array(buf, 10)
part[0] = 0xffff
return [
  whole.length,
  [part.length, part.byteOffset, part.byteLength],
  [rest.length, rest.byteOffset],
  whole[1],
  part.buffer === buf,
  new Uint8Array(buf, 16).length,
  new Float64Array(buf, 8, 1).length,
]

// === ctor-from-buffer-errors
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const buf = new ArrayBuffer(6)
return [
  t(() => new Uint16Array(buf, 1)),
  t(() => new Uint32Array(buf)),
  t(() => new Uint8Array(buf, 7)),
  t(() => new Uint8Array(buf, 2, 5)),
  t(() => new Uint8Array(buf, -1)),
  t(() => new Uint16Array(buf, 2, -1)),
  t(() => new Float64Array(new ArrayBuffer(8), 8).length),
  t(() => new Uint16Array(new ArrayBuffer(4), "2", "1").length),
]

// === ctor-subclass
class Bytes extends Uint8Array {
  sum() { return this.reduce((a, b) => a + b, 0) }
}
const b = new Bytes([1, 2, 3])
const m = b.map((x) => x * 2)
const f = b.filter((x) => x > 1)
const s = b.subarray(1)
return [
  b.sum(), b instanceof Uint8Array, b instanceof Bytes,
  m instanceof Bytes, m.sum(), f instanceof Bytes, s instanceof Bytes,
  Object.prototype.toString.call(b), b.constructor.name,
  Bytes.from([4, 5]).sum(), Bytes.of(7, 8) instanceof Bytes,
  b.slice(0, 1) instanceof Bytes, b.toReversed() instanceof Bytes,
]

// === prototype-chain-shape
const TA = Object.getPrototypeOf(Int8Array)
return [
  TA.name, TA.length, Int8Array.length, Uint8Array.name,
  Object.getPrototypeOf(Int8Array.prototype) === TA.prototype,
  Object.getPrototypeOf(Float16Array) === TA,
  typeof TA.from, typeof TA.of, TA.from.length, TA.of.length,
  TA[Symbol.species] === TA, Uint8Array[Symbol.species] === Uint8Array,
  TA.prototype[Symbol.iterator] === TA.prototype.values,
  TA.prototype.toString === Array.prototype.toString,
  // (the ES2026 base64/hex methods, which codemode has and Node 24 does not yet, are left out of the comparison)
  Object.getOwnPropertyNames(Uint8Array.prototype).filter((k) => !/Base64|Hex/.test(k)).sort(),
  Object.getOwnPropertyNames(Uint8Array).filter((k) => !/Base64|Hex/.test(k)).sort(),
  Object.getOwnPropertyDescriptor(Uint8Array, "BYTES_PER_ELEMENT"),
  TA.prototype.map.length, TA.prototype.set.length, TA.prototype.slice.length, TA.prototype.subarray.length,
]

// === prototype-method-names
const TA = Object.getPrototypeOf(Int8Array)
return Object.getOwnPropertyNames(TA.prototype).sort().map((k) => {
  const d = Object.getOwnPropertyDescriptor(TA.prototype, k)
  return [k, typeof d.value, typeof d.get, d.enumerable, d.configurable]
})

// === getters-brand-checks
const TA = Object.getPrototypeOf(Int8Array)
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const get = (k) => Object.getOwnPropertyDescriptor(TA.prototype, k).get
const u = new Uint8Array(4)
return [
  get("length").call(u), get("byteLength").call(new Float64Array(3)), get("byteOffset").call(new Uint8Array(new ArrayBuffer(8), 3)),
  t(() => get("length").call([])), t(() => get("buffer").call({})),
  String(get(Symbol.toStringTag).call({})), get(Symbol.toStringTag).call(new Float32Array(1)), String(get(Symbol.toStringTag).call(3)),
  t(() => TA.prototype.map.call([1], (x) => x)),
  t(() => TA.prototype.join.call({ length: 0 })),
  t(() => Uint8Array.prototype.at.call("ab", 0)),
]

// === exotic-index-keys
const u = new Uint8Array(3)
u[1] = 5
u["2"] = 7
u[3] = 9
u[-1] = 4
u["-0"] = 3
u[1.5] = 2
u["01"] = 8
u.x = 1
return [
  Object.keys(u), Object.getOwnPropertyNames(u), Object.getOwnPropertySymbols(u).length,
  String(u[3]), String(u[-1]), String(u["-0"]), String(u[1.5]), u["01"],
  1 in u, 3 in u, "-0" in u, "1.5" in u, "01" in u, "x" in u,
  Object.getOwnPropertyDescriptor(u, 1), String(Object.getOwnPropertyDescriptor(u, 5)),
  JSON.stringify(u), JSON.stringify({ u }),
]

// === exotic-no-proto-lookup
Object.prototype[5] = "proto"
Object.prototype["-1"] = "neg"
Object.prototype.x = "px"
const u = new Uint8Array(2)
const r = [String(u[5]), String(u[-1]), u.x, 5 in u, "x" in u]
delete Object.prototype[5]
delete Object.prototype["-1"]
delete Object.prototype.x
return r

// === exotic-define-delete
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const def = (k, d) => { try { Object.defineProperty(u, k, d); return true } catch (e) { return e.name } }
const u = new Uint8Array(2)
return [
  def("0", { value: 9 }), u[0],
  def("0", { value: 1, writable: true, enumerable: true, configurable: true }), u[0],
  def("0", { value: 1, writable: false }),
  def("0", { value: 1, enumerable: false }),
  def("0", { value: 1, configurable: false }),
  def("0", { get() { return 1 } }),
  def("2", { value: 1 }),
  def("1.5", { value: 1 }),
  def("-0", { value: 1 }),
  def("x", { value: 1 }), u.x,
  def("5", { value: 1 }),
  delete u[0], delete u[7], delete u["-0"], delete u.x,
  (() => { "use strict"; try { delete u[0] } catch (e) { return e.name } })(),
  Object.getOwnPropertyNames(u),
]

// === exotic-set-receiver
const u = new Uint8Array(2)
const o = Object.create(u)
o[0] = 7
o[5] = 8
o.y = 1
const p = Object.create(u)
p["1.5"] = 3
return [u[0], Object.keys(o), String(o[5]), Object.getOwnPropertyNames(o), Object.keys(p), String(p["1.5"])]

// === freeze-seal-extensible
const t = (f) => { try { return f() } catch (e) { return e.name } }
const empty = new Uint8Array(0)
return [
  t(() => Object.freeze(new Uint8Array(2))),
  t(() => Object.seal(new Uint8Array(2))),
  Object.isFrozen(Object.freeze(empty)),
  Object.isExtensible(Object.preventExtensions(new Uint8Array(1))),
  (() => { const u = Object.preventExtensions(new Uint8Array(1)); u[0] = 5; u.z = 1; return [u[0], u.z === undefined] })(),
  Object.isSealed(Object.preventExtensions(new Uint8Array(0))),
]

// === set-element-coercion-order
const log = []
const u = new Uint8Array(2)
u[0] = { valueOf() { log.push("v0"); return 300 } }
u[5] = { valueOf() { log.push("v5"); return 1 } }
u["1.5"] = { valueOf() { log.push("frac"); return 1 } }
return [Array.from(u), log]

// === at-method
const u = new Int16Array([10, 20, 30])
return [u.at(0), u.at(-1), u.at(-3), String(u.at(3)), String(u.at(-4)), u.at("1"), u.at(1.7), u.at(), u.at(NaN)]

// === copyWithin-method
const f = (args) => Array.from(new Uint8Array([1, 2, 3, 4, 5]).copyWithin(...args))
return [
  f([0, 3]), f([1, 0]), f([0, 1, 3]), f([-2, 0]), f([2, -3, -1]), f([0, 2, 100]), f([10, 0]), f([1, 1]),
  Array.from(new Float64Array([1.5, 2.5, 3.5]).copyWithin(0, 1)),
  (() => { const u = new Uint8Array([1, 2, 3]); return u.copyWithin(0, 1) === u })(),
]

// === entries-keys-values
const u = new Uint8Array([5, 6])
const it = u.entries()
return [
  [...u.keys()], [...u.values()], [...u.entries()], [...u],
  Object.prototype.toString.call(it), it.next(), it.next(), String(it.next().value),
  typeof it[Symbol.iterator], Object.getPrototypeOf(it) === Object.getPrototypeOf([].values()),
]

// === iteration-forms
const u = new Float32Array([0.5, 1.5])
const out = []
for (const x of u) out.push(x)
for (const i in u) out.push(i)
const [a, ...rest] = new Uint8Array([1, 2, 3])
return [out, a, rest, Math.max(...new Int8Array([-1, 5, 3])), Array.from(new Uint8Array(3), (_, i) => i * 2)]

// === every-some
const u = new Int8Array([2, 4, 6])
const seen = []
return [
  u.every((x) => x % 2 === 0), u.every((x) => x > 2), u.some((x) => x > 5), u.some((x) => x > 6),
  new Uint8Array(0).every(() => false), new Uint8Array(0).some(() => true),
  u.every(function (x, i, arr) { seen.push([x, i, arr === u, this.k]); return true }, { k: "T" }),
  seen,
]

// === fill-method
const f = (C, args) => Array.from(new C(5).fill(...args)).map(String)
return [
  f(Uint8Array, [7]), f(Uint8Array, [7, 1]), f(Uint8Array, [7, 1, 3]), f(Uint8Array, [7, -2]), f(Uint8Array, [7, -10, -4]),
  f(Uint8Array, [300]), f(Int8Array, [-129]), f(Float32Array, [0.1]), f(Uint8Array, ["3", "1", "2"]),
  f(Uint8ClampedArray, [-3]), f(Float64Array, [NaN, 3]), f(BigInt64Array, [5n, 4]),
  (() => { try { return new BigInt64Array(1).fill(1) } catch (e) { return e.name } })(),
]

// === fill-coercion-order
const log = []
const u = new Uint8Array(4)
u.fill({ valueOf() { log.push("value"); return 1 } }, { valueOf() { log.push("start"); return 1 } }, { valueOf() { log.push("end"); return 3 } })
return [Array.from(u), log]

// === filter-method
const u = new Int32Array([5, -3, 8, 0, 11])
const f = u.filter((x, i) => x > 0 && i < 4)
return [Array.from(f), f.constructor.name, f.buffer !== u.buffer, u.filter(() => false).length, Array.from(u.filter(() => 1))]

// === find-methods
const u = new Uint8Array([3, 8, 12, 8, 1])
return [
  u.find((x) => x > 5), u.findIndex((x) => x > 5), u.findLast((x) => x > 5), u.findLastIndex((x) => x > 5),
  String(u.find((x) => x > 50)), u.findIndex((x) => x > 50), String(u.findLast((x) => x > 50)), u.findLastIndex((x) => x > 50),
  (() => { const v = []; u.findLast((x, i) => { v.push(i); return false }); return v })(),
]

// === forEach-method
const out = []
const u = new Float64Array([1.5, 2.5])
const r = u.forEach(function (x, i, a) { out.push([x, i, a === u, this === undefined ? "undef" : this.tag]) }, { tag: "t" })
u.forEach((x) => out.push(x))
return [String(r), out]

// === includes-indexOf-lastIndexOf
const u = new Float32Array([1, NaN, 3, 1, -0])
const b = new BigInt64Array([1n, 2n, 1n])
return [
  u.includes(NaN), u.indexOf(NaN), u.lastIndexOf(NaN), u.includes(0), u.indexOf(0), u.lastIndexOf(-0),
  u.indexOf(1), u.lastIndexOf(1), u.indexOf(1, 1), u.lastIndexOf(1, 2), u.indexOf(1, -2), u.lastIndexOf(1, -3),
  u.includes(3, 3), u.includes(3, -3), u.indexOf("3"), u.includes("3"), u.indexOf(3, Infinity), u.lastIndexOf(1, -Infinity),
  b.includes(1n), b.indexOf(2n), b.lastIndexOf(1n), b.includes(1), b.indexOf(1),
  new Uint8Array(0).includes(undefined), new Uint8Array(2).includes(undefined), new Uint8Array(2).indexOf(0, 5),
  u.lastIndexOf(1, undefined), u.lastIndexOf(1),
]

// === join-toString
const u = new Float64Array([1.5, -0, NaN, 1e21, 2])
const b = new BigUint64Array([1n, 2n])
return [
  u.join(), u.join(""), u.join(" | "), u.join(undefined), u.join(null), String(u), u.toString(), `${b}`,
  new Uint8Array(0).join(), b.join("-"), new Uint8Array([1, 2]).join({ toString() { return "+" } }),
]

// === map-method
const u = new Uint8Array([1, 2, 3])
const m = u.map((x, i) => x * 100 + i)
const f = new Float32Array([1, 2]).map((x) => x / 3)
return [Array.from(m), m.constructor.name, Array.from(f).map(String), Array.from(new Int8Array([1]).map(() => "200")), Array.from(new BigInt64Array([2n]).map((x) => x * x)).map(String)]

// === reduce-methods
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const u = new Uint8Array([1, 2, 3, 4])
return [
  u.reduce((a, b) => a + b), u.reduce((a, b) => a + b, 10), u.reduceRight((a, b) => a + "" + b), u.reduceRight((a, b) => a + "" + b, ""),
  u.reduce((a, b, i, arr) => a.concat([[b, i, arr === u]]), []),
  t(() => new Uint8Array(0).reduce((a, b) => a)), t(() => new Uint8Array(0).reduceRight((a, b) => a)),
  new Uint8Array(0).reduce((a) => a, "init"), new Uint8Array([9]).reduce((a) => a * 2),
  t(() => u.reduce()),
]

// === reverse-toReversed
const u = new Int16Array([1, 2, 3, 4, 5])
const r = u.toReversed()
const same = u.reverse()
return [Array.from(u), Array.from(r), same === u, Array.from(new Uint8Array(0).reverse()), Array.from(new Uint8Array([1, 2]).reverse())]

// === set-from-array
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const u = new Uint8Array(5)
u.set([1, 2])
u.set([7, 8], 3)
const r = [Array.from(u)]
u.set({ length: 2, 0: 300, 1: "4" }, 1)
r.push(Array.from(u))
u.set("ab", 0)
r.push(Array.from(u))
r.push(t(() => u.set([1, 2, 3], 3)), t(() => u.set([1], -1)), t(() => u.set([1], Infinity)), t(() => u.set([], 5)), t(() => u.set(5)), t(() => u.set(null)))
r.push(String(u.set([9], "4")), u[4])
return r.map((x) => x === undefined ? "undefined" : x)

// === set-from-typed-array
const f = new Float64Array([1.7, -1, 300])
const u = new Uint8Array(4)
u.set(f, 1)
const i = new Int16Array([1, 2, 3, 4])
const view = new Int16Array(i.buffer, 2, 2)
i.set(view, 2)
const bytes = new Uint8Array([1, 2, 3, 4, 5, 6])
bytes.set(bytes.subarray(0, 4), 2)
const overlapConv = new Uint8Array(8)
overlapConv.set([1, 2, 3, 4])
const asU16 = new Uint16Array(overlapConv.buffer, 0, 2)
overlapConv.set(asU16, 1)
return [Array.from(u), Array.from(i), Array.from(bytes), Array.from(overlapConv), (() => { try { new Uint8Array(1).set(new BigInt64Array(1)) } catch (e) { return e.name + ": " + e.message } })()]

// === slice-method
const u = new Int8Array([1, 2, 3, 4, 5])
const s = u.slice(1, -1)
s[0] = 99
return [
  Array.from(s), u[1], Array.from(u.slice()), Array.from(u.slice(-2)), Array.from(u.slice(3, 1)), Array.from(u.slice(10)),
  Array.from(u.slice("1", "3")), s.buffer !== u.buffer, s.byteOffset,
  Array.from(new Float32Array([1.5, 2.5]).slice(1)),
]

// === slice-species-other-type
class F extends Float64Array {
  static get [Symbol.species]() { return Uint8Array }
}
const f = new F([1.5, 300, -1])
const s = f.slice(0, 2)
const m = f.map((x) => x * 2)
return [s.constructor.name, Array.from(s), m.constructor.name, Array.from(m)]

// === species-errors
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const u = new Uint8Array(4)
u.constructor = { [Symbol.species]: function (n) { return new Uint8Array(1) } }
const v = new Uint8Array(4)
v.constructor = { [Symbol.species]: function () { return {} } }
const w = new Uint8Array(2)
w.constructor = 5 // (V8 and codemode word this TypeError differently: only the name is compared)
const x = new Uint8Array(2)
x.constructor = { [Symbol.species]: null }
return [t(() => u.map((y) => y)), t(() => v.slice()), t(() => w.map((y) => y)).split(":")[0], t(() => x.map((y) => y + 1).length)]

// === sort-default
const f = new Float64Array([3, -0, NaN, -Infinity, 0, 1e-9, -1, Infinity, NaN, 2])
f.sort()
const i = new Int32Array([10, 9, 1, -100, 2 ** 31 - 1])
i.sort()
const b = new BigInt64Array([5n, -2n, 10n ** 18n, 0n])
b.sort()
const u = new Uint8Array([200, 3, 100, 20])
const r = u.sort()
return [Array.from(f).map((x) => Object.is(x, -0) ? "-0" : String(x)), Array.from(i), Array.from(b).map(String), Array.from(u), r === u]

// === sort-comparator
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const u = new Uint16Array([5, 1, 4, 2, 3])
u.sort((a, b) => b - a)
const pairs = new Float64Array([1.1, 2.2, 1.9, 2.1, 1.5])
pairs.sort((a, b) => Math.floor(a) - Math.floor(b))
const weird = new Int8Array([3, 1, 2]).sort(() => NaN)
const strs = new Uint8Array([10, 9, 100]).sort((a, b) => String(a) < String(b) ? -1 : 1)
return [
  Array.from(u), Array.from(pairs), Array.from(weird), Array.from(strs),
  t(() => new Uint8Array(2).sort("x")), t(() => new Uint8Array(2).sort({})),
  t(() => new Uint8Array([2, 1]).sort(() => { throw new RangeError("cmp") })),
  Array.from(new Uint8Array([2, 1]).sort(() => ({ valueOf() { return -1 } }))),
]

// === toSorted-with
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const u = new Int8Array([3, -1, 2])
const s = u.toSorted()
const d = u.toSorted((a, b) => b - a)
const w = u.with(1, 100)
return [
  Array.from(u), Array.from(s), Array.from(d), Array.from(w), Array.from(u.with(-1, 9)), Array.from(u.with(0, 300)),
  t(() => u.with(3, 0)), t(() => u.with(-4, 0)), t(() => u.toSorted(1)),
  t(() => new BigInt64Array(1).with(0, 1)), Array.from(new BigInt64Array(1).with(0, 7n)).map(String),
  s.constructor.name, w !== u,
]

// === subarray-method
const u = new Uint8Array([0, 1, 2, 3, 4, 5, 6, 7])
const s = u.subarray(2, 6)
s[0] = 99
const s2 = s.subarray(1, -1)
return [
  Array.from(s), u[2], [s.byteOffset, s.length, s.byteLength], Array.from(s2), s2.byteOffset, s.buffer === u.buffer,
  Array.from(u.subarray(-2)), Array.from(u.subarray(5, 2)), Array.from(u.subarray()), u.subarray(100).length,
  new Uint32Array(u.buffer).subarray(1).byteOffset,
]

// === toLocaleString-method
return [
  new Float64Array([1234.5, 2, 0.125]).toLocaleString(),
  new Uint32Array([1000000]).toLocaleString(),
  new Uint8Array(0).toLocaleString(),
  new BigInt64Array([12345n]).toLocaleString(),
  new Float32Array([1.5]).toLocaleString("de-DE"),
]

// === callbacks-that-throw
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const u = new Uint8Array([1, 2, 3])
let calls = 0
const boom = () => { calls++; if (calls === 2) throw new TypeError("boom " + calls); return true }
return [
  t(() => u.map(boom)), t(() => { calls = 0; return u.filter(boom) }), t(() => { calls = 0; return u.forEach(boom) }),
  t(() => u.map()), t(() => u.find(5)), t(() => u.some(null)), t(() => u.reduce("f")),
  t(() => u.every(() => { throw 7 })),
]

// === toStringTag-and-objects
const all = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float16Array, Float32Array, Float64Array, BigInt64Array, BigUint64Array]
return [
  all.map((C) => Object.prototype.toString.call(new C(1))),
  all.map((C) => new C(0)[Symbol.toStringTag]),
  Object.prototype.toString.call(new ArrayBuffer(1)), Object.prototype.toString.call(new DataView(new ArrayBuffer(1))),
  ArrayBuffer.prototype[Symbol.toStringTag], DataView.prototype[Symbol.toStringTag],
  String(new Uint8Array([1, 2])), `${new ArrayBuffer(2)}`,
]

// === typedarray-from-of
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const TA = Object.getPrototypeOf(Int8Array)
return [
  Array.from(Uint8Array.from([1, 2, 3], (x, i) => x * 10 + i)),
  Array.from(Int16Array.from({ length: 2, 0: "5" })),
  Array.from(Float32Array.from(new Set([0.5, 1.5]))),
  Array.from(Uint8Array.from("789")),
  Array.from(Uint8Array.from([1, 2], function (x) { return x + this.add }, { add: 5 })),
  Array.from(Uint8Array.of(1, 256, -1)), Uint8Array.of().length,
  Array.from(BigInt64Array.of(1n, 2n)).map(String),
  t(() => TA.from([1])), t(() => TA.of(1)), t(() => Uint8Array.from([1], 5)), t(() => Uint8Array.from.call({}, [])),
  (() => { try { Uint8Array.of.call(Object, 1) } catch (e) { return e.name } })(), t(() => Uint8Array.from(null)),
]

// === from-species-too-small
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
function Small(n) { return new Uint8Array(1) }
function NotTA() { return {} }
return [t(() => Uint8Array.from.call(Small, [1, 2, 3])), t(() => Uint8Array.of.call(NotTA, 1)), Array.from(Uint8Array.from.call(Small, [7]))]

// === arraybuffer-basics
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const b = new ArrayBuffer(8)
return [
  b.byteLength, b.maxByteLength, b.resizable, b.detached,
  new ArrayBuffer().byteLength, new ArrayBuffer("3").byteLength, new ArrayBuffer(2.7).byteLength,
  t(() => new ArrayBuffer(-1)), t(() => ArrayBuffer(1)), t(() => new ArrayBuffer(2 ** 53)),
  ArrayBuffer.isView(new Uint8Array(1)), ArrayBuffer.isView(new DataView(b)), ArrayBuffer.isView(b), ArrayBuffer.isView(), ArrayBuffer.isView([]),
  ArrayBuffer[Symbol.species] === ArrayBuffer, ArrayBuffer.length, ArrayBuffer.prototype.slice.length,
  Object.getOwnPropertyNames(ArrayBuffer.prototype).sort(),
]

// === arraybuffer-slice
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const b = new ArrayBuffer(6)
new Uint8Array(b).set([1, 2, 3, 4, 5, 6])
const s = (...a) => Array.from(new Uint8Array(b.slice(...a)))
return [
  s(), s(2), s(1, 4), s(-2), s(-4, -1), s(4, 2), s(10), s("1", "2"),
  b.slice(0).byteLength, b.slice(0) !== b,
  t(() => ArrayBuffer.prototype.slice.call({})), t(() => ArrayBuffer.prototype.slice.call(new Uint8Array(1))),
  new ArrayBuffer(4, { maxByteLength: 8 }).slice(1).resizable,
]

// === arraybuffer-slice-species
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
class MyBuf extends ArrayBuffer {}
const m = new MyBuf(4)
const s = m.slice(1)
const a = new ArrayBuffer(4)
a.constructor = { [Symbol.species]: function (n) { return a } }
const c = new ArrayBuffer(4)
c.constructor = { [Symbol.species]: function (n) { return new ArrayBuffer(1) } }
const d = new ArrayBuffer(4)
d.constructor = { [Symbol.species]: function (n) { return new Uint8Array(n) } }
return [s instanceof MyBuf, s.byteLength, t(() => a.slice()), t(() => c.slice()), t(() => d.slice())]

// === arraybuffer-resizable
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const b = new ArrayBuffer(4, { maxByteLength: 12 })
const fixed = new Uint8Array(b, 0, 2)
const track = new Uint8Array(b)
const track2 = new Uint16Array(b, 2)
track.set([1, 2, 3, 4])
const r = [b.resizable, b.maxByteLength, track.length, track2.length]
b.resize(10)
r.push([b.byteLength, track.length, track2.length, fixed.length, Array.from(track)])
b.resize(1)
r.push([track.length, track2.length, track2.byteOffset, fixed.length, fixed.byteLength, Array.from(track)])
r.push(t(() => b.resize(13)), t(() => b.resize(-1)), t(() => new ArrayBuffer(4).resize(2)))
r.push(t(() => new ArrayBuffer(5, { maxByteLength: 4 })), new ArrayBuffer(1, { maxByteLength: undefined }).resizable, new ArrayBuffer(1, 7).resizable)
b.resize(12)
r.push([track.length, track2.length, fixed.length, Array.from(fixed)])
return r

// === arraybuffer-out-of-bounds-views
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const b = new ArrayBuffer(8, { maxByteLength: 16 })
const u = new Uint8Array(b, 4, 4)
const d = new DataView(b, 4, 2)
b.resize(5)
return [
  u.length, u.byteOffset, u.byteLength, String(u[0]), Object.keys(u),
  t(() => u.map((x) => x)), t(() => u.fill(1)), t(() => [...u]),
  t(() => d.getInt8(0)), t(() => d.byteLength), t(() => d.byteOffset), d.buffer === b,
  (() => { b.resize(16); return [u.length, u.byteOffset, d.byteLength] })(),
]

// === arraybuffer-transfer
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const b = new ArrayBuffer(4)
const u = new Uint8Array(b)
u.set([1, 2, 3, 4])
const c = b.transfer()
const r = [b.detached, b.byteLength, b.maxByteLength, c.byteLength, Array.from(new Uint8Array(c)), u.length, u.byteOffset, u.byteLength, String(u[0])]
r.push(t(() => b.transfer()), t(() => b.slice()), t(() => b.resize(1)), t(() => new Uint8Array(b)), t(() => new DataView(b)))
const g = c.transfer(6)
r.push([g.byteLength, Array.from(new Uint8Array(g))])
const h = g.transfer(2)
r.push(Array.from(new Uint8Array(h)))
const rz = new ArrayBuffer(2, { maxByteLength: 8 })
const kept = rz.transfer()
const fixedCopy = kept.transferToFixedLength(3)
r.push([kept.detached, fixedCopy.resizable, fixedCopy.byteLength])
r.push(t(() => new ArrayBuffer(2, { maxByteLength: 4 }).transfer(5)))
return r

// === detached-typed-array-methods
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const b = new ArrayBuffer(4)
const u = new Uint8Array(b)
b.transfer()
return [
  u.length, u.byteLength, u.byteOffset, String(u[0]), 0 in u, Object.keys(u), u.buffer === b,
  t(() => u.join()), t(() => u.at(0)), t(() => u.values()), t(() => u.set([1])), t(() => u.sort()), t(() => u.slice()),
  t(() => u.subarray(0)), t(() => new Uint8Array(u)), t(() => u.toReversed()), t(() => u.includes(0)),
]

// === detach-during-callback
const b = new ArrayBuffer(4)
const u = new Uint8Array(b)
u.set([1, 2, 3, 4])
const seen = []
u.forEach((x, i) => { seen.push(x === undefined ? "u" : x); if (i === 1) b.transfer() })
const b2 = new ArrayBuffer(3)
const v = new Uint8Array(b2)
v.set([5, 6, 7])
const mapped = (() => { try { return v.map((x, i) => { if (i === 0) b2.transfer(); return 1 }).length } catch (e) { return e.name } })()
return [seen, mapped]

// === dataview-basics
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const b = new ArrayBuffer(8)
const d = new DataView(b, 2)
const e = new DataView(b, 1, 3)
return [
  d.byteLength, d.byteOffset, d.buffer === b, e.byteLength, new DataView(b, 8).byteLength,
  t(() => new DataView({})), t(() => new DataView(new Uint8Array(2))), t(() => DataView(b)),
  t(() => new DataView(b, 9)), t(() => new DataView(b, 2, 7)), t(() => new DataView(b, -1)), t(() => new DataView(b, 0, -1)),
  DataView.length, Object.getOwnPropertyNames(DataView.prototype).sort(),
  DataView.prototype.getInt8.length, DataView.prototype.setInt8.length, DataView.prototype.getFloat64.length, DataView.prototype.setBigInt64.length,
]

// === dataview-integers-endianness
const d = new DataView(new ArrayBuffer(16))
d.setInt16(0, -2)
d.setUint16(2, 0xabcd, true)
d.setInt32(4, -123456789)
d.setUint32(8, 0xdeadbeef, true)
d.setInt8(12, -1)
d.setUint8(13, 300)
return [
  Array.from(new Uint8Array(d.buffer)),
  d.getInt16(0), d.getUint16(0), d.getInt16(0, true), d.getUint16(2, true), d.getUint16(2),
  d.getInt32(4), d.getInt32(4, true), d.getUint32(8, true), d.getUint32(8), d.getInt8(12), d.getUint8(12), d.getUint8(13),
  d.getInt32(1), d.getUint16(3, "yes"), d.getUint16(3, 0),
]

// === dataview-floats
const d = new DataView(new ArrayBuffer(16))
d.setFloat64(0, Math.PI)
d.setFloat32(8, 1.1, true)
d.setFloat16(12, 65504)
d.setFloat16(14, -0.1, true)
return [
  d.getFloat64(0), d.getFloat64(0, true), d.getFloat32(8, true), d.getFloat32(8), d.getFloat16(12), d.getFloat16(14, true),
  Array.from(new Uint8Array(d.buffer, 0, 8)), Array.from(new Uint8Array(d.buffer, 12)),
  (() => { d.setFloat32(0, NaN); return String(d.getFloat32(0)) })(),
  (() => { d.setFloat64(0, -0); return Object.is(d.getFloat64(0), -0) })(),
  (() => { d.setFloat16(0, 1e6); return String(d.getFloat16(0)) })(),
]

// === dataview-bigints
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const d = new DataView(new ArrayBuffer(16))
d.setBigInt64(0, -5n)
d.setBigUint64(8, 2n ** 64n - 1n, true)
return [
  String(d.getBigInt64(0)), String(d.getBigUint64(0)), String(d.getBigInt64(0, true)),
  String(d.getBigUint64(8, true)), String(d.getBigInt64(8)),
  (() => { d.setBigInt64(0, 2n ** 63n); return String(d.getBigInt64(0)) })(),
  (() => { d.setBigUint64(0, "12"); return String(d.getBigUint64(0)) })(),
  t(() => d.setBigInt64(0, 1)), t(() => d.setBigInt64(0, 1.5)), t(() => d.setInt8(0, 1n)),
]

// === dataview-bounds-and-coercions
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const d = new DataView(new ArrayBuffer(4))
const log = []
return [
  t(() => d.getInt32(1)), t(() => d.getInt8(4)), t(() => d.getInt8(-1)), t(() => d.setUint16(3, 1)), t(() => d.getFloat64(0)),
  d.getInt8("1"), d.getInt8(), d.getInt8(NaN), d.getInt8(1.9),
  t(() => d.getInt8(Infinity)),
  t(() => DataView.prototype.getInt8.call({}, 0)), t(() => DataView.prototype.setInt8.call(new Uint8Array(4), 0, 0)),
  (() => { d.setInt8({ valueOf() { log.push("idx"); return 0 } }, { valueOf() { log.push("val"); return 7 } }); return [d.getInt8(0), log] })(),
  t(() => d.setInt8(9, { valueOf() { log.push("val2"); return 1 } })), log,
  String(d.setInt8(0, 1)),
]

// === dataview-detached-and-tracking
const t = (f) => { try { return f() } catch (e) { return e.name + ": " + e.message } }
const b = new ArrayBuffer(4, { maxByteLength: 8 })
const d = new DataView(b)
const fixed = new DataView(b, 0, 2)
const r = [d.byteLength]
b.resize(8)
r.push(d.byteLength, fixed.byteLength)
d.setUint8(7, 9)
r.push(d.getUint8(7))
const c = new ArrayBuffer(2)
const e = new DataView(c)
c.transfer()
r.push(t(() => e.getInt8(0)), t(() => e.setInt8(0, 1)), t(() => e.byteLength), t(() => e.byteOffset), e.buffer === c)
return r

// === shared-buffer-views
const b = new ArrayBuffer(8)
const u8 = new Uint8Array(b)
const u16 = new Uint16Array(b)
const f32 = new Float32Array(b)
const d = new DataView(b)
f32[0] = 1
u16[2] = 0x0102
d.setUint8(7, 0xff)
return [Array.from(u8), u16[0], u16[1], d.getFloat32(0, true), d.getUint16(4, true), new Int8Array(b)[7]]

// === huge-length-errors
// (lengths V8 refuses before trying to allocate: a refused allocation can take seconds of last-resort GC)
const t = (f) => { try { return f() } catch (e) { return e.name } }
return [
  t(() => new ArrayBuffer(2 ** 53)), t(() => new Uint8Array(2 ** 53)), t(() => new Float64Array(2 ** 53)),
  t(() => new ArrayBuffer(8).transfer(2 ** 53)), t(() => new ArrayBuffer(1, { maxByteLength: 2 ** 53 })),
  t(() => new Uint8Array(new ArrayBuffer(1), 2 ** 53)), t(() => new DataView(new ArrayBuffer(1), 0, 2 ** 53)),
]

// === structural-uses
const u = new Uint8Array([3, 1, 2])
const copy = [...u].sort()
const obj = Object.assign({}, new Uint8Array([9, 8]))
const entries = Object.entries(new Int8Array([-1, 1]))
const spreadObj = { ...new Uint8Array([4]) }
return [copy, obj, entries, spreadObj, Array.prototype.slice.call(u, 1), Array.prototype.map.call(u, (x) => x * 2), Array.isArray(u), Array.prototype.concat.call([], u).length, [].concat(u).length]

// === hex-and-base64-by-hand
const bytes = new TextEncoder().encode("hi!")
const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
const back = new Uint8Array(hex.match(/../g).map((h) => parseInt(h, 16)))
const b64 = btoa(String.fromCharCode(...bytes))
const raw = atob(b64)
const fromB64 = Uint8Array.from(raw, (c) => c.charCodeAt(0))
return [hex, Array.from(back), b64, Array.from(fromB64)]

// === checksum-loop
const data = new Uint8Array(1000)
for (let i = 0; i < data.length; i++) data[i] = (i * 31 + 7) & 0xff
let a = 1
let b = 0
for (const x of data) {
  a = (a + x) % 65521
  b = (b + a) % 65521
}
const crcTable = new Uint32Array(256)
for (let n = 0; n < 256; n++) {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  crcTable[n] = c >>> 0
}
let crc = 0xffffffff
for (const x of data) crc = crcTable[(crc ^ x) & 0xff] ^ (crc >>> 8)
return [((b << 16) | a) >>> 0, (crc ^ 0xffffffff) >>> 0]

// === float-bits
const f64 = new Float64Array(1)
const u32 = new Uint32Array(f64.buffer)
f64[0] = 1
const one = [u32[0], u32[1]]
f64[0] = -0
const negZero = [u32[0], u32[1]]
u32[1] = 0x7ff80000
u32[0] = 0
const nan = String(f64[0])
const f32 = new Float32Array([0.1])
const bits = new Uint32Array(f32.buffer)[0]
return [one, negZero, nan, bits.toString(16)]

// === uint8clamped-rounding
const c = new Uint8ClampedArray(10)
const inputs = [0.5, 1.5, 2.5, 3.5, 254.5, 255.5, -0.5, 127.49999, 127.5, 1e10]
inputs.forEach((x, i) => { c[i] = x })
return Array.from(c)

// === length-tracking-subarray
const b = new ArrayBuffer(4, { maxByteLength: 16 })
const u = new Uint8Array(b)
const s = u.subarray(1)
const s2 = u.subarray(1, 3)
b.resize(8)
return [u.length, s.length, s2.length, s.byteOffset]

// === view-of-view-offsets
const b = new ArrayBuffer(12)
const a = new Uint8Array(b, 4)
const c = new Uint16Array(a.buffer, a.byteOffset + 2, 2)
c[0] = 0x1234
const s = a.subarray(2, 4)
return [Array.from(s), s.byteOffset, c.byteOffset, new Uint8Array(b)[6], new Uint8Array(b)[7]]

// === typed-array-as-map-keys-and-equality
const a = new Uint8Array([1])
const b = new Uint8Array([1])
const m = new Map([[a, "a"]])
return [a === b, a == b, m.get(a), String(m.get(b)), JSON.stringify([a, b]), a.toString() === b.toString()]

// === iterator-after-detach
const t = (f) => { try { return f() } catch (e) { return e.name } }
const b = new ArrayBuffer(3)
const u = new Uint8Array(b)
const it = u.values()
const first = it.next().value
b.transfer()
return [first, t(() => it.next())]

// === set-length-and-props
const u = new Uint8Array(3)
u.length = 10
u.foo = "bar"
const d = Object.getOwnPropertyDescriptor(u, "length")
return [u.length, u.foo, String(d), Object.keys(u), (() => { "use strict"; try { u.length = 1; return "ok" } catch (e) { return e.name } })()]

// === bigint-typed-array-ops
const b = new BigInt64Array([3n, -1n, 2n])
return [
  Array.from(b.map((x) => x * 2n)).map(String), String(b.reduce((a, x) => a + x)), b.indexOf(-1n), b.includes(2n),
  Array.from(b.toSorted()).map(String), Array.from(b.filter((x) => x > 0n)).map(String),
  String(b.at(-1)), b.join(), String(b.find((x) => x < 0n)),
  (() => { try { return b.map(() => 1) } catch (e) { return e.name } })(),
]
