// Global value and function properties: NaN/Infinity/undefined, parseInt/parseFloat, isNaN/isFinite, the URI
// functions and their URIErrors, escape/unescape, globalThis, and eval of non-strings.

// === global-values
const d = Object.getOwnPropertyDescriptor(globalThis, "NaN")
return [String(NaN), String(Infinity), typeof undefined, d.writable, d.enumerable, d.configurable, String(globalThis.undefined)]

// === global-values-readonly
"use strict"
const out = []
for (const f of [() => { NaN = 1 }, () => { Infinity = 1 }, () => { undefined = 1 }]) {
  try {
    f()
    out.push("ok")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === parse-int
return [parseInt("42"), parseInt("  -17px"), parseInt("0x1F"), parseInt("1F", 16), parseInt("111", 2), parseInt("z", 36), String(parseInt("")), String(parseInt("abc")), parseInt("12", 1) + "", parseInt("12", 37) + "", parseInt(0.0000005), parseInt("9".repeat(20)), parseInt("-0") === 0, Object.is(parseInt("-0"), -0)]

// === parse-int-radix-coercion
return [parseInt("10", "16"), parseInt("10", 16.9), parseInt("10", 0), parseInt("10", -1) + "", parseInt("10", { valueOf: () => 8 }), parseInt({ toString: () => "77" })]

// === parse-float
return [parseFloat("3.14abc"), parseFloat("  -.5"), parseFloat("1e3"), parseFloat("Infinityx") + "", String(parseFloat("x")), parseFloat("0x10"), parseFloat("1.2.3"), Object.is(parseFloat("-0"), -0)]

// === is-nan-is-finite
return [isNaN(NaN), isNaN("abc"), isNaN("12"), isNaN(undefined), isNaN(null), isNaN({}), isFinite("12"), isFinite(Infinity), isFinite(null), isFinite("1e400")]

// === is-nan-symbol-throws
return isNaN(Symbol("x"))

// === encode-uri
const s = "https://ex.com/a b?q=ü&x=1#frag ment/[]"
return [encodeURI(s), encodeURIComponent(s), encodeURIComponent("😀"), encodeURI("-_.!~*'()"), encodeURIComponent(";/?:@&=+$,#")]

// === decode-uri
return [decodeURI("a%20b%2Fc"), decodeURIComponent("a%20b%2Fc"), decodeURIComponent("%F0%9F%98%80"), decodeURI("%3B%2F%3F"), decodeURIComponent("%e2%82%ac")]

// === uri-errors
const out = []
for (const f of [() => decodeURIComponent("%"), () => decodeURIComponent("%zz"), () => decodeURI("%E0%A4%A"), () => encodeURIComponent("\ud800"), () => encodeURI("\udc00x"), () => decodeURIComponent("%C0%80")]) {
  try {
    f()
    out.push("ok")
  } catch (e) {
    out.push(e.name, e.message, e instanceof URIError)
  }
}
return out

// === uri-error-uncaught
return decodeURIComponent("%E0%A4%A")

// === uri-coercion
return [encodeURIComponent(123), encodeURIComponent(null), encodeURIComponent({ toString: () => "a b" }), decodeURIComponent(undefined)]

// === escape-unescape
return [escape("a b+c/ü€@*_-."), unescape("%41%u0042%zz%"), unescape(escape("héllo wörld ☃"))]

// === global-this
return [typeof globalThis, globalThis.globalThis === globalThis, globalThis.Array === Array, typeof globalThis.JSON, "parseInt" in globalThis, Object.getOwnPropertyDescriptor(globalThis, "globalThis").enumerable]

// === eval-non-string
const indirect = eval
return [indirect(5), indirect(null), typeof indirect({ a: 1 }), eval.length, eval.name]

// === global-function-lengths
return [parseInt.length, parseFloat.length, isNaN.length, isFinite.length, encodeURI.length, decodeURIComponent.length, escape.length, parseInt.name]

// === global-functions-not-constructors
const out = []
for (const f of [parseInt, isNaN, encodeURI]) {
  try {
    new f("1")
    out.push("constructed")
  } catch (e) {
    out.push(e.name)
  }
}
return out

// === number-parse-aliases
return [Number.parseInt === parseInt, Number.parseFloat === parseFloat]
