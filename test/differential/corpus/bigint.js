// BigInt: literals, arithmetic, division/remainder truncation, bitwise ops, comparisons with numbers, and the
// TypeErrors for mixing with numbers. Results are returned as strings since JSON cannot hold a BigInt.

// === bigint-arithmetic
const a = 12345678901234567890n
const b = 98765432109876543210n
return [a + b, b - a, a * b, b / a, b % a, -a].map(String)

// === bigint-division-truncates
return [7n / 2n, -7n / 2n, 7n / -2n, 7n % 3n, -7n % 3n, 7n % -3n].map(String)

// === bigint-exponent
return [2n ** 100n, (-3n) ** 3n, 10n ** 0n].map(String)

// === bigint-negative-exponent-throws
try {
  return String(2n ** -1n)
} catch (e) {
  return e.name
}

// === bigint-division-by-zero-throws
try {
  return String(1n / 0n)
} catch (e) {
  return e.name
}

// === bigint-remainder-by-zero-throws
try {
  return String(1n % 0n)
} catch (e) {
  return e.name
}

// === bigint-mixing-throws
const results = []
for (const f of [() => 1n + 1, () => 1 * 2n, () => 2n - 1, () => 2n ** 2, () => 1n | 1, () => 1n << 1]) {
  try {
    results.push(String(f()))
  } catch (e) {
    results.push(e.name)
  }
}
return results

// === bigint-unary-plus-throws
try {
  return +1n
} catch (e) {
  return e.name
}

// === bigint-unsigned-shift-throws
try {
  return String(8n >>> 1n)
} catch (e) {
  return e.name
}

// === bigint-bitwise
return [0b1100n & 0b1010n, 0b1100n | 0b1010n, 0b1100n ^ 0b1010n, ~5n, -1n & 0xffn, 1n << 70n, -256n >> 4n].map(String)

// === bigint-string-concat
return [1n + "", "x" + 10n, `${-5n}`, [1n, 2n].join(",")]

// === bigint-comparisons
return [1n < 2, 2n > 1.5, 1n == 1, 1n === 1, 1n == "1", 0n == "", 2n > "1", 10n > 9, -1n < 0]

// === bigint-typeof-and-truthiness
return [typeof 1n, !!0n, !!1n, 0n ? "t" : "f", 0n || "fallback"]

// === bigint-increment
let a = 9n
a++
++a
let b = 0n
b--
a += 10n
return [String(a), String(b)]

// === bigint-function-conversion
return [BigInt(42), BigInt("0x1f"), BigInt(" 123 "), BigInt(true), BigInt.asUintN(8, 257n), BigInt.asIntN(8, 255n)].map(String)

// === bigint-from-non-integer-throws
try {
  return String(BigInt(1.5))
} catch (e) {
  return e.name
}

// === bigint-from-bad-string-throws
try {
  return String(BigInt("1.5"))
} catch (e) {
  return e.name
}

// === bigint-new-throws
try {
  return String(new BigInt(1))
} catch (e) {
  return e.name
}

// === bigint-json-stringify-throws
try {
  return JSON.stringify({ n: 1n })
} catch (e) {
  return e.name
}

// === bigint-as-property-key
const o = {}
o[1n] = "one"
o[10n ** 20n] = "big"
return Object.keys(o)

// === bigint-number-conversion
return [Number(2n ** 64n), Number(-7n), parseInt("123n"), String(BigInt(Number.MAX_SAFE_INTEGER) + 2n)]

// === bigint-equality-zero
return [0n === -0n, Object.is(0n, -0n), String(-0n), 0n == 0, 0n == -0]

// === bigint-factorial
let f = 1n
for (let i = 1n; i <= 30n; i++) f *= i
return f.toString()

// === bigint-tostring-radix
return [(255n).toString(16), (-255n).toString(2), (10n ** 20n).toString(36)]

// === bigint-sort-mixed
const arr = [3n, 1, 2n, -1, 0n]
arr.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
return arr.map(String)

// === bigint-in-switch
const f = (v) => {
  switch (v) {
    case 1: return "number one"
    case 1n: return "bigint one"
    default: return "other"
  }
}
return [f(1), f(1n), f("1")]
