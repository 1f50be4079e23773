// The BigInt built-ins: BigInt() conversions and its errors, asIntN/asUintN, BigInt.prototype's toString,
// toLocaleString and valueOf, and the shape of the function and its prototype. BigInts are returned as strings.

// === bigint-from-number
return [BigInt(0), BigInt(42), BigInt(-7), BigInt(2 ** 53), BigInt(1e21), BigInt(-0), BigInt(Number.MAX_SAFE_INTEGER)].map(String)

// === bigint-from-string
return [BigInt("123"), BigInt("  -45  "), BigInt("0x1f"), BigInt("0o17"), BigInt("0b1010"), BigInt(""), BigInt("  "), BigInt("+9")].map(String)

// === bigint-from-boolean-and-bigint
return [BigInt(true), BigInt(false), BigInt(10n), BigInt(Object(5n))].map(String)

// === bigint-from-object
return [BigInt({ valueOf: () => 12 }), BigInt({ toString: () => "34" }), BigInt([5]), BigInt(["0x10"])].map(String)

// === bigint-non-integer-rangeerror
const out = []
for (const v of [1.5, NaN, Infinity, -Infinity, 0.1]) {
  try {
    BigInt(v)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === bigint-bad-string-syntaxerror
const out = []
for (const v of ["1.5", "abc", "1n", "0x", "1e3", "- 1", "-0x10", "12 34"]) {
  try {
    out.push(String(BigInt(v)))
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === bigint-typeerror-values
const out = []
for (const v of [undefined, null, Symbol("s"), {}]) {
  try {
    BigInt(v)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === bigint-new-throws
try {
  new BigInt(1)
  return "no"
} catch (e) {
  return e.name
}

// === bigint-extends-super-throws
class B extends BigInt {}
try {
  new B(1)
  return "no"
} catch (e) {
  return e.name
}

// === bigint-shape
return [typeof BigInt, BigInt.length, BigInt.name, typeof BigInt.prototype, BigInt.prototype.constructor === BigInt, Object.prototype.toString.call(1n), BigInt.prototype[Symbol.toStringTag]]

// === bigint-asintn
return [BigInt.asIntN(8, 255n), BigInt.asIntN(8, 128n), BigInt.asIntN(8, -129n), BigInt.asIntN(64, 2n ** 63n), BigInt.asIntN(0, 5n), BigInt.asIntN(1, 1n), BigInt.asIntN(200, -1n)].map(String)

// === bigint-asuintn
return [BigInt.asUintN(8, 257n), BigInt.asUintN(8, -1n), BigInt.asUintN(64, -1n), BigInt.asUintN(0, 99n), BigInt.asUintN(1, 3n), BigInt.asUintN(100, 5n)].map(String)

// === bigint-asintn-coercions
return [BigInt.asIntN("8", "255"), BigInt.asIntN(8.9, true), BigInt.asUintN(undefined, 7n), BigInt.asIntN(null, 7n)].map(String)

// === bigint-asintn-errors
const out = []
const cases = [
  () => BigInt.asIntN(-1, 1n),
  () => BigInt.asIntN(2 ** 53, 1n),
  () => BigInt.asIntN(8, 1),
  () => BigInt.asUintN(8, "x"),
  () => BigInt.asUintN(8, Symbol()),
]
for (const c of cases) {
  try {
    c()
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === bigint-asuintn-huge-bits-positive
return [String(BigInt.asUintN(2 ** 40, 5n)), String(BigInt.asIntN(2 ** 40, -5n))]

// === bigint-asuintn-huge-bits-negative-throws
try {
  BigInt.asUintN(2 ** 40, -1n)
  return "no"
} catch (e) {
  return e.name
}

// === bigint-tostring-radix
const n = 255n
return [n.toString(), n.toString(16), n.toString(2), n.toString(36), (-255n).toString(16), (2n ** 100n).toString(36), 0n.toString(7)]

// === bigint-tostring-radix-errors
const out = []
for (const r of [1, 37, 0, NaN]) {
  try {
    out.push(10n.toString(r))
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === bigint-tostring-this-check
const out = []
for (const v of [1, "1", {}, Object(2n)]) {
  try {
    out.push(BigInt.prototype.toString.call(v))
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === bigint-valueof
const w = Object(9n)
const out = [typeof w, String(w.valueOf()), typeof w.valueOf(), String(BigInt.prototype.valueOf.call(3n))]
try {
  BigInt.prototype.valueOf.call(3)
} catch (e) {
  out.push(e.name)
}
return out

// === bigint-tolocalestring
return [(1234567n).toLocaleString(), (1234567n).toLocaleString("de-DE"), (-5000n).toLocaleString("en-US", { style: "currency", currency: "EUR" }), (10n ** 20n).toLocaleString()]

// === bigint-wrapper-arithmetic
const w = Object(10n)
return [String(w + 1n), String(w * 2n), w == 10n, w === 10n, typeof w]

// === bigint-string-conversion
return [String(12n), `${-3n}`, 5n + "", JSON.stringify({ s: String(2n ** 70n) })]

// === bigint-json-throws
try {
  JSON.stringify({ a: 1n })
  return "no"
} catch (e) {
  return e.name
}

// === bigint-prototype-methods
return Object.getOwnPropertyNames(BigInt.prototype).sort()

// === bigint-static-methods
return [Object.getOwnPropertyNames(BigInt).sort(), BigInt.asIntN.length, BigInt.asUintN.length, BigInt.prototype.toString.length]

// === bigint-factorial-via-constructor
let f = BigInt(1)
for (let i = 1; i <= 30; i++) f *= BigInt(i)
return [f.toString(), f.toString(16).length]

// === bigint-mixed-numeric-conversion
const big = BigInt(Number.MAX_SAFE_INTEGER) + 2n
return [String(big), Number(big), Number(BigInt.asIntN(32, big)), parseInt(big.toString())]

// === bigint-radix-roundtrip
const v = 123456789012345678901234567890n
const hex = v.toString(16)
return [hex, String(BigInt("0x" + hex) === v)]

// === bigint-toprimitive-order
const log = []
const o = {
  [Symbol.toPrimitive](hint) {
    log.push(hint)
    return "7"
  },
}
return [String(BigInt(o)), log]

// === bigint-tostring-negative-radixes
const n = -(2n ** 70n) - 12345n
return [2, 3, 8, 16, 32, 36].map((r) => n.toString(r))

// === bigint-asintn-wide
const v = 2n ** 100n + 12345n
return [BigInt.asIntN(64, v), BigInt.asUintN(64, v), BigInt.asIntN(101, v), BigInt.asIntN(100, v), BigInt.asUintN(70, -v), BigInt.asIntN(32, -(2n ** 31n)), BigInt.asIntN(32, 2n ** 31n)].map(String)

// === bigint-string-edge-syntax
const out = []
for (const s of ["0x", "0b2", "0o8", " 0x10 ", "\n12\t", "1_000", "0X1F", "0B11", "00012", "-012", "+0x1"]) {
  try {
    out.push(String(BigInt(s)))
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === bigint-large-from-number
return [BigInt(1e300).toString().length, BigInt(Number.MAX_VALUE) % 1000n, BigInt(-(2 ** 80)), BigInt(5e-324 * 0)].map(String)
