// Map, Set, WeakMap, WeakSet: constructors over iterables (through the overridable set/add), every prototype
// method, SameValueZero keys, insertion order, iteration that survives mutation (additions seen, deletions skipped,
// clear), the iterator objects, Map.groupBy, the Set methods over set-likes (GetSetRecord's call order), brand
// checks and the TypeErrors of weak keys.

// === map-basic
const m = new Map()
m.set("a", 1).set("b", 2)
return [m.get("a"), String(m.get("z")), m.has("b"), m.size, m.delete("a"), m.delete("a"), m.size]

// === map-from-entries
const m = new Map([["x", 1], ["y", 2], ["x", 3]])
return [m.size, [...m], [...m.keys()], [...m.values()]]

// === map-samevaluezero-keys
const m = new Map()
m.set(NaN, "nan").set(0, "zero")
m.set(-0, "negzero")
return [m.get(NaN), m.get(0), m.get(-0), m.size, Object.is([...m.keys()][1], 0)]

// === map-object-keys-identity
const k1 = {}
const k2 = {}
const m = new Map([[k1, 1], [k2, 2]])
return [m.get(k1), m.get(k2), String(m.get({})), m.size]

// === map-key-types
const s = Symbol("s")
const m = new Map([[1, "num"], ["1", "str"], [1n, "big"], [true, "bool"], [null, "null"], [undefined, "undef"], [s, "sym"]])
return [m.get(1), m.get("1"), m.get(1n), m.get(true), m.get(null), m.get(undefined), m.get(s), m.size]

// === map-insertion-order-update
const m = new Map([["a", 1], ["b", 2], ["c", 3]])
m.set("a", 10)
m.delete("b")
m.set("b", 20)
return [...m.entries()]

// === map-foreach
const m = new Map([["a", 1], ["b", 2]])
const out = []
m.forEach(function (v, k, map) {
  out.push([k, v, map === m, this.tag])
}, { tag: "T" })
return out

// === map-foreach-mutation
const m = new Map([[1, "a"], [2, "b"], [3, "c"]])
const seen = []
m.forEach((v, k) => {
  seen.push(k)
  if (k === 1) {
    m.delete(2)
    m.set(4, "d")
  }
  if (k === 4) m.set(1, "again")
})
return [seen, [...m.keys()]]

// === map-foreach-delete-readd
const m = new Map([[1, 1], [2, 2]])
const seen = []
m.forEach((v, k) => {
  seen.push(k)
  if (seen.length < 5) {
    m.delete(k)
    m.set(k, v)
  }
})
return seen

// === map-foreach-clear
const m = new Map([[1, 1], [2, 2], [3, 3]])
const seen = []
m.forEach((v, k) => {
  seen.push(k)
  if (k === 1) {
    m.clear()
    m.set(9, 9)
  }
})
return [seen, m.size]

// === map-foreach-not-callable
const out = []
for (const cb of [undefined, 1, {}, "f"]) {
  try {
    new Map([[1, 1]]).forEach(cb)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === map-foreach-callback-throws
const m = new Map([[1, 1], [2, 2]])
let count = 0
try {
  m.forEach(() => {
    count++
    throw new SyntaxError("stop")
  })
} catch (e) {
  return [e.name, count]
}

// === map-iterator-protocol
const m = new Map([["a", 1]])
const it = m.entries()
return [
  Object.prototype.toString.call(it),
  it[Symbol.iterator]() === it,
  JSON.stringify(it.next()),
  JSON.stringify(it.next()),
  JSON.stringify(it.next()),
  it[Symbol.toStringTag],
]

// === map-iterator-mutation
const m = new Map([[1, 1], [2, 2], [3, 3]])
const it = m.keys()
const out = [it.next().value]
m.delete(2)
m.set(4, 4)
out.push(it.next().value, it.next().value, it.next().done)
m.set(5, 5)
out.push(it.next().done)
return out

// === map-iterator-after-clear
const m = new Map([[1, 1], [2, 2]])
const it = m.values()
it.next()
m.clear()
m.set("new", "v")
return [JSON.stringify(it.next()), JSON.stringify(it.next())]

// === map-many-deletes-while-iterating
const m = new Map()
for (let i = 0; i < 100; i++) m.set(i, i)
const it = m.keys()
const got = []
for (let i = 0; i < 5; i++) got.push(it.next().value)
for (let i = 0; i < 90; i++) m.delete(i)
for (const k of it) got.push(k)
return got

// === map-iterator-shared-prototype
const a = new Map().keys()
const b = new Map().entries()
const proto = Object.getPrototypeOf(a)
return [
  proto === Object.getPrototypeOf(b),
  Object.getOwnPropertyNames(proto),
  typeof proto[Symbol.iterator],
  Object.getPrototypeOf(proto) === Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())),
]

