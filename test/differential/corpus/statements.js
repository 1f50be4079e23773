// Control-flow statements: if/else, switch (fallthrough, default placement, strict matching), while, do-while,
// for, for-in (order, inherited keys, mutation during iteration), for-of, labeled break/continue.

// === if-else-chain
const f = (n) => {
  if (n < 0) return "neg"
  else if (n === 0) return "zero"
  else if (n < 10) return "small"
  else return "big"
}
return [-1, 0, 5, 50].map(f)

// === if-without-braces-dangling-else
const f = (a, b) => {
  let r = "none"
  if (a) if (b) r = "ab"; else r = "a-not-b"
  return r
}
return [f(true, true), f(true, false), f(false, true)]

// === switch-fallthrough
const f = (n) => {
  const out = []
  switch (n) {
    case 1: out.push(1)
    case 2: out.push(2)
    case 3: out.push(3); break
    case 4: out.push(4)
  }
  return out
}
return [f(1), f(2), f(3), f(4), f(5)]

// === switch-default-in-middle
const f = (n) => {
  const out = []
  switch (n) {
    case 1: out.push("one")
    default: out.push("default")
    case 2: out.push("two"); break
    case 3: out.push("three")
  }
  return out
}
return [f(1), f(2), f(3), f(9)]

// === switch-strict-matching
const f = (v) => {
  switch (v) {
    case 1: return "number"
    case "1": return "string"
    case true: return "bool"
    case null: return "null"
    case undefined: return "undefined"
    default: return "default"
  }
}
return [f(1), f("1"), f(true), f(null), f(undefined), f(NaN), f(0)]

// === switch-case-expressions-evaluated-lazily
const log = []
const c = (v) => { log.push(v); return v }
switch (3) {
  case c(1): log.push("hit1"); break
  case c(3): log.push("hit3"); break
  case c(5): log.push("hit5"); break
}
return log

// === switch-default-only-after-all-cases
const log = []
const c = (v) => { log.push("case" + v); return v }
switch (9) {
  default: log.push("default")
  case c(1): log.push("after1")
  case c(2): log.push("after2")
}
return log

// === switch-break-in-loop
const out = []
for (let i = 0; i < 4; i++) {
  switch (i % 2) {
    case 0: out.push("even"); continue
    case 1: out.push("odd"); break
  }
  out.push("after" + i)
}
return out

// === while-loop
let i = 0
let sum = 0
while (i < 10) {
  i++
  if (i % 2 === 0) continue
  sum += i
}
return [i, sum]

// === do-while-runs-once
let n = 0
do { n++ } while (false)
let m = 5
do { m-- } while (m > 0)
return [n, m]

// === do-while-continue-checks-condition
let i = 0
const seen = []
do {
  i++
  if (i === 2) continue
  seen.push(i)
} while (i < 4)
return seen

// === for-loop-variants
const out = []
for (let i = 0; i < 3; i++) out.push(i)
let j = 10
for (; j > 7; ) out.push(j--)
for (let a = 0, b = 5; a < b; a++, b--) out.push(a * 10 + b)
return out

// === for-infinite-with-break
let n = 0
for (;;) {
  if (++n >= 5) break
}
return n

// === for-in-order-integer-keys-first
const o = { b: 1, 10: 1, a: 1, 2: 1, "-1": 1, 1.5: 1, 0: 1 }
const keys = []
for (const k in o) keys.push(k)
return keys

// === for-in-inherited-enumerable
const proto = { inherited: 1, shadowed: 1 }
const o = Object.create(proto)
o.own = 1
o.shadowed = 2
Object.defineProperty(o, "hidden", { value: 1, enumerable: false })
const keys = []
for (const k in o) keys.push(k)
return keys

// === for-in-skips-symbols-and-nonenumerable-proto
const o = { a: 1, [Symbol("s")]: 2 }
const keys = []
for (const k in o) keys.push(k)
for (const k in [7, 8]) keys.push(k)
return keys

// === for-in-deleted-during-iteration
const o = { a: 1, b: 2, c: 3 }
const keys = []
for (const k in o) {
  keys.push(k)
  if (k === "a") delete o.b
}
return keys

// === for-in-over-string-and-array
const out = []
for (const i in "hey") out.push(i)
const arr = [1, 2]
arr.extra = "x"
for (const i in arr) out.push(i)
return out

// === for-in-null-and-undefined-no-iterations
let n = 0
for (const k in null) n++
for (const k in undefined) n++
return n

// === for-in-shadowed-nonenumerable-hides-proto
const proto = { p: 1 }
const o = Object.create(proto)
Object.defineProperty(o, "p", { value: 2, enumerable: false })
const keys = []
for (const k in o) keys.push(k)
return keys

// === for-in-var-assignment-target
const o = {}
const keys = []
for (o.k in { x: 1, y: 2 }) keys.push(o.k)
return keys

// === for-of-array-and-string
const out = []
for (const x of [1, 2]) out.push(x)
for (const c of "ab") out.push(c)
return out

