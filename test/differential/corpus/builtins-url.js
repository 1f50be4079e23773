// URL and URLSearchParams (WHATWG URL, as Node provides them). In the oracle these are Node's own host-realm
// classes, so errors are compared by name/code/message and results through strings and arrays.

// === url-components
const u = new URL("https://user:pa%20ss@Example.COM:8080/a/./b/../c%2Fd?x=1&y=%20#frag")
return [u.href, u.origin, u.protocol, u.username, u.password, u.host, u.hostname, u.port, u.pathname, u.search, u.hash, String(u), u.toJSON()]

// === url-default-ports-and-schemes
const f = (s) => { const u = new URL(s); return [u.href, u.host, u.port, u.origin] }
return [
  f("http://a.com:80/"), f("https://a.com:443/x"), f("ws://a.com:80"), f("wss://a.com:444"), f("ftp://a.com:21/f"),
  f("file:///etc/passwd"), f("data:text/plain,hi"), f("blob:https://a.com/uuid"), f("mailto:x@y.z"), f("javascript:alert(1)"),
  f("custom-scheme://host:99/p"), f("HTTP://A.COM"),
]

// === url-relative-resolution
const base = "http://a/b/c/d;p?q"
const r = (s) => new URL(s, base).href
return [
  r("g"), r("./g"), r("g/"), r("/g"), r("//g"), r("?y"), r("g?y"), r("#s"), r("g#s"), r(";x"), r(""), r("."), r("./"), r(".."),
  r("../g"), r("../.."), r("../../g"), r("../../../g"), r("/./g"), r("g."), r(".g"), r("g.."), r("./../g"), r("g;x=1/./y"),
  new URL("x", new URL("http://h/dir/file")).href,
]

// === url-parse-normalization
const h = (s) => { try { return new URL(s).href } catch (e) { return e.code } }
return [
  h("http://EXAMPLE.com/%7Efoo"), h("http://example.com/a b"), h("http://example.com/ä?ö=ü#ß"), h("http://münchen.de/"),
  h("http://[::1]:3000/"), h("http://[2001:DB8::1]/"), h("http://192.168.0.1./"), h("http://0x7f.1/"), h("http://2130706433/"),
  h("  http://trim.me/  "), h("http://a.com\\b\\c"), h("http:\\\\a.com"), h("http://a.com/%zz"), h("HTTP://a.com:0080/"),
  h("http://a.com/?q=a b&c='d'"), h("http://a.com/#a b<c>"), h("http://a..b/"), h("http://a.com/\t\nx"),
]

// === url-invalid
const t = (f) => { try { return f() } catch (e) { return [e.name, String(e.code), e.message, String(e.input), String(e.base), Object.keys(e)] } }
return [
  t(() => new URL("nope")), t(() => new URL("/path")), t(() => new URL("http://")), t(() => new URL("http://a b.com")),
  t(() => new URL("http://[::1")), t(() => new URL("/x", "nope")), t(() => new URL("http://a.com:99999")),
  t(() => new URL("")), t(() => new URL()), t(() => URL("http://a")),
]

// === url-setters
const u = new URL("http://user:pw@x.com:8080/a/b?c=d#e")
const log = []
const set = (k, v) => { u[k] = v; log.push(u.href) }
set("protocol", "https")
set("username", "u@ser")
set("password", "p:w")
set("hostname", "EXAMPLE.org")
set("port", "443")
set("port", "8443")
set("pathname", "/z y/../w")
set("search", "q=a b")
set("hash", "frag ment")
set("host", "h.com:81")
set("search", "")
set("hash", "")
set("port", "")
return log

// === url-setters-ignored
const u = new URL("http://x.com/p")
const snap = []
const set = (k, v) => { u[k] = v; snap.push(u.href) }
set("protocol", "ftp")
set("protocol", "foo")
set("protocol", "1http")
set("port", "99999")
set("port", "12abc")
set("port", "abc")
set("hostname", "")
set("host", "")
const f = new URL("file:///tmp/a")
f.username = "a"
f.port = "1"
f.host = "h"
const m = new URL("mailto:a@b")
m.pathname = "c@d"
m.hostname = "x"
return [snap, f.href, m.href]

// === url-href-setter
const t = (f) => { try { return f() } catch (e) { return [e.name, e.code, e.input] } }
const u = new URL("http://a.com/?x=1")
const sp = u.searchParams
u.href = "https://b.org/p?y=2#h"
return [u.href, u.host, sp.get("y"), sp.get("x"), sp === u.searchParams, t(() => { u.href = "bad" }), u.href]

