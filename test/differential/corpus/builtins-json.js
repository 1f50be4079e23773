// JSON.parse (grammar, errors, reviver with source context, __proto__ keys) and JSON.stringify (replacers,
// indentation, toJSON, boxed primitives, BigInt and cycles, well-formed strings, property order), rawJSON.

// === parse-primitives
return [JSON.parse("1"), JSON.parse("-0.5e2"), JSON.parse('"s"'), JSON.parse("true"), JSON.parse("null"), JSON.parse(" \t\n\r 7 "), Object.is(JSON.parse("-0"), -0)]

// === parse-nested
return JSON.parse('{"a":[1,{"b":[true,false,null]},"x"],"c":{"d":{}},"e":[]}')

// === parse-string-escapes
return JSON.parse('["\\"", "\\\\", "\\/", "\\b\\f\\n\\r\\t", "\\u0041\\u00e9\\ud83d\\ude00", "\\ud800"]').map((s) => [s.length, encodeURIComponent(s.replace(/[\ud800-\udfff]/g, "?"))])

// === parse-numbers
return JSON.parse("[0, -0, 1e3, 1E-3, 1.5e+2, 123456789012345678901234567890, 0.1, 5e-324, 1e400]").map(String)

// === parse-duplicate-keys
const o = JSON.parse('{"a":1,"b":2,"a":3}')
return [o, Object.keys(o)]

// === parse-proto-key
const o = JSON.parse('{"__proto__":{"polluted":true},"x":1}')
return [Object.keys(o), String(o.polluted), Object.getPrototypeOf(o) === Object.prototype, String(({}).polluted), o.__proto__.polluted]

// === parse-key-order-numeric
return Object.keys(JSON.parse('{"b":1,"2":2,"a":3,"1":4}'))

// === parse-coerces-argument
return [JSON.parse(123), JSON.parse(true), JSON.parse(null), JSON.parse({ toString: () => "[1]" })]

// === parse-error-types
const bad = ["", "{", "[1,]", "{'a':1}", "{a:1}", "01", "1.", "-", "tru", '"abc', "[1 2]", "{\"a\" 1}", "NaN", "undefined", "\"\t\"", "1 2", "[1]]", '"\\x"', "+1", ".5"]
return bad.map((s) => {
  try {
    JSON.parse(s)
    return "parsed"
  } catch (e) {
    return e.name
  }
})

// === parse-error-uncaught
return JSON.parse("{bad json}")

// === parse-error-messages
const bad = ["{a:1}", "[1,]", "", '{"a":1,}', "01", "1 2", '"abc', "tru"]
return bad.map((s) => {
  try {
    JSON.parse(s)
  } catch (e) {
    return e.message
  }
})

// === parse-deep-nesting
const depth = 2000
const text = "[".repeat(depth) + "]".repeat(depth)
let v = JSON.parse(text)
let n = 0
while (Array.isArray(v) && v.length) {
  v = v[0]
  n++
}
return n

// === parse-reviver-basic
return JSON.parse('{"a":1,"b":[2,3],"c":{"d":4}}', (k, v) => (typeof v === "number" ? v * 10 : v))

// === parse-reviver-order-and-this
const log = []
JSON.parse('{"a":{"b":1},"c":[2]}', function (k, v) {
  log.push([k, Array.isArray(this) ? "array" : typeof this])
  return v
})
return log

// === parse-reviver-delete
const r = JSON.parse('{"keep":1,"drop":2,"arr":[1,2,3]}', (k, v) => (k === "drop" || v === 2 ? undefined : v))
return [Object.keys(r), r.arr.length, 1 in r.arr, r.arr[2]]

// === parse-reviver-source-context
const out = []
JSON.parse('{"big":12345678901234567890,"f":1.50,"s":"x","n":null,"o":{}}', (k, v, ctx) => {
  out.push([k, ctx && typeof ctx === "object" ? ctx.source ?? "none" : "noctx"])
  return v
})
return out

// === parse-reviver-modifies-holder
const r = JSON.parse('{"a":1,"b":2}', function (k, v) {
  if (k === "a") this.b = 20
  return v
})
return r

// === parse-reviver-non-function-ignored
return JSON.parse("[1]", 5)

// === parse-reviver-throws
return JSON.parse("[1]", () => {
  throw new RangeError("reviver")
})

// === stringify-primitives
return [JSON.stringify(1), JSON.stringify("s"), JSON.stringify(null), JSON.stringify(true), JSON.stringify(NaN), JSON.stringify(-Infinity), JSON.stringify(-0), String(JSON.stringify(undefined)), String(JSON.stringify(() => {})), String(JSON.stringify(Symbol("s")))]

// === stringify-object-array
return JSON.stringify({ a: [1, "x", null, undefined, () => {}, Symbol("s")], b: undefined, c: () => {}, [Symbol("k")]: 1, d: { e: NaN } })

// === stringify-string-escapes
return JSON.stringify(["\"quote\"", "back\\slash", "\b\f\n\r\t", "\u0000\u001f\u007f", "\u2028\u2029", "é😀", "\ud800", "\udc00x", "a\ud83d"])

