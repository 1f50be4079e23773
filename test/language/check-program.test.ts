import { describe, expect, it } from "vitest"
import type { ESTree } from "meriyah"
import { checkProgram } from "../../src/language/index.ts"
import { forEachNode } from "../../src/language/walk.ts"

const diagnose = (source: string) => {
  const result = checkProgram(source)
  return result.ok ? "ok" : result.diagnostic
}

const program = (source: string) => {
  const result = checkProgram(source)
  if (!result.ok) throw new Error(`expected ${JSON.stringify(source)} to check: ${result.diagnostic.message}`)
  return result.program
}

describe("program body", () => {
  it("returns the wrapper's statements as the Program body", () => {
    const { ast, source } = program("1+1")
    expect(ast.type).toBe("Program")
    expect(ast.sourceType).toBe("script")
    expect(ast.body).toHaveLength(1)
    expect(ast.body[0]?.type).toBe("ExpressionStatement")
    expect(ast.range).toEqual([0, 3])
    expect(source).toBe("1+1")
  })

  it("accepts top-level await, return and for await", () => {
    expect(diagnose("const a = await f()\nfor await (const x of a) {}\nreturn a")).toBe("ok")
    expect(program("return").ast.body[0]?.type).toBe("ReturnStatement")
  })

  it("rejects yield and await misuse as meriyah does", () => {
    expect(diagnose("yield 1")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 7,
          "line": 1,
        },
        "message": "Unexpected token: 'number'",
      }
    `)
    expect(diagnose("function f() { await g() }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 22,
          "line": 1,
        },
        "message": "Unexpected token: 'identifier'",
      }
    `)
    expect(diagnose("var await = 1")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 1,
        },
        "message": "cannot use "await" as identifier inside an async function",
      }
    `)
  })

  it("keeps script early errors at the top level", () => {
    expect(diagnose("let x\nvar x")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 2,
        },
        "message": "Duplicate binding 'x'",
      }
    `)
    expect(diagnose("let x\nlet x")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 2,
        },
        "message": "Duplicate binding 'x'",
      }
    `)
    expect(diagnose("const x")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 8,
          "line": 1,
        },
        "message": "Missing initializer in const declaration",
      }
    `)
    expect(diagnose("break L")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 7,
          "line": 1,
        },
        "message": "Undefined label 'L'",
      }
    `)
    expect(diagnose("L: { for (;;) continue L }")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 24,
          "line": 1,
        },
        "message": "Label 'L' does not denote an iteration statement",
      }
    `)
  })

  it("reads strictness from the directive prologue", () => {
    expect(program("'use strict'; x").strict).toBe(true)
    expect(program('// header\n"use strict"\nx').strict).toBe(true)
    expect(program("'a'; 'use strict'; x").strict).toBe(true)
    expect(program("x; 'use strict'").strict).toBe(false)
    expect(program("'use\\x20strict'; x").strict).toBe(false)
    expect(program("function f() { 'use strict' }").strict).toBe(false)
  })

  it("applies a top-level 'use strict' to parsing", () => {
    expect(diagnose("'use strict'\nx = 010")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 2,
        },
        "message": "Octal escape sequences are not allowed in strict mode",
      }
    `)
    expect(diagnose("'use strict'\nwith (a) {}")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 6,
          "line": 2,
        },
        "message": "Strict mode code may not include a with statement",
      }
    `)
    expect(diagnose("x = 010")).toBe("ok")
  })

  it("does not treat eval or new Function as syntax errors", () => {
    expect(diagnose("eval('1')")).toBe("ok")
    expect(diagnose("new Function('return 1')")).toBe("ok")
  })

  it("turns dynamic import into a call of the hidden import hook, and refuses import phases", () => {
    const body = program("const m = await import('fs', { with: {} })").ast.body
    const call = ((body[0] as ESTree.VariableDeclaration).declarations[0]!.init as ESTree.AwaitExpression).argument as ESTree.CallExpression
    expect(call.type).toBe("CallExpression")
    expect(call.callee).toMatchObject({ type: "Identifier", name: "%import()%", start: 16 })
    expect(call.arguments.map((a) => a.type)).toEqual(["Literal", "ObjectExpression"])
    expect(diagnose("const m = await import.source('fs')")).toMatchObject({
      kind: "UnsupportedSyntax",
      message: "`import.source()` is not supported",
      location: { line: 1, column: 17 },
    })
  })

  it("hoists import declarations as const declarations calling the hidden import hook, and makes the program strict", () => {
    const checked = program("x = 1\nimport a, { b as c, 'd-e' as f } from 'node:m'\nimport * as ns from 'n'")
    expect(checked.strict).toBe(true)
    const [first, second, third] = checked.ast.body as ESTree.VariableDeclaration[]
    expect(first).toMatchObject({ type: "VariableDeclaration", kind: "const", start: 6 })
    expect(first!.declarations[0]!.id).toMatchObject({
      type: "ObjectPattern",
      properties: [
        { key: { name: "default" }, value: { name: "a" } },
        { key: { name: "b" }, value: { name: "c" } },
        { key: { value: "d-e" }, value: { name: "f" } },
      ],
    })
    expect(first!.declarations[0]!.init).toMatchObject({
      callee: { name: "%import%" },
      arguments: [{ value: "node:m" }, { elements: [{ value: "default" }, { value: "b" }, { value: "d-e" }] }],
    })
    expect(second!.declarations[0]).toMatchObject({ id: { name: "ns" }, init: { callee: { name: "%import%" }, arguments: [{ value: "n" }, { elements: [] }] } })
    expect(third).toMatchObject({ type: "ExpressionStatement" })
    expect(diagnose("import a from 'm'\nwith (a) {}")).toMatchObject({ kind: "ParseError" })
    expect(diagnose("import a from 'm'\nlet q = 010")).toMatchObject({ kind: "ParseError", location: { line: 2, column: 9 } })
    expect(diagnose("import a from 'm'\nlet a = 1")).toMatchObject({ kind: "ParseError", message: "Duplicate binding 'a'", location: { line: 2, column: 5 } })
    expect(diagnose("import a from 'm'\nimport { b as a } from 'n'")).toMatchObject({ kind: "ParseError", message: "Duplicate binding 'a'", location: { line: 2, column: 15 } })
  })

  it("accepts a hashbang line", () => {
    expect(program("#!/usr/bin/env node\nreturn 1").ast.body[0]?.type).toBe("ReturnStatement")
  })
})

