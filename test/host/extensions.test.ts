/**
 * Spec "Extension.make", sentence by sentence, on both engines (plus the extension half of the hooks paragraph of
 * "CodeMode.execute and CodeMode.make"): globals are host functions a program calls directly; synchronous and
 * asynchronous ones; values, Promises and Effects (whose requirements join the runtime's environment); values
 * copied in both directions; functions inside results; object globals and the names hooks see; shadowing; hooks;
 * not tools (catalog, toolCalls, maxToolCalls); timeouts and interruption. Modules are in modules.test.ts, suspend
 * in test/snapshot/extension-suspend.test.ts.
 */
import { assert, describe, expectTypeOf, it } from "@effect/vitest"
import { Context, Deferred, Effect, Schema } from "effect"
import { CodeMode, Extension, Tool, ToolError } from "../../src/index.ts"
import type { ExtensionHookCall, ToolHookOutcome } from "../../src/host/hooks.ts"
import { ENGINES, makeFor } from "./engines.ts"

class Session extends Context.Service<Session, { readonly user: string }>()("test/Session") {}

const value = (r: CodeMode.Result): unknown => {
  if (!r.ok) throw new Error(`expected a successful run, got ${JSON.stringify(r.error)}`)
  return r.value
}
const error = (r: CodeMode.Result): CodeMode.Diagnostic => {
  if (r.ok) throw new Error(`expected a failed run, got ${JSON.stringify(r.value)}`)
  return r.error
}

