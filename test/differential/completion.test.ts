/**
 * The REPL rule: without a `return`, a program's result is its last statement's completion value. The corpus
 * oracle wraps programs in a function, which has no completion value, so these programs are compared with V8
 * running them as scripts (node:vm's script result is the completion value, as `eval` would give it). They use
 * no `await` and no `return`, which a script does not allow.
 */
import * as vm from "node:vm"
import { describe, expect, it } from "vitest"
import { engines } from "../engines.ts"
import { normalizeThrown, normalizeValue, runEngine, type Outcome } from "./harness.ts"

const scriptOutcome = (code: string): Outcome => {
  try {
    return { value: normalizeValue(vm.runInContext(code, vm.createContext({}))) }
  } catch (e) {
    return normalizeThrown(e)
  }
}

const programs: ReadonlyArray<string> = [
  `1; 2`,
  `if (true) { 1 } else { 2 }`,
  `7; if (false) { 1 }`,
  `7; if (true) { }`,
  `if (true) 1; 2`,
  `for (let i = 0; i < 3; i++) { i * 10 }`,
  `9; for (let i = 0; i < 0; i++) { i }`,
  `let i = 0; while (true) { i++; if (i > 3) break; i }`,
  `5; while (false) {}`,
  `var n = 0; do { n++; "a" + n; continue } while (n < 2)`,
  `for (var i = 0; i < 2; i++) { i; continue }`,
  `l: for (var i = 0; i < 2; i++) { "v" + i; if (i == 0) continue l }`,
  `for (var v of [1, 2, 3]) { if (v == 2) break; v * 10 }`,
  `3; for (var k in {}) { k }`,
  `for (const k in { a: 1, b: 2 }) k`,
  `try { 5 } finally { 6 }`,
  `try { throw 1 } catch (e) { 8 }`,
  `3; try { throw 1 } catch (e) { }`,
  `try { throw 1 } catch (e) { 5 } finally { 6 }`,
  `do { 1; try { 2; break } finally { 3 } } while (false)`,
  `l: try { 1 } finally { 2; break l }`,
  `do { try { 8 } finally { break } } while (false)`,
  `for (var i = 0; i < 1; i++) { try { 9 } finally { continue } }`,
  `for (var i = 0; i < 2; i++) { try { if (i) throw 1; "t" } catch (e) { } }`,
  `switch (2) { case 1: "one"; case 2: "two"; case 3: "three" }`,
  `1; switch (5) { case 1: "one" }`,
  `4; switch (1) { case 1: }`,
  `outer: { 1; { 2; break outer } }`,
  `do { if (true) { 4; break } else { 5 } } while (false)`,
  `3; { }`,
  `{ 1; ; }`,
  `{ 1; let y = 2 }`,
  `4; var z = 5`,
  `4; let w = 5`,
  `4; function f() {}`,
  `4; class C {}`,
  `var x; x = 5`,
  `({ a: 1 })`,
  `(function () { return 7 })()`,
  `{ using x = null; 6 }`,
  `throw new TypeError("x")`,
]

describe.each(engines)("completion values on the %s engine match V8's script result", (engine) => {
  for (const code of programs) {
    it(code, async () => {
      expect(await runEngine(code, engine)).toEqual(scriptOutcome(code))
    })
  }
})
