// Generators: next/return/throw, values passed into yield, yield* delegation (to generators and iterables,
// forwarding return/throw), finally blocks on early exit, the iterator protocol, and generator methods.

// === generator-basic
function* g() {
  yield 1
  yield 2
  return 3
}
const show = (r) => [r.value === undefined ? "undefined" : r.value, r.done]
const it = g()
return [it.next(), it.next(), it.next(), it.next()].map(show)

// === generator-lazy-start
const log = []
function* g() {
  log.push("started")
  yield 1
}
const it = g()
log.push("created")
it.next()
return log

// === generator-next-arguments
function* g() {
  const a = yield "first"
  const b = yield a + 1
  return [a, b]
}
const it = g()
return [it.next("ignored").value, it.next(10).value, it.next(20).value]

// === generator-spread-and-for-of
function* range(a, b) { for (let i = a; i < b; i++) yield i }
const out = []
for (const x of range(0, 3)) out.push(x)
return [out, [...range(5, 8)], Array.from(range(1, 3))]

// === generator-return-method
function* g() {
  yield 1
  yield 2
}
const show = (r) => [r.value === undefined ? "undefined" : r.value, r.done]
const it = g()
return [it.next(), it.return("early"), it.next()].map(show)

// === generator-return-runs-finally
const log = []
function* g() {
  try {
    yield 1
    yield 2
  } finally {
    log.push("cleanup")
  }
}
const it = g()
it.next()
const r = it.return("done")
return [r, log]

// === generator-return-in-finally-overrides
function* g() {
  try {
    yield 1
  } finally {
    return "from finally"
  }
}
const it = g()
const show = (r) => [r.value === undefined ? "undefined" : r.value, r.done]
it.next()
return [it.return("requested"), it.next()].map(show)

// === generator-yield-in-finally-on-return
function* g() {
  try {
    yield 1
  } finally {
    yield "cleanup step"
  }
}
const it = g()
const show = (r) => [r.value === undefined ? "undefined" : r.value, r.done]
it.next()
return [it.return("r"), it.next(), it.next()].map(show)

// === generator-throw-method-caught
function* g() {
  while (true) {
    try {
      yield "waiting"
    } catch (e) {
      yield "caught " + e
    }
  }
}
const it = g()
it.next()
return [it.throw("err1"), it.next(), it.throw("err2")]

// === generator-throw-uncaught-closes
function* g() {
  yield 1
  yield 2
}
const it = g()
it.next()
let caught
try {
  it.throw(new TypeError("x"))
} catch (e) {
  caught = e.name
}
const r = it.next()
return [caught, r.value === undefined, r.done]

// === generator-throw-before-start
function* g() {
  try {
    yield 1
  } catch {
    return "never"
  }
}
const it = g()
try {
  it.throw(new RangeError("early"))
} catch (e) {
  const r = it.next()
  return [e.name, r.value === undefined, r.done]
}

// === generator-running-reentry-throws
let it
function* g() {
  try {
    it.next()
  } catch (e) {
    yield e.name
  }
}
it = g()
return it.next().value

// === yield-star-delegation
function* inner() {
  yield "a"
  yield "b"
  return "inner result"
}
function* outer() {
  const r = yield* inner()
  yield r
}
return [...outer()]

// === yield-star-iterables
function* g() {
  yield* [1, 2]
  yield* "ab"
  yield* new Set([3])
}
return [...g()]

// === yield-star-forwards-next-values
function* inner() {
  const x = yield 1
  return x * 2
}
function* outer() {
  const r = yield* inner()
  yield r
}
const it = outer()
return [it.next().value, it.next(21).value]

// === yield-star-forwards-throw
function* inner() {
  try {
    yield 1
  } catch (e) {
    yield "inner caught " + e
  }
}
function* outer() {
  yield* inner()
  yield "after"
}
const it = outer()
it.next()
return [it.throw("E").value, it.next().value]

