// Microtask ordering. These must match V8 exactly: promise reaction jobs, the number of ticks an `await` takes
// (one for native promises, more for thenables), async return of a promise (two extra ticks), then-chains
// interleaving, and sync code always running before any job. Each program drains the queue before returning.

// === sync-before-microtasks
const log = []
Promise.resolve().then(() => log.push("micro"))
log.push("sync")
await null
return log

// === then-chains-interleave
const log = []
Promise.resolve().then(() => log.push("a1")).then(() => log.push("a2")).then(() => log.push("a3"))
Promise.resolve().then(() => log.push("b1")).then(() => log.push("b2")).then(() => log.push("b3"))
for (let i = 0; i < 10; i++) await null
return log

// === await-vs-then-ordering
const log = []
async function f() {
  log.push("f start")
  await null
  log.push("f after await 1")
  await null
  log.push("f after await 2")
}
f()
Promise.resolve().then(() => log.push("then 1")).then(() => log.push("then 2")).then(() => log.push("then 3"))
log.push("sync end")
for (let i = 0; i < 10; i++) await null
return log

// === await-promise-one-tick
const log = []
async function f() {
  await Promise.resolve()
  log.push("after await resolved promise")
}
f()
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3"))
for (let i = 0; i < 10; i++) await null
return log

// === await-thenable-takes-extra-ticks
const log = []
async function f() {
  await { then(r) { r() } }
  log.push("after thenable")
}
f()
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3"))
for (let i = 0; i < 10; i++) await null
return log

// === async-return-promise-extra-ticks
const log = []
async function returnsPromise() { return Promise.resolve("v") }
async function returnsValue() { return "v" }
returnsPromise().then(() => log.push("returnsPromise settled"))
returnsValue().then(() => log.push("returnsValue settled"))
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3")).then(() => log.push("t4"))
for (let i = 0; i < 10; i++) await null
return log

// === return-await-vs-return-promise
const log = []
async function viaAwait() { return await Promise.resolve("a") }
async function direct() { return Promise.resolve("d") }
direct().then(() => log.push("direct"))
viaAwait().then(() => log.push("viaAwait"))
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3")).then(() => log.push("t4"))
for (let i = 0; i < 10; i++) await null
return log

// === promise-resolve-with-promise-ticks
const log = []
const p = Promise.resolve("inner")
new Promise((resolve) => resolve(p)).then(() => log.push("resolved with promise"))
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3"))
for (let i = 0; i < 10; i++) await null
return log

// === promise-resolve-identity-no-extra-tick
const log = []
const p = Promise.resolve(1)
const q = Promise.resolve(p)
q.then(() => log.push("q"))
Promise.resolve().then(() => log.push("t1"))
await null
await null
return [p === q, log]

// === then-callback-returning-promise
const log = []
Promise.resolve()
  .then(() => {
    log.push("a1")
    return Promise.resolve("x")
  })
  .then(() => log.push("a2"))
Promise.resolve()
  .then(() => log.push("b1"))
  .then(() => log.push("b2"))
  .then(() => log.push("b3"))
  .then(() => log.push("b4"))
  .then(() => log.push("b5"))
for (let i = 0; i < 12; i++) await null
return log

// === then-callback-returning-thenable
const log = []
Promise.resolve()
  .then(() => ({ then(r) { log.push("thenable.then called"); r("x") } }))
  .then(() => log.push("a2"))
Promise.resolve()
  .then(() => log.push("b1"))
  .then(() => log.push("b2"))
  .then(() => log.push("b3"))
for (let i = 0; i < 12; i++) await null
return log

// === catch-and-finally-ordering
const log = []
Promise.reject(new Error("e"))
  .catch(() => log.push("catch"))
  .finally(() => log.push("finally"))
  .then(() => log.push("then after finally"))
Promise.resolve().then(() => log.push("x1")).then(() => log.push("x2")).then(() => log.push("x3")).then(() => log.push("x4"))
for (let i = 0; i < 12; i++) await null
return log

// === rejection-skips-then-handlers
const log = []
Promise.reject(new Error("r"))
  .then(() => log.push("skipped 1"))
  .then(() => log.push("skipped 2"))
  .catch((e) => log.push("caught " + e.message))
Promise.resolve().then(() => log.push("o1")).then(() => log.push("o2")).then(() => log.push("o3"))
for (let i = 0; i < 10; i++) await null
return log