describe("empty source", () => {
  it.each(["", "   ", "\n\n", "// just a comment", "/* a */ // b\n", "#!/usr/bin/env node"])("%j is a ParseError", (source) => {
    expect(diagnose(source)).toEqual({ kind: "ParseError", message: "Source is empty" })
  })

  it("a lone semicolon or directive is a program", () => {
    expect(diagnose(";")).toBe("ok")
    expect(diagnose("'use strict'")).toBe("ok")
  })
})

describe("ParseError positions", () => {
  it("on line 1, in the user's columns", () => {
    expect(diagnose("let x = ;")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 9,
          "line": 1,
        },
        "message": "Unexpected token: ';'",
      }
    `)
    expect(diagnose("a b")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 3,
          "line": 1,
        },
        "message": "Unexpected token: 'identifier'",
      }
    `)
  })

  it("on line 3", () => {
    expect(diagnose("let x = 1\nlet y = 2\nlet z = = 3")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 9,
          "line": 3,
        },
        "message": "Unexpected token: '='",
      }
    `)
    expect(diagnose("let x = 1\r\nlet y = 2\r\n  if (x {}")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 9,
          "line": 3,
        },
        "message": "Expected ')'",
      }
    `)
  })

  it("at the end of the user's text when the source stops mid-construct", () => {
    expect(diagnose("foo(")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 1,
        },
        "message": "Unexpected end of input",
      }
    `)
    expect(diagnose("function f() {\n  return x +\n")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 1,
          "line": 3,
        },
        "message": "Unexpected end of input",
      }
    `)
    expect(diagnose("if (a) {")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 9,
          "line": 1,
        },
        "message": "Unexpected end of input",
      }
    `)
  })

  it("for unterminated literals and comments, at their start", () => {
    expect(diagnose('x = "abc')).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 1,
        },
        "message": "Unterminated string literal",
      }
    `)
    expect(diagnose("x = `abc")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 1,
        },
        "message": "Unterminated template literal",
      }
    `)
    expect(diagnose("x = 1 /* abc")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 7,
          "line": 1,
        },
        "message": "Multiline comment was not closed properly",
      }
    `)
  })

  it("when the source closes the wrapper function", () => {
    expect(diagnose("}); (function () {")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "Unexpected token: '}'",
      }
    `)
    expect(diagnose("x\n}, function () {")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 1,
          "line": 2,
        },
        "message": "Unexpected token: '}'",
      }
    `)
    expect(diagnose("}")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "Unexpected token: '}'",
      }
    `)
  })

  it("with V8's reason for an invalid regular expression", () => {
    expect(diagnose("x = /(?<a>x)(?<a>y)/")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 1,
        },
        "message": "Invalid regular expression: /(?<a>x)(?<a>y)/: Duplicate capture group name",
      }
    `)
    expect(diagnose("x = /a{2,1}/u")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 1,
        },
        "message": "Invalid regular expression: /a{2,1}/u: numbers out of order in {} quantifier",
      }
    `)
    expect(diagnose("x = /a/gg")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 1,
        },
        "message": "Duplicate regular expression flag 'g'",
      }
    `)
  })

  it("without meriyah's [line:col] prefix", () => {
    const result = checkProgram("let = = 1")
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.diagnostic.message).not.toMatch(/^\[/)
  })
})

