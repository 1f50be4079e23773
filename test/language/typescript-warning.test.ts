import { afterEach, describe, expect, it } from "vitest"
import { checkProgram } from "../../src/language/index.ts"

// Its own file so this is the process's first stripTypeScriptTypes call, the one Node warns about.
describe("TypeScript stripping", () => {
  const original = process.emitWarning
  afterEach(() => {
    process.emitWarning = original
  })

  it("does not print Node's experimental warning, and lets other warnings through", () => {
    const seen: string[] = []
    process.emitWarning = ((warning: string | Error) => {
      seen.push(typeof warning === "string" ? warning : warning.message)
    }) as typeof process.emitWarning
    expect(checkProgram("const a: number = 1\nreturn a").ok).toBe(true)
    process.emitWarning("unrelated")
    expect(seen).toEqual(["unrelated"])
  })
})
