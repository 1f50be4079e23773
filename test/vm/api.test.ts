import { describe, expect, it } from "vitest"
import { CreateBuiltinFunction } from "../../src/runtime/builtin.ts"
import { ErrorObject } from "../../src/runtime/errors.ts"
import { FulfillPromise, NewIntrinsicPromiseCapability, type PromiseObject, RejectPromise } from "../../src/runtime/promise.ts"
import { Property } from "../../src/runtime/property.ts"
import type { Realm } from "../../src/runtime/realm.ts"
import { checkProgram } from "../../src/language/index.ts"
import { run, runToEnd, start, toHost } from "./helpers.ts"

/** Installs `hostCall()`, returning a promise the test settles between slices. */
const withHostCalls = (realm: Realm): PromiseObject[] => {
  const pending: PromiseObject[] = []
  const f = CreateBuiltinFunction(realm, "test.hostCall", (r) => {
    const cap = NewIntrinsicPromiseCapability(r)
    pending.push(cap.promise)
    return cap.promise
  }, 0, "hostCall")
  realm.globalObject.properties.set("hostCall", Property.data(f, true, false, true))
  return pending
}

describe("Vm API", () => {
  it("reports completed with the explicit return value or the completion value", () => {
    expect(runToEnd("return 42").status).toEqual({ kind: "completed", value: 42 })
    expect(runToEnd("6 * 7").status).toEqual({ kind: "completed", value: 42 })
    expect(runToEnd("let a = 1").status).toEqual({ kind: "completed", value: undefined })
  })

  it("reports threw with the thrown value", () => {
    const { status } = runToEnd("throw new TypeError('bad')")
    expect(status.kind).toBe("threw")
    expect(toHost((status as { value: unknown }).value as never)).toBe("TypeError: bad")
  })

  it("yields when the step budget runs out, and continues where it stopped", () => {
    const { vm } = start("let s = 0; for (let i = 0; i < 10000; i++) s += i; return s")
    let slices = 0
    for (;;) {
      const status = vm.run(100)
      slices++
      if (status.kind === "yielded") continue
      expect(status).toEqual({ kind: "completed", value: 49995000 })
      break
    }
    expect(slices).toBeGreaterThan(50)
  })

  it("an endless loop keeps yielding (the host enforces time)", () => {
    const { vm } = start("while (true) {}")
    for (let i = 0; i < 20; i++) expect(vm.run(1000)).toEqual({ kind: "yielded" })
  })

  it("endless recursion through calls also yields", () => {
    const { vm } = start("function f() { return g() } function g() { try { return f() } catch { return g() } } f()")
    for (let i = 0; i < 20; i++) expect(vm.run(10_000).kind).toBe("yielded")
  })

  it("is idle while waiting for the host, and picks up settled promises", () => {
    const { vm, realm } = start("const a = await hostCall(); const b = await hostCall(); return a + b")
    const pending = withHostCalls(realm)
    expect(vm.run(1000)).toEqual({ kind: "idle" })
    expect(pending.length).toBe(1)
    FulfillPromise(realm, pending[0]!, 40)
    expect(vm.run(1000)).toEqual({ kind: "idle" })
    expect(pending.length).toBe(2)
    FulfillPromise(realm, pending[1]!, 2)
    expect(vm.run(1000)).toEqual({ kind: "completed", value: 42 })
  })

  it("a host rejection is a catchable throw", () => {
    const { vm, realm } = start("try { await hostCall() } catch (e) { return 'caught ' + e }")
    const pending = withHostCalls(realm)
    expect(vm.run(1000)).toEqual({ kind: "idle" })
    RejectPromise(realm, pending[0]!, "no")
    expect(vm.run(1000)).toEqual({ kind: "completed", value: "caught no" })
  })

  it("drains microtasks before reporting", () => {
    expect(run("const log = []; Promise.resolve().then(() => log.push(1)); return log")).toEqual([1])
  })
})

describe("errors", () => {
  it("records the source location where an error was created", () => {
    const located = (source: string) => {
      const { status } = runToEnd(source)
      expect(status.kind).toBe("threw")
      const e = (status as { value: unknown }).value
      expect(e).toBeInstanceOf(ErrorObject)
      return (e as ErrorObject).location
    }
    expect(located("const a = 1\n\nnull.x")).toEqual({ line: 3, column: 6 })
    expect(located("let o = {}\n  o.method()")).toEqual({ line: 2, column: 3 })
    expect(located("function f() {\n  throw new RangeError('r')\n}\nf()")?.line).toBe(2)
    expect(located("const x = 1;\nx = 2")?.line).toBe(2)
    expect(located("undefinedName + 1")).toEqual({ line: 1, column: 1 })
  })

  it("deep recursion is a catchable RangeError", () => {
    expect(run("function f(n) { return n === 0 ? 0 : 1 + f(n - 1) } try { f(1e6) } catch (e) { return [e instanceof RangeError, e.message] }")).toEqual([
      true,
      "Maximum call stack size exceeded",
    ])
    expect(run("const o = { get x() { return this.x } }; try { o.x } catch (e) { return e.constructor.name }")).toBe("RangeError")
    expect(run("const o = { toString() { return `${this}` } }; try { String(o) } catch (e) { return e.constructor.name }")).toBe("RangeError")
    expect(run("function f() { return [1].map(f) } try { f() } catch (e) { return e.constructor.name }")).toBe("RangeError")
  })

  it("nesting deeper than the compiler accepts fails as a RangeError instead of crashing", () => {
    expect(run(`return ${"[".repeat(1000)}1${"]".repeat(1000)}`)).toHaveLength(1)
    // The front end's own limit depends on the host stack; test the compiler's limit when the parser gets there.
    const depth = [1800, 1700, 1600].find((n) => checkProgram(`${"[".repeat(n)}1${"]".repeat(n)}`).ok)
    if (depth !== undefined) {
      expect(run(`return ${"[".repeat(depth)}1${"]".repeat(depth)}`)).toEqual({ threw: "RangeError: Maximum call stack size exceeded" })
    }
  })

  it("long operator chains compile without recursion (longer than the nesting limit)", () => {
    const chain = (n: number, term: string, op: string) => Array.from({ length: n }, () => term).join(` ${op} `)
    const n = [5000, 3000, 2000, 1600].find((k) => checkProgram(`return ${chain(k, "1", "+")}`).ok)
    if (n === undefined) return
    expect(run(`return ${chain(n, "1", "+")}`)).toBe(n)
    expect(run(`const a = 1; return ${chain(n, "a", "&&")}`)).toBe(1)
  })
})
