import { describe, expect, it } from "vitest"
import { checkProgram } from "../../src/language/index.ts"

const diagnose = (source: string) => {
  const result = checkProgram(source)
  return result.ok ? "ok" : result.diagnostic
}

describe("UnsupportedSyntax", () => {
  it("with", () => {
    expect(diagnose("const a = {}\n  with (a) { b }")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 3,
          "line": 2,
        },
        "message": "\`with\` statements are not supported",
      }
    `)
  })

  it("debugger", () => {
    expect(diagnose("if (x) {\n  debugger\n}")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 3,
          "line": 2,
        },
        "message": "\`debugger\` statements are not supported",
      }
    `)
  })

  it("import declarations in every form are programs (language/modules.ts), but not inside a block or with a phase or attributes", () => {
    for (const source of [
      "import x from 'y'",
      "const a = 1\n  import { b } from 'c'",
      "import * as ns from 'y'",
      "import 'side-effect'",
      "import /* comment */ x from 'y'",
      "import d, * as ns from 'y'; import { 'x-y' as z, default as w } from \"node:y\"",
    ]) {
      expect(diagnose(source)).toBe("ok")
    }
    expect(diagnose("{ import x from 'y' }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 3,
          "line": 1,
        },
        "message": "An import declaration may only appear at the top level of a program",
      }
    `)
    expect(diagnose("import source x from 'y'")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "\`import source\` declarations are not supported",
      }
    `)
    expect(diagnose("import x from 'y' with { type: 'json' }")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 26,
          "line": 1,
        },
        "message": "import attributes are not supported",
      }
    `)
  })

  it("export declarations", () => {
    expect(diagnose("export const a = 1")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "\`export\` declarations are not supported",
      }
    `)
    expect(diagnose("x\nexport default 1")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 2,
        },
        "message": "\`export\` declarations are not supported",
      }
    `)
    expect(diagnose("export { a }")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "\`export\` declarations are not supported",
      }
    `)
  })

  it("import.meta", () => {
    expect(diagnose("const u = import.meta.url")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 11,
          "line": 1,
        },
        "message": "\`import.meta\` is not supported",
      }
    `)
  })

  it("decorators and accessor fields", () => {
    expect(diagnose("@sealed class A {}")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "decorators are not supported",
      }
    `)
    expect(diagnose("class A {\n  @log m() {}\n}")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 3,
          "line": 2,
        },
        "message": "decorators are not supported",
      }
    `)
    expect(diagnose("class A {\n  accessor x = 1\n}")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 3,
          "line": 2,
        },
        "message": "\`accessor\` class fields are not supported",
      }
    `)
  })

  it("import phases", () => {
    expect(diagnose("const m = await import.source('x')")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 17,
          "line": 1,
        },
        "message": "\`import.source()\` is not supported",
      }
    `)
    expect(diagnose("const m = await import.defer('x')")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 17,
          "line": 1,
        },
        "message": "\`import.defer()\` is not supported",
      }
    `)
  })

  it("reports the construct earliest in the source when there are several", () => {
    expect(diagnose("debugger\nwith (a) {}")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "\`debugger\` statements are not supported",
      }
    `)
    expect(diagnose("with (a) {}\nnew.target")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "\`with\` statements are not supported",
      }
    `)
    expect(diagnose("new.target\nwith (a) {}")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "new.target expression is not allowed here",
      }
    `)
  })

  it("leaves eval, new Function and HTML comments alone", () => {
    expect(diagnose("eval('x')\nnew Function('a', 'return a')\nx = 1 <!-- html comment\n--> also a comment")).toBe("ok")
  })
})