// === yield-star-forwards-return
const log = []
function* inner() {
  try {
    yield 1
    yield 2
  } finally {
    log.push("inner finally")
  }
}
function* outer() {
  try {
    yield* inner()
  } finally {
    log.push("outer finally")
  }
}
const it = outer()
it.next()
return [it.return("stop"), log]

// === yield-star-custom-iterator-protocol
const log = []
const iterable = {
  [Symbol.iterator]() {
    let i = 0
    return {
      next(v) {
        log.push("next " + v)
        return { value: i, done: i++ >= 2 }
      },
    }
  },
}
function* g() {
  const r = yield* iterable
  return r
}
const it = g()
return [it.next("a"), it.next("b"), it.next("c"), log]

// === generator-break-in-for-of-calls-return
const log = []
function* g() {
  try {
    yield 1
    yield 2
    yield 3
  } finally {
    log.push("finally")
  }
}
for (const v of g()) {
  log.push(v)
  if (v === 2) break
}
return log

// === generator-exception-in-for-of-calls-return
const log = []
function* g() {
  try {
    yield 1
    yield 2
  } finally {
    log.push("closed")
  }
}
try {
  for (const v of g()) throw new Error("body " + v)
} catch (e) {
  log.push(e.message)
}
return log

// === generator-is-iterator-of-itself
function* g() { yield 1 }
const it = g()
return [it[Symbol.iterator]() === it, typeof it.next, Object.prototype.toString.call(it)]

// === generator-not-constructor
function* g() {}
try {
  new g()
  return "constructed"
} catch (e) {
  return e.name
}

// === generator-methods-in-objects-and-classes
const o = {
  *items() { yield* [1, 2] },
  *[Symbol.iterator]() { yield "iter" },
}
class C {
  static *count(n) { for (let i = 0; i < n; i++) yield i }
}
return [[...o.items()], [...o], [...C.count(3)]]

// === generator-infinite-with-take
function* naturals() {
  let n = 0
  while (true) yield n++
}
const out = []
for (const n of naturals()) {
  if (n >= 5) break
  out.push(n * n)
}
return out

// === generator-fibonacci-destructure
function* fib() {
  let [a, b] = [0, 1]
  while (true) {
    yield a;
    [a, b] = [b, a + b]
  }
}
const [a, b, c, d, e, f, g] = fib()
return [a, b, c, d, e, f, g]

// === generator-this-and-arguments
function* g() {
  yield arguments.length
  yield this.tag
}
const o = { tag: "T", g }
return [...o.g(1, 2, 3)]

// === generator-state-after-completion
function* g() { return "r" }
const show = (r) => [r.value === undefined ? "undefined" : r.value, r.done]
const it = g()
return [it.next(), it.next(), it.return("x"), it.next()].map(show)

// === generator-yield-expression-precedence
function* g() {
  const arr = [yield 1, yield 2]
  yield arr
}
const it = g()
it.next()
it.next("A")
return it.next("B").value

// === generator-yield-inside-try-catch-finally-order
const log = []
function* g() {
  try {
    log.push("try")
    yield 1
    throw new Error("inside")
  } catch (e) {
    log.push("catch " + e.message)
    yield 2
  } finally {
    log.push("finally")
  }
}
const values = [...g()]
return [values, log]

// === generator-return-value-not-in-spread
function* g() {
  yield 1
  return 2
}
return [[...g()], Array.from(g())]

// === iterator-protocol-manual
const iterable = {
  from: 1,
  to: 4,
  [Symbol.iterator]() {
    let cur = this.from
    const last = this.to
    return { next: () => (cur <= last ? { value: cur++, done: false } : { value: undefined, done: true }) }
  },
}
return [...iterable]

// === iterator-next-returns-non-object-throws
const bad = { [Symbol.iterator]() { return { next() { return 1 } } } }
try {
  for (const x of bad) {}
  return "no error"
} catch (e) {
  return e.name
}

// === generator-prototype-chain
function* g() {}
const it = g()
return [Object.getPrototypeOf(it) === g.prototype, typeof g.prototype, it instanceof g]
