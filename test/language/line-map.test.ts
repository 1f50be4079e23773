import { describe, expect, it } from "vitest"
import { makeLineMap } from "../../src/language/line-map.ts"

describe("line map", () => {
  it("splits at LF, CRLF, CR, U+2028 and U+2029, as V8 does", () => {
    const { locate } = makeLineMap("a\nb\r\nc\rd\u2028e\u2029f")
    expect(["a", "b", "c", "d", "e", "f"].map((_, line) => locate("a\nb\r\nc\rd\u2028e\u2029f".indexOf("abcdef"[line] as string)))).toEqual([
      { line: 1, column: 1 },
      { line: 2, column: 1 },
      { line: 3, column: 1 },
      { line: 4, column: 1 },
      { line: 5, column: 1 },
      { line: 6, column: 1 },
    ])
  })

  it("counts columns in UTF-16 units", () => {
    const source = "x = '😀'; y"
    expect(makeLineMap(source).locate(source.indexOf("y"))).toEqual({ line: 1, column: 11 })
  })

  it("places a CRLF's LF on the line it ends", () => {
    expect(makeLineMap("ab\r\ncd").locate(3)).toEqual({ line: 1, column: 4 })
  })

  it("clamps offsets outside the source", () => {
    const { locate } = makeLineMap("ab\ncd")
    expect(locate(-1)).toEqual({ line: 1, column: 1 })
    expect(locate(100)).toEqual({ line: 2, column: 3 })
    expect(locate(Number.NaN)).toEqual({ line: 1, column: 1 })
  })
})
