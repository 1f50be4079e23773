// Promise: the constructor and executor, then/catch/finally, the statics (resolve, reject, all, allSettled, any,
// race, withResolvers, try), species, thenable adoption, and the exact microtask interleavings V8 produces.

// === constructor-executor-sync
const log = []
const p = new Promise((resolve) => {
  log.push("executor")
  resolve(1)
  log.push("after resolve")
})
log.push("constructed")
log.push(await p)
return log

// === constructor-executor-throws
const p = new Promise(() => {
  throw new TypeError("in executor")
})
try {
  await p
} catch (e) {
  return [e.name, e.message]
}

// === constructor-throw-after-resolve-ignored
const p = new Promise((resolve) => {
  resolve("ok")
  throw new Error("ignored")
})
return await p

// === constructor-resolve-twice
const p = new Promise((resolve, reject) => {
  resolve(1)
  resolve(2)
  reject(3)
})
return await p

// === constructor-without-new
try {
  Promise(() => {})
} catch (e) {
  return [e.name, e.message]
}

// === constructor-bad-executor
try {
  new Promise(5)
} catch (e) {
  return [e.name, e.message]
}

// === constructor-resolve-functions-shape
let fns
new Promise((resolve, reject) => {
  fns = [resolve.length, reject.length, resolve.name, reject.name, typeof resolve]
})
return fns

// === then-chain
const r = await Promise.resolve(1)
  .then((v) => v + 1)
  .then((v) => {
    throw new Error("e" + v)
  })
  .then(() => "skipped")
  .catch((e) => e.message)
  .then((v) => v + "!")
return r

// === then-non-callable-passthrough
const a = await Promise.resolve(5).then(null, null).then(undefined, 7)
let b
try {
  await Promise.reject(6).then(1)
} catch (e) {
  b = e
}
return [a, b]

// === then-returns-new-promise
const p = Promise.resolve(1)
const q = p.then()
return [p === q, q instanceof Promise, await q]

// === then-incompatible-receiver
try {
  Promise.prototype.then.call({}, () => {})
} catch (e) {
  return [e.name, e.message]
}

// === catch-on-thenable-object
const calls = []
const fake = {
  then(a, b) {
    calls.push([typeof a, typeof b])
    return "then-result"
  },
}
const r = Promise.prototype.catch.call(fake, () => {})
return [r, calls]

// === finally-passes-value-through
const log = []
const v = await Promise.resolve("value").finally(() => {
  log.push("finally")
  return "ignored"
})
let reason
try {
  await Promise.reject("reason").finally(() => log.push("finally2"))
} catch (e) {
  reason = e
}
return [v, reason, log]

// === finally-throw-overrides
try {
  await Promise.resolve(1).finally(() => {
    throw new RangeError("from finally")
  })
} catch (e) {
  return [e.name, e.message]
}

// === finally-waits-for-returned-promise
const log = []
const p = Promise.resolve("v").finally(() => new Promise((r) => setTimeoutLike(r)))
function setTimeoutLike(r) {
  Promise.resolve()
    .then(() => log.push("tick1"))
    .then(() => log.push("tick2"))
    .then(() => r())
}
const v = await p
log.push("done " + v)
return log

// === finally-rejected-promise-from-callback
try {
  await Promise.resolve(1).finally(() => Promise.reject("inner"))
} catch (e) {
  return e
}

// === finally-non-callable
return [await Promise.resolve(3).finally(5), await Promise.resolve(4).finally()]

// === resolve-static
const p = Promise.resolve(1)
const thenable = { then(r) { r("from thenable") } }
return [Promise.resolve(p) === p, await Promise.resolve(thenable), String(await Promise.resolve()), typeof Promise.resolve(2).then]

// === resolve-static-non-object-this
try {
  Promise.resolve.call(5, 1)
} catch (e) {
  return e.name
}

// === reject-static
const p = Promise.reject(new Error("no"))
const q = Promise.reject(p)
let a
let b
try {
  await p
} catch (e) {
  a = e.message
}
try {
  await q
} catch (e) {
  b = e === p
}
return [a, b]

// === all-basic
const r = await Promise.all([1, Promise.resolve(2), { then(res) { res(3) } }, new Promise((res) => Promise.resolve().then(() => res(4)))])
return r

// === all-empty-and-iterables
return [await Promise.all([]), await Promise.all("ab"), await Promise.all(new Set([1, 2])), await Promise.all(new Map([["k", "v"]]))]

// === all-rejects-first
const log = []
try {
  await Promise.all([Promise.resolve(1), Promise.reject("first"), Promise.reject("second")])
} catch (e) {
  log.push(e)
}
return log

// === all-not-iterable
try {
  await Promise.all(5)
} catch (e) {
  return [e.name]
}

