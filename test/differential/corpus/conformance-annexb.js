// Annex B of sloppy code: a function declared in a block also gets a var binding in its function, set when the
// declaration is evaluated (B.3.2); `if (x) function f() {}` (B.3.3); labelled function declarations; an
// initializer in a `for (var x = ... in ...)` head (B.3.5). Strict code has none of these.

// === block-function-hoisted
const before = typeof g
{ function g() { return 1 } }
return [before, typeof g, g()]

// === block-function-not-evaluated
if (false) { function h() { return 2 } }
return typeof h

// === if-function-declaration
if (true) function h() { return 2 }
return typeof h

// === if-else-function-declarations
if (false) function h() { return 2 }
else function h() { return 3 }
return h()

// === labelled-function-declarations
l: function f() { return 1 }
{ m: function g() { return 2 } ; var inner = typeof g }
return [typeof f, inner, typeof g]

// === value-at-declaration-evaluation
{ g = 1; function g() {} }
const first = g
{ function k() {} k = 1 }
return [first, typeof k]

// === inside-functions
function outer() { { function inner() { return 5 } } return inner() }
function lazy() { if (true) { function z() { return "z" } } return z() }
const arrow = () => { { function w() { return 1 } } return typeof w }
return [outer(), lazy(), arrow()]

// === closure-sees-var-binding
function f() { const get = () => typeof m; { function m() {} } return get() }
return f()

// === let-in-function-body-blocks-hoisting
let g = 1
{ function g() {} }
return g

// === let-in-enclosing-block-blocks-hoisting
function f() { { let g = 1; { function g() {} } return typeof g } }
return [f(), typeof g]

// === parameter-name-not-hoisted
function f(g) { { function g() {} } return g }
return f(3)

// === switch-case-function
switch (1) { case 1: function s() { return "s" } }
switch (0) { default: function d() { return "d" } }
return [s(), d()]

// === for-let-blocks-hoisting
for (let q of [1]) { function q2() {} }
for (let q = 0; q < 1; q++) { { function q() {} } }
return [typeof q2, typeof q]

// === catch-parameters
try { throw 1 } catch (e) { { function e() {} } }
const simple = typeof e
try { throw [1] } catch ([p]) { { function p() {} } }
return [simple, typeof p]

// === async-and-generator-declarations-stay-in-block
{ async function af() {} function* gf() {} }
return [typeof af, typeof gf]

// === strict-function-no-hoisting
function f() { "use strict"; { function g() {} } return typeof g }
class C { m() { { function g() {} } return typeof g } }
return [f(), new C().m()]

// === existing-var-reassigned
var g = 1
{ function g() { return 2 } }
return typeof g

// === per-iteration-block-functions
const fs = []
for (let i = 0; i < 2; i++) { function k() { return i } fs.push(k) }
return [fs[0](), fs[1](), k()]

// === named-function-expression-own-name
const fe = function fn() { { function fn() { return 2 } } return fn() }
return fe()

// === duplicate-declarations-in-block
{ function d() { return 1 } function d() { return 2 } }
return d()

// === for-in-var-initializer
for (var i = 5 in {}) {}
let log = []
for (var j = (log.push("init"), 1) in (log.push("obj"), { a: 1 })) log.push(j)
for (var fn = function () {} in {}) {}
return [i, log, fn.name]
