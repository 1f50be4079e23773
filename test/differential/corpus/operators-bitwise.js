// Bitwise operators and shifts: ToInt32/ToUint32 conversion, shift-count masking, and compound forms.

// === and-or-xor
return [12 & 10, 12 | 10, 12 ^ 10, 0xff & 0x0f, 5 | 0, -1 & 0xff]

// === not
return [~0, ~-1, ~5, ~~3.7, ~~-3.7, ~"7", ~null, ~undefined]

// === toint32-wrap
return [2 ** 32 | 0, (2 ** 31) | 0, (2 ** 32 + 5) | 0, 4294967295 | 0, 1e20 | 0, -(2 ** 31) | 0]

// === toint32-special
return [NaN | 0, Infinity | 0, -Infinity | 0, "12abc" | 0, "0x10" | 0, 3.99 | 0, -3.99 | 0]

// === left-shift
return [1 << 0, 1 << 4, 1 << 31, 1 << 32, 1 << 33, 5 << -1, -1 << 3]

// === signed-right-shift
return [16 >> 2, -16 >> 2, -1 >> 31, 1 >> 32, 255 >> 4, -7 >> 1]

// === unsigned-right-shift
return [-1 >>> 0, -1 >>> 28, 16 >>> 2, -16 >>> 2, 1 >>> 32, (2 ** 32 + 3) >>> 0]

// === shift-count-masking
const n = 0b1011
return [n << 35, n >> 33, n >>> 34, n << "2", n >> 2.9]

// === bitwise-compound-assign
let a = 0b1100
a &= 0b1010
let b = 0b1100
b |= 0b0011
let c = 0b1100
c ^= 0b0110
let d = 3
d <<= 4
let e = -64
e >>= 3
let f = -64
f >>>= 28
return [a, b, c, d, e, f]

// === bitwise-precedence
return [1 | 2 & 3, (1 | 2) & 3, 1 ^ 3 | 4, 1 + 2 << 1, 8 >> 1 + 1, 5 & 3 === 3]

// === bitwise-on-booleans-strings
return [true & true, true | false, "5" ^ "3", [] | 0, [7] | 0, ({}) | 0]

// === bit-tricks
const isPow2 = (n) => n > 0 && (n & (n - 1)) === 0
const popcount = (n) => { let c = 0; while (n) { n &= n - 1; c++ } return c }
return [[1, 2, 3, 64, 96].map(isPow2), popcount(255), popcount(0b101010)]

// === hex-binary-octal-literals
return [0xff, 0XAB, 0b1010, 0B11, 0o17, 0O7, 1_000_000, 0x1_0]

// === valueof-in-bitwise
const o = { valueOf() { return 6 } }
return [o & 3, o | 1, o << 1, ~o]

// === bitwise-symbol-throws
try {
  return Symbol() | 0
} catch (e) {
  return e.name
}

// === unsigned-as-hex
return [(-1 >>> 0).toString(16), ((0xdeadbeef | 0) >>> 0).toString(16), (0xdeadbeef | 0)]

// === xor-swap
let a = 7
let b = 13
a ^= b
b ^= a
a ^= b
return [a, b]

// === bitmask-flags
const READ = 1, WRITE = 2, EXEC = 4
let perms = READ | EXEC
const has = (p) => (perms & p) !== 0
const before = [has(READ), has(WRITE), has(EXEC)]
perms &= ~EXEC
perms |= WRITE
return [before, [has(READ), has(WRITE), has(EXEC)], perms]
