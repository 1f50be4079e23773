// Bindings: var/let/const declarations, hoisting, the temporal dead zone, block scope and shadowing.
// Programs avoid sloppy-vs-strict differences (no implicit globals, no top-level `this`).

// === var-hoisted-undefined
const before = typeof x
var x = 1
return [before, x]

// === var-hoisted-value-undefined
const seen = x
var x = 5
return seen === undefined

// === var-function-scope
function f() {
  if (true) { var v = 1 }
  return v
}
return f()

// === var-redeclare
var a = 1
var a
var b = a + 1
var a = 3
return [a, b]

// === var-in-loop-shared
var fs = []
for (var i = 0; i < 3; i++) fs.push(() => i)
return fs.map((f) => f())

// === let-per-iteration
const fs = []
for (let i = 0; i < 3; i++) fs.push(() => i)
return fs.map((f) => f())

// === let-per-iteration-mutation
const fs = []
for (let i = 0; i < 6; i++) {
  fs.push(() => i)
  i++
}
return fs.map((f) => f())

// === let-for-in-per-iteration
const fs = []
for (let k in { a: 1, b: 2, c: 3 }) fs.push(() => k)
return fs.map((f) => f())

// === const-for-of-per-iteration
const fs = []
for (const v of [10, 20, 30]) fs.push(() => v * 2)
return fs.map((f) => f())

// === tdz-let-read
try {
  y
  let y = 1
  return "no error"
} catch (e) {
  return e.name
}

// === tdz-uncaught
z = 2
let z = 1
return z

// === tdz-const-typeof
try {
  typeof c
  const c = 1
  return "no error"
} catch (e) {
  return e instanceof ReferenceError
}

// === tdz-in-function-before-init
function read() { return w }
let caught
try { read() } catch (e) { caught = e.name }
let w = 7
return [caught, read()]

// === tdz-self-reference
try {
  let q = q + 1
  return q
} catch (e) {
  return e.name
}

// === tdz-default-param-later
function f(a = b, b = 2) { return a + b }
try {
  return f()
} catch (e) {
  return [e.name, f(1)]
}

// === tdz-shadow-in-block
let v = "outer"
try {
  {
    v
    let v = "inner"
  }
} catch (e) {
  return [v, e.name]
}
return "no error"

// === const-assign-throws
const k = 1
try {
  k = 2
} catch (e) {
  return [k, e.name]
}

// === const-compound-assign-throws
const k = 1
try {
  k += 1
  return "no error"
} catch (e) {
  return [e.name, k]
}

// === const-increment-throws
const n = 1
try {
  n++
} catch (e) {
  return e.name
}
return "no error"

// === const-object-mutable
const o = { a: 1 }
o.a = 2
o.b = 3
return o

// === block-shadowing
let x = 1
{
  let x = 2
  {
    let x = 3
  }
  x += 10
}
return x

// === block-scope-values
const out = []
let x = "a"
{
  let x = "b"
  out.push(x)
}
out.push(x)
return out

// === function-declaration-hoisted
return f()
function f() { return "hoisted" }

// === function-declaration-order
const r = [g(), h()]
function g() { return h() + 1 }
function h() { return 10 }
return r

// === function-expression-not-hoisted
try {
  f()
} catch (e) {
  return [e.name, typeof f]
}
var f = function () { return 1 }

// === named-function-expression-binding
const f = function fact(n) { return n <= 1 ? 1 : n * fact(n - 1) }
return [f(5), typeof fact]

// === named-function-expression-readonly-strict
// Class bodies are strict code, so assigning the function's own name throws there.
class C {
  static run() {
    const f = function g() {
      g = 1
      return typeof g
    }
    try {
      return f()
    } catch (e) {
      return e.name
    }
  }
}
return C.run()

// === closure-captures-binding-not-value
let n = 1
const get = () => n
n = 2
return get()

// === switch-case-scope-shared
let r = []
switch (0) {
  case 0:
    let s = "zero"
    r.push(s)
  case 1:
    s = "one"
    r.push(s)
}
return r

// === switch-case-tdz
try {
  switch (1) {
    case 0:
      let s = "zero"
      break
    case 1:
      s
  }
  return "no error"
} catch (e) {
  return e.name
}

// === catch-param-scope
let e = "outer"
try {
  throw "inner"
} catch (e) {
  e = e + "!"
}
return e

// === undeclared-reference-error
try {
  return notDeclaredAnywhere
} catch (e) {
  return e.name
}

// === typeof-undeclared
return typeof notDeclaredAnywhere

// === for-let-closure-in-body-and-update
const fs = []
for (let i = 0; i < 3; fs.push(() => i), i++) {}
return fs.map((f) => f())

// === var-and-param-same-name
function f(a) {
  var a
  return a
}
return f(4)

// === inner-function-shadows-outer
function outer() {
  return inner()
  function inner() { return "inner-1" }
}
function inner() { return "global" }
return [outer(), inner()]
