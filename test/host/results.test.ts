/**
 * Spec "Results", sentence by sentence, and every diagnostic kind of its table; plus the data boundary and the
 * tools tree as programs see them (spec "Tool.make").
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Context, Deferred, Effect, Exit, Fiber, Schema } from "effect"
import { DIAGNOSTIC_KINDS } from "../../src/host/diagnostic.ts"
import { CodeMode, Tool, ToolError } from "../../src/index.ts"
import { ENGINES, makeFor } from "./engines.ts"

const Order = Schema.Struct({ id: Schema.String, status: Schema.String })

const lookup = Tool.make({
  description: "Look up an order by ID",
  input: Schema.Struct({ id: Schema.String }),
  output: Order,
  execute: ({ id }) => (id === "missing" ? Effect.fail(new ToolError({ message: `No order ${id}` })) : Effect.succeed({ id, status: "open" })),
})

/** Echoes its input back: what the host received. */
const echo = Tool.make({ description: "Echo", input: {}, output: {}, execute: (input) => input })

const broken = Tool.make({
  description: "Always fails",
  input: Schema.Struct({}),
  execute: () => Effect.die(new Error("pool exhausted", { cause: new Error("too many clients") })),
})

const badOutput = Tool.make({ description: "Bad output", input: Schema.Struct({}), output: Order, execute: () => Effect.succeed({ id: 42 } as never) })


