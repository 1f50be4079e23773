// Async functions and async generators: results and rejections, await of values, promises and thenables,
// for await over async iterables and arrays of promises, try/catch around await, async arrows and methods.

// === async-function-returns-promise
async function f() { return 1 }
const p = f()
return [p instanceof Promise, await p]

// === await-non-promise-values
const a = await 1
const b = await "s"
const c = await null
return [a, b, c]

// === await-rejection-throws
async function f() { throw new TypeError("inside") }
try {
  await f()
  return "resolved"
} catch (e) {
  return e.name
}

// === async-throw-becomes-rejection-not-sync
let sync = "none"
async function f() { throw new Error("x") }
let p
try {
  p = f()
  sync = "no sync throw"
} catch {
  sync = "sync throw"
}
const r = await p.then(() => "resolved", (e) => "rejected " + e.message)
return [sync, r]

// === await-thenable
const thenable = { then(resolve) { resolve("from thenable") } }
return await thenable

// === await-thenable-rejects
const thenable = { then(_, reject) { reject(new RangeError("thenable reject")) } }
try {
  await thenable
} catch (e) {
  return e.name
}

// === await-thenable-throws-in-then
const thenable = { then() { throw new SyntaxError("then threw") } }
try {
  await thenable
} catch (e) {
  return e.name
}

// === await-thenable-getter-called-once
let gets = 0
const thenable = {
  get then() {
    gets++
    return (res) => res("ok")
  },
}
const v = await thenable
return [v, gets]

// === await-nested-thenables
const inner = { then(r) { r(42) } }
const outer = { then(r) { r(inner) } }
return await outer

// === async-sequential-vs-parallel
const log = []
const task = async (name) => {
  log.push("start " + name)
  await null
  log.push("end " + name)
  return name
}
const seq = [await task("a"), await task("b")]
const par = await Promise.all([task("c"), task("d")])
return [seq, par, log]

// === try-catch-finally-with-await
const log = []
async function f() {
  try {
    await Promise.reject(new Error("rej"))
  } catch (e) {
    log.push("catch " + e.message)
    await null
    return "from catch"
  } finally {
    log.push("finally")
  }
}
const r = await f()
return [r, log]

// === async-arrow-and-methods
const arrow = async (x) => x * 2
const o = { async m() { return "method" } }
class C {
  async m() { return "class method" }
  static async s() { return "static" }
}
return [await arrow(21), await o.m(), await new C().m(), await C.s()]

// === async-arrow-this-lexical
const o = {
  v: "lexical",
  m() {
    const f = async () => {
      await null
      return this.v
    }
    return f()
  },
}
return await o.m()

// === async-function-arguments
async function f() {
  await null
  return arguments.length
}
return await f(1, 2, 3)

// === async-not-constructor
async function f() {}
try {
  new f()
  return "constructed"
} catch (e) {
  return e.name
}

// === await-in-loop
let sum = 0
for (let i = 1; i <= 5; i++) sum += await Promise.resolve(i)
return sum

// === await-in-conditions-and-args
const v = async (x) => x
const r = []
if (await v(true)) r.push("if")
r.push(Math.max(await v(1), await v(5)))
r.push((await v("a")) + (await v("b")))
return r

// === for-await-array-of-promises
const out = []
for await (const v of [Promise.resolve(1), 2, Promise.resolve(3)]) out.push(v)
return out

// === for-await-async-generator
async function* gen() {
  yield 1
  await null
  yield 2
  yield Promise.resolve(3)
}
const out = []
for await (const v of gen()) out.push(v)
return out

// === for-await-custom-async-iterable
const iterable = {
  [Symbol.asyncIterator]() {
    let i = 0
    return {
      next() { return Promise.resolve({ value: i * 10, done: i++ >= 3 }) },
    }
  },
}
const out = []
for await (const v of iterable) out.push(v)
return out

// === for-await-sync-iterable-of-thenables
const log = []
function* g() {
  yield { then(r) { log.push("then"); r("a") } }
  yield "b"
}
const out = []
for await (const v of g()) out.push(v)
return [out, log]