describe.each(ENGINES)("%s engine", (engine) => {
  const make = makeFor(engine)

  describe("globals", () => {
    it.effect("a global is a function in the program's global scope; a plain function is synchronous and returns its value", () =>
      Effect.gen(function* () {
        const math = Extension.make({ name: "math", globals: { add: (a: number, b: number) => a + b } })
        const r = yield* make({ extensions: [math] }).execute(`
          const sum = add(1, 2)
          return [sum, typeof add, add.name, add.length, sum instanceof Promise, Object.keys(globalThis).includes("add")]
        `)
        assert.deepStrictEqual(value(r), [3, "function", "add", 2, false, false])
      }))

    it.effect("CodeMode.execute takes extensions too", () =>
      Effect.gen(function* () {
        const math = Extension.make({ name: "math", globals: { twice: (n: number) => n * 2 } })
        const r = yield* CodeMode.execute({ code: "twice(21)", extensions: [math], engine })
        assert.strictEqual(value(r), 42)
      }))

    it.effect("what a synchronous global throws, or its Effect fails with, is a thrown error the program catches", () =>
      Effect.gen(function* () {
        const fsLike = Extension.make({
          name: "fs",
          globals: {
            readFileSync: (path: string) => {
              throw Object.assign(new Error(`ENOENT: no such file or directory, open '${path}'`), { code: "ENOENT" })
            },
            check: (n: number) => (n > 0 ? Effect.succeed(n) : Effect.fail(new RangeError("n must be positive"))),
          },
        })
        const r = yield* make({ extensions: [fsLike] }).execute(`
          const caught = []
          try { readFileSync("/x") } catch (e) { caught.push([e instanceof Error, e.message, e.code, String(e), Object.hasOwn(e, "toString")]) }
          try { check(-1) } catch (e) { caught.push([e instanceof RangeError, e.message]) }
          caught.push(check(2))
          return caught
        `)
        assert.deepStrictEqual(value(r), [
          [true, "ENOENT: no such file or directory, open '/x'", "ENOENT", "Error: ENOENT: no such file or directory, open '/x'", false],
          [true, "n must be positive"],
          2,
        ])
        const uncaught = yield* make({ extensions: [fsLike] }).execute(`readFileSync("/y")`)
        assert.deepStrictEqual(error(uncaught), {
          kind: "ExecutionFailure",
          message: "Error: ENOENT: no such file or directory, open '/y'",
          location: { line: 1, column: 1 },
        })
      }))

    it.effect("an async function, or a plain one marked with Extension.async, gives a promise; its failure rejects it", () =>
      Effect.gen(function* () {
        const web = Extension.make({
          name: "web",
          globals: {
            fetchText: async (url: string) => `body of ${url}`,
            fetchJson: Extension.async((url: string) => Promise.resolve({ url })),
            lookup: Extension.async((id: number) => (id === 0 ? Effect.fail(new Error("no such id")) : Effect.succeed({ id }))),
          },
        })
        const r = yield* make({ extensions: [web] }).execute(`
          const p = fetchText("a")
          const failed = await lookup(0).catch((e) => "rejected: " + e.message)
          return [p instanceof Promise, await p, await fetchJson("b"), await lookup(7), failed]
        `)
        assert.deepStrictEqual(value(r), [true, "body of a", { url: "b" }, { id: 7 }, "rejected: no such id"])
      }))

    it.live("a plain function that returns a Promise, or an Effect that does not complete at once, gives a promise", () =>
      Effect.gen(function* () {
        const later = Extension.make({
          name: "later",
          globals: {
            viaPromise: (n: number) => Promise.resolve(n + 1),
            viaEffect: (n: number) => Effect.sleep("1 millis").pipe(Effect.as(n + 2)),
            viaSyncEffect: (n: number) => Effect.sync(() => n + 3),
          },
        })
        const r = yield* make({ extensions: [later] }).execute(`
          const a = viaPromise(1), b = viaEffect(1), c = viaSyncEffect(1)
          return [a instanceof Promise, b instanceof Promise, c, await a, await b]
        `)
        assert.deepStrictEqual(value(r), [true, true, 4, 2, 3])
      }))

    it.live("an Effect's requirements join the runtime's environment: the run's services reach synchronous and asynchronous globals", () =>
      Effect.gen(function* () {
        const auth = Extension.make({
          name: "auth",
          globals: {
            whoami: () => Effect.gen(function* () { return (yield* Session).user }),
            whoamiLater: Extension.async(() => Effect.gen(function* () { return (yield* Session).user })),
          },
        })
        const rt = make({ extensions: [auth] })
        expectTypeOf(rt.execute).returns.toEqualTypeOf<Effect.Effect<CodeMode.Result, never, Session>>()
        const r = yield* rt.execute(`[whoami(), await whoamiLater()]`).pipe(Effect.provideService(Session, { user: "ada" }))
        assert.deepStrictEqual(value(r), ["ada", "ada"])
      }))
  })

  describe("values cross as copies", () => {
    it.effect("arguments come in as copies and results go out as copies, in either direction", () =>
      Effect.gen(function* () {
        const kept: Array<Record<string, unknown>> = []
        const store = Extension.make({
          name: "store",
          globals: {
            keep: (o: Record<string, unknown>) => {
              kept.push(o)
              o.touched = true
              return kept.length
            },
            last: () => kept.at(-1),
          },
        })
        const r = yield* make({ extensions: [store] }).execute(`
          const mine = { n: 1, list: [1, 2] }
          keep(mine)
          mine.n = 2
          const back = last()
          back.list.push(3)
          return [mine, back, last()]
        `)
        assert.deepStrictEqual(value(r), [
          { n: 2, list: [1, 2] },
          { n: 1, list: [1, 2, 3], touched: true },
          { n: 1, list: [1, 2], touched: true },
        ])
        assert.deepStrictEqual(kept, [{ n: 1, list: [1, 2], touched: true }])
      }))

    it.effect("undefined, NaN, -0, BigInt, Date, RegExp, Map, Set, errors, ArrayBuffer and typed arrays cross both ways", () =>
      Effect.gen(function* () {
        let received: ReadonlyArray<unknown> = []
        const echo = Extension.make({ name: "echo", globals: { echo: (...args: unknown[]) => ((received = args), args) } })
        const r = yield* make({ extensions: [echo] }).execute(`
          const [u, nan, negZero, big, date, re, map, set, err, buf, bytes, holes] = echo(
            undefined, NaN, -0, 10n, new Date(5), /a+/gi, new Map([["k", [1]]]), new Set([1, 2]), new TypeError("bad"),
            new Uint8Array([1, 2]).buffer, new Int16Array([-1, 300]), [1, , 3])
          return [u === undefined, Number.isNaN(nan), Object.is(negZero, -0), big === 10n, date instanceof Date && date.getTime(),
            re instanceof RegExp && re.source + "/" + re.flags, map instanceof Map && map.get("k"), set instanceof Set && [...set],
            err instanceof TypeError && err.message, buf instanceof ArrayBuffer && buf.byteLength, bytes instanceof Int16Array && [...bytes],
            holes, 1 in holes]
        `)
        assert.deepStrictEqual(value(r), [true, true, true, true, 5, "a+/gi", [1], [1, 2], "bad", 2, [-1, 300], [1, null, 3], true])
        const [u, nan, negZero, big, date, re, map, set, err, buf, bytes, holes] = received
        assert.strictEqual(u, undefined)
        assert.isNaN(nan)
        assert.isTrue(Object.is(negZero, -0))
        assert.strictEqual(big, 10n)
        assert.deepStrictEqual(date, new Date(5))
        assert.deepStrictEqual(re, /a+/gi)
        assert.deepStrictEqual(map, new Map([["k", [1]]]))
        assert.deepStrictEqual(set, new Set([1, 2]))
        assert.instanceOf(err, Error)
        assert.strictEqual((err as Error).name, "TypeError")
        assert.deepStrictEqual(new Uint8Array(buf as ArrayBuffer), new Uint8Array([1, 2]))
        assert.deepStrictEqual(bytes, new Int16Array([-1, 300]))
        assert.deepStrictEqual(holes, [1, undefined, 3])
      }))

    it.effect("a function or a symbol cannot be passed to the host: a TypeError (a rejection for an asynchronous global)", () =>
      Effect.gen(function* () {
        let called = false
        const ext = Extension.make({ name: "x", globals: { take: (_: unknown) => (called = true), takeLater: async (_: unknown) => (called = true) } })
        const r = yield* make({ extensions: [ext] }).execute(`
          const out = []
          try { take(() => 1) } catch (e) { out.push(e instanceof TypeError && e.message) }
          try { take({ s: Symbol("s") }) } catch (e) { out.push(e instanceof TypeError && e.message) }
          out.push(await takeLater(() => 1).catch((e) => e instanceof TypeError))
          return out
        `)
        assert.deepStrictEqual(value(r), ["take: a function cannot be passed to the host", "take: a Symbol cannot be passed to the host", true])
        assert.isFalse(called)
      }))

    it.effect("a result that cannot be copied (a Promise inside it, a cycle) fails the call with a TypeError", () =>
      Effect.gen(function* () {
        const cyclic: Record<string, unknown> = {}
        cyclic.self = cyclic
        const ext = Extension.make({ name: "x", globals: { pending: () => ({ p: Promise.resolve(1) }), cycle: () => cyclic } })
        const r = yield* make({ extensions: [ext] }).execute(`
          const out = []
          for (const f of [pending, cycle]) try { f() } catch (e) { out.push([e instanceof TypeError, e.message]) }
          return out
        `)
        assert.deepStrictEqual(value(r), [
          [true, "pending returned a value that cannot be copied: A Promise cannot be copied"],
          [true, "cycle returned a value that cannot be copied: Data contains a circular reference"],
        ])
      }))

    it.effect("a function inside a result is callable the same way, on the host object it came from", () =>
      Effect.gen(function* () {
        class Counter {
          n = 0
          get doubled() {
            return this.n * 2
          }
          inc() {
            return ++this.n
          }
          async incLater() {
            return ++this.n
          }
        }
        const ext = Extension.make({
          name: "counters",
          globals: { counter: () => new Counter(), open: async (name: string) => ({ name, read: () => `contents of ${name}`, close: async () => "closed" }) },
        })
        const r = yield* make({ extensions: [ext] }).execute(`
          const c = counter()
          const before = [c.n, c.doubled, Object.keys(c)]
          c.inc(); c.inc()
          const later = c.incLater()
          const n = await later
          const f = await open("a.txt")
          return [before, n, c.n, counter().inc(), later instanceof Promise, f.read(), f.read.name, await f.close()]
        `)
        assert.deepStrictEqual(value(r), [[0, 0, ["n"]], 3, 0, 1, true, "contents of a.txt", "read", "closed"])
      }))
  })

  describe("object globals and hooks", () => {
    it.effect("every function reachable from an object global is an entry point; hooks get its path as the name", () =>
      Effect.gen(function* () {
        const names: string[] = []
        const fs = Extension.make({
          name: "node-fs",
          globals: {
            fs: {
              constants: { F_OK: 0 },
              readFileSync: (p: string) => `sync ${p}`,
              promises: { readFile: async (p: string) => `async ${p}` },
            },
            fetch: async (url: string) => ({ url, text: async () => `text of ${url}`, "odd-name": () => 1 }),
          },
        })
        const r = yield* make({ extensions: [fs], hooks: { extension: { before: (c) => void names.push(`${c.extension}:${c.name}`) } } }).execute(`
          const res = await fetch("u")
          return [fs.constants.F_OK, fs.readFileSync("a"), await fs.promises.readFile("b"), await res.text(), res["odd-name"]()]
        `)
        assert.deepStrictEqual(value(r), [0, "sync a", "async b", "text of u", 1])
        assert.deepStrictEqual(names, ["node-fs:fetch", "node-fs:fs.readFileSync", "node-fs:fs.promises.readFile", "node-fs:fetch().text", 'node-fs:fetch()["odd-name"]'])
      }))

    it.effect("extension.before and extension.after receive { extension, name, args }; after also how the call ended", () =>
      Effect.gen(function* () {
        const seen: Array<[string, ExtensionHookCall, ToolHookOutcome?]> = []
        const ext = Extension.make({
          name: "calc",
          globals: { div: (a: number, b: number) => (b === 0 ? Effect.fail(new RangeError("division by zero")) : Effect.succeed(a / b)), later: async (x: string) => x },
        })
        const r = yield* make({
          extensions: [ext],
          hooks: { extension: { before: (c) => void seen.push(["before", c]), after: (c, o) => void seen.push(["after", c, o]) } },
        }).execute(`
          const out = [div(6, 3), await later("x")]
          try { div(1, 0) } catch (e) { out.push(e.message) }
          return out
        `)
        assert.deepStrictEqual(value(r), [2, "x", "division by zero"])
        assert.deepStrictEqual(
          seen.map(([when, c, o]) => [when, c.extension, c.name, c.args, o?._tag, o?._tag === "success" ? o.value : o?._tag === "failure" ? String(o.error) : undefined]),
          [
            ["before", "calc", "div", [6, 3], undefined, undefined],
            ["after", "calc", "div", [6, 3], "success", 2],
            ["before", "calc", "later", ["x"], undefined, undefined],
            ["after", "calc", "later", ["x"], "success", "x"],
            ["before", "calc", "div", [1, 0], undefined, undefined],
            ["after", "calc", "div", [1, 0], "failure", "RangeError: division by zero"],
          ],
        )
      }))

    it.effect("a failing before denies the call: the host function is never called; a synchronous call throws, an asynchronous one rejects", () =>
      Effect.gen(function* () {
        const calls: string[] = []
        const ext = Extension.make({
          name: "files",
          globals: { rm: (p: string) => void calls.push(`rm ${p}`), rmLater: Extension.async((p: string) => Effect.sync(() => void calls.push(`rmLater ${p}`))) },
        })
        const rt = make({
          extensions: [ext],
          hooks: {
            extension: {
              before: ({ name, args }) =>
                args[0] === "/etc" ? Effect.fail(new ToolError({ message: `${name} of /etc needs approval` })) : args[0] === "/boot" ? Promise.reject(new Error("internal policy")) : undefined,
            },
          },
        })
        const r = yield* rt.execute(`
          const out = []
          try { rm("/etc") } catch (e) { out.push(["threw", e.message]) }
          const p = rmLater("/etc")
          out.push(["promise", p instanceof Promise, await p.catch((e) => e.message)])
          out.push(await rmLater("/boot").catch((e) => e.message))
          rm("/tmp")
          return out
        `)
        assert.deepStrictEqual(value(r), [
          ["threw", "rm of /etc needs approval"],
          ["promise", true, "rmLater of /etc needs approval"],
          "rmLater was denied",
        ])
        assert.deepStrictEqual(calls, ["rm /tmp"])
        // The hooks of a synchronous call cannot wait: one that returns a Promise denies it.
        const asyncHook = yield* rt.execute(`try { rm("/boot") } catch (e) { return e.message }`)
        assert.strictEqual(value(asyncHook), "rm was denied")
        const uncaught = yield* rt.execute(`rm("/etc")`)
        assert.deepStrictEqual(error(uncaught), { kind: "ExecutionFailure", message: "rm was denied: rm of /etc needs approval", path: "rm", location: { line: 1, column: 1 } })
        assert.deepStrictEqual(calls, ["rm /tmp"])
      }))

    it.effect("an after hook that fails makes the call fail", () =>
      Effect.gen(function* () {
        const ext = Extension.make({ name: "x", globals: { now: () => 1, later: async () => 2 } })
        const r = yield* make({ extensions: [ext], hooks: { extension: { after: () => Effect.die("audit log unavailable") } } }).execute(`
          const out = []
          try { now() } catch (e) { out.push(e.message) }
          out.push(await later().catch((e) => e.message))
          return out
        `)
        assert.deepStrictEqual(value(r), ["now failed", "later failed"])
      }))
  })

  describe("extensions are not tools", () => {
    it.effect("they are not in the catalog, not in toolCalls, and not counted against maxToolCalls", () =>
      Effect.gen(function* () {
        const one = Tool.make({ description: "One", input: {}, output: Schema.Number, execute: () => Effect.succeed(1) })
        const ext = Extension.make({ name: "x", globals: { two: () => 2, three: async () => 3 } })
        const rt = make({ tools: { one }, extensions: [ext], limits: { maxToolCalls: 1 } })
        assert.deepStrictEqual(rt.catalog().map((c) => c.path), ["one"])
        const r = yield* rt.execute(`
          let sum = 0
          for (let i = 0; i < 5; i++) sum += two() + (await three())
          return sum + (await tools.one())
        `)
        assert.strictEqual(value(r), 26)
        assert.deepStrictEqual(r.toolCalls.map((c) => c.path), ["tools.one"])
      }))
  })

  describe("time limits and interruption", () => {
    it.live("timeoutMs ends a run stuck in an asynchronous extension call, and interrupts the call", () =>
      Effect.gen(function* () {
        const interrupted = yield* Deferred.make<void>()
        const ext = Extension.make({ name: "x", globals: { hang: Extension.async(() => Effect.never.pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined)))) } })
        const r = yield* make({ extensions: [ext], limits: { timeoutMs: 50 } }).execute(`await hang()`)
        assert.deepStrictEqual(error(r), { kind: "TimeoutExceeded", message: "Execution exceeded the 50 ms time limit" })
        yield* Deferred.await(interrupted)
      }))

    it.live("timeoutMs ends a run waiting on a Promise a plain global returned", () =>
      Effect.gen(function* () {
        const ext = Extension.make({ name: "x", globals: { forever: () => new Promise(() => {}) } })
        const r = yield* make({ extensions: [ext], limits: { timeoutMs: 50 } }).execute(`await forever()`)
        assert.strictEqual(error(r).kind, "TimeoutExceeded")
      }))

    it.effect("an extension call still running when the program returns is interrupted; after sees it as interrupted", () =>
      Effect.gen(function* () {
        const interrupted = yield* Deferred.make<void>()
        const outcomes: string[] = []
        const ext = Extension.make({ name: "x", globals: { hang: Extension.async(() => Effect.never.pipe(Effect.onInterrupt(() => Deferred.succeed(interrupted, undefined)))) } })
        const r = yield* make({ extensions: [ext], hooks: { extension: { after: (_, o) => void outcomes.push(o._tag) } } }).execute(`hang(); return "done"`)
        assert.strictEqual(value(r), "done")
        yield* Deferred.await(interrupted)
        assert.deepStrictEqual(outcomes, ["interrupted"])
      }))
  })
})

