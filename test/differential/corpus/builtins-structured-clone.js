// structuredClone (HTML structured clone, V8's serializer as in Node). In the oracle structuredClone is Node's
// own function, so clones are host-realm objects: they are compared through Object.prototype.toString, their
// contents and identities between clones, never `instanceof` or prototype identity with this realm's builtins.

// === primitives
const c = structuredClone
return [c(1), c("s"), c(true), c(null), String(c(undefined)), String(c(10n ** 30n)), Object.is(c(-0), -0), String(c(NaN)), c(Infinity) === Infinity]

// === plain-objects-and-arrays
const src = { a: 1, b: { c: [1, 2, { d: "e" }] }, 2: "two", 1: "one", s: "str" }
const c = structuredClone(src)
c.b.c[2].d = "changed"
return [c, src.b.c[2].d, c !== src, c.b !== src.b, Object.keys(c)]

// === arrays-holes-and-props
const a = [1, , 3]
a.extra = "p"
const c = structuredClone(a)
const sparse = []
sparse[50] = "x"
const s = structuredClone(sparse)
return [1 in c, c.length, c.extra, Object.keys(c), Array.isArray(c), s.length, Object.keys(s)]

// === cycles-and-shared-references
const shared = { v: 1 }
const o = { a: shared, b: shared, list: [shared] }
o.self = o
o.list.push(o)
const c = structuredClone(o)
return [c.self === c, c.a === c.b, c.list[0] === c.a, c.list[1] === c, c.a !== shared, c.a.v]

// === class-instances-lose-prototype
class Point {
  constructor(x, y) { this.x = x; this.y = y }
  get len() { return Math.hypot(this.x, this.y) }
  norm() { return 1 }
}
const p = new Point(3, 4)
Object.defineProperty(p, "hidden", { value: 1, enumerable: false })
p[Symbol("s")] = 1
const c = structuredClone(p)
return [c, typeof c.norm, String(c.len), Object.prototype.toString.call(c), c.constructor === p.constructor, Object.getOwnPropertyNames(c)]

// === getters-invoked-in-order
const log = []
const o = {
  get a() { log.push("a"); return { get inner() { log.push("inner"); return 1 } } },
  b: 2,
  get c() { log.push("c"); delete o.d; o.e = 5; return 3 },
  d: 4,
}
const c = structuredClone(o)
return [log, c, Object.getOwnPropertyDescriptor(c, "a").value.inner]

// === builtin-objects
const d = new Date(Date.UTC(2020, 1, 29, 12))
const r = /ab+c/gi
r.lastIndex = 5
const m = new Map([[1, { one: 1 }], ["k", [2]]])
const s = new Set([1, "a", 1, { o: 1 }])
const c = structuredClone({ d, r, m, s })
return [
  c.d.toISOString(), Object.prototype.toString.call(c.d), c.r.source, c.r.flags, c.r.lastIndex, Object.prototype.toString.call(c.r),
  c.m.size, [...c.m.keys()], c.m.get(1), c.s.size, [...c.s].length, Object.prototype.toString.call(c.m), Object.prototype.toString.call(c.s),
  String(structuredClone(new Date(NaN))),
]

// === map-set-keys-identity
const k = { key: true }
const m = new Map([[k, k], [NaN, "nan"]])
const c = structuredClone(m)
const [ck] = c.keys()
const set = structuredClone(new Set([k, [k]]))
const [a, b] = set
return [c.get(ck) === ck, ck !== k, c.get(NaN), a === b[0]]

// === boxed-primitives
const c = structuredClone([new Number(5), new String("str"), new Boolean(false), Object(7n)])
const s = new String("ab")
s.extra = 1
const cs = structuredClone(s)
return [c.map((x) => [typeof x, Object.prototype.toString.call(x), String(x.valueOf())]), cs.length, String(cs.extra), Object.keys(cs)]

// === errors
const e = new TypeError("bad", { cause: { why: 1 } })
e.extra = 5
const c = structuredClone(e)
const named = new Error("m")
named.name = "RangeError"
const custom = new Error("m")
custom.name = "Custom"
class MyErr extends Error {}
const agg = new AggregateError([1], "many")
const noMsg = structuredClone(new Error())
return [
  [c.name, c.message, c.cause, String(c.extra), Object.prototype.toString.call(c), Object.getOwnPropertyNames(c), c.stack === e.stack],
  [structuredClone(named).name, structuredClone(custom).name, structuredClone(new MyErr("x")).name, structuredClone(agg).name, String(structuredClone(agg).errors)],
  Object.getOwnPropertyNames(noMsg), structuredClone({ err: new RangeError("r") }).err.message,
]

// === error-message-and-stack-details
const e = new Error("x")
e.message = { toString() { return "T" } }
const f = new Error("y")
f.stack = 5
const g = new Error("z")
Object.defineProperty(g, "message", { get() { return "g" } })
return [structuredClone(e).message, typeof structuredClone(f).stack, Object.getOwnPropertyNames(structuredClone(g))]

