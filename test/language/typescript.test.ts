import { describe, expect, it } from "vitest"
import { checkProgram } from "../../src/language/index.ts"
import { maskNonCode } from "../../src/language/typescript.ts"

const diagnose = (source: string) => {
  const result = checkProgram(source)
  return result.ok ? "ok" : result.diagnostic
}

const TYPED_PRELUDE = [
  "interface Order { id: string; total: number }", // 1
  "type Id = string", // 2
  "function pick<T, K extends keyof T>(o: T, k: K): T[K] { return o[k] }", // 3
  "const order = (await tools.orders.lookup({ id: 'o1' })) as Order", // 4
  "const total: number = order!.total satisfies number", // 5
  "const ids = new Map<Id, Order>()", // 6
].join("\n")

describe("TypeScript", () => {
  it("strips annotations, interfaces, generics, as, non-null and satisfies", () => {
    const result = checkProgram(`${TYPED_PRELUDE}\nreturn pick(order, "id")`)
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.program.source).toHaveLength(TYPED_PRELUDE.length + '\nreturn pick(order, "id")'.length)
    expect(result.program.source).not.toContain("interface")
    expect(result.program.ast.body.map((statement) => statement.type)).toMatchInlineSnapshot(`
      [
        "FunctionDeclaration",
        "VariableDeclaration",
        "VariableDeclaration",
        "VariableDeclaration",
        "ReturnStatement",
      ]
    `)
  })

  it("keeps AST positions on the user's lines and columns", () => {
    const result = checkProgram("const a: number = 1\nconst b = a as number + c")
    if (!result.ok) throw new Error(result.diagnostic.message)
    const { ast, locate, source } = result.program
    const second = ast.body[1]
    if (second?.type !== "VariableDeclaration") throw new Error("shape")
    const init = second.declarations[0]?.init
    if (init?.type !== "BinaryExpression") throw new Error("shape")
    expect(locate(init.right.start ?? -1)).toEqual({ line: 2, column: 25 })
    expect(source.slice(init.right.start, init.right.end)).toBe("c")
  })

  it("keeps later diagnostics pointing at the user's source", () => {
    expect(diagnose(`${TYPED_PRELUDE}\n  debugger`)).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 3,
          "line": 7,
        },
        "message": "\`debugger\` statements are not supported",
      }
    `)
    expect(diagnose(`${TYPED_PRELUDE}\nlet order = 2`)).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 5,
          "line": 7,
        },
        "message": "Duplicate binding 'order'",
      }
    `)
    expect(diagnose(`${TYPED_PRELUDE}\nx = class { static { var q: number; let q } }`)).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 41,
          "line": 7,
        },
        "message": "Identifier 'q' has already been declared",
      }
    `)
    expect(diagnose(`${TYPED_PRELUDE}\nfunction f() { return new.target }\nnew.target`)).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 1,
          "line": 8,
        },
        "message": "new.target expression is not allowed here",
      }
    `)
    expect(diagnose(`${TYPED_PRELUDE}\nimport { type Id as Key, readFile } from "node:fs"\n  debugger`)).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 3,
          "line": 8,
        },
        "message": "\`debugger\` statements are not supported",
      }
    `)
    expect(diagnose(`${TYPED_PRELUDE}\nexport const answer: number = 42`)).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 7,
        },
        "message": "\`export\` declarations are not supported",
      }
    `)
  })

  it("counts non-ASCII type text in UTF-16 units", () => {
    const result = checkProgram("let s: 'é😀' = 'x'; debugger")
    expect(result.ok ? "ok" : result.diagnostic).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 21,
          "line": 1,
        },
        "message": "\`debugger\` statements are not supported",
      }
    `)
  })

  it("parses plain JavaScript as JavaScript first", () => {
    const result = checkProgram("a < b > c")
    if (!result.ok) throw new Error(result.diagnostic.message)
    expect(result.program.source).toBe("a < b > c")
    const statement = result.program.ast.body[0]
    expect(statement?.type === "ExpressionStatement" && statement.expression.type).toBe("BinaryExpression")
  })

  it("allows import type alongside code that needs the module form", () => {
    expect(diagnose("import type { Order } from './types'\nconst o: Order = await get()\no")).toBe("ok")
  })

  it("strips a program with import declarations and a top-level return", () => {
    const source = 'import { readFile, type Options } from "node:fs"\nconst o: Options = { return: 1 }\nif (o.return) return readFile(o as any)\nreturn null'
    expect(diagnose(source)).toBe("ok")
    const checked = checkProgram(source)
    expect(checked.ok && checked.program.source.split("\n").slice(1)).toEqual(["const o          = { return: 1 }", "if (o.return) return readFile(o       )", "return null"])
  })

  it("rejects enums, namespaces, parameter properties and other non-erasable syntax", () => {
    expect(diagnose("enum Color { Red, Green }")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "TypeScript \`enum\` declarations are not supported",
      }
    `)
    expect(diagnose("const x: number = 1\n\n  const enum E { A }\nreturn x")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 3,
          "line": 3,
        },
        "message": "TypeScript \`enum\` declarations are not supported",
      }
    `)
    expect(diagnose("// enum Fake { }\nconst s = 'enum Nope {}'\nenum Real { A }")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 3,
        },
        "message": "TypeScript \`enum\` declarations are not supported",
      }
    `)
    expect(diagnose("namespace Util {\n  export const a = 1\n}")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "TypeScript \`namespace\` declarations are not supported",
      }
    `)
    expect(diagnose("module Legacy { }")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "TypeScript \`module\` declarations are not supported",
      }
    `)
    expect(diagnose("class P {\n  constructor(private readonly x: number) {}\n}")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 15,
          "line": 2,
        },
        "message": "TypeScript parameter properties are not supported",
      }
    `)
    expect(diagnose("import fs = require('fs')")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 1,
        },
        "message": "TypeScript \`import =\` declarations are not supported",
      }
    `)
    expect(diagnose("const a = 1\nexport = a")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 1,
          "line": 2,
        },
        "message": "TypeScript \`export =\` assignments are not supported",
      }
    `)
    expect(diagnose("let a = <any>b")).toMatchInlineSnapshot(`
      {
        "kind": "UnsupportedSyntax",
        "location": {
          "column": 9,
          "line": 1,
        },
        "message": "TypeScript \`<T>expr\` type assertions are not supported; use \`expr as T\`",
      }
    `)
  })

  it("accepts type-only declarations that erase", () => {
    expect(diagnose("declare enum E { A }\ndeclare namespace N { const a: number }\ndeclare module 'm' {}\nnamespace T { export type U = 1 }\n1")).toBe("ok")
  })

  it("reports the JavaScript error when the source is neither JavaScript nor TypeScript", () => {
    expect(diagnose("let x: number = = 1")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 6,
          "line": 1,
        },
        "message": "Unexpected token: ':'",
      }
    `)
    expect(diagnose("let ok = 1\nlet bad = (")).toMatchInlineSnapshot(`
      {
        "kind": "ParseError",
        "location": {
          "column": 12,
          "line": 2,
        },
        "message": "Unexpected end of input",
      }
    `)
  })

  it("masks comments and strings when searching for a construct", () => {
    const source = "a /* enum */ 'enum' \"x\" `y` // enum\nb"
    expect(maskNonCode(source)).toBe("a" + " ".repeat(source.indexOf("\n") - 1) + "\nb")
  })
})