// === url-search-params-link
const u = new URL("http://x.com/p?a=1#h")
const sp = u.searchParams
sp.append("b", "2 3")
const h1 = u.href
sp.set("a", "é&=")
const h2 = u.href
sp.delete("a")
sp.delete("b")
const h3 = u.href
u.search = "?z=9&z=8"
const h4 = [sp.getAll("z"), sp.size]
u.search = ""
return [h1, h2, h3, u.search, h4, sp.size, u.href]

// === url-search-params-sort-link
const u = new URL("http://x/?c=3&a=1&b=2&a=0")
u.searchParams.sort()
const u2 = new URL("http://x/?")
u2.searchParams.sort()
const u3 = new URL("http://x/?a=%20b+c")
u3.searchParams.sort()
return [u.href, u2.href, u3.href, u3.searchParams.get("a")]

// === url-statics
return [
  URL.canParse("http://a"), URL.canParse("a"), URL.canParse("a", "http://b/"), URL.canParse("/x", "nope"),
  String(URL.parse("nope")), URL.parse("x", "http://h/d/").href, URL.parse("http://q") instanceof URL,
  (() => { try { URL.canParse() } catch (e) { return [e.name, e.code] } })(),
  URL.length, URL.canParse.length, URL.parse.length,
]

// === url-shape
const P = URL.prototype
const d = (k) => { const x = Object.getOwnPropertyDescriptor(P, k); return [k, typeof x.get, typeof x.set, typeof x.value, x.enumerable, x.configurable] }
return [
  ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "searchParams", "hash", "toString", "toJSON"].map(d),
  Object.prototype.toString.call(new URL("http://a")), Object.keys(new URL("http://a")), JSON.stringify({ u: new URL("http://a/b c") }),
  `${new URL("http://tpl/")}`, new URL("http://a") + "", typeof URL.prototype.constructor,
]

// === url-brand-checks
const t = (f) => { try { return f() } catch (e) { return [e.name, e.message] } }
const get = (k) => Object.getOwnPropertyDescriptor(URL.prototype, k).get
return [t(() => get("href").call({})), t(() => URL.prototype.toString.call({})), t(() => URL.prototype.toJSON.call(null))[0], t(() => get("searchParams").call({}))[0]]

// === url-constructor-coercion
const log = []
const input = { toString() { log.push("input"); return "path" } }
const base = { toString() { log.push("base"); return "http://base.com/dir/" } }
const u = new URL(input, base)
return [u.href, log, new URL(new URL("http://copy/")).href, new URL("http://a/", undefined).href]

// === url-subclass
class MyURL extends URL {
  get shout() { return this.hostname.toUpperCase() }
}
const m = new MyURL("http://quiet.org/x")
return [m.shout, m instanceof URL, m.href, m.searchParams.size, Object.prototype.toString.call(m)]

// === url-idna-and-ip
const f = (s) => { try { const u = new URL(s); return [u.hostname, u.host] } catch (e) { return e.code } }
return [
  f("http://xn--nxasmq6b.com/"), f("http://ÄÖÜ.de"), f("http://☃.net"), f("http://faß.de"), f("http://[::ffff:192.168.1.1]"),
  f("http://0300.0250.0.1/"), f("http://1.2.3.4.5/"), f("http://256.0.0.1/"), f("http://example.com./"), f("http://EXAMPLE.COM."),
]

// === url-special-characters-in-paths
const f = (s) => new URL(s).pathname
return [
  f("http://a/%2e%2E/b"), f("http://a/b/%2e/c"), f("http://a/ /x"), f("http://a/\"quote\""), f("http://a/<>`{}"), f("http://a/ü/€"),
  f("http://a/a%2fb"), f("http://a/.%2e/c"), f("http://a/x/.."), f("non-special:/a/../b"), f("non-special:opaque path"),
]

// === url-common-usage
const api = new URL("/v1/items", "https://api.example.com")
api.searchParams.set("limit", "10")
api.searchParams.set("q", "cats & dogs")
api.searchParams.append("tag", "a")
api.searchParams.append("tag", "b")
const parsed = new URL(api.href)
return [
  api.href, parsed.searchParams.get("q"), parsed.searchParams.getAll("tag"), Object.fromEntries(parsed.searchParams),
  [...parsed.searchParams.keys()], new URL("../up", api).href, api.pathname.split("/").filter(Boolean),
]

