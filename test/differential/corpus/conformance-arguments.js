// The arguments object: mapped for sloppy functions with simple parameter lists (parameters and indices alias
// each other until an index is deleted or redefined), unmapped for strict functions and non-simple parameter
// lists; `var arguments`, parameters and functions named `arguments`.

// === mapped-alias-both-ways
function f(a, b) { arguments[0] = 9; b = 7; return [a, arguments[1], arguments.length] }
return f(1, 2)

// === mapped-only-passed-arguments
function f(a, b) { b = 5; arguments[1] = 6; return [b, arguments[1], arguments.length, 1 in arguments] }
return f(1)

// === mapped-delete-unmaps
function f(a) { delete arguments[0]; arguments[0] = 3; a = 4; return [a, arguments[0]] }
return f(1)

// === mapped-define-nonwritable-unmaps
function f(a) {
  Object.defineProperty(arguments, "0", { value: 3, writable: false })
  a = 4
  return [a, arguments[0], Object.getOwnPropertyDescriptor(arguments, "0")]
}
return f(1)

// === mapped-define-nonwritable-keeps-current-value
function f(a) { a = 2; Object.defineProperty(arguments, "0", { writable: false }); a = 4; return [a, arguments[0]] }
return f(1)

// === mapped-define-accessor-unmaps
function f(a) { Object.defineProperty(arguments, "0", { get() { return 7 } }); a = 4; return [a, arguments[0]] }
return f(1)

// === mapped-define-value-writes-parameter
function f(a) { Object.defineProperty(arguments, "0", { value: 5 }); return [a, arguments[0]] }
return f(1)

// === mapped-define-nonenumerable-stays-mapped
function f(a) { Object.defineProperty(arguments, 0, { enumerable: false }); a = 7; return [arguments[0], Object.keys(arguments)] }
return f(1)

// === unmapped-strict
function f(a) { "use strict"; arguments[0] = 9; return [a, arguments[0]] }
return f(1)

// === unmapped-default-parameter
function f(a = 0) { arguments[0] = 9; return a }
return f(1)

// === unmapped-rest-and-pattern
function f(a, ...r) { arguments[0] = 9; return a }
function g({ a }) { arguments[0] = 9; return a }
return [f(1, 2), g({ a: 1 })]

// === mapped-duplicate-parameters
function f(a, a) { arguments[0] = 8; arguments[1] = 9; return [a, arguments[0], arguments[1]] }
return f(1, 2)

// === mapped-through-closures
function f(a) { const g = () => { arguments[0] = "x"; return a }; const r = g(); a = "y"; return [r, arguments[0]] }
function h(a) { const get = () => a; arguments[0] = 6; return get() }
return [f(1), h(1)]

// === mapped-freeze
function f(a) { Object.freeze(arguments); a = 2; return [a, arguments[0], Object.isFrozen(arguments)] }
return f(1)

// === mapped-enumeration
function f(a, b) { a = 10; return [[...arguments], Object.keys(arguments), JSON.stringify(arguments), Object.getOwnPropertyNames(arguments)] }
return f(1, 2)

// === mapped-in-generator-and-async
function* g(a) { yield arguments[0]; a = 2; yield arguments[0]; arguments[0] = 3; yield a }
async function h(a) { await null; arguments[0] = 5; return a }
return [[...g(1)], await h(1)]

// === mapped-in-methods-and-accessors
const o = { m(a) { arguments[0] = 3; return a }, set v(x) { arguments[0] = 9; this._v = x } }
o.v = 1
class C { m(a) { arguments[0] = 2; return a } }
return [o.m(1), o._v, new C().m(1)]

// === mapped-compound-assignment
function f(a) { arguments[0] += 5; a *= 2; return [a, arguments[0]] }
function g(a) { arguments[0]++; return a }
return [f(1), g(1)]

// === mapped-var-redeclaration
function f(a) { var a; arguments[0] = 4; return a }
return f(1)

// === mapped-reflect-set-other-receiver
function f(a) { const o = {}; Reflect.set(arguments, "0", 5, o); return [a, o[0], arguments[0]] }
return f(1)

// === mapped-array-methods
function f(a, b, c) { a = 10; return Array.prototype.map.call(arguments, (x) => x * 2) }
return f(1, 2, 3)

// === mapped-length-and-extensions
function f(a) { arguments.length = 5; Object.preventExtensions(arguments); a = 3; return [arguments.length, arguments[0]] }
return f(1)

// === arguments-names
function p(arguments) { return arguments }
function v(a) { var arguments; return typeof arguments }
function fn(a) { function arguments() {} return typeof arguments }
function l(a) { let arguments = 3; return arguments }
function e(a = 1) { var arguments; return [typeof arguments, arguments.length] }
return [p(3), v(3), fn(1), l(1), e(3, 4)]

// === arguments-in-parameter-expressions
function f(a = 1, b = () => arguments) { var arguments = 5; return [arguments, typeof b()] }
return f(3, 4)

// === arguments-arrow-sees-outer
function f(a) { return ((b) => { arguments[0] = b; return a })(5) }
return f(1)

// === arguments-callee-and-tag
function f(a) { return [arguments.callee === f, Object.prototype.toString.call(arguments)] }
function s() { "use strict"; try { return arguments.callee } catch (e) { return e.name } }
return [f(), s()]