// === binary-data
const b = new ArrayBuffer(8)
const u = new Uint8Array(b, 2, 4)
u.set([9, 8, 7, 6])
const i16 = new Int16Array(b)
const dv = new DataView(b, 1, 3)
const c = structuredClone({ u, i16, dv, b })
c.u[0] = 100
return [
  c.u.buffer === c.b, c.i16.buffer === c.b, c.dv.buffer === c.b, c.u.byteOffset, Array.from(c.u), c.u.length, c.dv.byteOffset, c.dv.byteLength,
  u[0], Object.prototype.toString.call(c.u), Object.prototype.toString.call(c.dv), c.b.byteLength,
  (() => { const r = new ArrayBuffer(4, { maxByteLength: 8 }); const rc = structuredClone(r); return [rc.resizable, rc.maxByteLength] })(),
  (() => { const r = new ArrayBuffer(4, { maxByteLength: 8 }); const tc = structuredClone(new Uint8Array(r)); tc.buffer.resize(8); return tc.length })(),
  Array.from(structuredClone(new Float64Array([1.5, -2]))), Array.from(structuredClone(new BigInt64Array([5n]))).map(String),
]

// === transfer
const t = (f) => { try { return f() } catch (e) { return [e.name, e.message] } }
const b = new ArrayBuffer(4)
new Uint8Array(b).set([1, 2, 3, 4])
const c = structuredClone({ b, view: new Uint8Array(b, 1) }, { transfer: [b] })
const unreferenced = new ArrayBuffer(2)
structuredClone(1, { transfer: [unreferenced] })
const dup = new ArrayBuffer(1)
const det = new ArrayBuffer(1)
det.transfer()
return [
  b.byteLength, b.detached, c.b.byteLength, Array.from(c.view), unreferenced.detached,
  t(() => structuredClone(1, { transfer: [{}] })), t(() => structuredClone(1, { transfer: [dup, dup] })), t(() => structuredClone(1, { transfer: [det] })),
  dup.detached, t(() => structuredClone(det)), structuredClone(1, { transfer: [] }), structuredClone(2, {}), structuredClone(3, null),
  t(() => structuredClone(1, 5)), t(() => structuredClone(1, { transfer: 5 })),
]

// === uncloneable-values
const t = (f) => { try { return f() } catch (e) { return [e.name, String(e.code), e.message] } }
// V8 prints other objects differently depending on the realm that clones them: only name and code are compared.
const n = (f) => { try { return f() } catch (e) { return [e.name, String(e.code)] } }
return [
  t(() => structuredClone(Symbol("s"))), t(() => structuredClone({ a: Symbol("s") })), t(() => structuredClone(Object(Symbol("s")))),
  t(() => structuredClone(function named(a) { return a })), n(() => structuredClone({ f() {} })), t(() => structuredClone(() => 1)),
  n(() => structuredClone(new WeakMap())), n(() => structuredClone(new WeakSet())), n(() => structuredClone(Promise.resolve(1))),
  t(() => structuredClone(new Map().keys())), t(() => structuredClone([].values())), t(() => structuredClone((function* () {})())),
  n(() => structuredClone((function () { return arguments })(1, 2))), t(() => structuredClone({ [Symbol("key")]: 1, ok: 2 })),
  t(() => structuredClone()), t(() => structuredClone({ get boom() { throw new RangeError("boom") } })),
  t(() => structuredClone(Math)), t(() => structuredClone(JSON)), t(() => structuredClone(new URL("http://a/"))),
  t(() => structuredClone(new URLSearchParams("a=1"))), t(() => structuredClone(new Headers())),
]

// === dom-exception-clone
const e = new DOMException("msg", "DataCloneError")
const c = structuredClone(e)
let thrown
try { structuredClone(() => 0) } catch (err) { thrown = structuredClone(err) }
return [c.name, c.message, c.code, Object.prototype.toString.call(c), thrown.name, thrown.message, c !== e]

// === null-prototype-and-frozen
const o = Object.create(null)
o.x = 1
const f = Object.freeze({ a: 1 })
const c = structuredClone({ o, f })
return [Object.prototype.toString.call(c.o), Object.getPrototypeOf(c.o) !== null, Object.isFrozen(c.f), c.o.x, c.f.a, Object.isExtensible(c.f)]

// === deep-copy-use-case
const state = { users: [{ id: 1, tags: new Set(["a"]), joined: new Date(0) }], index: new Map([[1, 0]]) }
const next = structuredClone(state)
next.users[0].tags.add("b")
next.users.push({ id: 2 })
return [state.users.length, [...state.users[0].tags], next.users.length, [...next.users[0].tags], next.users[0].joined.getTime(), next.index.get(1)]
