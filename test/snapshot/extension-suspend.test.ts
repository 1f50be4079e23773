/**
 * Extensions across a suspended VM run (spec "Idempotent and durable tools, and safe suspension" and
 * "Extension.make"): an extension call in progress blocks a suspend, named by key and path; functions inside
 * results have no data form, so after a resume they throw a TypeError — unless the extension's `snapshot` hooks
 * encode the values holding them at suspend and decode them (once each) on resume; a failing or non-plain `encode`
 * refuses the suspend and the run goes on; a state saved with an extension's hooks resumes only where the
 * extension of that name has hooks too. Calls are gated by Deferreds the test opens.
 */
import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Schema } from "effect"
import { CodeMode, Extension, Tool } from "../../src/index.ts"
import type { Suspended } from "../../src/host/vm-run.ts"

const suspended = (o: CodeMode.Outcome): Suspended => {
  if (o.ok !== "suspended") throw new Error(`expected a suspended run, got ${JSON.stringify(o)}`)
  return o
}
const value = (o: CodeMode.Outcome): unknown => {
  if (o.ok !== true) throw new Error(`expected a successful run, got ${JSON.stringify(o)}`)
  return o.value
}

/** Lets forked fibers run until the run loop is waiting (it parks on its event queue). */
const settle = Effect.gen(function* () {
  for (let i = 0; i < 20; i++) yield* Effect.yieldNow
})

/** A response as spec "Extension.make" shows it: its data under a symbol, methods over it. */
const saved = Symbol("saved")
type Data = { readonly url: string; readonly body: Uint8Array }
const makeResponse = (data: Data) => ({
  [saved]: data,
  url: data.url,
  text: async () => new TextDecoder().decode(data.body),
  size: () => data.body.length,
})
const fetchGlobal = Extension.async(async (url: string) => makeResponse({ url, body: new TextEncoder().encode(`body of ${url}`) }))

const web = (options: { readonly decoded?: Array<string>; readonly encode?: (value: unknown) => unknown } = {}) =>
  Extension.make({
    name: "web",
    globals: { fetch: fetchGlobal },
    snapshot: {
      encode: options.encode ?? ((value) => (value as { [saved]: Data })[saved]),
      decode: (data) => {
        options.decoded?.push((data as Data).url)
        return makeResponse(data as Data)
      },
    },
  })
const webWithoutHooks = Extension.make({ name: "web", globals: { fetch: fetchGlobal } })

/** `tools.pause()` waits until the test opens the gate; after a resume, it answers at once (idempotent). */
const pauseTool = (gate: Deferred.Deferred<number>) =>
  Tool.make({ description: "Pause", input: {}, output: Schema.Number, execute: Tool.idempotent(() => Deferred.await(gate)) })
const instantPause = Tool.make({ description: "Pause", input: {}, output: Schema.Number, execute: () => Effect.succeed(0) })

/** Runs `code` until it waits in `tools.pause()`, suspends it, and gives the state as bytes. */
const suspendAtPause = (extension: Extension.Extension<never>, code: string) =>
  Effect.gen(function* () {
    const gate = yield* Deferred.make<number>()
    const rt = CodeMode.make({ extensions: [extension], tools: { pause: pauseTool(gate) }, engine: "vm" })
    const p = rt.program(code)
    const run = yield* Effect.forkChild(p.run())
    yield* settle
    const out = suspended(yield* p.suspend())
    assert.strictEqual(suspended(yield* Fiber.join(run)), out)
    return CodeMode.toBytes(out.state)
  })

const resumeIn = (extension: Extension.Extension<never>, bytes: Uint8Array) =>
  CodeMode.make({ extensions: [extension], tools: { pause: instantPause }, engine: "vm" }).resume(bytes).run()

describe("extension calls and suspend", () => {
  it.effect("an asynchronous extension call in progress blocks a suspend, named by its key and path; the run goes on", () =>
    Effect.gen(function* () {
      const gate = yield* Deferred.make<string>()
      const ext = Extension.make({ name: "web", globals: { fetch: Extension.async((_url: string) => Deferred.await(gate)) } })
      const p = CodeMode.make({ extensions: [ext], engine: "vm" }).program(`return "got " + (await fetch("u"))`, undefined, { runId: "r" })
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const refused = yield* Effect.flip(p.suspend())
      assert.strictEqual(refused.reason, "Blocked")
      assert.deepStrictEqual(refused.calls, [{ key: "r:1", path: "fetch" }])
      yield* Deferred.succeed(gate, "body")
      assert.strictEqual(value(yield* Fiber.join(run)), "got body")
    }))

  it.effect("so does a Promise a synchronous global returned, named by the global's path", () =>
    Effect.gen(function* () {
      let resolve!: (s: string) => void
      const ext = Extension.make({ name: "fs", globals: { fs: { read: () => new Promise<string>((r) => (resolve = r)) } } })
      const p = CodeMode.make({ extensions: [ext], engine: "vm" }).program(`return await fs.read()`, undefined, { runId: "r" })
      const run = yield* Effect.forkChild(p.run())
      yield* settle
      const refused = yield* Effect.flip(p.suspend())
      assert.deepStrictEqual(refused.calls, [{ key: "r:1", path: "fs.read" }])
      resolve("done")
      assert.strictEqual(value(yield* Fiber.join(run)), "done")
    }))

  it.effect("globals are found by name after a resume, and a settled extension outcome waiting in the inbox is kept", () =>
    Effect.gen(function* () {
      const bytes = yield* suspendAtPause(webWithoutHooks, `const f = fetch; const r = await f("a"); await tools.pause(); return [r.url, (await f("b")).url]`)
      assert.deepStrictEqual(value(yield* resumeIn(webWithoutHooks, bytes)), ["a", "b"])
    }))
})

