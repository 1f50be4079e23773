import { describe, expect, it } from "vitest"
import { boundNames, checkProgram } from "../../src/language/index.ts"

const firstStatement = (source: string) => {
  const result = checkProgram(source)
  if (!result.ok) throw new Error(result.diagnostic.message)
  return result.program.ast.body[0]
}

describe("boundNames", () => {
  it("collects every identifier a destructuring declaration binds, in order", () => {
    const names = boundNames(firstStatement("let [a, { b, c: d = 1, ...e }, , ...f] = x, g")).map((id) => id.name)
    expect(names).toEqual(["a", "b", "d", "e", "f", "g"])
  })

  it("names function and class declarations", () => {
    expect(boundNames(firstStatement("function f() {}")).map((id) => id.name)).toEqual(["f"])
    expect(boundNames(firstStatement("class C {}")).map((id) => id.name)).toEqual(["C"])
  })

  it("binds nothing for member-expression targets", () => {
    const statement = firstStatement("[o.p, q[0]] = r")
    if (statement?.type !== "ExpressionStatement" || statement.expression.type !== "AssignmentExpression") throw new Error("shape")
    expect(boundNames(statement.expression.left)).toEqual([])
  })
})
