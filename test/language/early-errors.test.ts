import { readFileSync } from "node:fs"
import vm from "node:vm"
import { describe, expect, it } from "vitest"
import { checkProgram } from "../../src/language/index.ts"

const diagnose = (source: string) => {
  const result = checkProgram(source)
  return result.ok ? "ok" : result.diagnostic
}

describe("early errors checked by codemode", () => {
  it("new.target outside functions", () => {
    expect(diagnose("const t = new.target")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 11,
          "line": 1,
        },
        "message": "new.target expression is not allowed here",
      }
    `)
    expect(diagnose("const f = () => new.target")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 17,
          "line": 1,
        },
        "message": "new.target expression is not allowed here",
      }
    `)
    expect(diagnose("class A { [new.target] = 1 }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 12,
          "line": 1,
        },
        "message": "new.target expression is not allowed here",
      }
    `)
    expect(diagnose("function f() { return () => new.target }")).toBe("ok")
    expect(diagnose("class A { x = new.target; static { new.target } m() { new.target } }")).toBe("ok")
    expect(diagnose("const o = { m() { return new.target } }")).toBe("ok")
  })

  it("delete of a private reference through an optional chain", () => {
    expect(diagnose("class A { #x; m() { delete this?.#x } }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 34,
          "line": 1,
        },
        "message": "Private fields can not be deleted",
      }
    `)
    expect(diagnose("class A { #x; m(a) {\n  delete a?.b.#x } }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 15,
          "line": 2,
        },
        "message": "Private fields can not be deleted",
      }
    `)
    expect(diagnose("class A { #x; m(a) { delete a?.#x.y } }")).toBe("ok")
  })

  it("var/lexical conflicts in class static blocks", () => {
    expect(diagnose("x = class { static { var x; let x } }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 33,
          "line": 1,
        },
        "message": "Identifier 'x' has already been declared",
      }
    `)
    expect(diagnose("x = class { static {\n  let x\n  { var x }\n} }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 9,
          "line": 3,
        },
        "message": "Identifier 'x' has already been declared",
      }
    `)
    expect(diagnose("x = class { static { function f() {} class f {} } }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 44,
          "line": 1,
        },
        "message": "Identifier 'f' has already been declared",
      }
    `)
    expect(diagnose("x = class { static { let f; function f() {} } }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 38,
          "line": 1,
        },
        "message": "Identifier 'f' has already been declared",
      }
    `)
    expect(diagnose("x = class { static { var x; { let x } } static { let x } }")).toBe("ok")
    expect(diagnose("x = class { static { for (var i of []); try {} catch { var e } let j } }")).toBe("ok")
  })

  it("escaped in / instanceof operators", () => {
    expect(diagnose("x = a \\u0069n b")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 7,
          "line": 1,
        },
        "message": "Keyword must not contain escaped characters",
      }
    `)
    expect(diagnose("x = (a) /* \\u */ \\u0069nstanceof (b)")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 18,
          "line": 1,
        },
        "message": "Keyword must not contain escaped characters",
      }
    `)
    expect(diagnose("for (x \\u0069n y);")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 8,
          "line": 1,
        },
        "message": "Keyword must not contain escaped characters",
      }
    `)
    expect(diagnose("x = (a) /* \\u0069n */ in b")).toBe("ok")
  })

  it("escaped yield as an identifier where yield is a keyword", () => {
    expect(diagnose("function* g() { var yi\\u0065ld }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 21,
          "line": 1,
        },
        "message": "Keyword must not contain escaped characters",
      }
    `)
    expect(diagnose("function* g() { function yi\\u0065ld() {} }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 26,
          "line": 1,
        },
        "message": "Keyword must not contain escaped characters",
      }
    `)
    expect(diagnose("function* g(a = yi\\u0065ld) {}")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 17,
          "line": 1,
        },
        "message": "Keyword must not contain escaped characters",
      }
    `)
    expect(diagnose("function* g() { function f() { yi\\u0065ld } }")).toBe("ok")
    expect(diagnose("function* g() { x = function yi\\u0065ld() {} }")).toBe("ok")
    expect(diagnose("function* g() { () => yi\\u0065ld; o.yi\\u0065ld; ({ yi\\u0065ld: 1 }) }")).toBe("ok")
    expect(diagnose("var yi\\u0065ld = 1")).toBe("ok")
  })
})

describe("early errors agree with V8", () => {
  // Snippets collected while checking which early errors meriyah misses. V8 compiles each as the body of an async
  // function, as codemode does; a verdict that differs must be listed below with the reason.
  const cases = readFileSync(new URL("./fixtures/early-errors.txt", import.meta.url), "utf8")
    .split("\n%%\n")
    .map((entry) => entry.replace(/\n+$/, ""))
    .filter((entry) => entry.length > 0)

  const KNOWN: Record<string, string> = {
    "new.target": "V8 sees it inside the wrapper function; a script or module rejects it, and so does codemode",
    "class A { [new.target] = 1 }": "as above: a computed key is evaluated in the enclosing scope",
    "new.target?.x": "as above",
    "new.target`x`": "as above",
    "a => new.target": "as above",
    "new.target; function f(){ new.target }": "as above",
    "() => new.target": "as above",
    "function f(){ 'use strict' } 010": "meriyah lexes the token after a strict body in strict mode",
    "function f(){ 'use strict' }\n010": "as above",
    "function f(){ 'use strict' } \"\\01\"": "as above",
    "function f(){ 'use strict'; 1 } 010": "as above",
    "function f(){ 'use strict'; return } 010": "as above",
    "class A {} 010": "as above",
    "class A {}\n010": "as above",
    "class A { static { var x; function x() {} } }": "meriyah scopes a static block's functions lexically",
    "class A { static { function x() {} var x } }": "as above",
    "class A { static { function x() {} function x() {} } }": "as above",
    "class A { static { function x() {} { var x } } }": "as above",
    "let x; class A { static { var x } }": "meriyah lets a static block's var leak into the enclosing scope",
    "function f(){ let x; class A { static { var x } } }": "as above",
    "class A { static { var x } }; let x": "as above",
    "let x; class A { static { { var x } } }": "as above",
    "let x; class A { static { for (var x of []); } }": "as above",
    "'use strict'; f() = 1": "spec early error in strict code; V8 defers it to a run-time ReferenceError",
    "x = async function(){ for \\u0061wait (x of y); }": "V8 accepts an escaped contextual keyword the spec forbids",
    "for \\u0061wait (x of y);": "as above",
    "usin\\u0067 x = y": "as above",
    "\\u0061wait using x = y": "as above",
    "await usin\\u0067 x = y": "as above",
  }

  const v8Accepts = (source: string): boolean => {
    try {
      new vm.Script(`(async function () {${source}\n})`)
      return true
    } catch {
      return false
    }
  }

  it(`${cases.length} snippets: rejected exactly when V8 rejects, or UnsupportedSyntax`, () => {
    const disagreements: string[] = []
    for (const source of cases) {
      const ours = checkProgram(source)
      const v8 = v8Accepts(source)
      const agrees = ours.ok ? v8 : !v8 || ours.diagnostic.kind === "UnsupportedSyntax"
      if (agrees === (source in KNOWN)) {
        disagreements.push(`${JSON.stringify(source)}: V8 ${v8 ? "accepts" : "rejects"}, codemode ${ours.ok ? "accepts" : ours.diagnostic.message}`)
      }
    }
    expect(disagreements).toEqual([])
  })
})
