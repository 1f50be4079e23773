// TextEncoder, TextDecoder, atob/btoa and DOMException, as Node provides them. In the oracle these globals are
// Node's own (host-realm) objects, so results are compared through names and Array.from, never instanceof.

// === encoder-basics
const e = new TextEncoder()
const bytes = e.encode("héllo €𝄞")
return [
  e.encoding, Array.from(bytes), bytes.length, bytes.constructor.name, Object.prototype.toString.call(bytes),
  bytes.byteOffset, bytes.buffer.byteLength, Object.prototype.toString.call(e), TextEncoder.length,
]

// === encoder-coercions-and-surrogates
const e = new TextEncoder()
return [
  e.encode().length, e.encode(undefined).length, Array.from(e.encode(null)), Array.from(e.encode(12.5)),
  Array.from(e.encode({ toString() { return "ok" } })), Array.from(e.encode("\ud800")), Array.from(e.encode("a\udc00b")),
  Array.from(e.encode("\ud83d\ude00")), Array.from(e.encode("\0")),
  (() => { try { e.encode(Symbol()) } catch (err) { return err.name } })(),
]

// === encoder-encodeInto
const e = new TextEncoder()
const small = new Uint8Array(5)
const r1 = e.encodeInto("héllo", small)
const r2 = e.encodeInto("€€", new Uint8Array(4))
const r3 = e.encodeInto("𝄞x", new Uint8Array(3))
const r4 = e.encodeInto("", new Uint8Array(2))
const big = new Uint8Array(10)
const r5 = e.encodeInto("a\ud800b", big.subarray(2))
return [r1, Array.from(small), r2, r3, r4, r5, Array.from(big)]

// === encoder-errors
const t = (f) => { try { return f() } catch (e) { return [e.name, String(e.code), e.message] } }
const e = new TextEncoder()
return [
  t(() => e.encodeInto("x", [])), t(() => e.encodeInto("x", new Uint16Array(2))), t(() => e.encodeInto(5, new Uint8Array(2))),
  t(() => TextEncoder.prototype.encode.call({}, "x")), t(() => TextEncoder()),
  t(() => Object.getOwnPropertyDescriptor(TextEncoder.prototype, "encoding").get.call({})),
]

// === decoder-utf8
const d = new TextDecoder()
const u = (...b) => new Uint8Array(b)
return [
  d.encoding, d.fatal, d.ignoreBOM,
  d.decode(u(0x68, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9d, 0x84, 0x9e)),
  d.decode(u(0xef, 0xbb, 0xbf, 0x41)),
  d.decode(u(0xff, 0x41, 0xc3)),
  d.decode(u(0xe0, 0x80, 0x41)),
  d.decode(u(0xed, 0xa0, 0x80)),
  d.decode(u(0xf4, 0x90, 0x80, 0x80)),
  d.decode(u(0xc0, 0xaf)),
  d.decode(u(0xe2, 0x28, 0xa1)),
  d.decode(), d.decode(undefined), d.decode(u()),
]

// === decoder-buffer-sources
const d = new TextDecoder()
const bytes = new TextEncoder().encode("abcdef")
return [
  d.decode(bytes.buffer), d.decode(bytes.subarray(2, 4)), d.decode(new DataView(bytes.buffer, 1, 2)),
  d.decode(new Uint16Array([0x6968])), d.decode(new Int8Array([104, 105])), d.decode(new Float32Array(0)),
]

// === decoder-bom-and-ignoreBOM
const bom = new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])
const a = new TextDecoder("utf-8").decode(bom)
const b = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bom)
const c = new TextDecoder("utf-16le").decode(new Uint8Array([0xff, 0xfe, 0x68, 0]))
const dd = new TextDecoder("utf-16be").decode(new Uint8Array([0xfe, 0xff, 0, 0x68]))
const e = new TextDecoder("utf-8").decode(new Uint8Array([0xfe, 0xff, 0, 0x68]))
return [a, a.length, b.length, b.charCodeAt(0), c, dd, e]