// === usp-constructor-forms
const f = (init) => new URLSearchParams(init).toString()
return [
  f(), f(""), f("?"), f("?a=1&b=2"), f("a=1&&b=&=c&d"), f("a=b=c"), f("%zz=%41&+x+=+y+"), f(undefined), f(null), f(5), f(true),
  f([["a", "1"], ["b", 2]]), f([new Set(["k", "v"])]), f({ a: 1, b: "x y", c: null, d: undefined, e: [1, 2] }),
  f(new Map([["m", "1"]])), f(new URLSearchParams("copy=1")), f(function () {}), f({ toString: "kept", valueOf: 1 }),
]

// === usp-constructor-errors
const t = (f) => { try { return f() } catch (e) { return [e.name, String(e.code), e.message] } }
return [
  t(() => new URLSearchParams([["a"]])), t(() => new URLSearchParams([["a", "b", "c"]])), t(() => new URLSearchParams([1])),
  t(() => new URLSearchParams([null])), t(() => new URLSearchParams({ [Symbol.iterator]: 1 })), t(() => URLSearchParams()),
  t(() => new URLSearchParams({ [Symbol("s")]: 1 })), t(() => new URLSearchParams(Symbol("s"))),
]

// === usp-record-conversions
const o = Object.create({ inherited: 1 })
o.own = "yes"
Object.defineProperty(o, "hidden", { value: 1, enumerable: false })
o[2] = "two"
o[1] = "one"
const withGetter = { get g() { return "got" } }
const dup = { "\ud800": "a", "\udc00": "b" }
return [new URLSearchParams(o).toString(), new URLSearchParams(withGetter).toString(), new URLSearchParams(dup).toString()]

// === usp-methods
const sp = new URLSearchParams("a=1&b=2&a=3")
const r = []
r.push(sp.get("a"), sp.get("zz"), sp.getAll("a"), sp.getAll("zz"), sp.has("b"), sp.has("zz"), sp.size)
sp.append("c", "4")
sp.append("a", "5")
r.push(sp.toString())
sp.set("a", "x")
r.push(sp.toString())
sp.delete("b")
r.push(sp.toString(), sp.size)
sp.set("new", "n")
r.push(sp.toString())
return r

// === usp-has-delete-with-value
const sp = new URLSearchParams("a=1&a=2&b=1&a=1")
const r = [sp.has("a", "2"), sp.has("a", "3"), sp.has("a", undefined), sp.has("b", 1)]
sp.delete("a", "1")
r.push(sp.toString())
sp.delete("a", undefined)
r.push(sp.toString())
return r

// === usp-serialization
const sp = new URLSearchParams()
const chars = " !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~é€𝄞\u0000\t\n"
sp.append(chars, chars)
sp.append("lone", "\ud800x")
return [sp.toString(), sp.get(chars) === chars, sp.get("lone").charCodeAt(0), new URLSearchParams(sp.toString()).get(chars) === chars]

// === usp-parsing-edge-cases
const sp = new URLSearchParams("a=%2B+%20%2&b=%E2%82%AC&c=%C3&d=%%&e=%41%42&&f")
return [...sp].map(([k, v]) => [k, v, v.length])

// === usp-sort-stability
const sp = new URLSearchParams("z=1&a=2&z=0&\ud83d\ude00=e&\uff61=f&a=1&B=b")
sp.sort()
return sp.toString()

// === usp-iteration
const sp = new URLSearchParams("x=1&y=2&x=3")
const it = sp.entries()
return [
  [...sp], [...sp.keys()], [...sp.values()], [...sp.entries()], Array.from(sp), Object.fromEntries(sp),
  Object.prototype.toString.call(it), it.next(), typeof it[Symbol.iterator], sp[Symbol.iterator] === sp.entries,
  it[Symbol.iterator]() === it,
]

// === usp-live-iterator
const sp = new URLSearchParams("a=1")
const it = sp.keys()
const r1 = it.next()
const r2 = it.next()
sp.append("b", "2")
const r3 = it.next()
const it2 = sp.values()
it2.next()
sp.delete("a")
const r4 = it2.next()
return [r1, { done: r2.done, value: String(r2.value) }, r3, { done: r4.done, value: String(r4.value) }]

// === usp-forEach
const sp = new URLSearchParams("a=1&b=2")
const out = []
sp.forEach(function (v, k, o) {
  out.push([k, v, o === sp, this === undefined ? "u" : this.tag])
  if (k === "a") sp.append("c", "3")
}, { tag: "T" })
const t = (f) => { try { return f() } catch (e) { return [e.name, e.code, e.message] } }
return [out, t(() => sp.forEach(1)), t(() => sp.forEach()), String(sp.forEach(() => 0))]

