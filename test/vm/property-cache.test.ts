import { describe, it } from "vitest"
import { sameAsV8 } from "./helpers.ts"

// One site (read's o.x, write's o.x = v) sees objects of the same shape whose slot for x differs: the cached
// shape and slot must not be trusted past the guard (vm/property-cache.ts).
describe("inline caches at named property sites", () => {
  it("a read site does not skip an accessor, a read-only or a deleted property of a cached shape", async () => {
    await sameAsV8([
      `const read = (o) => o.x
       const a = { x: 1, y: 2 }, b = { x: 3, y: 4 }
       const r = [read(a), read(b)]
       let calls = 0
       Object.defineProperty(b, "x", { get() { calls++; return "getter" } })
       r.push(read(a), read(b), read(b), calls)
       return r`,
      `const read = (o) => o.x
       const a = { x: 1, y: 2 }, b = { x: 3, y: 4 }
       read(a); read(b)
       delete b.y
       b.x = 5
       return [read(a), read(b), read({ y: 1 }), read({ x: 9, y: 1 })]`,
      `const read = (o) => o.y
       const proto = { y: "proto" }
       const a = { x: 1, y: 2 }
       const b = Object.create(proto); b.x = 1
       return [read(a), read(b), read(a), read(Object.assign([], { x: 1, y: "array" })), read("str"), read(a)]`,
      `class P { constructor() { this.x = 1; this.y = 2 } get z() { return this.x + this.y } }
       const read = (o) => o.z
       const a = new P(), b = new P()
       const r = [read(a), read({ x: 1, y: 2, z: "own" })]
       Object.defineProperty(b, "z", { value: "own b", enumerable: true })
       return [...r, read(b), read(a)]`,
    ])
  })

  it("a read site finding its key on the prototype checks the prototype each object has now", async () => {
    await sameAsV8([
      `class A { constructor() { this.v = 1 } m() { return "A" } }
       class B { constructor() { this.v = 1 } m() { return "B" } }
       const call = (o) => o.m()
       const a = new A(), b = new B(), r = []
       for (let i = 0; i < 3; i++) r.push(call(a), call(b))
       A.prototype.m = () => "A2"
       r.push(call(a), call(b))
       Object.defineProperty(A.prototype, "m", { get() { return () => "getter" } })
       r.push(call(a))
       Object.setPrototypeOf(b, { m() { return "other" }, n: 1 })
       r.push(call(b))
       b.m = () => "own"
       r.push(call(b))
       delete B.prototype.m
       const c = new B()
       try { call(c) } catch (e) { r.push(e.constructor.name) }
       return r`,
      `const read = (o) => o.k
       const p1 = { k: 1, j: 2 }, p2 = { k: 3, j: 4 }
       const a = Object.create(p1), b = Object.create(p2)
       const r = [read(a), read(b), read(a)]
       Object.defineProperty(p2, "k", { get() { return "getter " + (this === b) } })
       r.push(read(b), read(a))
       Object.defineProperty(p1, "k", { value: "read-only", writable: false })
       r.push(read(a))
       delete p1.j
       r.push(read(a), read(Object.create(null)), read(Object.create([])), read(Object.create(Object.create(p1))))
       return r`,
    ])
  })

  it("a write site does not write a read-only, frozen or accessor property of a cached shape", async () => {
    await sameAsV8([
      `"use strict"
       const write = (o, v) => { o.x = v; return o.x }
       const a = { x: 1, y: 2 }, b = { x: 3, y: 4 }, c = { x: 5, y: 6 }
       const r = [write(a, 10), write(b, 11)]
       Object.defineProperty(b, "x", { writable: false })
       Object.freeze(c)
       for (const o of [b, c]) {
         try { write(o, 12) } catch (e) { r.push(e.constructor.name) }
       }
       return [...r, b.x, c.x, write(a, 13)]`,
      `const write = (o, v) => { o.x = v }
       const a = { x: 1 }, b = { x: 2 }
       write(a, 5); write(b, 6)
       const seen = []
       Object.defineProperty(b, "x", { set(v) { seen.push(v) }, get() { return "g" } })
       write(b, 7); write(a, 8)
       return [a.x, b.x, seen]`,
      `const write = (o, v) => { o.length = v; return o.length }
       const plain = { length: 3 }
       return [write(plain, 1), write([1, 2, 3], 1), write(plain, 0), write([1, 2], 5)]`,
    ])
  })

  it("a write site adding a key asks the prototypes each time and adds only to an extensible object", async () => {
    await sameAsV8([
      `"use strict"
       function P(x) { this.x = x; this.y = x + 1 }
       const r = [], seen = []
       for (let i = 0; i < 3; i++) r.push(Object.keys(new P(i)).join())
       Object.defineProperty(P.prototype, "y", { set(v) { seen.push(v) }, configurable: true })
       const a = new P(10)
       r.push(Object.keys(a).join(), a.y, seen.join())
       delete P.prototype.y
       Object.defineProperty(Object.prototype, "y", { value: "read-only", configurable: true })
       try { new P(20) } catch (e) { r.push(e.constructor.name) }
       delete Object.prototype.y
       r.push(Object.keys(new P(30)).join())
       const add = (o) => { o.z = 1; return o }
       const b = add({ w: 1 }), c = Object.preventExtensions({ w: 2 })
       try { add(c) } catch (e) { r.push(e.constructor.name) }
       r.push(JSON.stringify(b), JSON.stringify(c), JSON.stringify(add({ w: 3 })))
       const d = { w: 4 }, e = { w: 5 }
       add(d)
       Object.defineProperty(e, "z", { value: "fixed", writable: false })
       try { add(e) } catch (err) { r.push(err.constructor.name, e.z) }
       const f = Object.create(Object.freeze({ z: 0 }))
       try { add(f) } catch (err) { r.push(err.constructor.name, Object.keys(f).length) }
       return r`,
      `const add = (o, v) => { o.length = v; o.k = v; return Object.keys(o).join() }
       return [add({}, 1), add({}, 2), add(function () {}, 3), add([], 4)]`,
    ])
  })

  it("an object literal's field site adds the key only to an object of the shape it saw, in shape mode", async () => {
    await sameAsV8([
      `const make = (src) => ({ ...src, x: 1, y: 2 })
       const big = {}
       for (let i = 0; i < 40; i++) big["k" + i] = i
       const a = make({}), b = make(big), c = make({ y: 0, x: 0 }), d = make({})
       return [Object.keys(a), Object.keys(b).length, b.k0, b.k39, b.x, Object.keys(c), Object.keys(d)]`,
      `const make = (n) => ({ a: n, b: n + 1, a: n + 2, get c() { return 3 }, c: 4 })
       return [make(1), make(2), Object.keys(make(3))]`,
    ])
  })
})