// === all-resolve-lookup-once
let lookups = 0
class MyPromise extends Promise {
  static get resolve() {
    lookups++
    return super.resolve
  }
}
await MyPromise.all([1, 2, 3])
return lookups

// === all-iterator-closed-on-throw
const log = []
const iterable = {
  [Symbol.iterator]() {
    return {
      next() {
        return { value: 1, done: false }
      },
      return() {
        log.push("return called")
        return {}
      },
    }
  },
}
const origResolve = Promise.resolve
class P2 extends Promise {
  static resolve() {
    throw new Error("resolve threw")
  }
}
try {
  await P2.all(iterable)
} catch (e) {
  log.push(e.message)
}
return log

// === all-settled
const r = await Promise.allSettled([1, Promise.reject(new Error("x")), Promise.resolve("y")])
return r.map((s) => (s.status === "rejected" ? [s.status, s.reason.message] : [s.status, s.value]))

// === all-settled-keys
const [a, b] = await Promise.allSettled([Promise.resolve(1), Promise.reject(2)])
return [Object.keys(a), Object.keys(b)]

// === any-first-fulfilled
return await Promise.any([Promise.reject(1), Promise.resolve(2), Promise.resolve(3)])

// === any-all-rejected
try {
  await Promise.any([Promise.reject("a"), Promise.reject("b")])
} catch (e) {
  return [e.name, e.message, e.errors, e instanceof AggregateError, Object.getOwnPropertyDescriptor(e, "errors").enumerable]
}

// === any-empty
try {
  await Promise.any([])
} catch (e) {
  return [e.name, e.errors]
}

// === race-basic
const slow = new Promise((r) => Promise.resolve().then(() => Promise.resolve()).then(() => r("slow")))
return [await Promise.race([slow, Promise.resolve("fast")]), await Promise.race([3, slow])]

// === race-rejection
try {
  await Promise.race([Promise.reject("lost"), Promise.resolve("won")])
} catch (e) {
  return e
}

// === race-empty-stays-pending
let settled = false
Promise.race([]).then(() => (settled = true))
await null
await null
return settled

// === with-resolvers
const { promise, resolve, reject } = Promise.withResolvers()
resolve("done")
reject("ignored")
return [await promise, typeof resolve, Object.keys(Promise.withResolvers())]

// === promise-try
const a = await Promise.try(() => 1)
const b = await Promise.try((x, y) => x + y, 2, 3)
let c
try {
  await Promise.try(() => {
    throw new Error("sync throw")
  })
} catch (e) {
  c = e.message
}
return [a, b, c]

// === species
class Sub extends Promise {}
const p = Sub.resolve(1)
const q = p.then((v) => v)
return [p instanceof Sub, q instanceof Sub, Promise[Symbol.species] === Promise, Sub[Symbol.species] === Sub, p.finally(() => {}) instanceof Sub]

// === species-override
class NoSpecies extends Promise {
  static get [Symbol.species]() {
    return Promise
  }
}
const p = NoSpecies.resolve(1)
const q = p.then(() => 2)
return [p instanceof NoSpecies, q instanceof NoSpecies, q instanceof Promise, await q]

// === subclass-constructor-called
const log = []
class Logged extends Promise {
  constructor(executor) {
    log.push("ctor")
    super(executor)
  }
}
const p = Logged.resolve(1)
p.then(() => {})
await p
return log

// === promise-shape
return [Promise.length, Promise.name, Object.prototype.toString.call(Promise.resolve()), Promise.prototype[Symbol.toStringTag], Object.getOwnPropertyNames(Promise.prototype).sort(), Object.getOwnPropertyNames(Promise).sort(), Promise.all.length, Promise.prototype.then.length]

// === chaining-cycle
const p = Promise.resolve().then(() => p)
try {
  await p
} catch (e) {
  return [e.name, e.message]
}

// === thenable-getter-throws
const bad = {
  get then() {
    throw new Error("then getter")
  },
}
try {
  await Promise.resolve(bad)
} catch (e) {
  return e.message
}

// === thenable-then-throws-after-resolve
const t = {
  then(resolve) {
    resolve("first")
    throw new Error("ignored")
  },
}
return await Promise.resolve(t)

// === order-then-vs-sync
const log = []
Promise.resolve().then(() => log.push("micro"))
log.push("sync")
await null
return log

// === order-two-chains-interleave
const log = []
Promise.resolve()
  .then(() => log.push("a1"))
  .then(() => log.push("a2"))
  .then(() => log.push("a3"))
Promise.resolve()
  .then(() => log.push("b1"))
  .then(() => log.push("b2"))
  .then(() => log.push("b3"))