describe("CodeMode.make with extensions", () => {
  const ext = (name: string, globals: Record<string, unknown>) => Extension.make({ name, globals })

  it("a global that shadows a built-in or another extension's throws at CodeMode.make", () => {
    for (const builtin of ["JSON", "Promise", "globalThis", "console", "tools", "search", "require"]) {
      assert.throws(() => CodeMode.make({ extensions: [ext("x", { [builtin]: () => 1 })] }), TypeError, `the global ${builtin} would shadow a built-in`)
    }
    assert.throws(
      () => CodeMode.make({ extensions: [ext("a", { fetch: () => 1 }), ext("b", { fetch: () => 2 })] }),
      TypeError,
      "Extension b: the global fetch would shadow the one of extension a",
    )
    assert.throws(() => CodeMode.make({ extensions: [ext("a", { f: () => 1 }), ext("a", { g: () => 2 })] }), TypeError, "Two extensions are named a")
    assert.throws(() => CodeMode.make({ extensions: [{ name: "fake", globals: {} } as never] }), TypeError)
    assert.throws(() => CodeMode.make({ extensions: [ext("a", { pending: { p: Promise.resolve(1) } })] }), TypeError, "the global pending cannot be installed")
    assert.doesNotThrow(() => CodeMode.make({ extensions: [ext("a", { fetch: () => 1 }), ext("b", { fs: {} })], engine: "vm" }))
  })

  it("hooks.extension must hold functions", () => {
    assert.throws(() => CodeMode.make({ hooks: { extension: 1 as never } }), TypeError, "hooks.extension must be an object")
    assert.throws(() => CodeMode.make({ hooks: { extension: { before: 1 as never } } }), TypeError, "hooks.extension.before must be a function")
  })

  it("Extension.make checks its options", () => {
    assert.throws(() => Extension.make({ name: "", globals: {} }), TypeError)
    assert.throws(() => Extension.make({ name: "x", globals: null as never }), TypeError)
    const cyclic: Record<string, unknown> = {}
    cyclic.again = cyclic
    assert.throws(() => Extension.make({ name: "x", globals: { cyclic } }), TypeError, "circular")
    assert.throws(() => Extension.make({ name: "x", globals: {}, snapshot: { encode: () => 1 } as never }), TypeError)
    assert.throws(() => Extension.async(1 as never), TypeError)
  })
})
