/**
 * Attacks on the sandbox, part one: a program must never reach the host — Node's globals, `process`, real modules,
 * the host's `Function` or `eval`, host prototypes — through the language, the built-ins, `tools`, `search`,
 * `require`/`import`, or the values tools and extensions hand it. Every probe asserts the safe outcome, on both
 * engines.
 */
import { describe, expect, it } from "vitest"
import { Effect, Schema } from "effect"
import { CodeMode, Extension, Tool } from "../../src/index.ts"
import { engines } from "../engines.ts"

const run = (engine: (typeof engines)[number], code: string, options: Omit<Parameters<typeof CodeMode.execute>[0], "code" | "engine"> = {}) =>
  Effect.runPromise(CodeMode.execute({ ...options, code, engine, limits: { timeoutMs: 5_000 } }) as Effect.Effect<CodeMode.Result>)

const codeGenerationRefused = { ok: false, error: { kind: "ExecutionFailure", message: "EvalError: Code generation from strings disallowed for this context" } }

/** A tool whose output schema lets any value through: what it returns is what the program would see. */
const returning = (value: () => unknown) =>
  Tool.make({ description: "returns a host value", input: { type: "object" }, output: { type: "object" }, execute: () => Effect.sync(value) })

describe.each(engines)("escapes (%s)", (engine) => {
  describe("code from strings is refused, whichever constructor reaches it", () => {
    const attempts = {
      "this.constructor.constructor": 'this.constructor.constructor("return process")()',
      "a function's constructor": '(function () {}).constructor("return process")()',
      "an arrow's constructor": '(() => 1).constructor("return process")()',
      "the async function constructor": '(async function () {}).constructor("return process")()',
      "the generator function constructor": '(function* () {}).constructor("return process")()',
      "the async generator function constructor": '(async function* () {}).constructor("return process")()',
      "indirect eval": '(0, eval)("process")',
      "direct eval": 'eval("process")',
      "new Function": 'new Function("return process")()',
      "Reflect.construct(Function)": 'Reflect.construct(Function, ["return process"])()',
      "Function.prototype.constructor": 'Function.prototype.constructor("return process")()',
      "tools' constructor": 'tools.constructor.constructor("return process")()',
      "a tool function's constructor": 'tools.t.constructor("return process")()',
      "search's constructor": 'search.constructor("return process")()',
      "require's constructor": 'require.constructor("return process")()',
      "an error's constructor chain": 'new Error("x").constructor.constructor("return process")()',
      "a bound function's constructor": '(function () {}).bind(null).constructor("return process")()',
      "a Proxy-free getter's constructor": 'Object.getOwnPropertyDescriptor(Object.prototype, "__proto__").get.constructor("return process")()',
    }
    for (const [how, code] of Object.entries(attempts)) {
      it(how, async () => {
        const r = await run(engine, code, { tools: { t: returning(() => ({})) } })
        expect(r).toMatchObject(codeGenerationRefused)
      })
    }
  })

  it("no host global is reachable by name or through globalThis", async () => {
    const r = await run(
      engine,
      `const names = ["process", "global", "module", "exports", "__dirname", "__filename", "Buffer", "setTimeout", "setImmediate",
         "queueMicrotask", "fetch", "WebAssembly", "SharedArrayBuffer", "Atomics", "Proxy", "WeakRef", "FinalizationRegistry", "Deno", "Bun"]
       return [names.filter((n) => typeof globalThis[n] !== "undefined"), typeof process, globalThis === this,
         Object.getOwnPropertyNames(globalThis).filter((n) => /^(process|module|Buffer|global|exports)$/.test(n))]`,
    )
    expect(r).toMatchObject({ ok: true, value: [[], "undefined", true, []] })
  })

  it("require and import know no real module, with or without node:", async () => {
    const modules = ["child_process", "fs", "node:fs", "process", "node:process", "vm", "node:vm", "worker_threads", "module", "os", "net", "http", "inspector", "v8", "../../../package.json", "/etc/passwd", "data:text/javascript,export default 1"]
    const r = await run(
      engine,
      `const out = []
       for (const m of ${JSON.stringify(modules)}) {
         try { require(m); out.push("required " + m) } catch (e) { out.push(e.code) }
         try { await import(m); out.push("imported " + m) } catch (e) { out.push(e.code) }
       }
       return out`,
    )
    expect(r).toMatchObject({ ok: true, value: modules.flatMap(() => ["MODULE_NOT_FOUND", "ERR_MODULE_NOT_FOUND"]) })
  })

  it("a static import of a host module fails the run at the declaration", async () => {
    const r = await run(engine, 'import { execSync } from "child_process"\nexecSync("id")')
    expect(r).toMatchObject({ ok: false, error: { kind: "ExecutionFailure", message: "Error: Cannot find module 'child_process'" } })
  })

  it("stack-trace hooks are the sandbox's own: Error.prepareStackTrace is never called, no CallSite leaks", async () => {
    const r = await run(
      engine,
      `let called = false
       Error.prepareStackTrace = (e, frames) => { called = true; return frames }
       const e = new Error("x")
       const o = {}
       Error.captureStackTrace(o)
       return [called, typeof e.stack, typeof o.stack]`,
    )
    expect(r).toMatchObject({ ok: true, value: [false, "string", "string"] })
  })

  it("arguments.callee.caller and Function.prototype.caller reveal no host function", async () => {
    const r = await run(
      engine,
      `const sloppy = function () { return [arguments.callee.caller, sloppy.caller] }
       let strictOutcome
       try { (function () { "use strict"; return arguments.callee })() } catch (e) { strictOutcome = e.constructor.name }
       let viaSort = null
       ;[2, 1].sort(function () { viaSort = viaSort ?? sloppy.caller ?? arguments.callee.caller; return 0 })
       return [sloppy(), strictOutcome, viaSort]`,
    )
    expect(r).toMatchObject({ ok: true, value: [[null, null], "TypeError", null] })
  })

  it("Symbol.for holds only the program's symbols; Node's registered symbols do nothing", async () => {
    const r = await run(
      engine,
      `const o = { [Symbol.for("nodejs.util.inspect.custom")]() { return "hijacked" }, a: 1 }
       console.log(o)
       return [Symbol.keyFor(Symbol.for("nodejs.util.inspect.custom")), typeof Symbol.for("nodejs.rejection")]`,
    )
    expect(r).toMatchObject({ ok: true, value: ["nodejs.util.inspect.custom", "symbol"], logs: [expect.not.stringContaining("hijacked")] })
  })

  it("tool functions, namespaces, search and extension functions are sandbox objects with sandbox prototypes", async () => {
    const ext = Extension.make({ name: "x", globals: { id: (v: unknown) => v, fs: { readFile: (p: string) => p } } })
    const r = await run(
      engine,
      `const fns = [tools.t, tools.ns.u, search, id, fs.readFile, require]
       return [
         fns.every((f) => Object.getPrototypeOf(f) === Function.prototype && f.constructor === Function),
         Object.getPrototypeOf(tools) === Object.prototype || Object.getPrototypeOf(tools) === null,
         fns.map((f) => Function.prototype.toString.call(f).endsWith("{ [native code] }")),
         Object.getOwnPropertyNames(fs), Object.getOwnPropertyNames(id).sort(),
       ]`,
      { tools: { t: returning(() => ({})), ns: { u: returning(() => ({})) } }, extensions: [ext] },
    )
    expect(r).toMatchObject({ ok: true, value: [true, true, [true, true, true, true, true, true], ["readFile"], ["length", "name"]] })
  })

  it("a host object an extension returns is a copy: its prototypes' constructor is not offered, its methods call back only by path", async () => {
    class Handle {
      secret = "s"
      read() {
        return this.secret
      }
      get size() {
        return 3
      }
    }
    const ext = Extension.make({ name: "x", globals: { open: () => new Handle() } })
    const r = await run(
      engine,
      `const h = open()
       return [h.read(), h.size, h.constructor === Object, Object.getPrototypeOf(h) === Object.prototype,
         Object.keys(h), typeof h.read.constructor, h.read.constructor === Function]`,
      { extensions: [ext] },
    )
    expect(r).toMatchObject({ ok: true, value: ["s", 3, true, true, ["secret"], "function", true] })
  })

  describe("values tools return are copied into plain data or refused with InvalidToolOutput", () => {
    class Account {
      id = "a1"
      #pin = 1234
      get pin() {
        return this.#pin
      }
      close() {
        return "closed"
      }
    }
    const throwing = { get x(): never { throw new Error("getter ran") }, y: 2 }
    const cyclic: Record<string, unknown> = { a: 1 }
    cyclic.self = cyclic
    const deep = (n: number): unknown => (n === 0 ? 1 : [deep(n - 1)])
    const shared: Record<string, unknown> = { leaf: "x" }
    let dag: unknown = shared
    for (let i = 0; i < 40; i++) dag = { a: dag, b: dag }
    const sparse: unknown[] = []
    sparse.length = 2 ** 32 - 1
    const selfJSON: { toJSON(): unknown } = { toJSON: () => selfJSON }
    const freshJSON = (): unknown => ({ toJSON: freshJSON })

    const copied: Record<string, readonly [() => unknown, unknown]> = {
      "a class instance: its own fields only": [() => new Account(), { id: "a1" }],
      "an object with getters: values read host side, as JSON.stringify does": [() => ({ get x() { return 1 }, y: 2 }), { x: 1, y: 2 }],
      "functions and symbols: left out": [() => ({ f: () => 1, s: Symbol("s"), [Symbol("k")]: 1, n: 1 }), { n: 1 }],
      "a Date: its ISO string": [() => ({ d: new Date(0) }), { d: "1970-01-01T00:00:00.000Z" }],
      "an error: its own enumerable fields": [() => ({ e: Object.assign(new Error("m"), { code: "E" }) }), { e: { code: "E" } }],
      "a null-prototype object": [() => Object.assign(Object.create(null), { a: 1 }), { a: 1 }],
      "an Array subclass: its elements": [() => { class List extends Array {} ; return List.of(1, 2) }, [1, 2]],
      "__proto__ and constructor keys: plain own keys": [() => JSON.parse('{"__proto__": {"p": 1}, "constructor": {"prototype": {"p": 2}}}'), { ["__proto__"]: { p: 1 }, constructor: { prototype: { p: 2 } } }],
    }
    for (const [what, [value, expected]] of Object.entries(copied)) {
      it(what, async () => {
        const r = await run(engine, "const v = await tools.t(); [JSON.stringify(v), Object.getPrototypeOf(v) === Object.prototype || Array.isArray(v)]", {
          tools: { t: returning(value) },
        })
        expect(r).toMatchObject({ ok: true, value: [JSON.stringify(expected), true] })
      })
    }

    const refused: Record<string, readonly [() => unknown, RegExp]> = {
      "a BigInt": [() => ({ b: 1n }), /BigInt/],
      "a Map": [() => new Map([[1, 2]]), /Map is not plain data/],
      "a typed array": [() => ({ u: new Uint8Array(4) }), /Uint8Array is not plain data/],
      "a Promise": [() => ({ p: Promise.resolve(1) }), /Promise is not plain data/],
      "a cycle": [() => cyclic, /circular/],
      "data deeper than 32 levels": [() => deep(40), /deeper than 32/],
      "a graph of shared objects (2^40 paths)": [() => ({ dag }), /deeper than 32|larger than/],
      "a toJSON that returns itself": [() => selfJSON, /deeper than 32/],
      "a toJSON that returns a fresh object every time": [freshJSON, /deeper than 32/],
      "a sparse array of length 2^32 - 1": [() => sparse, /larger than 134217728 characters/],
      "a string longer than any the program could build": [() => "x".repeat(2 ** 28), /larger than 134217728 characters/],
      "many references to one long string": [() => Array(64).fill("x".repeat(2 ** 22)), /larger than 134217728 characters/],
    }
    for (const [what, [value, message]] of Object.entries(refused)) {
      it(what, async () => {
        const r = await run(engine, "await tools.t()", { tools: { t: returning(value) } })
        expect(r).toMatchObject({ ok: false, error: { kind: "InvalidToolOutput", path: "tools.t" } })
        if (!r.ok) expect(r.error.message + (r.error as { detail?: string }).detail).toMatch(message)
      })
    }

    it("a getter that throws or a Proxy trap that throws fails the call as the tool's failure, not the run's host", async () => {
      const r = await run(engine, "const out = []; for (const t of [tools.a, tools.b]) { try { await t() } catch (e) { out.push(e.message) } } out", {
        tools: { a: returning(() => throwing), b: returning(() => new Proxy({}, { ownKeys: () => { throw new Error("trap") } })) },
      })
      expect(r).toMatchObject({ ok: true, value: ["tools.a failed", "tools.b failed"] })
    })

    it("a tool's value never arrives live: changing the host object afterwards changes nothing", async () => {
      const host = { n: 1, list: [1] }
      const r = await run(engine, "const v = await tools.t(); v.n = 2; v.list.push(2); Object.prototype.injected = 1; v", {
        tools: { t: returning(() => host) },
      })
      expect(r).toMatchObject({ ok: true, value: { n: 2, list: [1, 2] } })
      expect(host).toEqual({ n: 1, list: [1] })
      expect(({} as Record<string, unknown>)["injected"]).toBeUndefined()
    })
  })

  it("a typed tool's Effect Schema output is decoded before it is copied", async () => {
    const t = Tool.make({
      description: "typed",
      input: Schema.Struct({}),
      output: Schema.Struct({ n: Schema.Number }),
      execute: () => Effect.succeed({ n: 1, extra: { get boom(): never { throw new Error("read") } } } as unknown as { n: number }),
    })
    const r = await run(engine, "await tools.t({})", { tools: { t } })
    expect(r).toMatchObject({ ok: true, value: { n: 1 } })
  })
})
