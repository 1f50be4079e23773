// Programs on which an engine once failed on its own ("Internal error", a compile-time "codemode bug"), or evaluated
// in another order than V8: found in conformance samples and by the differential fuzzer (test/fuzz), shrunk.

// === generator-param-pattern-over-null-throws-at-call
function* g([x]) {}
try {
  g(null)
  return "no throw"
} catch (e) {
  return e.constructor.name
}

// === async-generator-param-pattern-over-null-throws-at-call
async function* g([x]) {}
try {
  g(null)
  return "no throw"
} catch (e) {
  return e.constructor.name
}

// === generator-method-param-default-throws-at-call
const thrower = () => {
  throw new RangeError("default")
}
class C {
  static *s(a = thrower()) {}
  *m(a = thrower()) {}
}
const o = { *m(a = thrower()) {}, async *n(a = thrower()) {} }
const out = []
for (const f of [() => C.s(), () => new C().m(), () => o.m(), () => o.n()]) {
  try {
    f()
    out.push("no throw")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === generator-param-default-refers-to-later-param
const o = { *g(a = b, b) {} }
try {
  o.g()
  return "no throw"
} catch (e) {
  return e.name
}

// === generator-param-iterator-next-throws
const it = { [Symbol.iterator]: () => ({ next() { throw new SyntaxError("next") } }) }
function* g([x]) {}
try {
  g(it)
  return "no throw"
} catch (e) {
  return e.name
}

// === generator-return-during-property-assignment-in-try-finally
const o = {}
function* g() {
  try {
    o.p = yield 1
  } finally {
    o.f = "ran"
  }
}
const it = g()
it.next()
return [it.return(5), o]

// === generator-return-during-keyed-and-compound-assignment
const o = { p: 1 }
const log = []
function* g() {
  try {
    o[yield "key"] = yield "value"
  } finally {
    log.push("f1")
  }
}
function* h() {
  try {
    o.p += 3 + (yield 1)
  } finally {
    log.push("f2")
  }
}
const a = g()
a.next()
const b = h()
b.next()
return [a.return(1), b.return(2), o, log]

// === generator-return-during-yield-star-in-call-args
const log = []
function* inner() {
  yield 1
}
function* g() {
  try {
    log.push(String(3 + (yield* inner())))
  } finally {
    log.push("finally")
  }
}
const it = g()
it.next()
return [it.return(7), log]

// === async-generator-return-during-array-literal-in-try-finally
const o = {}
async function* g() {
  try {
    o.p = [1, 2, yield 1]
  } finally {
    o.f = 1
  }
}
const it = g()
await it.next()
return [await it.return(5), o]

// === nullish-base-throws-before-key-tostring
const log = []
const key = {
  toString() {
    log.push("key")
    return "k"
  },
}
let u
const n = null
const attempts = [
  () => n[key],
  () => u[key]++,
  () => --n[key],
  () => (u[key] += 1),
  () => (n[key] ??= 1),
  () => (n[key] = log.push("rhs")),
  () => n[key](),
]
for (const f of attempts) {
  try {
    f()
  } catch (e) {
    log.push(e.name)
  }
}
return log

// === keyed-assignment-converts-key-after-rhs-and-at-each-use
const log = []
const key = {
  toString() {
    log.push("key")
    return "k"
  },
}
const o = {
  get k() {
    log.push("get")
    return 1
  },
  set k(v) {
    log.push("set")
  },
}
o[key] = log.push("rhs")
o[key] += 1
o[key]++
return log

// === keyed-destructuring-target-before-source-getter
const log = []
const src = {
  get a() {
    log.push("get a")
    return 1
  },
}
const t = {}
const k = {
  toString() {
    log.push("key")
    return "p"
  },
}
;({ a: (log.push("target"), t)[(log.push("key expr"), k)] } = src)
return [log, t]

// === keyed-array-destructuring-target-before-next
const log = []
const t = {}
const k = {
  toString() {
    log.push("key")
    return "p"
  },
}
const it = {
  [Symbol.iterator]() {
    return {
      next() {
        log.push("next")
        return { done: false, value: 1 }
      },
      return() {
        log.push("return")
        return {}
      },
    }
  },
}
;[(log.push("target"), t)[(log.push("key expr"), k)]] = it
return [log, t]

// === super-keyed-assignment-converts-key-after-rhs
const log = []
const key = {
  toString() {
    log.push("key")
    return "k"
  },
}
class A {
  get k() {
    log.push("get")
    return 1
  }
  set k(v) {
    log.push("set")
  }
}
class B extends A {
  m() {
    super[key] = log.push("rhs")
    super[key] += 1
  }
}
new B().m()
return log

// === generator-params-bound-across-a-save-point
// In round-trip mode the run is saved while a parameter initializer runs, before the generator object exists.
function* g(a = (() => { let s = 0; for (let i = 0; i < 50; i++) s += i; return s })(), b = [1, 2, 3].map((x) => x * a)) {
  yield a
  yield b
}
const out = []
for (const v of g()) out.push(v)
async function* h(a = [1, 2, 3].reduce((x, y) => x + y)) {
  yield a
}
for await (const v of h()) out.push(v)
return out

// === not-an-entry-message-shows-primitives-unquoted
const out = []
for (const v of ["a", 1, 1n, null, Symbol("q"), true]) {
  for (const make of [(x) => new Map([x]), (x) => Object.fromEntries([x]), (x) => new WeakMap([x])]) {
    try {
      make(v)
    } catch (e) {
      out.push(e.message)
    }
  }
}
return out

// === async-generator-bare-return-does-not-await
// `return;` in an async generator completes at once (its finally blocks and disposals run before the caller goes
// on); `return x` awaits x first.
const log = []
async function* bare() {
  await using t = { async [Symbol.asyncDispose]() { log.push("dispose") } }
  return
}
bare().next()
log.push("after bare")
async function* bareFinally() {
  try {
    return
  } finally {
    log.push("finally bare")
  }
}
bareFinally().next()
log.push("after bareFinally")
async function* valued() {
  try {
    return 5
  } finally {
    log.push("finally valued")
  }
}
valued().next()
log.push("after valued")
await null
return log

// === await-using-block-after-a-destructuring-for-of-in-a-loop
// The VM's finally register for the disposal held the for-of's iterator record from the previous iteration; in
// round-trip mode the run was saved with it inside the dispose capability ("expected a sandbox value").
const log = []
for (let i = 0; i < 3; i++) {
  {
    await using r = { async [Symbol.asyncDispose]() { log.push("dispose " + i) } }
    log.push("body " + i)
  }
  for (const [t] of [[i]]) log.push("of " + t)
}
return log

// === strict-write-to-a-string-index-or-length-is-read-only
class C {
  static run() {
    const out = []
    const writes = [
      () => { "x y"[0] = 1 },
      () => { "x y"[5] = 1 },
      () => { "x y".length = 1 },
      () => { (1).x = 2 },
      () => { const s = "ab"; s[1] += "c" },
    ]
    for (const f of writes) {
      try {
        f()
      } catch (e) {
        out.push(e.message)
      }
    }
    return out
  }
}
return C.run()

// === not-iterable-spread-argument-messages
// V8 has its own message for a call's only spread when it is the last argument; otherwise GetIterator's, which
// describes the value by its type, or names the callee of a call.
function f() {}
const out = []
const calls = [() => f(...0), () => f(1, ...0), () => f(...0, 1), () => f(...[1], ...2), () => new f(...0, 1), () => f(...Symbol(), 1), () => f(..."ab", ...3n)]
for (const g of calls) {
  try {
    g()
  } catch (e) {
    out.push(e.message)
  }
}
return out

// === array-length-negative-zero
// new Array(-0) has length +0 (ToUint32), and so has an array whose length is set to -0.
const a = new Array(-0)
const b = [1, 2]
b.length = -0
const c = Array(-0)
return [Object.is(a.length, 0), Object.is(b.length, 0), Object.is(c.length, 0), Object.is(Array.prototype.concat.call([], new Array(-0)).length, 0)]

// === builtin-not-iterable-messages
// Built-ins that take an iterable (Map, Set, WeakMap, WeakSet, Object.fromEntries, Promise.all) use V8's message
// naming the value's type, not the value's text.
const out = []
const tries = [() => new Map({ a: 1 }), () => new Set(5), () => new WeakMap({}), () => new WeakSet(true), () => new Set(Symbol()), () => new Map(5n), () => Object.fromEntries(5), () => new Set(function f() {})]
for (const g of tries) {
  try {
    g()
  } catch (e) {
    out.push(e.constructor.name + ": " + e.message)
  }
}
out.push(await Promise.all(5).catch((e) => e.message))
return out