describe("functions inside results across a suspend", () => {
  it.effect("without snapshot hooks, a function from a result throws a TypeError after the resume; its data is kept", () =>
    Effect.gen(function* () {
      const bytes = yield* suspendAtPause(
        webWithoutHooks,
        `const r = await fetch("a"); const before = r.size(); await tools.pause()
         try { r.size() } catch (e) { return [before, r.url, e instanceof TypeError, e.message] }`,
      )
      assert.deepStrictEqual(value(yield* resumeIn(webWithoutHooks, bytes)), [
        9,
        "a",
        true,
        "fetch().size cannot be called: the value it belongs to was not kept when the run was suspended",
      ])
    }))

  it.effect("snapshot hooks encode each value at suspend and decode it once on resume, through bytes into a new runtime", () =>
    Effect.gen(function* () {
      const decoded: string[] = []
      const bytes = yield* suspendAtPause(web(), `const a = await fetch("a"), b = await fetch("bb"); await tools.pause(); return [await a.text(), a.size(), await b.text(), b.size(), a.size()]`)
      const r = yield* resumeIn(web({ decoded }), CodeMode.toBytes(CodeMode.fromBytes(bytes)))
      assert.deepStrictEqual(value(r), ["body of a", 9, "body of bb", 10, 9])
      assert.deepStrictEqual(decoded.sort(), ["a", "bb"])
    }))

  it.effect("a suspend fails when encode throws or gives data that is not plain, and the run goes on", () =>
    Effect.gen(function* () {
      for (const encode of [
        () => {
          throw new Error("cannot encode")
        },
        () => ({ when: new Map() }),
        () => ({ f: () => 1 }),
      ]) {
        const gate = yield* Deferred.make<number>()
        const p = CodeMode.make({ extensions: [web({ encode })], tools: { pause: pauseTool(gate) }, engine: "vm" }).program(
          `const r = await fetch("a"); await tools.pause(); return r.size()`,
        )
        const run = yield* Effect.forkChild(p.run())
        yield* settle
        const refused = yield* Effect.flip(p.suspend())
        assert.strictEqual(refused.reason, "Unserializable")
        assert.match(refused.message, /extension web: snapshot\.encode (failed: cannot encode|returned data that is not plain)/)
        yield* Deferred.succeed(gate, 0)
        assert.strictEqual(value(yield* Fiber.join(run)), 9)
      }
    }))

  it.effect("a saved path cannot lead from an extension's value to the host's Function", () =>
    Effect.gen(function* () {
      const ext = Extension.make({ name: "x", globals: { make: () => ({ hi: (s: string) => `hi ${s}` }) } })
      const bytes = yield* suspendAtPause(ext, `const o = make(); await tools.pause(); try { return o.hi("return 1") } catch (e) { return [e instanceof TypeError, e.message] }`)
      for (const path of [["make", "constructor", "constructor"], ["make", "call"], ["make", "__proto__", "constructor"]]) {
        const state = structuredClone(CodeMode.fromBytes(bytes)) as unknown as { heap: { records: Array<{ c?: string; f?: unknown[]; a?: unknown[] }> } }
        for (const record of state.heap.records) {
          if (record.c === "ExtensionFunction") record.f![record.f!.indexOf("x") + 1] = 0
          if (record.a?.[0] === "hi") record.a = path
        }
        const r = yield* CodeMode.make({ extensions: [ext], tools: { pause: instantPause }, engine: "vm" }).resume(state as never).run()
        assert.deepStrictEqual(value(r), [true, "make().hi is not a function"])
      }
    }))

  it.effect("a state saved with an extension's hooks resumes only where the extension of that name has hooks (SnapshotError)", () =>
    Effect.gen(function* () {
      const bytes = yield* suspendAtPause(web(), `const r = await fetch("a"); await tools.pause(); return r.size()`)
      const withoutHooks = yield* Effect.exit(resumeIn(webWithoutHooks, bytes))
      assert.isTrue(Exit.isFailure(withoutHooks))
      const error = Exit.isFailure(withoutHooks) ? (withoutHooks.cause.reasons[0] as { error?: unknown }).error : undefined
      assert.instanceOf(error, CodeMode.SnapshotError)
      assert.include((error as Error).message, "extensions this runtime lacks: web, with snapshot hooks")
      const without = yield* Effect.flip(CodeMode.make({ tools: { pause: instantPause }, engine: "vm" }).resume(bytes).run())
      assert.instanceOf(without, CodeMode.SnapshotError)
      assert.strictEqual(value(yield* resumeIn(web(), bytes)), 9)
    }))
})
