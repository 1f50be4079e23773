// Smaller conformance points: the program's top-level `this` (sloppy), Function.prototype.toString of methods and
// classes, the completion of yield* in async generators, property and built-in edge cases.

// === top-level-this-sloppy
const arrow = () => this
return [this === globalThis, arrow() === globalThis, typeof this]

// === function-tostring-methods-and-classes
function f(a, b) { return a + b }
class C { m() {} get g() { return 1 } static s() {} #p() {} q() { return this.#p.toString() } }
class D extends C {}
const o = { m() {}, get x() { return 1 }, async *ag() {}, ["comp" + "uted"]() {} }
return [f.toString(), C.toString(), D.toString(), C.prototype.m.toString(), Object.getOwnPropertyDescriptor(C.prototype, "g").get.toString(), C.s.toString(), new C().q(), o.m.toString(), Object.getOwnPropertyDescriptor(o, "x").get.toString(), o.ag.toString(), o.computed.toString()]

// === async-yield-star-throw-without-throw-method
const log = []
const inner = {
  [Symbol.asyncIterator]() { return this },
  next() { return { value: 1, done: false } },
  get return() { log.push("get return"); return () => { log.push("return called"); return { then(r) { log.push("then"); r({ done: true }) } } } },
}
async function* g() { try { yield* inner } catch (e) { log.push("caught " + e.name) } }
const it = g()
await it.next()
await it.throw(new Error("x"))
return log

// === async-yield-star-throw-without-throw-method-ticks
const log = []
const inner = {
  [Symbol.asyncIterator]() { return this },
  next() { return { value: 1, done: false } },
  return() { log.push("return"); return new Promise((r) => { Promise.resolve().then(() => { log.push("tick"); r({}) }) }) },
}
async function* g() { try { yield* inner } catch (e) { log.push("caught") } }
const it = g()
await it.next()
const p = it.throw(new Error("x"))
Promise.resolve().then(() => log.push("a")).then(() => log.push("b")).then(() => log.push("c"))
await p
return [...log]

// === async-yield-star-return-result-not-object
const log = []
const inner = { [Symbol.asyncIterator]() { return this }, next() { return { value: 1, done: false } }, return() { log.push("return"); return 5 } }
async function* g() { try { yield* inner } catch (e) { log.push("caught " + e.name) } }
const it = g()
await it.next()
await it.throw(new Error("x"))
return log

// === async-yield-star-return-ticks
const log = []
const inner = { [Symbol.asyncIterator]() { return this }, next() { return { value: 1, done: false } }, return(v) { return { value: v, done: true } } }
async function* g() { yield* inner }
const it = g()
await it.next()
const p = it.return("v").then(() => log.push("done"))
Promise.resolve().then(() => log.push("a")).then(() => log.push("b")).then(() => log.push("c")).then(() => log.push("d")).then(() => log.push("e"))
await p
await null
await null
await null
return log

// === async-yield-star-return-without-return-method
const log = []
const inner = { [Symbol.asyncIterator]() { return this }, next() { return { value: 1, done: false } } }
async function* g() { yield* inner }
const it = g()
await it.next()
const p = it.return("v").then((r) => log.push(JSON.stringify(r)))
Promise.resolve().then(() => log.push("a")).then(() => log.push("b")).then(() => log.push("c")).then(() => log.push("d"))
await p
await null
await null
return log