describe.each(ENGINES)("%s engine", (engine) => {
  const make = makeFor(engine)
  const runtime = make({ tools: { orders: { lookup }, echo, broken, badOutput } })
  const run = (code: string) => runtime.execute(code)

  describe("Results", () => {
    it.effect("every execution returns a Result: ok with value and toolCalls, or not ok with an error", () =>
      Effect.gen(function* () {
        assert.deepStrictEqual(yield* run("1 + 1"), { ok: true, value: 2, toolCalls: [] })
        const failed = yield* run("throw new Error('nope')")
        assert.deepStrictEqual(failed.ok, false)
        assert.deepStrictEqual(failed.toolCalls, [])
      }))

    it.effect("value is JSON-safe", () =>
      Effect.gen(function* () {
        const r = yield* run("return { d: new Date(0), u: undefined, f() {}, n: NaN, z: -0, a: [undefined, () => 1], s: Symbol('x') }")
        assert.deepStrictEqual(r, { ok: true, value: { d: "1970-01-01T00:00:00.000Z", n: null, z: 0, a: [null, null] }, toolCalls: [] })
        assert.deepStrictEqual(yield* run("undefined"), { ok: true, value: null, toolCalls: [] })
      }))

    it.effect("warnings are non-fatal diagnostics", () =>
      Effect.gen(function* () {
        const r = yield* run(`tools.orders.lookup({ id: "missing" }); await tools.orders.lookup({ id: "a" }); return "done"`)
        assert.strictEqual(r.ok, true)
        if (!r.ok) return
        assert.strictEqual(r.value, "done")
        assert.deepStrictEqual(r.warnings?.map((w) => [w.kind, w.message]), [["ToolFailure", "Unhandled promise rejection: No order missing"]])
      }))

    it.effect("logs contain program console output", () =>
      Effect.gen(function* () {
        const r = yield* run(`console.log("hello", { a: 1 }); console.error("oops"); 1`)
        assert.deepStrictEqual(r.logs, ["hello { a: 1 }", "oops"])
      }))

    it.effect("truncated indicates that retained output was cut by maxOutputBytes", () =>
      Effect.gen(function* () {
        const limited = make({ limits: { maxOutputBytes: 50 } })
        const cut = yield* limited.execute(`console.log("x".repeat(100)); "small"`)
        assert.strictEqual(cut.truncated, true)
        const whole = yield* limited.execute(`console.log("x"); "small"`)
        assert.isUndefined(whole.truncated)
      }))

    it.effect("toolCalls retains admitted calls in order, including after failure", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          await tools.orders.lookup({ id: "a" })
          const b = tools.echo({ n: 2 })
          search("orders")
          await b
          throw new Error("after the calls")
        `)
        assert.strictEqual(r.ok, false)
        assert.deepStrictEqual(r.toolCalls.map((c) => c.path), ["tools.orders.lookup", "tools.echo", "search"])
        const runIds = new Set(r.toolCalls.map((c) => c.key.split(":")[0]))
        assert.strictEqual(runIds.size, 1)
        assert.deepStrictEqual(r.toolCalls.map((c) => c.key.split(":")[1]), ["1", "2", "3"])
      }))

    it.effect("host failures and defects report their messages and underlying causes", () =>
      Effect.gen(function* () {
        const r = yield* run(`await tools.broken({})`)
        assert.deepStrictEqual(r.ok === false && r.error, {
          kind: "ToolFailure",
          message: "tools.broken failed: Error: pool exhausted (cause: Error: too many clients)",
          path: "tools.broken",
          location: { line: 1, column: 7 },
        })
      }))

    it.effect("the program reads a refusal's message but not a host fault's cause", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          const out = []
          try { await tools.orders.lookup({ id: "missing" }) } catch (e) { out.push(e.message, e instanceof Error) }
          try { await tools.broken({}) } catch (e) { out.push(e.message) }
          return out
        `)
        assert.deepStrictEqual(r.ok && r.value, ["No order missing", true, "tools.broken failed"])
      }))

    it.effect("a ToolError's data reaches the program", () =>
      Effect.gen(function* () {
        const refuse = Tool.make({ description: "x", input: {}, execute: () => Effect.fail(new ToolError({ message: "Rate limited", data: { retryAfter: 30 } })) })
        const r = yield* make({ tools: { refuse } }).execute(`try { await tools.refuse() } catch (e) { return e.data }`)
        assert.deepStrictEqual(r.ok && r.value, { retryAfter: 30 })
      }))

    it.effect("invalid outputs include the validation or copying error", () =>
      Effect.gen(function* () {
        const r = yield* run(`await tools.badOutput({})`)
        assert.strictEqual(r.ok === false && r.error.kind, "InvalidToolOutput")
        assert.match(r.ok === false ? r.error.message : "", /^tools\.badOutput returned an invalid output: Expected string\n {2}at \["id"\]/)
        const map = Tool.make({ description: "x", input: {}, output: {}, execute: () => ({ index: new Map() }) })
        const copy = yield* make({ tools: { map } }).execute(`await tools.map()`)
        assert.strictEqual(copy.ok === false && copy.error.message, "tools.map returned an invalid output: A Map is not plain data")
      }))

    it.effect("interruption propagates without becoming an error diagnostic", () =>
      Effect.gen(function* () {
        const quit = Tool.make({ description: "x", input: {}, execute: () => Effect.interrupt })
        const exit = yield* Effect.exit(make({ tools: { quit } }).execute(`await tools.quit(); return 1`))
        assert.isTrue(Exit.isFailure(exit) && Exit.hasInterrupts(exit))

        const started = yield* Deferred.make<void>()
        const hang = Tool.make({ description: "x", input: {}, execute: () => Effect.andThen(Deferred.succeed(started, undefined), Effect.never) })
        const fiber = yield* Effect.forkChild(make({ tools: { hang } }).execute(`await tools.hang()`))
        yield* Deferred.await(started)
        const interrupted = yield* Fiber.interrupt(fiber).pipe(Effect.andThen(Fiber.await(fiber)))
        assert.isTrue(Exit.hasInterrupts(interrupted))
      }))
  })

  describe("diagnostic kinds", () => {
    /** Every kind some test below produced, as an error or a warning. */
    const produced = new Set<string>()
    const kindOf = (code: string, rt: { execute: (c: string) => Effect.Effect<CodeMode.Result> } = runtime) =>
      Effect.map(rt.execute(code), (r) => {
        for (const w of r.ok ? (r.warnings ?? []) : [r.error]) produced.add(w.kind)
        return r.ok ? "ok" : r.error.kind
      })

    afterAll(() => {
      assert.deepStrictEqual(DIAGNOSTIC_KINDS.filter((k) => !produced.has(k)), [], "every diagnostic kind of the spec's table is produced by a test")
    })

    it.effect("ParseError: source is empty or cannot be parsed", () =>
      Effect.gen(function* () {
        assert.strictEqual(yield* kindOf(""), "ParseError")
        assert.strictEqual(yield* kindOf("return ("), "ParseError")
      }))

    it.effect("UnsupportedSyntax: parsed JavaScript is outside the supported subset", () =>
      Effect.gen(function* () {
        assert.strictEqual(yield* kindOf("debugger"), "UnsupportedSyntax")
      }))

    it.effect("UnknownTool: the program referenced an unavailable tool, with a did-you-mean", () =>
      Effect.gen(function* () {
        assert.strictEqual(yield* kindOf(`await tools.orders.lokup({ id: "a" })`), "UnknownTool")
        const r = yield* run(`await tools.orders.lokup({ id: "a" })`)
        assert.deepStrictEqual(r.ok === false && r.error, {
          kind: "UnknownTool",
          message: "tools.orders.lokup is not a tool. Did you mean tools.orders.lookup?",
          path: "tools.orders.lokup",
          location: { line: 1, column: 7 },
        })
        assert.deepStrictEqual(r.toolCalls, [])
        const far = yield* run(`await tools.weather.today()`)
        assert.strictEqual(far.ok === false && far.error.message, "tools.weather.today is not a tool. Use search() to find available tools.")
        const nested = yield* run(`await tools.order.lookup({ id: "a" })`)
        assert.strictEqual(nested.ok === false && nested.error.message, "tools.order.lookup is not a tool. Did you mean tools.orders.lookup?")
      }))

    it.effect("InvalidToolInput: tool input failed schema decoding or safe-data copying", () =>
      Effect.gen(function* () {
        assert.strictEqual(yield* kindOf(`await tools.orders.lookup({ id: 42 })`), "InvalidToolInput")
        assert.strictEqual(yield* kindOf(`await tools.echo({ n: 1n })`), "InvalidToolInput")
        assert.strictEqual(yield* kindOf(`const a = {}; a.self = a; await tools.echo(a)`), "InvalidToolInput")
      }))

    it.effect("InvalidToolOutput: tool output failed schema decoding or safe-data copying", () =>
      Effect.gen(function* () {
        assert.strictEqual(yield* kindOf(`await tools.badOutput({})`), "InvalidToolOutput")
        const map = Tool.make({ description: "x", input: {}, output: {}, execute: () => new Map() })
        assert.strictEqual(yield* kindOf(`await tools.map()`, make({ tools: { map } })), "InvalidToolOutput")
      }))

    it.effect("InvalidDataValue: program data violated the plain-data contract", () =>
      Effect.gen(function* () {
        assert.strictEqual(yield* kindOf(`return 10n`), "InvalidDataValue")
        assert.strictEqual(yield* kindOf(`const a = []; a.push(a); return a`), "InvalidDataValue")
      }))

    it.effect("ToolCallLimitExceeded: the program exceeded maxToolCalls", () =>
      Effect.gen(function* () {
        const limited = make({ tools: { orders: { lookup } }, limits: { maxToolCalls: 1 } })
        assert.strictEqual(yield* kindOf(`await tools.orders.lookup({ id: "a" }); await tools.orders.lookup({ id: "b" })`, limited), "ToolCallLimitExceeded")
      }))

    it.live("TimeoutExceeded: execution timed out", () =>
      Effect.gen(function* () {
        assert.strictEqual(yield* kindOf(`while (true) {}`, make({ limits: { timeoutMs: 50 } })), "TimeoutExceeded")
      }))

    it.effect("ToolFailure: a tool refused or failed", () =>
      Effect.gen(function* () {
        assert.strictEqual(yield* kindOf(`await tools.orders.lookup({ id: "missing" })`), "ToolFailure")
        assert.strictEqual(yield* kindOf(`await tools.broken({})`), "ToolFailure")
      }))

    it.effect("ExecutionFailure: the program threw or another execution error occurred", () =>
      Effect.gen(function* () {
        assert.strictEqual(yield* kindOf(`null.x`), "ExecutionFailure")
        const wrapped = yield* run(`try { await tools.broken({}) } catch (e) { throw new Error("wrapped: " + e.message) }`)
        assert.deepStrictEqual(wrapped.ok === false && [wrapped.error.kind, wrapped.error.message], ["ExecutionFailure", "Error: wrapped: tools.broken failed"])
      }))

    it.effect("Truncated: warning only, additional warnings were omitted by maxOutputBytes", () =>
      Effect.gen(function* () {
        const rt = make({ tools: { orders: { lookup } }, limits: { maxOutputBytes: 200 } })
        const code = `for (let i = 0; i < 10; i++) tools.orders.lookup({ id: "missing" }); await tools.orders.lookup({ id: "a" }); 1`
        assert.strictEqual(yield* kindOf(code, rt), "ok")
        const r = yield* rt.execute(code)
        assert.strictEqual(r.ok, true)
        if (!r.ok) return
        assert.strictEqual(r.warnings?.at(-1)?.kind, "Truncated")
        assert.isBelow(r.warnings!.length, 10)
      }))
  })

  describe("the data boundary", () => {
    it.effect("tool arguments follow JSON serialization semantics and are copied at the call", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          const arg = { u: undefined, f() {}, d: new Date(0), n: [NaN, undefined], nested: { x: 1 } }
          const p = tools.echo(arg)
          arg.nested.x = 2
          return await p
        `)
        assert.deepStrictEqual(r.ok && r.value, { d: "1970-01-01T00:00:00.000Z", n: [null, null], nested: { x: 1 } })
      }))

    it.effect("boundary data is limited to 32 nested levels", () =>
      Effect.gen(function* () {
        const nest = (n: number) => `let v = 0; for (let i = 0; i < ${n}; i++) v = [v];`
        assert.strictEqual((yield* run(`${nest(32)} await tools.echo(v); return "ok"`)).ok, true)
        const deep = yield* run(`${nest(33)} await tools.echo(v)`)
        assert.strictEqual(deep.ok === false && deep.error.kind, "InvalidToolInput")
        assert.strictEqual((yield* run(`${nest(32)} return v`)).ok, true)
        const deepResult = yield* run(`${nest(33)} return v`)
        assert.strictEqual(deepResult.ok === false && deepResult.error.kind, "InvalidDataValue")
      }))

    it.effect("tool calls return promises that start eagerly", () =>
      Effect.gen(function* () {
        const started = yield* Deferred.make<void>()
        const first = Tool.make({ description: "x", input: {}, execute: () => Deferred.succeed(started, undefined) })
        const second = Tool.make({ description: "y", input: {}, output: {}, execute: () => Effect.as(Deferred.await(started), "first had started") })
        const r = yield* make({ tools: { first, second } }).execute(`const p = tools.first(); const r = await tools.second(); await p; return [p instanceof Promise, r]`)
        assert.deepStrictEqual(r.ok && r.value, [true, "first had started"])
      }))
  })

  describe("the tools tree in the program", () => {
    it.effect("dots, brackets, and a path both callable and a namespace", () =>
      Effect.gen(function* () {
        const value = (v: string) => Tool.make({ description: v, input: {}, output: {}, execute: () => v })
        const rt = make({ tools: { "files.read": value("read"), files: value("list"), context7: { "resolve-library-id": value("resolved") } } })
        const r = yield* rt.execute(`
          return [await tools.files(), await tools.files.read(), await tools.context7["resolve-library-id"]({ libraryName: "effect" }), typeof tools.files]
        `)
        assert.deepStrictEqual(r.ok && r.value, ["list", "read", "resolved", "function"])
      }))

    it.effect("segments named constructor, prototype and __proto__ are tools like any other", () =>
      Effect.gen(function* () {
        const value = (v: string) => Tool.make({ description: v, input: {}, output: {}, execute: () => v })
        const tree = JSON.parse('{"__proto__": {}}') as Record<string, Record<string, unknown>>
        tree["__proto__"]!["constructor"] = value("c")
        tree["__proto__"]!["prototype"] = value("p")
        const rt = make({ tools: tree as never })
        const r = yield* rt.execute(`return [await tools.__proto__.constructor(), await tools.__proto__.prototype(), Object.keys(tools)]`)
        assert.deepStrictEqual(r.ok && r.value, ["c", "p", ["__proto__"]])
      }))

    it.effect("execute receives the call's key, the same as the Result's toolCalls", () =>
      Effect.gen(function* () {
        const keys: string[] = []
        const record = Tool.make({ description: "x", input: {}, execute: (_, { key }) => void keys.push(key) })
        const r = yield* make({ tools: { record } }).execute(`await tools.record(); await tools.record()`)
        assert.deepStrictEqual(keys, r.toolCalls.map((c) => c.key))
        assert.match(keys[0]!, /^[0-9a-f-]{36}:1$/)
      }))

    it.effect("typeof, in and Object.keys stay sensible around missing names", () =>
      Effect.gen(function* () {
        const r = yield* run(`
          return [typeof tools.orders, Object.keys(tools.orders), "lookup" in tools.orders, "lokup" in tools.orders,
                  typeof tools.orders.lookup, typeof tools.orders.then, JSON.stringify(tools.orders), await tools.orders === tools.orders]
        `)
        assert.deepStrictEqual(r.ok && r.value, ["object", ["lookup"], true, false, "function", "undefined", "{}", true])
      }))
  })

  describe("the Effect environment", () => {
    it.effect("an Effect tool's requirements are provided to runtime.execute and reach the call", () =>
      Effect.gen(function* () {
        class Session extends Context.Service<Session, { readonly user: string }>()("test/Session") {}
        const whoami = Tool.make({ description: "Who am I", input: {}, output: Schema.String, execute: () => Session.useSync((s) => s.user) })
        const r = yield* make({ tools: { whoami } }).execute(`await tools.whoami()`).pipe(Effect.provideService(Session, { user: "ada" }))
        assert.deepStrictEqual(r.ok && r.value, "ada")
      }))
  })

  describe("the run's clock", () => {
    it.effect("Date.now() in a program reads the Effect clock of the run", () =>
      Effect.gen(function* () {
        const r = yield* make().execute(`Date.now()`)
        assert.strictEqual(r.ok && r.value, 0)
      }))
  })
})