// === multiple-then-on-same-promise
const log = []
const p = Promise.resolve("v")
p.then(() => log.push(1))
p.then(() => log.push(2))
p.then(() => log.push(3))
await null
return log

// === executor-runs-synchronously
const log = []
new Promise((resolve) => {
  log.push("executor")
  resolve()
}).then(() => log.push("then"))
log.push("after constructor")
await null
return log

// === nested-then-registration
const log = []
Promise.resolve().then(() => {
  log.push("outer")
  Promise.resolve().then(() => log.push("inner"))
}).then(() => log.push("outer next"))
for (let i = 0; i < 5; i++) await null
return log

// === async-functions-interleave
const log = []
async function a() {
  log.push("a0")
  await null
  log.push("a1")
  await null
  log.push("a2")
}
async function b() {
  log.push("b0")
  await null
  log.push("b1")
  await null
  log.push("b2")
}
a()
b()
log.push("sync")
for (let i = 0; i < 5; i++) await null
return log

// === awaiting-async-function-ticks
const log = []
async function inner() {
  log.push("inner")
}
async function outer() {
  await inner()
  log.push("outer after inner")
}
outer()
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3"))
for (let i = 0; i < 10; i++) await null
return log

// === promise-all-ordering
const log = []
Promise.all([1, Promise.resolve(2)]).then((v) => log.push("all " + v.join(",")))
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3"))
for (let i = 0; i < 10; i++) await null
return log

// === promise-race-ordering
const log = []
Promise.race([Promise.resolve("a"), Promise.resolve("b")]).then((v) => log.push("race " + v))
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2"))
for (let i = 0; i < 10; i++) await null
return log

// === for-await-ordering-vs-then
const log = []
async function consume() {
  for await (const v of [1, 2]) log.push("got " + v)
  log.push("loop done")
}
consume()
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3")).then(() => log.push("t4")).then(() => log.push("t5"))
for (let i = 0; i < 15; i++) await null
return log

// === async-generator-ordering
const log = []
async function* gen() {
  log.push("gen start")
  yield 1
  log.push("gen resumed")
  yield 2
}
const it = gen()
it.next().then((r) => log.push("next1 " + r.value))
it.next().then((r) => log.push("next2 " + r.value))
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3"))
log.push("sync")
for (let i = 0; i < 15; i++) await null
return log

// === finally-passes-through-value-ticks
const log = []
Promise.resolve("v").finally(() => log.push("finally")).then((v) => log.push("then " + v))
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3")).then(() => log.push("t4"))
for (let i = 0; i < 10; i++) await null
return log

// === await-in-try-finally-ordering
const log = []
async function f() {
  try {
    log.push("try")
    await null
    log.push("try after await")
  } finally {
    log.push("finally")
    await null
    log.push("finally after await")
  }
}
f().then(() => log.push("f settled"))
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3"))
for (let i = 0; i < 10; i++) await null
return log

// === resolve-functions-called-later
const log = []
let resolveIt
const p = new Promise((r) => { resolveIt = r })
p.then((v) => log.push("p " + v))
Promise.resolve().then(() => {
  log.push("resolving")
  resolveIt("now")
}).then(() => log.push("after resolving"))
for (let i = 0; i < 5; i++) await null
return log

// === then-on-already-rejected-and-resolved
const log = []
const ok = Promise.resolve("ok")
const bad = Promise.reject("bad")
bad.catch((e) => log.push("catch " + e))
ok.then((v) => log.push("then " + v))
bad.then(null, (e) => log.push("then-reject " + e))
await null
await null
return log

// === top-level-await-yields-to-queued-jobs
const log = []
Promise.resolve().then(() => log.push("job queued before await"))
log.push("before await")
await null
log.push("after await")
return log

// === microtask-recursion-depth
const log = []
let n = 0
const step = () => {
  if (n < 5) {
    log.push("step " + n++)
    Promise.resolve().then(step)
  }
}
step()
Promise.resolve().then(() => log.push("other 1")).then(() => log.push("other 2"))
for (let i = 0; i < 10; i++) await null
return log

// === await-rejected-promise-ticks
const log = []
async function f() {
  try {
    await Promise.reject(new Error("x"))
  } catch {
    log.push("caught")
  }
}
f()
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2"))
for (let i = 0; i < 5; i++) await null
return log

// === async-arrow-in-map-ordering
const log = []
const results = [1, 2, 3].map(async (x) => {
  log.push("start " + x)
  await null
  log.push("end " + x)
  return x * 2
})
log.push("mapped")
const values = await Promise.all(results)
return [values, log]
