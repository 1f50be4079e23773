/**
 * The tree-walker's own contract, below the host: slices honour the step budget where evaluation is in
 * generators, `interruptCheck` is called where it is not (ordinary code on the host stack), runaway recursion is
 * the sandbox's RangeError however the frames are split between the host stack and nested loops, and programs the
 * analysis refuses are a thrown RangeError.
 */
import { describe, expect, it } from "vitest"
import { createRealm } from "../../src/intrinsics/index.ts"
import { Interpreter } from "../../src/interpreter/index.ts"
import { checkProgram } from "../../src/language/index.ts"
import { Termination } from "../../src/runtime/completion.ts"
import { toHost } from "../vm/helpers.ts"
import { run } from "./helpers.ts"

const engineFor = (source: string): Interpreter => {
  const checked = checkProgram(source)
  if (!checked.ok) throw new Error(checked.diagnostic.message)
  return new Interpreter(createRealm(), checked.program)
}

describe("legacy engine", () => {
  it("stops at the step budget while the program body is suspended in generators", () => {
    // The await keeps the loop in the program's generator, which can return to the host.
    const engine = engineFor("let s = 0; for (let i = 0; i < 5000; i++) { s += i; if (i === 4999) await null } return s")
    let slices = 0
    let status = engine.run(100)
    while (status.kind === "yielded") {
      slices++
      status = engine.run(100)
    }
    expect(slices).toBeGreaterThan(10)
    expect(status.kind === "completed" && status.value).toBe(12497500)
  })

  it("calls interruptCheck where ordinary code cannot return, and a Termination ends the run", () => {
    const engine = engineFor("function spin() { for (;;) {} } spin()")
    let calls = 0
    engine.interruptCheck = () => {
      if (++calls === 5) throw new Termination({ kind: "TimeoutExceeded" })
    }
    expect(() => engine.run(1000)).toThrow(Termination)
    expect(calls).toBe(5)
  })

  it("recursion past the host stack goes on in nested loops, up to the call-depth cap", () => {
    expect(run("function d(n) { return n === 0 ? 0 : 1 + d(n - 1) } return d(9000)")).toBe(9000)
    expect(run("let n = 0; function f() { n++; f() } try { f() } catch (e) { return [n, e.name, e.message] }")).toEqual([
      9999,
      "RangeError",
      "Maximum call stack size exceeded",
    ])
    expect(run("let n = 0; const o = { get x() { n++; return this.x } }; try { o.x } catch (e) { return [n, e.name] }")).toEqual([4999, "RangeError"])
  })

  it("keeps the host stack bounded whatever the code's shape at each level of recursion", () => {
    // Each level goes through rare productions (run as generators driven on the host stack)...
    const rare = `function f(n, { a } = { a: 1 }, ...rest) {
      try { for (const x of [n]) { switch (x % 3) { case 0: { if (x === 0) return 0; return f(x - 1, { a }, ...[x]) + a } default: return f(x - 1) + 1 } } }
      finally {}
    }
    return f(5000)`
    expect(run(rare)).toBe(5000)
    // ...or nests 400 levels deep.
    const nested = `function f(n) { return n === 0 ? 0 : ${"[".repeat(400)}f(n - 1) + 1${"]".repeat(400)}${"[0]".repeat(400)} } return f(120)`
    expect(run(nested)).toBe(120)
  })

  it("recursion through generators and async functions", () => {
    expect(run("function* g(n) { if (n > 0) yield* g(n - 1); yield n } let c = 0; for (const x of g(300)) c += x; return c")).toBe(45150)
    expect(run("async function s(n) { return n === 0 ? 0 : 1 + await s(n - 1) } return await s(2000)")).toBe(2000)
  })

  it("continue in for-of goes on with the same iterator", () => {
    expect(run("const out = []; for (const x of [1, 2, 3]) { if (x === 1) continue; out.push(x) } return out")).toEqual([2, 3])
  })

  it("keeps function source text", () => {
    expect(run("function f(a) { return a }\nreturn f.toString()")).toBe("function f(a) { return a }")
  })

  it("a program nested too deeply to analyse throws RangeError", () => {
    const engine = engineFor(`return ${"[".repeat(1600)}${"]".repeat(1600)}`)
    const status = engine.run(1000)
    expect(status.kind).toBe("threw")
    expect(status.kind === "threw" && toHost(status.value)).toBe("RangeError: Maximum call stack size exceeded")
  })
})