// === usp-missing-args-and-brand
const t = (f) => { try { return f() } catch (e) { return [e.name, e.code, e.message] } }
const sp = new URLSearchParams()
return [
  t(() => sp.append("a")), t(() => sp.set()), t(() => sp.get()), t(() => sp.getAll()), t(() => sp.has()), t(() => sp.delete()),
  t(() => URLSearchParams.prototype.get.call({}, "a")), t(() => URLSearchParams.prototype.toString.call(1)),
  t(() => sp.keys().next.call({})), t(() => Object.getOwnPropertyDescriptor(URLSearchParams.prototype, "size").get.call({})),
]

// === usp-coercions
const sp = new URLSearchParams()
sp.append(1, 2)
sp.append(null, undefined)
sp.append({ toString() { return "obj" } }, [1, 2])
sp.set(true, false)
return [sp.toString(), sp.get(1), sp.get("null"), sp.get({ toString() { return "obj" } }), sp.has(true)]

// === usp-shape
const P = URLSearchParams.prototype
return [
  Object.getOwnPropertyNames(P).sort(), Object.keys(P), URLSearchParams.length, P.append.length, P.delete.length, P.forEach.length,
  Object.prototype.toString.call(new URLSearchParams()), `${new URLSearchParams({ a: "b c" })}`, JSON.stringify(new URLSearchParams("a=1")),
  Object.keys(new URLSearchParams("a=1")),
]

// === usp-size
const sp = new URLSearchParams("a=1&a=2&b")
const r = [sp.size]
sp.append("c", "")
r.push(sp.size)
sp.delete("a")
r.push(sp.size)
return r

// === usp-subclass
class Query extends URLSearchParams {
  toObject() { return Object.fromEntries(this) }
}
const q = new Query({ a: "1", b: "2" })
q.append("c", "3")
return [q.toObject(), q instanceof URLSearchParams, q.toString(), Object.prototype.toString.call(q)]

// === url-searchparams-identity
const u = new URL("http://x/?a=1")
const a = u.searchParams
const b = u.searchParams
u.searchParams.append("b", "2")
u.hash = "h"
return [a === b, u.href, a.toString(), u.searchParams.size]

// === url-search-setter-updates-params
const u = new URL("http://x/")
const sp = u.searchParams
const r = [sp.size]
u.search = "a=1&b=2"
r.push(sp.size, sp.get("b"))
u.href = "http://y/?c=3"
r.push(sp.toString())
u.search = "?"
r.push(sp.size, u.href)
return r

// === url-non-special-and-opaque
const f = (s) => { const u = new URL(s); return [u.href, u.protocol, u.host, u.pathname, u.search, u.hash, u.origin] }
return [f("foo://bar/baz?q#h"), f("urn:isbn:0451450523"), f("sc:a b?c d#e f"), f("about:blank"), f("foo:/only/path"), f("foo://"), f("foo:///x")]

// === url-opaque-path-trailing-space
const u = new URL("sc:opaque path ?query#frag")
const a = u.href
u.hash = ""
const b = u.href
u.search = ""
return [a, b, u.href, u.pathname]

// === url-file-urls
const f = (s, b) => new URL(s, b).href
return [
  f("file:///C:/dir/file.txt"), f("file://host/share/x"), f("file:/no/slashes"), f("file:c:/x"), f("../up", "file:///a/b/c"),
  f("file:///a/../../b"), f("file://localhost/etc"), new URL("file:///x").origin,
]

// === url-credentials
const u = new URL("http://a.com/")
u.username = "user name"
u.password = "p@ss:w/rd"
const a = u.href
u.username = ""
const b = u.href
u.password = ""
return [a, b, u.href, new URL("http://:pw@h/").href, new URL("http://u:@h/").href, new URL("http://@h/").href]

// === url-port-edge-cases
const f = (s) => { try { const u = new URL(s); return [u.port, u.host] } catch (e) { return e.code } }
const u = new URL("http://h/")
u.port = "8080abc"
const a = u.port
u.port = 80
const b = u.port
u.port = "65535"
const c = u.port
u.port = "-1"
return [f("http://h:0/"), f("http://h:65535/"), f("http://h:65536/"), f("http://h:/"), f("http://h:08/"), a, b, c, u.port]

// === url-toString-in-collections
const set = new Set([new URL("http://a/").href, new URL("HTTP://A:80/").href])
const m = new Map([[String(new URL("http://k/")), 1]])
return [set.size, m.get("http://k/"), [new URL("http://b/"), new URL("http://a/")].map(String).sort()]