// === for-of-array-grows-during-iteration
const arr = [1, 2, 3]
const seen = []
for (const x of arr) {
  seen.push(x)
  if (x < 3) arr.push(x + 10)
}
return seen

// === for-of-break-calls-return
const log = []
const iterable = {
  [Symbol.iterator]() {
    let i = 0
    return {
      next() { return { value: i++, done: i > 5 } },
      return() { log.push("return"); return {} },
    }
  },
}
for (const v of iterable) {
  log.push(v)
  if (v === 2) break
}
return log

// === for-of-non-iterable-throws
try {
  for (const x of { length: 2 }) {}
  return "no error"
} catch (e) {
  return e.name
}

// === for-of-map-entries
const m = new Map([["a", 1], ["b", 2]])
const out = []
for (const [k, v] of m) out.push(k + v)
for (const k of m.keys()) out.push(k)
return out

// === labeled-break-outer
const out = []
outer: for (let i = 0; i < 3; i++) {
  for (let j = 0; j < 3; j++) {
    if (j === 2) continue outer
    if (i === 2) break outer
    out.push([i, j])
  }
}
return out

// === labeled-block-break
const out = []
block: {
  out.push(1)
  if (out.length) break block
  out.push(2)
}
out.push(3)
return out

// === labeled-continue-while
let i = 0
const out = []
loop: while (i < 5) {
  i++
  for (;;) {
    if (i % 2) continue loop
    break
  }
  out.push(i)
}
return out

// === nested-labels
const out = []
a: b: for (let i = 0; i < 3; i++) {
  if (i === 1) continue a
  if (i === 2) break b
  out.push(i)
}
return out

// === empty-statement-and-blocks
let n = 0;;;
{ }
for (let i = 0; i < 3; i++);
if (n === 0) ; else n = 5
{ { n += 1 } }
return n

// === loop-closures-over-var-and-let
const viaVar = []
const viaLet = []
for (var i = 0; i < 3; i++) viaVar.push(() => i)
for (let j = 0; j < 3; j++) viaLet.push(() => j)
return [viaVar.map((f) => f()), viaLet.map((f) => f())]

// === while-with-complex-condition
const q = [3, 1, 4, 1, 5]
const out = []
let x
while ((x = q.shift()) !== undefined && x !== 4) out.push(x)
return [out, q]

// === return-from-nested-loops
function find(grid, target) {
  for (let r = 0; r < grid.length; r++) {
    for (let c = 0; c < grid[r].length; c++) {
      if (grid[r][c] === target) return [r, c]
    }
  }
  return null
}
return [find([[1, 2], [3, 4]], 4), find([[1]], 9)]

// === if-function-scope-values
const f = (x) => {
  let r
  if (x) { const y = x * 2; r = y } else { const y = -1; r = y }
  return r
}
return [f(3), f(0)]

// === for-of-with-index-entries
const out = []
for (const [i, v] of ["a", "b"].entries()) out.push(`${i}:${v}`)
return out

// === switch-lexical-block-per-switch
const f = (n) => {
  switch (n) {
    case 1: {
      const msg = "one"
      return msg
    }
    case 2: {
      const msg = "two"
      return msg
    }
  }
  return "none"
}
return [f(1), f(2), f(3)]

// === for-in-order-mixed-with-prototype-integer-keys
const proto = { 1: "p", b: "p" }
const o = Object.create(proto)
o.a = 1
o[0] = 1
const keys = []
for (const k in o) keys.push(k)
return keys

// === for-of-continue-keeps-iterating
const out = []
for (const x of [1, 2, 3, 4]) {
  if (x % 2 === 1) continue
  out.push(x)
}
return out

// === for-of-continue-does-not-close-iterator
const log = []
const iterable = {
  [Symbol.iterator]() {
    let i = 0
    return {
      next: () => (i < 3 ? { value: i++, done: false } : { value: undefined, done: true }),
      return: () => { log.push("return"); return {} },
    }
  },
}
for (const x of iterable) {
  if (x === 1) continue
  log.push(x)
}
return log

// === labeled-continue-closes-inner-iterator-only
const log = []
const tracked = (name, n) => ({
  [Symbol.iterator]() {
    let i = 0
    return {
      next: () => (i < n ? { value: i++, done: false } : { value: undefined, done: true }),
      return: () => { log.push("close " + name); return {} },
    }
  },
})
outer: for (const a of tracked("outer", 2)) {
  for (const b of tracked("inner", 3)) {
    if (b === 1) continue outer
    log.push(a + ":" + b)
  }
}
return log

// === for-await-continue
const out = []
async function* gen() { yield 1; yield 2; yield 3 }
for await (const x of gen()) {
  if (x === 2) continue
  out.push(x)
}
return out

// === continue-in-for-of-inside-try-finally
const log = []
for (const x of [1, 2, 3]) {
  try {
    if (x === 2) continue
    log.push("body " + x)
  } finally {
    log.push("finally " + x)
  }
}
return log
