// Relational and equality operators: strict and loose equality (with every coercion path), comparisons of
// strings, numbers and mixed values, NaN and signed zero.

// === strict-equality
return [1 === 1, 1 === "1", null === undefined, NaN === NaN, 0 === -0, "a" === "a", {} === {}]

// === strict-equality-objects
const a = {}
const b = a
return [a === b, [] === [], a !== {}, b !== a]

// === loose-null-undefined
return [null == undefined, null == 0, undefined == 0, null == false, undefined == "", null == null]

// === loose-number-string
return [1 == "1", 0 == "", 0 == "0", "" == "0", 10 == "1e1", 255 == "0xff", 1 == " 1 ", NaN == "NaN"]

// === loose-boolean
return [true == 1, true == "1", false == "0", false == "", true == "true", false == [], true == [1], 2 == true]

// === loose-object-primitive
return [[1] == 1, [1, 2] == "1,2", [] == "", ({}) == "[object Object]", [0] == false, [[]] == 0, [null] == ""]

// === loose-object-toprimitive-calls
const log = []
const o = { valueOf() { log.push("valueOf"); return 5 }, toString() { log.push("toString"); return "x" } }
return [o == 5, o == "5", o == "x", log]

// === loose-object-object-identity
const a = [1]
return [a == a, [1] == [1], a != [1]]

// === loose-symbol
const s = Symbol("s")
return [s == s, s == Symbol("s"), Object(s) == s, s != "s"]

// === not-equal-variants
return [1 != "1", 1 !== "1", null != undefined, null !== undefined, NaN != NaN]

// === nan-and-zero
return [NaN < 1, NaN > 1, NaN <= NaN, NaN >= NaN, 0 < -0, 0 <= -0, -0 >= 0, Object.is(NaN, NaN), Object.is(0, -0)]

// === relational-numbers
return [1 < 2, 2 < 1, 2 <= 2, 3 >= 4, -Infinity < -1e308, Infinity > 1e308]

// === relational-strings-code-units
return ["a" < "b", "B" < "a", "abc" < "abd", "ab" < "abc", "" < "a", "10" < "9", "Z" < "a", "é" > "z"]

// === relational-mixed
return ["10" < 9, "10" < "9", 10 < "9", "abc" < 1, "abc" > 1, null < 1, null >= 0, undefined < 1, undefined >= 0, [2] > 1, true > false]

// === relational-coercion-order
const log = []
const a = { valueOf() { log.push("a"); return 1 } }
const b = { valueOf() { log.push("b"); return 2 } }
return [a < b, a > b, b <= a, a >= b, log]

// === relational-tostring-hint
const o = { toString() { return "b" }, valueOf() { return {} } }
return [o > "a", o < "c", o + ""]

// === relational-symbol-throws
try {
  return Symbol() < 1
} catch (e) {
  return e.name
}

// === equality-with-functions
const f = () => 1
const g = f
return [f === g, f == g, (() => 1) === (() => 1), typeof f == "function"]

// === comparison-chain-pitfall
return [1 < 2 < 3, 3 > 2 > 1, 3 > 2 >= 1]

// === loose-equality-table
const values = [0, "", "0", null, undefined, false, [], NaN]
return values.map((a) => values.map((b) => (a == b ? 1 : 0)).join(""))

// === strict-equality-table
const values = [0, -0, "", null, undefined, false, NaN]
return values.map((a) => values.map((b) => (a === b ? 1 : 0)).join(""))

// === sort-with-comparison
return [3, 1, 10, 2].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

// === default-sort-is-string-order
return [3, 1, 10, 2, 21].sort()

// === bigint-number-comparison
return [1n == 1, 1n === 1, 2n > 1, 1n < 1.5, 10n == "10", 0n == false, 1n < "2"]

// === object-is-vs-equality
const pairs = [[NaN, NaN], [0, -0], [1, 1], ["a", "a"], [null, undefined]]
return pairs.map(([a, b]) => [a === b, Object.is(a, b)])

// === includes-vs-indexof-nan
const a = [NaN, 0]
return [a.includes(NaN), a.indexOf(NaN), a.includes(-0), a.indexOf(-0)]
