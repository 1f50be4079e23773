import { expect, test } from "vitest"
import { run } from "./helpers.ts"

test("smoke", () => {
  expect(run("return 1 + 2")).toBe(3)
  expect(run("let x = 1; x + 1")).toBe(2)
  expect(run("function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2) } return fib(20)")).toBe(6765)
  expect(run("const out=[]; for (const x of [1,2,3]) { if (x === 1) continue; out.push(x) } return out")).toEqual([2, 3])
  expect(run("class A { #x = 1; get x() { return this.#x } } class B extends A { y = 2 } const b = new B(); return [b.x, b.y]")).toEqual([1, 2])
  expect(run("function* g() { const x = yield 1; yield x * 2 } const it = g(); return [it.next().value, it.next(5).value, it.next().done]")).toEqual([1, 10, true])
  expect(run("async function f() { await null; return 3 } return await f()")).toBe(3)
  expect(run("let s = 0; for (let i = 0; i < 100000; i++) s += i; return s", 1000)).toBe(4999950000)
  expect(run("function f() { return f() } try { f() } catch (e) { return e.message }")).toBe("Maximum call stack size exceeded")
})