await new Promise((r) => setTimeoutOrder(r))
function setTimeoutOrder(r) {
  let p = Promise.resolve()
  for (let i = 0; i < 6; i++) p = p.then(() => {})
  p.then(r)
}
return log

// === order-resolve-with-promise-takes-two-ticks
const log = []
const inner = Promise.resolve("inner")
new Promise((r) => r(inner)).then((v) => log.push("outer " + v))
Promise.resolve()
  .then(() => log.push("t1"))
  .then(() => log.push("t2"))
  .then(() => log.push("t3"))
  .then(() => log.push("t4"))
let p = Promise.resolve()
for (let i = 0; i < 8; i++) p = p.then(() => {})
await p
return log

// === order-thenable-adoption
const log = []
const thenable = {
  then(resolve) {
    log.push("then called")
    resolve("thenable value")
  },
}
Promise.resolve(thenable).then((v) => log.push(v))
Promise.resolve().then(() => log.push("x1")).then(() => log.push("x2")).then(() => log.push("x3"))
log.push("sync end")
let p = Promise.resolve()
for (let i = 0; i < 6; i++) p = p.then(() => {})
await p
return log

// === order-async-return-promise
const log = []
async function f() {
  return Promise.resolve("f")
}
async function g() {
  return "g"
}
f().then((v) => log.push(v))
g().then((v) => log.push(v))
Promise.resolve().then(() => log.push("p1")).then(() => log.push("p2")).then(() => log.push("p3"))
let p = Promise.resolve()
for (let i = 0; i < 8; i++) p = p.then(() => {})
await p
return log

// === order-await-promise-vs-then
const log = []
async function a() {
  log.push("a start")
  await Promise.resolve()
  log.push("a after await")
}
a()
Promise.resolve().then(() => log.push("then 1")).then(() => log.push("then 2"))
log.push("sync")
let p = Promise.resolve()
for (let i = 0; i < 5; i++) p = p.then(() => {})
await p
return log

// === order-finally
const log = []
Promise.resolve("v")
  .finally(() => log.push("finally"))
  .then((v) => log.push("after finally " + v))
Promise.resolve()
  .then(() => log.push("c1"))
  .then(() => log.push("c2"))
  .then(() => log.push("c3"))
  .then(() => log.push("c4"))
  .then(() => log.push("c5"))
let p = Promise.resolve()
for (let i = 0; i < 10; i++) p = p.then(() => {})
await p
return log

// === order-catch-vs-then
const log = []
Promise.reject("r")
  .then(() => log.push("not called"))
  .catch(() => log.push("caught"))
Promise.resolve()
  .then(() => log.push("n1"))
  .then(() => log.push("n2"))
  .then(() => log.push("n3"))
let p = Promise.resolve()
for (let i = 0; i < 6; i++) p = p.then(() => {})
await p
return log

// === order-all
const log = []
Promise.all([1, Promise.resolve(2)]).then((v) => log.push("all " + v))
Promise.resolve()
  .then(() => log.push("o1"))
  .then(() => log.push("o2"))
  .then(() => log.push("o3"))
let p = Promise.resolve()
for (let i = 0; i < 6; i++) p = p.then(() => {})
await p
return log

// === order-race-any-allsettled
const log = []
Promise.race([Promise.resolve("race")]).then((v) => log.push(v))
Promise.any([Promise.reject(0), Promise.resolve("any")]).then((v) => log.push(v))
Promise.allSettled([Promise.resolve(1)]).then(() => log.push("allSettled"))
Promise.resolve()
  .then(() => log.push("q1"))
  .then(() => log.push("q2"))
  .then(() => log.push("q3"))
let p = Promise.resolve()
for (let i = 0; i < 8; i++) p = p.then(() => {})
await p
return log

// === order-executor-resolve-later
const log = []
let resolveLater
const p = new Promise((r) => (resolveLater = r))
p.then((v) => log.push("p " + v))
Promise.resolve().then(() => {
  log.push("resolving")
  resolveLater("x")
})
Promise.resolve().then(() => log.push("other"))
let q = Promise.resolve()
for (let i = 0; i < 4; i++) q = q.then(() => {})
await q
return log

// === order-nested-then-registration
const log = []
const p = Promise.resolve()
p.then(() => {
  log.push("outer1")
  p.then(() => log.push("inner"))
})
p.then(() => log.push("outer2"))
let q = Promise.resolve()
for (let i = 0; i < 4; i++) q = q.then(() => {})
await q
return log

// === unhandled-then-handled-later
const p = Promise.reject(new Error("late"))
await null
try {
  await p
} catch (e) {
  return e.message
}

// === uncaught-rejection-propagates
await Promise.reject(new SyntaxError("bad"))
