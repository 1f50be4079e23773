// throw and try/catch/finally: completion values, return overriding, finally ordering, rethrow, errors raised by
// the language itself (TypeError, ReferenceError, RangeError on runaway recursion), errors from accessors.

// === throw-and-catch-error
try {
  throw new Error("boom")
} catch (e) {
  return [e.name, e.message, e instanceof Error]
}

// === throw-primitive-values
const out = []
for (const v of [1, "s", null, undefined, false]) {
  try {
    throw v
  } catch (e) {
    out.push(String(e))
  }
}
return out

// === uncaught-error
throw new TypeError("bad type")

// === uncaught-primitive
throw "just a string"

// === uncaught-number
throw 42

// === uncaught-plain-object
throw { code: 1 }

// === uncaught-custom-error-subclass
class ValidationError extends Error {
  constructor(msg) {
    super(msg)
    this.name = "ValidationError"
  }
}
throw new ValidationError("nope")

// === finally-runs-after-try
const log = []
try {
  log.push("try")
} finally {
  log.push("finally")
}
return log

// === finally-runs-after-catch
const log = []
try {
  log.push("try")
  throw new Error("x")
} catch (e) {
  log.push("catch")
} finally {
  log.push("finally")
}
return log

// === finally-return-overrides-return
function f() {
  try {
    return "try"
  } finally {
    return "finally"
  }
}
return f()

// === finally-return-overrides-throw
function f() {
  try {
    throw new Error("lost")
  } finally {
    return "finally wins"
  }
}
return f()

// === finally-throw-overrides-return
function f() {
  try {
    return "try"
  } finally {
    throw new RangeError("from finally")
  }
}
try {
  return f()
} catch (e) {
  return e.name
}

// === finally-sees-return-value-evaluated
function f() {
  let x = 1
  try {
    return x
  } finally {
    x = 2
  }
}
return f()

// === finally-order-with-nested
const log = []
function f() {
  try {
    try {
      log.push("inner try")
      return "r"
    } finally {
      log.push("inner finally")
    }
  } finally {
    log.push("outer finally")
  }
}
const r = f()
return [r, log]

// === finally-with-break-and-continue
const log = []
for (let i = 0; i < 3; i++) {
  try {
    if (i === 0) continue
    if (i === 2) break
    log.push("body" + i)
  } finally {
    log.push("finally" + i)
  }
}
return log

// === finally-break-overrides-throw
const log = []
for (;;) {
  try {
    throw new Error("swallowed")
  } finally {
    log.push("finally")
    break
  }
}
return log

// === rethrow
function f() {
  try {
    throw new TypeError("inner")
  } catch (e) {
    throw e
  }
}
try {
  f()
} catch (e) {
  return [e.name, e.message]
}

// === catch-param-is-block-scoped
let e = "outer"
let inner
try {
  throw "thrown"
} catch (e) {
  inner = e
  e = "reassigned"
}
return [e, inner]

// === nested-try-catch-inner-rethrows-different
try {
  try {
    throw new Error("first")
  } catch (e) {
    throw new TypeError("second: " + e.message)
  }
} catch (e) {
  return [e.name, e.message]
}

// === type-error-call-undefined
const o = {}
try {
  o.missing()
} catch (e) {
  return e.name
}

// === type-error-call-non-function
const values = [1, "s", {}, null, []]
return values.map((v) => {
  try {
    v()
    return "called"
  } catch (e) {
    return e.name
  }
})

// === type-error-new-non-constructor
const arrow = () => {}
const method = { m() {} }.m
const out = []
for (const f of [arrow, method, Math.max, 5]) {
  try {
    new f()
    out.push("constructed")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === reference-error-undeclared
try {
  undeclaredVariable + 1
} catch (e) {
  return [e.name, e instanceof ReferenceError]
}

// === range-error-deep-recursion
function f() { return f() }
f()

// === range-error-recursion-catchable
function f(n) { return f(n + 1) + 1 }
try {
  f(0)
} catch (e) {
  return [e.name, e instanceof RangeError]
}

// === recursion-still-works-after-overflow
function f() { return f() }
try { f() } catch {}
function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) }
return fib(15)

// === mutual-recursion-overflow
const a = (n) => b(n + 1)
const b = (n) => a(n + 1)
try {
  a(0)
  return "no error"
} catch (e) {
  return e.name
}

// === range-error-builtin-arguments
const out = []
for (const f of [() => new Array(-1), () => (1).toFixed(200), () => "x".repeat(-1)]) {
  try {
    f()
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === getter-throws
const o = {
  get bad() { throw new RangeError("getter") },
}
try {
  return o.bad
} catch (e) {
  return e.name
}

// === setter-throws
const o = {
  set bad(v) { throw new TypeError("setter " + v) },
}
try {
  o.bad = 1
  return "no error"
} catch (e) {
  return [e.name, e.message]
}

// === tostring-throws-during-concat
const o = { toString() { throw new SyntaxError("custom syntax error object") } }
try {
  return "" + o
} catch (e) {
  return e.name
}

// === error-properties
const e = new Error("msg", { cause: "why" })
const t = new TypeError("t")
return [e.message, e.name, e.cause, t.name, String(t), Object.prototype.toString.call(e), Object.keys(e)]

// === error-constructor-without-new
const e = Error("no new")
const r = RangeError("r")
return [e instanceof Error, e.message, r instanceof RangeError, r.name]

// === error-name-override-in-string
const e = new Error("m")
e.name = "Custom"
return [String(e), e.toString()]

// === error-message-coerced
return [new Error(42).message, new Error(undefined).message, "message" in new Error(), Object.hasOwn(new Error(), "message")]

// === throw-in-catch-finally-still-runs
const log = []
try {
  try {
    throw new Error("a")
  } catch (e) {
    log.push("catch")
    throw new Error("b")
  } finally {
    log.push("finally")
  }
} catch (e) {
  log.push("outer " + e.message)
}
return log

// === try-catch-in-loop-continues
const out = []
for (const v of [1, 0, 2]) {
  try {
    if (v === 0) throw new Error("zero")
    out.push(10 / v)
  } catch (e) {
    out.push(e.message)
  }
}
return out

// === aggregate-error
const e = new AggregateError([new Error("a"), new TypeError("b")], "many")
return [e.name, e.message, e.errors.length, e.errors[1].name]

// === error-instanceof-hierarchy
const errs = [new TypeError(), new RangeError(), new SyntaxError(), new ReferenceError(), new EvalError(), new URIError()]
return errs.map((e) => [e.name, e instanceof Error, Object.getPrototypeOf(Object.getPrototypeOf(e)) === Error.prototype])

// === thrown-error-from-nested-function-unwinds
const log = []
function a() { log.push("a"); b(); log.push("a after") }
function b() { log.push("b"); throw new Error("x") }
try { a() } catch (e) { log.push("caught") }
return log

// === uncaught-error-after-await
await null
throw new RangeError("late")

// === finally-return-in-generator-style-loop
function f() {
  for (let i = 0; i < 5; i++) {
    try {
      if (i === 2) return i
    } finally {
      if (i === 2) continue
    }
  }
  return "loop ended"
}
return f()

// === json-parse-syntax-error-runtime
try {
  JSON.parse("{bad json}")
} catch (e) {
  return e.name
}
