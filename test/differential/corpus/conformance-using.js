// Explicit resource management: `using` and `await using` declarations in blocks, function bodies, the program
// body and for-of heads, disposal in reverse order however the scope is left, SuppressedError, DisposableStack,
// AsyncDisposableStack, and the iterators' Symbol.dispose / Symbol.asyncDispose.

// === block-disposal
const log = []
{ using x = { [Symbol.dispose]() { log.push("d") } }; log.push("body") }
return log

// === program-body-disposal
const log = []
using a = { [Symbol.dispose]() { log.push("a") } }
log.push("body")
// Disposal runs after the returned value is evaluated.
return [...log]

// === reverse-order-and-nullish
const log = []
const r = (n) => ({ [Symbol.dispose]() { log.push(n) } })
{ using a = r("a"), b = null, c = r("c"); using d = undefined; using e = r("e") }
return log

// === for-of-each-iteration
const log = []
for (using x of [{ [Symbol.dispose]() { log.push("d1") } }, { [Symbol.dispose]() { log.push("d2") } }]) log.push("b")
return log

// === for-of-break-continue-close
const log = []
const r = (n) => ({ n, [Symbol.dispose]() { log.push("d" + n) } })
const it = { *[Symbol.iterator]() { try { yield r(1); yield r(2); yield r(3) } finally { log.push("close") } } }
for (using x of it) { if (x.n === 1) continue; log.push("b" + x.n); if (x.n === 2) break }
return log

// === suppressed-errors-chain
const log = []
try {
  using a = { [Symbol.dispose]() { throw new Error("a") } }
  using b = { [Symbol.dispose]() { throw new Error("b") } }
  throw new Error("body")
} catch (e) { log.push(e.name, e.error.message, e.suppressed.name, e.suppressed.error.message, e.suppressed.suppressed.message) }
return log

// === disposal-error-replaces-return
function f() { using a = { [Symbol.dispose]() { throw new Error("d") } }; return 1 }
try { f() } catch (e) { return e.message }

// === return-value-survives-disposal
function f() { const log = []; { using a = { [Symbol.dispose]() { log.push("d") } }; return log } }
return f()

// === type-errors
const r = []
try { using a = 5 } catch (e) { r.push(e.name) }
try { using a = {} } catch (e) { r.push(e.name) }
try { using a = null; a = 1 } catch (e) { r.push(e.name) }
return r

// === await-using-ticks
const log = []
async function f() {
  await using a = { async [Symbol.asyncDispose]() { log.push("ad1"); await null; log.push("ad2") } }
  using b = { [Symbol.dispose]() { log.push("b") } }
  log.push("body")
}
const p = f()
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2")).then(() => log.push("t3"))
await p
log.push("after")
await null
await null
return log

// === await-using-null-awaits-once
const log = []
const p = (async () => {
  { await using x = null; log.push("body") }
  log.push("after")
})()
Promise.resolve().then(() => log.push("t1")).then(() => log.push("t2"))
await p
return [...log]

// === await-using-sync-dispose-not-awaited
const log = []
{
  await using a = { [Symbol.dispose]() { log.push("sync"); return Promise.reject(new Error("ignored")) } }
}
return log

// === await-using-rejection-thrown
const log = []
try {
  await using a = { [Symbol.asyncDispose]() { return Promise.reject(new Error("rej")) } }
  log.push("body")
} catch (e) { log.push(e.message) }
return log

// === for-await-using
const log = []
async function* g() { yield { [Symbol.asyncDispose]() { log.push("ad"); return Promise.resolve() } }; yield null }
for await (await using x of g()) log.push("b")
return log

// === disposable-stack
const log = []
const s = new DisposableStack()
s.use({ [Symbol.dispose]() { log.push("use") } })
s.adopt(1, (v) => log.push("adopt" + v))
s.defer(() => log.push("defer"))
const moved = s.move()
log.push(s.disposed, moved.disposed)
moved.dispose()
moved.dispose()
log.push(moved.disposed)
try { moved.use(null) } catch (e) { log.push(e.name) }
return log

// === disposable-stack-errors
const s = new DisposableStack()
s.defer(() => { throw new Error("1") })
s.defer(() => { throw new Error("2") })
const r = []
try { s.dispose() } catch (e) { r.push(e.name, e.error.message, e.suppressed.message) }
try { new DisposableStack().defer(1) } catch (e) { r.push(e.name) }
try { DisposableStack() } catch (e) { r.push(e.name) }
try { DisposableStack.prototype.dispose.call({}) } catch (e) { r.push(e.name) }
return r

// === async-disposable-stack
const log = []
const s = new AsyncDisposableStack()
s.use({ async [Symbol.asyncDispose]() { log.push("a1") } })
s.use({ [Symbol.dispose]() { log.push("s1") } })
s.defer(async () => { log.push("d1") })
const p = s.disposeAsync()
log.push("sync")
await p
log.push(s.disposed, String(await s.disposeAsync()))
const bad = await AsyncDisposableStack.prototype.disposeAsync.call({}).catch((e) => e.name)
return [log, bad]

// === iterator-dispose-methods
const log = []
const gen = (function* () { try { yield 1 } finally { log.push("fin") } })()
gen.next()
gen[Symbol.dispose]()
const agen = (async function* () { try { yield 1 } finally { log.push("afin") } })()
await agen.next()
const r = await agen[Symbol.asyncDispose]()
return [log, r === undefined, typeof [].values()[Symbol.dispose]]

// === suppressed-error-constructor
const e = new SuppressedError(1, 2, "m")
return [e.name, e.message, e.error, e.suppressed, Object.keys(e), Object.getOwnPropertyNames(e), SuppressedError.length, Object.getPrototypeOf(SuppressedError) === Error, e instanceof Error, String(new SuppressedError())]

// === generator-return-disposes
const log = []
function* g() { using x = { [Symbol.dispose]() { log.push("d") } }; yield 1; yield 2 }
const it = g()
it.next()
it.return(5)
return log

// === scopes-with-using
const log = []
const r = (n) => ({ [Symbol.dispose]() { log.push(n) } })
switch (1) { case 1: { using x = r("switch") } }
try { throw 1 } catch { using x = r("catch"); log.push("c") }
class C { static { using x = r("static"); log.push("s") } }
return log

// === dispose-method-read-once-at-declaration
const log = []
const o = { get [Symbol.dispose]() { log.push("get"); return () => log.push("call") } }
{ log.push("before"); using x = o; log.push("after") }
return log

// === using-as-identifier
let using = 5
using += 1
const o = { using: 2 }
return [using, o.using]

// === well-known-symbols
return [typeof Symbol.dispose, typeof Symbol.asyncDispose, Symbol.dispose.description, Symbol.asyncDispose.toString(), Object.prototype.toString.call(new DisposableStack())]