// === for-await-break-calls-return
const log = []
async function* gen() {
  try {
    yield 1
    yield 2
  } finally {
    log.push("finally")
  }
}
for await (const v of gen()) {
  log.push(v)
  break
}
return log

// === for-await-rejection-stops
const out = []
try {
  for await (const v of [Promise.resolve(1), Promise.reject(new TypeError("bad")), Promise.resolve(3)]) out.push(v)
} catch (e) {
  out.push(e.name)
}
return out

// === async-generator-next-queue
async function* gen() {
  yield "a"
  yield "b"
}
const it = gen()
const results = await Promise.all([it.next(), it.next(), it.next()])
return results.map((r) => [r.value ?? null, r.done])

// === async-generator-return-and-throw
async function* gen() {
  try {
    yield 1
    yield 2
  } catch (e) {
    yield "caught " + e
  }
}
const it = gen()
const a = await it.next()
const b = await it.throw("E")
const c = await it.return("R")
const d = await it.next()
return [a, b, c, [d.value ?? null, d.done]]

// === async-generator-yield-star
async function* inner() {
  yield "i1"
  yield "i2"
  return "inner done"
}
async function* outer() {
  const r = yield* inner()
  yield r
  yield* ["sync", "iterable"]
}
const out = []
for await (const v of outer()) out.push(v)
return out

// === async-generator-awaits-yielded-promise
async function* gen() {
  const v = yield Promise.resolve("resolved value")
  return v
}
const it = gen()
const first = await it.next()
const second = await it.next("sent")
return [first, second]

// === async-generator-yield-rejected-promise-throws-inside
async function* gen() {
  try {
    yield Promise.reject(new RangeError("r"))
  } catch (e) {
    yield "caught inside " + e.name
  }
}
const out = []
for await (const v of gen()) out.push(v)
return out

// === async-iterator-protocol-objects
async function* gen() { yield 1 }
const it = gen()
return [typeof it[Symbol.asyncIterator], it[Symbol.asyncIterator]() === it, Object.prototype.toString.call(it), typeof it.next().then]

// === promise-all-settled-and-any
const settled = await Promise.allSettled([Promise.resolve(1), Promise.reject(new Error("e"))])
const any = await Promise.any([Promise.reject(1), Promise.resolve("second")])
let anyErr
try {
  await Promise.any([Promise.reject(1)])
} catch (e) {
  anyErr = e.name
}
return [settled.map((s) => s.status), any, anyErr]

// === promise-race
const slow = new Promise((r) => Promise.resolve().then(() => Promise.resolve()).then(() => r("slow")))
const fast = Promise.resolve("fast")
return await Promise.race([slow, fast])

// === top-level-await-value
const v = await new Promise((resolve) => resolve("resolved in executor"))
return v

// === promise-executor-throw-rejects
const p = new Promise(() => { throw new TypeError("executor") })
try {
  await p
} catch (e) {
  return e.name
}

// === promise-resolve-once
const p = new Promise((resolve, reject) => {
  resolve("first")
  resolve("second")
  reject(new Error("ignored"))
})
return await p

// === uncaught-async-rejection-ends-program
async function f() {
  await null
  throw new URIError("async failure")
}
await f()
return "unreachable"

// === unawaited-rejection-does-not-fail-program
async function f() { throw new Error("nobody waits") }
f()
Promise.reject(new TypeError("also ignored"))
await null
return "finished"

// === unawaited-rejection-handled-later
const p = Promise.reject(new Error("late"))
await null
const r = await p.catch((e) => "handled " + e.message)
return r

// === async-recursion
async function sum(n) { return n === 0 ? 0 : n + (await sum(n - 1)) }
return await sum(100)

// === await-promise-subclass
class MyPromise extends Promise {}
const p = MyPromise.resolve(5)
return [p instanceof MyPromise, await p, p.then((x) => x) instanceof MyPromise]
