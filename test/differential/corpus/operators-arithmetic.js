// Arithmetic operators, unary plus/minus, exponentiation, ++/--, and the number/string coercions they do.

// === add-numbers-strings
return [1 + 2, "1" + 2, 1 + "2", 1 + 2 + "3", "1" + 2 + 3, "" + 0.5]

// === add-string-and-number
const k = "k"
const xs = [-0, NaN, -Infinity, 1e21, 1e-7, 0.1 + 0.2, -1.5, 2 ** 53, 123456789012, 5e-324]
return [xs.map((x) => k + x), k + xs.length, "" + -0]

// === register-operands
// Both operands in registers: one instruction in the VM (BinRegReg), whatever their types.
const ops = [(a, b) => a + b, (a, b) => a - b, (a, b) => a * b, (a, b) => a / b, (a, b) => a % b, (a, b) => a ** b,
  (a, b) => a << b, (a, b) => a >> b, (a, b) => a >>> b, (a, b) => a & b, (a, b) => a | b, (a, b) => a ^ b]
const pairs = [[7, 3], [-7.5, 2], [2 ** 31, 1], [-0, 0], [NaN, 1], [1, "2"], ["8", 2], [5, null], [undefined, 1], [3, true], [{ valueOf: () => 6 }, 4]]
return [ops.map((f) => pairs.map(([a, b]) => f(a, b))), ops.map((f, i) => (i === 8 ? "-" : String(f(5n, 2n)))), [5, 1, 4, 2, 3].sort((a, b) => b - a), [1, 2, 3].reduce((a, b) => a + b)]

// === add-mixed-coercions
return [true + 1, null + 1, [] + [], [1, 2] + [3], {} + "", String(undefined + 1), 1 + true + "x"]

// === subtract-multiply-divide
return [7 - 10, "7" - 2, "3" * "4", 7 / 2, -7 / 2, 0.1 + 0.2, 1e21 + 1]

// === division-by-zero
return [1 / 0 === Infinity, -1 / 0 === -Infinity, Number.isNaN(0 / 0), Object.is(0 / -1, -0)]

// === remainder
return [7 % 3, -7 % 3, 7 % -3, 5.5 % 2, Object.is(-4 % 2, -0), Number.isNaN(5 % 0), 2 % Infinity]

// === exponent
return [2 ** 10, 2 ** -1, (-2) ** 3, 2 ** 3 ** 2, (2 ** 3) ** 2, 4 ** 0.5, Number.isNaN(1 ** NaN)]

// === exponent-assign
let x = 3
x **= 3
return x

// === unary-plus-coercion
return [+"42", +"", +" 12 ", +"0x1f", +true, +null, Number.isNaN(+"abc"), Number.isNaN(+undefined), +[], +[5], Number.isNaN(+[1, 2])]

// === unary-minus
return [-"3", Object.is(-0, 0), Object.is(-0, -0), -(-5), -"-1"]

// === nan-propagation
const r = [NaN + 1, NaN * 0, "a" - 1, undefined * 2]
return r.map(Number.isNaN)

// === prefix-postfix-increment
let i = 5
const a = i++
const b = ++i
const c = i--
const d = --i
return [a, b, c, d, i]

// === increment-coerces-string
let s = "9"
s++
let t = "x"
t++
return [s, typeof s, Number.isNaN(t)]

// === increment-property-and-element
const o = { n: 1 }
const arr = [10, 20]
o.n++
++o.n
arr[1]--
const k = "n"
o[k] += 5
return [o.n, arr]

// === increment-evaluates-reference-once
let calls = 0
const o = { v: 1 }
const get = () => { calls++; return o }
get().v++
get()["v"] += 2
return [o.v, calls]

// === compound-assignment-operators
let a = 10
a += 5
a -= 3
a *= 2
a /= 4
a %= 4
return a

// === compound-assignment-string
let s = "a"
s += 1
s += null
s += [2, 3]
return s

// === valueof-in-arithmetic
const o = { valueOf() { return 40 } }
return [o + 2, o * 2, o - 1, `${o}`, String(o)]

// === tostring-vs-valueof-in-plus
const o = { valueOf() { return 1 }, toString() { return "str" } }
return [o + "", `${o}`, o + 1, [o] + ""]

// === coercion-order-left-to-right
const log = []
const a = { valueOf() { log.push("a"); return 1 } }
const b = { valueOf() { log.push("b"); return 2 } }
return [a + b, a * b, b - a, log]

// === operands-evaluated-before-coercion
const log = []
const mk = (n) => { log.push("eval" + n); return { valueOf() { log.push("coerce" + n); return n } } }
return [mk(1) - mk(2), log]

// === symbol-arithmetic-throws
try {
  return Symbol("s") + 1
} catch (e) {
  return e.name
}

// === symbol-to-string-concat-throws
try {
  return "" + Symbol("s")
} catch (e) {
  return [e.name, String(Symbol("s"))]
}

// === number-precision
return [0.1 * 3, 9007199254740992 + 1, 2 ** 53 === 2 ** 53 + 1, 1 / 3, 123456789 * 987654321]

// === float-formatting
return [String(1e21), String(1e-7), String(123.456), String(-1.5e-10), String(100), (0.000001).toString(), String(2 ** 70)]

// === integer-division-idioms
return [Math.trunc(-7 / 2), Math.floor(-7 / 2), (-7 / 2) | 0, ~~(7.9), 7.9 >> 0]

// === precedence
return [2 + 3 * 4, (2 + 3) * 4, 2 * 3 ** 2, -(2 ** 2), 10 - 4 - 3, 100 / 10 / 5, 1 + 2 * 3 % 4]

// === unary-minus-exponent-grouped
return [(-2) ** 2, -(2 ** 3), 2 ** -2]

// === string-comparison-arith-mix
return ["10" * 1 + 1, "10" + 1 - 1, "3" ** "2", "8" / "2"]

// === number-tostring-radix
return [(255).toString(16), (255).toString(2), (-255).toString(36), (0.5).toString(2)]

// === increment-undefined-is-nan
let u
u++
const o = {}
o.missing++
return [Number.isNaN(u), Number.isNaN(o.missing)]