describe("positions in the AST", () => {
  it("ranges index into the user's text and loc matches locate()", () => {
    const source = "const a = 1\nconst bb = a +\r\n  cc\u2028x; return `${a}`"
    const { ast, locate } = program(source)
    forEachNode(ast, (node) => {
      const [start, end] = node.range ?? [-1, -1]
      expect(node.start).toBe(start)
      expect(node.end).toBe(end)
      expect(start).toBeGreaterThanOrEqual(0)
      expect(end).toBeLessThanOrEqual(source.length)
      const at = locate(start)
      expect(node.loc?.start).toEqual({ line: at.line, column: at.column - 1 })
      if (node.type === "Identifier") expect(source.slice(start, end)).toBe(node.name)
    })
  })

  it("line-1 identifiers have the user's columns", () => {
    const { ast, locate } = program("foo + bar")
    const statement = ast.body[0]
    if (statement?.type !== "ExpressionStatement" || statement.expression.type !== "BinaryExpression") throw new Error("shape")
    expect(statement.expression.right.loc?.start).toEqual({ line: 1, column: 6 })
    expect(locate(statement.expression.right.start ?? -1)).toEqual({ line: 1, column: 7 })
  })

  it("locate clamps out-of-range offsets", () => {
    const { locate } = program("a\nb")
    expect(locate(-5)).toEqual({ line: 1, column: 1 })
    expect(locate(99)).toEqual({ line: 2, column: 2 })
  })
})

describe("host objects", () => {
  it("regular expression literals carry pattern and flags but no host RegExp", () => {
    const { ast } = program("x = /a+b/gu")
    const statement = ast.body[0]
    if (statement?.type !== "ExpressionStatement" || statement.expression.type !== "AssignmentExpression") throw new Error("shape")
    expect(statement.expression.right).toMatchObject({ type: "Literal", value: null, regex: { pattern: "a+b", flags: "gu" }, raw: "/a+b/gu" })
  })
})