// === decoder-fatal
const t = (f) => { try { return f() } catch (e) { return [e.name, String(e.code), e.message] } }
const d = new TextDecoder("utf-8", { fatal: true })
return [
  d.fatal, d.decode(new Uint8Array([0x68, 0x69])),
  t(() => d.decode(new Uint8Array([0xff]))), t(() => d.decode(new Uint8Array([0xe2, 0x82]))),
  t(() => new TextDecoder("utf-16le", { fatal: true }).decode(new Uint8Array([0x00, 0xd8]))),
  d.decode(new Uint8Array([0x41])),
]

// === decoder-streaming
const d = new TextDecoder()
const euro = [0xe2, 0x82, 0xac]
const parts = [d.decode(new Uint8Array(euro.slice(0, 1)), { stream: true }), d.decode(new Uint8Array(euro.slice(1)), { stream: true }), d.decode()]
const e = new TextDecoder()
const p2 = [e.decode(new Uint8Array([0xf0, 0x9f]), { stream: true }), e.decode(new Uint8Array([0x98]), { stream: true }), e.decode(new Uint8Array([0x80, 0x21]))]
const f = new TextDecoder()
const p3 = [f.decode(new Uint8Array([0xe2]), { stream: true }), f.decode(new Uint8Array([0x41]))]
const g = new TextDecoder()
const p4 = [g.decode(new Uint8Array([0xef, 0xbb]), { stream: true }), g.decode(new Uint8Array([0xbf, 0x41]), { stream: true }), g.decode(new Uint8Array([0xef, 0xbb, 0xbf]))]
const h = new TextDecoder("utf-16le")
const p5 = [h.decode(new Uint8Array([0x68]), { stream: true }), h.decode(new Uint8Array([0]), { stream: true }), h.decode(new Uint8Array([0x3d, 0xd8]), { stream: true }), h.decode(new Uint8Array([0x00, 0xde]))]
return [parts, p2, p3, p4, p5]

// === decoder-labels
const t = (f) => { try { return f() } catch (e) { return [e.name, String(e.code), e.message] } }
const enc = (l) => t(() => new TextDecoder(l).encoding)
return [
  enc("utf8"), enc(" UTF-8 "), enc("unicode-1-1-utf-8"), enc("utf-16"), enc("UTF-16LE"), enc("utf-16be"), enc("latin1"),
  enc("ascii"), enc("iso-8859-1"), enc("us-ascii"), enc("windows-1252"), enc(undefined), enc("foo"), enc(""), enc("utf-32"),
]

// === decoder-windows-1252
const d = new TextDecoder("latin1")
const all = new Uint8Array(256)
for (let i = 0; i < 256; i++) all[i] = i
const s = d.decode(all)
return [s.length, Array.from(s.slice(0x7e, 0xa2), (c) => c.charCodeAt(0)), new TextDecoder("ascii").decode(new Uint8Array([0x41, 0x80, 0xff]))]

// === decoder-utf16
const le = new TextDecoder("utf-16le")
const be = new TextDecoder("utf-16be")
return [
  le.decode(new Uint8Array([0x68, 0, 0x69, 0, 0x3d, 0xd8, 0x00, 0xde])),
  be.decode(new Uint8Array([0, 0x68, 0xd8, 0x3d, 0xde, 0x00])),
  le.decode(new Uint8Array([0x00, 0xdc, 0x41, 0])),
  le.decode(new Uint8Array([0x00, 0xd8, 0x41, 0])),
  le.decode(new Uint8Array([0x41])),
  le.decode(new Uint16Array([0x68, 0x20ac]).buffer),
]

// === decoder-options-and-errors
const t = (f) => { try { return f() } catch (e) { return [e.name, String(e.code), e.message] } }
return [
  t(() => new TextDecoder("utf-8", 5)), t(() => new TextDecoder("utf-8", null).fatal), t(() => new TextDecoder("utf-8", { fatal: 1, ignoreBOM: "" }).fatal),
  t(() => new TextDecoder().decode("abc")), t(() => new TextDecoder().decode([1, 2])), t(() => new TextDecoder().decode(null)),
  t(() => new TextDecoder().decode(new Uint8Array([104]), 5)), t(() => new TextDecoder().decode(new Uint8Array([104]), null)),
  t(() => TextDecoder.prototype.decode.call({})), t(() => TextDecoder()),
  Object.prototype.toString.call(new TextDecoder()), TextDecoder.length,
]

