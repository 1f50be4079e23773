/**
 * Where codemode follows ECMA-262 (and test262) and the oracle, Node 24's V8, does not, or where the program
 * model (the body of an async function) and a script differ. The expected outcomes are written out and each says
 * why; docs/language.md lists these differences.
 */
import { describe, expect, it } from "vitest"
import { engines } from "../engines.ts"
import { runEngine, type Outcome } from "./harness.ts"

const cases: ReadonlyArray<{ readonly name: string; readonly code: string; readonly expected: Outcome }> = [
  {
    // A script's top-level `this` is the global object in strict code too; an async function body's would be
    // undefined, which is what the corpus oracle (a wrapping function) sees.
    name: "strict top-level this is the global object",
    code: `"use strict"; const arrow = () => this; return [this === globalThis, arrow() === globalThis]`,
    expected: { value: [true, true] },
  },
  {
    // B.3.2.1: replacing the inner declaration with `var f` would clash with the outer block's `f`, so only the
    // outer one is hoisted (test262 annexB/language/function-code/block-decl-nested-blocks-with-fun-decl.js);
    // V8 hoists the inner one too.
    name: "a nested block function that would clash is not hoisted",
    code: `{ function f() { return 1 } { function f() { return 2 } } } return f()`,
    expected: { value: 1 },
  },
  {
    // AsyncGeneratorUnwrapYieldResumption: a rejected `return` value reaches yield*'s inner iterator as a throw
    // (Node 20's V8 does this; Node 24's resumes the inner iterator with `next`).
    name: "yield* forwards a rejected return value as a throw",
    code: `
      const log = []
      const inner = {
        [Symbol.asyncIterator]() { return this },
        next(v) { log.push("next " + v); return { value: 1, done: false } },
        throw(e) { log.push("throw " + e); return { value: "t", done: true } },
        return(v) { log.push("return " + v); return { value: v, done: true } },
      }
      async function* g() { const r = yield* inner; log.push("r=" + r); return "end" }
      const it = g()
      await it.next()
      log.push(JSON.stringify(await it.return(Promise.reject("boom"))))
      return log`,
    expected: { value: ["next undefined", "throw boom", "r=t", `{"value":"end","done":true}`] },
  },
  {
    // A `using` declaration in a for statement's head is disposed once, when the loop ends (ForStatement
    // evaluation step 13); V8 disposes it after every iteration as well.
    name: "a for-head using is disposed once",
    code: `
      const log = []
      let i = 0
      for (using x = { [Symbol.dispose]() { log.push("d") } }; i < 2; i++) log.push("it" + i)
      return log`,
    expected: { value: ["it0", "it1", "d"] },
  },
  {
    // An `await using` binding is immutable like a `using` one (BindingClassDeclarationEvaluation / InitializeBinding
    // of an immutable binding: PutValue throws); V8 silently ignores the assignment.
    name: "assigning an await using binding throws",
    code: `
      const log = []
      try {
        await using x = { async [Symbol.asyncDispose]() { log.push("disposed") } }
        x = 1
        log.push("assigned")
      } catch (e) {
        log.push(e.name)
      }
      return log`,
    expected: { value: ["disposed", "TypeError"] },
  },
  {
    // PropertyDefinitionEvaluation defines an object literal's members in source order; after a spread, V8 defines
    // the accessors after the data properties.
    name: "accessors after a spread keep their place in an object literal",
    code: `return [Object.keys({ ...{}, get a() { return 1 }, b: 1 }), Object.keys({ ...true, set a(v) {}, then() {} })]`,
    expected: { value: [["a", "b"], ["a", "then"]] },
  },
  {
    // A function declaration's completion is empty: a block of one has none, so the program's value is
    // undefined (null). V8's script result is the function.
    name: "a block-level function declaration has no completion value",
    code: `{ function d() {} }`,
    expected: { value: null },
  },
]

describe.each(engines)("ECMA-262 where the oracle differs, on the %s engine", (engine) => {
  for (const c of cases) {
    it(c.name, async () => {
      expect(await runEngine(c.code, engine)).toEqual(c.expected)
    })
  }
})