// === map-iterator-next-brand
const next = new Map().keys().next
const out = []
for (const t of [{}, new Set().values(), [][Symbol.iterator]()]) {
  try {
    next.call(t)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === map-symbol-iterator-is-entries
return [Map.prototype[Symbol.iterator] === Map.prototype.entries, Map.prototype.entries.name, Map.prototype[Symbol.toStringTag]]

// === map-size-getter
const d = Object.getOwnPropertyDescriptor(Map.prototype, "size")
let err
try {
  d.get.call(new Set())
} catch (e) {
  err = e.name
}
return [typeof d.get, String(d.set), d.get.name, d.enumerable, err]

// === map-requires-new
try {
  Map()
  return "no"
} catch (e) {
  return e.name
}

// === map-bad-entries
const out = []
for (const it of [[1], ["ab"], 5, [null]]) {
  try {
    new Map(it)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === map-string-entries
const m = new Map(["ab", "cd"])
return [...m]

// === map-constructor-uses-set
const calls = []
class M extends Map {
  set(k, v) {
    calls.push(k)
    return super.set(k, v * 10)
  }
}
const m = new M([["a", 1], ["b", 2]])
return [calls, m.get("a"), m instanceof Map, m instanceof M]

// === map-constructor-closes-iterator-on-throw
let closed = false
const iterable = {
  [Symbol.iterator]() {
    let i = 0
    return {
      next() {
        i++
        return i === 1 ? { value: ["a", 1], done: false } : { value: 7, done: false }
      },
      return() {
        closed = true
        return {}
      },
    }
  },
}
try {
  new Map(iterable)
} catch (e) {
  return [e.name, closed]
}

// === map-set-not-callable
const saved = Map.prototype.set
Map.prototype.set = 1
let r
try {
  new Map([[1, 2]])
  r = "no"
} catch (e) {
  r = e.name
}
Map.prototype.set = saved
const empty = (() => {
  Map.prototype.set = 1
  try {
    return new Map().size
  } finally {
    Map.prototype.set = saved
  }
})()
return [r, empty]

// === map-methods-brand-check
const out = []
for (const name of ["get", "set", "has", "delete", "clear", "forEach", "keys", "values", "entries"]) {
  try {
    Map.prototype[name].call(new Set(), () => {})
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === map-groupby
const g = Map.groupBy([1, 2, 3, 4, 5, 6], (x, i) => (x % 3 === 0 ? "fizz" : i % 2 ? "odd-index" : "even-index"))
return [...g]

// === map-groupby-object-keys
const a = { k: "a" }
const b = { k: "b" }
const g = Map.groupBy([a, b, a], (x) => x)
return [g.size, g.get(a).length, g.get(b).length]

// === map-groupby-zero-keys
const g = Map.groupBy([1, 2, 3], (x) => (x === 1 ? -0 : 0))
return [g.size, Object.is([...g.keys()][0], 0), g.get(0)]

// === map-groupby-errors
const out = []
try {
  Map.groupBy(null, (x) => x)
} catch (e) {
  out.push(e.name)
}
try {
  Map.groupBy([1], "nope")
} catch (e) {
  out.push(e.name)
}
try {
  Map.groupBy([1, 2], () => {
    throw new URIError("cb")
  })
} catch (e) {
  out.push(e.name)
}
return out

// === map-species
return [Map[Symbol.species] === Map, Set[Symbol.species] === Set, Object.getOwnPropertyDescriptor(Map, Symbol.species).get.name]

// === map-lengths-names
return [Map.length, Set.length, WeakMap.length, WeakSet.length, Map.prototype.set.length, Map.prototype.forEach.length, Map.groupBy.length, Map.name]

// === set-basic
const s = new Set([1, 2, 2, 3])
s.add(4).add(1)
return [s.size, s.has(2), s.has(5), s.delete(2), s.delete(2), [...s]]

// === set-samevaluezero
const s = new Set([NaN, NaN, 0, -0, "0"])
return [s.size, s.has(NaN), s.has(-0), Object.is([...s][1], 0)]

// === set-from-string
return [...new Set("hello")]

// === set-keys-is-values
return [Set.prototype.keys === Set.prototype.values, Set.prototype[Symbol.iterator] === Set.prototype.values, Set.prototype.values.name]

// === set-entries
const s = new Set(["a", "b"])
return [[...s.entries()], [...s.keys()]]

// === set-foreach
const s = new Set(["x", "y"])
const out = []
s.forEach((v, k, set) => out.push([v, k, set === s]))
return out

// === set-foreach-add-during
const s = new Set([1, 2])
const seen = []
s.forEach((v) => {
  seen.push(v)
  if (v < 5) s.add(v + 2)
})
return seen

// === set-iterator-delete-during-for-of
const s = new Set([1, 2, 3, 4, 5])
const seen = []
for (const v of s) {
  seen.push(v)
  s.delete(v + 1)
}
return [seen, [...s]]

// === set-constructor-uses-add
const added = []
class S extends Set {
  add(v) {
    added.push(v)
    return super.add(v)
  }
}
const s = new S([3, 1, 3])
return [added, s.size]

// === set-clear
const s = new Set([1, 2, 3])
s.clear()
return [s.size, [...s], s.has(1)]

// === set-union
const a = new Set([1, 2, 3])
return [[...a.union(new Set([3, 4]))], [...a.union(new Map([[5, "x"]]))], [...a], a.union(a) !== a]

// === set-intersection
const a = new Set([1, 2, 3, 4])
return [[...a.intersection(new Set([4, 2, 9]))], [...a.intersection(new Set([1, 2, 3, 4, 5, 6]))], [...new Set([3, 2, 1]).intersection(new Set([1, 2]))]]

// === set-difference
const a = new Set([1, 2, 3, 4])
return [[...a.difference(new Set([2, 4]))], [...a.difference(new Set([1, 2, 3, 4, 5, 6, 7]))], [...a.difference(new Set())]]

// === set-symmetric-difference
return [[...new Set([1, 2, 3]).symmetricDifference(new Set([3, 4, 5]))], [...new Set([1]).symmetricDifference(new Set([1]))]]

// === set-subset-superset-disjoint
const a = new Set([1, 2])
const b = new Set([1, 2, 3])
return [a.isSubsetOf(b), b.isSubsetOf(a), b.isSupersetOf(a), a.isSupersetOf(b), a.isDisjointFrom(new Set([3])), a.isDisjointFrom(b), new Set().isSubsetOf(new Set())]

// === set-methods-setlike
const setLike = {
  size: 2,
  has(v) {
    return v === 1 || v === 5
  },
  keys() {
    return [1, 5][Symbol.iterator]()
  },
}
const a = new Set([1, 2, 3])
return [[...a.union(setLike)], [...a.intersection(setLike)], [...a.difference(setLike)], [...a.symmetricDifference(setLike)], a.isSupersetOf(setLike), a.isDisjointFrom(setLike)]

// === set-methods-getsetrecord-order
const log = []
const other = {
  get size() {
    log.push("size")
    return 1
  },
  get has() {
    log.push("has")
    return () => false
  },
  get keys() {
    log.push("keys")
    return () => [][Symbol.iterator]()
  },
}
new Set([1, 2]).union(other)
new Set([1, 2]).intersection(other)
return log

// === set-methods-has-vs-keys-path
const log = []
const other = (size) => ({
  size,
  has(v) {
    log.push("has:" + v)
    return true
  },
  keys() {
    log.push("keys")
    return [7][Symbol.iterator]()
  },
})
const s = new Set([1, 2])
s.intersection(other(10))
s.intersection(other(1))
s.difference(other(10))
s.difference(other(1))
s.isSubsetOf(other(10))
s.isDisjointFrom(other(1))
return log

// === set-methods-bad-setlike
const out = []
const cases = [
  1,
  {},
  { size: NaN, has() {}, keys() {} },
  { size: -1, has() {}, keys() {} },
  { size: 1, has: 1, keys() {} },
  { size: 1, has() {}, keys: "k" },
  { size: 1, has() {}, keys: () => 5 },
  [1, 2],
]
for (const c of cases) {
  try {
    new Set([1]).union(c)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === set-methods-size-coercion
const a = new Set([1, 2, 3])
const like = (size) => ({ size, has: (v) => v === 2, keys: () => [2][Symbol.iterator]() })
return [[...a.intersection(like("1"))], [...a.intersection(like(Infinity))], a.isSubsetOf(like(1.9)), a.isSupersetOf(like({ valueOf: () => 1 }))]

// === set-issupersetof-closes-iterator
let closed = 0
const other = {
  size: 1,
  has: () => true,
  keys() {
    let i = 0
    return {
      next: () => ({ value: i++ === 0 ? 99 : 1, done: false }),
      return() {
        closed++
        return {}
      },
    }
  },
}
return [new Set([1, 2, 3]).isSupersetOf(other), new Set([99]).isDisjointFrom({ ...other, size: 0 }), closed]

// === set-intersection-mutation-in-has
const s = new Set([1, 2, 3, 4])
const other = {
  size: 10,
  has(v) {
    if (v === 1) {
      s.delete(2)
      s.add(5)
    }
    return true
  },
  keys() {
    return [][Symbol.iterator]()
  },
}
return [[...s.intersection(other)], [...s]]

// === set-methods-result-is-plain-set
class MySet extends Set {}
const r = new MySet([1]).union(new Set([2]))
return [r instanceof MySet, r instanceof Set, r.constructor === Set]

// === set-methods-brand
try {
  Set.prototype.union.call(new Map(), new Set())
  return "no"
} catch (e) {
  return e.name
}

// === set-size-string-tag
return [new Set([1, 2]).size, Object.prototype.toString.call(new Set()), Object.prototype.toString.call(new Set().values()), String(new Map())]

// === weakmap-basic
const k = {}
const wm = new WeakMap([[k, 1]])
const f = function () {}
wm.set(f, 2)
return [wm.get(k), wm.has(k), wm.get(f), wm.delete(k), wm.has(k), String(wm.get({})), wm.set(k, 3) === wm]

// === weakmap-invalid-keys
const out = []
for (const k of [1, "s", null, undefined, true, Symbol.for("reg")]) {
  try {
    new WeakMap().set(k, 1)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === weakmap-symbol-keys
const s = Symbol("local")
const wm = new WeakMap([[s, "v"]])
return [wm.get(s), wm.has(Symbol.for("reg")), String(wm.get(1)), wm.delete("x"), new WeakMap().set(Symbol.iterator, 1).has(Symbol.iterator)]

// === weakset-basic
const a = {}
const ws = new WeakSet([a])
return [ws.has(a), ws.has({}), ws.add(a) === ws, ws.delete(a), ws.has(a), ws.has(1), ws.delete(1)]

// === weakset-invalid-values
const out = []
for (const v of [1, "x", null, Symbol.for("r")]) {
  try {
    new WeakSet().add(v)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
try {
  new WeakSet([{}, 1])
} catch (e) {
  out.push("ctor:" + e.name)
}
return out

// === weak-requires-new-and-brand
const out = []
try {
  WeakMap()
} catch (e) {
  out.push(e.name)
}
try {
  WeakSet.prototype.add.call(new WeakMap(), {})
} catch (e) {
  out.push(e.name)
}
try {
  WeakMap.prototype.get.call(new Map(), {})
} catch (e) {
  out.push(e.name)
}
return [out, Object.prototype.toString.call(new WeakMap()), Object.prototype.toString.call(new WeakSet()), "size" in WeakMap.prototype]

// === map-as-cache-idiom
const cache = new Map()
const fib = (n) => {
  if (n < 2) return n
  if (cache.has(n)) return cache.get(n)
  const v = fib(n - 1) + fib(n - 2)
  cache.set(n, v)
  return v
}
return [fib(80), cache.size]

// === map-to-object-and-back
const m = new Map(Object.entries({ a: 1, b: 2 }))
m.set("c", 3)
return [Object.fromEntries(m), Array.from(m, ([k, v]) => k + v), JSON.stringify([...m])]

// === set-dedupe-sort
const words = "the quick brown the lazy quick dog".split(" ")
return [...new Set(words)].sort()

// === map-large-churn
const m = new Map()
for (let i = 0; i < 5000; i++) {
  m.set(i, i)
  if (i >= 10) m.delete(i - 10)
}
return [m.size, [...m.keys()]]

// === set-spread-and-array-from
const s = new Set([3, 1, 2])
return [Array.from(s), [...s].map((x) => x * 2), Array.from(s.entries())]

// === map-entries-destructuring
const m = new Map([["k1", { n: 1 }], ["k2", { n: 2 }]])
let sum = 0
for (const [k, { n }] of m) sum += n
return [sum, Array.from(m.keys()).join("|")]

// === set-iterator-clear-compaction
const s = new Set()
for (let i = 0; i < 40; i++) s.add(i)
const it = s.values()
const got = [it.next().value, it.next().value]
s.clear()
for (let i = 100; i < 104; i++) s.add(i)
for (const v of it) got.push(v)
return [got, s.size]

// === map-foreach-delete-ahead-compaction
const m = new Map()
for (let i = 0; i < 60; i++) m.set(i, i)
const seen = []
m.forEach((v, k) => {
  seen.push(k)
  if (k === 0) for (let j = 1; j < 50; j++) m.delete(j)
  if (k === 55) m.set("end", 0)
})
return seen

// === map-iterator-for-of-break
const m = new Map([[1, "a"], [2, "b"], [3, "c"]])
const it = m.entries()
for (const [k] of it) {
  if (k === 1) break
}
return [typeof it.return, JSON.stringify(it.next()), [...it].length]

// === set-methods-on-self-and-empty
const s = new Set([1, 2, 3])
return [[...s.union(s)], [...s.intersection(s)], [...s.difference(s)], [...s.symmetricDifference(s)], s.isSubsetOf(s), s.isSupersetOf(s), s.isDisjointFrom(s), s.isDisjointFrom(new Set())]

// === set-methods-with-map-and-deleted
const s = new Set()
for (let i = 0; i < 30; i++) s.add(i)
for (let i = 0; i < 25; i++) s.delete(i)
const m = new Map([[26, "x"], [99, "y"]])
return [[...s.union(m)], [...s.intersection(m)], [...s.difference(m)], [...s.symmetricDifference(m)], s.isDisjointFrom(m)]

// === set-methods-zero-normalized
const s = new Set([0, 1])
const like = { size: 1, has: (v) => Object.is(v, -0), keys: () => [-0][Symbol.iterator]() }
const r = s.union(like)
const i = new Set([1, 2, 3, 4]).intersection({ size: 1, has: () => true, keys: () => [-0, 2][Symbol.iterator]() })
return [r.size, [...new Set([5]).union(like)].map((x) => Object.is(x, -0)), [...i], [...s.intersection(like)]]

// === map-set-return-values
const m = new Map()
const s = new Set()
return [m.set(1, 1) === m, s.add(1) === s, String(m.clear()), String(s.clear()), m.delete(1), s.delete(1)]

// === map-subclass-overrides
class CountingMap extends Map {
  constructor(entries) {
    super(entries)
    this.reads = 0
  }
  get(k) {
    this.reads++
    return super.get(k)
  }
}
const cm = new CountingMap([["a", 1]])
cm.get("a")
cm.get("b")
return [cm.reads, cm.size, Object.prototype.toString.call(cm), cm.constructor.name, Object.keys(cm)]

// === weakmap-object-keys-churn
const wm = new WeakMap()
const keys = []
for (let i = 0; i < 50; i++) {
  const k = { i }
  keys.push(k)
  wm.set(k, i * 2)
}
let sum = 0
for (const k of keys) sum += wm.get(k)
for (const k of keys.slice(0, 10)) wm.delete(k)
return [sum, keys.filter((k) => wm.has(k)).length]

// === own-properties-beside-entries
// An object is its own property store: a Map's or Set's entries and its own properties must stay apart.
const m = new Map([["a", 1]])
m.a = 2
m.size2 = 3
m.get = function (k) { return "own " + k }
delete m.a
const s = new Set(["x"])
s.x = true
s.has = 7
return [m.get("a"), Map.prototype.get.call(m, "a"), m.size, Object.keys(m), m.has("size2"), [...m], s.size, Object.keys(s), Set.prototype.has.call(s, "x"), [...s], JSON.stringify(m), structuredClone(m).size]