// === roundtrip-utf8
const s = "Grüße, 世界! 🌍 \u0000 end"
const bytes = new TextEncoder().encode(s)
const back = new TextDecoder().decode(bytes)
const chunks = []
const d = new TextDecoder()
for (let i = 0; i < bytes.length; i += 3) chunks.push(d.decode(bytes.subarray(i, i + 3), { stream: true }))
chunks.push(d.decode())
return [back === s, bytes.length, chunks.join("") === s, chunks.length]

// === atob-btoa-basics
return [
  btoa("Hello, World!"), atob("SGVsbG8sIFdvcmxkIQ=="), btoa(""), atob(""), btoa("\u00ff\u00fe\u0000"),
  Array.from(atob("/+8A"), (c) => c.charCodeAt(0)), btoa(String.fromCharCode(...Array.from({ length: 10 }, (_, i) => i * 25))),
  atob(" SGVs\nbG8=\t"), atob("SGVsbG8"), atob("SGVsbA"), btoa(12345), btoa(null), btoa(undefined), atob(null),
  atob.length, btoa.length, atob.name,
]

// === atob-errors
const t = (f) => { try { return f() } catch (e) { return [e.name, e.code, e.message, e.constructor.name] } }
return [
  t(() => atob("S")), t(() => atob("SGVsbG8==")), t(() => atob("a=b=")), t(() => atob("-_")), t(() => atob("AB=C")), t(() => atob("====")),
  t(() => atob("ab\u00e9")), t(() => atob(undefined)), t(() => atob()), t(() => btoa("\u0100")), t(() => btoa("€")), t(() => btoa()),
  t(() => atob("QQ=")), t(() => atob("QQ==")), t(() => atob("QUI=")),
]

// === atob-error-uncaught
return atob("%")

// === domexception-basics
const e = new DOMException("msg", "DataCloneError")
const f = new DOMException()
const g = new DOMException("x", { name: "AbortError", cause: 1 })
const h = new DOMException(null, null)
const i = new DOMException("m", "Custom")
return [
  [e.name, e.message, e.code, String(e), Object.prototype.toString.call(e), Object.keys(e).length, typeof e.stack, e.stack.split("\n")[0]],
  [f.name, f.message, f.code], [g.name, g.code, g.cause], [h.name, h.message], [i.name, i.code],
  DOMException.length, DOMException.name, DOMException.DATA_CLONE_ERR, DOMException.INVALID_CHARACTER_ERR, e.ABORT_ERR,
  JSON.stringify(e), Object.getOwnPropertyNames(e),
]

// === domexception-shape
const t = (f) => { try { return f() } catch (e) { return [e.name, String(e.code), e.message] } }
const P = DOMException.prototype
const d = (o, k) => { const x = Object.getOwnPropertyDescriptor(o, k); return [typeof x.get, typeof x.value, x.enumerable, x.configurable, String(x.writable)] }
return [
  d(P, "name"), d(P, "message"), d(P, "code"), d(DOMException, "INDEX_SIZE_ERR"), d(P, "TIMEOUT_ERR"),
  Object.getOwnPropertyNames(P).filter((k) => k.endsWith("_ERR")).length,
  t(() => DOMException()), t(() => Object.getOwnPropertyDescriptor(P, "name").get.call({})),
  (() => { "use strict"; const e = new DOMException("m", "SyntaxError"); try { e.name = "x" } catch (err) { return [err.name, e.name] } return e.name })(),
]

// === domexception-subclass-and-catch
class Mine extends DOMException {
  constructor(m) { super(m, "NotFoundError") }
}
const m = new Mine("gone")
let caught
try { atob("*") } catch (e) { caught = [e.name, e.code, e.message, e instanceof DOMException, typeof e.stack] }
return [m.name, m.code, m.message, m instanceof DOMException, m.constructor.name, caught]

// === web-globals-shape
const names = ["URL", "URLSearchParams", "TextEncoder", "TextDecoder", "Headers", "DOMException", "atob", "btoa", "structuredClone"]
return names.map((n) => {
  const d = Object.getOwnPropertyDescriptor(globalThis, n)
  return [n, typeof d.value, d.writable, d.enumerable, d.configurable, d.value.name, d.value.length]
})