// === stringify-indent-number
return [JSON.stringify({ a: [1, { b: 2 }], c: {} , d: []}, null, 2), JSON.stringify([1], null, 20).length, JSON.stringify({ a: 1 }, null, 0), JSON.stringify({ a: 1 }, null, -3), JSON.stringify({ a: 1 }, null, 3.9)]

// === stringify-indent-string
return [JSON.stringify({ a: [1] }, null, "--"), JSON.stringify({ a: 1 }, null, "abcdefghijklmnop"), JSON.stringify({ a: 1 }, null, ""), JSON.stringify([], null, "\t")]

// === stringify-indent-boxed
return [JSON.stringify({ a: 1 }, null, new Number(2)), JSON.stringify({ a: 1 }, null, new String("~")), JSON.stringify({ a: 1 }, null, true)]

// === stringify-replacer-function
const seen = []
const s = JSON.stringify({ a: 1, b: { c: 2 }, d: [3] }, function (k, v) {
  seen.push(k)
  if (k === "c") return undefined
  if (typeof v === "number") return v + 100
  return v
})
return [s, seen]

// === stringify-replacer-function-root
return [JSON.stringify(5, (k, v) => (k === "" ? { wrapped: v } : v)), String(JSON.stringify({ a: 1 }, () => undefined))]

// === stringify-replacer-array
const o = { a: 1, b: 2, c: { a: 3, b: 4 }, 1: "one" }
return [JSON.stringify(o, ["a", "c"]), JSON.stringify(o, [1, "b", "b", new String("a")]), JSON.stringify(o, []), JSON.stringify([{ a: 1, z: 2 }], ["z"])]

// === stringify-to-json
const d = { toJSON(key) { return "key=" + key } }
const nested = { x: { toJSON() { return { y: 1 } } } }
return [JSON.stringify(d), JSON.stringify({ k: d }), JSON.stringify([d]), JSON.stringify(nested), JSON.stringify(new Date(0))]

// === stringify-to-json-non-function
return JSON.stringify({ a: { toJSON: 5, b: 1 } })

// === stringify-boxed
return JSON.stringify([new Number(3), new String("str"), new Boolean(false), Object(1n) instanceof BigInt])

// === stringify-boxed-custom-valueof
const n = new Number(1)
n.valueOf = () => 99
const s = new String("a")
s.toString = () => "changed"
return JSON.stringify([n, s])

// === stringify-bigint-throws
try {
  JSON.stringify({ a: 1n })
} catch (e) {
  return [e.name, e.message]
}

// === stringify-bigint-to-json
BigInt.prototype.toJSON = function () {
  return this.toString() + "n"
}
try {
  return JSON.stringify({ a: 12n })
} finally {
  delete BigInt.prototype.toJSON
}

// === stringify-cycle-throws
const a = { name: "a" }
a.self = a
try {
  JSON.stringify(a)
} catch (e) {
  return [e.name, e.message.split("\n")[0]]
}

// === stringify-cycle-message
const a = { b: { c: [] } }
a.b.c.push(a)
try {
  JSON.stringify(a)
} catch (e) {
  return e.message
}

// === stringify-repeated-not-cycle
const shared = { v: 1 }
return JSON.stringify({ x: shared, y: shared, z: [shared, shared] })

// === stringify-sparse-and-array-like
const sparse = [1, , 3]
sparse.extra = "ignored"
return [JSON.stringify(sparse), JSON.stringify({ length: 2, 0: "a" }), JSON.stringify(new Array(3))]

// === stringify-getters-called
let n = 0
const o = {
  get a() {
    n++
    return n
  },
}
return [JSON.stringify(o), JSON.stringify(o), n]

// === stringify-non-enumerable-and-inherited
const proto = { inherited: 1 }
const o = Object.create(proto)
o.own = 2
Object.defineProperty(o, "hidden", { value: 3 })
return JSON.stringify(o)

// === stringify-property-order
const o = { z: 1, 10: 2, a: 3, 2: 4 }
return JSON.stringify(o)

// === stringify-map-set-date
return [JSON.stringify(new Map([["a", 1]])), JSON.stringify(new Set([1])), JSON.stringify(new Date(Date.UTC(2020, 0, 1)))]

// === stringify-throwing-getter
return JSON.stringify({
  get bad() {
    throw new TypeError("getter")
  },
})

// === json-object-shape
return [Object.prototype.toString.call(JSON), JSON[Symbol.toStringTag], typeof JSON.parse, JSON.parse.length, JSON.stringify.length, Object.keys(JSON)]

// === raw-json
const raw = JSON.rawJSON("12345678901234567890")
return [JSON.stringify({ n: raw, s: JSON.rawJSON('"x"') }), JSON.isRawJSON(raw), JSON.isRawJSON({ rawJSON: "1" }), Object.isFrozen(raw), Object.getPrototypeOf(raw), raw.rawJSON]

// === raw-json-invalid
const out = []
for (const t of ["{}", "[1]", " 1", "", "nope"]) {
  try {
    JSON.rawJSON(t)
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === round-trip
const data = { users: [{ id: 1, name: "Ada", tags: ["x", "y"], active: true, score: 9.5 }, { id: 2, name: "Bob", tags: [], active: false, score: null }], meta: { total: 2 } }
const text = JSON.stringify(data, null, 2)
return [JSON.parse(text), text.split("\n").length]
