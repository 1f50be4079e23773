// Headers (the Fetch Standard, as Node's undici implements it). In the oracle Headers is Node's own host-realm
// class, so results are compared through arrays and strings.

// === headers-basics
const h = new Headers({ "Content-Type": "text/plain", "X-B": " v " })
h.append("x-b", "w")
h.append("Set-Cookie", "a=1")
h.append("set-cookie", "b=2")
return [[...h], h.get("X-B"), h.get("set-cookie"), h.getSetCookie(), h.has("CONTENT-type"), h.get("missing"), h.has("missing")]

// === headers-init-forms
const f = (init) => [...new Headers(init)]
const src = new Headers({ x: "1" })
src.append("set-cookie", "c1")
src.append("set-cookie", "c2")
return [
  f(), f(undefined), f({}), f([]), f([["a", "1"], ["b", "2"], ["A", "3"]]), f(new Map([["k", "v"]])), f(src),
  f([new Set(["n", "v"])]), f({ num: 5, nil: null, arr: [1, 2] }),
  (() => { const o = Object.create({ inherited: "x" }); o.own = "y"; return f(o) })(),
]

// === headers-init-errors
const t = (f) => { try { return f() } catch (e) { return [e.name, e.message] } }
return [
  t(() => new Headers(5)), t(() => new Headers("abc")), t(() => new Headers(null)), t(() => new Headers([["a"]])),
  t(() => new Headers([["a", "b", "c"]])), t(() => new Headers([5])), t(() => new Headers({ "a b": "1" })),
  t(() => new Headers({ a: "x\ny" })), t(() => new Headers({ [Symbol("x")]: "1" })), (() => { try { Headers() } catch (e) { return e.name } })(),
]

// === headers-validation
const t = (f) => { try { return f() } catch (e) { return [e.name, e.message] } }
const h = new Headers()
return [
  t(() => h.append("", "x")), t(() => h.append("a:b", "x")), t(() => h.append("a", "x\ry")), t(() => h.append("a", "\u0100")),
  t(() => h.set("a b", "x")), t(() => h.get("a b")), t(() => h.has("a b")), t(() => h.delete("a b")),
  t(() => { h.append("ok-name_1!#$%&'*+.^`|~", "v"); return [...h] }),
  t(() => { h.set("trim", " \t x y \r\n"); return h.get("trim") }), t(() => { h.set("lat", "é"); return h.get("lat") }),
  t(() => { h.set("empty", ""); return [h.get("empty"), h.has("empty")] }),
]

// === headers-methods
const h = new Headers()
h.append("Accept", "a")
h.append("accept", "b")
const r = [h.get("ACCEPT")]
h.set("ACCEPT", "c")
r.push(h.get("accept"), [...h])
h.set("n", 5)
h.append("n", null)
r.push(h.get("n"))
h.delete("N")
r.push(h.has("n"), [...h])
h.append("set-cookie", "x")
h.set("Set-Cookie", "y")
r.push(h.getSetCookie())
h.delete("set-cookie")
r.push(h.getSetCookie(), String(h.delete("nothing")), String(h.append("q", "1")), String(h.set("q", "2")))
return r

// === headers-iteration-order
const h = new Headers([["b", "1"], ["A", "2"], ["a-b", "3"], ["_", "4"], ["Z", "5"], ["set-cookie", "s1"], ["Set-Cookie", "s2"]])
return [[...h.keys()], [...h.values()], [...h.entries()], Array.from(h), Object.fromEntries(h)]

// === headers-iterators
const h = new Headers({ b: "2", a: "1" })
const it = h.keys()
const r = [Object.prototype.toString.call(it), it.next()]
h.append("c", "3")
r.push(it.next(), it.next(), it.next().done, it[Symbol.iterator]() === it, h[Symbol.iterator] === h.entries)
return r

// === headers-forEach
const h = new Headers({ b: "2", a: "1" })
const out = []
// (undici's default thisArg is its own global object: the oracle's is Node's, so only its type is compared)
h.forEach(function (v, k, o) { out.push([k, v, o === h, typeof this]) })
h.forEach(function (v, k) { out.push([k, String(this)]) }, "T")
const t = (f) => { try { return f() } catch (e) { return [e.name, e.message] } }
return [out, t(() => h.forEach(1)), t(() => h.forEach())]

// === headers-brand-and-args
const t = (f) => { try { return f() } catch (e) { return [e.name, e.message] } }
const h = new Headers()
return [
  t(() => h.append("a")), t(() => h.get()), t(() => h.set("a")), t(() => h.has()), t(() => h.delete()),
  t(() => Headers.prototype.get.call({}, "a")), t(() => h.keys().next.call({})),
  Headers.length, Headers.prototype.append.length, Headers.prototype.forEach.length,
  Object.prototype.toString.call(h), String(h), Object.keys(Headers.prototype),
]

// === headers-usage
const base = new Headers({ "content-type": "application/json" })
const merged = new Headers(base)
merged.set("Authorization", "Bearer t")
merged.append("Accept", "application/json")
merged.append("Accept", "text/plain")
const plain = {}
for (const [k, v] of merged) plain[k] = v
return [plain, [...base].length, merged.get("accept").split(", "), JSON.stringify(Object.fromEntries(merged.entries()))]
